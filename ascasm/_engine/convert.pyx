"""Conversions, HiFloat8 and the CTRL register that selects their saturation (docs/semantics.md
"Conversions", "HiFloat8", "The CTRL register").
"""
include "engine.pxi"


cdef enum RoundingMode:
    MODE_RINT, MODE_AWAY, MODE_FLOOR, MODE_CEIL, MODE_TRUNC, MODE_ODD, MODE_HYBRID


ctypedef fused ModeTag:                             # the sub-operation tags of vcvt and vtrc rows
    Op_exact
    Op_rint
    Op_round
    Op_floor
    Op_ceil
    Op_trunc
    Op_odd
    Op_hybrid


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
    elif ModeTag is Op_hybrid:
        return MODE_HYBRID
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
        q, inexact = 0, magnitude != 0
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


cdef enum:
    E8M0_NAN = 0xFF
    E8M0_LARGEST = 0xFE             # 2^127


cdef struct Numeric:            # how a lane's bits encode a number, from the row's type code
    bint is_float
    bint signed
    bint hif8                   # HiFloat8 (kernels_hif8.pxi): a float, but not of FloatFormat's kind
    bint nibble                 # a value of a 4-bit pair type (s4x2, e2m1x2, e1m2x2): the low 4 bits
    bint e8m0                   # 2^(bits - 127), 0xFF NaN: a float without sign, mantissa or FloatFormat
    int64_t width               # bytes
    FloatFormat f               # floats only


cdef inline FloatFormat fp4_format(int64_t mantissa_bits) noexcept nogil:
    """e2m1 (1 mantissa bit) or e1m2 (2): exponent bias 1, no inf or NaN (every conversion to them
    saturates, so overflow and nan are never asked for)."""
    cdef FloatFormat f
    f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan, f.has_inf = mantissa_bits, 1, 0x8, 0x7, \
        0x7, 0, False
    return f


cdef inline Numeric numeric_of(int32_t code) noexcept nogil:
    cdef Numeric n
    n.is_float, n.signed, n.hif8, n.nibble, n.e8m0 = True, True, False, False, False
    if code == T_HIF8:
        n.width, n.hif8 = 1, True
    elif code == T_E8M0:
        n.width, n.e8m0 = 1, True
    elif code == T_E2M1X2 or code == T_E1M2X2:
        n.width, n.nibble, n.f = 1, True, fp4_format(1 if code == T_E2M1X2 else 2)
    elif code == T_S4X2:
        n.width, n.nibble, n.is_float = 1, True, False
    elif code == T_F16:
        n.width, n.f = 2, float_format(<F16*>NULL)
    elif code == T_BF16:
        n.width, n.f = 2, float_format(<BF16*>NULL)
    elif code == T_F32:
        n.width, n.f = 4, float_format(<float*>NULL)
    elif code == T_E4M3:
        n.width, n.f = 1, float_format(<E4M3*>NULL)
    elif code == T_E5M2:
        n.width, n.f = 1, float_format(<E5M2*>NULL)
    else:                                           # the integer types
        n.is_float = False
        n.signed = code == T_S8 or code == T_S16 or code == T_S32 or code == T_S64
        n.width = 1 if code <= T_U8 else 2 if code <= T_U16 else 4 if code <= T_U32 else 8
    return n


cdef enum NumberClass:
    FINITE, INFINITE, NOT_A_NUMBER


cdef struct ExactValue:             # a lane's value: (-1)^negative * magnitude * 2^exponent, or inf / NaN
    NumberClass kind
    bint negative
    uint64_t magnitude
    int64_t exponent


cdef inline ExactValue number_of(uint64_t bits, const Numeric* n) noexcept nogil:
    """The exact value of a lane's bits."""
    cdef ExactValue x
    cdef uint64_t magnitude
    cdef int64_t field, m, value_bits
    x.kind, x.exponent = FINITE, 0
    if n.hif8:
        return hif8_number(bits)
    if n.e8m0:
        x.negative, x.magnitude, x.exponent = False, 1, <int64_t>bits - 127
        if bits == E8M0_NAN:
            x.kind = NOT_A_NUMBER
        return x
    if not n.is_float:
        value_bits = 4 if n.nibble else 8 * n.width
        x.negative = n.signed and (bits >> (value_bits - 1)) & 1
        x.magnitude = ((0 - bits) & (0xF if n.nibble else low_bits(n.width))) if x.negative else bits
        return x
    m = n.f.mantissa_bits
    x.negative = (bits & n.f.sign_bit) != 0
    magnitude = bits & (n.f.sign_bit - 1)
    field = <int64_t>(magnitude >> m)
    if magnitude > n.f.max_finite:
        x.kind = INFINITE if magnitude == n.f.overflow and n.f.has_inf else NOT_A_NUMBER
    elif field == 0:                                # subnormal (or zero): units of 2^(1 - bias - m)
        x.magnitude, x.exponent = magnitude, 1 - n.f.bias - m
    else:
        x.magnitude, x.exponent = (magnitude & ((ONE << m) - 1)) | (ONE << m), field - n.f.bias - m
    return x


cdef inline uint64_t integer_bits(const ExactValue* x, const Numeric* n, RoundingMode mode, bint sat) noexcept nogil:
    """A number rounded to an integer by `mode`, then into an integer lane: beyond the range it
    saturates (sat) or keeps the low bits; NaN gives 0 and +-inf the type's max / min either way."""
    cdef uint64_t top = low_bits(n.width) >> 1 if n.signed else low_bits(n.width)   # the largest value
    cdef uint64_t least = (top + 1) & low_bits(n.width) if n.signed else 0           # the smallest's bits
    cdef uint64_t r
    cdef bint huge = False                          # the integer needs more than 64 bits
    if x.kind == NOT_A_NUMBER:
        return 0
    if x.kind == INFINITE:
        return least if x.negative else top
    if x.exponent >= 0:
        huge = x.magnitude != 0 and (x.exponent >= 64 or (x.magnitude >> (63 - x.exponent)) > 1)
        r = 0 if x.exponent >= 64 else x.magnitude << x.exponent
    else:
        r = rounded_shift(x.magnitude, -x.exponent, x.negative, mode)
    if sat:
        if x.negative and (r != 0 or huge):
            return 0 if not n.signed else least if huge or r > top + 1 else (0 - r) & low_bits(n.width)
        return top if huge or r > top else r
    return ((0 - r) if x.negative else r) & low_bits(n.width)


cdef inline uint64_t int4_bits(const ExactValue* x, RoundingMode mode, bint sat) noexcept nogil:
    """A number into a 4-bit two's-complement value, as `integer_bits` into any integer: rounded, then
    its low 4 bits or (sat) -8..7; NaN 0, +-inf -8 / 7."""
    cdef Numeric s16 = numeric_of(T_S16)
    cdef int64_t r
    if x.kind == INFINITE:
        return 0x8 if x.negative else 0x7
    r = <int16_t>integer_bits(x, &s16, mode, sat)   # the low 16 bits keep the low 4; saturated, beyond -8..7
    if sat:
        r = -8 if r < -8 else 7 if r > 7 else r
    return <uint64_t>r & 0xF


cdef inline uint64_t e8m0_bits(const ExactValue* x) noexcept nogil:
    """A number into e8m0: its exponent, |x| rounded down to a power of two (bf16 and e8m0 share the
    exponent field), within 2^-127 .. 2^127; +-inf 2^127, NaN NaN (Reg::Cast)."""
    cdef int64_t field
    if x.kind == NOT_A_NUMBER:
        return E8M0_NAN
    if x.kind == INFINITE:
        return E8M0_LARGEST
    if x.magnitude == 0:
        return 0
    field = top_bit(x.magnitude) + x.exponent + 127
    return 0 if field < 0 else E8M0_LARGEST if field > E8M0_LARGEST else <uint64_t>field


cdef inline uint64_t convert_bits(uint64_t bits, const Numeric* ns, const Numeric* nd, RoundingMode mode,
                                  bint sat, bint keep_nan) noexcept nogil:
    """Lane bits of type ns converted to type nd (rounding_mode.md). To a float: NaN gives nd's
    canonical NaN, or +0 with sat (unless keep_nan: CTRL[50]); +-inf gives +-inf (e4m3: NaN), or +-max
    with sat."""
    cdef ExactValue x = number_of(bits, ns)
    if nd.hif8:                                     # its rounding reads the source's lowest bit
        return hif8_bits(&x, bits, 14 if ns.width == 4 else 2, mode, sat)
    if nd.e8m0:
        return e8m0_bits(&x)
    if not nd.is_float:
        return int4_bits(&x, mode, sat) if nd.nibble else integer_bits(&x, nd, mode, sat)
    if x.kind == NOT_A_NUMBER:
        return 0 if sat and not keep_nan else nd.f.nan
    if x.kind == INFINITE:
        return ((nd.f.sign_bit if x.negative else 0) | nd.f.max_finite) if sat \
            else overflowed(nd.f.sign_bit if x.negative else 0, &nd.f)
    return round_into(x.negative, x.magnitude, x.exponent, mode, sat, &nd.f)


# vcvt[.MODE] vD.T, vS.U, pM[, sat][, PART]  -- the mask governs the source lanes (read at U's width);
# narrowing: source lane i -> destination lane ratio*i + part; widening: destination lane i <- source
# lane ratio*i + part; every other destination lane 0 (a 4-bit pair type moves pairs of b16 lanes:
# convert_nibble_pairs). Specialised by the widths and the mode; the types' encodings come from the
# row's type codes. An integer widening saturates always (Reg::Cast: a negative int16 gives uint32 0), a
# conversion to fp4 too (it has no inf or NaN).
cdef inline int k_vcvt(Machine* m, const Ins* ins, const Args_vcvt* a, vcvt_TW* t, vcvt_UW* u, vcvt_sub* op) noexcept nogil:
    cdef uint8_t source[VL]                         # a copy: vD may be vS
    cdef const vcvt_UW* src = <const vcvt_UW*>source
    cdef vcvt_TW* dst = <vcvt_TW*>vreg(m, a.vD)
    cdef Numeric ns = numeric_of(ins.u)
    cdef Numeric nd = numeric_of(ins.t)
    cdef RoundingMode mode = rounding_mode(<vcvt_sub*>NULL)
    cdef bint sat = conversion_saturates(m, a.sat != 0, &ns, &nd) \
        or (not ns.is_float and not nd.is_float and nd.width > ns.width) or (nd.nibble and nd.is_float)
    cdef bint keep_nan = sat and saturation_keeps_nan(m, ins.t)
    cdef int64_t narrow = sizeof(vcvt_TW) if sizeof(vcvt_TW) < sizeof(vcvt_UW) else sizeof(vcvt_UW)
    cdef int64_t ratio = (sizeof(vcvt_TW) + sizeof(vcvt_UW) - narrow) // narrow
    cdef int64_t part = <int64_t>(<uint64_t>a.part % <uint64_t>ratio)   # the assembler checks it; a bad row stays inside vD
    cdef int64_t i, j
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memcpy(source, vreg(m, a.vS), VL)
    memset(dst, 0, VL)
    if (sizeof(vcvt_TW) == 1 and sizeof(vcvt_UW) == 2 and nd.nibble) or \
            (sizeof(vcvt_TW) == 2 and sizeof(vcvt_UW) == 1 and ns.nibble):
        convert_nibble_pairs(m, a, source, <uint8_t*>dst, &ns, &nd, mode, sat, <int64_t>(<uint64_t>a.part % 4))
    elif sizeof(vcvt_TW) < sizeof(vcvt_UW):
        for i in range(VL // sizeof(vcvt_UW)):
            if active(m, a.pM, i, sizeof(vcvt_UW)):
                dst[ratio * i + part] = <vcvt_TW>convert_bits(src[i], &ns, &nd, mode, sat, keep_nan)
    else:
        for i in range(VL // sizeof(vcvt_TW)):
            j = ratio * i + part
            if active(m, a.pM, j, sizeof(vcvt_UW)):
                dst[i] = <vcvt_TW>convert_bits(src[j], &ns, &nd, mode, sat, keep_nan)
    return STOP_RUNNING


cdef inline void convert_nibble_pairs(Machine* m, const Args_vcvt* a, const uint8_t* source, uint8_t* dst,
                                      const Numeric* ns, const Numeric* nd, RoundingMode mode, bint sat,
                                      int64_t part) noexcept nogil:
    """A vcvt with a 4-bit pair type on one side (dst zeroed already). Narrowing: b16 lanes 2p and
    2p + 1 -> the low and high half of byte 4p + part, the pair active when lane 2p is (Reg::Cast: the
    even mask bits count); widening: byte 4p + part, active by its own b8 mask bit -> lanes 2p and
    2p + 1."""
    cdef const uint16_t* wide_source = <const uint16_t*>source
    cdef uint16_t* wide_dst = <uint16_t*>dst
    cdef uint8_t pair
    cdef int64_t p
    for p in range(VL // 4):
        if nd.nibble:
            if active(m, a.pM, 2 * p, 2):
                dst[4 * p + part] = <uint8_t>(convert_bits(wide_source[2 * p], ns, nd, mode, sat, False)
                                              | convert_bits(wide_source[2 * p + 1], ns, nd, mode, sat, False) << 4)
        elif active(m, a.pM, 4 * p + part, 1):
            pair = source[4 * p + part]
            wide_dst[2 * p] = <uint16_t>convert_bits(pair & 0xF, ns, nd, mode, sat, False)
            wide_dst[2 * p + 1] = <uint16_t>convert_bits(pair >> 4, ns, nd, mode, sat, False)


# vexpsub vD.f32, vA.U, vB.U, pM[, PART]  -- lane i = e^(vA[j] - vB[j]) with j = ratio*i + part, where source
# lane j is active (the mask read at U's width), else 0: the difference rounded to f32 (float arithmetic),
# libm exp in double rounded once to f32
cdef inline int k_vexpsub(Machine* m, const Ins* ins, const Args_vexpsub* a, vexpsub_U* u) noexcept nogil:
    cdef uint8_t first[VL]                          # copies: vD may be a source
    cdef uint8_t second[VL]
    cdef const vexpsub_U* x = <const vexpsub_U*>first
    cdef const vexpsub_U* y = <const vexpsub_U*>second
    cdef float* dst = <float*>vreg(m, a.vD)
    cdef int64_t ratio = 4 // sizeof(vexpsub_U)
    cdef int64_t part = <int64_t>(<uint64_t>a.part % <uint64_t>ratio)   # the assembler checks it
    cdef float difference
    cdef int64_t i, j
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memcpy(first, vreg(m, a.vA), VL)
    memcpy(second, vreg(m, a.vB), VL)
    for i in range(VL // 4):
        j = ratio * i + part
        if active(m, a.pM, j, sizeof(vexpsub_U)):
            difference = <float>lane_value(x[j]) - <float>lane_value(y[j])
            dst[i] = lane_of_double(exp(difference), <float*>NULL)
        else:
            dst[i] = 0
    return STOP_RUNNING


# vmulscvt vD.f16, vA.f32, X.f32, pM[, PART]  -- active lane i: vA * X rounded to f32, converted as vcvt.round
# (CTRL's saturation included) -> lane 2i + part of vD; every other lane 0
cdef inline int k_vmulscvt(Machine* m, const Ins* ins, const Args_vmulscvt* a, vmulscvt_sub* op) noexcept nogil:
    cdef uint8_t copy[VL]                           # a copy: vD may be vA
    cdef const float* source = <const float*>copy
    cdef float scalar = tval(&a.x, <float*>NULL)
    cdef uint16_t* dst = <uint16_t*>vreg(m, a.vD)
    cdef Numeric ns = numeric_of(ins.u)
    cdef Numeric nd = numeric_of(ins.t)
    cdef RoundingMode mode = rounding_mode(<vmulscvt_sub*>NULL)
    cdef bint sat = conversion_saturates(m, False, &ns, &nd)
    cdef int64_t part = <int64_t>(<uint64_t>a.part % 2)
    cdef float product
    cdef uint32_t bits
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memcpy(copy, vreg(m, a.vA), VL)
    memset(dst, 0, VL)
    for i in range(VL // 4):
        if active(m, a.pM, i, 4):
            product = canonical_f32(source[i] * scalar)
            memcpy(&bits, &product, 4)
            dst[2 * i + part] = <uint16_t>convert_bits(bits, &ns, &nd, mode, sat, False)
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


# HiFloat8
cdef enum:
    HIF8_NAN = 0x80
    HIF8_INF = 0x6F
    HIF8_LARGEST = 0x6E             # 2^15: saturation's result for overflow and inf


cdef inline ExactValue hif8_number(uint64_t bits) noexcept nogil:
    """The exact value of a hif8 byte: magnitude * 2^exponent, or inf / NaN."""
    cdef ExactValue x
    cdef uint64_t rest = bits & 0x7F
    cdef int64_t size, width
    cdef bint below                 # the exponent's sign bit
    x.kind, x.negative, x.magnitude, x.exponent = FINITE, (bits & 0x80) != 0, 0, 0
    if rest == 0:
        if x.negative:
            x.kind = NOT_A_NUMBER
        return x
    if rest == HIF8_INF:
        x.kind = INFINITE
        return x
    if rest < 0x08:                 # denormal: a power of two
        x.magnitude, x.exponent = 1, <int64_t>rest - 23
        return x
    if rest < 0x10:
        size, width, below = 0, 3, False
    elif rest < 0x20:
        size, width, below = 1, 3, (rest & 0x08) != 0
    elif rest < 0x40:
        size, width, below = 2 + <int64_t>((rest >> 3) & 1), 3, (rest & 0x10) != 0
    elif rest < 0x60:
        size, width, below = 4 + <int64_t>((rest >> 2) & 3), 2, (rest & 0x10) != 0
    else:
        size, width, below = 8 + <int64_t>((rest >> 1) & 7), 1, (rest & 0x10) != 0
    x.magnitude = (ONE << width) | (rest & ((ONE << width) - 1))
    x.exponent = (-size if below else size) - width
    return x


cdef inline int64_t hif8_kept_bits(int64_t exponent) noexcept nogil:
    """Mantissa bits hif8 keeps for values in [2^exponent, 2^(exponent+1)); -1 for [2^-23, 2^-22),
    whose neighbours are 0 and 2^-22."""
    cdef int64_t size = exponent if exponent >= 0 else -exponent
    if exponent < -15:
        return 0 if exponent >= -22 else -1
    return 3 if size <= 3 else 2 if size <= 7 else 1


cdef inline uint64_t hif8_code(int64_t exponent, uint64_t mantissa) noexcept nogil:
    """The low 7 bits of 2^exponent * 1.mantissa, exponent in [-22, 15]."""
    cdef int64_t size = exponent if exponent >= 0 else -exponent
    cdef uint64_t below = 1 if exponent < 0 else 0
    if exponent < -15:
        return <uint64_t>(exponent + 23)
    if size == 0:
        return 0x08 | mantissa
    if size == 1:
        return 0x10 | below << 3 | mantissa
    if size <= 3:
        return 0x20 | below << 4 | <uint64_t>(size - 2) << 3 | mantissa
    if size <= 7:
        return 0x40 | below << 4 | <uint64_t>(size - 4) << 2 | mantissa
    return 0x60 | below << 4 | <uint64_t>(size - 8) << 1 | mantissa


cdef inline uint64_t hif8_bits(const ExactValue* x, uint64_t source_bits, int64_t fraction_bits, RoundingMode mode,
                               bint sat) noexcept nogil:
    """A value rounded into hif8 (asc_half2hif8, asc_float2hif8): MODE_AWAY is ties away from zero;
    MODE_HYBRID is that where 3 mantissa bits are kept (|E| <= 3), elsewhere up iff the fraction_bits
    bits below the last kept one (2 from a half, 14 from a float), as a number, reach {the source's
    lowest fraction_bits - 1 bits, 1}. Overflow and inf give inf (sat: +-2^15), NaN gives NaN (sat: 0);
    hif8 has one zero, so a value rounding to zero gives 0x00 whatever its sign."""
    cdef uint64_t sign = HIF8_NAN if x.negative else 0
    cdef uint64_t overflow = sign | (HIF8_LARGEST if sat else HIF8_INF)
    cdef int64_t top, kept, drop, lead
    cdef uint64_t units, rest, threshold, mantissa
    cdef bint up
    if x.kind == NOT_A_NUMBER:
        return 0 if sat else HIF8_NAN
    if x.kind == INFINITE:
        return overflow
    if x.magnitude == 0:
        return 0
    top = top_bit(x.magnitude) + x.exponent         # the value is in [2^top, 2^(top+1))
    if top > 15:
        return overflow
    if top < -23:                                   # below half of the smallest value 2^-22
        return 0
    kept = hif8_kept_bits(top)
    drop = top_bit(x.magnitude) - kept              # bits of the magnitude below the last kept one
    if drop <= 0:                                   # exact
        units, rest = x.magnitude << (-drop), 0
    else:
        units, rest = x.magnitude >> drop, x.magnitude & ((ONE << drop) - 1)
    if mode == MODE_HYBRID and (top > 3 or top < -3) and drop > 0:
        threshold = ((source_bits & ((ONE << (fraction_bits - 1)) - 1)) << 1) | 1
        up = (rest >> (drop - fraction_bits) if drop >= fraction_bits else rest << (fraction_bits - drop)) \
            >= threshold
    else:
        up = drop > 0 and rest >= (ONE << (drop - 1))
    units += up
    if units == 0:
        return 0
    lead = top_bit(units)                           # a carry leaves a power of two
    top, mantissa = top - kept + lead, units - (ONE << lead)
    if top > 15 or (top == 15 and mantissa != 0):   # 1.5 * 2^15 is inf's code
        return overflow
    return sign | hif8_code(top, mantissa)


# The CTRL special register
from libc.math cimport ldexp

from ascasm.state import (CTRL_FLOAT_NO_SAT as _CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT as _CTRL_GLOBAL_SAT,
                          CTRL_INT_NO_SAT as _CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN as _CTRL_SAT_KEEPS_NAN)

assert (CTRL_GLOBAL_SAT, CTRL_FLOAT_NO_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN) == \
    (_CTRL_GLOBAL_SAT, _CTRL_FLOAT_NO_SAT, _CTRL_INT_NO_SAT, _CTRL_SAT_KEEPS_NAN)


cdef inline double largest_value(const Numeric* n) noexcept nogil:
    """The largest finite value of a lane type (exact in double but for 64-bit integers)."""
    cdef ExactValue x
    if n.hif8:
        return 32768.0
    if n.e8m0:
        return ldexp(1.0, 127)
    if not n.is_float:
        return 7.0 if n.nibble else <double>(low_bits(n.width) >> 1 if n.signed else low_bits(n.width))
    x = number_of(n.f.max_finite, n)
    return ldexp(<double>x.magnitude, <int>x.exponent)


cdef inline bint conversion_saturates(Machine* m, bint keyword, const Numeric* ns, const Numeric* nd) noexcept nogil:
    """Whether a conversion saturates: its `sat` keyword, unless CTRL makes the mode global. The global
    mode governs the pairs whose page has _sat forms, which are exactly those that can overflow (the
    destination's largest value is below the source's; tests/test_ctrl.py checks this on the table)."""
    if not ctrl_bit(m, CTRL_GLOBAL_SAT) or largest_value(nd) >= largest_value(ns):
        return keyword
    return not ctrl_bit(m, CTRL_FLOAT_NO_SAT if nd.is_float else CTRL_INT_NO_SAT)


cdef inline bint saturation_keeps_nan(Machine* m, int32_t destination) noexcept nogil:
    return (destination == T_E4M3 or destination == T_E5M2) and ctrl_bit(m, CTRL_SAT_KEEPS_NAN)


# sprset.ctrl X  -- CTRL = X, all 64 bits
cdef inline int k_spr_set_ctrl(Machine* m, const Ins* ins, const Args_spr_set_ctrl* a) noexcept nogil:
    m.ctrlreg[0] = <uint64_t>sval(&a.x)
    return STOP_RUNNING


include "dispatch_convert.pxi"      # generated: this module's kernels in the KERNELS table
