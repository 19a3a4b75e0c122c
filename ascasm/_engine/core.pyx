"""The Cython execution engine: runs encoded bytecode (docs/bytecode.md) in place on a MachineState.

Semantics are LANGUAGE.md §4 plus the rules of docs/semantics.md. The dispatch loop and the family
kernels hold no Python objects and run without the GIL. Kernels return a stop code: STOP_RUNNING
when the instruction completed, otherwise a fault whose arguments they stored with `_fault` before
writing anything (every check precedes every write).

Register numbers, type codes, labels and patterns in a row are trusted by the kernels; `__init__`
verifies every row against the ISA table first, so hand-built bytecode cannot index out of range.
Addresses are computed at run time and are always range-checked before use.
"""
cimport cython
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

import numpy as np

from ascasm.isa import table
from ascasm.isa.operands import Kind
from ascasm.state import NUM_AREGS, NUM_PREGS, NUM_SREGS, NUM_VREGS, VL as _VL

include "opcodes.pxd"

cdef enum:
    VL = 256                # bytes in a vector register
    MASK_BYTES = VL // 8    # bytes in a mask register
    VECTOR_ALIGN = 32       # alignment of every vector load/store address (LANGUAGE.md §4)
    # ctrl layout (ascasm/state.py)
    PC = 0
    STEPS = 1
    STATUS = 2
    FAULT_ARGS = 3
    N_FAULT_ARGS = 5

assert VL == _VL and MASK_BYTES * 8 == VL

HANDLED = frozenset({
    OP_MOV, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
    OP_LD, OP_ST, OP_B, OP_BEQ, OP_BNE, OP_BLT, OP_BLE, OP_BGT, OP_BGE, OP_MEMBAR, OP_HALT,
    OP_MASK, OP_MASK_UPD, OP_ITER, OP_ITER_SCALED, OP_VLD, OP_VSTA, OP_VSCT,
})


# ---------------------------------------------------------------------------------------------
# Helpers on plain values
# ---------------------------------------------------------------------------------------------

cdef inline int64_t _width(int64_t t) noexcept nogil:
    """Bytes per element of type code t (never 0, so lane counts cannot divide by zero)."""
    if t == T_S16 or t == T_U16 or t == T_F16 or t == T_BF16 or t == T_B16:
        return 2
    if t == T_S32 or t == T_U32 or t == T_F32 or t == T_B32:
        return 4
    if t == T_S64 or t == T_U64 or t == T_B64:
        return 8
    return 1


cdef inline bint _is_signed(int64_t t) noexcept nogil:
    return t == T_S8 or t == T_S16 or t == T_S32 or t == T_S64


cdef inline int64_t _sign_extend(uint64_t v, int64_t width) noexcept nogil:
    if width == 1:
        return <int8_t>v
    if width == 2:
        return <int16_t>v
    if width == 4:
        return <int32_t>v
    return <int64_t>v


cdef inline uint64_t _load_le(const uint8_t* p, int64_t width) noexcept nogil:
    """The little-endian unsigned integer in p[0:width] (independent of the host's byte order)."""
    cdef uint64_t v = 0
    cdef int64_t k
    for k in range(width):
        v |= (<uint64_t>p[k]) << (8 * k)
    return v


cdef inline void _store_le(uint8_t* p, uint64_t v, int64_t width) noexcept nogil:
    cdef int64_t k
    for k in range(width):
        p[k] = <uint8_t>(v >> (8 * k))


cdef inline int64_t _offset(int64_t addr, uint64_t delta) noexcept nogil:
    """addr + delta in wrapping 64-bit arithmetic (signed overflow would be undefined in C)."""
    return <int64_t>(<uint64_t>addr + delta)


# ---------------------------------------------------------------------------------------------
# Row verification (Python, once per Engine): the kernels trust what it checks
# ---------------------------------------------------------------------------------------------

_REGISTER_COUNT = {Kind.VREG: NUM_VREGS, Kind.PREG: NUM_PREGS, Kind.AREG: NUM_AREGS, Kind.SREG: NUM_SREGS}
_PATTERN_VALUES = frozenset(table.PATTERNS.values())
_TYPE_CODES = {op: frozenset(tuple(t.code for t in combo) for combo in spec.types) or frozenset({()})
               for op, spec in table.BY_OPCODE.items()}


def _operand_problem(kind, values, n_rows):
    """Why an operand's slots (docs/bytecode.md) cannot be executed safely, or None."""
    if kind in _REGISTER_COUNT:
        ok = 0 <= values[0] < _REGISTER_COUNT[kind]
    elif kind is Kind.SVAL:
        ok = values[0] == 0 or (values[0] == 1 and 0 <= values[1] < NUM_SREGS)
    elif kind is Kind.ADDR:
        ok = all(r == -1 or 0 <= r < NUM_SREGS for r in values[1:3]) and (values[3] == -1 or 0 <= values[3] < NUM_AREGS)
    elif kind is Kind.LABEL:
        ok = 0 <= values[0] <= n_rows          # n_rows: a branch past the last row halts
    elif kind is Kind.PAT:
        ok = values[0] in _PATTERN_VALUES
    elif kind is Kind.BARRIER:
        ok = -1 <= values[0] < len(table.BARRIER_KINDS)
    else:                                      # Kind.IMM: any value
        ok = True
    return None if ok else f"{kind.value} slots {values} out of range"


def _row_problem(row, n_rows):
    """Why a bytecode row cannot be executed safely, or None."""
    op = row[0]
    spec = table.BY_OPCODE.get(op)
    if spec is None:
        return f"unknown opcode {op}"
    if op not in HANDLED:
        return f"{spec.mnemonic} (opcode {op}) is not implemented by the Cython engine"
    n_types = spec.type_slots
    if tuple(row[1:1 + n_types]) not in _TYPE_CODES[op] or any(row[1 + n_types:table.ROW_HEADER]):
        return f"type codes {row[1:table.ROW_HEADER]} not accepted by {spec.mnemonic}"
    slot = table.ROW_HEADER
    for operand in spec.operands:
        problem = _operand_problem(operand.kind, row[slot:slot + operand.kind.slots], n_rows)
        if problem:
            return f"{spec.mnemonic} operand {operand.text}: {problem}"
        slot += operand.kind.slots
    if any(row[slot:]):
        return f"unused slots {row[slot:]} are not 0"
    return None


def _verify(code):
    n_rows = code.shape[0]
    for index, row in enumerate(code.tolist()):
        problem = _row_problem(row, n_rows)
        if problem:
            raise ValueError(f"bytecode row {index}: {problem}")


def _require_shape(name, array, shape):
    if tuple(array.shape) != shape:
        raise ValueError(f"state.{name} has shape {tuple(array.shape)}, expected {shape}")


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------

@cython.final
cdef class Engine:
    """Executes bytecode rows in place on a MachineState's arrays (shared with the reference executor)."""
    cdef int64_t[:, ::1] code       # a verified private copy: rows cannot change after verification
    cdef uint8_t[::1] ub
    cdef uint8_t[:, ::1] vreg
    cdef uint8_t[:, ::1] preg
    cdef uint8_t[::1] preg_set
    cdef uint32_t[::1] areg
    cdef int64_t[::1] sreg
    cdef int64_t[::1] ctrl
    cdef int64_t n_rows
    cdef int64_t ub_usable
    cdef int64_t max_steps

    def __init__(self, const int64_t[:, ::1] code, state, long long ub_usable, long long max_steps):
        if code.shape[1] != ROW_WIDTH:
            raise ValueError(f"bytecode rows have {code.shape[1]} columns, expected {ROW_WIDTH}")
        rows = np.array(code, dtype=np.int64)
        _verify(rows)
        self.code = rows
        self.n_rows = rows.shape[0]
        self.ub = state.ub
        self.vreg = state.vreg
        self.preg = state.preg
        self.preg_set = state.preg_set
        self.areg = state.areg
        self.sreg = state.sreg
        self.ctrl = state.ctrl
        _require_shape("vreg", state.vreg, (NUM_VREGS, VL))
        _require_shape("preg", state.preg, (NUM_PREGS, MASK_BYTES))
        _require_shape("preg_set", state.preg_set, (NUM_PREGS,))
        _require_shape("areg", state.areg, (NUM_AREGS,))
        _require_shape("sreg", state.sreg, (NUM_SREGS,))
        _require_shape("ctrl", state.ctrl, (FAULT_ARGS + N_FAULT_ARGS,))
        if not 0 <= ub_usable <= self.ub.shape[0]:
            raise ValueError(f"ub_usable {ub_usable} outside [0, {self.ub.shape[0]}]")
        self.ub_usable = ub_usable
        self.max_steps = max_steps

    def run(self, long long budget) -> int:
        """Execute at most `budget` instructions; return the status (ctrl[2]): 0 if the budget ran out."""
        cdef int status
        if self.ctrl[PC] < 0:
            raise ValueError(f"pc {self.ctrl[PC]} is negative")
        with nogil:
            status = self._run(budget)
        return status

    cdef int _run(self, long long budget) noexcept nogil:
        cdef int64_t pc = self.ctrl[PC]
        cdef int64_t steps = self.ctrl[STEPS]
        cdef int status = <int>self.ctrl[STATUS]
        cdef int64_t next_pc, op
        cdef const int64_t* row
        while status == STOP_RUNNING and budget > 0:
            budget -= 1
            if pc >= self.n_rows:
                status = STOP_HALTED
                break
            if steps >= self.max_steps:
                status = self._fault(STOP_STEP_LIMIT, self.max_steps)
                break
            row = &self.code[pc, 0]
            op = row[0]
            next_pc = pc + 1
            if op == OP_MOV:
                status = self._k_scalar_mov(row)
            elif (op == OP_ADD or op == OP_SUB or op == OP_MUL or op == OP_DIV or op == OP_REM or op == OP_AND
                  or op == OP_OR or op == OP_XOR or op == OP_SHL or op == OP_SHR):
                status = self._k_scalar_alu(row)
            elif op == OP_LD:
                status = self._k_scalar_load(row)
            elif op == OP_ST:
                status = self._k_scalar_store(row)
            elif op == OP_B:
                next_pc = row[3]
            elif op == OP_BEQ or op == OP_BNE or op == OP_BLT or op == OP_BLE or op == OP_BGT or op == OP_BGE:
                if self._branch_taken(row):
                    next_pc = row[6]
            elif op == OP_MEMBAR:
                pass                    # execution is in program order already
            elif op == OP_HALT:
                status = STOP_HALTED    # counts a step, pc stays on the halt row
            elif op == OP_MASK:
                status = self._k_mask_pattern(row)
            elif op == OP_MASK_UPD:
                status = self._k_mask_update(row)
            elif op == OP_ITER:
                status = self._k_iter_set(row)
            elif op == OP_ITER_SCALED:
                status = self._k_iter_scaled(row)
            elif op == OP_VLD:
                status = self._k_vld_norm(row)
            elif op == OP_VSTA:
                status = self._k_vsta_norm(row)
            elif op == OP_VSCT:
                status = self._k_vsct(row)
            if status == STOP_RUNNING:
                pc = next_pc
            if status == STOP_RUNNING or status == STOP_HALTED:
                steps += 1              # a fault does not count its step
        self.ctrl[PC] = pc
        self.ctrl[STEPS] = steps
        self.ctrl[STATUS] = status
        return status

    # --- faults and checks (each returns STOP_RUNNING or the fault it recorded) -------------

    cdef inline int _fault(self, int code, int64_t a0=0, int64_t a1=0, int64_t a2=0, int64_t a3=0,
                           int64_t a4=0) noexcept nogil:
        self.ctrl[FAULT_ARGS] = a0
        self.ctrl[FAULT_ARGS + 1] = a1
        self.ctrl[FAULT_ARGS + 2] = a2
        self.ctrl[FAULT_ARGS + 3] = a3
        self.ctrl[FAULT_ARGS + 4] = a4
        return code

    cdef inline int _check_mask(self, int64_t p) noexcept nogil:
        if self.preg_set[p]:
            return STOP_RUNNING
        return self._fault(STOP_MASK_UNSET, p)

    cdef inline int _check_align(self, int64_t addr, int64_t align) noexcept nogil:
        if (addr & (align - 1)) == 0:
            return STOP_RUNNING
        return self._fault(STOP_MISALIGNED, addr, align)

    cdef inline int _check_range(self, int64_t addr, int64_t size, int64_t lane, int64_t index) noexcept nogil:
        # every byte of [addr, addr + size) in [0, usable), written so that nothing can overflow
        if addr >= 0 and addr <= self.ub_usable - size:
            return STOP_RUNNING
        return self._fault(STOP_UB_RANGE, addr, size, self.ub_usable, lane, index)

    cdef inline int _check_span(self, int64_t addr, int64_t align, int64_t size) noexcept nogil:
        """Alignment, then range, of one contiguous access."""
        return self._check_align(addr, align) or self._check_range(addr, size, -1, -1)

    # --- operand decoding -------------------------------------------------------------------

    cdef inline int64_t _sval(self, const int64_t* slot) noexcept nogil:
        """An X operand: (is_register, register number or immediate)."""
        return self.sreg[slot[1]] if slot[0] else slot[1]

    cdef inline int64_t _address(self, const int64_t* slot) noexcept nogil:
        """[const + sX + sY + aZ] in wrapping 64-bit arithmetic; -1 marks an absent register."""
        cdef uint64_t addr = <uint64_t>slot[0]
        if slot[1] >= 0:
            addr += <uint64_t>self.sreg[slot[1]]
        if slot[2] >= 0:
            addr += <uint64_t>self.sreg[slot[2]]
        if slot[3] >= 0:
            addr += self.areg[slot[3]]
        return <int64_t>addr

    cdef inline bint _mask_bit(self, int64_t p, int64_t k) noexcept nogil:
        """Bit k of mask register p: bit k % 8 of byte k // 8."""
        return (self.preg[p, k >> 3] >> (k & 7)) & 1

    cdef inline void _write_mask(self, int64_t p, int64_t width, int64_t count, int64_t step) noexcept nogil:
        """Set bit i*width for i = 0, step, 2*step, ... below count (at most the lane count); clear the rest."""
        cdef int64_t lanes = VL // width
        cdef int64_t i = 0
        if count > lanes:
            count = lanes
        memset(&self.preg[p, 0], 0, MASK_BYTES)
        while i < count:
            self.preg[p, (i * width) >> 3] |= <uint8_t>(1 << ((i * width) & 7))
            i += step
        self.preg_set[p] = 1

    # --- scalar family kernels --------------------------------------------------------------

    # mov sD, X
    cdef inline int _k_scalar_mov(self, const int64_t* row) noexcept nogil:
        self.sreg[row[3]] = self._sval(row + 4)
        return STOP_RUNNING

    # add|sub|mul|div|rem|and|or|xor|shl|shr sD, sA, X
    cdef inline int _k_scalar_alu(self, const int64_t* row) noexcept nogil:
        cdef int64_t op = row[0]
        cdef int64_t a = self.sreg[row[4]]
        cdef int64_t x = self._sval(row + 5)
        cdef int64_t result
        if op == OP_ADD:
            result = <int64_t>(<uint64_t>a + <uint64_t>x)
        elif op == OP_SUB:
            result = <int64_t>(<uint64_t>a - <uint64_t>x)
        elif op == OP_MUL:
            result = <int64_t>(<uint64_t>a * <uint64_t>x)
        elif op == OP_DIV or op == OP_REM:
            if x == 0:
                return self._fault(STOP_DIV_ZERO)
            if x == -1:                 # INT64_MIN / -1 traps in C; it wraps to INT64_MIN, rem 0
                result = <int64_t>(<uint64_t>0 - <uint64_t>a) if op == OP_DIV else 0
            else:                       # cdivision: C truncation toward zero, remainder takes a's sign
                result = a // x if op == OP_DIV else a % x
        elif op == OP_AND:
            result = a & x
        elif op == OP_OR:
            result = a | x
        elif op == OP_XOR:
            result = a ^ x
        elif op == OP_SHL:
            result = <int64_t>(<uint64_t>a << (x & 63))
        else:                           # OP_SHR, arithmetic
            result = a >> (x & 63)
        self.sreg[row[3]] = result
        return STOP_RUNNING

    # ld sD.T, [addr]
    cdef inline int _k_scalar_load(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t addr = self._address(row + 4)
        cdef int status = self._check_span(addr, width, width)
        if status:
            return status
        cdef uint64_t bits = _load_le(&self.ub[addr], width)
        self.sreg[row[3]] = _sign_extend(bits, width) if _is_signed(row[1]) else <int64_t>bits
        return STOP_RUNNING

    # st [addr], sS.T
    cdef inline int _k_scalar_store(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t addr = self._address(row + 3)
        cdef int status = self._check_span(addr, width, width)
        if status:
            return status
        _store_le(&self.ub[addr], <uint64_t>self.sreg[row[7]], width)
        return STOP_RUNNING

    # beq|bne|blt|ble|bgt|bge sA, X, LABEL (signed)
    cdef inline bint _branch_taken(self, const int64_t* row) noexcept nogil:
        cdef int64_t op = row[0]
        cdef int64_t a = self.sreg[row[3]]
        cdef int64_t x = self._sval(row + 4)
        if op == OP_BEQ:
            return a == x
        if op == OP_BNE:
            return a != x
        if op == OP_BLT:
            return a < x
        if op == OP_BLE:
            return a <= x
        if op == OP_BGT:
            return a > x
        return a >= x                   # OP_BGE

    # --- setup family kernels ---------------------------------------------------------------

    # mask pD.bW, PAT
    cdef inline int _k_mask_pattern(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t lanes = VL // width
        cdef int64_t pat = row[4]
        cdef int64_t count = lanes      # PAT_ALL
        cdef int64_t step = 1
        if PAT_VL1 <= pat <= PAT_VL4:
            count = pat
        elif PAT_VL8 <= pat <= PAT_VL128:
            count = 8 << (pat - PAT_VL8)
        elif pat == PAT_M3:
            step = 3
        elif pat == PAT_M4:
            step = 4
        elif pat == PAT_H:
            count = lanes // 2
        elif pat == PAT_Q:
            count = lanes // 4
        elif pat == PAT_ALLF:
            count = 0
        self._write_mask(row[3], width, count, step)
        return STOP_RUNNING

    # mask.upd pD.bW, sN
    cdef inline int _k_mask_update(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t lanes = VL // width
        cdef int64_t n = self.sreg[row[4]]
        self._write_mask(row[3], width, n if n > 0 else 0, 1)
        self.sreg[row[4]] = 0 if n < lanes else n - lanes
        return STOP_RUNNING

    # iter aD.bW, X
    cdef inline int _k_iter_set(self, const int64_t* row) noexcept nogil:
        self.areg[row[3]] = <uint32_t>(<uint64_t>self._sval(row + 4) * <uint64_t>_width(row[1]))
        return STOP_RUNNING

    # iter aD.bW, sI, STRIDE
    cdef inline int _k_iter_scaled(self, const int64_t* row) noexcept nogil:
        self.areg[row[3]] = <uint32_t>(<uint64_t>self.sreg[row[4]] * <uint64_t>row[5] * <uint64_t>_width(row[1]))
        return STOP_RUNNING

    # --- vector load/store family kernels ---------------------------------------------------

    # vld vD.T, [addr]
    cdef inline int _k_vld_norm(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr = self._address(row + 4)
        cdef int status = self._check_span(addr, VECTOR_ALIGN, VL)
        if status:
            return status
        memcpy(&self.vreg[row[3], 0], &self.ub[addr], VL)
        return STOP_RUNNING

    # vsta [addr], vS.T, pM
    cdef inline int _k_vsta_norm(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr = self._address(row + 3)
        cdef int64_t vs = row[7]
        cdef int64_t pm = row[8]
        cdef int64_t width = _width(row[1])
        cdef int64_t lanes = VL // width
        cdef int64_t i
        cdef int status = self._check_mask(pm) or self._check_align(addr, VECTOR_ALIGN)
        if status:
            return status
        # only active lanes touch the UB; check them all (lane 0 up) before writing any
        for i in range(lanes):
            if self._mask_bit(pm, i * width):
                status = self._check_range(_offset(addr, i * width), width, i, -1)
                if status:
                    return status
        for i in range(lanes):
            if self._mask_bit(pm, i * width):
                memcpy(&self.ub[addr + i * width], &self.vreg[vs, i * width], width)
        return STOP_RUNNING

    # vsct [base], vS.T, vI.U, pM
    cdef inline int _k_vsct(self, const int64_t* row) noexcept nogil:
        cdef int64_t base = self._address(row + 3)
        cdef int64_t vs = row[7]
        cdef int64_t vi = row[8]
        cdef int64_t pm = row[9]
        cdef int64_t width = _width(row[1])     # bytes stored per request
        cdef int64_t slot = _width(row[2])      # lane width: index width, mask bit spacing, source stride
        cdef int64_t lanes = VL // slot
        cdef int64_t lane_addr[VL]              # -1: inactive lane
        cdef int64_t i, index
        cdef int status = self._check_mask(pm) or self._check_align(base, VECTOR_ALIGN)
        if status:
            return status
        # check every active lane (lane 0 up) before writing any
        for i in range(lanes):
            lane_addr[i] = -1
            if self._mask_bit(pm, i * slot):
                index = <int64_t>_load_le(&self.vreg[vi, i * slot], slot)
                lane_addr[i] = _offset(base, <uint64_t>index * <uint64_t>width)
                status = self._check_range(lane_addr[i], width, i, index)
                if status:
                    return status
        # in lane order, so with duplicate indices the highest lane's value remains
        for i in range(lanes):
            if lane_addr[i] >= 0:
                memcpy(&self.ub[lane_addr[i]], &self.vreg[vs, i * slot], width)
        return STOP_RUNNING
