"""Compare and select kernels (docs/semantics.md "Vector compute").
"""
include "engine.pxi"


ctypedef fused Number:          # the lanes C can compare directly, and double for the narrow floats
    int8_t
    uint8_t
    int16_t
    uint16_t
    int32_t
    uint32_t
    int64_t
    uint64_t
    float
    double


cdef inline bint compare_numbers(Number a, Number b, bint is_eq, bint is_ne, bint is_lt, bint is_le,
                                 bint is_gt) noexcept nogil:
    """a CC b as C compares numbers: NaN is false except for ne, -0 == +0; no branch."""
    if is_eq:
        return a == b
    if is_ne:
        return a != b
    if is_lt:
        return a < b
    if is_le:
        return a <= b
    if is_gt:
        return a > b
    return a >= b


cdef inline bint compare(Lane a, Lane b, bint is_eq, bint is_ne, bint is_lt, bint is_le, bint is_gt) noexcept nogil:
    """vcmp.CC on one lane: values compared (narrow floats widened to double exactly first)."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return compare_numbers(lane_value(a), lane_value(b), is_eq, is_ne, is_lt, is_le, is_gt)
    else:
        return compare_numbers(a, b, is_eq, is_ne, is_lt, is_le, is_gt)


# vcmp.CC pD, vA.T, vB.T, pM  -- bit i*W set for active lanes where the comparison holds;
# vcmps.CC pD, vA.T, X.T, pM  -- against X in every lane
cdef inline int k_vcmp(Machine* m, const Ins* ins, const Args_vcmp* a, vcmp_T* t, vcmp_sub* op,
                       vcmp_src* src) noexcept nogil:
    cdef const vcmp_T* x = <const vcmp_T*>vreg(m, a.vA)
    cdef vcmp_T scalar
    cdef const vcmp_T* y = second_operand(m, a.vB, &a.x, &scalar, src)
    cdef uint8_t verdicts[VL]
    cdef int64_t i
    for i in range(VL // sizeof(vcmp_T)):
        set_verdict(verdicts, i, compare(x[i], y[at(i, src)], vcmp_sub is Op_eq, vcmp_sub is Op_ne,
                                         vcmp_sub is Op_lt, vcmp_sub is Op_le, vcmp_sub is Op_gt), sizeof(vcmp_T))
    return verdicts_into_mask(m, a.pD, a.pM, verdicts, sizeof(vcmp_T))


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


include "dispatch_compare.pxi"      # generated: this module's kernels in the KERNELS table
