# Lane arithmetic (docs/semantics.md "Vector compute"): lanes in, lane out, and the saturation mode of
# compute. Included after engine.pxi by the kernel modules that compute on lanes (arith, rearrange,
# control), not by the others: Cython specialises each of these helpers for all 13 lane types in every
# module that includes them, used or not (docs/performance.md "Build").


cdef inline bint compute_saturates(Machine* m, Lane* tag) noexcept nogil:
    """Whether a compute instruction's results of this lane type take the saturation mode: global mode
    (CTRL[60]) and CTRL[48] = 0 for f16, CTRL[59] = 0 for s16/s32; never for other types. A kernel
    reads it once and passes it to lane_saturated / lane_clamped."""
    if Lane is F16:
        return ctrl_bit(m, CTRL_GLOBAL_SAT) and not ctrl_bit(m, CTRL_FLOAT_NO_SAT)
    elif Lane is int16_t or Lane is int32_t:
        return ctrl_bit(m, CTRL_GLOBAL_SAT) and not ctrl_bit(m, CTRL_INT_NO_SAT)
    else:
        return False


cdef inline Lane lane_saturated(Lane x, bint saturating) noexcept nogil:
    """A computed lane in the saturation mode (compute_saturates): an f16 +-inf becomes +-max, a NaN +0;
    other lane types (and saturating False) unchanged."""
    cdef FloatFormat f
    if Lane is F16:
        if saturating:
            f = float_format(<Lane*>NULL)
            if lane_is_nan(x):
                return lane_of_bits(0, <Lane*>NULL)
            if x.bits & ~f.sign_bit == f.overflow:
                return lane_of_bits((x.bits & f.sign_bit) | f.max_finite, <Lane*>NULL)
    return x


cdef inline Lane lane_clamped(Lane a, Lane b, bint is_add, bint is_sub) noexcept nogil:
    """a + b, a - b (is_sub) or a * b of signed 16/32-bit lanes, exact in int64 and clamped to the
    type's range: integer add, sub and mul in the saturation mode (others: unused)."""
    cdef int64_t exact, top
    if Lane is int16_t or Lane is int32_t:
        exact = <int64_t>a + b if is_add else (<int64_t>a - b if is_sub else <int64_t>a * b)
        top = (<int64_t>1 << (8 * sizeof(Lane) - 1)) - 1
        return <Lane>(top if exact > top else (-top - 1 if exact < -top - 1 else exact))
    else:
        return a


cdef inline Lane lane_add(Lane a, Lane b) noexcept nogil:
    if Lane is float:
        return canonical_f32(a + b)
    elif Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return lane_of_double(lane_value(a) + lane_value(b), <Lane*>NULL)
    else:
        return <Lane>(<uint64_t>a + <uint64_t>b)


cdef inline Lane lane_sub(Lane a, Lane b) noexcept nogil:
    if Lane is float:
        return canonical_f32(a - b)
    elif Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return lane_of_double(lane_value(a) - lane_value(b), <Lane*>NULL)
    else:
        return <Lane>(<uint64_t>a - <uint64_t>b)


cdef inline Lane lane_mul(Lane a, Lane b) noexcept nogil:
    if Lane is float:
        return canonical_f32(a * b)
    elif Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return lane_of_double(lane_value(a) * lane_value(b), <Lane*>NULL)
    else:
        return <Lane>(<uint64_t>a * <uint64_t>b)


cdef inline Lane lane_div(Lane a, Lane b) noexcept nogil:
    """Floats: x/0 = +-inf, 0/0 = NaN. Integers: toward zero, x/0 = all ones, min/-1 = min."""
    if Lane is float:
        return canonical_f32(a / b)
    elif Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return lane_of_double(lane_value(a) / lane_value(b), <Lane*>NULL)
    else:
        if b == 0:
            return <Lane>(-1)
        if (Lane is int8_t or Lane is int16_t or Lane is int32_t or Lane is int64_t) and b == <Lane>(-1):
            return <Lane>(0 - <uint64_t>a)          # wraps: min / -1 = min, no C overflow
        return a // b                               # cdivision: toward zero


cdef inline Lane lane_ftz(Lane x) noexcept nogil:
    """A subnormal float lane flushed to the zero of its sign (the pages' default for div, exp, sqrt);
    integers and other values unchanged."""
    cdef FloatFormat f
    cdef uint64_t bits
    if Lane is float:                           # in 32 bits, so that a lane loop vectorises 4 lanes wide
        return float_of_bits(bits_of_float(x) & 0x80000000U) if bits_of_float(x) & 0x7F800000U == 0 else x
    elif Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        f = float_format(<Lane*>NULL)
        bits = lane_bits(x)
        if (bits & (f.sign_bit - 1)) >> f.mantissa_bits == 0:       # exponent field 0: zero or subnormal
            return lane_of_bits(bits & f.sign_bit, <Lane*>NULL)
    return x


cdef inline uint64_t lane_key(Lane x) noexcept nogil:
    """An unsigned key ordered as the lane values are: floats (not NaN) in IEEE total order, so -0 sorts
    just below +0; signed integers offset by the sign."""
    cdef uint64_t bits = lane_bits(x)
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return (~bits & low_bits(sizeof(Lane))) if bits & sign else bits | sign
    elif Lane is int8_t or Lane is int16_t or Lane is int32_t or Lane is int64_t:
        return bits ^ sign
    else:
        return bits


cdef inline Lane lane_extreme(Lane a, Lane b, bint want_max) noexcept nogil:
    """max(a, b) or min(a, b): a NaN on either side gives the canonical NaN; -0 is below +0."""
    cdef FloatFormat f
    cdef uint32_t a_bits, b_bits, a_key, b_key
    cdef bint nan
    if Lane is float:                           # 32-bit keys and no branch: a lane loop vectorises
        a_bits, b_bits = bits_of_float(a), bits_of_float(b)
        nan = ((a_bits & 0x7FFFFFFFU) > 0x7F800000U) | ((b_bits & 0x7FFFFFFFU) > 0x7F800000U)
        a_key = ~a_bits if a_bits & 0x80000000U else a_bits | 0x80000000U
        b_key = ~b_bits if b_bits & 0x80000000U else b_bits | 0x80000000U
        a = b if (b_key > a_key if want_max else b_key < a_key) else a
        return float_of_bits(<uint32_t>float_format(<Lane*>NULL).nan) if nan else a
    elif Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        if lane_is_nan(a) or lane_is_nan(b):
            f = float_format(<Lane*>NULL)
            return lane_of_bits(f.nan, <Lane*>NULL)
        return b if (lane_key(b) > lane_key(a) if want_max else lane_key(b) < lane_key(a)) else a
    else:
        return b if (b > a if want_max else b < a) else a


cdef inline Lane lane_abs(Lane a) noexcept nogil:
    """Integers wrap (|min| = min); floats clear the sign bit (a NaN keeps its bits)."""
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_bits(lane_bits(a) & ~sign, <Lane*>NULL)
    else:
        return <Lane>(0 - <uint64_t>a) if a < 0 else a


cdef inline Lane lane_neg(Lane a) noexcept nogil:
    """Integers wrap (-min = min); floats flip the sign bit (a NaN keeps its bits)."""
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_bits(lane_bits(a) ^ sign, <Lane*>NULL)
    else:
        return <Lane>(0 - <uint64_t>a)


cdef inline Lane lane_exp(Lane a) noexcept nogil:
    """libm exp in double, rounded once (floats only)."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_double(exp(lane_value(a)), <Lane*>NULL)
    else:
        return a


cdef inline Lane lane_ln(Lane a) noexcept nogil:
    """libm log in double, rounded once (floats only): ln(+-0) = -inf, a negative gives NaN."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_double(log(lane_value(a)), <Lane*>NULL)
    else:
        return a


cdef inline Lane lane_sqrt(Lane a) noexcept nogil:
    """Correctly rounded (floats only): negative -> canonical NaN, sqrt(-0) = -0."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_double(sqrt(lane_value(a)), <Lane*>NULL)
    else:
        return a
