"""The reference executor: a readable numpy model of the machine, written from LANGUAGE.md, the seed
pages and the facts file, one function per instruction family. It runs the assembler's structured
instructions (not the bytecode) and shares nothing with the Cython engine but the table and the
state layout, so the differential tests catch a bug in either, or in the encoding.

Execution rules the spec leaves open are fixed in docs/semantics.md; this file follows them.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .. import floats
from ..isa import dtypes
from . import hif8
from ..isa import STOP_CODES
from ..isa.table import CONVERSIONS, INSNS, post_update_base
from ..program import Addr, Insn, Program, SVal
from ..state import (CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN, FAULT_ARGS, LOG_READ,
                     LOG_RESERVE, LOG_WRITE, MASK_SPR_FAULT, MASK_SPR_HIGH, MASK_SPR_LOW, MASK_SPR_SET, PC, SPR_AR, SPR_SQZN, SPR_SQZN_SET, STATUS, STEPS, UREG_ADDR, UREG_PENDING, VL,
                     MachineState)
from ..state import LOOP_COUNT, LOOP_INDEX, MAX_LOOP_COUNT      # issue 11: hardware loops

RUNNING, HALTED = STOP_CODES["RUNNING"], STOP_CODES["HALTED"]
MASK_BITS = VL                     # one mask bit per byte lane
_HALT = object()                   # returned by a family to stop the machine


class Fault(Exception):
    def __init__(self, kind: str, *args: int):
        super().__init__(kind)
        self.code, self.args_ = STOP_CODES[kind], args


def wrap64(value: int) -> int:
    """Two's-complement 64-bit wrap of an unbounded Python integer."""
    return ((value + (1 << 63)) % (1 << 64)) - (1 << 63)


def _stop_flags(flags, n: int) -> list:
    """One stop flag per instruction as a list of bools (None: none set); the length must match."""
    rows = np.zeros(n, bool) if flags is None else np.asarray(flags) != 0
    if rows.shape != (n,):
        raise ValueError(f"stop flags have shape {rows.shape}, expected ({n},): one per instruction")
    return rows.tolist()


class RefMachine:
    def __init__(self, program: Program, state: MachineState, ub_usable: int, max_steps: int,
                 store_inactive: str = "keep", strict: bool = False):
        self.program, self.state = program, state
        self.ub_usable, self.max_steps = ub_usable, max_steps
        self.zero_inactive = store_inactive == "zero"     # LANGUAGE.md §6
        self.strict = strict                              # warnings become faults (LANGUAGE.md §5)
        self.hazard_case = None                           # this step's hazard, recorded if it completes
        self.touched = []                                 # (address, size) of this step's checked accesses
        self.last_row = -1                                # the row the latest run() completed last
        self.log, self.log_length = None, 0              # the write log, when a recorder asks for it
        self.loop_partner = loop_partners(program.insns)  # hardware loops: vloop <-> endloop rows
        self.set_stop_rows(None, None)

    def set_stop_rows(self, before, after):
        """Per-row stop flags (docs/bytecode.md "Stop flags"), each None (no flag) or one value per
        instruction: `run` returns, still running, before a row flagged in `before` (except the call's
        first instruction) and right after a row flagged in `after` completes."""
        n = len(self.program.insns)
        self.stop_before, self.stop_after = _stop_flags(before, n), _stop_flags(after, n)

    def set_log(self, log):
        """Log each executed instruction's UB accesses into `log`, an int64 array of records (None:
        stop); `run` returns, still running, once fewer than LOG_RESERVE records are free
        (docs/bytecode.md "Write log")."""
        self.log, self.log_length = log, 0

    def clear_log(self):
        self.log_length = 0

    def log_full(self) -> bool:
        return self.log is not None and self.log_length > len(self.log) - LOG_RESERVE

    def log_access(self, kind: int, insn: Insn, address: int, width: int, count: int, pitch: int, lane: int,
                   operand: str, index: int = -1):
        """One log record: `count` elements of `width` bytes at address + k*pitch, lanes lane.. of the
        register operand named `operand` (lane -1: no lanes), read (LOG_READ) or written (LOG_WRITE)."""
        if self.log is None:
            return
        position = next(k for k, op in enumerate(insn.spec.operands) if op.name == operand)
        self.log[self.log_length] = (int(self.state.ctrl[STEPS]) + 1, self.state.pc, kind, address, width, count,
                                     pitch, lane, position, index)
        self.log_length += 1

    # ---- the step loop (docs/semantics.md "Steps, halting, limits") ----
    def run(self, budget: int) -> int:
        ctrl = self.state.ctrl
        self.last_row = -1
        if self.log_full():
            return int(ctrl[STATUS])
        while budget > 0 and ctrl[STATUS] == RUNNING:
            pc = int(ctrl[PC])
            if pc >= len(self.program.insns):
                ctrl[STATUS] = HALTED
                break
            if self.stop_before[pc] and self.last_row >= 0:
                break           # not on the call's first instruction; and before the step-limit fault
            if ctrl[STEPS] >= self.max_steps:
                self._stop(Fault("STEP_LIMIT", self.max_steps))
                break
            insn = self.program.insns[pc]
            self.hazard_case, self.touched = None, []
            try:
                outcome = FAMILIES[insn.spec.family](self, insn)
            except Fault as fault:
                self._stop(fault)
                break
            ctrl[STEPS] += 1
            budget -= 1
            self.last_row = pc
            if self.hazard_case is not None:
                self._record_hazard(pc)
            if outcome is _HALT:
                ctrl[STATUS] = HALTED
            else:
                ctrl[PC] = pc + 1 if outcome is None else outcome
                if self.stop_after[pc] or self.log_full():
                    break
        return int(ctrl[STATUS])

    def _stop(self, fault: Fault):
        ctrl = self.state.ctrl
        ctrl[STATUS] = fault.code
        args = list(fault.args_) + [0] * (5 - len(fault.args_))
        ctrl[FAULT_ARGS] = args

    # ---- operand access ----
    def sreg(self, number: int) -> int:
        return int(self.state.sreg[number])

    def set_sreg(self, number: int, value: int):
        self.state.sreg[number] = wrap64(value)

    def value(self, x: SVal) -> int:
        return self.sreg(x.value) if x.is_reg else x.value

    def address(self, addr: Addr) -> int:
        """Constant + scalar registers + address registers (unsigned 32-bit), wrapping at 64 bits."""
        total = addr.const + sum(self.sreg(s) for s in addr.sregs)
        total += sum(int(self.state.areg[a]) for a in addr.aregs)
        return wrap64(total)

    def check_aligned(self, address: int, alignment: int):
        if address % alignment:
            raise Fault("MISALIGNED", address, alignment)

    def check_in_ub(self, address: int, size: int, lane: int = -1, index: int = -1):
        """Range check of one access (docs/semantics.md "Addresses"). Every family calls it for every
        access, then check_hazards, before it writes anything."""
        if not (0 <= address and address + size <= self.ub_usable):
            raise Fault("UB_RANGE", address, size, self.ub_usable, lane, index)
        self.touched.append((address, size))

    def written_since_membar(self) -> np.ndarray:
        """One boolean per UB byte: written since the latest membar (bit j of ub_dirty word b is byte
        32*b + j)."""
        return np.unpackbits(self.state.ub_dirty.view(np.uint8), bitorder="little").astype(bool)

    def check_hazards(self):
        """After every access of the instruction passed its range check: the bytes among them written
        since the latest membar are a hazard (LANGUAGE.md §5), spanning the first to the last such byte
        and named by the writer of the first. A fault under --strict; otherwise recorded when the
        instruction completes (docs/semantics.md "Hazards")."""
        dirty = self.written_since_membar()
        hot = [address + int(k) for address, size in self.touched
               for k in np.flatnonzero(dirty[address:address + size])]
        if not hot:
            return
        first, last = min(hot), max(hot) + 1
        writer = int(self.state.ub_write_row[first])
        if self.strict:
            raise Fault("HAZARD", writer, first, last)
        self.hazard_case = (writer, first, last)

    def _record_hazard(self, row: int):
        """Count a completed instruction's hazard; its row keeps the first case (a fault records none)."""
        record = self.state.hazard_warn[row]
        if record[0] == 0:
            record[1:] = self.hazard_case
        record[0] += 1

    def write_ub(self, address: int, data: np.ndarray):
        """Store bytes (already checked) and remember them as written since the membar, by this row."""
        self.state.ub[address:address + data.size] = data
        self.state.ub_write_row[address:address + data.size] = self.state.pc
        dirty = self.written_since_membar()
        dirty[address:address + data.size] = True
        self.state.ub_dirty[:] = np.packbits(dirty, bitorder="little").view(np.uint32)

    def mask_bits(self, number: int) -> np.ndarray:
        """The 256 bits of a mask register as booleans; bit k is bit k%8 of byte k//8 (LANGUAGE.md §1)."""
        if not self.state.preg_set[number]:
            raise Fault("MASK_UNSET", number)
        return np.unpackbits(self.state.preg[number], bitorder="little").astype(bool)

    def active_lanes(self, number: int, width: int) -> np.ndarray:
        """Element i of width W bytes is governed by bit i*W (facts §1.1)."""
        return self.mask_bits(number)[::width]

    def write_mask(self, number: int, active: np.ndarray, width: int):
        """A width-W producer sets bit i*W of each active element and clears every other bit."""
        bits = np.zeros(MASK_BITS, bool)
        bits[::width] = active
        self.set_mask_bits(number, bits)

    def set_mask_bits(self, number: int, bits: np.ndarray):
        self.state.preg[number] = np.packbits(bits, bitorder="little")
        self.state.preg_set[number] = 1

    def lanes(self, vreg: int, etype) -> np.ndarray:
        """A vector register viewed as elements of `etype` (a view: writing it writes the register)."""
        return self.state.vreg[vreg].view(etype.np_dtype)

    def read_span(self, address: int, size: int, alignment: int) -> np.ndarray:
        """The `size` UB bytes at `address`, after the alignment and range checks (a copy)."""
        self.check_aligned(address, alignment)
        self.check_in_ub(address, size)
        self.check_hazards()
        return self.state.ub[address:address + size].copy()

    def write_slots(self, insn: Insn, address: int, slot_bytes: np.ndarray, written: np.ndarray):
        """Store slot k (row k of `slot_bytes`, lane k of vS) at address + k*slot_size for each k with
        written[k]. Every written slot is range-checked, from slot 0 up, before any byte is stored."""
        slot_size = slot_bytes.shape[1]
        slots = np.flatnonzero(written)
        for k in slots:
            self.check_in_ub(address + k * slot_size, slot_size, lane=int(k))
        self.check_hazards()
        for k in slots:
            self.write_ub(address + k * slot_size, slot_bytes[k])
            self.log_access(LOG_WRITE, insn, address + int(k) * slot_size, slot_size, 1, slot_size, int(k), "vS")


# ---- scalar and control (LANGUAGE.md §4; docs/semantics.md "Scalars") ----
def _trunc_div(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


SCALAR_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": _trunc_div,
    "rem": lambda a, b: a - b * _trunc_div(a, b),
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << (b & 63),
    "shr": lambda a, b: a >> (b & 63),   # Python's >> on a signed int is arithmetic
}
BRANCH_TESTS = {
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
}


def scalar_mov(m: RefMachine, insn: Insn):
    # mov sD, X
    m.set_sreg(insn.operand("sD"), m.value(insn.operand("X")))


def scalar_alu(m: RefMachine, insn: Insn):
    # add/sub/.../shr sD, sA, X  -- 64-bit two's complement, wrapping
    a, b = m.sreg(insn.operand("sA")), m.value(insn.operand("X"))
    if insn.spec.sub in ("div", "rem") and b == 0:
        raise Fault("DIV_ZERO")
    m.set_sreg(insn.operand("sD"), SCALAR_OPS[insn.spec.sub](a, b))


def scalar_load(m: RefMachine, insn: Insn):
    # ld sD.T, [addr]  -- signed types sign-extend, unsigned and raw types zero-extend
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    m.check_hazards()
    element = m.state.ub[address:address + etype.width].view(etype.np_dtype)[0]
    raw_bits = int(m.state.ub[address:address + etype.width].view(etype.bits)[0])
    m.set_sreg(insn.operand("sD"), int(element) if etype.kind == "int" else raw_bits)
    m.log_access(LOG_READ, insn, address, etype.width, 1, etype.width, -1, "sD")


def scalar_store(m: RefMachine, insn: Insn):
    # st [addr], sS.T  -- the low W bytes of sS
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    m.check_hazards()
    low_bits = m.sreg(insn.operand("sS")) % (1 << (8 * etype.width))
    m.write_ub(address, np.array([low_bits], etype.bits).view(np.uint8))
    m.log_access(LOG_WRITE, insn, address, etype.width, 1, etype.width, -1, "sS")


def branch(m: RefMachine, insn: Insn):
    # b LABEL
    return insn.operand("LABEL")


def cond_branch(m: RefMachine, insn: Insn):
    # beq/bne/blt/ble/bgt/bge sA, X, LABEL  -- signed comparison
    a, b = m.sreg(insn.operand("sA")), m.value(insn.operand("X"))
    if BRANCH_TESTS[insn.spec.sub](a, b):
        return insn.operand("LABEL")
    return None


def membar(m: RefMachine, insn: Insn):
    # membar [KIND]  -- ascasm executes in program order; the barrier ends the hazard window
    m.state.ub_dirty[:] = 0


def halt(m: RefMachine, insn: Insn):
    return _HALT


# ---- setup: masks and address registers (facts §2.1, §2.2, §7) ----
_VL_COUNTS = {"VL1": 1, "VL2": 2, "VL3": 3, "VL4": 4, "VL8": 8, "VL16": 16, "VL32": 32, "VL64": 64, "VL128": 128}


def pattern_active(pattern: str, lanes: int) -> np.ndarray:
    """Which of `lanes` elements a CreateMask pattern selects (LANGUAGE.md §4 Setup)."""
    i = np.arange(lanes)
    if pattern in _VL_COUNTS:
        return i < _VL_COUNTS[pattern]        # VLn beyond the lane count selects every lane
    return {"ALL": i >= 0, "M3": i % 3 == 0, "M4": i % 4 == 0, "H": i < lanes // 2,
            "Q": i < lanes // 4, "ALLF": i < 0}[pattern]


def mask_pattern(m: RefMachine, insn: Insn):
    # mask pD.bW, PAT
    (width_type,) = insn.types
    active = pattern_active(insn.operand("PAT"), width_type.lanes)
    m.write_mask(insn.operand("pD"), active, width_type.width)


def mask_update(m: RefMachine, insn: Insn):
    # mask.upd pD.bW, sN  -- UpdateMask: i active iff i < sN, then sN -= lanes (not below 0)
    (width_type,) = insn.types
    lanes, counter = width_type.lanes, insn.operand("sN")
    remaining = m.sreg(counter)
    m.write_mask(insn.operand("pD"), np.arange(lanes) < remaining, width_type.width)
    m.set_sreg(counter, 0 if remaining < lanes else remaining - lanes)


def iter_set(m: RefMachine, insn: Insn):
    # iter aD.bW, X  -- aD = X * W bytes, a 32-bit register
    (width_type,) = insn.types
    m.state.areg[insn.operand("aD")] = (m.value(insn.operand("X")) * width_type.width) % (1 << 32)


def iter_scaled(m: RefMachine, insn: Insn):
    # iter aD.bW, sI, STRIDE  -- aD = sI * STRIDE * W bytes
    (width_type,) = insn.types
    offset = m.sreg(insn.operand("sI")) * insn.operand("STRIDE") * width_type.width
    m.state.areg[insn.operand("aD")] = offset % (1 << 32)


# ---- mask logic (facts §2.4): all 256 bits, zeroing gate ----
MASK_LOGIC = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def mask_logic(m: RefMachine, insn: Insn):
    # pand/por/pxor pD, pA, pB, pG  -- pD = (pA op pB) where pG, else 0
    a, b = m.mask_bits(insn.operand("pA")), m.mask_bits(insn.operand("pB"))
    gate = m.mask_bits(insn.operand("pG"))
    m.set_mask_bits(insn.operand("pD"), MASK_LOGIC[insn.spec.sub](a, b) & gate)


def mask_not(m: RefMachine, insn: Insn):
    # pnot pD, pS, pG  -- pD = ~pS where pG, else 0
    source, gate = m.mask_bits(insn.operand("pS")), m.mask_bits(insn.operand("pG"))
    m.set_mask_bits(insn.operand("pD"), ~source & gate)


def mask_move(m: RefMachine, insn: Insn):
    # pmov pD, pS
    m.set_mask_bits(insn.operand("pD"), m.mask_bits(insn.operand("pS")))


# ---- loads (facts §3.2-3.4) ----
def vld_norm(m: RefMachine, insn: Insn):
    # vld vD.T, [addr]  -- NORM: 256 contiguous bytes, 32-byte aligned
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = m.read_span(address, VL, 32)
    m.log_access(LOG_READ, insn, address, etype.width, etype.lanes, etype.width, 0, "vD")


def vld_brc(m: RefMachine, insn: Insn):
    # vld.brc vD.T, [addr]  -- BRC: one element, broadcast to every lane
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    element = m.read_span(address, etype.width, etype.width)
    m.state.vreg[insn.operand("vD")] = np.tile(element, etype.lanes)
    m.log_access(LOG_READ, insn, address, etype.width, 1, etype.width, -1, "vD")


def vld_us(m: RefMachine, insn: Insn):
    # vld.us vD.T, [addr]  -- US: 128 bytes; dst[2i] = dst[2i+1] = src[i]
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, VL // 2, 32).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.repeat(source, 2).view(np.uint8)
    m.log_access(LOG_READ, insn, address, VL // 2, 1, VL // 2, -1, "vD")


def vld_ds(m: RefMachine, insn: Insn):
    # vld.ds vD.T, [addr]  -- DS: 512 bytes; dst[i] = src[2i]
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, 2 * VL, 32).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.ascontiguousarray(source[0::2]).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 2 * VL, 1, 2 * VL, -1, "vD")


def vld_unpk(m: RefMachine, insn: Insn):
    # vld.unpk vD.T, [addr]  -- UNPK: 128 bytes of T, each zero-extended to twice T's width
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, VL // 2, 32).view(etype.bits)
    double_width = np.dtype(f"u{2 * etype.width}")
    m.state.vreg[insn.operand("vD")] = source.astype(double_width).view(np.uint8)
    m.log_access(LOG_READ, insn, address, VL // 2, 1, VL // 2, -1, "vD")


def vld_dintlv(m: RefMachine, insn: Insn):
    # vld.dintlv vD0.T, vD1.T, [addr]  -- DINTLV: 512 bytes; even elements -> vD0, odd -> vD1 (written last)
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    source = m.read_span(address, 2 * VL, 32).view(etype.bits)
    m.state.vreg[insn.operand("vD0")] = np.ascontiguousarray(source[0::2]).view(np.uint8)
    m.state.vreg[insn.operand("vD1")] = np.ascontiguousarray(source[1::2]).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 2 * VL, 1, 2 * VL, -1, "vD0")


def _ub_bits(raw: np.ndarray) -> np.ndarray:
    return np.unpackbits(raw, bitorder="little").astype(bool)


def mask_load_norm(m: RefMachine, insn: Insn):
    # vld pD, [addr]  -- 32 bytes -> 256 bits
    address = m.address(insn.operand("[addr]"))
    raw = m.read_span(address, VL // 8, 32)
    m.set_mask_bits(insn.operand("pD"), _ub_bits(raw))
    m.log_access(LOG_READ, insn, address, VL // 8, 1, VL // 8, -1, "pD")


def mask_load_us(m: RefMachine, insn: Insn):
    # vld.us pD, [addr]  -- 16 bytes; bit j -> bits 2j and 2j+1
    address = m.address(insn.operand("[addr]"))
    raw = m.read_span(address, VL // 16, 16)
    m.set_mask_bits(insn.operand("pD"), np.repeat(_ub_bits(raw), 2))
    m.log_access(LOG_READ, insn, address, VL // 16, 1, VL // 16, -1, "pD")


def mask_load_ds(m: RefMachine, insn: Insn):
    # vld.ds pD, [addr]  -- 64 bytes; bit 2j -> bit j
    address = m.address(insn.operand("[addr]"))
    raw = m.read_span(address, VL // 4, 32)
    m.set_mask_bits(insn.operand("pD"), _ub_bits(raw)[0::2])
    m.log_access(LOG_READ, insn, address, VL // 4, 1, VL // 4, -1, "pD")


def _indexed_lanes(m: RefMachine, insn: Insn, base_name: str):
    """Shared shape of gather and scatter (facts §5): the lane pitch is the wider of data and index
    (b8 data rides in 16-bit lanes), the mask is read at that pitch, and active lane i addresses
    base + idx[i] * sizeof(data). Returns (pitch, [(lane, index, address)] of active lanes)."""
    data_type, index_type = insn.types
    pitch = max(data_type.width, index_type.width)
    active = m.active_lanes(insn.operand("pM"), pitch)[:VL // pitch]
    base = m.address(insn.operand(base_name))
    m.check_aligned(base, 32)
    indices = m.state.vreg[insn.operand("vI")].view(index_type.bits)
    requests = []
    for lane in np.flatnonzero(active):
        index = int(indices[lane])
        address = wrap64(base + index * data_type.width)
        m.check_in_ub(address, data_type.width, lane=int(lane), index=wrap64(index))   # as the int64 it is stored as
        requests.append((int(lane), index, address))
    m.check_hazards()
    return pitch, requests


def vgat(m: RefMachine, insn: Insn):
    # vgat vD.T, [base], vI.U, pM  -- active lane i <- element at base + idx[i]*W; inactive lanes 0
    data_type, _ = insn.types
    pitch, requests = _indexed_lanes(m, insn, "[base]")
    gathered = np.zeros(VL // pitch, np.dtype(f"u{pitch}"))   # b8 data: zero-extended into 16-bit lanes
    for lane, _index, address in requests:
        gathered[lane] = m.state.ub[address:address + data_type.width].view(data_type.bits)[0]
    m.state.vreg[insn.operand("vD")] = gathered.view(np.uint8)
    for lane, index, address in requests:
        m.log_access(LOG_READ, insn, address, data_type.width, 1, data_type.width, lane, "vD", wrap64(index))


# ---- stores (seed 002 asc_storealign; seeds 000/001 scatter) ----
def _store_lane_slots(m: RefMachine, insn: Insn, slot_size: int):
    """NORM/PACK/PACKV2 shape: active lane i's low `slot_size` bytes -> slot i of the region at addr.
    With --store-inactive zero, inactive lanes' slots are written with 0 (LANGUAGE.md §6)."""
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    lanes = m.state.vreg[insn.operand("vS")].reshape(etype.lanes, etype.width)
    slots = lanes[:, :slot_size].copy()                   # little-endian: the low bytes come first
    if m.zero_inactive:
        slots[~active] = 0
        active = np.ones_like(active)
    m.write_slots(insn, address, slots, active)


def vsta_norm(m: RefMachine, insn: Insn):
    # vsta [addr], vS.T, pM  -- NORM: active lane i -> addr + i*W
    _store_lane_slots(m, insn, insn.types[0].width)


def vsta_pack(m: RefMachine, insn: Insn):
    # vsta.pack [addr], vS.T, pM  -- PACK: low half of active lane i -> slot i of width W/2
    _store_lane_slots(m, insn, insn.types[0].width // 2)


def vsta_packv2(m: RefMachine, insn: Insn):
    # vsta.packv2 [addr], vS.T, pM  -- PACKV2: low byte of active (32-bit) lane i -> byte slot i
    _store_lane_slots(m, insn, 1)


def vsta_first(m: RefMachine, insn: Insn):
    # vsta.1st [addr], vS.T  -- FIRST: lane 0 only, mask ignored, element-aligned
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    m.check_hazards()
    m.write_ub(address, m.state.vreg[insn.operand("vS")][:etype.width])
    m.log_access(LOG_WRITE, insn, address, etype.width, 1, etype.width, 0, "vS")


def vsta_intlv(m: RefMachine, insn: Insn):
    # vsta.intlv [addr], vS0.T, vS1.T  -- INTLV: addr + 2i*W <- S0[i], addr + (2i+1)*W <- S1[i]
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    m.check_in_ub(address, 2 * VL)
    m.check_hazards()
    interleaved = np.empty(2 * etype.lanes, etype.bits)
    interleaved[0::2] = m.state.vreg[insn.operand("vS0")].view(etype.bits)
    interleaved[1::2] = m.state.vreg[insn.operand("vS1")].view(etype.bits)
    m.write_ub(address, interleaved.view(np.uint8))
    m.log_access(LOG_WRITE, insn, address, etype.width, etype.lanes, 2 * etype.width, 0, "vS0")
    m.log_access(LOG_WRITE, insn, address + etype.width, etype.width, etype.lanes, 2 * etype.width, 0, "vS1")


def mask_store_norm(m: RefMachine, insn: Insn):
    # vsta [addr], pS  -- 256 bits -> 32 bytes
    bits = m.mask_bits(insn.operand("pS"))
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    m.check_in_ub(address, VL // 8)
    m.check_hazards()
    m.write_ub(address, np.packbits(bits, bitorder="little"))
    m.log_access(LOG_WRITE, insn, address, VL // 8, 1, VL // 8, -1, "pS")


def mask_store_pack(m: RefMachine, insn: Insn):
    # vsta.pack [addr], pS  -- the even bits (bit 2j -> bit j) -> 16 bytes
    bits = m.mask_bits(insn.operand("pS"))
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 16)
    m.check_in_ub(address, VL // 16)
    m.check_hazards()
    m.write_ub(address, np.packbits(bits[0::2], bitorder="little"))
    m.log_access(LOG_WRITE, insn, address, VL // 16, 1, VL // 16, -1, "pS")


def vsct(m: RefMachine, insn: Insn):
    # vsct [base], vS.T, vI.U, pM  -- for active lane i: base + vI[i]*W <- vS[i] (element indices);
    # b8 data: request i stores source byte 2i (its 16-bit lane's low byte)
    data_type, _ = insn.types
    width = data_type.width
    pitch, requests = _indexed_lanes(m, insn, "[base]")
    first_lane_at = {}
    duplicate = None
    for lane, _index, address in requests:
        if address in first_lane_at and duplicate is None:
            duplicate = (first_lane_at[address], lane, address)
        first_lane_at.setdefault(address, lane)
    if duplicate is not None:
        if m.strict:
            raise Fault("DUP_INDEX", *duplicate)
        record = m.state.dup_warn[m.state.pc]
        if record[0] == 0:
            record[1:] = duplicate
        record[0] += 1
    source = m.state.vreg[insn.operand("vS")]
    for lane, _index, address in requests:        # lane order: the highest duplicate lane wins
        m.write_ub(address, source[lane * pitch:lane * pitch + width])
    for lane, index, address in requests:
        m.log_access(LOG_WRITE, insn, address, width, 1, width, lane, "vS", wrap64(index))


# ---- reductions (seed 003 Reduce; LANGUAGE.md §4 Reductions) ----
def _canonical_nans(values: np.ndarray, etype) -> np.ndarray:
    if etype.kind == "float":
        values = np.where(np.isnan(values), floats.canonical_nan(etype), values)
    return values


def reduce_sum(m: RefMachine, insn: Insn):
    # vredsum vD.T, vS.U, pM  -- pairwise tree over all lanes, inactive = +0, each partial rounded to T
    dest_type, source_type = insn.types
    active = m.active_lanes(insn.operand("pM"), source_type.width)[:source_type.lanes]
    source = m.lanes(insn.operand("vS"), source_type)
    result = np.zeros(dest_type.lanes, dest_type.np_dtype)
    result[0] = pairwise_sum(np.where(active, source, 0), dest_type)
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def pairwise_sum(values: np.ndarray, dest_type):
    """(x0+x1), (x2+x3), ... then pairs of those, every partial rounded to T (integers wrap); the values are
    converted to T first (s16 -> s32 sign-extends, u16 zero-extends)."""
    level = values.astype(dest_type.np_dtype)
    with np.errstate(all="ignore"):
        while level.size > 1:
            level = _canonical_nans(level[0::2] + level[1::2], dest_type)        # numpy rounds each sum to T
    return level[0]


def _is_better(x, best, want_max: bool) -> bool:
    """x beats best: strictly larger (smaller); between zeros, +0 is above -0 (seed 003)."""
    if x == best and x == 0 and x.dtype.kind == "f":
        return bool(np.signbit(best) if want_max else np.signbit(x)) and np.signbit(x) != np.signbit(best)
    return bool(x > best) if want_max else bool(x < best)


def reduce_maxmin(m: RefMachine, insn: Insn):
    # vredmax/vredmin vD.T, vS.T, pM  -- lane 0 = value, lane 1 = first index (raw bits), rest 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    best, best_index = best_lane(m.lanes(insn.operand("vS"), etype), active, insn.spec.sub == "max", etype)
    result = np.zeros(etype.lanes, etype.bits)
    result[0] = np.array(best, etype.np_dtype).view(etype.bits)
    result[1] = best_index
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def best_lane(source: np.ndarray, active: np.ndarray, want_max: bool, etype):
    """(value, index) of the max (min) of the active lanes: the first that no later one beats strictly; the
    first active NaN wins with its own bits; none active: the identity (-inf / the type's minimum for max)
    and index 0."""
    if etype.kind == "float":
        best = np.array(-np.inf if want_max else np.inf, etype.np_dtype)[()]
    else:
        limits = np.iinfo(etype.np_dtype)
        best = etype.np_dtype.type(limits.min if want_max else limits.max)
    best_index = 0
    found = False
    for lane in np.flatnonzero(active):
        x = source[lane]
        if etype.kind == "float" and np.isnan(x):     # the first NaN wins with its own bits
            best, best_index = x, int(lane)
            break
        if not found or _is_better(x, best, want_max):
            best, best_index, found = x, int(lane), True
    return best, best_index


# ---- vector compute (facts §8, §2.3; docs/semantics.md "Vector compute") ----
# Floats: every operand widened to float64 (exact), the operation done there, the result rounded once
# to T by floats.round_to_type (NaN -> T's canonical NaN). Integers wrap modulo 2^W.

def typed_value(m: RefMachine, x: SVal, etype) -> np.ndarray:
    """An X.T operand as a one-element array of T. Immediates already hold T's bits, and so does a
    register written with T's suffix (its low W bits); a register without a suffix is converted now:
    integers keep its low W bits, floats take its int64 value rounded once to T."""
    if x.is_reg and not x.raw and etype.kind == "float":
        return floats.round_to_type([floats.exact_float64(m.sreg(x.value))], etype)
    raw = m.sreg(x.value) if x.is_reg else x.value
    return np.array([raw % (1 << (8 * etype.width))], etype.bits).view(etype.np_dtype)


def _wide(lanes: np.ndarray) -> np.ndarray:
    """Float lanes as float64, exactly (numpy warns when the bits are a signalling NaN; it stays a NaN)."""
    with np.errstate(invalid="ignore"):
        return lanes.astype(np.float64)


def _zeroed(active: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Active lanes keep their value, inactive lanes become 0 (all bits clear)."""
    return np.where(active, values, np.zeros_like(values))


def vdup(m: RefMachine, insn: Insn):
    # vdup vD.T, X.T  -- every lane = X
    (etype,) = insn.types
    m.lanes(insn.operand("vD"), etype)[:] = np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes)


def vdup_masked(m: RefMachine, insn: Insn):
    # vdup vD.T, X.T, pM  -- active lanes = X; inactive lanes 0
    (etype,) = insn.types
    lanes = np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes)
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    m.lanes(insn.operand("vD"), etype)[:] = _zeroed(active, lanes)


def round_ties_up(values: np.ndarray, etype) -> np.ndarray:
    """float64 values rounded once to f16/f32, to nearest with ties toward +inf (the Arange table 38:
    -65504 + i in half gives 16/32/32/32/16 lanes per value)."""
    nearest = floats.round_to_type(values, etype)
    with np.errstate(over="ignore", invalid="ignore"):          # beside the largest value: inf, never a tie
        up = np.nextafter(nearest, np.array(np.inf, etype.np_dtype))
        tie = (_wide(nearest) < values) & (_wide(up) - values == values - _wide(nearest))
    return np.where(tie, up, nearest)


def vci(m: RefMachine, insn: Insn):
    # vci vD.T, X.T  -- lane i = X + i (integers wrap; floats: X + i rounded once, ties toward +inf)
    (etype,) = insn.types
    m.lanes(insn.operand("vD"), etype)[:] = arange(typed_value(m, insn.operand("X"), etype), np.arange(etype.lanes), etype)


def arange(x: np.ndarray, offsets: np.ndarray, etype) -> np.ndarray:
    """X + each offset: integers wrap; floats rounded once, ties toward +inf (exact in double wherever a
    tie is possible, |X| < 2^31)."""
    if etype.kind == "float":
        return round_ties_up(_wide(x) + offsets, etype)
    with np.errstate(all="ignore"):
        return x + offsets.astype(etype.np_dtype)                 # wraps modulo 2^W


def _maxmin(a: np.ndarray, b: np.ndarray, want_max: bool, etype) -> np.ndarray:
    """Lane-wise max/min: -0 counts below +0; for floats a NaN on either side gives the canonical NaN."""
    x, y = (_wide(a), _wide(b)) if etype.kind == "float" else (a, b)
    if want_max:
        take_b = (y > x) | ((x == y) & np.signbit(x) & ~np.signbit(y))
    else:
        take_b = (y < x) | ((x == y) & np.signbit(y) & ~np.signbit(x))
    result = np.where(take_b, b, a)
    if etype.kind == "float":
        result = np.where(np.isnan(x) | np.isnan(y), floats.canonical_nan(etype), result)
    return result.astype(etype.np_dtype)


def _int_divide(x: int, y: int, etype) -> int:
    """Integer lane division toward zero; x / 0 = all ones; the quotient wraps (min / -1 = min)."""
    return -1 if y == 0 else _trunc_div(x, y)


def _wrapped(values, etype) -> np.ndarray:
    return np.array([v % (1 << (8 * etype.width)) for v in values], etype.bits).view(etype.np_dtype)


ARITHMETIC = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "div_nftz": np.divide}
# The sub-operations whose default flushes subnormal inputs and results to zero (the pages' default
# algorithms of asc_div/asc_exp/asc_sqrt); their `_nftz` forms keep subnormals.
FLUSHING = ("div", "exp", "sqrt", "ln")


def flush_subnormals(values: np.ndarray, etype) -> np.ndarray:
    """Float lanes with a subnormal value replaced by the zero of the same sign (integers unchanged)."""
    if etype.kind != "float":
        return values
    bits = values.view(etype.bits)
    sign = etype.bits.type(1 << (8 * etype.width - 1))
    subnormal = (np.abs(_wide(values)) < float(dtypes.finfo(etype).smallest_normal)) & (bits & ~sign != 0)
    return np.where(subnormal, bits & sign, bits).astype(etype.bits).view(etype.np_dtype)


def binary_lanes(op: str, a: np.ndarray, b: np.ndarray, etype) -> np.ndarray:
    """add|sub|mul|div|max|min (the sub-operation) on every lane of a and b (arrays of T)."""
    if op in ("max", "min"):
        return _maxmin(a, b, op == "max", etype)
    if etype.kind == "float" and op in FLUSHING:
        return flush_subnormals(binary_lanes(op + "_nftz", flush_subnormals(a, etype), flush_subnormals(b, etype),
                                             etype), etype)
    if etype.kind == "float":
        with np.errstate(all="ignore"):
            return floats.round_to_type(ARITHMETIC[op](_wide(a), _wide(b)), etype)
    if op == "div":
        return _wrapped([_int_divide(x, y, etype) for x, y in zip(a.tolist(), b.tolist())], etype)
    with np.errstate(all="ignore"):
        return ARITHMETIC[op](a, b)                # numpy integer arrays wrap modulo 2^W


def vbinary(m: RefMachine, insn: Insn):
    # vadd|vsub|vmul|vdiv|vmax|vmin vD.T, vA.T, vB.T, pM  -- zeroing; vadd.merge|vmax.merge|vmin.merge: merging
    (etype,) = insn.types
    b = m.lanes(insn.operand("vB"), etype).copy()
    _binary(m, insn, etype, b)


def vbinary_x(m: RefMachine, insn: Insn):
    # vadds|vmuls|vmaxs|vmins vD.T, vA.T, X.T, pM  -- every lane's second operand is X; zeroing
    (etype,) = insn.types
    _binary(m, insn, etype, np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes))


def _binary(m: RefMachine, insn: Insn, etype, b: np.ndarray):
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).copy()
    op = insn.spec.sub.removesuffix("_merge")
    result = binary_lanes(op, a, b, etype)
    if op != insn.spec.sub:       # MERGING (appendix merge-mode.md table 2, Add/Max/Min in software)
        _merge_lanes(m, insn, result.view(etype.bits))
    else:
        m.lanes(insn.operand("vD"), etype)[:] = _zeroed(active, result)


def _libm_exp(x: float) -> float:
    """C's exp(x) (Python's math.exp calls it), with its overflow to inf instead of an exception."""
    try:
        return math.exp(x)
    except OverflowError:
        return math.inf


def unary_lanes(op: str, a: np.ndarray, etype) -> np.ndarray:
    """abs|neg|exp|sqrt|ln and the _nftz forms (the sub-operation) on every lane of a (an array of T)."""
    if op in FLUSHING:
        return flush_subnormals(unary_lanes(op + "_nftz", flush_subnormals(a, etype), etype), etype)
    if op == "relu":                                          # max(x, +0): -0 -> +0, NaN -> the hardware NaN
        return _maxmin(a, np.zeros_like(a), True, etype)
    if etype.kind == "float" and op in ("abs", "neg"):       # sign-bit operations: NaN payloads stay
        sign = etype.bits.type(1 << (8 * etype.width - 1))
        bits = a.view(etype.bits)
        return (bits & ~sign if op == "abs" else bits ^ sign).view(etype.np_dtype)
    if op in ("abs", "neg"):
        with np.errstate(all="ignore"):
            return np.abs(a) if op == "abs" else np.negative(a)      # numpy wraps: |min| = -min = min
    wide = _wide(a)
    with np.errstate(all="ignore"):
        exact = {"exp_nftz": lambda: np.array([_libm_exp(x) for x in wide.tolist()]), "sqrt_nftz": lambda: np.sqrt(wide),
                 "ln_nftz": lambda: np.log(wide)}[op]()         # numpy's log: libm's, ln(0) = -inf
    return floats.round_to_type(exact, etype)


def vunary(m: RefMachine, insn: Insn):
    # vabs|vneg|vexp|vsqrt|vln vD.T, vA.T, pM  -- zeroing
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).copy()
    m.lanes(insn.operand("vD"), etype)[:] = _zeroed(active, unary_lanes(insn.spec.sub, a, etype))


COMPARISONS = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
               "gt": np.greater, "ge": np.greater_equal}


def vcmp(m: RefMachine, insn: Insn):
    # vcmp.CC pD, vA.T, vB.T, pM  -- bit i*W set for active lanes where the comparison holds
    (etype,) = insn.types
    _compare(m, insn, etype, m.lanes(insn.operand("vB"), etype))


def _compare(m: RefMachine, insn: Insn, etype, b: np.ndarray):
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype)
    if etype.kind == "float":
        a, b = _wide(a), _wide(b)
    holds = COMPARISONS[insn.spec.sub](a, b)                       # NaN: false except ne; -0 == +0
    m.write_mask(insn.operand("pD"), active & holds, etype.width)


def vsel(m: RefMachine, insn: Insn):
    # vsel vD.T, vA.T, vB.T, pM  -- raw bits of vA where active, of vB elsewhere
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    b = m.lanes(insn.operand("vB"), etype).view(etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = np.where(active, a, b)


BITWISE = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}


def vlogic(m: RefMachine, insn: Insn):
    # vand|vor|vxor vD.T, vA.T, vB.T, pM  -- on the lanes' bits (floats too); inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    b = m.lanes(insn.operand("vB"), etype).view(etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = _zeroed(active, BITWISE[insn.spec.sub](a, b))


def pcnt(m: RefMachine, insn: Insn):
    # pcnt sD, pM.bW  -- number of lanes i < 256/W with bit i*W set
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    m.set_sreg(insn.operand("sD"), int(np.count_nonzero(active)))


FAMILIES = {f.__name__: f for f in (
    scalar_mov, scalar_alu, scalar_load, scalar_store, branch, cond_branch, membar, halt,
    mask_pattern, mask_update, iter_set, iter_scaled, mask_logic, mask_not, mask_move,
    vld_norm, vld_brc, vld_us, vld_ds, vld_unpk, vld_dintlv, mask_load_norm, mask_load_us, mask_load_ds, vgat,
    vsta_norm, vsta_first, vsta_pack, vsta_packv2, vsta_intlv, mask_store_norm, mask_store_pack, vsct,
    reduce_sum, reduce_maxmin, vdup, vdup_masked, vci, vbinary, vbinary_x, vunary, vcmp, vsel, pcnt, vlogic,
)}


# ---- issue 12: conversions (c-api-reg/data_type_convert, rounding_mode.md; docs/semantics.md "Conversions") ----

def _rounds_overflow_to_inf(mode: str, negative: np.ndarray) -> np.ndarray:
    """Whether a finite value beyond T's range rounds to inf (IEEE 754): the modes rounding away from
    zero in its direction do; truncation, round-to-odd and the other direction stop at the largest
    finite value."""
    if mode in ("rint", "round"):
        return np.ones_like(negative)
    return {"ceil": ~negative, "floor": negative}.get(mode, np.zeros_like(negative))


def integer_lanes(values: np.ndarray, src, dst, mode: str, sat: bool) -> np.ndarray:
    """Lanes converted to integer type dst: a float is rounded to an integer by `mode` (NaN gives 0,
    +-inf dst's max / min); a value beyond dst's range saturates (sat) or keeps its low bits."""
    bits = 8 * dst.width
    lowest, highest = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dst.kind == "int" else (0, (1 << bits) - 1)
    results = []
    for v in (_wide(values) if src.kind == "float" else values).tolist():
        if isinstance(v, float) and math.isnan(v):
            r = 0
        elif isinstance(v, float) and math.isinf(v):
            r = highest if v > 0 else lowest
        else:
            r = int(floats.ROUNDERS[mode](np.float64(v))) if isinstance(v, float) else int(v)   # exact
            r = min(max(r, lowest), highest) if sat else r
        results.append(r % (1 << bits))
    return np.array(results, dtype=np.uint64).astype(dst.bits).view(dst.np_dtype)


def convert_lanes(values: np.ndarray, src, dst, mode: str, sat: bool, keep_nan: bool = False) -> np.ndarray:
    """Lanes of type src converted to type dst, rounded by `mode` ("exact": no rounding needed).
    To a float, without sat: overflow as IEEE 754 per mode, +-inf stays, NaN gives dst's canonical NaN
    (e4m3, without inf, gives NaN for both); with sat: overflow and +-inf give +-max, NaN gives +0.
    Integer sources are exact in float64 (beyond 2^53 rounded to odd, which keeps every later rounding
    to at most 51 bits right); an integer widening always saturates (Cast.md). keep_nan (CTRL[50]): NaN
    stays NaN under sat."""
    if "hif8" in (src.name, dst.name):
        return hif8.convert_lanes(values, src, dst, mode, sat)
    if src.kind != "float" and dst.kind != "float":
        sat = sat or dst.width > src.width
    if dst.kind != "float":
        return integer_lanes(values, src, dst, "rint" if mode == "exact" else mode, sat)
    if src.kind == "float":
        wide = _wide(values)
    else:
        wide = np.array([floats.exact_float64(int(v)) for v in values.tolist()], np.float64)
    with np.errstate(invalid="ignore"):
        out = floats.round_to_type(wide, dst, "rint" if mode == "exact" else mode).astype(np.float64)
    largest = np.copysign(float(dtypes.finfo(dst).max), wide)
    overflowed = np.isfinite(wide) & ~np.isfinite(out)
    if sat:
        out = np.where(np.isnan(wide) & ~keep_nan, 0.0, np.where(overflowed | np.isinf(wide), largest, out))
    else:
        out = np.where(overflowed & ~_rounds_overflow_to_inf(mode, np.signbit(wide)), largest, out)
    return floats.round_to_type(out, dst)          # exact: out holds values of dst (or inf, NaN)


PART_NUMBER = {"even": 0, "odd": 1, "part0": 0, "part1": 1, "part2": 2, "part3": 3}


def vcvt(m: RefMachine, insn: Insn):
    # vcvt[.MODE] vD.T, vS.U, pM[, sat][, PART]  -- the mask governs the source lanes; all else 0
    dst, src = insn.types
    ratio = max(dst.width, src.width) // min(dst.width, src.width)
    part = PART_NUMBER[insn.operand("PART") or "even"]
    active = m.active_lanes(insn.operand("pM"), src.width)[:src.lanes]
    values = m.lanes(insn.operand("vS"), src).copy()
    out = np.zeros(dst.lanes, dst.np_dtype)
    sat = conversion_saturates(m.state, insn.operand("SAT") is not None, src, dst)
    keep_nan = sat and dst.name in ("e4m3", "e5m2") and _ctrl_bit(m.state, CTRL_SAT_KEEPS_NAN)
    if dst.width < src.width:                 # narrowing: source lane i -> destination lane ratio*i + part
        converted = convert_lanes(values, src, dst, insn.spec.sub, sat, keep_nan)
        out[part::ratio] = _zeroed(active, converted)
    else:                                     # widening (or same width): destination lane i <- source lane ratio*i + part
        picked = slice(part, None, ratio)
        converted = convert_lanes(values[picked], src, dst, insn.spec.sub, sat, keep_nan)
        out[:] = _zeroed(active[picked], converted)
    m.lanes(insn.operand("vD"), dst)[:] = out


def vtrc(m: RefMachine, insn: Insn):
    # vtrc.MODE vD.T, vS.T, pM  -- rounded to an integral value of T (asc_rint ... asc_trunc); zeroing
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    wide = _wide(m.lanes(insn.operand("vS"), etype))
    with np.errstate(invalid="ignore"):                       # NaN lanes stay NaN
        integral = floats.ROUNDERS[insn.spec.sub](wide)      # exact in float64; signs of zero kept
    m.lanes(insn.operand("vD"), etype)[:] = _zeroed(active, floats.round_to_type(integral, etype))


FAMILIES["vcvt"] = vcvt
FAMILIES["vtrc"] = vtrc


# ---- issue 13: compute families (c-api-reg compare_and_select, logic_compute) ----
def vcmp_x(m: RefMachine, insn: Insn):
    # vcmps.CC pD, vA.T, X.T, pM  -- vcmp against X in every lane
    (etype,) = insn.types
    _compare(m, insn, etype, np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes))


def vnot(m: RefMachine, insn: Insn):
    # vnot vD.T, vA.T, pM  -- ~vA on the lanes' bits (floats too); inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = _zeroed(active, np.invert(a))


def shifted(op: str, x: int, amount: int, etype) -> int:
    """One lane x (T's value) shifted by `amount` bits, as T's bits: unsigned logical; signed left keeps the
    sign bit and shifts the bits below it, signed right is arithmetic; an amount outside [0, W) shifts
    every bit out (asc_shiftleft/asc_shiftright: 0, or -1 for a negative lane shifted right)."""
    width = 8 * etype.width
    mask, sign = (1 << width) - 1, 1 << (width - 1)
    out_of_range = not 0 <= amount < width
    if op == "shr" and etype.kind == "int":
        return (x >> (width - 1 if out_of_range else amount)) & mask       # Python's >> is arithmetic
    if out_of_range:
        return 0
    bits = x & mask
    if op == "shl" and etype.kind == "int":
        return (bits & sign) | ((bits << amount) & (sign - 1))
    return ((bits << amount) if op == "shl" else (bits >> amount)) & mask


def _shift(m: RefMachine, insn: Insn, etype, amounts):
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).tolist()
    result = np.array([shifted(insn.spec.sub, x, n, etype) for x, n in zip(a, amounts)], etype.bits)
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = _zeroed(active, result)


def vshift(m: RefMachine, insn: Insn):
    # vshl|vshr vD.T, vA.T, vB.U, pM  -- lane i shifted by vB[i] (U: T's width, signed); inactive lanes 0
    etype, amount_type = insn.types
    _shift(m, insn, etype, m.lanes(insn.operand("vB"), amount_type).tolist())


def vshift_x(m: RefMachine, insn: Insn):
    # vshls|vshrs vD.T, vA.T, X, pM  -- every lane shifted by X's low 16 bits, signed (the page's int16_t)
    (etype,) = insn.types
    amount = (m.value(insn.operand("X")) + (1 << 15)) % (1 << 16) - (1 << 15)
    _shift(m, insn, etype, [amount] * etype.lanes)


FAMILIES.update({f.__name__: f for f in (vcmp_x, vnot, vshift, vshift_x)})


def vmov(m: RefMachine, insn: Insn):
    # vmov vD.T, vA.T, pM  -- active lanes of vD = vA's bits; inactive lanes keep vD (merging)
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).view(etype.bits)
    d = m.lanes(insn.operand("vD"), etype).view(etype.bits)
    d[:] = np.where(active, a, d)


def fused_multiply_add(x, y, z, etype):
    """x * y + z rounded once to T (f16/f32 lanes): exactly in rationals, made a double rounded to odd
    (which rounds on to T as the exact value does), then rounded to T; non-finite operands in double."""
    if not all(math.isfinite(v) for v in (x, y, z)):
        return floats.round_to_type(np.array([x * y + z]), etype)[0]
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    nearest = float(exact)
    if Fraction(nearest) != exact and int(np.float64(nearest).view(np.uint64)) % 2 == 0:
        nearest = float(np.nextafter(nearest, math.inf if exact > nearest else -math.inf))
    if exact == 0:
        nearest = (x * y) + z                 # the sign of an exact zero sum, as IEEE gives it
    return floats.round_to_type(np.array([nearest]), etype)[0]


def _fma_lanes(m: RefMachine, insn: Insn, etype, products: list, addends: list):
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    result = np.array([fused_multiply_add(x, y, z, etype) for (x, y), z in zip(products, addends)], etype.np_dtype)
    m.lanes(insn.operand("vD"), etype)[:] = _zeroed(active, result)


def vfma(m: RefMachine, insn: Insn):
    # vmadd vD.T, vA.T, vB.T, pM  -- vD = vD * vA + vB, rounded once (asc_madd); inactive lanes 0
    (etype,) = insn.types
    d, a, b = (_wide(m.lanes(insn.operand(name), etype)).tolist() for name in ("vD", "vA", "vB"))
    _fma_lanes(m, insn, etype, list(zip(d, a)), b)


def vfma_x(m: RefMachine, insn: Insn):
    # vaxpy vD.T, vA.T, X.T, pM  -- vD = vA * X + vD, rounded once (asc_axpy); inactive lanes 0
    (etype,) = insn.types
    x = float(_wide(typed_value(m, insn.operand("X"), etype))[0])
    a, d = (_wide(m.lanes(insn.operand(name), etype)).tolist() for name in ("vA", "vD"))
    _fma_lanes(m, insn, etype, [(v, x) for v in a], d)


FAMILIES.update({f.__name__: f for f in (vmov, vfma, vfma_x)})


# ---- issue 13: rearrangement (c-api-reg data_rearrange, data_compress) ----
def _write_pair(m: RefMachine, insn: Insn, elements: np.ndarray):
    """The first half of `elements` (raw bits, 2 * lanes) -> vD0, the second -> vD1 (written last)."""
    half = elements.size // 2
    m.state.vreg[insn.operand("vD0")] = np.ascontiguousarray(elements[:half]).view(np.uint8)
    m.state.vreg[insn.operand("vD1")] = np.ascontiguousarray(elements[half:]).view(np.uint8)


def vintlv(m: RefMachine, insn: Insn):
    # vintlv vD0.T, vD1.T, vA.T, vB.T  -- A0 B0 A1 B1 ...: the first VL bytes -> vD0, the rest -> vD1
    (etype,) = insn.types
    both = np.empty(2 * etype.lanes, etype.bits)
    both[0::2] = m.state.vreg[insn.operand("vA")].view(etype.bits)
    both[1::2] = m.state.vreg[insn.operand("vB")].view(etype.bits)
    _write_pair(m, insn, both)


def vdintlv(m: RefMachine, insn: Insn):
    # vdintlv vD0.T, vD1.T, vA.T, vB.T  -- the elements of vA then vB: even ones -> vD0, odd ones -> vD1
    (etype,) = insn.types
    both = np.concatenate([m.state.vreg[insn.operand(name)].view(etype.bits) for name in ("vA", "vB")])
    _write_pair(m, insn, np.concatenate([both[0::2], both[1::2]]))


def vunpack(m: RefMachine, insn: Insn):
    # vunpack.lo|hi vD.T, vA.U  -- the low (high) half of vA's elements, widened to T
    dest_type, source_type = insn.types
    source = m.lanes(insn.operand("vA"), source_type)
    start = 0 if insn.spec.sub == "lo" else dest_type.lanes
    m.state.vreg[insn.operand("vD")] = source[start:start + dest_type.lanes].astype(dest_type.np_dtype).view(np.uint8)


FAMILIES.update({f.__name__: f for f in (vintlv, vdintlv, vunpack)})


# ---- issue 13: datablock reductions (c-api-reg reduce_compute asc_reduce_*_datablock) ----
BLOCK_BYTES = 32


def reduce_sum_block(m: RefMachine, insn: Insn):
    # vredsum.blk vD.T, vS.U, pM  -- lane k of vD = the pairwise sum of 32-byte block k's active lanes
    dest_type, source_type = insn.types
    active = m.active_lanes(insn.operand("pM"), source_type.width)[:source_type.lanes]
    values = np.where(active, m.lanes(insn.operand("vS"), source_type), 0)
    per_block = BLOCK_BYTES // source_type.width
    result = np.zeros(dest_type.lanes, dest_type.np_dtype)
    for k in range(VL // BLOCK_BYTES):
        result[k] = pairwise_sum(values[k * per_block:(k + 1) * per_block], dest_type)
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def reduce_maxmin_block(m: RefMachine, insn: Insn):
    # vredmax.blk|vredmin.blk vD.T, vS.T, pM  -- lane k of vD = the max (min) of block k's active lanes
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    source = m.lanes(insn.operand("vS"), etype)
    per_block = BLOCK_BYTES // etype.width
    result = np.zeros(etype.lanes, etype.bits)
    for k in range(VL // BLOCK_BYTES):
        block = slice(k * per_block, (k + 1) * per_block)
        best, _ = best_lane(source[block], active[block], insn.spec.sub == "max", etype)
        result[k] = np.array(best, etype.np_dtype).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


FAMILIES.update({f.__name__: f for f in (reduce_sum_block, reduce_maxmin_block)})


# ---- issue 13: pack (c-api-reg data_compress asc_pack_to_low/high, asc_unpack mask forms) ----
def vpack(m: RefMachine, insn: Insn):
    # vpack.lo|hi vD.T, vA.U  -- the low T bits of every lane of vA -> the low (high) half of vD; other half 0
    dest_type, source_type = insn.types
    source = m.state.vreg[insn.operand("vA")].view(source_type.bits)
    result = np.zeros(dest_type.lanes, dest_type.bits)
    start = 0 if insn.spec.sub == "lo" else source_type.lanes
    result[start:start + source_type.lanes] = source.astype(dest_type.bits)       # keeps the low bits
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


def mask_pack(m: RefMachine, insn: Insn):
    # ppack.lo|hi pD, pS  -- the even bits of pS -> the low (high) 128 bits of pD; the rest 0
    bits = np.zeros(MASK_BITS, bool)
    start = 0 if insn.spec.sub == "lo" else MASK_BITS // 2
    bits[start:start + MASK_BITS // 2] = m.mask_bits(insn.operand("pS"))[0::2]
    m.set_mask_bits(insn.operand("pD"), bits)


def mask_unpack(m: RefMachine, insn: Insn):
    # punpack.lo|hi pD, pS  -- the low (high) 128 bits of pS: bit j -> bit 2j of pD, odd bits 0
    start = 0 if insn.spec.sub == "lo" else MASK_BITS // 2
    bits = np.zeros(MASK_BITS, bool)
    bits[0::2] = m.mask_bits(insn.operand("pS"))[start:start + MASK_BITS // 2]
    m.set_mask_bits(insn.operand("pD"), bits)


FAMILIES.update({f.__name__: f for f in (vpack, mask_pack, mask_unpack)})


# ---- issue 13: histograms (c-api-reg histogram_compute) ----
def vhist(m: RefMachine, insn: Insn):
    # vhist.binB|vchist.binB vD.u16, vA.u8, pM  -- counts of the active values in bin B (base 128*B) added
    # to vD: lane v - base (frequency), or lane n: the values with v - base <= n (cumulative)
    dest_type, source_type = insn.types
    sub = insn.spec.sub
    base = 128 * int(sub[-1])
    active = m.active_lanes(insn.operand("pM"), source_type.width)[:source_type.lanes]
    values = m.lanes(insn.operand("vA"), source_type)[active].astype(np.int64) - base
    counts = np.bincount(values[(values >= 0) & (values < 128)], minlength=128)
    if sub.startswith("cbin"):
        counts = np.cumsum(counts)
    dest = m.lanes(insn.operand("vD"), dest_type)
    dest[:] = (dest.astype(np.int64) + counts) % (1 << 16)


FAMILIES.update({f.__name__: f for f in (vhist,)})


# ---- issue 13: mask-register select and interleaves (facts §2.4) ----
def mask_select(m: RefMachine, insn: Insn):
    # psel pD, pA, pB, pG  -- pA's bits where pG is set, pB's elsewhere
    a, b, select = (m.mask_bits(insn.operand(name)) for name in ("pA", "pB", "pG"))
    m.set_mask_bits(insn.operand("pD"), np.where(select, a, b))


def _write_mask_pair(m: RefMachine, insn: Insn, bits: np.ndarray):
    m.set_mask_bits(insn.operand("pD0"), bits[:MASK_BITS])
    m.set_mask_bits(insn.operand("pD1"), bits[MASK_BITS:])          # written last


def mask_intlv(m: RefMachine, insn: Insn):
    # pintlv pD0.bW, pD1, pA, pB  -- W-bit groups A0 B0 A1 B1 ...: the first 256 bits -> pD0, the rest -> pD1
    (width_type,) = insn.types
    groups = [m.mask_bits(insn.operand(name)).reshape(-1, width_type.width) for name in ("pA", "pB")]
    _write_mask_pair(m, insn, np.stack(groups, axis=1).reshape(-1))


def mask_dintlv(m: RefMachine, insn: Insn):
    # pdintlv pD0.bW, pD1, pA, pB  -- W-bit groups of pA then pB: even groups -> pD0, odd groups -> pD1
    (width_type,) = insn.types
    both = np.concatenate([m.mask_bits(insn.operand(name)) for name in ("pA", "pB")])
    pairs = both.reshape(-1, 2, width_type.width)
    _write_mask_pair(m, insn, np.concatenate([pairs[:, 0].reshape(-1), pairs[:, 1].reshape(-1)]))


FAMILIES.update({f.__name__: f for f in (mask_select, mask_intlv, mask_dintlv)})


# ---- issue 13: activations, abs-sub, pair sum (c-api-reg arithmetic_compute, compound, reduce) ----
def compound_lanes(op: str, a: np.ndarray, b: np.ndarray, etype) -> np.ndarray:
    """prelu: a where its sign bit is clear (+0 and a positive NaN pass unchanged: boundary tables 10 and
    24 give 0 for +0 * inf), else a * b rounded once; abssub: |a - b| rounded once (float lanes)."""
    x, y = _wide(a), _wide(b)
    with np.errstate(all="ignore"):
        if op == "prelu":
            return np.where(np.signbit(x), floats.round_to_type(x * y, etype), a)
        return floats.round_to_type(np.abs(x - y), etype)


def _compound(m: RefMachine, insn: Insn, etype, b: np.ndarray):
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a = m.lanes(insn.operand("vA"), etype).copy()
    m.lanes(insn.operand("vD"), etype)[:] = _zeroed(active, compound_lanes(insn.spec.sub, a, b, etype))


def vcompound(m: RefMachine, insn: Insn):
    # vprelu|vabssub vD.T, vA.T, vB.T, pM  -- inactive lanes 0
    (etype,) = insn.types
    _compound(m, insn, etype, m.lanes(insn.operand("vB"), etype).copy())


def vcompound_x(m: RefMachine, insn: Insn):
    # vleakyrelu vD.T, vA.T, X.T, pM  -- prelu with X in every lane
    (etype,) = insn.types
    _compound(m, insn, etype, np.repeat(typed_value(m, insn.operand("X"), etype), etype.lanes))


def vpairsum(m: RefMachine, insn: Insn):
    # vpairsum vD.T, vS.T, pM  -- lane i = vS[2i] + vS[2i+1] (the active ones), upper half 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    source = m.lanes(insn.operand("vS"), etype)
    result = np.zeros(etype.lanes, etype.bits)
    for i in range(etype.lanes // 2):
        present = [source[k] for k in (2 * i, 2 * i + 1) if active[k]]
        if len(present) == 2:
            with np.errstate(invalid="ignore"):                # inf + -inf: NaN, made the hardware NaN
                present = [floats.round_to_type([float(present[0]) + float(present[1])], etype)[0]]
        if present:
            result[i] = np.array(present[0], etype.np_dtype).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = result.view(np.uint8)


FAMILIES.update({f.__name__: f for f in (vcompound, vcompound_x, vpairsum)})


# ---- issue 13: descending arange, duplicate of a lane (c-api-reg index_operate, data_fill) ----
def vci_desc(m: RefMachine, insn: Insn):
    # vci.desc vD.T, X.T  -- lane i = X + (lanes - 1 - i)
    (etype,) = insn.types
    offsets = np.arange(etype.lanes)[::-1].copy()
    m.lanes(insn.operand("vD"), etype)[:] = arange(typed_value(m, insn.operand("X"), etype), offsets, etype)


def vdup_lane(m: RefMachine, insn: Insn):
    # vdup.v vD.T, vA.T, pM  -- lane 0 of vA in every active lane, inactive lanes 0
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    first = m.state.vreg[insn.operand("vA")].view(etype.bits)[0]
    m.state.vreg[insn.operand("vD")].view(etype.bits)[:] = np.where(active, first, etype.bits.type(0))


FAMILIES.update({f.__name__: f for f in (vci_desc, vdup_lane)})


def vmull(m: RefMachine, insn: Insn):
    # vmull vD0.T, vD1.T, vA.T, vB.T, pM  -- the 64-bit product: low 32 bits -> vD0, high -> vD1 (last)
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    a, b = (m.lanes(insn.operand(name), etype).tolist() for name in ("vA", "vB"))
    products = [(x * y) % (1 << 64) if on else 0 for x, y, on in zip(a, b, active)]    # two's complement bits
    m.state.vreg[insn.operand("vD0")] = np.array([p & 0xFFFFFFFF for p in products], np.uint32).view(np.uint8)
    m.state.vreg[insn.operand("vD1")] = np.array([p >> 32 for p in products], np.uint32).view(np.uint8)


FAMILIES.update({f.__name__: f for f in (vmull,)})
# ---- issue 11: squeeze, the special registers AR and SQZN, unaligned store streams (docs/semantics.md
# "Squeeze and unaligned store streams") ----
def vsqz(m: RefMachine, insn: Insn):
    # vsqz|vsqz.st vD.T, vS.T, pM  -- the active lanes in order -> the lowest lanes, the rest 0;
    # vsqz.st also sets SQZN to the bytes kept
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    kept = m.lanes(insn.operand("vS"), etype).view(etype.bits)[active]
    packed = np.zeros(etype.lanes, etype.bits)
    packed[:kept.size] = kept
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = packed
    if insn.spec.sub == "status":
        m.state.spr[SPR_SQZN] = kept.size * etype.width
        m.state.spr[SPR_SQZN_SET] = 1


def vusqz(m: RefMachine, insn: Insn):
    # vusqz vD.T, pM  -- lane i = the number of active lanes below i (lane 0: 0)
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    below = np.concatenate(([0], np.cumsum(active)[:-1]))
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = below.astype(etype.bits)


def spr_clear(m: RefMachine, insn: Insn):
    # sprclr.ar  -- AR = 0
    m.state.spr[SPR_AR] = 0


def _stream_append(m: RefMachine, insn: Insn, u: int, address: int, data: np.ndarray, width: int):
    """Append the bytes `data` at `address` to the stream of unaligned store register u: the bytes
    pending in u followed by `data` form one run; the 32-byte blocks it completes are written now, the
    bytes of its last incomplete block stay pending in u."""
    state = m.state.ureg_state[u]
    pending, pending_at = int(state[UREG_PENDING]), int(state[UREG_ADDR])
    m.check_aligned(address, width)
    if pending and address != pending_at + pending:
        raise Fault("STREAM_BREAK", u, address, pending_at, pending)
    if not (0 <= address and address + data.size <= m.ub_usable):
        raise Fault("UB_RANGE", address, data.size, m.ub_usable, -1, -1)
    start = pending_at if pending else address
    end = address + data.size
    written_up_to = max(start, end - end % 32)
    run = np.concatenate([m.state.ureg[u, :pending], data])
    if written_up_to > start:
        m.check_in_ub(start, written_up_to - start)
        m.check_hazards()
        m.write_ub(start, run[:written_up_to - start])
        if pending:
            held = min(address, written_up_to) - start
            m.log_access(LOG_WRITE, insn, start, held, 1, held, -1, "uS")
        if written_up_to > address:
            m.log_access(LOG_WRITE, insn, address, width, (written_up_to - address) // width, width, 0, "vS")
    rest = run[written_up_to - start:]
    m.state.ureg[u] = 0
    m.state.ureg[u, :rest.size] = rest
    state[:] = (rest.size, written_up_to if rest.size else 0)


def vstus(m: RefMachine, insn: Insn):
    # vstus [addr], uS, vS.T, X  -- the low X lanes of vS appended to the stream of uS at addr
    (etype,) = insn.types
    count = m.value(insn.operand("X"))
    if not 0 <= count <= etype.lanes:
        raise Fault("BAD_COUNT", count, etype.lanes)
    data = m.state.vreg[insn.operand("vS")][:count * etype.width].copy()
    _stream_append(m, insn, insn.operand("uS"), m.address(insn.operand("[addr]")), data, etype.width)


def vstur(m: RefMachine, insn: Insn):
    # vstur [base], uS, vS.T  -- the low SQZN bytes of vS appended at base + AR; then AR += SQZN
    (etype,) = insn.types
    spr = m.state.spr
    if not spr[SPR_SQZN_SET]:
        raise Fault("SPR_UNSET", SPR_SQZN)
    size = int(spr[SPR_SQZN])
    address = wrap64(m.address(insn.operand("[base]")) + int(spr[SPR_AR]))
    data = m.state.vreg[insn.operand("vS")][:size].copy()
    _stream_append(m, insn, insn.operand("uS"), address, data, etype.width)
    spr[SPR_AR] = wrap64(int(spr[SPR_AR]) + size)


def vstas(m: RefMachine, insn: Insn):
    # vstas|vstar [addr], uS  -- flush: the bytes pending in uS, which must end at addr (vstar: addr + AR)
    u = insn.operand("uS")
    state = m.state.ureg_state[u]
    pending, start = int(state[UREG_PENDING]), int(state[UREG_ADDR])
    end = m.address(insn.operand("[addr]"))
    if insn.spec.sub == "ar":
        end = wrap64(end + int(m.state.spr[SPR_AR]))
    if pending == 0:
        return
    if end != start + pending:
        raise Fault("STREAM_BREAK", u, end, start, pending)
    m.check_in_ub(start, pending)
    m.check_hazards()
    m.write_ub(start, m.state.ureg[u, :pending].copy())
    m.log_access(LOG_WRITE, insn, start, pending, 1, pending, -1, "uS")
    m.state.ureg[u] = 0
    state[:] = 0


FAMILIES.update({f.__name__: f for f in (vsqz, vusqz, spr_clear, vstus, vstur, vstas)})


def post_update(m: RefMachine, insn: Insn):
    # <base>.pu ..., [sB], ..., X  -- the base row's access at the address in sB; then sB += X elements
    # of T (vector forms) or X bytes (mask forms)
    base = post_update_base(insn.spec)
    register = insn.operand("[sB]")
    operands = tuple(Addr(0, (register,), ()) if value_spec.name == "[sB]" else value
                     for value_spec, value in zip(insn.spec.operands, insn.operands))[:len(base.operands)]
    FAMILIES[base.family](m, Insn(base, insn.types, operands, insn.loc))
    unit = insn.types[0].width if insn.spec.post == "T" else 1
    m.set_sreg(register, m.sreg(register) + m.value(insn.operand("X")) * unit)




# ---- issue 11: unaligned load streams: a load alignment register q holds one 32-byte UB block and the
# stream position it was loaded for ----
def _hold_block(m: RefMachine, insn: Insn, q: int, position: int):
    """q := the block holding `position` (zeros when position is 32-byte aligned), for that position."""
    m.state.qreg[q] = 0
    if position % 32:
        block = position - position % 32
        m.state.qreg[q] = m.state.ub[block:block + 32]
        m.log_access(LOG_READ, insn, block, 32, 1, 32, -1, "qL")
    m.state.qreg_state[q] = (1, position)


def vldas(m: RefMachine, insn: Insn):
    # vldas qL, [addr]  -- start an unaligned load stream at addr
    q, address = insn.operand("qL"), m.address(insn.operand("[addr]"))
    if not 0 <= address <= m.ub_usable:
        raise Fault("UB_RANGE", address, 0, m.ub_usable, -1, -1)
    if address % 32:
        m.check_in_ub(address - address % 32, 32)
        m.check_hazards()
    _hold_block(m, insn, q, address)


def _load_unaligned(m: RefMachine, insn: Insn, address: int, advance: int):
    """vD = the 256 bytes from address: those below the next 32-byte boundary from q's block, the rest
    from the UB; then q holds the block of address + advance."""
    (etype,) = insn.types
    q = insn.operand("qL")
    loaded_for, position = (int(x) for x in m.state.qreg_state[q])
    if not loaded_for:
        raise Fault("ALIGN_UNSET", q)
    if address != position:
        raise Fault("ALIGN_BREAK", q, address, position)
    m.check_aligned(address, etype.width)
    head = -address % 32
    m.check_in_ub(address + head, VL - head)
    following = wrap64(address + advance)
    if following % 32:
        m.check_in_ub(following - following % 32, 32)
    m.check_hazards()
    loaded = np.concatenate([m.state.qreg[q, address % 32:address % 32 + head], m.state.ub[address + head:address + VL]])
    m.state.vreg[insn.operand("vD")] = loaded
    m.log_access(LOG_READ, insn, address + head, etype.width, (VL - head) // etype.width, etype.width,
                 head // etype.width, "vD")
    _hold_block(m, insn, q, following)


def vldus(m: RefMachine, insn: Insn):
    # vldus vD.T, qL, [addr]  -- the next position is addr + 256
    _load_unaligned(m, insn, m.address(insn.operand("[addr]")), VL)


def vldus_post(m: RefMachine, insn: Insn):
    # vldus.pu vD.T, qL, [sB], X  -- at the address in sB; sB and the stream advance by X elements
    register = insn.operand("[sB]")
    advance = wrap64(m.value(insn.operand("X")) * insn.types[0].width)
    _load_unaligned(m, insn, m.sreg(register), advance)
    m.set_sreg(register, m.sreg(register) + advance)


FAMILIES.update({f.__name__: f for f in (vldas, vldus, vldus_post)})


# ---- issue 11: asc_load / asc_store: a whole vector (or its low X lanes) at any element-aligned address ----
def vldu(m: RefMachine, insn: Insn):
    # vldu vD.T, [addr]  -- the 256 bytes at addr, element-aligned
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = m.read_span(address, VL, etype.width)
    m.log_access(LOG_READ, insn, address, etype.width, etype.lanes, etype.width, 0, "vD")


def _store_low_lanes(m: RefMachine, insn: Insn, count: int):
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, count * etype.width)
    m.check_hazards()
    m.write_ub(address, m.state.vreg[insn.operand("vS")][:count * etype.width].copy())
    m.log_access(LOG_WRITE, insn, address, etype.width, count, etype.width, 0, "vS")


def vstu(m: RefMachine, insn: Insn):
    # vstu [addr], vS.T  -- every lane of vS at addr
    _store_low_lanes(m, insn, insn.types[0].lanes)


def vstu_count(m: RefMachine, insn: Insn):
    # vstu [addr], vS.T, X  -- the low X lanes (1..256/W)
    count = m.value(insn.operand("X"))
    if not 1 <= count <= insn.types[0].lanes:
        raise Fault("BAD_COUNT", count, insn.types[0].lanes)
    _store_low_lanes(m, insn, count)


FAMILIES.update({f.__name__: f for f in (vldu, vstu, vstu_count)})



# ---- issue 11: block broadcast and unpack4 loads ----
def vld_blk(m: RefMachine, insn: Insn):
    # vld.blk vD.T, [addr]  -- one 32-byte block, 8 times over
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = np.tile(m.read_span(address, 32, 32), VL // 32)
    m.log_access(LOG_READ, insn, address, 32, 1, 32, -1, "vD")


def vld_e2b(m: RefMachine, insn: Insn):
    # vld.e2b vD.T, [addr]  -- 8 elements; element k fills block k (32 bytes)
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    elements = m.read_span(address, 8 * etype.width, 8 * etype.width).view(etype.bits)
    m.state.vreg[insn.operand("vD")] = np.repeat(elements, 32 // etype.width).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 8 * etype.width, 1, 8 * etype.width, -1, "vD")


def vld_unpk4(m: RefMachine, insn: Insn):
    # vld.unpk4 vD.T, [addr]  -- 64 bytes, each zero-extended into a 32-bit lane
    address = m.address(insn.operand("[addr]"))
    m.state.vreg[insn.operand("vD")] = m.read_span(address, 64, 32).astype(np.uint32).view(np.uint8)
    m.log_access(LOG_READ, insn, address, 64, 1, 64, -1, "vD")


FAMILIES.update({f.__name__: f for f in (vld_blk, vld_e2b, vld_unpk4)})


def vgatb(m: RefMachine, insn: Insn):
    # vgatb vD.T, [base], vI.U, pM  -- asc_gather_datablock: block k = the 32 bytes at base + vI[k] (byte
    # offsets); a block is read when any of its elements is active; inactive elements become 0
    etype = insn.types[0]
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    base = m.address(insn.operand("[base]"))
    m.check_aligned(base, 32)
    offsets = m.state.vreg[insn.operand("vI")].view(np.uint32)[:8].copy()     # vD may be vI
    per_block = 32 // etype.width
    blocks = [k for k in range(8) if active[k * per_block:(k + 1) * per_block].any()]
    for k in blocks:
        address = wrap64(base + int(offsets[k]))
        m.check_aligned(address, 32)
        m.check_in_ub(address, 32, lane=k * per_block, index=int(offsets[k]))
    m.check_hazards()
    gathered = np.zeros(VL, np.uint8)
    for k in blocks:
        address = base + int(offsets[k])
        gathered[32 * k:32 * k + 32] = m.state.ub[address:address + 32]
    lanes = gathered.view(etype.bits)
    lanes[~active] = 0
    m.state.vreg[insn.operand("vD")] = gathered
    for k in blocks:
        m.log_access(LOG_READ, insn, base + int(offsets[k]), 32, 1, 32, k * per_block, "vD", int(offsets[k]))


FAMILIES["vgatb"] = vgatb


# ---- issue 12 (what remained): the CTRL special register (reg-api Cast.md table 5) ----
def _ctrl_bit(state, bit: int) -> bool:
    return bool(int(state.ctrlreg[0]) >> bit & 1)


def conversion_saturates(state, keyword: bool, src, dst) -> bool:
    """Whether a vcvt saturates: its `sat` keyword, unless CTRL[60] makes the mode global for the pairs
    whose page has _sat forms; then CTRL[48] (float destination) or CTRL[59] (integer destination) = 0
    saturates."""
    if not _ctrl_bit(state, CTRL_GLOBAL_SAT) or not CONVERSIONS[(dst.name, src.name)].sat:
        return keyword
    return not _ctrl_bit(state, CTRL_FLOAT_NO_SAT if dst.kind == "float" or dst.name == "hif8" else CTRL_INT_NO_SAT)


def spr_set_ctrl(m: RefMachine, insn: Insn):
    # sprset.ctrl X  -- CTRL = X, all 64 bits
    m.state.ctrlreg[0] = m.value(insn.operand("X")) & ((1 << 64) - 1)


FAMILIES["spr_set_ctrl"] = spr_set_ctrl

FAMILIES.update({spec.family: post_update for spec in INSNS if spec.post is not None})


# ---- issue 11: hardware loops and asc_update_addr_reg (docs/semantics.md "Hardware loops") ----
# state.hwloop: one (index, count) row per active loop, innermost first; a free level is (0, 0).

def loop_partners(insns) -> dict:
    """{row of a vloop: row of its endloop, and the reverse}: loops pair like brackets (the assembler
    has checked that they do, and that no branch crosses a loop's boundary)."""
    partners, open_loops = {}, []
    for row, insn in enumerate(insns):
        if insn.spec.family == "loop":
            open_loops.append(row)
        elif insn.spec.family == "endloop":
            start = open_loops.pop()
            partners[start], partners[row] = row, start
    return partners


def loop(m: RefMachine, insn: Insn):
    # vloop X  -- the count is read once, here; a count of 0 runs the body no time at all
    count = m.value(insn.operand("X"))
    if not 0 <= count <= MAX_LOOP_COUNT:
        raise Fault("LOOP_COUNT", count, MAX_LOOP_COUNT)
    pc = m.state.pc
    if count == 0:
        return m.loop_partner[pc] + 1
    levels = m.state.hwloop
    levels[1:] = levels[:-1].copy()          # the enclosing loops are now one level further out
    levels[0] = (0, count)
    return None


def endloop(m: RefMachine, insn: Insn):
    # endloop  -- the innermost loop's next index; while below its count the body runs again
    levels = m.state.hwloop
    index, count = int(levels[0, LOOP_INDEX]) + 1, int(levels[0, LOOP_COUNT])
    if index < count:
        levels[0, LOOP_INDEX] = index
        return m.loop_partner[m.state.pc] + 1
    levels[:-1] = levels[1:].copy()          # the loop is over: the enclosing ones move back in
    levels[-1] = (0, 0)
    return None


def iter_loops(m: RefMachine, insn: Insn):
    # vag aD.bW, X0, [X1], [X2], [X3]  -- asc_update_addr_reg: offset = sum of index_k * stride_k elements,
    # stride k bound to the k-th enclosing loop counted from the innermost; a stride left out is 0
    (width_type,) = insn.types
    strides = [m.value(insn.operand(name)) if insn.operand(name) is not None else 0 for name in ("X0", "X1", "X2", "X3")]
    indices = m.state.hwloop[:, LOOP_INDEX].tolist()
    elements = sum(index * stride for index, stride in zip(indices, strides))
    m.state.areg[insn.operand("aD")] = (elements * width_type.width) % (1 << 32)


FAMILIES.update({f.__name__: f for f in (loop, endloop, iter_loops)})


def vstas_post(m: RefMachine, insn: Insn):
    # vstas.pu [sB], uS.T, X  -- asc_storeunalign_post_postupdate: the flush (vstas) at the stream's end
    # address sB + X elements of T; then sB holds that end
    register, width = insn.operand("[sB]"), insn.types[0].width
    start = m.sreg(register)
    m.check_aligned(start, width)
    end = wrap64(start + m.value(insn.operand("X")) * width)
    flush_spec = next(spec for spec in INSNS if spec.family == "vstas" and spec.sub == "plain")
    vstas(m, Insn(flush_spec, (), (Addr(end), insn.operand("uS")), insn.loc))
    m.set_sreg(register, end)


FAMILIES["vstas_post"] = vstas_post


# ---- issue 11: asc_copy's mask forms ----

def mask_move_masked(m: RefMachine, insn: Insn):
    # pmov pD, pS, pM  -- bit k of pD = bit k of pS where bit k of pM is set, else 0 (reg-api MaskReg Move:
    # the mask says which bits are copied)
    source, gate = m.mask_bits(insn.operand("pS")), m.mask_bits(insn.operand("pM"))
    m.set_mask_bits(insn.operand("pD"), source & gate)


def mask_from_vector(m: RefMachine, insn: Insn):
    # movvp pD, vS.T, BLOCK  -- asc_copy's vector-to-mask form: a 32/W-byte block of vS, each of its bits
    # repeated W times (W = 2 for 16-bit T, 4 for 32-bit T) to fill the 256 mask bits
    width = insn.types[0].width
    block_bytes = 32 // width
    block = insn.operand("BLOCK")
    if not 0 <= block < 256 // block_bytes:
        raise Fault("BAD_COUNT", block, 256 // block_bytes - 1)
    raw = m.state.vreg[insn.operand("vS")][block * block_bytes:(block + 1) * block_bytes]
    bits = np.unpackbits(raw, bitorder="little").astype(bool)
    m.set_mask_bits(insn.operand("pD"), np.repeat(bits, width))


FAMILIES.update({f.__name__: f for f in (mask_move_masked, mask_from_vector)})
# ---- issue 13 (b): scalar registers holding a float's bits (docs/semantics.md "Scalar registers holding
# floats"). A register holds T's bits zero-extended; the value is read from its low W bits. ----

def _sreg_as(m: RefMachine, number: int, etype) -> np.ndarray:
    """The low W bits of a scalar register as a one-element array of T."""
    return np.array([m.sreg(number) % (1 << (8 * etype.width))], etype.bits).view(etype.np_dtype)


def _set_sreg_bits(m: RefMachine, number: int, value: np.ndarray, etype):
    """A one-element array of T into a scalar register as its bits, zero-extended."""
    m.set_sreg(number, int(value.view(etype.bits)[0]))


def scalar_fmov(m: RefMachine, insn: Insn):
    # fmov sD.T, X.T  -- sD = X's bits as T (typed_value: immediates and sN.T as they are, sN rounded once)
    (etype,) = insn.types
    _set_sreg_bits(m, insn.operand("sD"), typed_value(m, insn.operand("X"), etype), etype)


def scalar_falu(m: RefMachine, insn: Insn):
    # fadd|fsub|fmul|fdiv sD.T, sA.T, X.T  -- exact in float64 (innocuous for T of at most 24 bits), rounded once
    (etype,) = insn.types
    a = _wide(_sreg_as(m, insn.operand("sA"), etype))
    b = _wide(typed_value(m, insn.operand("X"), etype))
    with np.errstate(all="ignore"):
        exact = ARITHMETIC[insn.spec.sub](a, b)
    _set_sreg_bits(m, insn.operand("sD"), floats.round_to_type(exact, etype), etype)


def scalar_fcvt(m: RefMachine, insn: Insn):
    # fcvt sD.T, sA.U  -- U's exact value rounded once to T
    dest, source = insn.types
    value = _wide(_sreg_as(m, insn.operand("sA"), source))
    _set_sreg_bits(m, insn.operand("sD"), floats.round_to_type(value, dest), dest)


FAMILIES.update({f.__name__: f for f in (scalar_fmov, scalar_falu, scalar_fcvt)})


def vcarry(m: RefMachine, insn: Insn):
    # vaddc|vsubc pD, vD.T, vA.T, vB.T, pC, pM  -- {carry, vD} = vA + vB (vsubc: + ~vB) + carry-in, on u32
    # lanes; carry-in bit i*4 of pC, carry-out to bit i*4 of pD; inactive lanes: vD 0, no carry
    active = m.active_lanes(insn.operand("pM"), 4)[:64]
    carry_in = m.active_lanes(insn.operand("pC"), 4)[:64]
    a = [int(x) for x in m.lanes(insn.operand("vA"), insn.types[0])]
    b = [int(x) for x in m.lanes(insn.operand("vB"), insn.types[0])]
    if insn.spec.sub == "sub":
        b = [0xFFFFFFFF - x for x in b]                                  # ~x in 32 bits
    totals = [x + y + int(c) for x, y, c in zip(a, b, carry_in)]
    sums = np.array([t % (1 << 32) if on else 0 for t, on in zip(totals, active)], np.uint32)
    m.state.vreg[insn.operand("vD")] = sums.view(np.uint8)
    m.write_mask(insn.operand("pD"), active & np.array([t >> 32 == 1 for t in totals]), 4)


FAMILIES["vcarry"] = vcarry


# ---- issue 13 (b): the legacy mask special register {MASK1, MASK0} (docs/semantics.md "The mask special
# register") ----

def mask_spr_set(m: RefMachine, insn: Insn):
    # sprset.mask sH, sL  -- MASK1 = sH, MASK0 = sL
    spr = m.state.mask_spr
    spr[MASK_SPR_LOW], spr[MASK_SPR_HIGH] = m.sreg(insn.operand("sL")), m.sreg(insn.operand("sH"))
    spr[MASK_SPR_SET] = 1


def mask_spr_read(m: RefMachine, insn: Insn):
    # movp pD.bW  -- bit j of {MASK1, MASK0} (b16: 128 bits; b32: MASK0's 64) repeated W times
    width = insn.types[0].width
    spr = m.state.mask_spr
    if not spr[MASK_SPR_SET]:
        raise Fault("SPR_UNSET", MASK_SPR_FAULT)
    value = (int(spr[MASK_SPR_HIGH]) % (1 << 64)) << 64 | int(spr[MASK_SPR_LOW]) % (1 << 64)
    bits = np.array([(value >> j) & 1 for j in range(MASK_BITS // width)], bool)
    m.set_mask_bits(insn.operand("pD"), np.repeat(bits, width))


FAMILIES.update({f.__name__: f for f in (mask_spr_set, mask_spr_read)})


# ---- issue 13 (b): Duplicate's MERGING mode (appendix merge-mode.md); _binary's merging rows use it too ----

def _merge_lanes(m: RefMachine, insn: Insn, value_bits):
    """Active lanes of vD get `value_bits` (T's bits), inactive lanes keep vD's bits."""
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    dest = m.state.vreg[insn.operand("vD")].view(etype.bits)
    dest[:] = np.where(active, value_bits, dest)


def vdup_merge(m: RefMachine, insn: Insn):
    # vdup.merge vD.T, X.T, pM  -- active lanes = X, inactive lanes keep vD
    (etype,) = insn.types
    _merge_lanes(m, insn, typed_value(m, insn.operand("X"), etype).view(etype.bits)[0])


def vdup_lane_merge(m: RefMachine, insn: Insn):
    # vdup.v.merge vD.T, vA.T, pM  -- lane 0 of vA in the active lanes, inactive lanes keep vD
    (etype,) = insn.types
    _merge_lanes(m, insn, m.state.vreg[insn.operand("vA")].view(etype.bits)[0].copy())


FAMILIES.update({f.__name__: f for f in (vdup_merge, vdup_lane_merge)})
