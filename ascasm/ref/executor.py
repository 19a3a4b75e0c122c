"""The reference executor: a readable numpy model of the machine, written from LANGUAGE.md, the seed
pages and the facts file, one function per instruction family. It runs the assembler's structured
instructions (not the bytecode) and shares nothing with the Cython engine but the table and the
state layout, so the differential tests catch a bug in either, or in the encoding.

Execution rules the spec leaves open are fixed in docs/semantics.md; this file follows them.
"""
from __future__ import annotations

import numpy as np

from ..isa import STOP_CODES
from ..program import Addr, Insn, Program, SVal
from ..state import FAULT_ARGS, PC, STATUS, STEPS, VL, MachineState

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


class RefMachine:
    def __init__(self, program: Program, state: MachineState, ub_usable: int, max_steps: int):
        self.program, self.state = program, state
        self.ub_usable, self.max_steps = ub_usable, max_steps

    # ---- the step loop (docs/semantics.md "Steps, halting, limits") ----
    def run(self, budget: int) -> int:
        ctrl = self.state.ctrl
        while budget > 0 and ctrl[STATUS] == RUNNING:
            pc = int(ctrl[PC])
            if pc >= len(self.program.insns):
                ctrl[STATUS] = HALTED
                break
            if ctrl[STEPS] >= self.max_steps:
                self._stop(Fault("STEP_LIMIT", self.max_steps))
                break
            insn = self.program.insns[pc]
            try:
                outcome = FAMILIES[insn.spec.family](self, insn)
            except Fault as fault:
                self._stop(fault)
                break
            ctrl[STEPS] += 1
            budget -= 1
            if outcome is _HALT:
                ctrl[STATUS] = HALTED
            else:
                ctrl[PC] = pc + 1 if outcome is None else outcome
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
        if not (0 <= address and address + size <= self.ub_usable):
            raise Fault("UB_RANGE", address, size, self.ub_usable, lane, index)

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
        self.state.preg[number] = np.packbits(bits, bitorder="little")
        self.state.preg_set[number] = 1

    def lanes(self, vreg: int, etype) -> np.ndarray:
        """A vector register viewed as elements of `etype` (a view: writing it writes the register)."""
        return self.state.vreg[vreg].view(etype.np_dtype)


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
    "beq": lambda a, b: a == b, "bne": lambda a, b: a != b, "blt": lambda a, b: a < b,
    "ble": lambda a, b: a <= b, "bgt": lambda a, b: a > b, "bge": lambda a, b: a >= b,
}


def scalar_mov(m: RefMachine, insn: Insn):
    # mov sD, X
    m.set_sreg(insn.operand("sD"), m.value(insn.operand("X")))


def scalar_alu(m: RefMachine, insn: Insn):
    # add/sub/.../shr sD, sA, X  -- 64-bit two's complement, wrapping
    a, b = m.sreg(insn.operand("sA")), m.value(insn.operand("X"))
    if insn.spec.mnemonic in ("div", "rem") and b == 0:
        raise Fault("DIV_ZERO")
    m.set_sreg(insn.operand("sD"), SCALAR_OPS[insn.spec.mnemonic](a, b))


def scalar_load(m: RefMachine, insn: Insn):
    # ld sD.T, [addr]  -- signed types sign-extend, unsigned and raw types zero-extend
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    element = m.state.ub[address:address + etype.width].view(etype.np_dtype)[0]
    raw_bits = int(m.state.ub[address:address + etype.width].view(etype.bits)[0])
    m.set_sreg(insn.operand("sD"), int(element) if etype.kind == "int" else raw_bits)


def scalar_store(m: RefMachine, insn: Insn):
    # st [addr], sS.T  -- the low W bytes of sS
    (etype,) = insn.types
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, etype.width)
    m.check_in_ub(address, etype.width)
    low_bits = m.sreg(insn.operand("sS")) % (1 << (8 * etype.width))
    m.state.ub[address:address + etype.width] = np.array([low_bits], etype.bits).view(np.uint8)


def branch(m: RefMachine, insn: Insn):
    # b LABEL
    return insn.operand("LABEL")


def cond_branch(m: RefMachine, insn: Insn):
    # beq/bne/blt/ble/bgt/bge sA, X, LABEL  -- signed comparison
    a, b = m.sreg(insn.operand("sA")), m.value(insn.operand("X"))
    if BRANCH_TESTS[insn.spec.mnemonic](a, b):
        return insn.operand("LABEL")
    return None


def membar(m: RefMachine, insn: Insn):
    # membar [KIND]  -- ascasm executes in program order, so a barrier has nothing to wait for
    return None


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


# ---- loads (facts §3.2) ----
def vld_norm(m: RefMachine, insn: Insn):
    # vld vD.T, [addr]  -- NORM: 256 contiguous bytes, 32-byte aligned
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    m.check_in_ub(address, VL)
    m.state.vreg[insn.operand("vD")] = m.state.ub[address:address + VL]


# ---- stores (seed 002 asc_storealign; seeds 000/001 scatter) ----
def vsta_norm(m: RefMachine, insn: Insn):
    # vsta [addr], vS.T, pM  -- NORM: active lane i -> addr + i*W; inactive lanes issue no write
    (etype,) = insn.types
    width = etype.width
    active = m.active_lanes(insn.operand("pM"), width)
    address = m.address(insn.operand("[addr]"))
    m.check_aligned(address, 32)
    active_lanes = np.flatnonzero(active)
    for lane in active_lanes:
        m.check_in_ub(address + lane * width, width, lane=int(lane))
    source = m.state.vreg[insn.operand("vS")]
    for lane in active_lanes:
        start = address + lane * width
        m.state.ub[start:start + width] = source[lane * width:(lane + 1) * width]


def vsct(m: RefMachine, insn: Insn):
    # vsct [base], vS.T, vI.U, pM  -- for active lane i: base + vI[i]*W <- vS[i] (element indices)
    data_type, index_type = insn.types
    width = data_type.width
    active = m.active_lanes(insn.operand("pM"), width)
    base = m.address(insn.operand("[base]"))
    m.check_aligned(base, 32)                          # seed 000: dst 32-byte aligned
    indices = m.lanes(insn.operand("vI"), index_type)
    requests = []
    for lane in np.flatnonzero(active):
        index = int(indices[lane])
        target = wrap64(base + index * width)
        m.check_in_ub(target, width, lane=int(lane), index=index)
        requests.append((int(lane), target))
    source = m.state.vreg[insn.operand("vS")]
    for lane, target in requests:                      # lane order: the highest duplicate lane wins
        m.state.ub[target:target + width] = source[lane * width:(lane + 1) * width]


FAMILIES = {f.__name__: f for f in (
    scalar_mov, scalar_alu, scalar_load, scalar_store, branch, cond_branch, membar, halt,
    mask_pattern, mask_update, iter_set, iter_scaled, vld_norm, vsta_norm, vsct,
)}
