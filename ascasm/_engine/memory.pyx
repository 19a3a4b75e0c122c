"""Load, store, gather and scatter kernels (docs/semantics.md "Addresses", "Loads", "Stores", "Gather
and scatter"). Sizes and alignments come from the row's access facts (ins.size, ins.align, ins.slot:
the ISA table's Access in bytes). Every access is checked (mask, alignment, range from lane 0 up, then
hazards) before the first write.
"""
include "engine.pxi"


# vld vD.T, [addr]  -- NORM: 256 contiguous bytes
cdef inline int k_vld_norm(Machine* m, const Ins* ins, const Args_vld_norm* a) noexcept nogil:
    cdef int64_t addr
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    memcpy(vreg(m, a.vD), m.ub + addr, VL)
    if m.log != NULL:                  # (its arguments cost a division)
        log_span(m, 0, addr, ins.tw, VL // ins.tw, ins.tw, 0, POS_vld_norm_vD, -1)
    return STOP_RUNNING


# vld.brc vD.T, [addr]  -- BRC: one element, broadcast to every lane
cdef inline int k_vld_brc(Machine* m, const Ins* ins, const Args_vld_brc* a, vld_brc_TW* t) noexcept nogil:
    cdef vld_brc_TW* dst = <vld_brc_TW*>vreg(m, a.vD)
    cdef vld_brc_TW element
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    element = (<vld_brc_TW*>(m.ub + addr))[0]
    for i in range(VL // sizeof(vld_brc_TW)):
        dst[i] = element
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_brc_vD, -1)
    return STOP_RUNNING


# vld.us vD.T, [addr]  -- US: 128 bytes; lanes 2i and 2i+1 = element i
cdef inline int k_vld_us(Machine* m, const Ins* ins, const Args_vld_us* a, vld_us_TW* t) noexcept nogil:
    cdef vld_us_TW* dst = <vld_us_TW*>vreg(m, a.vD)
    cdef const vld_us_TW* src
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    src = <const vld_us_TW*>(m.ub + addr)
    for i in range(VL // sizeof(vld_us_TW)):
        dst[i] = src[i >> 1]
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_us_vD, -1)
    return STOP_RUNNING


# vld.ds vD.T, [addr]  -- DS: 512 bytes; lane i = element 2i
cdef inline int k_vld_ds(Machine* m, const Ins* ins, const Args_vld_ds* a, vld_ds_TW* t) noexcept nogil:
    cdef vld_ds_TW* dst = <vld_ds_TW*>vreg(m, a.vD)
    cdef const vld_ds_TW* src
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    src = <const vld_ds_TW*>(m.ub + addr)
    for i in range(VL // sizeof(vld_ds_TW)):
        dst[i] = src[2 * i]
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_ds_vD, -1)
    return STOP_RUNNING


# vld.unpk vD.T, [addr]  -- UNPK: 128 bytes of T, each zero-extended to twice T's width
cdef inline int k_vld_unpk(Machine* m, const Ins* ins, const Args_vld_unpk* a, vld_unpk_TW* t) noexcept nogil:
    cdef uint8_t* dst = vreg(m, a.vD)
    cdef int64_t width = sizeof(vld_unpk_TW)
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    memset(dst, 0, VL)
    for i in range(VL // (2 * width)):
        (<vld_unpk_TW*>(dst + 2 * width * i))[0] = (<const vld_unpk_TW*>(m.ub + addr))[i]
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_unpk_vD, -1)
    return STOP_RUNNING


# vld.dintlv vD0.T, vD1.T, [addr]  -- DINTLV: 512 bytes; even elements -> vD0, then odd -> vD1
cdef inline int k_vld_dintlv(Machine* m, const Ins* ins, const Args_vld_dintlv* a, vld_dintlv_TW* t) noexcept nogil:
    cdef vld_dintlv_TW* even = <vld_dintlv_TW*>vreg(m, a.vD0)
    cdef vld_dintlv_TW* odd = <vld_dintlv_TW*>vreg(m, a.vD1)
    cdef const vld_dintlv_TW* src
    cdef int64_t addr, i
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    src = <const vld_dintlv_TW*>(m.ub + addr)
    for i in range(VL // sizeof(vld_dintlv_TW)):
        even[i] = src[2 * i]
    for i in range(VL // sizeof(vld_dintlv_TW)):       # last: vD1 wins when vD0 is vD1
        odd[i] = src[2 * i + 1]
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_vld_dintlv_vD0, -1)
    return STOP_RUNNING


cdef inline void pick_bits(uint64_t* words, const uint8_t* src, int64_t mul, int64_t shift) noexcept nogil:
    """words bit k = src bit (k * mul) >> shift, for the 256 bits of a mask: US (1, 1), DS and PACK (2, 0)."""
    cdef int64_t k, j
    memset(words, 0, MASK_BYTES)
    for k in range(VL):
        j = (k * mul) >> shift
        words[k >> 6] |= (<uint64_t>((src[j >> 3] >> (j & 7)) & 1)) << (k & 63)


# vld pD, [addr]  -- 32 bytes -> 256 bits
cdef inline int k_mask_load_norm(Machine* m, const Ins* ins, const Args_mask_load_norm* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t addr
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    memcpy(words, m.ub + addr, MASK_BYTES)
    set_mask(m, a.pD, words)
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_mask_load_norm_pD, -1)
    return STOP_RUNNING


# vld.us pD, [addr]  -- 16 bytes; bit j -> bits 2j and 2j+1
cdef inline int k_mask_load_us(Machine* m, const Ins* ins, const Args_mask_load_us* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t addr
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    pick_bits(words, m.ub + addr, 1, 1)
    set_mask(m, a.pD, words)
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_mask_load_us_pD, -1)
    return STOP_RUNNING


# vld.ds pD, [addr]  -- 64 bytes; bit 2j -> bit j
cdef inline int k_mask_load_ds(Machine* m, const Ins* ins, const Args_mask_load_ds* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef int64_t addr
    cdef int status = load_span(m, ins, &a.addr, &addr)
    if status:
        return status
    pick_bits(words, m.ub + addr, 2, 0)
    set_mask(m, a.pD, words)
    log_span(m, 0, addr, ins.size, 1, ins.size, -1, POS_mask_load_ds_pD, -1)
    return STOP_RUNNING


# --- gather and scatter: the lane pitch is the wider of the data and index widths (b8 data rides in
# 16-bit lanes), the mask is read at that pitch, index i is index lane i, and active lane i touches
# base + index * sizeof(data) ---

ctypedef fused IndexBits:
    uint16_t
    uint32_t
    uint64_t


cdef inline uint16_t next_stamp(Machine* m) noexcept nogil:
    """A stamp no byte of m.seen holds: an instruction's marks need no clearing afterwards."""
    m.seen_stamp += 1
    if m.seen_stamp == 0:                       # wrapped (once per 65,535 scatters): forget every mark
        memset(m.seen, 0, UB_BYTES * sizeof(uint16_t))
        m.seen_stamp = 1
    return m.seen_stamp


cdef inline uint64_t lane_pitch(ElementBits* data, IndexBits* index_type) noexcept nogil:
    """The bytes between lanes: the wider of the data and index widths."""
    return sizeof(ElementBits) if sizeof(ElementBits) > sizeof(IndexBits) else sizeof(IndexBits)


cdef inline uint64_t lane_address(int64_t base, const IndexBits* indices, int64_t i, ElementBits* data) noexcept nogil:
    """Lane i's element address, base + index * W, in wrapping 64-bit arithmetic (unchecked)."""
    return <uint64_t>base + <uint64_t>indices[i] * sizeof(ElementBits)


cdef inline int active_lanes(Machine* m, const Ins* ins, const Addr* base_operand, int64_t vi, int64_t pm,
                             ElementBits* data, IndexBits* index_type, int64_t* lane, int64_t* lane_addr,
                             int64_t* count) noexcept nogil:
    """Checks each active lane's element from lane 0 up (after the mask and the base alignment,
    indexed_checks). Lists the active lanes in order: lane[k] and its checked address, k < count."""
    cdef uint64_t pitch = lane_pitch(data, index_type)
    cdef int64_t base = address(base_operand)
    cdef const IndexBits* indices = <const IndexBits*>vreg(m, vi)
    cdef int64_t w, n = 0, addr, i
    cdef uint64_t bits
    cdef int64_t last = m.ub_usable - <int64_t>sizeof(ElementBits)    # the highest address in range
    for w in range(MASK_WORDS):
        bits = mask_word(m, pm, w) & stride_bits(pitch)
        while bits:
            i = <int64_t>((<uint64_t>(64 * w) + __builtin_ctzll(bits)) / pitch)
            bits &= bits - 1
            addr = <int64_t>lane_address(base, indices, i, data)
            if (<uint64_t>addr > <uint64_t>last or last < 0        # (unsigned: below 0 is above too)
                    or (m.n_regions and not in_regions(m, addr, sizeof(ElementBits)))):
                return check_range(m, addr, sizeof(ElementBits), i, <int64_t>indices[i])
            lane[n], lane_addr[n] = i, addr
            n += 1
    count[0] = n
    return STOP_RUNNING


cdef inline int indexed_checks(Machine* m, const Ins* ins, const Addr* base_operand, int64_t pm) noexcept nogil:
    """The checks of a gather or scatter before its lanes': the mask is set, the base aligned."""
    return check_mask(m, pm) or check_align(m, address(base_operand), ins.align)


cdef inline int lane_hazards(Machine* m, const int64_t* lane_addr, int64_t n, ElementBits* data,
                             int64_t* duplicate) noexcept nogil:
    """The hazards of the listed lanes' elements; with `duplicate` (vsct), also finds the first k whose
    address an earlier lane had (-1: none): each lane stamps its address in m.seen with this
    instruction's stamp. Reads only: for a check that must come before any write."""
    cdef uint16_t* seen = m.seen
    cdef const uint32_t* dirty = m.ub_dirty
    cdef uint16_t stamp = next_stamp(m) if duplicate != NULL else 0
    cdef uint32_t touched
    cdef int64_t k, addr
    for k in range(n):
        addr = lane_addr[k]
        if m.n_dirty:
            touched = element_bits(addr, sizeof(ElementBits))
            if dirty[addr // BLOCK] & touched:                  # rare: a hazard to locate
                scan_block(m, addr // BLOCK, touched)
        if duplicate != NULL:
            if seen[addr] == stamp and duplicate[0] < 0:
                duplicate[0] = k
            seen[addr] = stamp
    return hazard_verdict(m)


cdef inline void log_indexed(Machine* m, int64_t kind, const int64_t* lane, const int64_t* lane_addr, int64_t n,
                             int64_t vi, int64_t operand, ElementBits* data, IndexBits* index_type) noexcept nogil:
    """The write-log records of an indexed access's lanes, with each lane's index."""
    cdef const IndexBits* indices = <const IndexBits*>vreg(m, vi)
    cdef int64_t k
    if m.log != NULL:
        for k in range(n):
            log_span(m, kind, lane_addr[k], sizeof(ElementBits), 1, sizeof(ElementBits), lane[k], operand,
                     <int64_t>indices[lane[k]])


# vgat vD.T, [base], vI.U, pM  -- active lane i <- the element at base + idx[i]*W; inactive lanes 0
cdef inline int k_vgat(Machine* m, const Ins* ins, const Args_vgat* a, vgat_TW* t, vgat_UW* u) noexcept nogil:
    cdef int64_t pitch = sizeof(vgat_TW) if sizeof(vgat_TW) > sizeof(vgat_UW) else sizeof(vgat_UW)
    cdef int64_t lane[LANES_B16]
    cdef int64_t lane_addr[LANES_B16]
    cdef uint8_t gathered[VL]                  # vD may be vI: read every index first
    cdef int64_t k, n
    cdef int status = (indexed_checks(m, ins, &a.base, a.pM)
                       or active_lanes(m, ins, &a.base, a.vI, a.pM, <vgat_TW*>NULL, <vgat_UW*>NULL, lane, lane_addr, &n)
                       or lane_hazards(m, lane_addr, n, <vgat_TW*>NULL, NULL))
    if status:
        return status
    memset(gathered, 0, VL)                    # inactive lanes 0; b8 data zero-extended
    for k in range(n):
        (<vgat_TW*>(gathered + lane[k] * pitch))[0] = (<const vgat_TW*>(m.ub + lane_addr[k]))[0]
    log_indexed(m, 0, lane, lane_addr, n, a.vI, POS_vgat_vD, <vgat_TW*>NULL, <vgat_UW*>NULL)   # before vD: vI's
    memcpy(vreg(m, a.vD), gathered, VL)
    return STOP_RUNNING


# vsct [base], vS.T, vI.U, pM  -- for active lane i: base + idx[i]*W <- vS[i]; b8: request i stores
# source byte 2i; duplicates: lanes are written from 0 up, so the highest lane's value remains
cdef inline int k_vsct(Machine* m, const Ins* ins, const Args_vsct* a, vsct_TW* t, vsct_UW* u) noexcept nogil:
    cdef int64_t pitch = sizeof(vsct_TW) if sizeof(vsct_TW) > sizeof(vsct_UW) else sizeof(vsct_UW)
    cdef int64_t lane[LANES_B16]
    cdef int64_t lane_addr[LANES_B16]
    cdef const uint8_t* src = vreg(m, a.vS)
    cdef int64_t later = -1, n
    cdef int status = indexed_checks(m, ins, &a.base, a.pM)
    if status:
        return status
    if not m.strict and m.log == NULL and all_lanes_in_range(m, address(&a.base), a.vI, <vsct_TW*>NULL, <vsct_UW*>NULL):
        scatter_in_one_pass(m, address(&a.base), a.vI, a.pM, src, <vsct_TW*>NULL, <vsct_UW*>NULL)
        return STOP_RUNNING
    status = (active_lanes(m, ins, &a.base, a.vI, a.pM, <vsct_TW*>NULL, <vsct_UW*>NULL, lane, lane_addr, &n)
              or lane_hazards(m, lane_addr, n, <vsct_TW*>NULL, &later))
    if status:
        return status
    if later >= 0:
        status = repeated_address(m, lane[first_lane_at(lane_addr, lane_addr[later])], lane[later], lane_addr[later])
        if status:
            return status
    store_elements(m, lane_addr, lane, n, src, pitch, <vsct_TW*>NULL)
    log_indexed(m, 1, lane, lane_addr, n, a.vI, POS_vsct_vS, <vsct_TW*>NULL, <vsct_UW*>NULL)
    return STOP_RUNNING


cdef inline int64_t first_lane_at(const int64_t* lane_addr, int64_t addr) noexcept nogil:
    """The first listed lane with that address (one is)."""
    cdef int64_t k = 0
    while lane_addr[k] != addr:
        k += 1
    return k


cdef inline int repeated_address(Machine* m, int64_t earlier, int64_t later, int64_t addr) noexcept nogil:
    """Two active lanes of a vsct store to addr: a fault under --strict, else a warning (the first case
    of the row stays)."""
    cdef int64_t* record = &m.dup_warn[m.row * DUP_WARN_FIELDS]
    if m.strict:
        return fault(m, STOP_DUP_INDEX, earlier, later, addr)
    if record[0] == 0:
        record[1], record[2], record[3] = earlier, later, addr
    record[0] += 1
    return STOP_RUNNING


cdef inline bint all_lanes_in_range(Machine* m, int64_t base, int64_t vi, ElementBits* data,
                                    IndexBits* index_type) noexcept nogil:
    """Whether every lane's element, active or not, lies in the usable UB (and in one region when
    there are regions): the largest index, in a loop the compiler vectorises, against the room above
    base. Then no lane needs a range check."""
    cdef uint64_t pitch = lane_pitch(data, index_type)
    cdef const IndexBits* indices = <const IndexBits*>vreg(m, vi)
    cdef int64_t last = m.ub_usable - <int64_t>sizeof(ElementBits)    # the highest address in range
    cdef IndexBits largest = 0
    cdef int64_t i
    if base < 0 or base > last:
        return False
    for i in range(VL // pitch):
        if indices[i] > largest:
            largest = indices[i]
    if <uint64_t>largest > <uint64_t>(last - base) // sizeof(ElementBits):
        return False
    return m.n_regions == 0 or in_regions(m, base, (<int64_t>largest + 1) * <int64_t>sizeof(ElementBits))


cdef inline void scatter_in_one_pass(Machine* m, int64_t base, int64_t vi, int64_t pm, const uint8_t* src,
                                     ElementBits* data, IndexBits* index_type) noexcept nogil:
    """vsct without --strict or a write log, when every lane is in range (all_lanes_in_range): each
    active lane, from lane 0 up, is written at once. This loop keeps only what that needs (the compiler
    then holds it all in registers); the first lane whose bytes are dirty, by a hazard or by an earlier
    lane with its address, hands the rest to scatter_carefully."""
    cdef uint64_t pitch = lane_pitch(data, index_type)
    cdef const IndexBits* indices = <const IndexBits*>vreg(m, vi)
    cdef int64_t per_word = 64 // pitch         # lanes per mask word
    cdef Booking b
    cdef uint64_t lanes[2]                      # bit i % 64 of word i / 64: lane i is active
    cdef uint64_t bits, addr
    cdef uint32_t before
    cdef int64_t w, h, i, dirty_lane = -1
    lanes[0] = lanes[1] = 0                     # one loop over them mispredicts once, not once per mask word
    for w in range(MASK_WORDS):
        lanes[w * per_word // 64] |= ascasm_lane_bits(mask_word(m, pm, w), pitch) << (w * per_word % 64)
    open_booking(m, &b)
    for h in range((VL // pitch + 63) // 64):
        bits = lanes[h]
        while bits:
            i = 64 * h + <int64_t>__builtin_ctzll(bits)
            bits &= bits - 1
            addr = lane_address(base, indices, i, data)
            before = b.dirty[addr // BLOCK]
            if before & element_bits(addr, sizeof(ElementBits)):
                dirty_lane = i
                break
            put_element(&b, addr, before, src + i * pitch, data)
        if dirty_lane >= 0:
            break
    m.n_dirty = b.n_dirty
    if dirty_lane >= 0:
        scatter_carefully(m, base, indices, pm, src, dirty_lane, data, index_type)


cdef void scatter_carefully(Machine* m, int64_t base, const IndexBits* indices, int64_t pm, const uint8_t* src,
                            int64_t first, ElementBits* data, IndexBits* index_type) noexcept nogil:
    """scatter_in_one_pass from active lane `first` on, each lane checked before it is written: every
    lane stamps its address in m.seen (the lanes before `first` are stamped first), so a lane with an
    earlier lane's address is a repeated address, whose bytes are not scanned again (they were, before
    the earlier lane wrote them); another lane with dirty bytes has a hazard, located as scan_block
    does, which takes the writer row then."""
    cdef uint64_t pitch = lane_pitch(data, index_type)
    cdef uint16_t stamp = next_stamp(m)
    cdef Booking b
    cdef uint64_t addr
    cdef uint32_t before, touched
    cdef int64_t i, later = -1
    cdef bint repeat
    open_booking(m, &b)
    for i in range(VL // pitch):
        if not mask_bit(m, pm, i * pitch):
            continue
        addr = lane_address(base, indices, i, data)
        repeat = m.seen[addr] == stamp
        m.seen[addr] = stamp
        if i < first:                                   # written already, with clean bytes
            continue
        before = b.dirty[addr // BLOCK]
        touched = element_bits(addr, sizeof(ElementBits))
        if repeat and later < 0:
            later = i
        if before & touched and not repeat:
            scan_block(m, addr // BLOCK, touched)
        put_element(&b, addr, before, src + i * pitch, data)
    m.n_dirty = b.n_dirty
    if later >= 0:
        addr = lane_address(base, indices, later, data)
        repeated_address(m, first_active_lane_at(m, base, indices, pm, addr, data), later, addr)


cdef inline int64_t first_active_lane_at(Machine* m, int64_t base, const IndexBits* indices, int64_t pm,
                                         uint64_t addr, ElementBits* data) noexcept nogil:
    """The first active lane whose element is at addr (one is)."""
    cdef uint64_t pitch = lane_pitch(data, <IndexBits*>NULL)
    cdef int64_t i = 0
    while not (mask_bit(m, pm, i * pitch) and lane_address(base, indices, i, data) == addr):
        i += 1
    return i


# --- stores ---

cdef inline int check_slots(Machine* m, const Ins* ins, const Addr* a, int64_t pm, int64_t width, int64_t* addr) noexcept nogil:
    """Mask, alignment and range of a masked store (NORM, PACK, PACKV2): slot i of `ins.slot` bytes at
    addr + i*slot for each active lane i of `width` bytes (every lane with --store-inactive zero),
    checked from lane 0 up; when the whole region lies in range, every slot does, and so when the slots
    from the first active lane to the last do (a masked store into a small buffer)."""
    cdef int64_t slot = ins.slot
    cdef int64_t i, w, first = -1, last = -1
    cdef uint64_t bits
    cdef int status
    addr[0] = address(a)
    status = check_mask(m, pm) or check_align(m, addr[0], ins.align)
    if status or in_range(m, addr[0], ins.size):
        return status
    if m.n_regions and not m.zero_inactive:
        for w in range(MASK_WORDS):
            bits = mask_word(m, pm, w) & stride_bits(width)
            if bits:
                last = (64 * w + top_bit(bits)) // width
                if first < 0:
                    first = (64 * w + <int64_t>__builtin_ctzll(bits)) // width
        if first < 0 or in_range(m, addr[0] + first * slot, (last - first + 1) * slot):
            return STOP_RUNNING
    for i in range(VL // width):
        if m.zero_inactive or mask_bit(m, pm, i * width):
            status = check_range(m, addr[0] + i * slot, slot, i, -1)
            if status:
                return status
    return STOP_RUNNING


cdef inline int store_slots(Machine* m, const Ins* ins, const Addr* a, int64_t pm, int64_t width, int64_t* addr) noexcept nogil:
    """check_slots, then the hazards of the slots written, lane by lane (PACK, PACKV2)."""
    cdef int64_t i, slot_addr
    cdef int status = check_slots(m, ins, a, pm, width, addr)
    if status:
        return status
    if m.n_dirty:
        for i in range(VL // width):
            if m.zero_inactive or mask_bit(m, pm, i * width):
                slot_addr = addr[0] + i * ins.slot
                scan_block(m, slot_addr // BLOCK, element_bits(slot_addr, ins.slot))
    return hazard_verdict(m)


cdef inline void store_slot(Machine* m, int64_t addr, const uint8_t* data, int64_t size, int64_t lane,
                            int64_t operand) noexcept nogil:
    memcpy(m.ub + addr, data, size)
    wrote(m, addr, size)
    log_span(m, 1, addr, size, 1, size, lane, operand, -1)


# vsta [addr], vS.T, pM  -- NORM: active lane i -> addr + i*W
cdef inline int k_vsta_norm(Machine* m, const Ins* ins, const Args_vsta_norm* a, vsta_norm_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vsta_norm_TW)
    cdef const vsta_norm_TW* src = <const vsta_norm_TW*>vreg(m, a.vS)
    cdef vsta_norm_TW* dst
    cdef uint64_t bits, written[MASK_WORDS]     # per mask word: the bytes of its 64 the store writes
    cdef int64_t addr, w, k, j, block
    cdef int32_t* write_row = m.ub_write_row
    cdef int32_t row = <int32_t>m.row
    cdef int status = check_slots(m, ins, &a.addr, a.pM, width, &addr)
    if status:
        return status
    for w in range(MASK_WORDS):
        written[w] = 0xFFFFFFFFFFFFFFFFULL if m.zero_inactive else lane_bytes(mask_word(m, a.pM, w), width)
    if m.n_dirty:
        for w in range(MASK_WORDS):             # 64 bytes (two blocks) per mask word
            scan_block(m, addr // BLOCK + 2 * w, <uint32_t>written[w])
            scan_block(m, addr // BLOCK + 2 * w + 1, <uint32_t>(written[w] >> 32))
        status = hazard_verdict(m)
        if status:
            return status
    dst = <vsta_norm_TW*>(m.ub + addr)
    for w in range(MASK_WORDS):                 # only the active lanes are visited
        if written[w] == 0:
            continue
        bits = mask_word(m, a.pM, w) & stride_bits(width)
        if written[w] == 0xFFFFFFFFFFFFFFFFULL:
            if bits == stride_bits(width):      # every lane: a copy (the lane test does not vectorise)
                memcpy(&dst[64 * w // width], &src[64 * w // width], 64)
            else:
                for k in range(64 * w // width, 64 * (w + 1) // width):
                    dst[k] = src[k] if (bits >> ((k * width) & 63)) & 1 else 0
            for j in range(64):                 # through a local: via m, each store reloaded m
                write_row[addr + 64 * w + j] = row
        else:
            while bits:
                k = (64 * w + __builtin_ctzll(bits)) // width
                bits &= bits - 1
                dst[k] = src[k]
                book_rows(m, addr + k * width, <vsta_norm_TW*>NULL)
        block = addr // BLOCK + 2 * w
        if <uint32_t>written[w]:
            mark_block(m, block, <uint32_t>written[w])
        if written[w] >> 32:
            mark_block(m, block + 1, <uint32_t>(written[w] >> 32))
    if m.log != NULL:
        for k in range(VL // width):
            if m.zero_inactive or mask_bit(m, a.pM, k * width):
                log_span(m, 1, addr + k * width, width, 1, width, k, POS_vsta_norm_vS, -1)
    return STOP_RUNNING


# vsta.pack [addr], vS.T, pM  -- PACK: the low half of active lane i -> slot i of width W/2
cdef inline int k_vsta_pack(Machine* m, const Ins* ins, const Args_vsta_pack* a, vsta_pack_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vsta_pack_TW)
    cdef const uint8_t* src = vreg(m, a.vS)
    cdef uint8_t zeros[8]
    cdef int64_t addr, i
    cdef int status = store_slots(m, ins, &a.addr, a.pM, width, &addr)
    if status:
        return status
    memset(zeros, 0, 8)
    for i in range(VL // width):               # little-endian: the low half is the first bytes
        if mask_bit(m, a.pM, i * width):
            store_slot(m, addr + i * ins.slot, src + i * width, ins.slot, i, POS_vsta_pack_vS)
        elif m.zero_inactive:
            store_slot(m, addr + i * ins.slot, zeros, ins.slot, i, POS_vsta_pack_vS)
    return STOP_RUNNING


# vsta.packv2 [addr], vS.T, pM  -- PACKV2: the low byte of active (32-bit) lane i -> byte slot i
cdef inline int k_vsta_packv2(Machine* m, const Ins* ins, const Args_vsta_packv2* a) noexcept nogil:
    cdef const uint8_t* src = vreg(m, a.vS)
    cdef uint8_t zero = 0
    cdef int64_t addr, i
    cdef int status = store_slots(m, ins, &a.addr, a.pM, ins.tw, &addr)
    if status:
        return status
    for i in range(VL // ins.tw):
        if mask_bit(m, a.pM, i * ins.tw):
            store_slot(m, addr + i, src + i * ins.tw, 1, i, POS_vsta_packv2_vS)
        elif m.zero_inactive:
            store_slot(m, addr + i, &zero, 1, i, POS_vsta_packv2_vS)
    return STOP_RUNNING


# Block-strided loads and stores (DATA_BLOCK_COPY): 8 blocks of 32 bytes, block k at addr + k * X0 * 32.

cdef inline int strided_blocks(Machine* m, const Addr* addr, const SVal* stride, int64_t p, int64_t width,
                               int64_t* block_addr, uint32_t* active) noexcept nogil:
    """Each block's address (X0 read as the pages' unsigned 32-bit block stride) and the governing mask
    bits of its lanes (bit j: byte j of the block); checks the mask and addr's 32-byte alignment."""
    cdef int64_t base = address(addr)
    cdef uint64_t step = <uint64_t><uint32_t>sval(stride) * BLOCK
    cdef int64_t k
    cdef int status = check_mask(m, p) or check_align(m, base, BLOCK)
    if status:
        return status
    for k in range(VECTOR_BLOCKS):
        block_addr[k] = <int64_t>(<uint64_t>base + <uint64_t>k * step)
        active[k] = block_lanes(m, p, k, width)
    return STOP_RUNNING


# vld.bs vD.T, [addr], X0, pM  -- a block with an active lane is read whole; the others are 0, not read
cdef inline int k_vld_bs(Machine* m, const Ins* ins, const Args_vld_bs* a, vld_bs_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vld_bs_TW)
    cdef int64_t block_addr[VECTOR_BLOCKS]
    cdef uint32_t active[VECTOR_BLOCKS]
    cdef uint8_t* dst = vreg(m, a.vD)
    cdef int64_t k
    cdef int status = strided_blocks(m, &a.addr, &a.x0, a.pM, width, block_addr, active)
    if status:
        return status
    status = check_blocks(m, block_addr, active, width, NULL)
    if status:
        return status
    for k in range(VECTOR_BLOCKS):
        if active[k]:
            memcpy(dst + k * BLOCK, m.ub + block_addr[k], BLOCK)
        else:
            memset(dst + k * BLOCK, 0, BLOCK)
    if m.log != NULL:
        for k in range(VECTOR_BLOCKS):
            if active[k]:
                log_span(m, 0, block_addr[k], BLOCK, 1, BLOCK, k * BLOCK // width, POS_vld_bs_vD, -1)
    return STOP_RUNNING


# vsta.bs [addr], vS.T, X0, pM  -- the active lanes of block k -> its address + their offset in the block
cdef inline int k_vsta_bs(Machine* m, const Ins* ins, const Args_vsta_bs* a, vsta_bs_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vsta_bs_TW)
    cdef const uint8_t* src = vreg(m, a.vS)
    cdef int64_t block_addr[VECTOR_BLOCKS]
    cdef uint32_t active[VECTOR_BLOCKS]
    cdef uint32_t written[VECTOR_BLOCKS]       # per block: the bytes the store writes
    cdef int64_t k, lane, j, lane_addr
    cdef int status = strided_blocks(m, &a.addr, &a.x0, a.pM, width, block_addr, active)
    if status:
        return status
    for k in range(VECTOR_BLOCKS):             # check every lane written, from lane 0 up
        written[k] = 0xFFFFFFFFU if m.zero_inactive and active[k] else <uint32_t>lane_bytes(active[k], width)
        if written[k] and not in_range(m, block_addr[k], BLOCK):
            for lane in range(BLOCK // width):
                j = lane * width
                if (written[k] >> j) & 1:
                    status = check_range(m, block_addr[k] + j, width, (k * BLOCK + j) // width, -1)
                    if status:
                        return status
        if written[k] and m.n_dirty:
            scan_block(m, block_addr[k] // BLOCK, written[k])
    status = hazard_verdict(m)
    if status:
        return status
    for k in range(VECTOR_BLOCKS):
        for lane in range(BLOCK // width):
            j = lane * width
            if (written[k] >> j) & 1:
                lane_addr = block_addr[k] + j
                if (active[k] >> j) & 1:
                    memcpy(m.ub + lane_addr, src + k * BLOCK + j, width)
                else:                        # --store-inactive zero
                    memset(m.ub + lane_addr, 0, width)
                wrote(m, lane_addr, width)
                log_span(m, 1, lane_addr, width, 1, width, (k * BLOCK + j) // width, POS_vsta_bs_vS, -1)
    return STOP_RUNNING


# vsta.1st [addr], vS.T  -- FIRST: lane 0 only, mask ignored, element-aligned
cdef inline int k_vsta_first(Machine* m, const Ins* ins, const Args_vsta_first* a, vsta_first_TW* t) noexcept nogil:
    cdef int64_t addr = address(&a.addr)
    cdef int status = check_span(m, addr, ins.align, ins.size)
    if status:
        return status
    store_slot(m, addr, vreg(m, a.vS), sizeof(vsta_first_TW), 0, POS_vsta_first_vS)
    return STOP_RUNNING


# vsta.intlv [addr], vS0.T, vS1.T  -- INTLV: addr + 2i*W <- S0[i], addr + (2i+1)*W <- S1[i]
cdef inline int k_vsta_intlv(Machine* m, const Ins* ins, const Args_vsta_intlv* a, vsta_intlv_TW* t) noexcept nogil:
    cdef int64_t width = sizeof(vsta_intlv_TW)
    cdef const vsta_intlv_TW* s0 = <const vsta_intlv_TW*>vreg(m, a.vS0)
    cdef const vsta_intlv_TW* s1 = <const vsta_intlv_TW*>vreg(m, a.vS1)
    cdef vsta_intlv_TW* dst
    cdef int64_t addr = address(&a.addr)
    cdef int64_t i
    cdef int status = check_span(m, addr, ins.align, ins.size)
    if status:
        return status
    dst = <vsta_intlv_TW*>(m.ub + addr)
    for i in range(VL // width):
        dst[2 * i] = s0[i]
        dst[2 * i + 1] = s1[i]
    wrote(m, addr, ins.size)
    if m.log != NULL:                  # (their arguments cost a division)
        log_span(m, 1, addr, width, VL // width, 2 * width, 0, POS_vsta_intlv_vS0, -1)
        log_span(m, 1, addr + width, width, VL // width, 2 * width, 0, POS_vsta_intlv_vS1, -1)
    return STOP_RUNNING


# vsta [addr], pS  -- 256 bits -> 32 bytes
cdef inline int k_mask_store_norm(Machine* m, const Ins* ins, const Args_mask_store_norm* a) noexcept nogil:
    cdef int64_t addr = address(&a.addr)
    cdef int status = check_mask(m, a.pS) or check_span(m, addr, ins.align, ins.size)
    if status:
        return status
    store_slot(m, addr, <const uint8_t*>&m.preg[a.pS * MASK_WORDS], MASK_BYTES, -1, POS_mask_store_norm_pS)
    return STOP_RUNNING


# vsta.pack [addr], pS  -- the even bits (bit 2j -> bit j) -> 16 bytes
cdef inline int k_mask_store_pack(Machine* m, const Ins* ins, const Args_mask_store_pack* a) noexcept nogil:
    cdef uint64_t words[MASK_WORDS]
    cdef uint8_t padded[2 * MASK_BYTES]        # pick_bits reads bit 2k for all 256 k: 64 bytes, p7's too
    cdef int64_t addr = address(&a.addr)
    cdef int status = check_mask(m, a.pS) or check_span(m, addr, ins.align, ins.size)
    if status:
        return status
    memset(padded, 0, sizeof(padded))
    memcpy(padded, &m.preg[a.pS * MASK_WORDS], MASK_BYTES)
    pick_bits(words, padded, 2, 0)
    store_slot(m, addr, <const uint8_t*>words, ins.size, -1, POS_mask_store_pack_pS)
    return STOP_RUNNING


include "dispatch_memory.pxi"      # generated: this module's kernels in the KERNELS table
