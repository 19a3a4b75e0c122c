# What remained of issue 13 (included by core.pyx): scalar registers holding floats, add/subtract with carry,
# the mask special register, Duplicate's MERGING mode.

# Scalar registers holding a float's bits (issue 13; docs/semantics.md "Scalar registers holding floats").
# A register holds T's bits zero-extended; these kernels read its low bits as a lane of T, compute with the
# lane helpers of lanes.pxi (rounded once, to nearest even) and write the result's bits back.

# fmov sD.T, X.T
cdef inline int k_scalar_fmov(Machine* m, const Ins* ins, const Args_scalar_fmov* a, scalar_fmov_T* t) noexcept nogil:
    m.sreg[a.sD] = <int64_t>lane_bits(tval(&a.x, <scalar_fmov_T*>NULL))
    return STOP_RUNNING


# fadd|fsub|fmul|fdiv sD.T, sA.T, X.T  -- IEEE: no flush to zero, x/0 = +-inf, NaN the hardware NaN
cdef inline int k_scalar_falu(Machine* m, const Ins* ins, const Args_scalar_falu* a, scalar_falu_T* t,
                              scalar_falu_sub* op) noexcept nogil:
    cdef scalar_falu_T x = lane_of_bits(<uint64_t>m.sreg[a.sA], <scalar_falu_T*>NULL)
    cdef scalar_falu_T y = tval(&a.x, <scalar_falu_T*>NULL)
    cdef scalar_falu_T r
    if scalar_falu_sub is Op_add:
        r = lane_add(x, y)
    elif scalar_falu_sub is Op_sub:
        r = lane_sub(x, y)
    elif scalar_falu_sub is Op_mul:
        r = lane_mul(x, y)
    else:
        r = lane_div(x, y)
    m.sreg[a.sD] = <int64_t>lane_bits(r)
    return STOP_RUNNING


# fcvt sD.T, sA.U  -- the exact value of U rounded once to T
cdef inline int k_scalar_fcvt(Machine* m, const Ins* ins, const Args_scalar_fcvt* a, scalar_fcvt_T* t,
                              scalar_fcvt_U* u) noexcept nogil:
    cdef scalar_fcvt_U x = lane_of_bits(<uint64_t>m.sreg[a.sA], <scalar_fcvt_U*>NULL)
    m.sreg[a.sD] = <int64_t>lane_bits(lane_of_double(lane_value(x), <scalar_fcvt_T*>NULL))
    return STOP_RUNNING


# vaddc|vsubc pD, vD.T, vA.T, vB.T, pC, pM  (asc_addc, asc_subc; T = u32)
# {carry, sum} = vA + vB + carry-in, or vA + ~vB + carry-in (a borrow is a carry of 0). The carry-in is bit
# i*4 of pC, the carry-out goes to bit i*4 of pD; inactive lanes give 0 in vD and no carry.
cdef inline int k_vcarry(Machine* m, const Ins* ins, const Args_vcarry* a, vcarry_sub* op) noexcept nogil:
    cdef const uint32_t* x = <const uint32_t*>vreg(m, a.vA)
    cdef const uint32_t* y = <const uint32_t*>vreg(m, a.vB)
    cdef uint32_t sums[LANES_B32]               # the destinations may be sources
    cdef uint8_t carries[VL]                    # each lane's carry-out as a verdict (set_verdict)
    cdef uint64_t total
    cdef int64_t i
    cdef int status = check_mask(m, a.pM) or check_mask(m, a.pC)
    if status:
        return status
    for i in range(LANES_B32):
        if vcarry_sub is Op_add:
            total = <uint64_t>x[i] + <uint64_t>y[i] + mask_bit(m, a.pC, 4 * i)
        else:
            total = <uint64_t>x[i] + <uint64_t>(~y[i]) + mask_bit(m, a.pC, 4 * i)
        sums[i] = <uint32_t>total if active(m, a.pM, i, 4) else 0
        set_verdict(carries, i, <bint>(total >> 32), 4)
    memcpy(vreg(m, a.vD), sums, VL)
    return verdicts_into_mask(m, a.pD, a.pM, carries, 4)    # active lanes' carries only; pD may be pM or pC


# sprset.mask sH, sL  -- the mask special register: MASK1 = sH, MASK0 = sL
cdef inline int k_mask_spr_set(Machine* m, const Ins* ins, const Args_mask_spr_set* a) noexcept nogil:
    m.mask_spr[MASK_SPR_LOW] = m.sreg[a.sL]
    m.mask_spr[MASK_SPR_HIGH] = m.sreg[a.sH]
    m.mask_spr[MASK_SPR_SET] = 1
    return STOP_RUNNING


# movp pD.bW  -- b16: bit j of {MASK1, MASK0} -> bits 2j, 2j+1 of pD; b32: bit j of MASK0 -> bits 4j..4j+3
cdef inline int k_mask_spr_read(Machine* m, const Ins* ins, const Args_mask_spr_read* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef uint64_t source
    cdef int64_t width = ins.tw, k, j
    if not m.mask_spr[MASK_SPR_SET]:
        return fault(m, STOP_SPR_UNSET, MASK_SPR_FAULT)
    memset(words, 0, MASK_BYTES)
    for j in range(VL // width):                # bit j of the register governs element j
        source = <uint64_t>m.mask_spr[MASK_SPR_LOW + (j >> 6)]
        if (source >> (j & 63)) & 1:
            for k in range(width * j, width * (j + 1)):
                words[k >> 6] |= ONE << (k & 63)
    set_mask(m, a.pD, words)
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
