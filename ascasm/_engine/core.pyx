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
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.math cimport INFINITY, NAN, exp, sqrt
from libc.string cimport memcpy, memmove, memset

import numpy as np

from ascasm.isa import table
from ascasm.isa.operands import Kind
from ascasm.state import (CTRL_SIZE as _CTRL_SIZE, DUP_WARN_FIELDS as _DUP_WARN_FIELDS,
                          HAZARD_WARN_FIELDS as _HAZARD_WARN_FIELDS, LAST_MEMBAR as _LAST_MEMBAR, NUM_AREGS,
                          NUM_PREGS, NUM_SREGS, NUM_VREGS, UB_SIZE, VL as _VL)

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
    LAST_MEMBAR = 8         # step number of the latest membar
    CTRL_SIZE = 9
    DUP_WARN_FIELDS = 4     # dup_warn columns: count, earlier lane, later lane, address
    HAZARD_WARN_FIELDS = 4  # hazard_warn columns: count, writer row, first byte, one past the last byte
    LANES_B16 = VL // 2     # lanes of a 16-bit type: the most a gather, scatter or float reduction has
    UB_BYTES = 262144       # the UB (ascasm/state.py UB_SIZE); every checked address is below it
    BLOCK = 32              # bytes per block of the hazard check's summary
    UB_BLOCKS = 8192        # UB_BYTES / BLOCK

assert VL == _VL and MASK_BYTES * 8 == VL and DUP_WARN_FIELDS == _DUP_WARN_FIELDS and UB_BYTES == UB_SIZE
assert UB_BLOCKS * BLOCK == UB_BYTES and LAST_MEMBAR == _LAST_MEMBAR and CTRL_SIZE == _CTRL_SIZE and HAZARD_WARN_FIELDS == _HAZARD_WARN_FIELDS

HANDLED = frozenset({
    OP_MOV, OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_REM, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
    OP_LD, OP_ST, OP_B, OP_BEQ, OP_BNE, OP_BLT, OP_BLE, OP_BGT, OP_BGE, OP_MEMBAR, OP_HALT,
    OP_MASK, OP_MASK_UPD, OP_ITER, OP_ITER_SCALED, OP_PAND, OP_POR, OP_PXOR, OP_PNOT, OP_PMOV,
    OP_VLD, OP_VLD_BRC, OP_VLD_US, OP_VLD_DS, OP_VLD_UNPK, OP_VLD_DINTLV,
    OP_VLD_MASK, OP_VLD_US_MASK, OP_VLD_DS_MASK, OP_VGAT,
    OP_VSTA, OP_VSTA_1ST, OP_VSTA_PACK, OP_VSTA_PACKV2, OP_VSTA_INTLV, OP_VSTA_MASK, OP_VSTA_PACK_MASK,
    OP_VSCT, OP_VREDSUM, OP_VREDMAX, OP_VREDMIN,
    OP_VDUP, OP_VDUP_MASKED, OP_VCI, OP_VADD, OP_VSUB, OP_VMUL, OP_VMAX, OP_VMIN,
    OP_VADDS, OP_VMULS, OP_VMAXS, OP_VMINS, OP_VCMP_EQ, OP_VCMP_NE, OP_VCMP_LT, OP_VCMP_LE,
    OP_VCMP_GT, OP_VCMP_GE, OP_VSEL, OP_PCNT, OP_VDIV, OP_VABS, OP_VNEG, OP_VEXP, OP_VSQRT,
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


cdef inline uint64_t _load_lane(const uint8_t* p, int64_t width) noexcept nogil:
    """_load_le for a lane width of 1, 2, 4 or 8, each case with a constant width so that it compiles
    to a single load."""
    if width == 2:
        return _load_le(p, 2)
    if width == 4:
        return _load_le(p, 4)
    if width == 8:
        return _load_le(p, 8)
    return _load_le(p, 1)


cdef inline void _store_le(uint8_t* p, uint64_t v, int64_t width) noexcept nogil:
    cdef int64_t k
    for k in range(width):
        p[k] = <uint8_t>(v >> (8 * k))


cdef inline int64_t _offset(int64_t addr, uint64_t delta) noexcept nogil:
    """addr + delta in wrapping 64-bit arithmetic (signed overflow would be undefined in C)."""
    return <int64_t>(<uint64_t>addr + delta)


cdef inline uint64_t _low_bits(int64_t width) noexcept nogil:
    """All ones in the low `width` bytes."""
    return 0xFFFFFFFFFFFFFFFFULL if width >= 8 else ((<uint64_t>1) << (8 * width)) - 1


cdef inline uint64_t _sign_bit(int64_t width) noexcept nogil:
    return (<uint64_t>1) << (8 * width - 1)


cdef inline void _copy_elem(uint8_t* dst, const uint8_t* src, int64_t width) noexcept nogil:
    """Copy one element of 1, 2, 4 or 8 bytes (fixed-size copies compile to single moves)."""
    if width == 1:
        dst[0] = src[0]
    elif width == 2:
        memcpy(dst, src, 2)
    elif width == 4:
        memcpy(dst, src, 4)
    else:
        memcpy(dst, src, 8)


cdef inline void _pick_elements(uint8_t* dst, const uint8_t* src, int64_t width, int64_t mul, int64_t shift,
                                int64_t phase) noexcept nogil:
    """Fill the VL/width elements of dst: element e = src element ((e * mul) >> shift) + phase.
    BRC (mul 0), US (1, 1), DS and DINTLV (2, 0, phase 0 or 1); src must hold the largest one."""
    cdef int64_t e
    for e in range(VL // width):
        _copy_elem(dst + e * width, src + (((e * mul) >> shift) + phase) * width, width)


cdef inline bint _bit(const uint8_t* bits, int64_t k) noexcept nogil:
    """Bit k of a bit string: bit k % 8 of byte k // 8 (the mask layout, LANGUAGE.md §1)."""
    return (bits[k >> 3] >> (k & 7)) & 1


cdef inline void _pick_bits(uint8_t* dst, int64_t n, const uint8_t* src, int64_t mul, int64_t shift) noexcept nogil:
    """dst bit k = src bit (k * mul) >> shift for k < n (a multiple of 8): US (1, 1), DS and PACK (2, 0)."""
    cdef int64_t k
    memset(dst, 0, n >> 3)
    for k in range(n):
        if _bit(src, (k * mul) >> shift):
            dst[k >> 3] |= <uint8_t>(1 << (k & 7))


# --- floating-point types by bits (C has no half, bfloat16 or fp8 types). A value is widened to
# double exactly, computed on in double and rounded once back: for + - * / sqrt of p-bit inputs the
# double result rounds innocuously (53 >= 2p + 2), so the final result is correctly rounded. ---

cdef uint64_t ONE = 1                              # 64-bit shifts need a 64-bit one


cdef struct FloatFormat:
    int64_t mantissa_bits
    int64_t bias
    uint64_t sign_bit
    uint64_t max_finite     # bits of the largest finite value
    uint64_t overflow       # bits of +inf; for e4m3, which has no inf, its only NaN
    uint64_t nan            # the canonical quiet NaN
    bint has_inf


cdef inline FloatFormat _format(int64_t t) noexcept nogil:
    """The layout of float type t (f16, bf16, f32, e4m3, e5m2)."""
    cdef FloatFormat f
    if t == T_F16:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 10, 15, 0x8000, 0x7BFF, 0x7C00, 0x7E00
    elif t == T_BF16:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 7, 127, 0x8000, 0x7F7F, 0x7F80, 0x7FC0
    elif t == T_F32:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 23, 127, 0x80000000, 0x7F7FFFFF, \
            0x7F800000, 0x7FC00000
    elif t == T_E4M3:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 3, 7, 0x80, 0x7E, 0x7F, 0x7F
    else:                                           # T_E5M2
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 2, 15, 0x80, 0x7B, 0x7C, 0x7E
    f.has_inf = t != T_E4M3
    return f


cdef inline bint _is_float(int64_t t) noexcept nogil:
    return t == T_F16 or t == T_BF16 or t == T_F32 or t == T_E4M3 or t == T_E5M2


cdef inline double _float_of_bits(uint32_t bits) noexcept nogil:
    cdef float f
    memcpy(&f, &bits, 4)
    return f


cdef inline bint _is_nan(uint64_t bits, const FloatFormat* f) noexcept nogil:
    cdef uint64_t magnitude = bits & (f.sign_bit - 1)
    return magnitude > f.max_finite and (magnitude != f.overflow or not f.has_inf)


cdef inline double _decode(uint64_t bits, const FloatFormat* f) noexcept nogil:
    """The exact value of float bits (any NaN for a NaN: every use of a NaN value canonicalises)."""
    cdef uint64_t magnitude = bits & (f.sign_bit - 1)
    cdef int64_t m = f.mantissa_bits
    cdef int64_t field = <int64_t>(magnitude >> m)
    cdef double value
    if m == 23:
        return _float_of_bits(<uint32_t>bits)
    if magnitude > f.max_finite:
        value = INFINITY if magnitude == f.overflow and f.has_inf else NAN
    elif field == 0:                                # subnormal: mantissa units of 2^(1 - bias - m)
        value = <double>magnitude * _pow2(1 - f.bias - m)
    else:
        value = <double>((magnitude & ((ONE << m) - 1)) | (ONE << m)) * _pow2(field - f.bias - m)
    return -value if bits & f.sign_bit else value


cdef inline uint64_t _overflowed(uint64_t sign, const FloatFormat* f) noexcept nogil:
    """A result beyond the largest finite value: +-inf, or for e4m3 a NaN, made canonical."""
    return (sign | f.overflow) if f.has_inf else f.nan


cdef extern from *:
    int __builtin_clzll(unsigned long long v) nogil      # GCC and Clang: leading zero bits of v > 0


cdef inline int64_t _top_bit(uint64_t v) noexcept nogil:
    """Position of the highest set bit of v > 0."""
    return 63 - __builtin_clzll(v)


cdef inline double _pow2(int64_t e) noexcept nogil:
    """2^e for -1022 <= e <= 1023, built from its bits (exact, no libm call)."""
    cdef uint64_t bits = (<uint64_t>(e + 1023)) << 52
    cdef double value
    memcpy(&value, &bits, 8)
    return value


cdef inline uint64_t _encode(bint negative, uint64_t magnitude, int64_t exponent, const FloatFormat* f) noexcept nogil:
    """magnitude * 2^exponent (negated if `negative`) rounded once to nearest, ties to even, subnormals
    kept, overflow to inf (to the canonical NaN for e4m3). The result's last mantissa bit weighs
    2^quantum; q counts those."""
    cdef uint64_t sign = f.sign_bit if negative else 0
    cdef int64_t m = f.mantissa_bits
    cdef int64_t top, quantum, shift
    cdef uint64_t q, rest, half
    if magnitude == 0:
        return sign
    top = _top_bit(magnitude) + exponent            # magnitude * 2^exponent is in [2^top, 2^(top+1))
    if top + f.bias > <int64_t>(f.max_finite >> m): # at least twice the largest finite value
        return _overflowed(sign, f)
    quantum = (top if top > 1 - f.bias else 1 - f.bias) - m
    shift = quantum - exponent
    if shift <= 0:
        q = magnitude << (-shift)                   # exact: the value has at most m + 1 bits
    elif shift > 64:
        q = 0                                       # below half a quantum
    elif shift == 64:
        q = 1 if magnitude > (ONE << 63) else 0      # above half a quantum rounds up; the tie to even 0
    else:
        q = magnitude >> shift
        rest = magnitude & ((ONE << shift) - 1)
        half = ONE << (shift - 1)
        if rest > half or (rest == half and (q & 1)):
            q += 1
    # normal results have q in [2^m, 2^(m+1)]: the exponent field is quantum + m + bias, and q's
    # leading bit (and a carry from rounding up) adds into it; subnormal ones have field 1 - 1 = 0
    q = ((<uint64_t>(quantum + m + f.bias)) << m) + q - (ONE << m)
    if q > f.max_finite:
        return _overflowed(sign, f)
    return sign | q


cdef inline uint64_t _encode_double(double value, const FloatFormat* f) noexcept nogil:
    """A double rounded once to the float format; NaN becomes the canonical NaN."""
    cdef uint64_t bits
    cdef uint32_t single_bits
    cdef float single
    if value != value:
        return f.nan
    if f.mantissa_bits == 23:                       # f32: the C conversion rounds to nearest even
        single = <float>value
        memcpy(&single_bits, &single, 4)
        return single_bits
    memcpy(&bits, &value, 8)
    cdef uint64_t field = (bits >> 52) & 0x7FF
    cdef uint64_t fraction = bits & ((ONE << 52) - 1)
    if field == 0x7FF:                              # +-inf (NaN handled above)
        return _overflowed(f.sign_bit if bits >> 63 else 0, f)
    if field == 0:
        return _encode(bits >> 63, fraction, -1074, f)
    return _encode(bits >> 63, fraction | (ONE << 52), <int64_t>field - 1075, f)


cdef inline uint64_t _encode_int(int64_t value, const FloatFormat* f) noexcept nogil:
    """An integer rounded once to the float format (exact for every int64, no detour via double)."""
    return _encode(value < 0, (0 - <uint64_t>value) if value < 0 else <uint64_t>value, 0, f)


cdef inline uint64_t _order_key(uint64_t bits, int64_t t) noexcept nogil:
    """An unsigned key ordered as the values of type t are (bits: the lane's zero-extended bits).
    Floats (not NaN) in IEEE total order, so -0 sorts just below +0; signed integers offset by the sign."""
    cdef int64_t width = _width(t)
    cdef uint64_t sign = _sign_bit(width)
    if _is_float(t):
        return (~bits & _low_bits(width)) if bits & sign else bits | sign
    if _is_signed(t):
        return bits ^ sign
    return bits


cdef inline uint64_t _maxmin_identity(int64_t t, bint want_max) noexcept nogil:
    """Bits of the max (min) identity: -inf (+inf) for floats, the type's minimum (maximum) for integers."""
    cdef uint64_t sign = _sign_bit(_width(t))
    cdef FloatFormat f
    if _is_float(t):                                # -inf (+inf); for e4m3 the most negative (positive) value
        f = _format(t)
        return (sign | f.overflow if want_max else f.overflow) if f.has_inf else \
            (sign | f.max_finite if want_max else f.max_finite)
    if _is_signed(t):
        return sign if want_max else sign - 1
    return 0 if want_max else _low_bits(_width(t))


# --- vector compute on one lane (docs/semantics.md "Vector compute"): bits in, bits out ---

cdef enum:
    LANE_ADD = 0
    LANE_SUB = 1
    LANE_MUL = 2
    LANE_DIV = 3
    LANE_MAX = 4
    LANE_MIN = 5
    LANE_ABS = 6
    LANE_NEG = 7
    LANE_EXP = 8
    LANE_SQRT = 9


cdef inline uint64_t _int_divide(int64_t t, uint64_t a, uint64_t b) noexcept nogil:
    """Integer lane division toward zero; x / 0 = all ones; min / -1 = min (wraps)."""
    cdef int64_t width = _width(t)
    cdef int64_t x, y
    if b == 0:
        return _low_bits(width)
    if not _is_signed(t):
        return a / b
    x = _sign_extend(a, width)
    y = _sign_extend(b, width)
    if y == -1:                                     # -x wraps: INT_MIN / -1 = INT_MIN, no C overflow
        return (0 - a) & _low_bits(width)
    return <uint64_t>(x / y) & _low_bits(width)


cdef inline uint64_t _float_lane_op(int lane_op, int64_t t, const FloatFormat* f, uint64_t a, uint64_t b) noexcept nogil:
    cdef double x, y
    if lane_op == LANE_ABS:                         # sign-bit operations: NaN payloads stay
        return a & ~f.sign_bit
    if lane_op == LANE_NEG:
        return a ^ f.sign_bit
    if lane_op == LANE_MAX or lane_op == LANE_MIN:  # on the bits: no value needed
        if _is_nan(a, f) or _is_nan(b, f):
            return f.nan
        if lane_op == LANE_MAX:
            return b if _order_key(b, t) > _order_key(a, t) else a     # -0 below +0
        return b if _order_key(b, t) < _order_key(a, t) else a
    x = _decode(a, f)
    if lane_op == LANE_EXP:
        return _encode_double(exp(x), f)
    if lane_op == LANE_SQRT:
        return _encode_double(sqrt(x), f)
    y = _decode(b, f)
    if lane_op == LANE_ADD:
        return _encode_double(x + y, f)
    if lane_op == LANE_SUB:
        return _encode_double(x - y, f)
    if lane_op == LANE_MUL:
        return _encode_double(x * y, f)
    return _encode_double(x / y, f)                 # LANE_DIV


cdef inline uint64_t _lane_op(int lane_op, int64_t t, const FloatFormat* f, uint64_t a, uint64_t b) noexcept nogil:
    """One lane of a vector compute instruction on the zero-extended bits of T (f: T's format, used
    for float types only; b: the second operand, ignored by unary operations)."""
    cdef int64_t width = _width(t)
    if _is_float(t):
        return _float_lane_op(lane_op, t, f, a, b)
    if lane_op == LANE_ADD:
        return (a + b) & _low_bits(width)
    if lane_op == LANE_SUB:
        return (a - b) & _low_bits(width)
    if lane_op == LANE_MUL:
        return (a * b) & _low_bits(width)
    if lane_op == LANE_DIV:
        return _int_divide(t, a, b)
    if lane_op == LANE_NEG or (lane_op == LANE_ABS and a & _sign_bit(width)):
        return (0 - a) & _low_bits(width)
    if lane_op == LANE_ABS:
        return a
    if lane_op == LANE_MAX:
        return b if _order_key(b, t) > _order_key(a, t) else a
    return b if _order_key(b, t) < _order_key(a, t) else a


cdef inline bint _lane_compare(int64_t op, int64_t t, const FloatFormat* f, uint64_t a, uint64_t b) noexcept nogil:
    """vcmp.CC on one lane: floats compare as values (NaN false except ne, -0 == +0), integers by
    their signedness."""
    cdef double x, y
    if _is_float(t):
        x = _decode(a, f)
        y = _decode(b, f)
        if x != x or y != y:                    # unordered: only ne holds
            return op == OP_VCMP_NE
        return _comparison_holds(op, x < y, x == y)
    return _comparison_holds(op, _order_key(a, t) < _order_key(b, t), a == b)


cdef inline bint _comparison_holds(int64_t op, bint less, bint equal) noexcept nogil:
    """Whether vcmp.CC holds for two ordered values, given whether a < b and a == b."""
    if op == OP_VCMP_EQ:
        return equal
    if op == OP_VCMP_NE:
        return not equal
    if op == OP_VCMP_LT:
        return less
    if op == OP_VCMP_LE:
        return less or equal
    if op == OP_VCMP_GT:
        return not (less or equal)
    return not less                             # OP_VCMP_GE


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
    elif kind is Kind.SVAL or kind is Kind.TVAL:
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


def _stop_flags(flags, n_rows):
    """A private uint8 copy of one stop flag per row (None: none set). The run loop reads it without
    bounds checks, so the length is checked here."""
    rows = np.zeros(n_rows, np.uint8) if flags is None else (np.asarray(flags) != 0).astype(np.uint8)
    if rows.shape != (n_rows,):
        raise ValueError(f"stop flags have shape {rows.shape}, expected ({n_rows},): one per bytecode row")
    return rows


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
    cdef int64_t[:, ::1] dup_warn   # per row: count, earlier lane, later lane, address (duplicate vsct indices)
    cdef int64_t[::1] ub_write_step # per UB byte: the step that last wrote it (hazard tracking)
    cdef int32_t[::1] ub_write_row  # per UB byte: the row that last wrote it
    cdef int64_t[:, ::1] hazard_warn  # per row: count, writer row, first byte, one past the last byte
    cdef bint strict                # --strict: warnings are faults
    cdef int64_t step_number        # the executing instruction's step number (steps + 1)
    cdef int64_t current_row        # the executing instruction's row
    cdef bint hazard_counted        # this step met a hazard: recorded once the instruction completes
    cdef int64_t hazard_case[3]     # its first case: writer row, first byte, one past the last byte
    # An upper bound of ub_write_step over each 32-byte block, so the hazard check can skip blocks not
    # written since the latest membar. Private to the engine: restoring older state (the debugger's
    # reverse execution) only lowers ub_write_step, which keeps the bound valid.
    cdef int64_t block_write_step[UB_BLOCKS]
    cdef int64_t n_rows
    cdef int64_t ub_usable
    cdef int64_t max_steps
    cdef bint zero_inactive         # --store-inactive zero (docs/semantics.md "Stores")
    cdef const uint8_t[::1] stop_before  # per row: run() returns before executing it (set_stop_rows)
    cdef const uint8_t[::1] stop_after   # per row: run() returns after it completes
    cdef readonly int64_t last_row  # the row the latest run() completed last; -1: it completed none
    cdef uint8_t seen[UB_BYTES]     # per UB byte: 1 if this vsct's lanes address it so far; all 0 between instructions

    def __init__(self, const int64_t[:, ::1] code, state, long long ub_usable, long long max_steps,
                 bint zero_inactive=False, bint strict=False):
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
        self.dup_warn = state.dup_warn
        self.ub_write_step = state.ub_write_step
        self.ub_write_row = state.ub_write_row
        self.hazard_warn = state.hazard_warn
        _require_shape("ub", state.ub, (UB_BYTES,))
        _require_shape("vreg", state.vreg, (NUM_VREGS, VL))
        _require_shape("preg", state.preg, (NUM_PREGS, MASK_BYTES))
        _require_shape("preg_set", state.preg_set, (NUM_PREGS,))
        _require_shape("areg", state.areg, (NUM_AREGS,))
        _require_shape("sreg", state.sreg, (NUM_SREGS,))
        _require_shape("ctrl", state.ctrl, (CTRL_SIZE,))
        _require_shape("dup_warn", state.dup_warn, (self.n_rows, DUP_WARN_FIELDS))
        _require_shape("ub_write_step", state.ub_write_step, (UB_BYTES,))
        _require_shape("ub_write_row", state.ub_write_row, (UB_BYTES,))
        _require_shape("hazard_warn", state.hazard_warn, (self.n_rows, HAZARD_WARN_FIELDS))
        if not 0 <= ub_usable <= self.ub.shape[0]:
            raise ValueError(f"ub_usable {ub_usable} outside [0, {self.ub.shape[0]}]")
        self.ub_usable = ub_usable
        self.max_steps = max_steps
        self.zero_inactive = zero_inactive
        self.strict = strict
        memset(self.seen, 0, sizeof(self.seen))
        self.set_stop_rows(None, None)
        self.last_row = -1
        for block, latest in enumerate(np.asarray(state.ub_write_step).reshape(UB_BLOCKS, BLOCK).max(axis=1)):
            self.block_write_step[block] = latest

    def set_stop_rows(self, before, after):
        """Per-row stop flags (docs/bytecode.md "Stop flags"), each None (no flag) or n_rows values:
        `run` returns, the status still running, before executing a row flagged in `before` (except the
        first instruction of the call, so that a run can leave a breakpoint) and right after a row
        flagged in `after` completes. The debugger's breakpoints and watches; `ascasm run` sets none."""
        self.stop_before, self.stop_after = _stop_flags(before, self.n_rows), _stop_flags(after, self.n_rows)

    def run(self, long long budget) -> int:
        """Execute at most `budget` instructions; return the status (ctrl[2]): 0 (running) if the budget
        ran out or a stop flag stopped it."""
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
        cdef int64_t last_row = -1
        while status == STOP_RUNNING and budget > 0:
            budget -= 1
            if pc >= self.n_rows:
                status = STOP_HALTED
                break
            if self.stop_before[pc] and last_row >= 0:
                break           # not on the call's first instruction; and before the step-limit fault
            if steps >= self.max_steps:
                status = self._fault(STOP_STEP_LIMIT, self.max_steps)
                break
            row = &self.code[pc, 0]
            op = row[0]
            next_pc = pc + 1
            self.step_number = steps + 1
            self.current_row = pc
            self.hazard_counted = False
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
                self.ctrl[LAST_MEMBAR] = steps + 1      # ends the hazard window (docs/semantics.md)
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
            elif op == OP_PAND or op == OP_POR or op == OP_PXOR:
                status = self._k_mask_logic(row)
            elif op == OP_PNOT:
                status = self._k_mask_not(row)
            elif op == OP_PMOV:
                status = self._k_mask_move(row)
            elif op == OP_VLD:
                status = self._k_vld_norm(row)
            elif op == OP_VLD_BRC:
                status = self._k_vld_brc(row)
            elif op == OP_VLD_US:
                status = self._k_vld_us(row)
            elif op == OP_VLD_DS:
                status = self._k_vld_ds(row)
            elif op == OP_VLD_UNPK:
                status = self._k_vld_unpk(row)
            elif op == OP_VLD_DINTLV:
                status = self._k_vld_dintlv(row)
            elif op == OP_VLD_MASK:
                status = self._k_mask_load_norm(row)
            elif op == OP_VLD_US_MASK:
                status = self._k_mask_load_us(row)
            elif op == OP_VLD_DS_MASK:
                status = self._k_mask_load_ds(row)
            elif op == OP_VGAT:
                status = self._k_vgat(row)
            elif op == OP_VSTA:
                status = self._k_vsta_norm(row)
            elif op == OP_VSTA_1ST:
                status = self._k_vsta_first(row)
            elif op == OP_VSTA_PACK:
                status = self._k_vsta_pack(row)
            elif op == OP_VSTA_PACKV2:
                status = self._k_vsta_packv2(row)
            elif op == OP_VSTA_INTLV:
                status = self._k_vsta_intlv(row)
            elif op == OP_VSTA_MASK:
                status = self._k_mask_store_norm(row)
            elif op == OP_VSTA_PACK_MASK:
                status = self._k_mask_store_pack(row)
            elif op == OP_VSCT:
                status = self._k_vsct(row, pc)
            elif op == OP_VREDSUM:
                status = self._k_reduce_sum(row)
            elif op == OP_VREDMAX or op == OP_VREDMIN:
                status = self._k_reduce_maxmin(row)
            elif op == OP_VDUP or op == OP_VDUP_MASKED:
                status = self._k_vdup(row)
            elif op == OP_VCI:
                status = self._k_vci(row)
            elif (op == OP_VADD or op == OP_VSUB or op == OP_VMUL or op == OP_VDIV or op == OP_VMAX or op == OP_VMIN
                  or op == OP_VADDS or op == OP_VMULS or op == OP_VMAXS or op == OP_VMINS):
                status = self._k_vbinary(row)
            elif (op == OP_VCMP_EQ or op == OP_VCMP_NE or op == OP_VCMP_LT or op == OP_VCMP_LE
                  or op == OP_VCMP_GT or op == OP_VCMP_GE):
                status = self._k_vcmp(row)
            elif op == OP_VABS or op == OP_VNEG or op == OP_VEXP or op == OP_VSQRT:
                status = self._k_vunary(row)
            elif op == OP_VSEL:
                status = self._k_vsel(row)
            elif op == OP_PCNT:
                status = self._k_pcnt(row)
            if status == STOP_RUNNING or status == STOP_HALTED:
                steps += 1              # a fault does not count its step, nor record a hazard
                last_row = pc
                if self.hazard_counted:
                    self._record_hazard()
            if status == STOP_RUNNING:
                pc = next_pc
                if self.stop_after[last_row]:
                    break
        self.ctrl[PC] = pc
        self.ctrl[STEPS] = steps
        self.ctrl[STATUS] = status
        self.last_row = last_row
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
        """Every byte of [addr, addr + size) in [0, usable) (written so nothing can overflow), then the
        hazard check of those bytes: every access goes through here before anything is written."""
        if addr >= 0 and addr <= self.ub_usable - size:
            return self._check_hazard(addr, size)
        return self._fault(STOP_UB_RANGE, addr, size, self.ub_usable, lane, index)

    cdef inline int _check_hazard(self, int64_t addr, int64_t size) noexcept nogil:
        """Bytes written by an earlier step since the latest membar, touched again (LANGUAGE.md §5):
        a fault under --strict, else counted once per step and the first case kept per row."""
        cdef int64_t last_membar = self.ctrl[LAST_MEMBAR]
        cdef int64_t first = -1, last = -1, k, written, block, end = addr + size
        for block in range(addr // BLOCK, (end - 1) // BLOCK + 1):
            if self.block_write_step[block] <= last_membar:
                continue                    # nothing in this block was written since the membar
            for k in range(max(addr, block * BLOCK), min(end, (block + 1) * BLOCK)):
                written = self.ub_write_step[k]
                if written > last_membar and written != self.step_number:
                    if first < 0:
                        first = k
                    last = k + 1
        if first < 0:
            return STOP_RUNNING
        if self.strict:
            return self._fault(STOP_HAZARD, self.ub_write_row[first], first, last)
        if not self.hazard_counted:
            self.hazard_counted = True
            self.hazard_case[0] = self.ub_write_row[first]
            self.hazard_case[1] = first
            self.hazard_case[2] = last
        return STOP_RUNNING

    cdef inline void _record_hazard(self) noexcept nogil:
        """Count this step's hazard in its row's record (only for an instruction that completed)."""
        cdef int64_t k
        if self.hazard_warn[self.current_row, 0] == 0:
            for k in range(3):
                self.hazard_warn[self.current_row, 1 + k] = self.hazard_case[k]
        self.hazard_warn[self.current_row, 0] += 1

    cdef inline void _written(self, int64_t addr, int64_t size) noexcept nogil:
        """Remember that this step and row wrote the (checked) bytes [addr, addr + size)."""
        cdef int64_t k
        for k in range(addr, addr + size):
            self.ub_write_step[k] = self.step_number
            self.ub_write_row[k] = <int32_t>self.current_row
        for k in range(addr // BLOCK, (addr + size - 1) // BLOCK + 1):
            self.block_write_step[k] = self.step_number

    cdef inline int _check_span(self, int64_t addr, int64_t align, int64_t size) noexcept nogil:
        """Alignment, then range, of one contiguous access."""
        return self._check_align(addr, align) or self._check_range(addr, size, -1, -1)

    cdef inline int _checked_span(self, const int64_t* slot, int64_t align, int64_t size, int64_t* addr) noexcept nogil:
        """Evaluate an [addr] operand into addr, then check alignment and range of its `size` bytes."""
        addr[0] = self._address(slot)
        return self._check_span(addr[0], align, size)

    # --- operand decoding -------------------------------------------------------------------

    cdef inline int64_t _sval(self, const int64_t* slot) noexcept nogil:
        """An X operand: (is_register, register number or immediate)."""
        return self.sreg[slot[1]] if slot[0] else slot[1]

    cdef inline uint64_t _tval(self, const int64_t* slot, int64_t t) noexcept nogil:
        """An X.T operand as T's bits: an immediate already is; a register's low W bits for integers,
        its int64 value rounded once to T for floats."""
        cdef FloatFormat f
        if not slot[0]:
            return <uint64_t>slot[1] & _low_bits(_width(t))
        if _is_float(t):
            f = _format(t)
            return _encode_int(self.sreg[slot[1]], &f)
        return <uint64_t>self.sreg[slot[1]] & _low_bits(_width(t))

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

    cdef inline void _set_mask(self, int64_t p, const uint8_t* bits) noexcept nogil:
        """All 256 bits of mask register p from 32 bytes (which may be p's own), and mark it written."""
        memmove(&self.preg[p, 0], bits, MASK_BYTES)
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
        self._written(addr, width)
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

    # --- mask logic family kernels (all 256 bits; masks read in operand order) -----------------

    # pand|por|pxor pD, pA, pB, pG
    cdef inline int _k_mask_logic(self, const int64_t* row) noexcept nogil:
        cdef int64_t op = row[0]
        cdef int64_t pa = row[4]
        cdef int64_t pb = row[5]
        cdef int64_t pg = row[6]
        cdef uint8_t bits[MASK_BYTES]
        cdef uint8_t a, b
        cdef int64_t k
        cdef int status = self._check_mask(pa) or self._check_mask(pb) or self._check_mask(pg)
        if status:
            return status
        for k in range(MASK_BYTES):
            a = self.preg[pa, k]
            b = self.preg[pb, k]
            bits[k] = (a & b if op == OP_PAND else a | b if op == OP_POR else a ^ b) & self.preg[pg, k]
        self._set_mask(row[3], bits)
        return STOP_RUNNING

    # pnot pD, pS, pG
    cdef inline int _k_mask_not(self, const int64_t* row) noexcept nogil:
        cdef int64_t ps = row[4]
        cdef int64_t pg = row[5]
        cdef uint8_t bits[MASK_BYTES]
        cdef int64_t k
        cdef int status = self._check_mask(ps) or self._check_mask(pg)
        if status:
            return status
        for k in range(MASK_BYTES):
            bits[k] = ~self.preg[ps, k] & self.preg[pg, k]
        self._set_mask(row[3], bits)
        return STOP_RUNNING

    # pmov pD, pS
    cdef inline int _k_mask_move(self, const int64_t* row) noexcept nogil:
        cdef int status = self._check_mask(row[4])
        if status:
            return status
        self._set_mask(row[3], &self.preg[row[4], 0])
        return STOP_RUNNING

    # --- load family kernels (every load checks and reads its whole span) ----------------------

    # vld vD.T, [addr]
    cdef inline int _k_vld_norm(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, VECTOR_ALIGN, VL, &addr)
        if status:
            return status
        memcpy(&self.vreg[row[3], 0], &self.ub[addr], VL)
        return STOP_RUNNING

    # vld.brc vD.T, [addr]
    cdef inline int _k_vld_brc(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, width, width, &addr)
        if status:
            return status
        _pick_elements(&self.vreg[row[3], 0], &self.ub[addr], width, 0, 0, 0)
        return STOP_RUNNING

    # vld.us vD.T, [addr]
    cdef inline int _k_vld_us(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, VECTOR_ALIGN, VL // 2, &addr)
        if status:
            return status
        _pick_elements(&self.vreg[row[3], 0], &self.ub[addr], _width(row[1]), 1, 1, 0)
        return STOP_RUNNING

    # vld.ds vD.T, [addr]
    cdef inline int _k_vld_ds(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, VECTOR_ALIGN, 2 * VL, &addr)
        if status:
            return status
        _pick_elements(&self.vreg[row[3], 0], &self.ub[addr], _width(row[1]), 2, 0, 0)
        return STOP_RUNNING

    # vld.unpk vD.T, [addr]
    cdef inline int _k_vld_unpk(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])     # source element; destination lanes are 2 * width
        cdef uint8_t* dst = &self.vreg[row[3], 0]
        cdef int64_t addr, i
        cdef int status = self._checked_span(row + 4, VECTOR_ALIGN, VL // 2, &addr)
        if status:
            return status
        memset(dst, 0, VL)
        for i in range(VL // (2 * width)):
            _copy_elem(dst + 2 * width * i, &self.ub[addr + width * i], width)
        return STOP_RUNNING

    # vld.dintlv vD0.T, vD1.T, [addr]
    cdef inline int _k_vld_dintlv(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t addr
        cdef int status = self._checked_span(row + 5, VECTOR_ALIGN, 2 * VL, &addr)
        if status:
            return status
        _pick_elements(&self.vreg[row[3], 0], &self.ub[addr], width, 2, 0, 0)
        _pick_elements(&self.vreg[row[4], 0], &self.ub[addr], width, 2, 0, 1)   # last: vD1 wins if vD0 == vD1
        return STOP_RUNNING

    # vld pD, [addr]
    cdef inline int _k_mask_load_norm(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, VECTOR_ALIGN, MASK_BYTES, &addr)
        if status:
            return status
        self._set_mask(row[3], &self.ub[addr])
        return STOP_RUNNING

    # vld.us pD, [addr]
    cdef inline int _k_mask_load_us(self, const int64_t* row) noexcept nogil:
        cdef uint8_t bits[MASK_BYTES]
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, MASK_BYTES // 2, MASK_BYTES // 2, &addr)
        if status:
            return status
        _pick_bits(bits, VL, &self.ub[addr], 1, 1)      # bit j -> bits 2j, 2j+1
        self._set_mask(row[3], bits)
        return STOP_RUNNING

    # vld.ds pD, [addr]
    cdef inline int _k_mask_load_ds(self, const int64_t* row) noexcept nogil:
        cdef uint8_t bits[MASK_BYTES]
        cdef int64_t addr
        cdef int status = self._checked_span(row + 4, VECTOR_ALIGN, 2 * MASK_BYTES, &addr)
        if status:
            return status
        _pick_bits(bits, VL, &self.ub[addr], 2, 0)      # bit 2j -> bit j
        self._set_mask(row[3], bits)
        return STOP_RUNNING

    # --- gather and scatter ---------------------------------------------------------------------

    cdef inline int _indexed_lanes(self, const int64_t* row, const int64_t* base_slot, int64_t vi, int64_t pm,
                                   int64_t* lane_addr, int64_t* dup_lane) noexcept nogil:
        """Shared shape of vgat and vsct (docs/semantics.md "Gather and scatter"): the lane pitch is the
        wider of the data (row[1]) and index (row[2]) widths, the mask is read at that pitch, index i is
        index-lane i, and active lane i addresses base + index * sizeof(data). Checks mask, base alignment,
        then each active lane from 0 up; fills lane_addr[0 : VL/pitch] with the checked addresses, -1
        for inactive lanes.

        With dup_lane (vsct; NULL for vgat), also finds duplicate addresses in O(lanes): each checked
        address is marked in the `seen` byte map, and dup_lane[0] becomes the first lane whose address
        an earlier lane had (it stays -1 if none). On success the caller owns the marks and must clear
        them (seen[lane_addr[i]] = 0 for every active lane); a fault here clears them itself."""
        cdef int64_t width = _width(row[1])
        cdef int64_t index_width = _width(row[2])
        cdef int64_t pitch = width if width > index_width else index_width
        cdef int64_t base = self._address(base_slot)
        cdef const uint8_t* mask = &self.preg[pm, 0]
        cdef const uint8_t* indices = &self.vreg[vi, 0]
        cdef int64_t i, addr
        cdef uint64_t index
        cdef int status = self._check_mask(pm) or self._check_align(base, VECTOR_ALIGN)
        if status:
            return status
        for i in range(VL // pitch):
            lane_addr[i] = -1
            if _bit(mask, i * pitch):
                index = _load_lane(indices + i * index_width, index_width)
                addr = _offset(base, index * <uint64_t>width)
                status = self._check_range(addr, width, i, <int64_t>index)
                if status:
                    if dup_lane != NULL:
                        self._unmark(lane_addr, i)
                    return status
                lane_addr[i] = addr         # in [0, ub_usable): a valid index into `seen` and the UB
                if dup_lane != NULL:
                    if self.seen[addr] and dup_lane[0] < 0:
                        dup_lane[0] = i
                    self.seen[addr] = 1
        return STOP_RUNNING

    cdef inline void _unmark(self, const int64_t* lane_addr, int64_t lanes) noexcept nogil:
        """Clear the `seen` marks of the active lanes below `lanes` (lane_addr: checked addresses or -1)."""
        cdef int64_t i
        for i in range(lanes):
            if lane_addr[i] >= 0:
                self.seen[lane_addr[i]] = 0

    # vgat vD.T, [base], vI.U, pM
    cdef inline int _k_vgat(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t index_width = _width(row[2])
        cdef int64_t pitch = width if width > index_width else index_width
        cdef uint8_t* dst = &self.vreg[row[3], 0]
        cdef int64_t lane_addr[LANES_B16]
        cdef int64_t i
        cdef int status = self._indexed_lanes(row, row + 4, row[8], row[9], lane_addr, NULL)
        if status:
            return status
        memset(dst, 0, VL)                          # inactive lanes 0; b8 data zero-extended
        for i in range(VL // pitch):
            if lane_addr[i] >= 0:
                _copy_elem(dst + i * pitch, &self.ub[lane_addr[i]], width)
        return STOP_RUNNING

    # vsct [base], vS.T, vI.U, pM
    cdef inline int _k_vsct(self, const int64_t* row, int64_t pc) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t index_width = _width(row[2])
        cdef int64_t pitch = width if width > index_width else index_width
        cdef const uint8_t* src = &self.vreg[row[7], 0]
        cdef uint8_t* seen = self.seen
        cdef int64_t lane_addr[LANES_B16]
        cdef int64_t i, addr, later = -1
        cdef int status = self._indexed_lanes(row, row + 3, row[8], row[9], lane_addr, &later)
        if status:
            return status
        if later >= 0:                              # the first case: (first lane with that address, later)
            i = 0
            while i < later and lane_addr[i] != lane_addr[later]:
                i += 1
            if self.strict:
                self._unmark(lane_addr, VL // pitch)
                return self._fault(STOP_DUP_INDEX, i, later, lane_addr[later])
            if self.dup_warn[pc, 0] == 0:
                self.dup_warn[pc, 1] = i
                self.dup_warn[pc, 2] = later
                self.dup_warn[pc, 3] = lane_addr[later]
            self.dup_warn[pc, 0] += 1
        for i in range(VL // pitch):                # lane order: the highest duplicate lane's value remains
            addr = lane_addr[i]
            if addr >= 0:
                _copy_elem(&self.ub[addr], src + i * pitch, width)     # b8: source byte 2i
                self._written(addr, width)
                seen[addr] = 0
        return STOP_RUNNING

    # --- store family kernels -------------------------------------------------------------------

    cdef inline int _store_lane_slots(self, const int64_t* row, int64_t slot) noexcept nogil:
        """NORM/PACK/PACKV2 shape of `[addr], vS.T, pM`: the low `slot` bytes of active lane i go to
        addr + i*slot. Only written slots are touched and checked (lane 0 up); with --store-inactive
        zero, inactive lanes' slots are written with 0, so every slot is."""
        cdef int64_t width = _width(row[1])
        cdef int64_t lanes = VL // width
        cdef int64_t vs = row[7]
        cdef int64_t pm = row[8]
        cdef int64_t addr = self._address(row + 3)
        cdef int64_t i
        cdef int status = self._check_mask(pm) or self._check_align(addr, VECTOR_ALIGN)
        if status:
            return status
        for i in range(lanes):
            if self.zero_inactive or self._mask_bit(pm, i * width):
                status = self._check_range(_offset(addr, i * slot), slot, i, -1)
                if status:
                    return status
        for i in range(lanes):
            if self._mask_bit(pm, i * width):
                _copy_elem(&self.ub[_offset(addr, i * slot)], &self.vreg[vs, i * width], slot)
                self._written(_offset(addr, i * slot), slot)
            elif self.zero_inactive:
                memset(&self.ub[_offset(addr, i * slot)], 0, slot)
                self._written(_offset(addr, i * slot), slot)
        return STOP_RUNNING

    # vsta [addr], vS.T, pM
    cdef inline int _k_vsta_norm(self, const int64_t* row) noexcept nogil:
        return self._store_lane_slots(row, _width(row[1]))

    # vsta.pack [addr], vS.T, pM
    cdef inline int _k_vsta_pack(self, const int64_t* row) noexcept nogil:
        return self._store_lane_slots(row, _width(row[1]) // 2)

    # vsta.packv2 [addr], vS.T, pM
    cdef inline int _k_vsta_packv2(self, const int64_t* row) noexcept nogil:
        return self._store_lane_slots(row, 1)

    # vsta.1st [addr], vS.T
    cdef inline int _k_vsta_first(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t addr
        cdef int status = self._checked_span(row + 3, width, width, &addr)
        if status:
            return status
        _copy_elem(&self.ub[addr], &self.vreg[row[7], 0], width)
        self._written(addr, width)
        return STOP_RUNNING

    # vsta.intlv [addr], vS0.T, vS1.T
    cdef inline int _k_vsta_intlv(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t addr, i
        cdef uint8_t* dst
        cdef int status = self._checked_span(row + 3, VECTOR_ALIGN, 2 * VL, &addr)
        if status:
            return status
        dst = &self.ub[addr]
        for i in range(VL // width):
            _copy_elem(dst + 2 * i * width, &self.vreg[row[7], i * width], width)
            _copy_elem(dst + (2 * i + 1) * width, &self.vreg[row[8], i * width], width)
        self._written(addr, 2 * VL)
        return STOP_RUNNING

    # vsta [addr], pS
    cdef inline int _k_mask_store_norm(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr
        cdef int status = self._check_mask(row[7]) or self._checked_span(row + 3, VECTOR_ALIGN, MASK_BYTES, &addr)
        if status:
            return status
        memcpy(&self.ub[addr], &self.preg[row[7], 0], MASK_BYTES)
        self._written(addr, MASK_BYTES)
        return STOP_RUNNING

    # vsta.pack [addr], pS
    cdef inline int _k_mask_store_pack(self, const int64_t* row) noexcept nogil:
        cdef int64_t addr
        cdef int status = self._check_mask(row[7]) or self._checked_span(row + 3, MASK_BYTES // 2, MASK_BYTES // 2,
                                                                         &addr)
        if status:
            return status
        _pick_bits(&self.ub[addr], VL // 2, &self.preg[row[7], 0], 2, 0)   # bit 2j -> bit j
        self._written(addr, MASK_BYTES // 2)
        return STOP_RUNNING

    # --- reduction family kernels (seed 003; docs/semantics.md "Reductions") -----------------------

    # vredsum vD.T, vS.U, pM
    cdef inline int _k_reduce_sum(self, const int64_t* row) noexcept nogil:
        cdef int64_t t = row[1]
        cdef int64_t u = row[2]
        cdef int64_t source_width = _width(u)
        cdef int64_t lanes = VL // source_width
        cdef int64_t pm = row[5]
        cdef const uint8_t* src = &self.vreg[row[4], 0]
        cdef double level[LANES_B16]                # partials, each a value of T
        cdef FloatFormat f = _format(t)
        cdef int64_t i, n
        cdef uint64_t bits, total = 0
        cdef int status = self._check_mask(pm)
        if status:
            return status
        if _is_float(t):                            # T == U: f16 or f32, a pairwise tree
            for i in range(lanes):
                bits = _load_le(src + i * source_width, source_width) if self._mask_bit(pm, i * source_width) else 0
                level[i] = _decode(bits, &f)
            n = lanes
            while n > 1:                            # (x0+x1), (x2+x3), ... each rounded to T
                n >>= 1
                for i in range(n):
                    total = _encode_double(level[2 * i] + level[2 * i + 1], &f)
                    level[i] = _decode(total, &f)
            total = _encode_double(level[0], &f)   # a NaN becomes the canonical NaN
        else:                                       # integers wrap, so the tree order does not matter
            for i in range(lanes):
                if self._mask_bit(pm, i * source_width):
                    bits = _load_le(src + i * source_width, source_width)
                    total += <uint64_t>_sign_extend(bits, source_width) if _is_signed(u) else bits
        memset(&self.vreg[row[3], 0], 0, VL)
        _store_le(&self.vreg[row[3], 0], total, _width(t))
        return STOP_RUNNING

    # vredmax|vredmin vD.T, vS.T, pM
    cdef inline int _k_reduce_maxmin(self, const int64_t* row) noexcept nogil:
        cdef int64_t t = row[1]
        cdef int64_t width = _width(t)
        cdef int64_t pm = row[5]
        cdef bint want_max = row[0] == OP_VREDMAX
        cdef const uint8_t* src = &self.vreg[row[4], 0]
        cdef uint64_t bits, key, best_key = 0
        cdef uint64_t best = _maxmin_identity(t, want_max)
        cdef FloatFormat f = _format(t)
        cdef int64_t i, best_index = 0
        cdef bint found = False
        cdef int status = self._check_mask(pm)
        if status:
            return status
        for i in range(VL // width):
            if not self._mask_bit(pm, i * width):
                continue
            bits = _load_le(src + i * width, width)
            if _is_float(t) and _is_nan(bits, &f):  # the first active NaN wins with its own bits
                best, best_index = bits, i
                break
            key = _order_key(bits, t)
            # the first active lane, then only a strictly better one (-0 below +0)
            if not found or (key > best_key if want_max else key < best_key):
                best, best_key, best_index, found = bits, key, i, True
        memset(&self.vreg[row[3], 0], 0, VL)
        _store_le(&self.vreg[row[3], 0], best, width)
        _store_le(&self.vreg[row[3], width], <uint64_t>best_index, width)
        return STOP_RUNNING


    # --- vector compute family kernels (facts §8, §2.3; docs/semantics.md "Vector compute") -------

    # vdup vD.T, X.T  and  vdup vD.T, X.T, pM (inactive lanes 0)
    cdef inline int _k_vdup(self, const int64_t* row) noexcept nogil:
        cdef int64_t t = row[1]
        cdef int64_t width = _width(t)
        cdef bint masked = row[0] == OP_VDUP_MASKED
        cdef uint64_t x = self._tval(row + 4, t)
        cdef uint8_t* dst = &self.vreg[row[3], 0]
        cdef int64_t i
        cdef int status = self._check_mask(row[6]) if masked else STOP_RUNNING
        if status:
            return status
        for i in range(VL // width):
            _store_le(dst + i * width, x if not masked or self._mask_bit(row[6], i * width) else 0, width)
        return STOP_RUNNING

    # vci vD.T, X.T
    cdef inline int _k_vci(self, const int64_t* row) noexcept nogil:
        cdef int64_t t = row[1]
        cdef int64_t width = _width(t)
        cdef uint64_t x = self._tval(row + 4, t)
        cdef uint8_t* dst = &self.vreg[row[3], 0]
        cdef FloatFormat f = _format(t)
        cdef int64_t i
        for i in range(VL // width):
            if _is_float(t):
                _store_le(dst + i * width, _encode_double(_decode(x, &f) + <double>i, &f), width)
            else:
                _store_le(dst + i * width, (x + <uint64_t>i) & _low_bits(width), width)
        return STOP_RUNNING

    # vadd|vsub|vmul|vmax|vmin vD.T, vA.T, vB.T, pM  and  vadds|vmuls|vmaxs|vmins vD.T, vA.T, X.T, pM
    cdef inline int _k_vbinary(self, const int64_t* row) noexcept nogil:
        cdef int64_t op = row[0]
        cdef int64_t t = row[1]
        cdef int64_t width = _width(t)
        cdef bint scalar = op == OP_VADDS or op == OP_VMULS or op == OP_VMAXS or op == OP_VMINS
        cdef int64_t pm = row[7] if scalar else row[6]
        cdef int lane_op
        cdef FloatFormat f = _format(t)
        cdef uint64_t x = 0, a, b
        cdef uint8_t result[VL]                 # vD may be vA or vB: compute all lanes first
        cdef const uint8_t* src_a = &self.vreg[row[4], 0]
        cdef const uint8_t* src_b = &self.vreg[row[5], 0]
        cdef int64_t i
        cdef int status = self._check_mask(pm)
        if status:
            return status
        if op == OP_VADD or op == OP_VADDS:
            lane_op = LANE_ADD
        elif op == OP_VSUB:
            lane_op = LANE_SUB
        elif op == OP_VMUL or op == OP_VMULS:
            lane_op = LANE_MUL
        elif op == OP_VDIV:
            lane_op = LANE_DIV
        elif op == OP_VMAX or op == OP_VMAXS:
            lane_op = LANE_MAX
        else:
            lane_op = LANE_MIN
        if scalar:
            x = self._tval(row + 5, t)
        for i in range(VL // width):
            if self._mask_bit(pm, i * width):
                a = _load_lane(src_a + i * width, width)
                b = x if scalar else _load_lane(src_b + i * width, width)
                _store_le(result + i * width, _lane_op(lane_op, t, &f, a, b), width)
            else:
                _store_le(result + i * width, 0, width)
        memcpy(&self.vreg[row[3], 0], result, VL)
        return STOP_RUNNING

    # vcmp.CC pD, vA.T, vB.T, pM
    cdef inline int _k_vcmp(self, const int64_t* row) noexcept nogil:
        cdef int64_t t = row[1]
        cdef int64_t width = _width(t)
        cdef int64_t pm = row[6]
        cdef uint8_t bits[MASK_BYTES]           # pD may be pM: read every lane first
        cdef FloatFormat f = _format(t)
        cdef const uint8_t* src_a = &self.vreg[row[4], 0]
        cdef const uint8_t* src_b = &self.vreg[row[5], 0]
        cdef int64_t i
        cdef int status = self._check_mask(pm)
        if status:
            return status
        memset(bits, 0, MASK_BYTES)
        for i in range(VL // width):
            if self._mask_bit(pm, i * width) and _lane_compare(row[0], t, &f, _load_lane(src_a + i * width, width),
                                                               _load_lane(src_b + i * width, width)):
                bits[(i * width) >> 3] |= <uint8_t>(1 << ((i * width) & 7))
        self._set_mask(row[3], bits)
        return STOP_RUNNING

    # vabs|vneg|vexp|vsqrt vD.T, vA.T, pM
    cdef inline int _k_vunary(self, const int64_t* row) noexcept nogil:
        cdef int64_t op = row[0]
        cdef int64_t t = row[1]
        cdef int64_t width = _width(t)
        cdef int64_t pm = row[5]
        cdef FloatFormat f = _format(t)
        cdef const uint8_t* src = &self.vreg[row[4], 0]
        cdef uint8_t* dst = &self.vreg[row[3], 0]     # lane i reads only lane i: in place is safe
        cdef int lane_op = LANE_ABS if op == OP_VABS else LANE_NEG if op == OP_VNEG else LANE_EXP if op == OP_VEXP \
            else LANE_SQRT
        cdef int64_t i
        cdef int status = self._check_mask(pm)
        if status:
            return status
        for i in range(VL // width):
            if self._mask_bit(pm, i * width):
                _store_le(dst + i * width, _lane_op(lane_op, t, &f, _load_lane(src + i * width, width), 0), width)
            else:
                _store_le(dst + i * width, 0, width)
        return STOP_RUNNING

    # vsel vD.T, vA.T, vB.T, pM
    cdef inline int _k_vsel(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t pm = row[6]
        cdef uint8_t result[VL]
        cdef int64_t i
        cdef int status = self._check_mask(pm)
        if status:
            return status
        for i in range(VL // width):
            _copy_elem(result + i * width, &self.vreg[row[4] if self._mask_bit(pm, i * width) else row[5], i * width],
                       width)
        memcpy(&self.vreg[row[3], 0], result, VL)
        return STOP_RUNNING

    # pcnt sD, pM.bW
    cdef inline int _k_pcnt(self, const int64_t* row) noexcept nogil:
        cdef int64_t width = _width(row[1])
        cdef int64_t i, count = 0
        cdef int status = self._check_mask(row[4])
        if status:
            return status
        for i in range(VL // width):
            count += self._mask_bit(row[4], i * width)
        self.sreg[row[3]] = count
        return STOP_RUNNING


# ---------------------------------------------------------------------------------------------
# Test hook (not used by the engine): the float conversions over whole arrays, for the proofs
# ---------------------------------------------------------------------------------------------

def _test_codec(int64_t t, const uint64_t[::1] bits, const double[::1] values, const int64_t[::1] ints):
    """For float type t: (the exact values of `bits`, `values` rounded once to t, `ints` rounded once
    to t), as numpy arrays (float64, uint64 bits, uint64 bits)."""
    if t not in (T_F16, T_BF16, T_F32, T_E4M3, T_E5M2):
        raise ValueError(f"type code {t} is not a float type the engine computes on")
    cdef FloatFormat f = _format(t)
    decoded = np.empty(bits.shape[0], np.float64)
    from_values = np.empty(values.shape[0], np.uint64)
    from_ints = np.empty(ints.shape[0], np.uint64)
    cdef double[::1] decoded_view = decoded
    cdef uint64_t[::1] from_values_view = from_values
    cdef uint64_t[::1] from_ints_view = from_ints
    cdef Py_ssize_t i
    with nogil:
        for i in range(bits.shape[0]):
            decoded_view[i] = _decode(bits[i], &f)
        for i in range(values.shape[0]):
            from_values_view[i] = _encode_double(values[i], &f)
        for i in range(ints.shape[0]):
            from_ints_view[i] = _encode_int(ints[i], &f)
    return decoded, from_values, from_ints
