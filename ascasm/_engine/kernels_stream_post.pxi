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


# --- asc_copy's mask forms (docs/semantics.md "asc_copy's mask forms") ---

# pmov pD, pS, pM  -- the bits of pS where pM is set, every other bit 0
cdef inline int k_mask_move_masked(Machine* m, const Ins* ins, const Args_mask_move_masked* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t w
    cdef int status = check_mask(m, a.pS) or check_mask(m, a.pM)
    if status:
        return status
    for w in range(MASK_WORDS):
        words[w] = mask_word(m, a.pS, w) & mask_word(m, a.pM, w)
    set_mask(m, a.pD, words)
    return STOP_RUNNING


# movvp pD, vS.T, BLOCK  -- block BLOCK of vS (MASK_BYTES / W bytes), each bit repeated W times
cdef inline int k_mask_from_vector(Machine* m, const Ins* ins, const Args_mask_from_vector* a) noexcept nogil:
    cdef int64_t width = ins.tw
    cdef int64_t block_bytes = MASK_BYTES // width
    cdef int64_t blocks = VL // block_bytes
    cdef uint64_t words[MASK_WORDS]
    cdef const uint8_t* block
    cdef int64_t k, j
    if a.block < 0 or a.block >= blocks:        # the assembler allows only 0..blocks-1; bytecode may not
        return fault(m, STOP_BAD_COUNT, a.block, blocks - 1)
    block = vreg(m, a.vS) + a.block * block_bytes
    memset(words, 0, MASK_BYTES)
    for k in range(8 * block_bytes):
        if (block[k >> 3] >> (k & 7)) & 1:
            j = k * width                       # width 2 or 4 divides 64: the run stays in one word
            words[j >> 6] |= ((ONE << width) - 1) << (j & 63)
    set_mask(m, a.pD, words)
    return STOP_RUNNING
