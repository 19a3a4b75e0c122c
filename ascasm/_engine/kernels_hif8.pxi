# HiFloat8 (issue 12; docs/semantics.md "HiFloat8"), included by core.pyx after kernels_convert.pxi,
# whose convert_bits calls these for a conversion with hif8 on one side.
#
# A byte s|rest: the prefix code at the top of `rest` (the dot field) gives the exponent's width;
# the exponent is sign-magnitude with its leading magnitude bit implicit:
#   0000 mmm: 2^(m - 23) (m = 0: zero, NaN when s = 1)    0001 mmm: E = 0, 3 mantissa bits
#   001e mmm: E = +-1, 3 bits       01ea mmm: E = +-(2 + a), 3 bits
#   10ea amm: E = +-(4 + aa), 2 bits    11ea aam: E = +-(8 + aaa), 1 bit;   0x6F/0xEF: +-inf

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


cdef inline uint64_t hif8_bits(const ExactValue* x, uint64_t source_bits, RoundingMode mode, bint sat) noexcept nogil:
    """A value rounded into hif8 (asc_half2hif8): MODE_AWAY is ties away from zero; MODE_HYBRID is
    that where 3 mantissa bits are kept (|E| <= 3), elsewhere up iff the two bits below the last kept
    one, as a number, reach {the source's lowest bit, 1}. Overflow and inf give inf (sat: +-2^15), NaN
    gives NaN (sat: 0); hif8 has one zero, so a value rounding to zero gives 0x00 whatever its sign."""
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
        threshold = ((source_bits & 1) << 1) | 1
        up = (rest >> (drop - 2) if drop >= 2 else rest << 1) >= threshold
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
