"""Kernels of the scalar registers, branches, hardware loops, mask registers and special registers
(docs/semantics.md "Scalars", "Masks and address registers", "Hardware loops", "Scalar registers
holding floats").
"""
include "engine.pxi"
include "lane_math.pxi"
from libc.math cimport ldexp


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
    end_hazard_window(m)
    return STOP_RUNNING


# halt
cdef inline int k_halt(Machine* m, const Ins* ins, const Args_halt* a) noexcept nogil:
    return STOP_HALTED


cdef inline void write_mask_lanes(Machine* m, int64_t p, int64_t width, int64_t count, int64_t step) noexcept nogil:
    """Set bit i*width for i = 0, step, 2*step, ... below count (at most the lane count); clear the rest."""
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t i = 0, w, below
    cdef int64_t lanes = VL // width
    if count > lanes:
        count = lanes
    if step == 1:                               # a prefix (mask.upd, most patterns): per word, not per lane
        for w in range(MASK_WORDS):
            below = count * width - 64 * w      # the bits of this word below the prefix's end
            words[w] = stride_bits(width) & (0 if below <= 0 else (~(<uint64_t>0) if below >= 64
                                                                   else (ONE << below) - 1))
        set_mask(m, p, words)
        return
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


# iter aD.bW, sI, X  -- aD = sI * X * W bytes, modulo 2^32 (X an immediate or a scalar register)
cdef inline int k_iter_scaled(Machine* m, const Ins* ins, const Args_iter_scaled* a) noexcept nogil:
    m.areg[a.aD] = <uint32_t>(<uint64_t>m.sreg[a.sI] * <uint64_t>sval(&a.x) * <uint64_t>ins.tw)
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


# Hardware loops and the address register they feed (docs/semantics.md "Hardware loops").
# m.hwloop holds NUM_LOOPS rows of (index, count), innermost first; a level no loop occupies is (0, 0).
# The loader pairs each vloop with its endloop (ins.partner) and the assembler keeps branches from
# crossing a loop's boundary, so the levels follow the program's nesting.

cdef inline void shift_loops_out(Machine* m) noexcept nogil:
    """Entering a loop: every active loop moves one level out (the outermost of four would drop off,
    which the loader's nesting check rules out)."""
    memmove(&m.hwloop[2], &m.hwloop[0], (NUM_LOOPS - 1) * 2 * sizeof(int64_t))


cdef inline void shift_loops_in(Machine* m) noexcept nogil:
    """Leaving the innermost loop: the enclosing loops move one level in; the outermost level is free."""
    memmove(&m.hwloop[0], &m.hwloop[2], (NUM_LOOPS - 1) * 2 * sizeof(int64_t))
    m.hwloop[2 * (NUM_LOOPS - 1) + LOOP_INDEX] = 0
    m.hwloop[2 * (NUM_LOOPS - 1) + LOOP_COUNT] = 0


# vloop X  -- the count read once, 0..65535; 0 skips the body (to the row after the matching endloop)
cdef inline int k_loop(Machine* m, const Ins* ins, const Args_loop* a) noexcept nogil:
    cdef int64_t count = sval(&a.x)
    if count < 0 or count > MAX_LOOP_COUNT:
        return fault(m, STOP_LOOP_COUNT, count, MAX_LOOP_COUNT)
    if count == 0:
        m.next = m.code + ins.partner + 1
        return STOP_RUNNING
    shift_loops_out(m)
    m.hwloop[LOOP_INDEX] = 0
    m.hwloop[LOOP_COUNT] = count
    m.next = ins + 1
    return STOP_RUNNING


# endloop  -- the innermost loop's index + 1: below its count, back to the first row of the body
cdef inline int k_endloop(Machine* m, const Ins* ins, const Args_endloop* a) noexcept nogil:
    cdef int64_t index = m.hwloop[LOOP_INDEX] + 1
    if index < m.hwloop[LOOP_COUNT]:
        m.hwloop[LOOP_INDEX] = index
        m.next = m.code + ins.partner + 1
        return STOP_RUNNING
    shift_loops_in(m)
    m.next = ins + 1
    return STOP_RUNNING


# vag aD.bW, X0, [X1], [X2], [X3]  -- aD = (lidx0*X0 + lidx1*X1 + lidx2*X2 + lidx3*X3) * W bytes, modulo 2^32
cdef inline int k_iter_loops(Machine* m, const Ins* ins, const Args_iter_loops* a) noexcept nogil:
    cdef const int64_t* loop = m.hwloop
    cdef uint64_t elements = (<uint64_t>loop[0] * <uint64_t>sval(&a.x0) + <uint64_t>loop[2] * <uint64_t>sval(&a.x1)
                              + <uint64_t>loop[4] * <uint64_t>sval(&a.x2) + <uint64_t>loop[6] * <uint64_t>sval(&a.x3))
    m.areg[a.aD] = <uint32_t>(elements * <uint64_t>ins.tw)
    return STOP_RUNNING


# Scalar registers holding a float's bits (docs/semantics.md "Scalar registers holding floats").
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


# fcvt.trunc sD.T, sA.U  -- toward zero, saturated to T's range, NaN 0 (C's float-to-integer conversion);
# sD holds the integer sign-extended (signed T) or zero-extended
cdef inline int k_scalar_ftoi(Machine* m, const Ins* ins, const Args_scalar_ftoi* a, scalar_ftoi_T* t,
                              scalar_ftoi_U* u) noexcept nogil:
    cdef double x = lane_value(lane_of_bits(<uint64_t>m.sreg[a.sA], <scalar_ftoi_U*>NULL))
    cdef bint is_signed = <scalar_ftoi_T>(-1) < 0
    cdef int bits = 8 * sizeof(scalar_ftoi_T)
    cdef double beyond = ldexp(1.0, bits - 1 if is_signed else bits)     # the first value above T's range
    cdef uint64_t top = (<uint64_t>1 << (bits - 1)) - 1 if is_signed else <uint64_t>(<scalar_ftoi_T>(-1))
    cdef int64_t result
    if x != x:
        result = 0
    elif x >= beyond:
        result = <int64_t>top
    elif x < 0 and not is_signed:
        result = 0                              # (-1, 0) truncates to 0; below it saturates to 0
    elif x < -beyond:
        result = -<int64_t>top - 1
    elif is_signed:
        result = <int64_t>x                     # C's conversion truncates toward zero
    else:
        result = <int64_t><uint64_t>x
    m.sreg[a.sD] = result
    return STOP_RUNNING


# fcmp.eq|ne|lt|le|gt|ge sD, sA.T, X.T  -- 1 or 0; IEEE comparison (NaN unordered, -0 == +0)
cdef inline int k_scalar_fcmp(Machine* m, const Ins* ins, const Args_scalar_fcmp* a, scalar_fcmp_T* t,
                              scalar_fcmp_sub* op) noexcept nogil:
    cdef double x = lane_value(lane_of_bits(<uint64_t>m.sreg[a.sA], <scalar_fcmp_T*>NULL))
    cdef double y = lane_value(tval(&a.x, <scalar_fcmp_T*>NULL))
    cdef bint holds
    if scalar_fcmp_sub is Op_eq:
        holds = x == y
    elif scalar_fcmp_sub is Op_ne:
        holds = x != y
    elif scalar_fcmp_sub is Op_lt:
        holds = x < y
    elif scalar_fcmp_sub is Op_le:
        holds = x <= y
    elif scalar_fcmp_sub is Op_gt:
        holds = x > y
    else:
        holds = x >= y
    m.sreg[a.sD] = holds
    return STOP_RUNNING


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
    cdef int64_t n = sval(&a.block)             # a register's block is known only now
    cdef uint64_t words[MASK_WORDS]
    cdef const uint8_t* block
    cdef int64_t k, j
    if n < 0 or n >= blocks:
        return fault(m, STOP_BAD_COUNT, n, blocks - 1)
    block = vreg(m, a.vS) + n * block_bytes
    memset(words, 0, MASK_BYTES)
    for k in range(8 * block_bytes):
        if (block[k >> 3] >> (k & 7)) & 1:
            j = k * width                       # width 2 or 4 divides 64: the run stays in one word
            words[j >> 6] |= ((ONE << width) - 1) << (j & 63)
    set_mask(m, a.pD, words)
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


include "dispatch_control.pxi"      # generated: this module's kernels in the KERNELS table
