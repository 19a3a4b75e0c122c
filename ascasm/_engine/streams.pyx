"""Squeeze, the special registers AR and SQZN, unaligned load and store streams and block loads
(docs/semantics.md "Squeeze and unaligned store streams"). An unaligned store register u holds the
bytes of a stream's last incomplete 32-byte block: how many (ureg_state[u][UREG_PENDING]), the UB
address they belong at (ureg_state[u][UREG_ADDR]) and the bytes themselves (ureg[u]).
"""
include "engine.pxi"


ascasm_squeeze_init()                          # vsqz's shuffle tables (squeeze.h), filled once at load


# vsqz|vsqz.st vD.T, vS.T, pM  -- the active lanes in order -> the lowest lanes, the rest 0; .st: SQZN
cdef inline int k_vsqz(Machine* m, const Ins* ins, const Args_vsqz* a, vsqz_TW* t, vsqz_sub* op) noexcept nogil:
    cdef uint8_t aside[VL]
    cdef uint8_t* packed = vreg(m, a.vD)
    cdef int64_t n
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    if a.vD == a.vS:                           # pack aside, then copy
        packed = aside
    n = ascasm_squeeze(vreg(m, a.vS), &m.preg[a.pM * MASK_WORDS], sizeof(vsqz_TW), packed)   # squeeze.h
    if packed == aside:
        memcpy(vreg(m, a.vD), aside, VL)
    if vsqz_sub is Op_status:
        m.spr[SPR_SQZN] = n
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
    """Append the first `size` bytes of `data` (a vector register: lanes of `width` bytes) at addr to the
    stream of u: the pending bytes and the new ones are one run from the pending address (or addr, when
    nothing is pending); every 32-byte block the run completes is written, the bytes of its last
    incomplete block stay pending. Checks, in order: addr aligned to an element, addr continuing the
    pending bytes, the appended bytes inside the UB, the hazards of the bytes written now."""
    cdef int64_t* state = &m.ureg_state[u * 2]
    cdef uint8_t* held = m.ureg + u * UREG_BYTES
    cdef int64_t pending = state[UREG_PENDING]
    cdef int64_t start, end, commit, held_size, k
    cdef uint64_t block
    cdef int32_t* write_row
    cdef bint blockwise
    cdef uint8_t run[UREG_BYTES + VL + UREG_BYTES]     # the pending bytes, the new ones, then zeros
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
    # the usual case, a run from a block without --strict: each block is scanned as it is written, in one
    # loop (a loop's exit mispredicts once per run); otherwise every byte is scanned before any is written
    blockwise = start & (BLOCK - 1) == 0 and not m.strict
    if commit > start and not blockwise:
        scan_hazard(m, start, commit - start)
        status = hazard_verdict(m)
        if status:
            return status
    # fixed-size copies (a few vector moves each, where a variable size calls the C library)
    memcpy(run, held, UREG_BYTES)
    memcpy(run + pending, data, VL)
    memset(run + (end - start), 0, UREG_BYTES)
    if commit > start:
        if blockwise:
            write_row = m.ub_write_row
            for k in range((commit - start) // BLOCK):
                block = <uint64_t>start // BLOCK + k
                if m.ub_dirty[block]:
                    scan_block(m, block, 0xFFFFFFFFU)
                memcpy(m.ub + start + k * BLOCK, run + k * BLOCK, BLOCK)
                book_block(m, write_row, block)
        else:
            memcpy(m.ub + start, run, commit - start)
            wrote(m, start, commit - start)
        if pending:
            held_size = (addr if addr < commit else commit) - start
            log_span(m, 1, start, held_size, 1, held_size, -1, u_operand, -1)
        if commit > addr:
            if m.log != NULL:                  # (its arguments cost a division)
                log_span(m, 1, addr, width, (commit - addr) // width, width, 0, data_operand, -1)
    memcpy(held, run + (commit - start), UREG_BYTES)    # the residue, then zeros
    state[UREG_PENDING] = end - commit
    state[UREG_ADDR] = commit if end > commit else 0
    return STOP_RUNNING


# vstus [addr], uS, vS.T, X  -- the low X lanes of vS appended to the stream of uS at addr
cdef inline int k_vstus(Machine* m, const Ins* ins, const Args_vstus* a, vstus_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vstus_TW)
    cdef int64_t count = sval(&a.x)
    if count < 0 or count > VL // width:
        return fault(m, STOP_BAD_COUNT, count, VL // width)
    return stream_append(m, a.uS, address(&a.addr), vreg(m, a.vS), count * width, width, POS_vstus_vS, POS_vstus_uS)


# vstus.pu [sB], uS, pS.T  -- element i's bit of pS (bit i*W) packed: 256/W bits appended to the stream at
# sB; then sB += 32/W bytes
cdef inline int k_vstus_mask(Machine* m, const Ins* ins, const Args_vstus_mask* a, vstus_mask_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vstus_mask_TW)
    cdef int64_t size = BLOCK // width
    cdef int64_t addr = m.sreg[a.sb]
    cdef int64_t i
    cdef uint8_t packed[VL]                     # stream_append reads a register's worth
    cdef int status = check_mask(m, a.pS)
    if status:
        return status
    memset(packed, 0, VL)
    for i in range(VL // width):
        packed[i >> 3] |= (<uint8_t>mask_bit(m, a.pS, i * width)) << (i & 7)
    status = stream_append(m, a.uS, addr, packed, size, size, POS_vstus_mask_pS, POS_vstus_mask_uS)
    if status == STOP_RUNNING:
        m.sreg[a.sb] = <int64_t>(<uint64_t>addr + <uint64_t>size)
    return status


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


# --- unaligned load streams: a load alignment register q holds one 32-byte UB block (qreg[q]) and the
# stream position it was loaded for (qreg_state[q]: set flag, position) ---

cdef inline int check_load_stream(Machine* m, int64_t q, int64_t addr, int64_t width) noexcept nogil:
    cdef const int64_t* state = &m.qreg_state[q * 2]
    if not state[QREG_SET]:
        return fault(m, STOP_ALIGN_UNSET, q)
    if addr != state[QREG_POS]:
        return fault(m, STOP_ALIGN_BREAK, q, addr, state[QREG_POS])
    return check_align(m, addr, width)


cdef inline int load_block(Machine* m, int64_t q, int64_t position, int64_t start) noexcept nogil:
    """Checks of q's refill for a stream at `position`: the block holding it, when it is not aligned,
    part of the whole read of the vector at `start` (a refill for the next vector is read with this one:
    past a buffer's end when the stream ends there)."""
    if position & (BLOCK - 1):
        return check_whole_read(m, start, position & ~(<int64_t>(BLOCK - 1)), BLOCK)
    return STOP_RUNNING


cdef inline void hold_block(Machine* m, int64_t q, int64_t position, int64_t operand) noexcept nogil:
    """q := the (checked) block holding `position` (zero when position is aligned: no head to supply)."""
    cdef int64_t block = position & ~(<int64_t>(BLOCK - 1))
    if position & (BLOCK - 1):
        memcpy(m.qreg + q * BLOCK, m.ub + block, BLOCK)
        log_span(m, 0, block, BLOCK, 1, BLOCK, -1, operand, -1)
    else:
        memset(m.qreg + q * BLOCK, 0, BLOCK)
    m.qreg_state[q * 2 + QREG_SET] = 1
    m.qreg_state[q * 2 + QREG_POS] = position


cdef inline int load_unaligned(Machine* m, const Ins* ins, int64_t q, int64_t vd, int64_t addr, int64_t width,
                               int64_t advance, int64_t vd_operand, int64_t q_operand) noexcept nogil:
    """vD = the 256 bytes from addr: those below the next 32-byte boundary from q's block, the rest from
    the UB; then q holds the block of the next position, addr + advance. Checks first: q set, addr its
    position, addr aligned to an element, the bytes read inside the UB, their hazards."""
    cdef int64_t head = (BLOCK - (addr & (BLOCK - 1))) & (BLOCK - 1)    # bytes [addr, ceil32(addr)) from q
    cdef int64_t next_position
    cdef uint8_t loaded[VL]
    cdef int status = check_load_stream(m, q, addr, width)
    if status:
        return status
    next_position = <int64_t>(<uint64_t>addr + <uint64_t>advance)
    status = check_whole_read(m, addr, addr + head, VL - head) or load_block(m, q, next_position, addr)
    if status:
        return status
    scan_hazard(m, addr + head, VL - head)
    if next_position & (BLOCK - 1):
        scan_hazard(m, next_position & ~(<int64_t>(BLOCK - 1)), BLOCK)
    status = hazard_verdict(m)
    if status:
        return status
    memcpy(loaded, m.qreg + q * BLOCK + (addr & (BLOCK - 1)), head)
    memcpy(loaded + head, m.ub + addr + head, VL - head)
    memcpy(vreg(m, vd), loaded, VL)
    if m.log != NULL:                  # (its arguments cost a division)
        log_span(m, 0, addr + head, width, (VL - head) // width, width, head // width, vd_operand, -1)
    hold_block(m, q, next_position, q_operand)
    return STOP_RUNNING


# vldas qL, [addr]  -- start an unaligned load stream at addr: qL holds the block of addr
cdef inline int k_vldas(Machine* m, const Ins* ins, const Args_vldas* a) noexcept nogil:
    cdef int64_t addr = address(&a.addr)
    cdef int status = check_range(m, addr, 0, -1, -1) or load_block(m, a.qL, addr, addr)
    if status:
        return status
    if addr & (BLOCK - 1):
        scan_hazard(m, addr & ~(<int64_t>(BLOCK - 1)), BLOCK)
        status = hazard_verdict(m)
        if status:
            return status
    hold_block(m, a.qL, addr, POS_vldas_qL)
    return STOP_RUNNING


# vldus vD.T, qL, [addr]  -- the 256 bytes from addr (unaligned); qL then holds the block of addr + 256
cdef inline int k_vldus(Machine* m, const Ins* ins, const Args_vldus* a, vldus_TW* t) noexcept nogil:
    return load_unaligned(m, ins, a.qL, a.vD, address(&a.addr), sizeof(vldus_TW), VL, POS_vldus_vD, POS_vldus_qL)


# vldus.pu vD.T, qL, [sB], X  -- the same at the address in sB; then sB (and the stream) advance X elements
cdef inline int k_vldus_post(Machine* m, const Ins* ins, const Args_vldus_post* a, vldus_post_TW* t) noexcept nogil:
    cdef int64_t advance = <int64_t>(<uint64_t>sval(&a.x) * sizeof(vldus_post_TW))
    cdef int status = load_unaligned(m, ins, a.qL, a.vD, m.sreg[a.sb], sizeof(vldus_post_TW), advance,
                                     POS_vldus_post_vD, POS_vldus_post_qL)
    if status == STOP_RUNNING:
        m.sreg[a.sb] = <int64_t>(<uint64_t>m.sreg[a.sb] + <uint64_t>advance)
    return status


# --- asc_load / asc_store: a whole vector at any element-aligned address (the C API's wrappers around
# an unaligned stream, here one access) ---

# vldu vD.T, [addr]  -- the 256 bytes at addr, element-aligned
cdef inline int k_vldu(Machine* m, const Ins* ins, const Args_vldu* a, vldu_TW* t) noexcept nogil:
    cdef int64_t addr
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    memcpy(vreg(m, a.vD), m.ub + addr, VL)
    log_span(m, 0, addr, sizeof(vldu_TW), VL // sizeof(vldu_TW), sizeof(vldu_TW), 0, POS_vldu_vD, -1)
    return STOP_RUNNING


cdef inline int store_lanes(Machine* m, const Ins* ins, int64_t addr, int64_t vs, int64_t count, int64_t width,
                            int64_t operand) noexcept nogil:
    """The low `count` lanes of vS at addr (element-aligned): checks, then the bytes."""
    cdef int status = check_span(m, addr, width, count * width)
    if status:
        return status
    memcpy(m.ub + addr, vreg(m, vs), count * width)
    wrote(m, addr, count * width)
    log_span(m, 1, addr, width, count, width, 0, operand, -1)
    return STOP_RUNNING


# vstu [addr], vS.T  -- all lanes of vS at addr, element-aligned
cdef inline int k_vstu(Machine* m, const Ins* ins, const Args_vstu* a, vstu_TW* t) noexcept nogil:
    return store_lanes(m, ins, address(&a.addr), a.vS, VL // sizeof(vstu_TW), sizeof(vstu_TW), POS_vstu_vS)


# vstu [addr], vS.T, X  -- the low X lanes (1..256/W) of vS at addr, element-aligned
cdef inline int k_vstu_count(Machine* m, const Ins* ins, const Args_vstu_count* a, vstu_count_TW* t) noexcept nogil:
    cdef int64_t count = sval(&a.x)
    if count < 1 or count > VL // sizeof(vstu_count_TW):
        return fault(m, STOP_BAD_COUNT, count, VL // sizeof(vstu_count_TW))
    return store_lanes(m, ins, address(&a.addr), a.vS, count, sizeof(vstu_count_TW), POS_vstu_count_vS)


# --- the block broadcast and unpack4 loads (asc_loadalign_brc_datablock, _brc_elem2datablock, _unpack4) ---

# vld.blk vD.T, [addr]  -- one 32-byte block, 8 times over
cdef inline int k_vld_blk(Machine* m, const Ins* ins, const Args_vld_blk* a) noexcept nogil:
    cdef uint8_t* dst = vreg(m, a.vD)
    cdef int64_t addr, k
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    for k in range(VL // BLOCK):
        memcpy(dst + k * BLOCK, m.ub + addr, BLOCK)
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_blk_vD, -1)
    return STOP_RUNNING


# vld.e2b vD.T, [addr]  -- 8 elements; element k fills block k
cdef inline int k_vld_e2b(Machine* m, const Ins* ins, const Args_vld_e2b* a, vld_e2b_TW* t) noexcept nogil:
    cdef vld_e2b_TW* dst = <vld_e2b_TW*>vreg(m, a.vD)
    cdef int64_t per_block = BLOCK // sizeof(vld_e2b_TW)
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    for i in range(VL // sizeof(vld_e2b_TW)):
        dst[i] = (<const vld_e2b_TW*>(m.ub + addr))[i // per_block]
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_e2b_vD, -1)
    return STOP_RUNNING


# vld.unpk4 vD.T, [addr]  -- 64 bytes, each zero-extended into a 32-bit lane
cdef inline int k_vld_unpk4(Machine* m, const Ins* ins, const Args_vld_unpk4* a) noexcept nogil:
    cdef uint32_t* dst = <uint32_t*>vreg(m, a.vD)
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    for i in range(VL // 4):
        dst[i] = m.ub[addr + i]
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_unpk4_vD, -1)
    return STOP_RUNNING


# vgatb vD.T, [base], vI.U, pM  -- asc_gather_datablock: block k = the 32 bytes at base + vI[k] (bytes)
# when bit 4k of pM (its b32 lane k) is set, whatever T (the Reg page); a block whose bit is clear is 0
cdef inline int k_vgatb(Machine* m, const Ins* ins, const Args_vgatb* a, vgatb_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vgatb_TW)
    cdef uint32_t offsets[VECTOR_BLOCKS]     # vD may be vI: the offsets are read first
    cdef int64_t base = address(&a.base)
    cdef int64_t block_addr[VECTOR_BLOCKS]
    cdef uint32_t active[VECTOR_BLOCKS]      # per block: all its lanes' bits, or none
    cdef uint8_t gathered[VL]
    cdef int64_t k
    cdef int status = check_mask(m, a.pM) or check_align(m, base, BLOCK)
    if status:
        return status
    memcpy(offsets, vreg(m, a.vI), sizeof(offsets))
    for k in range(VECTOR_BLOCKS):
        active[k] = <uint32_t>stride_bits(width) if mask_bit(m, a.pM, 4 * k) else 0
        block_addr[k] = <int64_t>(<uint64_t>base + offsets[k])
    status = check_blocks(m, block_addr, active, width, offsets)
    if status:
        return status
    memset(gathered, 0, VL)
    for k in range(VECTOR_BLOCKS):
        if active[k]:
            memcpy(gathered + k * BLOCK, m.ub + block_addr[k], BLOCK)
    memcpy(vreg(m, a.vD), gathered, VL)
    if m.log != NULL:
        for k in range(VECTOR_BLOCKS):
            if active[k]:
                log_span(m, 0, block_addr[k], BLOCK, 1, BLOCK, k * BLOCK // width, POS_vgatb_vD, offsets[k])
    return STOP_RUNNING

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


include "dispatch_streams.pxi"      # generated: this module's kernels in the KERNELS table
