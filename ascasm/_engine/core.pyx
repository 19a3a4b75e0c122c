"""The Cython engine: runs encoded bytecode (docs/bytecode.md) in place on a MachineState.

Semantics are those of docs/language.md and docs/semantics.md. Loading a program verifies every row
against the ISA table and decodes it once: its operands become the named fields of its family's struct
(generated, isa.pxi), its access facts byte counts, and its (family, types, sub-operation) the number
of a kernel compiled for exactly that combination (dispatch.pxi). The run loop then holds no Python
objects and runs without the GIL; a kernel returns a stop code: STOP_RUNNING when the instruction
completed, otherwise a fault whose arguments it stored with `fault` before writing anything (every
check precedes every write). Addresses are computed at run time and range-checked before use.

Its modules: this one (the loader, the Engine object and the nogil run loop), the shared declarations
(machine.pxd) and helpers (engine.pxi, lanes.pxi), and one kernel module per ISA area (control, memory,
streams, arith, compare, rearrange, convert), each compiled on its own; a kernel module puts its kernels
in the KERNELS table the run loop calls through (dispatch.pxi, dispatch_<area>.pxi, generated).
Each kernel starts with its syntax.
"""
cimport cython
include "engine.pxi"

import sys

import numpy as np

from ascasm._engine.kernel_rows import FAMILY_OF_OPCODE, KERNEL_NAMES, KERNEL_OF_ROWS
from ascasm.isa import table
from ascasm.isa.operands import Kind
from ascasm.state import (CTRL_SIZE as _CTRL_SIZE, DUP_WARN_FIELDS as _DUP_WARN_FIELDS,
                          HAZARD_WARN_FIELDS as _HAZARD_WARN_FIELDS, LOG_FIELDS as _LOG_FIELDS,
                          LOG_RESERVE as _LOG_RESERVE, LOOP_COUNT as _LOOP_COUNT, LOOP_INDEX as _LOOP_INDEX,
                          MAX_LOOP_COUNT as _MAX_LOOP_COUNT, NUM_LOOPS as _NUM_LOOPS, NUM_AREGS, NUM_PREGS, NUM_QREGS, NUM_SREGS, NUM_UREGS, NUM_VREGS,
                          QREG_POS as _QREG_POS, QREG_SET as _QREG_SET,
                          SPR_AR as _SPR_AR, SPR_SIZE as _SPR_SIZE, SPR_SQZN as _SPR_SQZN, SPR_SQZN_SET as _SPR_SQZN_SET,
                          MASK_SPR_SIZE as _MASK_SPR_SIZE, UB_BLOCK as _UB_BLOCK, UB_SIZE, UREG_ADDR as _UREG_ADDR, UREG_BYTES as _UREG_BYTES,
                          UREG_PENDING as _UREG_PENDING, VL as _VL, STOP_NAMES, UNWRITTEN_WARN_FIELDS, control_error)
from ascasm import unwritten

if sys.byteorder != "little":
    raise ImportError("the ascasm engine views lanes in place and needs a little-endian host")

assert VL == _VL and MASK_BYTES * 8 == VL and MASK_WORDS * 8 == MASK_BYTES and LANES_B16 * 2 == VL and LANES_B32 * 4 == VL and UB_BLOCKS * BLOCK == UB_BYTES and DUP_WARN_FIELDS == _DUP_WARN_FIELDS and UB_BYTES == UB_SIZE
assert CTRL_SIZE == _CTRL_SIZE and HAZARD_WARN_FIELDS == _HAZARD_WARN_FIELDS and BLOCK == _UB_BLOCK
assert LOG_FIELDS == len(_LOG_FIELDS) and LOG_RESERVE == _LOG_RESERVE
assert (SPR_AR, SPR_SQZN, SPR_SQZN_SET, SPR_SIZE) == (_SPR_AR, _SPR_SQZN, _SPR_SQZN_SET, _SPR_SIZE)
assert (UREG_BYTES, UREG_PENDING, UREG_ADDR) == (_UREG_BYTES, _UREG_PENDING, _UREG_ADDR)
assert (QREG_SET, QREG_POS) == (_QREG_SET, _QREG_POS) and UREG_BYTES == BLOCK
assert (NUM_LOOPS, LOOP_INDEX, LOOP_COUNT, MAX_LOOP_COUNT) == (_NUM_LOOPS, _LOOP_INDEX, _LOOP_COUNT, _MAX_LOOP_COUNT)
assert MASK_SPR_SIZE == _MASK_SPR_SIZE
assert KERNEL_COUNT == len(KERNEL_NAMES) + 1, "the compiled kernels and kernel_rows.py come from different tables: rebuild"

HANDLED = frozenset(table.OPCODES.values())     # every row: the kernels are generated per family
_STATUS_CODES = frozenset(STOP_NAMES)            # what ctrl's status may hold (control_error says so in words)


cdef struct Role:           # a row's part in the check of bytes never written (ascasm/unwritten.py)
    int32_t kind            # unwritten.NONE, CHECK, LOAD or SCALAR_READ
    int32_t width           # its element width in bytes
    int32_t src[2]          # CHECK: the vector sources (-1: none), read under the mask
    int32_t mask
    int32_t dst[2]          # the vector registers it writes (-1: none)
    int64_t offset          # LOAD, SCALAR_READ: the address, offset + sregs + areg (-1: none), or sB
    int32_t s0, s1, a, base


cdef enum:
    UNWRITTEN_FIELDS = 4    # unwritten_warn columns (ascasm/state.py)
    ROLE_CHECK = 1          # (ascasm/unwritten.py's numbers, asserted below)
    ROLE_LOAD = 2
    ROLE_SCALAR_READ = 3

assert (ROLE_CHECK, ROLE_LOAD, ROLE_SCALAR_READ) == (unwritten.CHECK, unwritten.LOAD, unwritten.SCALAR_READ)
assert UNWRITTEN_FIELDS == UNWRITTEN_WARN_FIELDS


cdef inline int64_t role_address(const Machine* m, const Role* r) noexcept nogil:
    """The address of a LOAD or SCALAR_READ row before it runs (wrapping as address() does)."""
    if r.base >= 0:
        return m.sreg[r.base]
    return <int64_t>(<uint64_t>r.offset + <uint64_t>(m.sreg[r.s0] if r.s0 >= 0 else 0)
                     + <uint64_t>(m.sreg[r.s1] if r.s1 >= 0 else 0) + (m.areg[r.a] if r.a >= 0 else 0))


cdef inline bint ub_unwritten_byte(const Machine* m, int64_t b) noexcept nogil:
    """UB byte b (in the UB) is never written: marked, and not written since the latest membar."""
    return (m.ub_unwritten[b >> 5] & ~m.ub_dirty[b >> 5]) >> (b & 31) & 1


cdef int unwritten_before(Machine* m, const Role* r, int64_t row, int64_t* case, int64_t* load_address) noexcept nogil:
    """Before a row runs: its case of reading bytes never written in case[0..2] (load row, UB address,
    lane; case[0] -1: none), a fault under --strict (its code returned); a marking load's address."""
    cdef int64_t best = VL, byte, k, w, v = -1, addr
    cdef uint64_t marked
    case[0] = -1
    if r.kind == ROLE_CHECK and m.preg_set[r.mask]:
        for k in range(2):
            if r.src[k] < 0:
                break
            for w in range(MASK_WORDS):
                marked = m.vreg_unwritten[r.src[k] * MASK_WORDS + w] & lane_bytes(mask_word(m, r.mask, w), r.width)
                if marked:
                    byte = w * 64 + __builtin_ctzll(marked)
                    if byte < best:
                        best, v = byte, r.src[k]
                    break
        if v >= 0:
            case[0], case[1], case[2] = m.vreg_origin[2 * v], m.vreg_origin[2 * v + 1] + best, best // r.width
    elif r.kind == ROLE_SCALAR_READ:
        addr = role_address(m, r)
        if 0 <= addr <= UB_BYTES - r.width:          # (else the row's range check faults)
            for k in range(r.width):
                if ub_unwritten_byte(m, addr + k):
                    case[0], case[1], case[2] = row, addr + k, -1
                    break
    elif r.kind == ROLE_LOAD:
        load_address[0] = role_address(m, r)
    if case[0] >= 0 and m.strict:
        return fault(m, STOP_UNWRITTEN, case[0], case[1], case[2])
    return 0


cdef void unwritten_after(Machine* m, const Role* r, int64_t row, const int64_t* case, int64_t load_address) noexcept nogil:
    """After a row completed: count its case; its vector destinations hold written bytes, except that
    a marking load carries the marks of the bytes it read (its range check passed)."""
    cdef int64_t* record = &m.unwritten_warn[row * UNWRITTEN_FIELDS]
    cdef int64_t k, b, v
    if case[0] >= 0:
        if record[0] == 0:
            record[1], record[2], record[3] = case[0], case[1], case[2]
        record[0] += 1
    for k in range(2):
        if r.dst[k] >= 0:
            memset(&m.vreg_unwritten[r.dst[k] * MASK_WORDS], 0, MASK_BYTES)
    if r.kind == ROLE_LOAD:
        v = r.dst[0]
        for b in range(VL):
            m.vreg_unwritten[v * MASK_WORDS + (b >> 6)] |= <uint64_t>ub_unwritten_byte(m, load_address + b) << (b & 63)
        m.vreg_origin[2 * v], m.vreg_origin[2 * v + 1] = row, load_address


def _roles(rows):
    """Per row, its Role's fields as a tuple (ascasm/unwritten.py), from the verified bytecode."""
    out = []
    for row in rows.tolist():
        spec = table.BY_OPCODE[row[0]]
        r = unwritten.roles(spec)
        slots = [ROW_HEADER + unwritten.slot_of(spec, k) for k in range(len(spec.operands))]
        src = [row[slots[k]] for k in r.sources] + [-1, -1]
        dst = [row[slots[k]] for k in r.dests] + [-1, -1]
        if len(src) > 4 or len(dst) > 4:
            raise AssertionError(f"{spec.mnemonic}: a Role holds two sources and two destinations")
        address = [0, -1, -1, -1, -1]                   # offset, s0, s1, a, base
        if r.address >= 0 and spec.operands[r.address].kind is Kind.BASE:
            address[4] = row[slots[r.address]]
        elif r.address >= 0:
            address[:4] = row[slots[r.address]:slots[r.address] + 4]
        out.append((r.kind, int(_WIDTH[row[1]]), src, row[slots[r.mask]] if r.mask >= 0 else -1, dst, *address))
    return out


cdef const Ins* k_end(Machine* m, const Ins* ins) noexcept nogil:
    """The row after the last one: falling off the end halts."""
    m.status = STOP_END
    return NULL


include "dispatch.pxi"


# ---------------------------------------------------------------------------------------------
# Loading: verification of the rows (vectorised), decoding
# ---------------------------------------------------------------------------------------------

# Slot kinds of each opcode's row (docs/bytecode.md), for checking every row at once.
cdef enum:
    SLOT_UNUSED = 0
    SLOT_VREG = 1
    SLOT_PREG = 2
    SLOT_AREG = 3
    SLOT_SREG = 4
    SLOT_FLAG = 5           # X: 0 immediate, 1 register
    SLOT_XVALUE = 6         # X: a register number if the flag before it is 1, else any value
    SLOT_ANY = 7            # immediates, address offsets
    SLOT_OPT_SREG = 8       # an address's scalar register or -1
    SLOT_OPT_AREG = 9       # an address's address register or -1
    SLOT_LABEL = 10
    SLOT_PAT = 11
    SLOT_BARRIER = 12
    SLOT_SAT = 13           # 0 or 1 (sat)
    SLOT_PART = 14          # a layout part, 0..3
    SLOT_UREG = 15          # an unaligned store register u0..u3
    SLOT_QREG = 16          # an unaligned load register q0..q3
    SLOT_TFLAG = 17         # X.T: 0 immediate, 1 register (an integer), 2 register holding T's bits
    N_SLOT_KINDS = 18

_SLOTS_OF_KIND = {Kind.VREG: [SLOT_VREG], Kind.PREG: [SLOT_PREG], Kind.AREG: [SLOT_AREG], Kind.SREG: [SLOT_SREG],
                  Kind.UREG: [SLOT_UREG], Kind.QREG: [SLOT_QREG], Kind.BASE: [SLOT_SREG],
                  Kind.SVAL: [SLOT_FLAG, SLOT_XVALUE], Kind.TVAL: [SLOT_TFLAG, SLOT_XVALUE],
                  Kind.ADDR: [SLOT_ANY, SLOT_OPT_SREG, SLOT_OPT_SREG, SLOT_OPT_AREG], Kind.LABEL: [SLOT_LABEL],
                  Kind.PAT: [SLOT_PAT], Kind.BARRIER: [SLOT_BARRIER], Kind.SAT: [SLOT_SAT], Kind.PART: [SLOT_PART]}
_N_OPCODES = max(table.OPCODES.values()) + 1
_N_TYPES = 1 + max(t.code for t in table.dtypes.TYPES)


def _build_tables():
    """Per opcode: the kind of each row slot, its family, and the kernel of each (type, type) pair
    (-1: not accepted); per opcode and type code, the access facts in bytes; per type code, its width."""
    slot_kinds = np.full((_N_OPCODES, ROW_WIDTH), SLOT_UNUSED, np.int64)
    kernel = np.full((_N_OPCODES, _N_TYPES, _N_TYPES), -1, np.int64)
    family = np.zeros(_N_OPCODES, np.int64)
    access = np.zeros((_N_OPCODES, _N_TYPES, 3), np.int64)
    width = np.ones(_N_TYPES, np.int64)            # type code 0 (no type): width 1
    for t in table.dtypes.TYPES:
        width[t.code] = t.width
    for op, spec in table.BY_OPCODE.items():
        kinds = [k for operand in spec.operands for k in _SLOTS_OF_KIND[operand.kind]]
        slot_kinds[op, ROW_HEADER:ROW_HEADER + len(kinds)] = kinds
        family[op] = FAMILY_OF_OPCODE[op]
        a = spec.access
        if a is not None:
            for code in range(_N_TYPES):
                w = int(width[code])
                access[op, code] = [a.bytes(a.size, w), a.bytes(a.align, w), a.bytes(a.slot, w) if a.slot else 0]
    number = {name: k for k, name in enumerate(KERNEL_NAMES, start=1)}     # KERNELS[0] ends the code
    for op, t, u, name in KERNEL_OF_ROWS:
        kernel[op, t, u] = number[name]
    return slot_kinds, kernel, family, access, width


_SLOT_KINDS, _KERNEL, _FAMILY, _ACCESS, _WIDTH = _build_tables()
_RANGES = {SLOT_VREG: (0, NUM_VREGS), SLOT_PREG: (0, NUM_PREGS), SLOT_AREG: (0, NUM_AREGS), SLOT_SREG: (0, NUM_SREGS),
           SLOT_UREG: (0, NUM_UREGS), SLOT_QREG: (0, NUM_QREGS),
           SLOT_FLAG: (0, 2), SLOT_TFLAG: (0, 3), SLOT_OPT_SREG: (-1, NUM_SREGS), SLOT_OPT_AREG: (-1, NUM_AREGS),
           SLOT_PAT: (0, 16), SLOT_BARRIER: (-1, len(table.BARRIER_KINDS)), SLOT_SAT: (0, 2), SLOT_PART: (0, 4)}
_PATTERN_VALUES = np.array(sorted(table.PATTERNS.values()))


def _verify(code):
    """Every row checked against the ISA table at once (numpy): the kernels trust opcodes, type codes,
    register numbers, labels and patterns. Raises ValueError naming the first bad row."""
    n = code.shape[0]
    ops = code[:, 0]
    bad = (ops < 1) | (ops >= _N_OPCODES)
    safe_ops = np.where(bad, 0, ops)
    t, u = code[:, 1], code[:, 2]
    types_ok = (t >= 0) & (t < _N_TYPES) & (u >= 0) & (u < _N_TYPES)
    bad |= ~types_ok
    kernels = _KERNEL[safe_ops, np.where(types_ok, t, 0), np.where(types_ok, u, 0)]
    bad |= kernels < 0
    kinds = _SLOT_KINDS[safe_ops]
    slot_bad = (kinds == SLOT_UNUSED) & (code != 0)
    slot_bad[:, :ROW_HEADER] = False
    for kind, (lo, hi) in _RANGES.items():
        slot_bad |= (kinds == kind) & ((code < lo) | (code >= hi))
    flags = np.zeros_like(code)
    flags[:, 1:] = code[:, :-1]
    slot_bad |= (kinds == SLOT_XVALUE) & (flags != 0) & ((code < 0) | (code >= NUM_SREGS))   # 1, 2: a register
    slot_bad |= (kinds == SLOT_LABEL) & ((code < 0) | (code > n))          # n: a branch past the end halts
    slot_bad |= (kinds == SLOT_PAT) & ~np.isin(code, _PATTERN_VALUES)
    bad |= slot_bad.any(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"bytecode row {row}: {_row_problem(code[row].tolist())}")
    return kernels


def _loop_partners(family):
    """Per row, the row of the matching endloop (for a vloop) or vloop (for an endloop), -1 for other rows.
    The kernels jump to them unchecked, so bytecode whose loops do not pair up, or nest deeper than
    NUM_LOOPS, is refused here (the assembler reports it with a caret)."""
    partners = np.full(family.shape[0], -1, np.int64)
    open_loops = []
    for row in np.flatnonzero((family == FAM_LOOP) | (family == FAM_ENDLOOP)).tolist():
        if family[row] == FAM_LOOP:
            if len(open_loops) == NUM_LOOPS:
                raise ValueError(f"bytecode row {row}: vloop nested deeper than {NUM_LOOPS} loops")
            open_loops.append(row)
        elif not open_loops:
            raise ValueError(f"bytecode row {row}: endloop without a vloop")
        else:
            start = open_loops.pop()
            partners[start], partners[row] = row, start
    if open_loops:                  # (no negative index here: the module is compiled without wraparound)
        raise ValueError(f"bytecode row {open_loops.pop()}: vloop without an endloop")
    return partners


def _row_problem(row) -> str:
    """Why one row failed verification, in words."""
    op = row[0]
    spec = table.BY_OPCODE.get(op)
    if spec is None:
        return f"unknown opcode {op}"
    if not 0 <= row[1] < _N_TYPES or not 0 <= row[2] < _N_TYPES or _KERNEL[op, row[1], row[2]] < 0:
        return f"type codes {row[1:ROW_HEADER]} not accepted by {spec.mnemonic}"
    return f"{spec.mnemonic}: operand slots {row[ROW_HEADER:]} out of range for `{spec.text}`"


def _require_shape(name, array, shape, dtype):
    if tuple(array.shape) != shape or array.dtype != np.dtype(dtype) or not array.flags.c_contiguous:
        raise ValueError(f"state.{name} is {array.dtype}{tuple(array.shape)}, expected C-contiguous {np.dtype(dtype)}{shape}")


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------

@cython.final
cdef class Engine:
    """Executes bytecode rows in place on a MachineState's arrays (shared with the reference executor)."""
    cdef Machine m
    cdef Ins* code                  # decoded rows, plus the end-of-code row
    cdef Role* roles                # per row, its part in the check of bytes never written
    cdef int64_t n_rows
    cdef int64_t max_steps
    cdef bint stops_set             # some row carries a stop flag: the loop looks at them
    cdef object state               # the MachineState whose arrays the engine runs on
    cdef tuple parts                # (name, shape, dtype) of each of its arrays
    cdef tuple bound                # the arrays the pointers point into, kept alive (see _bind)
    cdef object seen_buffer, dirty_list_buffer, log_buffer, regions_buffer, gm_regions_buffer
    cdef readonly int64_t last_row  # the row the latest run() completed last; -1: it completed none

    def __cinit__(self):
        self.code = NULL
        self.roles = NULL

    def __dealloc__(self):
        free(self.code)
        free(self.roles)

    def __init__(self, code, state, long long ub_usable, long long max_steps,
                 bint zero_inactive=False, bint strict=False, regions=(), gm_regions=()):
        code = np.asarray(code)
        if code.dtype != np.int64 or code.ndim != 2:
            raise ValueError(f"bytecode is {code.dtype} of shape {code.shape}, expected int64 rows")
        if code.shape[1] != ROW_WIDTH:
            raise ValueError(f"bytecode rows have {code.shape[1]} columns, expected {ROW_WIDTH}")
        rows = np.array(code, order="C")
        kernels = _verify(rows)
        n = rows.shape[0]
        partners = _loop_partners(_FAMILY[rows[:, 0]])
        self.parts = (("ub", (UB_BYTES,), np.uint8), ("vreg", (NUM_VREGS, VL), np.uint8),
                      ("preg", (NUM_PREGS, MASK_BYTES), np.uint8), ("preg_set", (NUM_PREGS,), np.uint8),
                      ("areg", (NUM_AREGS,), np.uint32), ("sreg", (NUM_SREGS,), np.int64),
                      ("ctrl", (CTRL_SIZE,), np.int64), ("dup_warn", (n, DUP_WARN_FIELDS), np.int64),
                      ("hazard_warn", (n, HAZARD_WARN_FIELDS), np.int64),
                      ("ub_dirty", (UB_BLOCKS,), np.uint32), ("ub_write_row", (UB_BYTES,), np.int32),
                      ("spr", (SPR_SIZE,), np.int64), ("ureg", (NUM_UREGS, UREG_BYTES), np.uint8),
                      ("ureg_state", (NUM_UREGS, 2), np.int64),
                      ("qreg", (NUM_QREGS, UREG_BYTES), np.uint8), ("qreg_state", (NUM_QREGS, 2), np.int64),
                      ("hwloop", (NUM_LOOPS, 2), np.int64),
                      ("mask_spr", (MASK_SPR_SIZE,), np.int64),
                      ("ctrlreg", (1,), np.uint64),
                      ("gm", (len(state.gm),), np.uint8), ("mte", (MTE_SIZE,), np.int64),
                      ("sysreg", (2,), np.int64), ("flags", (NUM_PIPES, NUM_PIPES, NUM_EVENTS), np.int64),
                      ("xsync", (3, XSYNC_COLUMNS), np.int64), ("gm_writer", (len(state.gm_writer),), np.int64),
                      ("ub_unwritten", (UB_BLOCKS,), np.uint32), ("vreg_unwritten", (NUM_VREGS, MASK_WORDS), np.uint64),
                      ("vreg_origin", (NUM_VREGS, 2), np.int64), ("unwritten_warn", (n, UNWRITTEN_FIELDS), np.int64))
        if len(state.gm_writer) not in (0, len(state.gm)):
            raise ValueError(f"gm_writer has {len(state.gm_writer)} entries: 0 or one per GM byte ({len(state.gm)})")
        if not 0 <= ub_usable <= UB_BYTES:
            raise ValueError(f"ub_usable {ub_usable} outside [0, {UB_BYTES}]")
        self.state = state
        self.bound = ()
        self._bind()
        self.seen_buffer = np.zeros(UB_BYTES, np.uint16)
        self.dirty_list_buffer = np.zeros(UB_BLOCKS + 1, np.int32)     # + 1: mark_block appends before it counts
        cdef Machine* m = &self.m
        m.seen = <uint16_t*>_pointer(self.seen_buffer)
        m.seen_stamp = 0
        m.dirty_blocks = <int32_t*>_pointer(self.dirty_list_buffer)
        m.ub_usable = ub_usable
        self.regions_buffer = _regions(regions)
        m.regions = <const int64_t*>_pointer(self.regions_buffer)
        m.n_regions = len(self.regions_buffer) // 2 - 1
        self.gm_regions_buffer = _regions(gm_regions)
        if gm_regions and self.gm_regions_buffer[len(self.gm_regions_buffer) - 3] > len(state.gm):
            raise ValueError(f"gm_regions end beyond the state's {len(state.gm)} bytes of GM")
        m.gm_regions = <const int64_t*>_pointer(self.gm_regions_buffer)
        m.n_gm_regions = len(self.gm_regions_buffer) // 2 - 1
        m.strict = strict
        m.zero_inactive = zero_inactive
        m.zero64, m.zero32 = 0, 0
        m.log, m.log_len, m.log_cap = NULL, 0, 0
        self.max_steps = max_steps
        self.n_rows = n
        self.last_row = -1
        self.code = <Ins*>malloc((n + 1) * sizeof(Ins))
        if self.code == NULL:
            raise MemoryError("no memory for the decoded program")
        memset(self.code, 0, (n + 1) * sizeof(Ins))
        self.code[n].run = KERNELS[0]                        # row n: the end of the code
        self.code[n].row = n
        self.m.code = self.code
        ops = rows[:, 0]
        facts = np.column_stack([_ACCESS[ops, rows[:, 1]], _WIDTH[rows[:, 1]], _WIDTH[rows[:, 2]]])
        self._decode(rows, kernels, facts, partners)
        self.roles = <Role*>malloc((n + 1) * sizeof(Role))
        if self.roles == NULL:
            raise MemoryError("no memory for the decoded program")
        memset(self.roles, 0, (n + 1) * sizeof(Role))
        self.roles[n].dst[0] = self.roles[n].dst[1] = -1
        cdef Role* role
        for r, (kind, width, src, mask, dst, offset, s0, s1, a, base) in enumerate(_roles(rows)):
            role = &self.roles[r]
            role.kind, role.width, role.mask = kind, width, mask
            role.src[0], role.src[1], role.dst[0], role.dst[1] = src[0], src[1], dst[0], dst[1]
            role.offset, role.s0, role.s1, role.a, role.base = offset, s0, s1, a, base

    cdef _bind(self):
        """Point the machine at the state's arrays, checked, unless they are the ones bound already:
        a caller may replace an array (state.ub = ...), and the old one may then be freed."""
        cdef Py_ssize_t k
        if len(self.bound) == len(self.parts):         # (the common case, on every run: no tuple built)
            for k in range(len(self.parts)):
                if getattr(self.state, self.parts[k][0]) is not self.bound[k]:
                    break
            else:
                return
        arrays = tuple([getattr(self.state, name) for name, _shape, _dtype in self.parts])
        for (name, shape, dtype), array in zip(self.parts, arrays):
            _require_shape(name, array, shape, dtype)
        cdef Machine* m = &self.m
        m.ub = <uint8_t*>_pointer(arrays[0])
        m.vreg = <uint8_t*>_pointer(arrays[1])
        m.preg = <uint64_t*>_pointer(arrays[2])
        m.preg_set = <uint8_t*>_pointer(arrays[3])
        m.areg = <uint32_t*>_pointer(arrays[4])
        m.sreg = <int64_t*>_pointer(arrays[5])
        m.ctrl = <int64_t*>_pointer(arrays[6])
        m.dup_warn = <int64_t*>_pointer(arrays[7])
        m.hazard_warn = <int64_t*>_pointer(arrays[8])
        m.ub_dirty = <uint32_t*>_pointer(arrays[9])
        m.ub_write_row = <int32_t*>_pointer(arrays[10])
        m.spr = <int64_t*>_pointer(arrays[11])
        m.ureg = <uint8_t*>_pointer(arrays[12])
        m.ureg_state = <int64_t*>_pointer(arrays[13])
        m.qreg = <uint8_t*>_pointer(arrays[14])
        m.qreg_state = <int64_t*>_pointer(arrays[15])
        m.hwloop = <int64_t*>_pointer(arrays[16])
        m.mask_spr = <int64_t*>_pointer(arrays[17])
        m.ctrlreg = <uint64_t*>_pointer(arrays[18])
        m.gm = <uint8_t*>_pointer(arrays[19])
        m.gm_size = len(arrays[19])
        m.mte = <int64_t*>_pointer(arrays[20])
        m.sysreg = <int64_t*>_pointer(arrays[21])
        m.flags = <int64_t*>_pointer(arrays[22])
        m.xsync = <int64_t*>_pointer(arrays[23])
        m.gm_writer = <int64_t*>_pointer(arrays[24])
        m.n_gm_writer = len(arrays[24])
        m.ub_unwritten = <uint32_t*>_pointer(arrays[25])
        m.vreg_unwritten = <uint64_t*>_pointer(arrays[26])
        m.vreg_origin = <int64_t*>_pointer(arrays[27])
        m.unwritten_warn = <int64_t*>_pointer(arrays[28])
        self.bound = arrays

    cdef _decode(self, rows_array, kernels_array, facts_array, partners_array):
        """Per row (int64 arrays): its row, kernel, facts (access size, alignment and slot in bytes,
        then the widths of types 0 and 1) and loop partner."""
        cdef const int64_t* rows = <const int64_t*>_data(rows_array, np.int64, (self.n_rows, ROW_WIDTH))
        cdef const int64_t* kernels = <const int64_t*>_data(kernels_array, np.int64, (self.n_rows,))
        cdef const int64_t* facts = <const int64_t*>_data(facts_array, np.int64, (self.n_rows, N_FACTS))
        cdef const int64_t* partners = <const int64_t*>_data(partners_array, np.int64, (self.n_rows,))
        cdef const int64_t* row
        cdef const int64_t* fact
        cdef Ins* ins
        cdef int64_t r
        for r in range(self.n_rows):
            row, fact, ins = rows + r * ROW_WIDTH, facts + r * N_FACTS, &self.code[r]
            ins.kernel = <int32_t>kernels[r]
            ins.row = r
            ins.run = KERNELS[ins.kernel]
            ins.t, ins.u = <int32_t>row[1], <int32_t>row[2]
            ins.size, ins.align, ins.slot = fact[0], fact[1], fact[2]
            ins.tw, ins.uw = <int32_t>fact[3], <int32_t>fact[4]
            ins.partner = partners[r]
            decode_args(&self.m, row, ins)

    def set_stop_rows(self, before, after):
        """Per-row stop flags (docs/bytecode.md "Stop flags"), each None (no flag) or n_rows values:
        `run` returns, the status still running, before executing a row flagged in `before` (except the
        first instruction of the call, so that a run can leave a breakpoint) and right after a row
        flagged in `after` completes. The debugger's breakpoints and watches; `ascasm run` sets none."""
        flags = _stop_flags(before, self.n_rows) * STOP_BEFORE + _stop_flags(after, self.n_rows) * STOP_AFTER
        cdef int64_t r
        for r in range(self.n_rows):
            self.code[r].stop = flags[r]
        self.stops_set = bool(flags.any())

    def set_log(self, log):
        """Log what each executed instruction reads and writes in the UB into `log`, an int64 array of
        shape (capacity, LOG_FIELDS) (None: stop logging). `run` then also returns, still running, once
        fewer than LOG_RESERVE records are free; `log_length` says how many it holds (docs/bytecode.md)."""
        if log is None:
            self.m.log, self.log_buffer = NULL, None
            return
        _require_shape("log", log, (log.shape[0], LOG_FIELDS), np.int64)
        if log.shape[0] < 2 * LOG_RESERVE:
            raise ValueError(f"a write log needs room for at least {2 * LOG_RESERVE} records")
        self.log_buffer = log
        self.m.log = <int64_t*>_pointer(log)
        self.m.log_cap = log.shape[0]
        self.m.log_len = 0

    @property
    def log_length(self) -> int:
        return self.m.log_len

    def clear_log(self):
        self.m.log_len = 0

    def run(self, long long budget) -> int:
        """Execute at most `budget` instructions; return the status (ctrl[2]): 0 (running) if the budget
        ran out or a stop flag (or a full write log) stopped it."""
        cdef int status
        if budget < 0:          # the run loop counts down to 0: a negative budget would ignore the step limit
            raise ValueError(f"budget {budget} is negative")
        self._bind()
        cdef int64_t pc = self.m.ctrl[PC], steps = self.m.ctrl[STEPS], status_code = self.m.ctrl[STATUS]
        if not (0 <= pc <= self.n_rows and steps >= 0 and status_code in _STATUS_CODES):
            raise ValueError(control_error(self.state.ctrl, self.n_rows))     # (says what is wrong)
        self._check_streams()
        self._collect_dirty_blocks()
        # (only an economy: with no mark anywhere, the check of bytes never written does nothing)
        cdef bint tracking = bool(self.state.ub_unwritten.any() or self.state.vreg_unwritten.any())
        with nogil:
            status = self._run(budget, tracking)
        return status

    cdef _check_streams(self):
        """The stream kernels size their copies by these, so a state set from outside must keep what the
        kernels do: up to 31 pending bytes that fit in the UB at their address, and SQZN a vector's bytes."""
        cdef int64_t u, pending, addr
        for u in range(NUM_UREGS):
            pending, addr = self.m.ureg_state[2 * u + UREG_PENDING], self.m.ureg_state[2 * u + UREG_ADDR]
            if not (0 <= pending < UREG_BYTES and (pending == 0 or 0 <= addr <= UB_BYTES - pending)):
                raise ValueError(f"u{u} holds {pending} pending bytes for address {addr}: "
                                 f"0..{UREG_BYTES - 1} bytes that fit in the UB from their address")
        if not 0 <= self.m.spr[SPR_SQZN] <= VL:
            raise ValueError(f"SQZN {self.m.spr[SPR_SQZN]} is not a vector's byte count (0..{VL})")

    cdef void _collect_dirty_blocks(self):
        """The list of blocks with dirty bits, from the state (which the debugger may have rewound).
        Tests 8 words at a time: most of the UB is clean, and this runs at every call."""
        cdef const uint32_t* w = self.m.ub_dirty
        cdef int64_t group, block
        self.m.n_dirty = 0
        for group in range(0, UB_BLOCKS, 8):
            if (w[group] | w[group + 1] | w[group + 2] | w[group + 3]
                    | w[group + 4] | w[group + 5] | w[group + 6] | w[group + 7]) == 0:
                continue
            for block in range(group, group + 8):
                if self.m.ub_dirty[block]:
                    self.m.dirty_blocks[self.m.n_dirty] = <int32_t>block
                    self.m.n_dirty += 1

    cdef int _run(self, long long budget, bint tracking) noexcept nogil:
        """Run rows from ctrl's pc (docs/semantics.md "Steps, halting, limits"): each kernel returns the
        row to run next, or NULL with Machine.status when it stops the machine."""
        cdef Machine* m = &self.m
        cdef int64_t steps = m.ctrl[STEPS]
        cdef int64_t limit = self.max_steps - steps if self.max_steps > steps else 0
        cdef int64_t todo = budget if budget < limit else limit        # the step limit is part of the budget
        cdef int64_t left = todo
        cdef const Ins* ins = &self.code[m.ctrl[PC]]
        cdef const Ins* last = NULL                 # the row completed last
        cdef const Ins* after
        cdef int status = <int>m.ctrl[STATUS]
        cdef bint flagged = False                   # a stop flag (or a full log) ended the run
        cdef const Role* role = NULL
        cdef int64_t unwritten_case[3]
        cdef int64_t load_address = 0
        self.last_row = -1
        m.hazard = False
        m.status = STOP_RUNNING
        if status != STOP_RUNNING or (m.log != NULL and m.log_len > m.log_cap - LOG_RESERVE):
            return status
        if not self.stops_set and m.log == NULL and not tracking:
            while left:                             # the fast loop: nothing to look at between rows
                after = ins.run(m, ins)
                if after == NULL:
                    break
                last = ins
                ins = after
                left -= 1
        else:
            while left:
                if (ins.stop & STOP_BEFORE) and last != NULL:
                    flagged = True                  # a breakpoint, not on the call's first row
                    break
                m.step = steps + todo - left + 1
                if tracking:
                    role = &self.roles[ins.row]
                    m.status = unwritten_before(m, role, ins.row, unwritten_case, &load_address)
                    if m.status:
                        break
                after = ins.run(m, ins)
                if after == NULL:
                    break
                if tracking:
                    unwritten_after(m, role, ins.row, unwritten_case, load_address)
                last = ins
                left -= 1
                flagged = (ins.stop & STOP_AFTER) or (m.log != NULL and m.log_len > m.log_cap - LOG_RESERVE)
                ins = after
                if flagged:
                    break
        if m.status == STOP_HALTED:                 # halt counts its step; pc stays on its row
            last = ins
            left -= 1
        elif m.status == STOP_END:                  # past the last row: halts without a step
            m.status = STOP_HALTED
        elif m.status == STOP_RUNNING and left == 0 and todo < budget and not flagged:
            # the step limit, not the budget, ended the run; a breakpoint there still stops first
            if ins.row == self.n_rows:
                m.status = STOP_HALTED
            elif not (self.stops_set and (ins.stop & STOP_BEFORE) and last != NULL):
                m.status = fault(m, STOP_STEP_LIMIT, self.max_steps)
        m.ctrl[PC] = ins.row
        m.ctrl[STEPS] = steps + todo - left
        m.ctrl[STATUS] = m.status
        self.last_row = last.row if last != NULL else -1
        return m.status


cdef enum:
    N_FACTS = 5             # per decoded row: access size, alignment, slot, widths of types 0 and 1


cdef const void* _data(array, dtype, shape) except? NULL:
    """The data of a C-contiguous array of this dtype and shape, to read (the caller keeps it alive)."""
    if array.dtype != dtype or tuple(array.shape) != shape or not array.flags.c_contiguous:
        raise ValueError(f"expected a C-contiguous {np.dtype(dtype)}{shape} array, got {array.dtype}{tuple(array.shape)}")
    return <const void*><uintptr_t>array.ctypes.data


cdef void* _pointer(array) except NULL:
    """The address of a C-contiguous array's first element (the engine keeps the array alive)."""
    if not array.flags.c_contiguous or not array.flags.writeable:
        raise ValueError("engine state arrays must be writeable and C-contiguous")
    return <void*><uintptr_t>array.ctypes.data


def _regions(regions):
    """The regions as the int64 array [lo0, hi0, lo1, ...] the engine searches (one spare pair so that
    it is never empty); they must be sorted, disjoint, not adjacent (merged) and non-empty."""
    pairs = np.array(regions, np.int64).reshape(-1, 2)
    flat = pairs.reshape(-1)
    if flat.size and np.any(np.diff(flat) <= 0):
        raise ValueError(f"regions {pairs.tolist()} are not sorted, merged, non-empty [lo, hi) pairs")
    return np.concatenate([flat, np.zeros(2, np.int64)])


def _stop_flags(flags, n_rows):
    """One 0/1 stop flag per row (None: none set); the length is checked here."""
    rows = np.zeros(n_rows, np.uint8) if flags is None else (np.asarray(flags) != 0).astype(np.uint8)
    if rows.shape != (n_rows,):
        raise ValueError(f"stop flags have shape {rows.shape}, expected ({n_rows},): one per bytecode row")
    return rows


# ---------------------------------------------------------------------------------------------
# Test hook (not used by the engine): the float conversions over whole arrays, for the proofs
# ---------------------------------------------------------------------------------------------

def _test_codec(int64_t t, bits, values, ints):
    """For float type t: (the exact values of `bits`, `values` rounded once to t, `ints` rounded once
    to t), as numpy arrays (float64, uint64 bits, uint64 bits); the inputs are 1-D uint64, float64 and
    int64 arrays."""
    cdef FloatFormat f
    if t == T_F16:
        f = float_format(<F16*>NULL)
    elif t == T_BF16:
        f = float_format(<BF16*>NULL)
    elif t == T_F32:
        f = float_format(<float*>NULL)
    elif t == T_E4M3:
        f = float_format(<E4M3*>NULL)
    elif t == T_E5M2:
        f = float_format(<E5M2*>NULL)
    else:
        raise ValueError(f"type code {t} is not a float type the engine computes on")
    decoded = np.empty(len(bits), np.float64)
    from_values = np.empty(len(values), np.uint64)
    from_ints = np.empty(len(ints), np.uint64)
    cdef const uint64_t* bits_in = <const uint64_t*>_data(bits, np.uint64, (len(bits),))
    cdef const double* values_in = <const double*>_data(values, np.float64, (len(values),))
    cdef const int64_t* ints_in = <const int64_t*>_data(ints, np.int64, (len(ints),))
    cdef double* decoded_out = <double*>_pointer(decoded)
    cdef uint64_t* from_values_out = <uint64_t*>_pointer(from_values)
    cdef uint64_t* from_ints_out = <uint64_t*>_pointer(from_ints)
    cdef Py_ssize_t i, n_bits = len(bits), n_values = len(values), n_ints = len(ints)
    with nogil:
        for i in range(n_bits):
            decoded_out[i] = decode_bits(bits_in[i], &f)
        for i in range(n_values):
            from_values_out[i] = encode_double(values_in[i], &f)
        for i in range(n_ints):
            from_ints_out[i] = encode_int(ints_in[i], &f)
    return decoded, from_values, from_ints
