# Lane values of every computed type, specialised at compile time (included by every engine module through engine.pxi).
#
# A lane is a value of its lane type (ascasm/isa/families.py LANE_TYPES): C integers, float for f32,
# and for f16, bf16, e4m3 and e5m2 a struct holding the bits (C has no such types). Float lanes are
# widened to double exactly, computed on in double and rounded once back: for + - * / sqrt of p-bit
# inputs the double result rounds innocuously (53 >= 2p + 2), so the result is correctly rounded
# (docs/semantics.md "Floating point"). f32 uses the native float operations, which round the same way.

ctypedef fused Lane:
    int8_t
    uint8_t
    int16_t
    uint16_t
    int32_t
    uint32_t
    int64_t
    uint64_t
    float
    F16
    BF16
    E4M3
    E5M2

cdef extern from *:
    const uint64_t ONE "1ULL"                       # 64-bit shifts need a 64-bit one (a C constant)


cdef struct FloatFormat:
    int64_t mantissa_bits
    int64_t bias
    uint64_t sign_bit
    uint64_t max_finite     # bits of the largest finite value
    uint64_t overflow       # bits of +inf; for e4m3, which has no inf, its only NaN
    uint64_t nan            # the hardware NaN (ascasm/floats.py CANONICAL_NAN_BITS)
    bint has_inf


cdef inline FloatFormat float_format(Lane* tag) noexcept nogil:
    """The layout of a float lane type (constants once specialised)."""
    cdef FloatFormat f
    if Lane is F16:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 10, 15, 0x8000, 0x7BFF, 0x7C00, 0x7FFF
    elif Lane is BF16:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 7, 127, 0x8000, 0x7F7F, 0x7F80, 0x7FFF
    elif Lane is E4M3:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 3, 7, 0x80, 0x7E, 0x7F, 0x7F
    elif Lane is E5M2:
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 2, 15, 0x80, 0x7B, 0x7C, 0x7F
    else:                                           # float (f32); integers never ask
        f.mantissa_bits, f.bias, f.sign_bit, f.max_finite, f.overflow, f.nan = 23, 127, 0x80000000, 0x7F7FFFFF, \
            0x7F800000, 0x7FFFFFFF
    f.has_inf = not Lane is E4M3
    return f


cdef inline uint64_t low_bits(int64_t width) noexcept nogil:
    """All ones in the low `width` bytes."""
    return 0xFFFFFFFFFFFFFFFFULL if width >= 8 else (ONE << (8 * width)) - 1


cdef inline float float_of_bits(uint32_t bits) noexcept nogil:
    cdef float f
    memcpy(&f, &bits, 4)
    return f


cdef inline uint32_t bits_of_float(float f) noexcept nogil:
    cdef uint32_t bits
    memcpy(&bits, &f, 4)
    return bits


cdef inline uint64_t lane_bits(Lane x) noexcept nogil:
    """The lane's bits, zero-extended."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return x.bits
    elif Lane is float:
        return bits_of_float(x)
    else:
        return (<uint64_t>x) & low_bits(sizeof(Lane))


cdef inline Lane lane_of_bits(uint64_t bits, Lane* tag) noexcept nogil:
    """The lane whose bits are the low bits of `bits`."""
    cdef Lane x
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        x.bits = bits
    elif Lane is float:
        x = float_of_bits(<uint32_t>bits)
    else:
        x = <Lane>bits
    return x


cdef inline bint lane_is_nan(Lane x) noexcept nogil:
    cdef FloatFormat f
    cdef uint64_t magnitude
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        f = float_format(<Lane*>NULL)
        magnitude = lane_bits(x) & (f.sign_bit - 1)
        return magnitude > f.max_finite and (magnitude != f.overflow or not f.has_inf)
    else:
        return False


cdef inline double pow2(int64_t e) noexcept nogil:
    """2^e for -1022 <= e <= 1023, built from its bits (exact, no libm call)."""
    cdef uint64_t bits = (<uint64_t>(e + 1023)) << 52
    cdef double value
    memcpy(&value, &bits, 8)
    return value


cdef inline double decode_bits(uint64_t bits, const FloatFormat* f) noexcept nogil:
    """The exact value of float bits (any NaN for a NaN: every use of a NaN value canonicalises)."""
    cdef uint64_t magnitude = bits & (f.sign_bit - 1)
    cdef int64_t m = f.mantissa_bits
    cdef int64_t field = <int64_t>(magnitude >> m)
    cdef double value
    if m == 23:
        return float_of_bits(<uint32_t>bits)
    if magnitude > f.max_finite:
        value = INFINITY if magnitude == f.overflow and f.has_inf else NAN
    elif field == 0:                                # subnormal: mantissa units of 2^(1 - bias - m)
        value = <double>magnitude * pow2(1 - f.bias - m)
    else:
        value = <double>((magnitude & ((ONE << m) - 1)) | (ONE << m)) * pow2(field - f.bias - m)
    return -value if bits & f.sign_bit else value


cdef inline uint64_t overflowed(uint64_t sign, const FloatFormat* f) noexcept nogil:
    """A result beyond the largest finite value: +-inf, or for e4m3 a NaN, made canonical."""
    return (sign | f.overflow) if f.has_inf else f.nan


cdef extern from *:
    int __builtin_clzll(unsigned long long v) nogil      # GCC and Clang: leading zero bits of v > 0
    int __builtin_ctzll(unsigned long long v) nogil      # trailing zero bits of v > 0
    int __builtin_popcountll(unsigned long long v) nogil


cdef inline int64_t top_bit(uint64_t v) noexcept nogil:
    """Position of the highest set bit of v > 0."""
    return 63 - __builtin_clzll(v)


cdef inline uint64_t encode(bint negative, uint64_t magnitude, int64_t exponent, const FloatFormat* f) noexcept nogil:
    """magnitude * 2^exponent (negated if `negative`) rounded once to nearest, ties to even, subnormals
    kept, overflow to inf (to the canonical NaN for e4m3). The result's last mantissa bit weighs
    2^quantum; q counts those."""
    cdef uint64_t sign = f.sign_bit if negative else 0
    cdef int64_t m = f.mantissa_bits
    cdef int64_t top, quantum, shift
    cdef uint64_t q, rest, half
    if magnitude == 0:
        return sign
    top = top_bit(magnitude) + exponent             # magnitude * 2^exponent is in [2^top, 2^(top+1))
    if top + f.bias > <int64_t>(f.max_finite >> m): # at least twice the largest finite value
        return overflowed(sign, f)
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
        return overflowed(sign, f)
    return sign | q


cdef inline uint64_t encode_double(double value, const FloatFormat* f) noexcept nogil:
    """A double rounded once to the float format; NaN becomes the canonical NaN."""
    cdef uint64_t bits, field, fraction
    if value != value:
        return f.nan
    if f.mantissa_bits == 23:                       # f32: the C conversion rounds to nearest even
        return bits_of_float(<float>value)
    memcpy(&bits, &value, 8)
    field = (bits >> 52) & 0x7FF
    fraction = bits & ((ONE << 52) - 1)
    if field == 0x7FF:                              # +-inf (NaN handled above)
        return overflowed(f.sign_bit if bits >> 63 else 0, f)
    if field == 0:
        return encode(bits >> 63, fraction, -1074, f)
    return encode(bits >> 63, fraction | (ONE << 52), <int64_t>field - 1075, f)


cdef inline uint64_t encode_int(int64_t value, const FloatFormat* f) noexcept nogil:
    """An integer rounded once to the float format (exact for every int64, no detour via double)."""
    return encode(value < 0, (0 - <uint64_t>value) if value < 0 else <uint64_t>value, 0, f)


# ---- lane arithmetic (docs/semantics.md "Vector compute"): lanes in, lane out ----

cdef inline double lane_value(Lane x) noexcept nogil:
    """The exact value of a float lane (integers: as a double, exact below 2^53)."""
    cdef FloatFormat f
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        f = float_format(<Lane*>NULL)
        return decode_bits(x.bits, &f)
    else:
        return <double>x


cdef inline Lane lane_of_double(double value, Lane* tag) noexcept nogil:
    """A double rounded once to a float lane; NaN becomes the canonical NaN."""
    cdef FloatFormat f = float_format(<Lane*>NULL)
    return lane_of_bits(encode_double(value, &f), <Lane*>NULL)


cdef inline Lane lane_of_int(int64_t value, Lane* tag) noexcept nogil:
    """An X.T register operand: integers keep the low bits, floats round the int64 once to T."""
    cdef FloatFormat f
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        f = float_format(<Lane*>NULL)
        return lane_of_bits(encode_int(value, &f), <Lane*>NULL)
    else:
        return <Lane>value


cdef inline float canonical_f32(float r) noexcept nogil:
    """A native float result with every NaN made the hardware NaN 0x7FFFFFFF."""
    return r if r == r else float_of_bits(0x7FFFFFFF)
