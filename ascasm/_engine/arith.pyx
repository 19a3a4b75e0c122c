"""Element-wise arithmetic, logic, shifts, fused multiply-add and compound kernels (docs/semantics.md
"Vector compute", "Floating point"). Element-wise kernels read lane i of their sources before writing
lane i of the destination, so a destination may be a source.
"""
include "engine.pxi"
include "lane_math.pxi"

cdef extern from "exp.h":                      # exp of 64 lanes in double, vectorised; libm's f32 results
    void ascasm_exp_lanes(const double* x, double* out) nogil


cdef inline Lane binary_op(Lane x, Lane y, bint is_add, bint is_sub, bint is_mul, bint is_div, bint is_max,
                           bint flush, bint saturating) noexcept nogil:
    """One lane of a binary operation; `flush`: subnormal inputs and result become zeros (vdiv's default);
    `saturating` (compute_saturates): s16/s32 add, sub and mul clamp (f16: lane_saturated on the result)."""
    if (Lane is int16_t or Lane is int32_t) and saturating and (is_add or is_sub or is_mul):
        return lane_clamped(x, y, is_add, is_sub)
    if is_add:
        return lane_add(x, y)
    if is_sub:
        return lane_sub(x, y)
    if is_mul:
        return lane_mul(x, y)
    if is_div and flush:
        return lane_ftz(lane_div(lane_ftz(x), lane_ftz(y)))
    if is_div:
        return lane_div(x, y)
    return lane_extreme(x, y, is_max)


# vadd|vsub|vmul|vdiv|vmax|vmin vD.T, vA.T, vB.T, pM  -- inactive lanes 0; vadd.merge|vmax.merge|vmin.merge
# (the `_merge` sub-operations: appendix merge-mode.md table 2) leave inactive lanes as vD held them;
# vadds|vmuls|vmaxs|vmins vD.T, vA.T, X.T, pM  -- X in every lane (the `src` axis)
cdef inline int k_vbinary(Machine* m, const Ins* ins, const Args_vbinary* a, vbinary_T* t, vbinary_sub* op,
                          vbinary_src* src) noexcept nogil:
    cdef const vbinary_T* x = <const vbinary_T*>vreg(m, a.vA)
    cdef vbinary_T scalar
    cdef const vbinary_T* y = second_operand(m, a.vB, &a.x, &scalar, src)
    cdef vbinary_T* dst = <vbinary_T*>vreg(m, a.vD)
    cdef vbinary_T zero = lane_of_bits(0, <vbinary_T*>NULL)
    cdef bint merging = vbinary_sub is Op_add_merge or vbinary_sub is Op_max_merge or vbinary_sub is Op_min_merge
    cdef bint saturating = compute_saturates(m, <vbinary_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    cdef bint full = all_active(m, a.pM, sizeof(vbinary_T))
    for i in range(VL // sizeof(vbinary_T)):
        if full or active(m, a.pM, i, sizeof(vbinary_T)):
            dst[i] = lane_saturated(binary_op(
                x[i], y[at(i, src)], vbinary_sub is Op_add or vbinary_sub is Op_add_merge, vbinary_sub is Op_sub,
                vbinary_sub is Op_mul, vbinary_sub is Op_div or vbinary_sub is Op_div_nftz,
                vbinary_sub is Op_max or vbinary_sub is Op_max_merge, vbinary_sub is Op_div, saturating), saturating)
        elif not merging:
            dst[i] = zero
    return STOP_RUNNING


cdef inline Lane lane_log_base(Lane a, bint base_ten) noexcept nogil:
    """libm log2 or log10 in double, rounded to f32 and then to the lane's type (the pages compute half in
    float; floats only): log(+-0) = -inf, a negative gives NaN."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_double(<double><float>(log10(lane_value(a)) if base_ten else log2(lane_value(a))), <Lane*>NULL)
    else:
        return a


# vabs|vneg|vexp|vsqrt|vln|vlog2|vlog10 vD.T, vA.T, pM  -- inactive lanes 0; vexp/vsqrt/vln/vlog2/vlog10
# flush subnormal inputs and results to zero, their .nftz forms keep them
cdef inline int k_vunary(Machine* m, const Ins* ins, const Args_vunary* a, vunary_T* t, vunary_sub* op) noexcept nogil:
    cdef const vunary_T* x = <const vunary_T*>vreg(m, a.vA)
    cdef vunary_T* dst = <vunary_T*>vreg(m, a.vD)
    cdef vunary_T zero = lane_of_bits(0, <vunary_T*>NULL)
    cdef bint saturating = compute_saturates(m, <vunary_T*>NULL)
    cdef vunary_T r
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    cdef bint full = all_active(m, a.pM, sizeof(vunary_T))
    cdef double wide[LANES_B32]
    cdef double exps[LANES_B32]
    if vunary_T is float and (vunary_sub is Op_exp or vunary_sub is Op_exp_nftz) and full:
        # lane_exp in three vectorised passes: the flush and the widening, exp (exp.h: the f32 results of
        # libm's exp), then the rounding, NaN and flush
        for i in range(LANES_B32):
            wide[i] = lane_ftz(x[i]) if vunary_sub is Op_exp else x[i]
        ascasm_exp_lanes(wide, exps)
        for i in range(LANES_B32):
            r = canonical_f32(<float>exps[i])
            dst[i] = lane_ftz(r) if vunary_sub is Op_exp else r
        return STOP_RUNNING
    for i in range(VL // sizeof(vunary_T)):
        if not (full or active(m, a.pM, i, sizeof(vunary_T))):
            dst[i] = zero
            continue
        if vunary_sub is Op_abs:
            r = lane_abs(x[i])
        elif vunary_sub is Op_neg:
            r = lane_neg(x[i])
        elif vunary_sub is Op_exp:
            r = lane_ftz(lane_exp(lane_ftz(x[i])))
        elif vunary_sub is Op_exp_nftz:
            r = lane_exp(x[i])
        elif vunary_sub is Op_sqrt:
            r = lane_ftz(lane_sqrt(lane_ftz(x[i])))
        elif vunary_sub is Op_ln:
            r = lane_ftz(lane_ln(lane_ftz(x[i])))
        elif vunary_sub is Op_ln_nftz:
            r = lane_ln(x[i])
        elif vunary_sub is Op_log2 or vunary_sub is Op_log10:
            r = lane_ftz(lane_log_base(lane_ftz(x[i]), vunary_sub is Op_log10))
        elif vunary_sub is Op_log2_nftz or vunary_sub is Op_log10_nftz:
            r = lane_log_base(x[i], vunary_sub is Op_log10_nftz)
        elif vunary_sub is Op_relu:
            r = lane_extreme(x[i], zero, True)     # max(x, +0): -0 -> +0, NaN -> the hardware NaN
        else:
            r = lane_sqrt(x[i])
        dst[i] = lane_saturated(r, saturating)
    return STOP_RUNNING


# vand|vor|vxor vD.T, vA.T, vB.T, pM  -- on the lanes' bits (floats too); inactive lanes 0
cdef inline int k_vlogic(Machine* m, const Ins* ins, const Args_vlogic* a, vlogic_TW* t, vlogic_sub* op) noexcept nogil:
    cdef const vlogic_TW* x = <const vlogic_TW*>vreg(m, a.vA)
    cdef const vlogic_TW* y = <const vlogic_TW*>vreg(m, a.vB)
    cdef vlogic_TW* dst = <vlogic_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vlogic_TW)):
        if not active(m, a.pM, i, sizeof(vlogic_TW)):
            dst[i] = 0
        elif vlogic_sub is Op_and:
            dst[i] = x[i] & y[i]
        elif vlogic_sub is Op_or:
            dst[i] = x[i] | y[i]
        else:
            dst[i] = x[i] ^ y[i]
    return STOP_RUNNING


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
    if (Lane is int8_t or Lane is int16_t or Lane is int32_t or Lane is int64_t) and not left:
        return <Lane>(x >> (width - 1 if out_of_range else amount))    # arithmetic on a signed C type
    if out_of_range:
        return <Lane>0
    if (Lane is int8_t or Lane is int16_t or Lane is int32_t or Lane is int64_t) and left:
        return lane_of_bits((bits & sign) | ((bits << amount) & (sign - 1)), <Lane*>NULL)
    return lane_of_bits(bits << amount if left else bits >> amount, <Lane*>NULL)


cdef inline int64_t signed_lane(const uint8_t* lanes, int64_t width, int64_t i) noexcept nogil:
    """Lane i of a register read as a signed integer of `width` bytes (1, 2, 4 or 8)."""
    if width == 1:
        return (<const int8_t*>lanes)[i]
    if width == 2:
        return (<const int16_t*>lanes)[i]
    if width == 4:
        return (<const int32_t*>lanes)[i]
    return (<const int64_t*>lanes)[i]


# vshl|vshr vD.T, vA.T, vB.U, pM  -- lane i shifted by vB[i] (U: T's width, signed); inactive lanes 0;
# vshls|vshrs vD.T, vA.T, X, pM  -- every lane shifted by X's low 16 bits, signed (the page's int16_t)
cdef inline int k_vshift(Machine* m, const Ins* ins, const Args_vshift* a, vshift_T* t, vshift_sub* op,
                         vshift_src* src) noexcept nogil:
    cdef const vshift_T* x = <const vshift_T*>vreg(m, a.vA)
    cdef const uint8_t* amounts = NULL
    cdef int64_t amount = 0
    cdef vshift_T* dst = <vshift_T*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    if vshift_src is Src_scalar:
        amount = <int16_t>sval(&a.x)
    else:
        amounts = vreg(m, a.vB)
    for i in range(VL // sizeof(vshift_T)):
        if active(m, a.pM, i, sizeof(vshift_T)):
            if vshift_src is Src_vector:
                amount = signed_lane(amounts, sizeof(vshift_T), i)
            dst[i] = lane_shift(x[i], amount, vshift_sub is Op_shl)
        else:
            dst[i] = 0
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
    """x * y + z: floats rounded once (the product of two f32, bf16 or f16 is exact in double, at most 48
    bits); integers modulo 2^W."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        return lane_of_double(sum_rounded_to_odd(lane_value(x) * lane_value(y), lane_value(z)), <Lane*>NULL)
    else:
        return lane_add(lane_mul(x, y), z)


# vmadd vD.T, vA.T, vB.T, pM  -- vD = vD * vA + vB; vaxpy vD.T, vA.T, X.T, pM  -- vD = vA * X + vD; vmla
# vD.T, vA.T, vB.T, pM  -- vD = vA * vB + vD; floats rounded once, integers wrap; inactive lanes 0
cdef inline int k_vfma(Machine* m, const Ins* ins, const Args_vfma* a, vfma_T* t, vfma_sub* op,
                       vfma_src* src) noexcept nogil:
    cdef const vfma_T* x = <const vfma_T*>vreg(m, a.vA)
    cdef vfma_T scalar
    cdef const vfma_T* y = second_operand(m, a.vB, &a.x, &scalar, src)
    cdef vfma_T* dst = <vfma_T*>vreg(m, a.vD)
    cdef vfma_T zero = lane_of_bits(0, <vfma_T*>NULL)
    cdef bint saturating = compute_saturates(m, <vfma_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    cdef bint full = all_active(m, a.pM, sizeof(vfma_T))
    for i in range(VL // sizeof(vfma_T)):
        if not (full or active(m, a.pM, i, sizeof(vfma_T))):
            dst[i] = zero
        elif vfma_sub is Op_madd:
            dst[i] = lane_saturated(lane_fma(dst[i], x[i], y[at(i, src)]), saturating)
        else:
            dst[i] = lane_saturated(lane_fma(x[i], y[at(i, src)], dst[i]), saturating)
    return STOP_RUNNING


cdef inline Lane compound_op(Lane a, Lane b, bint is_prelu) noexcept nogil:
    """prelu: a where its sign bit is clear (+0 and a positive NaN pass), else a * b; abssub: |a - b|
    (float lanes rounded once; integer lanes wrapping)."""
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if is_prelu:
        return a if not (lane_bits(a) & sign) else lane_mul(a, b)
    return lane_abs(lane_sub(a, b))             # |.| of the rounded difference is exact


# vprelu|vabssub vD.T, vA.T, vB.T, pM  -- inactive lanes 0; vleakyrelu vD.T, vA.T, X.T, pM  -- prelu with
# X in every lane
cdef inline int k_vcompound(Machine* m, const Ins* ins, const Args_vcompound* a, vcompound_T* t,
                            vcompound_sub* op, vcompound_src* src) noexcept nogil:
    cdef const vcompound_T* x = <const vcompound_T*>vreg(m, a.vA)
    cdef vcompound_T scalar
    cdef const vcompound_T* y = second_operand(m, a.vB, &a.x, &scalar, src)
    cdef vcompound_T* dst = <vcompound_T*>vreg(m, a.vD)
    cdef vcompound_T zero = lane_of_bits(0, <vcompound_T*>NULL)
    cdef bint saturating = compute_saturates(m, <vcompound_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    cdef bint full = all_active(m, a.pM, sizeof(vcompound_T))
    for i in range(VL // sizeof(vcompound_T)):
        if full or active(m, a.pM, i, sizeof(vcompound_T)):
            dst[i] = lane_saturated(compound_op(x[i], y[at(i, src)], vcompound_sub is Op_prelu), saturating)
        else:
            dst[i] = zero
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


include "dispatch_arith.pxi"      # generated: this module's kernels in the KERNELS table
