"""Reductions, fills, index sequences, rearrangements and histograms (docs/semantics.md
"Reductions", "Vector compute").
"""
include "engine.pxi"
include "lane_math.pxi"


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
        total = lane_saturated(lane_of_bits(total, <F16*>NULL), compute_saturates(m, <F16*>NULL)).bits
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


ctypedef fused SignedKey:
    int16_t
    int32_t
    int64_t


cdef inline bint is_unsigned(Lane x) noexcept nogil:
    return Lane is uint8_t or Lane is uint16_t or Lane is uint32_t or Lane is uint64_t


cdef inline int64_t first_best(SignedKey* tag, const uint8_t* lanes, bint is_float, bint is_unsigned_type,
                               bint want_max, int64_t inf_bits) noexcept nogil:
    """The first of all VL/W lanes holding the max (min), or the first NaN if there is one: lanes as
    signed integers of their width, mapped so that signed order is the values' order (floats: the
    magnitude bits of negatives flipped, so -0 is below +0; unsigned: the top bit flipped). Written
    without data-dependent branches so the compiler can vectorise the two passes (the second a min of
    lane numbers)."""
    cdef const SignedKey* v = <const SignedKey*>lanes
    cdef int64_t n = VL // sizeof(SignedKey)
    cdef SignedKey top = <SignedKey>(ONE << (8 * sizeof(SignedKey) - 1))    # the sign bit
    cdef SignedKey magnitude = ~top
    cdef SignedKey best, key, j, candidate, first
    cdef bint any_nan = False
    cdef int64_t i
    best = v[0] ^ ((v[0] >> (8 * sizeof(SignedKey) - 1)) & magnitude) if is_float else \
        (v[0] ^ top if is_unsigned_type else v[0])
    for i in range(n):
        if is_float:
            key = v[i] ^ ((v[i] >> (8 * sizeof(SignedKey) - 1)) & magnitude)
            any_nan |= (v[i] & magnitude) > <SignedKey>inf_bits
        elif is_unsigned_type:
            key = v[i] ^ top
        else:
            key = v[i]
        if want_max:
            best = key if key > best else best
        else:
            best = key if key < best else best
    if any_nan:
        for i in range(n):
            if (v[i] & magnitude) > <SignedKey>inf_bits:
                return i
    first = <SignedKey>n                        # the least lane holding best: a min, not an early exit
    for j in range(<SignedKey>n):
        if is_float:
            key = v[j] ^ ((v[j] >> (8 * sizeof(SignedKey) - 1)) & magnitude)
        elif is_unsigned_type:
            key = v[j] ^ top
        else:
            key = v[j]
        candidate = j if key == best else <SignedKey>n
        first = candidate if candidate < first else first
    return first


# vredmax|vredmin vD.T, vS.T, pM  -- lane 0 = the value, lane 1 = its first index (raw bits), rest 0
cdef inline int k_reduce_maxmin(Machine* m, const Ins* ins, const Args_reduce_maxmin* a, reduce_maxmin_T* t,
                                reduce_maxmin_sub* op) noexcept nogil:
    cdef const reduce_maxmin_T* src = <const reduce_maxmin_T*>vreg(m, a.vS)
    cdef int64_t width = sizeof(reduce_maxmin_T)
    cdef int64_t lanes = VL // width
    cdef bint want_max = reduce_maxmin_sub is Op_max
    cdef reduce_maxmin_T best = maxmin_identity(want_max, <reduce_maxmin_T*>NULL)
    cdef uint64_t key, best_key = 0, bits
    cdef int64_t w, i, best_index = 0
    cdef bint found = False, any_nan = False
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    if all_active(m, a.pM, width):
        if width == 2:
            best_index = first_best(<int16_t*>NULL, vreg(m, a.vS), reduce_maxmin_T is F16, is_unsigned(src[0]),
                                    want_max, <int64_t>float_format(<reduce_maxmin_T*>NULL).overflow)
        elif width == 4:
            best_index = first_best(<int32_t*>NULL, vreg(m, a.vS), reduce_maxmin_T is float, is_unsigned(src[0]),
                                    want_max, <int64_t>float_format(<reduce_maxmin_T*>NULL).overflow)
        else:
            best_index = first_best(<int64_t*>NULL, vreg(m, a.vS), False, is_unsigned(src[0]), want_max, 0)
        best = src[best_index]
    else:
        w = 0
        while w < MASK_WORDS:                       # the active lanes, in order
            bits = mask_word(m, a.pM, w) & stride_bits(width)
            while bits:
                i = (64 * w + __builtin_ctzll(bits)) // width
                bits &= bits - 1
                if lane_is_nan(src[i]):             # the first active NaN wins with its own bits
                    best, best_index = src[i], i
                    w = MASK_WORDS
                    break
                key = lane_key(src[i])
                # the first active lane, then only a strictly better one (-0 below +0)
                if not found or (key > best_key if want_max else key < best_key):
                    best, best_key, best_index, found = src[i], key, i, True
            w += 1
    memset(vreg(m, a.vD), 0, VL)
    (<reduce_maxmin_T*>vreg(m, a.vD))[0] = lane_saturated(best, compute_saturates(m, <reduce_maxmin_T*>NULL))
    memcpy(vreg(m, a.vD) + width, &best_index, width)   # the index as the lane's raw bits
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
            total = lane_saturated(lane_of_bits(total, <F16*>NULL), compute_saturates(m, <F16*>NULL)).bits
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
    cdef bint saturating = compute_saturates(m, <reduce_maxmin_block_T*>NULL)
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
        out[k] = lane_saturated(best, saturating)
    memcpy(vreg(m, a.vD), out, VL)
    return STOP_RUNNING


# vpairsum vD.T, vS.T, pM  -- lane i = vS[2i] + vS[2i+1] (the active ones), upper half 0
cdef inline int k_vpairsum(Machine* m, const Ins* ins, const Args_vpairsum* a, vpairsum_T* t) noexcept nogil:
    cdef const vpairsum_T* src = <const vpairsum_T*>vreg(m, a.vS)
    cdef int64_t n = VL // sizeof(vpairsum_T)
    cdef vpairsum_T out[LANES_B16]              # vD may be vS
    cdef bint first, second
    cdef bint saturating = compute_saturates(m, <vpairsum_T*>NULL)
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
        out[i] = lane_saturated(out[i], saturating)
    memcpy(vreg(m, a.vD), out, VL)
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


# vdup.merge vD.T, X.T, pM  -- active lanes = X, inactive lanes keep vD (MERGING)
cdef inline int k_vdup_merge(Machine* m, const Ins* ins, const Args_vdup_merge* a, vdup_merge_T* t) noexcept nogil:
    cdef vdup_merge_T x = tval(&a.x, <vdup_merge_T*>NULL)
    cdef vdup_merge_T* dst = <vdup_merge_T*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vdup_merge_T)):
        if active(m, a.pM, i, sizeof(vdup_merge_T)):
            dst[i] = x
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


# vdup.v.merge vD.T, vA.T, pM  -- lane 0 of vA in the active lanes, inactive lanes keep vD (MERGING)
cdef inline int k_vdup_lane_merge(Machine* m, const Ins* ins, const Args_vdup_lane_merge* a,
                                  vdup_lane_merge_TW* t) noexcept nogil:
    cdef vdup_lane_merge_TW x = (<const vdup_lane_merge_TW*>vreg(m, a.vA))[0]    # read before vD (it may be vA)
    cdef vdup_lane_merge_TW* dst = <vdup_lane_merge_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vdup_lane_merge_TW)):
        if active(m, a.pM, i, sizeof(vdup_lane_merge_TW)):
            dst[i] = x
    return STOP_RUNNING


# vci vD.T, X.T  -- lane i = X + i (integers wrap; floats: X + i rounded once)
cdef inline int k_vci(Machine* m, const Ins* ins, const Args_vci* a, vci_T* t) noexcept nogil:
    cdef vci_T x = tval(&a.x, <vci_T*>NULL)
    cdef vci_T* dst = <vci_T*>vreg(m, a.vD)
    cdef int64_t i
    cdef bint saturating = compute_saturates(m, <vci_T*>NULL)
    for i in range(VL // sizeof(vci_T)):
        dst[i] = lane_saturated(arange_lane(x, i), saturating)
    return STOP_RUNNING


cdef inline Lane arange_lane(Lane x, int64_t i) noexcept nogil:
    """X + i: integers wrap; floats to nearest, ties toward +inf (the Arange table), exact in double
    wherever a tie is possible."""
    cdef Lane nearest, up
    cdef double exact
    cdef uint64_t bits
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        exact = lane_value(x) + <double>i
        nearest = lane_of_double(exact, <Lane*>NULL)
        if lane_value(nearest) < exact:             # rounded down: the value above may be as near
            bits = lane_bits(nearest)
            up = lane_of_bits(bits - 1 if bits >> (8 * sizeof(Lane) - 1) else bits + 1, <Lane*>NULL)
            if lane_value(up) - exact == exact - lane_value(nearest):
                nearest = up
        return nearest
    else:
        return <Lane>(<uint64_t>x + <uint64_t>i)


# vci.desc vD.T, X.T  -- lane i = X + (lanes - 1 - i): the vci lanes in reverse order
cdef inline int k_vci_desc(Machine* m, const Ins* ins, const Args_vci_desc* a, vci_desc_T* t) noexcept nogil:
    cdef vci_desc_T x = tval(&a.x, <vci_desc_T*>NULL)
    cdef vci_desc_T* dst = <vci_desc_T*>vreg(m, a.vD)
    cdef int64_t n = VL // sizeof(vci_desc_T)
    cdef int64_t i
    cdef bint saturating = compute_saturates(m, <vci_desc_T*>NULL)
    for i in range(n):
        dst[i] = lane_saturated(arange_lane(x, n - 1 - i), saturating)
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


# vgatr vD.T, vA.T, vI.U  -- lane i of vD = lane vI[i] mod lanes of vA (raw bits; vI unsigned of T's width)
cdef inline int k_vgatr(Machine* m, const Ins* ins, const Args_vgatr* a, vgatr_TW* t) noexcept nogil:
    cdef const vgatr_TW* x = <const vgatr_TW*>vreg(m, a.vA)
    cdef const vgatr_TW* index = <const vgatr_TW*>vreg(m, a.vI)
    cdef int64_t n = VL // sizeof(vgatr_TW)
    cdef vgatr_TW out[VL]                       # the destination may be a source: build it first
    cdef int64_t i
    for i in range(n):
        out[i] = x[index[i] % n]
    memcpy(vreg(m, a.vD), out, VL)
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


include "dispatch_rearrange.pxi"      # generated: this module's kernels in the KERNELS table
