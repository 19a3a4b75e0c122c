# Squeeze, the special registers AR and SQZN, and unaligned store streams (issue 11; included by
# core.pyx; docs/semantics.md "Squeeze and unaligned store streams"). An unaligned store register u
# holds the bytes of a stream's last incomplete 32-byte block: how many (ureg_state[u][UREG_PENDING]),
# the UB address they belong at (ureg_state[u][UREG_ADDR]) and the bytes themselves (ureg[u]).


# vsqz|vsqz.st vD.T, vS.T, pM  -- the active lanes in order -> the lowest lanes, the rest 0; .st: SQZN
cdef inline int k_vsqz(Machine* m, const Ins* ins, const Args_vsqz* a, vsqz_TW* t, vsqz_sub* op) noexcept nogil:
    cdef int64_t width = sizeof(vsqz_TW)
    cdef const vsqz_TW* src = <const vsqz_TW*>vreg(m, a.vS)
    cdef uint8_t packed[VL]                    # vD may be vS: pack aside, then copy
    cdef uint64_t bits
    cdef int64_t w, n = 0
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    memset(packed, 0, VL)
    for w in range(MASK_WORDS):                # only the active lanes are visited
        bits = mask_word(m, a.pM, w) & stride_bits(width)
        while bits:
            (<vsqz_TW*>packed)[n] = src[(64 * w + __builtin_ctzll(bits)) // width]
            bits &= bits - 1
            n += 1
    memcpy(vreg(m, a.vD), packed, VL)
    if vsqz_sub is Op_status:
        m.spr[SPR_SQZN] = n * width
        m.spr[SPR_SQZN_SET] = 1
    return STOP_RUNNING


# vusqz vD.T, pM  -- lane i = the number of active lanes below i
cdef inline int k_vusqz(Machine* m, const Ins* ins, const Args_vusqz* a, vusqz_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vusqz_TW)
    cdef vusqz_TW* dst = <vusqz_TW*>vreg(m, a.vD)
    cdef int64_t i, count = 0
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // width):
        dst[i] = <vusqz_TW>count
        count += mask_bit(m, a.pM, i * width)
    return STOP_RUNNING


# sprclr.ar  -- AR = 0
cdef inline int k_spr_clear(Machine* m, const Ins* ins, const Args_spr_clear* a) noexcept nogil:
    m.spr[SPR_AR] = 0
    return STOP_RUNNING


cdef inline int stream_append(Machine* m, int64_t u, int64_t addr, const uint8_t* data, int64_t size,
                              int64_t width, int64_t data_operand, int64_t u_operand) noexcept nogil:
    """Append `size` bytes of `data` (lanes of `width` bytes) at addr to the stream of u: the pending
    bytes and the new ones are one run from the pending address (or addr, when nothing is pending);
    every 32-byte block the run completes is written, the bytes of its last incomplete block stay
    pending. Checks, in order: addr aligned to an element, addr continuing the pending bytes, the
    appended bytes inside the UB, the hazards of the bytes written now."""
    cdef int64_t* state = &m.ureg_state[u * 2]
    cdef uint8_t* held = m.ureg + u * UREG_BYTES
    cdef int64_t pending = state[UREG_PENDING]
    cdef int64_t start, end, commit, residue, held_size
    cdef uint8_t run[UREG_BYTES + VL]
    cdef int status = check_align(m, addr, width)
    if status:
        return status
    if pending and addr != state[UREG_ADDR] + pending:
        return fault(m, STOP_STREAM_BREAK, u, addr, state[UREG_ADDR], pending)
    status = check_range(m, addr, size, -1, -1)
    if status:
        return status
    start = state[UREG_ADDR] if pending else addr
    end = addr + size                           # both in the UB now: no overflow
    commit = end & ~(<int64_t>(BLOCK - 1))      # the end of the last block the run completes
    if commit < start:
        commit = start
    if commit > start:
        scan_hazard(m, start, commit - start)
        status = hazard_verdict(m)
        if status:
            return status
    memcpy(run, held, pending)
    memcpy(run + pending, data, size)
    if commit > start:
        memcpy(m.ub + start, run, commit - start)
        wrote(m, start, commit - start)
        if pending:
            held_size = (addr if addr < commit else commit) - start
            log_span(m, 1, start, held_size, 1, held_size, -1, u_operand, -1)
        if commit > addr:
            log_span(m, 1, addr, width, (commit - addr) // width, width, 0, data_operand, -1)
    residue = end - commit
    memset(held, 0, UREG_BYTES)
    memcpy(held, run + (commit - start), residue)
    state[UREG_PENDING] = residue
    state[UREG_ADDR] = commit if residue else 0
    return STOP_RUNNING


# vstus [addr], uS, vS.T, X  -- the low X lanes of vS appended to the stream of uS at addr
cdef inline int k_vstus(Machine* m, const Ins* ins, const Args_vstus* a, vstus_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vstus_TW)
    cdef int64_t count = sval(&a.x)
    if count < 0 or count > VL // width:
        return fault(m, STOP_BAD_COUNT, count, VL // width)
    return stream_append(m, a.uS, address(&a.addr), vreg(m, a.vS), count * width, width, POS_vstus_vS, POS_vstus_uS)


# vstur [base], uS, vS.T  -- the low SQZN bytes of vS appended at base + AR; then AR += SQZN
cdef inline int k_vstur(Machine* m, const Ins* ins, const Args_vstur* a, vstur_TW* t) noexcept nogil:
    cdef int64_t size = m.spr[SPR_SQZN]
    cdef int64_t addr
    cdef int status
    if not m.spr[SPR_SQZN_SET]:
        return fault(m, STOP_SPR_UNSET, SPR_SQZN)
    addr = <int64_t>(<uint64_t>address(&a.base) + <uint64_t>m.spr[SPR_AR])
    status = stream_append(m, a.uS, addr, vreg(m, a.vS), size, sizeof(vstur_TW), POS_vstur_vS, POS_vstur_uS)
    if status:
        return status
    m.spr[SPR_AR] = <int64_t>(<uint64_t>m.spr[SPR_AR] + <uint64_t>size)
    return STOP_RUNNING


# vstas|vstar [addr], uS  -- flush: the pending bytes of uS, which must end at addr (vstar: addr + AR)
cdef inline int k_vstas(Machine* m, const Ins* ins, const Args_vstas* a, vstas_sub* op) noexcept nogil:
    cdef int64_t* state = &m.ureg_state[a.uS * 2]
    cdef int64_t pending = state[UREG_PENDING]
    cdef int64_t start = state[UREG_ADDR]
    cdef int64_t end = address(&a.addr)
    cdef int status
    if vstas_sub is Op_ar:
        end = <int64_t>(<uint64_t>end + <uint64_t>m.spr[SPR_AR])
    if pending == 0:
        return STOP_RUNNING                     # an empty stream: nothing to write
    if end != start + pending:
        return fault(m, STOP_STREAM_BREAK, a.uS, end, start, pending)
    status = check_span(m, start, 1, pending)
    if status:
        return status
    memcpy(m.ub + start, m.ureg + a.uS * UREG_BYTES, pending)
    wrote(m, start, pending)
    log_span(m, 1, start, pending, 1, pending, -1, POS_vstas_uS, -1)
    memset(m.ureg + a.uS * UREG_BYTES, 0, UREG_BYTES)
    state[UREG_PENDING] = 0
    state[UREG_ADDR] = 0
    return STOP_RUNNING
