# The flush of an unaligned store stream with post-update (issue 11; asc_storeunalign_post_postupdate,
# docs/semantics.md "asc_storeunalign_post_postupdate"): vstas at the stream's end address, sB + X
# elements of T, then sB moves there.

# vstas.pu [sB], uS.T, X  -- flush the bytes pending in uS, which must end at sB + X*W; then sB += X*W
cdef inline int k_vstas_post(Machine* m, const Ins* ins, const Args_vstas_post* a) noexcept nogil:
    cdef int64_t start = m.sreg[a.sb]
    cdef int64_t end = <int64_t>(<uint64_t>start + <uint64_t>sval(&a.x) * <uint64_t>ins.tw)
    cdef Args_vstas flush
    cdef int status = check_align(m, start, ins.tw)       # the page: dst aligned to sizeof(T)
    if status:
        return status
    flush.uS = a.uS
    flush.addr.offset = end
    flush.addr.s0 = &m.zero64
    flush.addr.s1 = &m.zero64
    flush.addr.a = &m.zero32
    status = k_vstas(m, ins, &flush, <Op_plain*>NULL)
    if status == STOP_RUNNING:
        m.sreg[a.sb] = end
    return status
