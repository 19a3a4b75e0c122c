# Conversions (issue 12; c-api-reg/data_type_convert, docs/semantics.md "Conversions"), included by core.pyx.
#
# A source lane is split into sign, integer magnitude and exponent straight from its bits (exact, no
# double), then rounded once into the destination format by the row's rounding mode. The mode is a
# compile-time tag (the family's "sub" axis), so each specialised kernel has one rounding rule.

cdef enum RoundingMode:
    MODE_RINT, MODE_AWAY, MODE_FLOOR, MODE_CEIL, MODE_TRUNC, MODE_ODD


ctypedef fused ModeTag:                             # the sub-operation tags of vcvt and vtrc rows
    Op_exact
    Op_rint
    Op_round
    Op_floor
    Op_ceil
    Op_trunc
    Op_odd


cdef inline RoundingMode rounding_mode(ModeTag* tag) noexcept nogil:
    if ModeTag is Op_round:
        return MODE_AWAY
    elif ModeTag is Op_floor:
        return MODE_FLOOR
    elif ModeTag is Op_ceil:
        return MODE_CEIL
    elif ModeTag is Op_trunc:
        return MODE_TRUNC
    elif ModeTag is Op_odd:
        return MODE_ODD
    else:                                           # rint, and the exact widenings (nothing to round)
        return MODE_RINT


cdef inline uint64_t beyond_range(bint negative, RoundingMode mode, bint sat, const FloatFormat* f) noexcept nogil:
    """A finite value too large for the format: +-max when saturating or when the mode rounds toward
    zero in its direction (IEEE 754), else +-inf (for e4m3, without inf, its NaN)."""
    cdef uint64_t sign = f.sign_bit if negative else 0
    cdef bint to_inf = mode == MODE_RINT or mode == MODE_AWAY or (mode == MODE_CEIL and not negative) \
        or (mode == MODE_FLOOR and negative)
    if sat or not to_inf:
        return sign | f.max_finite
    return overflowed(sign, f)


cdef inline uint64_t rounded_shift(uint64_t magnitude, int64_t shift, bint negative, RoundingMode mode) noexcept nogil:
    """magnitude / 2^shift (shift > 0) rounded to an integer by `mode`; the sign only steers floor
    and ceil. Round-to-odd truncates and sets the last bit when anything was lost."""
    cdef uint64_t q, rest, half
    cdef bint inexact, above, tie, up
    if shift >= 64:                                 # below one unit: q = 0
        q, inexact = 0, True
        above = shift == 64 and magnitude > (ONE << 63)
        tie = shift == 64 and magnitude == (ONE << 63)
    else:
        q = magnitude >> shift
        rest = magnitude & ((ONE << shift) - 1)
        half = ONE << (shift - 1)
        inexact, above, tie = rest != 0, rest > half, rest == half
    if mode == MODE_RINT:
        up = above or (tie and (q & 1))
    elif mode == MODE_AWAY:
        up = above or tie
    elif mode == MODE_FLOOR:
        up = inexact and negative
    elif mode == MODE_CEIL:
        up = inexact and not negative
    elif mode == MODE_ODD:
        return q | inexact
    else:
        up = False
    return q + up


cdef inline uint64_t round_into(bint negative, uint64_t magnitude, int64_t exponent, RoundingMode mode, bint sat,
                                const FloatFormat* f) noexcept nogil:
    """magnitude * 2^exponent (negated if `negative`) rounded once into the format by `mode`,
    subnormals kept. As `encode` (lanes.pxi), with the rounding rule and the overflow result chosen."""
    cdef uint64_t sign = f.sign_bit if negative else 0
    cdef int64_t m = f.mantissa_bits
    cdef int64_t top, quantum, shift
    cdef uint64_t q
    if magnitude == 0:
        return sign
    top = top_bit(magnitude) + exponent
    if top + f.bias > <int64_t>(f.max_finite >> m):
        return beyond_range(negative, mode, sat, f)
    quantum = (top if top > 1 - f.bias else 1 - f.bias) - m
    shift = quantum - exponent
    q = magnitude << (-shift) if shift <= 0 else rounded_shift(magnitude, shift, negative, mode)
    # q counts units of 2^quantum: in [2^m, 2^(m+1)] for normal results (a carry from rounding up
    # adds into the exponent field), below 2^m for subnormal ones (field 0)
    q = ((<uint64_t>(quantum + m + f.bias)) << m) + q - (ONE << m)
    if q > f.max_finite:
        return beyond_range(negative, mode, sat, f)
    return sign | q


cdef inline uint64_t integral_bits(uint64_t bits, const FloatFormat* f, RoundingMode mode) noexcept nogil:
    """A float rounded to an integral value of its own format by `mode` (asc_rint ... asc_trunc):
    NaN gives the canonical NaN, +-inf and +-0 stay, a value rounding to zero keeps its sign."""
    cdef bint negative = (bits & f.sign_bit) != 0
    cdef uint64_t magnitude = bits & (f.sign_bit - 1)
    cdef int64_t field = <int64_t>(magnitude >> f.mantissa_bits)
    cdef uint64_t significand = (magnitude & ((ONE << f.mantissa_bits) - 1)) | ((ONE << f.mantissa_bits) if field else 0)
    cdef int64_t exponent = (field if field else 1) - f.bias - f.mantissa_bits
    if magnitude > f.max_finite:
        return bits if magnitude == f.overflow and f.has_inf else f.nan
    if exponent >= 0 or magnitude == 0:             # already an integer
        return bits
    return round_into(negative, rounded_shift(significand, -exponent, negative, mode), 0, MODE_RINT, False, f)


cdef inline uint64_t convert_bits(uint64_t bits, const FloatFormat* fs, const FloatFormat* fd, RoundingMode mode,
                                  bint sat) noexcept nogil:
    """Float bits of format fs converted to format fd (rounding_mode.md): NaN gives fd's canonical NaN,
    or +0 with sat; +-inf gives +-inf (e4m3: NaN), or +-max with sat."""
    cdef bint negative = (bits & fs.sign_bit) != 0
    cdef uint64_t magnitude = bits & (fs.sign_bit - 1)
    cdef uint64_t fraction = magnitude & ((ONE << fs.mantissa_bits) - 1)
    cdef int64_t field = <int64_t>(magnitude >> fs.mantissa_bits)
    if magnitude > fs.max_finite:
        if magnitude == fs.overflow and fs.has_inf:
            return ((fd.sign_bit if negative else 0) | fd.max_finite) if sat \
                else overflowed(fd.sign_bit if negative else 0, fd)
        return 0 if sat else fd.nan
    if field == 0:                                  # subnormal (or zero): fraction units of 2^(1 - bias - m)
        return round_into(negative, fraction, 1 - fs.bias - fs.mantissa_bits, mode, sat, fd)
    return round_into(negative, fraction | (ONE << fs.mantissa_bits), field - fs.bias - fs.mantissa_bits, mode, sat, fd)


# vcvt[.MODE] vD.T, vS.U, pM[, sat][, PART]  -- the mask governs the source lanes (read at U's width);
# narrowing: source lane i -> destination lane ratio*i + part; widening: destination lane i <- source
# lane ratio*i + part; every other destination lane 0
cdef inline int k_vcvt(Machine* m, const Ins* ins, const Args_vcvt* a, vcvt_T* t, vcvt_U* u, vcvt_sub* op) noexcept nogil:
    cdef uint8_t source[VL]                         # a copy: vD may be vS
    cdef const vcvt_U* src = <const vcvt_U*>source
    cdef vcvt_T* dst = <vcvt_T*>vreg(m, a.vD)
    cdef FloatFormat fs = float_format(<vcvt_U*>NULL)
    cdef FloatFormat fd = float_format(<vcvt_T*>NULL)
    cdef RoundingMode mode = rounding_mode(<vcvt_sub*>NULL)
    cdef bint sat = a.sat != 0
    cdef int64_t narrow = sizeof(vcvt_T) if sizeof(vcvt_T) < sizeof(vcvt_U) else sizeof(vcvt_U)
    cdef int64_t ratio = (sizeof(vcvt_T) + sizeof(vcvt_U) - narrow) // narrow
    cdef int64_t part = <int64_t>(<uint64_t>a.part % <uint64_t>ratio)   # the assembler checks it; a bad row stays inside vD
    cdef int64_t i, j
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memcpy(source, vreg(m, a.vS), VL)
    memset(dst, 0, VL)
    if sizeof(vcvt_T) < sizeof(vcvt_U):
        for i in range(VL // sizeof(vcvt_U)):
            if active(m, a.pM, i, sizeof(vcvt_U)):
                dst[ratio * i + part] = lane_of_bits(convert_bits(lane_bits(src[i]), &fs, &fd, mode, sat), <vcvt_T*>NULL)
    else:
        for i in range(VL // sizeof(vcvt_T)):
            j = ratio * i + part
            if active(m, a.pM, j, sizeof(vcvt_U)):
                dst[i] = lane_of_bits(convert_bits(lane_bits(src[j]), &fs, &fd, mode, sat), <vcvt_T*>NULL)
    return STOP_RUNNING


# vtrc.MODE vD.T, vS.T, pM  -- each active lane rounded to an integral value of T; inactive lanes 0
cdef inline int k_vtrc(Machine* m, const Ins* ins, const Args_vtrc* a, vtrc_T* t, vtrc_sub* op) noexcept nogil:
    cdef const vtrc_T* src = <const vtrc_T*>vreg(m, a.vS)
    cdef vtrc_T* dst = <vtrc_T*>vreg(m, a.vD)
    cdef FloatFormat f = float_format(<vtrc_T*>NULL)
    cdef RoundingMode mode = rounding_mode(<vtrc_sub*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vtrc_T)):           # lane i reads only lane i: vD may be vS
        if active(m, a.pM, i, sizeof(vtrc_T)):
            dst[i] = lane_of_bits(integral_bits(lane_bits(src[i]), &f, mode), <vtrc_T*>NULL)
        else:
            dst[i] = lane_of_bits(0, <vtrc_T*>NULL)
    return STOP_RUNNING
