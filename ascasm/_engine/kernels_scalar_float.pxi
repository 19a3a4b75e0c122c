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
