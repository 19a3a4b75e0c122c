"""The reference machine: the step loop, operand access, and the alignment, range and hazard checks
that every family makes before it writes. The families themselves live in the area modules beside
this one; ascasm/ref/executor.py names them."""
from __future__ import annotations

import numpy as np

from ..isa import STOP_CODES
from ..program import Addr, Insn, Program, SVal
from ..state import (FAULT_ARGS, LOG_RESERVE, LOG_WRITE, ORIGIN_ADDR, ORIGIN_ROW, PC, STATUS, STEPS, UB_BLOCK, VL,
                     MachineState, control_error)
from ..unwritten import CHECK, LOAD, SCALAR_READ, roles

RUNNING, HALTED = STOP_CODES["RUNNING"], STOP_CODES["HALTED"]
MASK_BITS = VL                     # one mask bit per byte lane
HALT = object()                    # returned by a family to stop the machine


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


class Machine:
    """The machine state and the services the families use; `families` maps a row's family name to the
    function that executes it (ascasm/ref/executor.py supplies the map)."""
    families: dict

    def __init__(self, program: Program, state: MachineState, ub_usable: int, max_steps: int,
                 store_inactive: str = "keep", strict: bool = False, regions=()):
        self.program, self.state = program, state
        self.regions = list(regions)                      # sorted, merged [lo, hi): Program.regions
        self.gm_regions = program.regions("gm")          # GM's buffers: always its bounds
        self.ub_usable, self.max_steps = ub_usable, max_steps
        self.zero_inactive = store_inactive == "zero"     # docs/language.md §7
        self.strict = strict                              # warnings become faults (docs/language.md §9)
        self.hazard_case = None                           # this step's hazard, recorded if it completes
        self.touched = []                                 # (address, size) of this step's checked accesses
        self.last_row = -1                                # the row the latest run() completed last
        self.log, self.log_length = None, 0              # the write log, when a recorder asks for it
        self.loop_partner = loop_partners(program.insns)  # hardware loops: vloop <-> endloop rows
        self.roles = [roles(insn.spec) for insn in program.insns]   # for the check of bytes never written
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
        register operand named `operand` (lane -1: no lanes; operand None: no register, a data move),
        read (LOG_READ) or written (LOG_WRITE; LOG_GM_READ, LOG_GM_WRITE for global memory)."""
        if self.log is None:
            return
        position = -1 if operand is None else next(k for k, op in enumerate(insn.spec.operands) if op.name == operand)
        self.log[self.log_length] = (int(self.state.ctrl[STEPS]) + 1, self.state.pc, kind, address, width, count,
                                     pitch, lane, position, index)
        self.log_length += 1

    # ---- the step loop (docs/semantics.md "Steps, halting, limits") ----
    def run(self, budget: int) -> int:
        ctrl = self.state.ctrl
        problem = control_error(ctrl, len(self.program.insns))
        if problem:
            raise ValueError(problem)
        self.last_row = -1
        if self.log_full():
            return int(ctrl[STATUS])
        # (only an economy: with no mark anywhere, the check of bytes never written does nothing)
        tracking = bool(self.state.ub_unwritten.any() or self.state.vreg_unwritten.any())
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
                unwritten_case, load_address = self._unwritten_before(insn, self.roles[pc]) if tracking else (None, 0)
                outcome = self.families[insn.spec.family](self, insn)
            except Fault as fault:
                self._stop(fault)
                break
            ctrl[STEPS] += 1
            budget -= 1
            self.last_row = pc
            if self.hazard_case is not None:
                self._record_hazard(pc)
            if tracking:
                self._unwritten_after(insn, self.roles[pc], pc, unwritten_case, load_address)
            if outcome is HALT:
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

    def check_range(self, address: int, size: int, lane: int = -1, index: int = -1, start: int | None = None):
        """Every byte of [address, address + size) in the usable UB and, when the buffers are bounds,
        in them (docs/semantics.md "Addresses", "Buffers as bounds"; an empty access always). A read
        the machine makes whole whatever the mask, of a vector from `start`, must only start inside
        a buffer: it may read past its end (a loop's masked last vector)."""
        if not (0 <= address and address + size <= self.ub_usable):
            raise Fault("UB_RANGE", address, size, self.ub_usable, lane, index)
        first, last = (address, address + size) if start is None else (start, start + 1)
        if self.regions and size and not any(lo <= first and last <= hi for lo, hi in self.regions):
            raise Fault("OUT_OF_BUFFER", address, size, lane, index)

    def check_gm(self, address: int, size: int):
        """Every byte of [address, address + size) inside one of GM's buffers (adjacent ones merged)."""
        if not any(lo <= address and address + size <= hi for lo, hi in self.gm_regions):
            raise Fault("GM_RANGE", address, size)

    def write_gm(self, address: int, data: np.ndarray):
        """Store bytes (already checked) in global memory."""
        self.state.gm[address:address + data.size] = data

    def check_in_ub(self, address: int, size: int, lane: int = -1, index: int = -1, start: int | None = None):
        """Range check of one access, noted for its hazard check. Every family calls it for every
        access, then check_hazards, before it writes anything."""
        self.check_range(address, size, lane, index, start)
        self.touched.append((address, size))

    def check_block_in_ub(self, address: int, active: np.ndarray, width: int, lane: int, index: int = -1):
        """A block of a block access (vld.bs, vgatb) read whole: the range check covers its 32 bytes, the
        hazard check only its active lanes' (`active`: one per lane of `width` bytes). Whatever inactive
        lanes receive, the pages disagree on it (whole block, or 0), so a correct program does not use it."""
        self.check_in_ub(address, active.size * width, lane, index)
        self.touched[-1:] = [(address + int(j) * width, width) for j in np.flatnonzero(active)]

    def written_since_membar(self) -> np.ndarray:
        """One boolean per UB byte: written since the latest membar (bit j of ub_dirty word b is byte
        32*b + j)."""
        return np.unpackbits(self.state.ub_dirty.view(np.uint8), bitorder="little").astype(bool)

    def check_hazards(self):
        """After every access of the instruction passed its range check: the bytes among them written
        since the latest membar are a hazard (docs/language.md §9), spanning the first to the last such byte
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

    # ---- bytes never written (docs/semantics.md "Bytes never written") ----
    def unwritten_bytes(self, address: int, size: int) -> np.ndarray:
        """One boolean per byte of [address, address + size) (in the UB): of an `undef` buffer and not
        written since the run began (a write since the latest membar is in ub_dirty until it folds in)."""
        words = slice(address // UB_BLOCK, (address + size - 1) // UB_BLOCK + 1)
        marks = self.state.ub_unwritten[words] & ~self.state.ub_dirty[words]
        start = address - words.start * UB_BLOCK
        return np.unpackbits(marks.view(np.uint8), bitorder="little")[start:start + size].astype(bool)

    def register_unwritten(self, v: int) -> np.ndarray:
        """One boolean per byte of vector register v: a vld filled it from bytes never written."""
        return np.unpackbits(self.state.vreg_unwritten[v].view(np.uint8), bitorder="little").astype(bool)

    def _unwritten_before(self, insn: Insn, role) -> tuple:
        """Before a row runs: its case of reading bytes never written, (load row, UB address, lane) or
        None, a fault under --strict; and a marking load's address (sB before its post-update)."""
        case, load_address = None, 0
        if role.kind == CHECK and self.state.preg_set[insn.operands[role.mask]]:
            width = insn.types[0].width
            active = np.repeat(self.mask_bits(insn.operands[role.mask])[::width], width)
            hits = [(int(np.flatnonzero(marked)[0]), v) for v in (insn.operands[k] for k in role.sources)
                    for marked in [self.register_unwritten(v) & active] if marked.any()]
            if hits:
                byte, v = min(hits, key=lambda hit: hit[0])     # the lowest byte; a tie: the first source
                row, base = (int(x) for x in self.state.vreg_origin[v])
                case = (row, base + byte, byte // width)
        elif role.kind == SCALAR_READ:
            address, width = self.address(insn.operands[role.address]), insn.types[0].width
            if 0 <= address and address + width <= self.state.ub.size:     # (else the range check faults)
                marked = np.flatnonzero(self.unwritten_bytes(address, width))
                if marked.size:
                    case = (self.state.pc, address + int(marked[0]), -1)
        elif role.kind == LOAD:
            operand = insn.operands[role.address]
            load_address = self.sreg(operand) if isinstance(operand, int) else self.address(operand)
        if case is not None and self.strict:
            raise Fault("UNWRITTEN", *case)
        return case, load_address

    def _unwritten_after(self, insn: Insn, role, row: int, case, load_address: int):
        """After a row completed: count its case; its vector destinations hold written bytes, except
        that a marking load carries the marks of the bytes it read."""
        if case is not None:
            record = self.state.unwritten_warn[row]
            if record[0] == 0:
                record[1:] = case
            record[0] += 1
        for k in role.dests:
            self.state.vreg_unwritten[insn.operands[k]] = 0
        if role.kind == LOAD:
            v = insn.operands[role.dests[0]]
            self.state.vreg_unwritten[v] = np.packbits(self.unwritten_bytes(load_address, VL),
                                                       bitorder="little").view(np.uint64)
            self.state.vreg_origin[v, ORIGIN_ROW], self.state.vreg_origin[v, ORIGIN_ADDR] = row, load_address

    def write_ub(self, address: int, data: np.ndarray):
        """Store bytes (already checked) and remember them as written since the membar, by this row."""
        self.state.ub[address:address + data.size] = data
        self.state.ub_write_row[address:address + data.size] = self.state.pc
        if data.size == 0:
            return
        words = slice(address // UB_BLOCK, (address + data.size - 1) // UB_BLOCK + 1)    # only the blocks touched
        dirty = np.unpackbits(self.state.ub_dirty[words].view(np.uint8), bitorder="little")
        start = address - words.start * UB_BLOCK
        dirty[start:start + data.size] = 1
        self.state.ub_dirty[words] = np.packbits(dirty, bitorder="little").view(np.uint32)

    def end_hazard_window(self):
        """A membar, a waitflag or a pipebar: no byte is written since it (docs/semantics.md "Hazards");
        the bytes written since the previous one are no longer never written."""
        self.state.ub_unwritten &= ~self.state.ub_dirty
        self.state.ub_dirty[:] = 0

    def mask_bits(self, number: int) -> np.ndarray:
        """The 256 bits of a mask register as booleans; bit k is bit k%8 of byte k//8 (docs/language.md §7)."""
        if not self.state.preg_set[number]:
            raise Fault("MASK_UNSET", number)
        return np.unpackbits(self.state.preg[number], bitorder="little").astype(bool)

    def active_lanes(self, number: int, width: int) -> np.ndarray:
        """Element i of width W bytes is governed by bit i*W (docs/language.md §7)."""
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
        """The `size` UB bytes at `address` of a whole-span load, after the alignment and range checks
        (a copy)."""
        self.check_aligned(address, alignment)
        self.check_in_ub(address, size, start=address)
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
