# Reduction and vector-compute kernels (included by core.pyx; seed 003 Reduce, facts §8, §2.3;
# docs/semantics.md "Reductions", "Vector compute", "Floating point"). Element-wise kernels read lane i
# of their sources before writing lane i of the destination, so a destination may be a source.

cdef inline bint active(const Machine* m, int64_t p, int64_t lane, int64_t width) noexcept nogil:
    return mask_bit(m, p, lane * width)


# vredsum vD.T, vS.U, pM  -- a pairwise tree over all lanes, inactive lanes +0, each partial rounded to T
cdef inline int k_reduce_sum(Machine* m, const Ins* ins, const Args_reduce_sum* a, reduce_sum_U* u) noexcept nogil:
    cdef const reduce_sum_U* src = <const reduce_sum_U*>vreg(m, a.vS)
    cdef int64_t lanes = VL // sizeof(reduce_sum_U)
    cdef uint8_t* dst = vreg(m, a.vD)
    cdef float single[LANES_B32]
    cdef double level[LANES_B16]
    cdef FloatFormat f
    cdef uint64_t total = 0
    cdef int64_t i, n = lanes
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    if reduce_sum_U is float:
        for i in range(lanes):
            single[i] = src[i] if active(m, a.pM, i, 4) else 0.0
        while n > 1:                                # (x0+x1), (x2+x3), ... each rounded to f32
            n >>= 1
            for i in range(n):
                single[i] = single[2 * i] + single[2 * i + 1]
        total = bits_of_float(canonical_f32(single[0]))
    elif reduce_sum_U is F16:
        f = float_format(<F16*>NULL)
        for i in range(lanes):
            level[i] = lane_value(src[i]) if active(m, a.pM, i, 2) else 0.0
        while n > 1:                                # each partial rounded to f16
            n >>= 1
            for i in range(n):
                level[i] = decode_bits(encode_double(level[2 * i] + level[2 * i + 1], &f), &f)
        total = encode_double(level[0], &f)         # a NaN becomes the canonical NaN
    elif reduce_sum_U is int16_t or reduce_sum_U is int32_t or reduce_sum_U is int64_t:
        for i in range(lanes):                      # integers wrap: the tree order does not matter
            if active(m, a.pM, i, sizeof(reduce_sum_U)):
                total += <uint64_t><int64_t>src[i]  # sign-extended
    elif reduce_sum_U is uint16_t or reduce_sum_U is uint32_t or reduce_sum_U is uint64_t:
        for i in range(lanes):
            if active(m, a.pM, i, sizeof(reduce_sum_U)):
                total += <uint64_t>src[i]
    memset(dst, 0, VL)
    memcpy(dst, &total, ins.tw)                     # the low bytes of the sum (little-endian host)
    return STOP_RUNNING


cdef inline Lane maxmin_identity(bint want_max, Lane* tag) noexcept nogil:
    """The max (min) identity: -inf (+inf) for floats, the type's minimum (maximum) for integers."""
    cdef FloatFormat f
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        f = float_format(<Lane*>NULL)
        return lane_of_bits(sign | f.overflow if want_max else f.overflow, <Lane*>NULL)
    elif Lane is int8_t or Lane is int16_t or Lane is int32_t or Lane is int64_t:
        return lane_of_bits(sign if want_max else sign - 1, <Lane*>NULL)
    else:
        return lane_of_bits(0 if want_max else low_bits(sizeof(Lane)), <Lane*>NULL)


# vredmax|vredmin vD.T, vS.T, pM  -- lane 0 = the value, lane 1 = its first index (raw bits), rest 0
cdef inline int k_reduce_maxmin(Machine* m, const Ins* ins, const Args_reduce_maxmin* a, reduce_maxmin_T* t,
                                reduce_maxmin_sub* op) noexcept nogil:
    cdef const reduce_maxmin_T* src = <const reduce_maxmin_T*>vreg(m, a.vS)
    cdef int64_t width = sizeof(reduce_maxmin_T)
    cdef bint want_max = reduce_maxmin_sub is Op_max
    cdef reduce_maxmin_T best = maxmin_identity(want_max, <reduce_maxmin_T*>NULL)
    cdef uint64_t key, best_key = 0, bits
    cdef int64_t w, i, best_index = 0
    cdef bint found = False
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    w = 0
    while w < MASK_WORDS:                           # the active lanes, in order
        bits = mask_word(m, a.pM, w) & stride_bits(width)
        while bits:
            i = (64 * w + __builtin_ctzll(bits)) // width
            bits &= bits - 1
            if lane_is_nan(src[i]):                 # the first active NaN wins with its own bits
                best, best_index = src[i], i
                w = MASK_WORDS
                break
            key = lane_key(src[i])
            # the first active lane, then only a strictly better one (-0 below +0)
            if not found or (key > best_key if want_max else key < best_key):
                best, best_key, best_index, found = src[i], key, i, True
        w += 1
    memset(vreg(m, a.vD), 0, VL)
    (<reduce_maxmin_T*>vreg(m, a.vD))[0] = best
    memcpy(vreg(m, a.vD) + width, &best_index, width)   # the index as the lane's raw bits
    return STOP_RUNNING


# vdup vD.T, X.T  -- every lane = X
cdef inline int k_vdup(Machine* m, const Ins* ins, const Args_vdup* a, vdup_T* t) noexcept nogil:
    cdef vdup_T x = tval(&a.x, <vdup_T*>NULL)
    cdef vdup_T* dst = <vdup_T*>vreg(m, a.vD)
    cdef int64_t i
    for i in range(VL // sizeof(vdup_T)):
        dst[i] = x
    return STOP_RUNNING


# vdup vD.T, X.T, pM  -- active lanes = X, inactive lanes 0
cdef inline int k_vdup_masked(Machine* m, const Ins* ins, const Args_vdup_masked* a, vdup_masked_T* t) noexcept nogil:
    cdef vdup_masked_T x = tval(&a.x, <vdup_masked_T*>NULL)
    cdef vdup_masked_T zero = lane_of_bits(0, <vdup_masked_T*>NULL)
    cdef vdup_masked_T* dst = <vdup_masked_T*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vdup_masked_T)):
        dst[i] = x if active(m, a.pM, i, sizeof(vdup_masked_T)) else zero
    return STOP_RUNNING


# vci vD.T, X.T  -- lane i = X + i (integers wrap; floats: X + i rounded once)
cdef inline int k_vci(Machine* m, const Ins* ins, const Args_vci* a, vci_T* t) noexcept nogil:
    cdef vci_T x = tval(&a.x, <vci_T*>NULL)
    cdef vci_T* dst = <vci_T*>vreg(m, a.vD)
    cdef int64_t i
    for i in range(VL // sizeof(vci_T)):
        if vci_T is F16 or vci_T is BF16 or vci_T is E4M3 or vci_T is E5M2 or vci_T is float:
            dst[i] = lane_of_double(lane_value(x) + <double>i, <vci_T*>NULL)
        else:
            dst[i] = <vci_T>(<uint64_t>x + <uint64_t>i)
    return STOP_RUNNING


cdef inline Lane binary_op(Lane x, Lane y, bint is_add, bint is_sub, bint is_mul, bint is_div, bint is_max) noexcept nogil:
    if is_add:
        return lane_add(x, y)
    if is_sub:
        return lane_sub(x, y)
    if is_mul:
        return lane_mul(x, y)
    if is_div:
        return lane_div(x, y)
    if is_max:
        return lane_max(x, y)
    return lane_min(x, y)


# vadd|vsub|vmul|vdiv|vmax|vmin vD.T, vA.T, vB.T, pM  -- inactive lanes 0
cdef inline int k_vbinary(Machine* m, const Ins* ins, const Args_vbinary* a, vbinary_T* t, vbinary_sub* op) noexcept nogil:
    cdef const vbinary_T* x = <const vbinary_T*>vreg(m, a.vA)
    cdef const vbinary_T* y = <const vbinary_T*>vreg(m, a.vB)
    cdef vbinary_T* dst = <vbinary_T*>vreg(m, a.vD)
    cdef vbinary_T zero = lane_of_bits(0, <vbinary_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vbinary_T)):
        if active(m, a.pM, i, sizeof(vbinary_T)):
            dst[i] = binary_op(x[i], y[i], vbinary_sub is Op_add, vbinary_sub is Op_sub, vbinary_sub is Op_mul,
                               vbinary_sub is Op_div, vbinary_sub is Op_max)
        else:
            dst[i] = zero
    return STOP_RUNNING


# vadds|vmuls|vmaxs|vmins vD.T, vA.T, X.T, pM  -- every lane's second operand is X; inactive lanes 0
cdef inline int k_vbinary_x(Machine* m, const Ins* ins, const Args_vbinary_x* a, vbinary_x_T* t,
                            vbinary_x_sub* op) noexcept nogil:
    cdef const vbinary_x_T* x = <const vbinary_x_T*>vreg(m, a.vA)
    cdef vbinary_x_T y = tval(&a.x, <vbinary_x_T*>NULL)
    cdef vbinary_x_T* dst = <vbinary_x_T*>vreg(m, a.vD)
    cdef vbinary_x_T zero = lane_of_bits(0, <vbinary_x_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vbinary_x_T)):
        if active(m, a.pM, i, sizeof(vbinary_x_T)):
            dst[i] = binary_op(x[i], y, vbinary_x_sub is Op_add, False, vbinary_x_sub is Op_mul, False,
                               vbinary_x_sub is Op_max)
        else:
            dst[i] = zero
    return STOP_RUNNING


# vabs|vneg|vexp|vsqrt vD.T, vA.T, pM  -- inactive lanes 0
cdef inline int k_vunary(Machine* m, const Ins* ins, const Args_vunary* a, vunary_T* t, vunary_sub* op) noexcept nogil:
    cdef const vunary_T* x = <const vunary_T*>vreg(m, a.vA)
    cdef vunary_T* dst = <vunary_T*>vreg(m, a.vD)
    cdef vunary_T zero = lane_of_bits(0, <vunary_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vunary_T)):
        if not active(m, a.pM, i, sizeof(vunary_T)):
            dst[i] = zero
        elif vunary_sub is Op_abs:
            dst[i] = lane_abs(x[i])
        elif vunary_sub is Op_neg:
            dst[i] = lane_neg(x[i])
        elif vunary_sub is Op_exp:
            dst[i] = lane_exp(x[i])
        else:
            dst[i] = lane_sqrt(x[i])
    return STOP_RUNNING


cdef inline bint compare(Lane x, Lane y, bint is_eq, bint is_ne, bint is_lt, bint is_le, bint is_gt) noexcept nogil:
    """vcmp.CC on one lane: floats compare as values (NaN: false except ne; -0 == +0)."""
    if is_eq:
        return lane_eq(x, y)
    if is_ne:
        return not lane_eq(x, y)
    if is_lt:
        return lane_lt(x, y)
    if is_le:
        return lane_lt(x, y) or lane_eq(x, y)
    if is_gt:
        return lane_lt(y, x)
    return lane_lt(y, x) or lane_eq(x, y)


# vcmp.CC pD, vA.T, vB.T, pM  -- bit i*W set for active lanes where the comparison holds
cdef inline int k_vcmp(Machine* m, const Ins* ins, const Args_vcmp* a, vcmp_T* t, vcmp_sub* op) noexcept nogil:
    cdef const vcmp_T* x = <const vcmp_T*>vreg(m, a.vA)
    cdef const vcmp_T* y = <const vcmp_T*>vreg(m, a.vB)
    cdef int64_t width = sizeof(vcmp_T)
    cdef uint64_t words[MASK_WORDS]             # pD may be pM: read every lane first
    cdef uint64_t holds
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memset(words, 0, MASK_BYTES)
    for i in range(VL // width):
        holds = compare(x[i], y[i], vcmp_sub is Op_eq, vcmp_sub is Op_ne, vcmp_sub is Op_lt, vcmp_sub is Op_le,
                        vcmp_sub is Op_gt)
        words[(i * width) >> 6] |= holds << ((i * width) & 63)
    for i in range(MASK_WORDS):
        words[i] &= mask_word(m, a.pM, i) & stride_bits(width)
    set_mask(m, a.pD, words)
    return STOP_RUNNING


# vsel vD.T, vA.T, vB.T, pM  -- raw bits of vA where active, of vB elsewhere
cdef inline int k_vsel(Machine* m, const Ins* ins, const Args_vsel* a, vsel_TW* t) noexcept nogil:
    cdef const vsel_TW* x = <const vsel_TW*>vreg(m, a.vA)
    cdef const vsel_TW* y = <const vsel_TW*>vreg(m, a.vB)
    cdef vsel_TW* dst = <vsel_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vsel_TW)):
        dst[i] = x[i] if active(m, a.pM, i, sizeof(vsel_TW)) else y[i]
    return STOP_RUNNING
