# Compute families of issue 13 (included by core.pyx): compares with a scalar, bitwise not, shifts
# (c-api-reg compare_and_select, logic_compute; docs/semantics.md "Vector compute"). Element-wise kernels
# read lane i of their sources before writing lane i of the destination, so a destination may be a source.

# vcmps.CC pD, vA.T, X.T, pM  -- vcmp against X in every lane
cdef inline int k_vcmp_x(Machine* m, const Ins* ins, const Args_vcmp_x* a, vcmp_x_T* t, vcmp_x_sub* op) noexcept nogil:
    cdef const vcmp_x_T* x = <const vcmp_x_T*>vreg(m, a.vA)
    cdef vcmp_x_T y = tval(&a.x, <vcmp_x_T*>NULL)
    cdef uint8_t verdicts[VL]
    cdef int64_t i
    for i in range(VL // sizeof(vcmp_x_T)):
        set_verdict(verdicts, i, compare(x[i], y, vcmp_x_sub is Op_eq, vcmp_x_sub is Op_ne, vcmp_x_sub is Op_lt,
                                         vcmp_x_sub is Op_le, vcmp_x_sub is Op_gt), sizeof(vcmp_x_T))
    return verdicts_into_mask(m, a.pD, a.pM, verdicts, sizeof(vcmp_x_T))


# vnot vD.T, vA.T, pM  -- ~vA on the lanes' bits (floats too); inactive lanes 0
cdef inline int k_vnot(Machine* m, const Ins* ins, const Args_vnot* a, vnot_TW* t) noexcept nogil:
    cdef const vnot_TW* x = <const vnot_TW*>vreg(m, a.vA)
    cdef vnot_TW* dst = <vnot_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vnot_TW)):
        dst[i] = ~x[i] if active(m, a.pM, i, sizeof(vnot_TW)) else 0
    return STOP_RUNNING


cdef inline Lane lane_shift(Lane x, int64_t amount, bint left) noexcept nogil:
    """x shifted by `amount` bits: unsigned logical; signed left keeps the sign bit and shifts the bits below
    it, signed right is arithmetic; an amount outside [0, W) shifts every bit out."""
    cdef int64_t width = 8 * sizeof(Lane)
    cdef uint64_t bits = lane_bits(x)
    cdef uint64_t sign = ONE << (width - 1)
    cdef bint out_of_range = amount < 0 or amount >= width
    if (Lane is int8_t or Lane is int16_t or Lane is int32_t) and not left:
        return <Lane>(x >> (width - 1 if out_of_range else amount))    # arithmetic on a signed C type
    if out_of_range:
        return <Lane>0
    if (Lane is int8_t or Lane is int16_t or Lane is int32_t) and left:
        return lane_of_bits((bits & sign) | ((bits << amount) & (sign - 1)), <Lane*>NULL)
    return lane_of_bits(bits << amount if left else bits >> amount, <Lane*>NULL)


cdef inline int64_t signed_lane(const uint8_t* lanes, int64_t width, int64_t i) noexcept nogil:
    """Lane i of a register read as a signed integer of `width` bytes (1, 2 or 4)."""
    if width == 1:
        return (<const int8_t*>lanes)[i]
    if width == 2:
        return (<const int16_t*>lanes)[i]
    return (<const int32_t*>lanes)[i]


# vshl|vshr vD.T, vA.T, vB.U, pM  -- lane i shifted by vB[i] (U: T's width, signed); inactive lanes 0
cdef inline int k_vshift(Machine* m, const Ins* ins, const Args_vshift* a, vshift_T* t, vshift_sub* op) noexcept nogil:
    cdef const vshift_T* x = <const vshift_T*>vreg(m, a.vA)
    cdef const uint8_t* amounts = vreg(m, a.vB)
    cdef vshift_T* dst = <vshift_T*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vshift_T)):
        if active(m, a.pM, i, sizeof(vshift_T)):
            dst[i] = lane_shift(x[i], signed_lane(amounts, sizeof(vshift_T), i), vshift_sub is Op_shl)
        else:
            dst[i] = 0
    return STOP_RUNNING


# vshls|vshrs vD.T, vA.T, X, pM  -- every lane shifted by X's low 16 bits, signed (the page's int16_t)
cdef inline int k_vshift_x(Machine* m, const Ins* ins, const Args_vshift_x* a, vshift_x_T* t,
                           vshift_x_sub* op) noexcept nogil:
    cdef const vshift_x_T* x = <const vshift_x_T*>vreg(m, a.vA)
    cdef vshift_x_T* dst = <vshift_x_T*>vreg(m, a.vD)
    cdef int64_t amount = <int16_t>sval(&a.x)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vshift_x_T)):
        if active(m, a.pM, i, sizeof(vshift_x_T)):
            dst[i] = lane_shift(x[i], amount, vshift_x_sub is Op_shl)
        else:
            dst[i] = 0
    return STOP_RUNNING


# vmov vD.T, vA.T, pM  -- active lanes of vD = vA's bits; inactive lanes keep vD (merging)
cdef inline int k_vmov(Machine* m, const Ins* ins, const Args_vmov* a, vmov_TW* t) noexcept nogil:
    cdef const vmov_TW* x = <const vmov_TW*>vreg(m, a.vA)
    cdef vmov_TW* dst = <vmov_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vmov_TW)):
        if active(m, a.pM, i, sizeof(vmov_TW)):
            dst[i] = x[i]
    return STOP_RUNNING


cdef inline double sum_rounded_to_odd(double p, double z) noexcept nogil:
    """p + z rounded to odd at 53 bits: the nearest double, moved to its odd neighbour toward the exact sum
    when inexact and even (TwoSum gives the exact error). A double rounded to odd rounds on to any type of
    at most 51 bits as the exact sum does."""
    cdef double s = p + z
    cdef double b = s - p
    cdef double error = (p - (s - b)) + (z - b)
    cdef uint64_t bits
    memcpy(&bits, &s, 8)
    if error != 0 and s - s == 0 and (bits & 1) == 0:      # inexact, finite, even
        s = nextafter(s, INFINITY if error > 0 else -INFINITY)
    return s


cdef inline Lane lane_fma(Lane x, Lane y, Lane z) noexcept nogil:
    """x * y + z rounded once (f16, f32): the product is exact in double (at most 48 bits)."""
    return lane_of_double(sum_rounded_to_odd(lane_value(x) * lane_value(y), lane_value(z)), <Lane*>NULL)


# vmadd vD.T, vA.T, vB.T, pM  -- vD = vD * vA + vB, rounded once; inactive lanes 0
cdef inline int k_vfma(Machine* m, const Ins* ins, const Args_vfma* a, vfma_T* t) noexcept nogil:
    cdef const vfma_T* x = <const vfma_T*>vreg(m, a.vA)
    cdef const vfma_T* y = <const vfma_T*>vreg(m, a.vB)
    cdef vfma_T* dst = <vfma_T*>vreg(m, a.vD)
    cdef vfma_T zero = lane_of_bits(0, <vfma_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vfma_T)):
        dst[i] = lane_fma(dst[i], x[i], y[i]) if active(m, a.pM, i, sizeof(vfma_T)) else zero
    return STOP_RUNNING


# vaxpy vD.T, vA.T, X.T, pM  -- vD = vA * X + vD, rounded once; inactive lanes 0
cdef inline int k_vfma_x(Machine* m, const Ins* ins, const Args_vfma_x* a, vfma_x_T* t) noexcept nogil:
    cdef const vfma_x_T* x = <const vfma_x_T*>vreg(m, a.vA)
    cdef vfma_x_T y = tval(&a.x, <vfma_x_T*>NULL)
    cdef vfma_x_T* dst = <vfma_x_T*>vreg(m, a.vD)
    cdef vfma_x_T zero = lane_of_bits(0, <vfma_x_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vfma_x_T)):
        dst[i] = lane_fma(x[i], y, dst[i]) if active(m, a.pM, i, sizeof(vfma_x_T)) else zero
    return STOP_RUNNING


# vintlv vD0.T, vD1.T, vA.T, vB.T  -- A0 B0 A1 B1 ...: the low halves -> vD0, the high halves -> vD1
cdef inline int k_vintlv(Machine* m, const Ins* ins, const Args_vintlv* a, vintlv_TW* t) noexcept nogil:
    cdef const vintlv_TW* x = <const vintlv_TW*>vreg(m, a.vA)
    cdef const vintlv_TW* y = <const vintlv_TW*>vreg(m, a.vB)
    cdef vintlv_TW out[2 * VL]                  # the destinations may be sources: build both first
    cdef int64_t i
    for i in range(VL // sizeof(vintlv_TW)):
        out[2 * i] = x[i]
        out[2 * i + 1] = y[i]
    memcpy(vreg(m, a.vD0), out, VL)
    memcpy(vreg(m, a.vD1), (<uint8_t*>out) + VL, VL)     # vD1 last
    return STOP_RUNNING


# vdintlv vD0.T, vD1.T, vA.T, vB.T  -- the elements of vA then vB: even ones -> vD0, odd ones -> vD1
cdef inline int k_vdintlv(Machine* m, const Ins* ins, const Args_vdintlv* a, vdintlv_TW* t) noexcept nogil:
    cdef const vdintlv_TW* x = <const vdintlv_TW*>vreg(m, a.vA)
    cdef const vdintlv_TW* y = <const vdintlv_TW*>vreg(m, a.vB)
    cdef int64_t n = VL // sizeof(vdintlv_TW)
    cdef vdintlv_TW even[VL]
    cdef vdintlv_TW odd[VL]
    cdef int64_t i
    for i in range(n // 2):
        even[i], odd[i] = x[2 * i], x[2 * i + 1]
        even[n // 2 + i], odd[n // 2 + i] = y[2 * i], y[2 * i + 1]
    memcpy(vreg(m, a.vD0), even, VL)
    memcpy(vreg(m, a.vD1), odd, VL)             # vD1 last
    return STOP_RUNNING


# vunpack.lo|hi vD.T, vA.U  -- the low (high) half of vA's elements, widened to T (C's conversion:
# sign-extended from a signed U, zero-extended from an unsigned one)
cdef inline int k_vunpack(Machine* m, const Ins* ins, const Args_vunpack* a, vunpack_T* t, vunpack_U* u,
                          vunpack_sub* op) noexcept nogil:
    cdef const vunpack_U* src = <const vunpack_U*>vreg(m, a.vA)
    cdef int64_t n = VL // sizeof(vunpack_T)
    cdef int64_t start = n if vunpack_sub is Op_hi else 0
    cdef vunpack_T out[LANES_B16]               # vD may be vA
    cdef int64_t i
    for i in range(n):
        out[i] = <vunpack_T>src[start + i]
    memcpy(vreg(m, a.vD), out, VL)
    return STOP_RUNNING


# vredsum.blk vD.T, vS.U, pM  -- lane k of vD = the pairwise sum of 32-byte block k's active lanes
cdef inline int k_reduce_sum_block(Machine* m, const Ins* ins, const Args_reduce_sum_block* a,
                                   reduce_sum_block_U* u) noexcept nogil:
    cdef const reduce_sum_block_U* src = <const reduce_sum_block_U*>vreg(m, a.vS)
    cdef int64_t per_block = 32 // sizeof(reduce_sum_block_U)
    cdef uint8_t out[VL]                        # vD may be vS
    cdef float single[8]
    cdef double level[16]
    cdef FloatFormat f
    cdef uint64_t total
    cdef int64_t k, i, n, lane
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memset(out, 0, VL)
    for k in range(VL // 32):
        total = 0
        n = per_block
        if reduce_sum_block_U is float:
            for i in range(per_block):
                lane = k * per_block + i
                single[i] = src[lane] if active(m, a.pM, lane, 4) else 0.0
            while n > 1:                        # (x0+x1), (x2+x3), ... each rounded to f32
                n >>= 1
                for i in range(n):
                    single[i] = single[2 * i] + single[2 * i + 1]
            total = bits_of_float(canonical_f32(single[0]))
        elif reduce_sum_block_U is F16:
            f = float_format(<F16*>NULL)
            for i in range(per_block):
                lane = k * per_block + i
                level[i] = lane_value(src[lane]) if active(m, a.pM, lane, 2) else 0.0
            while n > 1:                        # each partial rounded to f16
                n >>= 1
                for i in range(n):
                    level[i] = decode_bits(encode_double(level[2 * i] + level[2 * i + 1], &f), &f)
            total = encode_double(level[0], &f)
        elif reduce_sum_block_U is int16_t or reduce_sum_block_U is int32_t:
            for i in range(per_block):          # integers wrap: the tree order does not matter
                lane = k * per_block + i
                if active(m, a.pM, lane, sizeof(reduce_sum_block_U)):
                    total += <uint64_t><int64_t>src[lane]       # sign-extended
        else:
            for i in range(per_block):
                lane = k * per_block + i
                if active(m, a.pM, lane, sizeof(reduce_sum_block_U)):
                    total += <uint64_t>src[lane]
        memcpy(out + k * ins.tw, &total, ins.tw)     # the low bytes (little-endian host)
    memcpy(vreg(m, a.vD), out, VL)
    return STOP_RUNNING


# vredmax.blk|vredmin.blk vD.T, vS.T, pM  -- lane k of vD = the max (min) of block k's active lanes
cdef inline int k_reduce_maxmin_block(Machine* m, const Ins* ins, const Args_reduce_maxmin_block* a,
                                      reduce_maxmin_block_T* t, reduce_maxmin_block_sub* op) noexcept nogil:
    cdef const reduce_maxmin_block_T* src = <const reduce_maxmin_block_T*>vreg(m, a.vS)
    cdef int64_t per_block = 32 // sizeof(reduce_maxmin_block_T)
    cdef bint want_max = reduce_maxmin_block_sub is Op_max
    cdef reduce_maxmin_block_T out[LANES_B16]   # vD may be vS
    cdef reduce_maxmin_block_T best
    cdef uint64_t key, best_key = 0
    cdef int64_t k, i, lane
    cdef bint found
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memset(out, 0, VL)
    for k in range(VL // 32):
        best = maxmin_identity(want_max, <reduce_maxmin_block_T*>NULL)
        found = False
        for i in range(per_block):
            lane = k * per_block + i
            if not active(m, a.pM, lane, sizeof(reduce_maxmin_block_T)):
                continue
            if lane_is_nan(src[lane]):          # the first active NaN wins with its own bits
                best = src[lane]
                break
            key = lane_key(src[lane])           # the first active lane, then only a strictly better one
            if not found or (key > best_key if want_max else key < best_key):
                best, best_key, found = src[lane], key, True
        out[k] = best
    memcpy(vreg(m, a.vD), out, VL)
    return STOP_RUNNING


# vpack.lo|hi vD.T, vA.U  -- the low T bits of every lane of vA -> the low (high) half of vD; other half 0
cdef inline int k_vpack(Machine* m, const Ins* ins, const Args_vpack* a, vpack_TW* t, vpack_UW* u,
                        vpack_sub* op) noexcept nogil:
    cdef const vpack_UW* src = <const vpack_UW*>vreg(m, a.vA)
    cdef int64_t n = VL // sizeof(vpack_UW)
    cdef int64_t start = n if vpack_sub is Op_hi else 0
    cdef vpack_TW out[VL]                       # vD may be vA
    cdef int64_t i
    memset(out, 0, VL)
    for i in range(n):
        out[start + i] = <vpack_TW>src[i]       # the low bits
    memcpy(vreg(m, a.vD), out, VL)
    return STOP_RUNNING


cdef inline uint64_t mask_bit_of(const Machine* m, int64_t p, int64_t k) noexcept nogil:
    return (mask_word(m, p, k >> 6) >> (k & 63)) & 1


# ppack.lo|hi pD, pS  -- the even bits of pS -> the low (high) 128 bits of pD; the rest 0
cdef inline int k_mask_pack(Machine* m, const Ins* ins, const Args_mask_pack* a, mask_pack_sub* op) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t start = VL // 2 if mask_pack_sub is Op_hi else 0
    cdef int64_t j
    cdef int status = check_mask(m, a.pS)
    if status:
        return status
    memset(words, 0, sizeof(words))
    for j in range(VL // 2):
        words[(start + j) >> 6] |= mask_bit_of(m, a.pS, 2 * j) << ((start + j) & 63)
    set_mask(m, a.pD, words)
    return STOP_RUNNING


# punpack.lo|hi pD, pS  -- the low (high) 128 bits of pS: bit j -> bit 2j of pD, odd bits 0
cdef inline int k_mask_unpack(Machine* m, const Ins* ins, const Args_mask_unpack* a,
                              mask_unpack_sub* op) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t start = VL // 2 if mask_unpack_sub is Op_hi else 0
    cdef int64_t j
    cdef int status = check_mask(m, a.pS)
    if status:
        return status
    memset(words, 0, sizeof(words))
    for j in range(VL // 2):
        words[(2 * j) >> 6] |= mask_bit_of(m, a.pS, start + j) << ((2 * j) & 63)
    set_mask(m, a.pD, words)
    return STOP_RUNNING


# vhist.binB|vchist.binB vD.u16, vA.u8, pM  -- counts of the active values in bin B (base 128*B) added to
# vD: lane v - base (frequency), or lane n: the values with v - base <= n (cumulative); sums wrap at 2^16
cdef inline int k_vhist(Machine* m, const Ins* ins, const Args_vhist* a, vhist_sub* op) noexcept nogil:
    cdef const uint8_t* src = vreg(m, a.vA)
    cdef uint16_t* dst = <uint16_t*>vreg(m, a.vD)
    cdef int64_t base = 128 if vhist_sub is Op_bin1 or vhist_sub is Op_cbin1 else 0
    cdef uint16_t counts[128]
    cdef uint16_t running = 0
    cdef int64_t i, v
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memset(counts, 0, sizeof(counts))
    for i in range(VL):
        v = <int64_t>src[i] - base
        if 0 <= v < 128 and active(m, a.pM, i, 1):
            counts[v] += 1
    for i in range(128):
        running = running + counts[i]
        dst[i] = dst[i] + (running if vhist_sub is Op_cbin0 or vhist_sub is Op_cbin1 else counts[i])
    return STOP_RUNNING


# psel pD, pA, pB, pG  -- pA's bits where pG is set, pB's elsewhere
cdef inline int k_mask_select(Machine* m, const Ins* ins, const Args_mask_select* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t w
    cdef int status = check_mask(m, a.pA) or check_mask(m, a.pB) or check_mask(m, a.pG)
    if status:
        return status
    for w in range(MASK_WORDS):
        words[w] = (mask_word(m, a.pA, w) & mask_word(m, a.pG, w)) | (mask_word(m, a.pB, w) & ~mask_word(m, a.pG, w))
    set_mask(m, a.pD, words)
    return STOP_RUNNING


cdef inline void set_pair_bit(uint64_t* words, int64_t k, uint64_t bit) noexcept nogil:
    """Bit k of a 512-bit pair of masks (words 0-3: the first, 4-7: the second)."""
    words[k >> 6] |= bit << (k & 63)


# pintlv pD0.bW, pD1, pA, pB  -- W-bit groups A0 B0 A1 B1 ...: the first 256 bits -> pD0, the rest -> pD1
cdef inline int k_mask_intlv(Machine* m, const Ins* ins, const Args_mask_intlv* a) noexcept nogil:
    cdef uint64_t words[2 * MASK_WORDS]
    cdef int64_t width = ins.tw                 # bits per group
    cdef int64_t g, j
    cdef int status = check_mask(m, a.pA) or check_mask(m, a.pB)
    if status:
        return status
    memset(words, 0, sizeof(words))
    for g in range(VL // width):
        for j in range(width):
            set_pair_bit(words, 2 * g * width + j, mask_bit_of(m, a.pA, g * width + j))
            set_pair_bit(words, (2 * g + 1) * width + j, mask_bit_of(m, a.pB, g * width + j))
    set_mask(m, a.pD0, words)
    set_mask(m, a.pD1, words + MASK_WORDS)      # pD1 last
    return STOP_RUNNING


# pdintlv pD0.bW, pD1, pA, pB  -- W-bit groups of pA then pB: even groups -> pD0, odd groups -> pD1
cdef inline int k_mask_dintlv(Machine* m, const Ins* ins, const Args_mask_dintlv* a) noexcept nogil:
    cdef uint64_t words[2 * MASK_WORDS]
    cdef int64_t width = ins.tw
    cdef int64_t half = VL // width // 2        # groups per source register, halved
    cdef int64_t g, j, source
    cdef int status = check_mask(m, a.pA) or check_mask(m, a.pB)
    if status:
        return status
    memset(words, 0, sizeof(words))
    for g in range(VL // width):                # group g of pA then pB: pair g // 2 of the sequence
        for source in range(2):
            for j in range(width):
                set_pair_bit(words, (g % 2) * VL + (source * half + g // 2) * width + j,
                             mask_bit_of(m, a.pB if source else a.pA, g * width + j))
    set_mask(m, a.pD0, words)
    set_mask(m, a.pD1, words + MASK_WORDS)      # pD1 last
    return STOP_RUNNING


cdef inline Lane compound_op(Lane a, Lane b, bint is_prelu) noexcept nogil:
    """prelu: a where its sign bit is clear (+0 and a positive NaN pass), else a * b; abssub: |a - b|
    (float lanes, rounded once)."""
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if is_prelu:
        return a if not (lane_bits(a) & sign) else lane_mul(a, b)
    return lane_abs(lane_sub(a, b))             # |.| of the rounded difference is exact


# vprelu|vabssub vD.T, vA.T, vB.T, pM  -- inactive lanes 0
cdef inline int k_vcompound(Machine* m, const Ins* ins, const Args_vcompound* a, vcompound_T* t,
                            vcompound_sub* op) noexcept nogil:
    cdef const vcompound_T* x = <const vcompound_T*>vreg(m, a.vA)
    cdef const vcompound_T* y = <const vcompound_T*>vreg(m, a.vB)
    cdef vcompound_T* dst = <vcompound_T*>vreg(m, a.vD)
    cdef vcompound_T zero = lane_of_bits(0, <vcompound_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vcompound_T)):
        if active(m, a.pM, i, sizeof(vcompound_T)):
            dst[i] = compound_op(x[i], y[i], vcompound_sub is Op_prelu)
        else:
            dst[i] = zero
    return STOP_RUNNING


# vleakyrelu vD.T, vA.T, X.T, pM  -- prelu with X in every lane
cdef inline int k_vcompound_x(Machine* m, const Ins* ins, const Args_vcompound_x* a, vcompound_x_T* t,
                              vcompound_x_sub* op) noexcept nogil:
    cdef const vcompound_x_T* x = <const vcompound_x_T*>vreg(m, a.vA)
    cdef vcompound_x_T y = tval(&a.x, <vcompound_x_T*>NULL)
    cdef vcompound_x_T* dst = <vcompound_x_T*>vreg(m, a.vD)
    cdef vcompound_x_T zero = lane_of_bits(0, <vcompound_x_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vcompound_x_T)):
        dst[i] = compound_op(x[i], y, True) if active(m, a.pM, i, sizeof(vcompound_x_T)) else zero
    return STOP_RUNNING


# vpairsum vD.T, vS.T, pM  -- lane i = vS[2i] + vS[2i+1] (the active ones), upper half 0
cdef inline int k_vpairsum(Machine* m, const Ins* ins, const Args_vpairsum* a, vpairsum_T* t) noexcept nogil:
    cdef const vpairsum_T* src = <const vpairsum_T*>vreg(m, a.vS)
    cdef int64_t n = VL // sizeof(vpairsum_T)
    cdef vpairsum_T out[LANES_B16]              # vD may be vS
    cdef bint first, second
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memset(out, 0, VL)
    for i in range(n // 2):
        first = active(m, a.pM, 2 * i, sizeof(vpairsum_T))
        second = active(m, a.pM, 2 * i + 1, sizeof(vpairsum_T))
        if first and second:
            out[i] = lane_add(src[2 * i], src[2 * i + 1])
        elif first:
            out[i] = src[2 * i]
        elif second:
            out[i] = src[2 * i + 1]
    memcpy(vreg(m, a.vD), out, VL)
    return STOP_RUNNING


# vci.desc vD.T, X.T  -- lane i = X + (lanes - 1 - i): the vci lanes in reverse order
cdef inline int k_vci_desc(Machine* m, const Ins* ins, const Args_vci_desc* a, vci_desc_T* t) noexcept nogil:
    cdef vci_desc_T x = tval(&a.x, <vci_desc_T*>NULL)
    cdef vci_desc_T* dst = <vci_desc_T*>vreg(m, a.vD)
    cdef int64_t n = VL // sizeof(vci_desc_T)
    cdef int64_t i
    for i in range(n):
        dst[i] = arange_lane(x, n - 1 - i)
    return STOP_RUNNING


# vdup.v vD.T, vA.T, pM  -- lane 0 of vA in every active lane, inactive lanes 0
cdef inline int k_vdup_lane(Machine* m, const Ins* ins, const Args_vdup_lane* a, vdup_lane_TW* t) noexcept nogil:
    cdef vdup_lane_TW x = (<const vdup_lane_TW*>vreg(m, a.vA))[0]
    cdef vdup_lane_TW* dst = <vdup_lane_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vdup_lane_TW)):
        dst[i] = x if active(m, a.pM, i, sizeof(vdup_lane_TW)) else 0
    return STOP_RUNNING


# vmull vD0.T, vD1.T, vA.T, vB.T, pM  -- the 64-bit product: low 32 bits -> vD0, high -> vD1 (last)
cdef inline int k_vmull(Machine* m, const Ins* ins, const Args_vmull* a, vmull_T* t) noexcept nogil:
    cdef const vmull_T* x = <const vmull_T*>vreg(m, a.vA)
    cdef const vmull_T* y = <const vmull_T*>vreg(m, a.vB)
    cdef uint32_t low[LANES_B32]                # the destinations may be sources
    cdef uint32_t high[LANES_B32]
    cdef uint64_t product
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(LANES_B32):
        product = 0
        if active(m, a.pM, i, 4):
            if vmull_T is int32_t:
                product = <uint64_t>(<int64_t>x[i] * <int64_t>y[i])      # exact: |product| <= 2^62
            else:
                product = <uint64_t>x[i] * <uint64_t>y[i]
        low[i] = <uint32_t>product
        high[i] = <uint32_t>(product >> 32)
    memcpy(vreg(m, a.vD0), low, VL)
    memcpy(vreg(m, a.vD1), high, VL)            # vD1 last
    return STOP_RUNNING
