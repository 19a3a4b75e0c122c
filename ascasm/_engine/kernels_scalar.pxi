# Scalar, control, mask-setup and mask-logic kernels (included by core.pyx; LANGUAGE.md §4 "Scalar and
# control", "Setup"; docs/semantics.md "Scalars", "Masks and address registers").

# mov sD, X
cdef inline int k_scalar_mov(Machine* m, const Ins* ins, const Args_scalar_mov* a) noexcept nogil:
    m.sreg[a.sD] = sval(&a.x)
    return STOP_RUNNING


# add|sub|mul|div|rem|and|or|xor|shl|shr sD, sA, X  -- 64-bit two's complement, wrapping
cdef inline int k_scalar_alu(Machine* m, const Ins* ins, const Args_scalar_alu* a, scalar_alu_sub* op) noexcept nogil:
    cdef int64_t x = m.sreg[a.sA]
    cdef int64_t y = sval(&a.x)
    cdef int64_t result
    if scalar_alu_sub is Op_add:
        result = <int64_t>(<uint64_t>x + <uint64_t>y)
    elif scalar_alu_sub is Op_sub:
        result = <int64_t>(<uint64_t>x - <uint64_t>y)
    elif scalar_alu_sub is Op_mul:
        result = <int64_t>(<uint64_t>x * <uint64_t>y)
    elif scalar_alu_sub is Op_div or scalar_alu_sub is Op_rem:
        if y == 0:
            return fault(m, STOP_DIV_ZERO)
        if y == -1:                     # INT64_MIN / -1 traps in C; it wraps to INT64_MIN, rem 0
            result = <int64_t>(<uint64_t>0 - <uint64_t>x) if scalar_alu_sub is Op_div else 0
        else:                           # cdivision: C truncation toward zero, remainder takes x's sign
            result = x // y if scalar_alu_sub is Op_div else x % y
    elif scalar_alu_sub is Op_and:
        result = x & y
    elif scalar_alu_sub is Op_or:
        result = x | y
    elif scalar_alu_sub is Op_xor:
        result = x ^ y
    elif scalar_alu_sub is Op_shl:
        result = <int64_t>(<uint64_t>x << (y & 63))
    else:                               # shr, arithmetic
        result = x >> (y & 63)
    m.sreg[a.sD] = result
    return STOP_RUNNING


# ld sD.T, [addr]  -- signed types sign-extend, the others zero-extend (float types: their bits)
cdef inline int k_scalar_load(Machine* m, const Ins* ins, const Args_scalar_load* a, scalar_load_T* t) noexcept nogil:
    cdef int64_t addr = address(&a.addr)
    cdef int status = check_span(m, addr, sizeof(scalar_load_T), sizeof(scalar_load_T))
    if status:
        return status
    if scalar_load_T is F16 or scalar_load_T is BF16 or scalar_load_T is E4M3 or scalar_load_T is E5M2 \
            or scalar_load_T is float:
        m.sreg[a.sD] = <int64_t>lane_bits((<scalar_load_T*>(m.ub + addr))[0])
    else:
        m.sreg[a.sD] = <int64_t>(<scalar_load_T*>(m.ub + addr))[0]
    log_span(m, 0, addr, sizeof(scalar_load_T), 1, sizeof(scalar_load_T), -1, POS_scalar_load_sD, -1)
    return STOP_RUNNING


# st [addr], sS.T  -- the low W bytes of sS
cdef inline int k_scalar_store(Machine* m, const Ins* ins, const Args_scalar_store* a, scalar_store_TW* t) noexcept nogil:
    cdef int64_t addr = address(&a.addr)
    cdef int status = check_span(m, addr, sizeof(scalar_store_TW), sizeof(scalar_store_TW))
    if status:
        return status
    (<scalar_store_TW*>(m.ub + addr))[0] = <scalar_store_TW>m.sreg[a.sS]
    wrote(m, addr, sizeof(scalar_store_TW))
    log_span(m, 1, addr, sizeof(scalar_store_TW), 1, sizeof(scalar_store_TW), -1, POS_scalar_store_sS, -1)
    return STOP_RUNNING


# b LABEL
cdef inline int k_branch(Machine* m, const Ins* ins, const Args_branch* a) noexcept nogil:
    m.next = m.code + a.label
    return STOP_RUNNING


# beq|bne|blt|ble|bgt|bge sA, X, LABEL  -- signed comparison
cdef inline int k_cond_branch(Machine* m, const Ins* ins, const Args_cond_branch* a, cond_branch_sub* op) noexcept nogil:
    cdef int64_t x = m.sreg[a.sA]
    cdef int64_t y = sval(&a.x)
    cdef bint taken
    if cond_branch_sub is Op_eq:
        taken = x == y
    elif cond_branch_sub is Op_ne:
        taken = x != y
    elif cond_branch_sub is Op_lt:
        taken = x < y
    elif cond_branch_sub is Op_le:
        taken = x <= y
    elif cond_branch_sub is Op_gt:
        taken = x > y
    else:
        taken = x >= y
    m.next = m.code + a.label if taken else ins + 1
    return STOP_RUNNING


# membar [KIND]  -- ascasm executes in order; the barrier ends the hazard window
cdef inline int k_membar(Machine* m, const Ins* ins, const Args_membar* a) noexcept nogil:
    cdef int64_t k
    for k in range(m.n_dirty):
        m.ub_dirty[m.dirty_blocks[k]] = 0
    m.n_dirty = 0
    return STOP_RUNNING


# halt
cdef inline int k_halt(Machine* m, const Ins* ins, const Args_halt* a) noexcept nogil:
    return STOP_HALTED


cdef inline void write_mask_lanes(Machine* m, int64_t p, int64_t width, int64_t count, int64_t step) noexcept nogil:
    """Set bit i*width for i = 0, step, 2*step, ... below count (at most the lane count); clear the rest."""
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t i = 0
    cdef int64_t lanes = VL // width
    if count > lanes:
        count = lanes
    memset(words, 0, MASK_BYTES)
    while i < count:
        words[(i * width) >> 6] |= ONE << ((i * width) & 63)
        i += step
    set_mask(m, p, words)


# mask pD.bW, PAT
cdef inline int k_mask_pattern(Machine* m, const Ins* ins, const Args_mask_pattern* a) noexcept nogil:
    cdef int64_t width = ins.tw
    cdef int64_t lanes = VL // width
    cdef int64_t count = lanes      # PAT_ALL
    cdef int64_t step = 1
    cdef int64_t pat = a.pat
    if PAT_VL1 <= pat <= PAT_VL4:
        count = pat
    elif PAT_VL8 <= pat <= PAT_VL128:
        count = 8 << (pat - PAT_VL8)
    elif pat == PAT_M3:
        step = 3
    elif pat == PAT_M4:
        step = 4
    elif pat == PAT_H:
        count = lanes // 2
    elif pat == PAT_Q:
        count = lanes // 4
    elif pat == PAT_ALLF:
        count = 0
    write_mask_lanes(m, a.pD, width, count, step)
    return STOP_RUNNING


# mask.upd pD.bW, sN  -- element i active iff i < sN; then sN = 0 if sN < lanes else sN - lanes
cdef inline int k_mask_update(Machine* m, const Ins* ins, const Args_mask_update* a) noexcept nogil:
    cdef int64_t width = ins.tw
    cdef int64_t lanes = VL // width
    cdef int64_t n = m.sreg[a.sN]
    write_mask_lanes(m, a.pD, width, n if n > 0 else 0, 1)
    m.sreg[a.sN] = 0 if n < lanes else n - lanes
    return STOP_RUNNING


# iter aD.bW, X  -- aD = X * W bytes, modulo 2^32
cdef inline int k_iter_set(Machine* m, const Ins* ins, const Args_iter_set* a) noexcept nogil:
    m.areg[a.aD] = <uint32_t>(<uint64_t>sval(&a.x) * <uint64_t>ins.tw)
    return STOP_RUNNING


# iter aD.bW, sI, STRIDE  -- aD = sI * STRIDE * W bytes, modulo 2^32
cdef inline int k_iter_scaled(Machine* m, const Ins* ins, const Args_iter_scaled* a) noexcept nogil:
    m.areg[a.aD] = <uint32_t>(<uint64_t>m.sreg[a.sI] * <uint64_t>a.stride * <uint64_t>ins.tw)
    return STOP_RUNNING


# pand|por|pxor pD, pA, pB, pG  -- all 256 bits, gated; masks read in operand order
cdef inline int k_mask_logic(Machine* m, const Ins* ins, const Args_mask_logic* a, mask_logic_sub* op) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef uint64_t x, y
    cdef int64_t w
    cdef int status = check_mask(m, a.pA) or check_mask(m, a.pB) or check_mask(m, a.pG)
    if status:
        return status
    for w in range(MASK_WORDS):
        x, y = mask_word(m, a.pA, w), mask_word(m, a.pB, w)
        if mask_logic_sub is Op_and:
            words[w] = x & y
        elif mask_logic_sub is Op_or:
            words[w] = x | y
        else:
            words[w] = x ^ y
        words[w] &= mask_word(m, a.pG, w)
    set_mask(m, a.pD, words)
    return STOP_RUNNING


# pnot pD, pS, pG
cdef inline int k_mask_not(Machine* m, const Ins* ins, const Args_mask_not* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t w
    cdef int status = check_mask(m, a.pS) or check_mask(m, a.pG)
    if status:
        return status
    for w in range(MASK_WORDS):
        words[w] = ~mask_word(m, a.pS, w) & mask_word(m, a.pG, w)
    set_mask(m, a.pD, words)
    return STOP_RUNNING


# pmov pD, pS
cdef inline int k_mask_move(Machine* m, const Ins* ins, const Args_mask_move* a) noexcept nogil:
    cdef int status = check_mask(m, a.pS)
    if status:
        return status
    set_mask(m, a.pD, &m.preg[a.pS * MASK_WORDS])
    return STOP_RUNNING


# pcnt sD, pM.bW  -- the number of lanes i < 256/W with bit i*W set
cdef inline int k_pcnt(Machine* m, const Ins* ins, const Args_pcnt* a) noexcept nogil:
    cdef uint64_t lanes_of_width = stride_bits(ins.tw)
    cdef int64_t w, count = 0
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for w in range(MASK_WORDS):
        count += __builtin_popcountll(mask_word(m, a.pM, w) & lanes_of_width)
    m.sreg[a.sD] = count
    return STOP_RUNNING
