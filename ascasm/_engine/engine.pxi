# The kernels' shared helpers, included by core.pyx and by every kernel module (each compiles its
# own static copy): operands, masks, UB checks, hazards and the bookkeeping of writes, the lane
# types (lanes.pxi; their arithmetic, lane_math.pxi, only where a module includes it), the write log.

from libc.math cimport INFINITY, NAN, exp, log, log2, log10, sqrt, nextafter
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t, INT32_MIN, INT32_MAX
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memmove, memset

from ascasm._engine.machine cimport *

include "lanes.pxi"


cdef inline int fault(Machine* m, int code, int64_t a0=0, int64_t a1=0, int64_t a2=0, int64_t a3=0,
                      int64_t a4=0) noexcept nogil:
    m.ctrl[FAULT_ARGS] = a0
    m.ctrl[FAULT_ARGS + 1] = a1
    m.ctrl[FAULT_ARGS + 2] = a2
    m.ctrl[FAULT_ARGS + 3] = a3
    m.ctrl[FAULT_ARGS + 4] = a4
    return code


# --- operands ---

cdef inline int64_t address(const Addr* a) noexcept nogil:
    """[offset + sX + sY + aZ] in wrapping 64-bit arithmetic."""
    return <int64_t>(<uint64_t>a.offset + <uint64_t>a.s0[0] + <uint64_t>a.s1[0] + a.a[0])


cdef inline int64_t sval(const SVal* x) noexcept nogil:
    return x.ptr[0]


cdef inline Lane tval(const SVal* x, Lane* tag) noexcept nogil:
    """An X.T operand as a lane of T: an immediate's bits were converted when assembling, a register
    written `sN.T` holds T's bits in its low bits; a register without a suffix holds an int64 converted
    now (integers keep the low bits, floats round once)."""
    if x.reg < 0 or x.raw:
        return lane_of_bits(<uint64_t>x.ptr[0], <Lane*>NULL)
    return lane_of_int(x.ptr[0], <Lane*>NULL)


cdef inline void decode_sval(Machine* m, const int64_t* slot, SVal* x) noexcept nogil:
    x.value = slot[1]
    x.reg = <int32_t>slot[1] if slot[0] else -1
    x.raw = slot[0] == 2
    x.ptr = &m.sreg[slot[1]] if slot[0] else &x.value


cdef inline void decode_addr(Machine* m, const int64_t* slot, Addr* a) noexcept nogil:
    a.offset = slot[0]
    a.s0 = &m.sreg[slot[1]] if slot[1] >= 0 else &m.zero64
    a.s1 = &m.sreg[slot[2]] if slot[2] >= 0 else &m.zero64
    a.a = &m.areg[slot[3]] if slot[3] >= 0 else &m.zero32


cdef inline uint8_t* vreg(Machine* m, int64_t v) noexcept nogil:
    return m.vreg + v * VL


ctypedef fused Source:          # the `src` axis (ascasm/isa/families.py): where a second operand comes from
    Src_vector
    Src_scalar


cdef inline const Lane* second_operand(Machine* m, int32_t v, const SVal* x, Lane* scalar, Source* src) noexcept nogil:
    """The lanes of an element-wise kernel's second operand, read at `at(i, src)`: vector register v's, or
    (a scalar-operand form) X converted to T once, held in `scalar`."""
    if Source is Src_scalar:
        scalar[0] = tval(x, scalar)
        return scalar
    else:
        return <const Lane*>vreg(m, v)


cdef inline int64_t at(int64_t i, Source* src) noexcept nogil:
    """The index of lane i's second operand in second_operand's lanes: i, or 0 for the scalar X."""
    return 0 if Source is Src_scalar else i

# --- the CTRL register (docs/semantics.md "The CTRL register") ---

cdef inline bint ctrl_bit(Machine* m, int bit) noexcept nogil:
    return (m.ctrlreg[0] >> bit) & 1


# --- masks as 64-bit words ---

cdef inline uint64_t mask_word(const Machine* m, int64_t p, int64_t w) noexcept nogil:
    return m.preg[p * MASK_WORDS + w]


cdef inline bint mask_bit(const Machine* m, int64_t p, int64_t k) noexcept nogil:
    """Bit k of mask register p (the bit of element i of width W is k = i*W)."""
    return (m.preg[p * MASK_WORDS + (k >> 6)] >> (k & 63)) & 1


cdef inline uint64_t stride_bits(int64_t width) noexcept nogil:
    """The bits at multiples of `width` in a word: the bits that govern elements of that width."""
    if width == 1:
        return 0xFFFFFFFFFFFFFFFFULL
    if width == 2:
        return 0x5555555555555555ULL
    if width == 4:
        return 0x1111111111111111ULL
    return 0x0101010101010101ULL


cdef inline uint64_t lane_bytes(uint64_t word, int64_t width) noexcept nogil:
    """The bytes of the active lanes of `width` bytes in a mask word (64 byte lanes): each governing
    bit spread over its lane's bytes."""
    return (word & stride_bits(width)) * ((ONE << width) - 1)


cdef inline bint all_active(const Machine* m, int64_t p, int64_t width) noexcept nogil:
    """Every lane of `width` active: the common case, worth a loop with no mask test (an element-wise
    kernel tests `full or active(...)`: the compiler then makes the loop twice, the full one vectorised)."""
    cdef int64_t w
    for w in range(MASK_WORDS):
        if (mask_word(m, p, w) & stride_bits(width)) != stride_bits(width):
            return False
    return True


cdef inline void set_mask(Machine* m, int64_t p, const uint64_t* words) noexcept nogil:
    """All 256 bits of mask register p (the words may be p's own), and mark it written."""
    memmove(&m.preg[p * MASK_WORDS], words, MASK_BYTES)
    m.preg_set[p] = 1


cdef inline int check_mask(Machine* m, int64_t p) noexcept nogil:
    if m.preg_set[p]:
        return STOP_RUNNING
    return fault(m, STOP_MASK_UNSET, p)


# --- UB checks, hazards and writes (docs/semantics.md "Addresses", "Hazards") ---

cdef inline int check_align(Machine* m, int64_t addr, int64_t align) noexcept nogil:
    if (addr & (align - 1)) == 0:
        return STOP_RUNNING
    return fault(m, STOP_MISALIGNED, addr, align)


cdef inline bint in_usable(const Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """Every byte of [addr, addr + size) in [0, usable) (written so nothing can overflow)."""
    return addr >= 0 and addr <= m.ub_usable - size


cdef bint in_sorted(const int64_t* regions, int64_t n, int64_t addr, int64_t size) noexcept nogil:
    """Every byte of [addr, addr + size) (addr >= 0, addr + size not overflowing) inside one of n sorted,
    merged regions (none: nothing is): a binary search for the last region starting at or below addr."""
    cdef int64_t lo = 0, hi = n, mid
    while hi - lo > 1:
        mid = (lo + hi) >> 1
        if regions[2 * mid] <= addr:
            lo = mid
        else:
            hi = mid
    return regions[2 * lo] <= addr and addr + size <= regions[2 * lo + 1]


cdef inline bint in_regions(const Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """Every byte of [addr, addr + size) (in the usable UB) inside one of the UB's merged regions."""
    return in_sorted(m.regions, m.n_regions, addr, size)


cdef inline bint in_range(const Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """In the usable UB and, when the program's buffers are bounds, in them (an empty access always)."""
    return in_usable(m, addr, size) and (m.n_regions == 0 or size == 0 or in_regions(m, addr, size))


cdef inline int check_range(Machine* m, int64_t addr, int64_t size, int64_t lane, int64_t index) noexcept nogil:
    if in_range(m, addr, size):
        return STOP_RUNNING
    if in_usable(m, addr, size):
        return fault(m, STOP_OUT_OF_BUFFER, addr, size, lane, index)
    return fault(m, STOP_UB_RANGE, addr, size, m.ub_usable, lane, index)


cdef inline int check_whole_read(Machine* m, int64_t start, int64_t addr, int64_t size) noexcept nogil:
    """A read the machine makes whole whatever the mask (vld, vldu, the unaligned load streams) of the
    bytes [addr, addr + size), for a vector that starts at `start`: in the usable UB and, when the
    buffers are bounds, starting inside one. It may read past that buffer's end (a loop's masked last
    vector: its lanes past the end are loaded but not used)."""
    if not in_usable(m, addr, size):
        return fault(m, STOP_UB_RANGE, addr, size, m.ub_usable, -1, -1)
    if m.n_regions and size and not in_regions(m, start, 1):
        return fault(m, STOP_OUT_OF_BUFFER, addr, size, -1, -1)
    return STOP_RUNNING


cdef inline uint32_t block_bits(int64_t lo, int64_t hi) noexcept nogil:
    """Bits lo..hi-1 of a block's word (0 <= lo < hi <= 32)."""
    return <uint32_t>((((<uint64_t>1) << (hi - lo)) - 1) << lo)


cdef inline void scan_block(Machine* m, int64_t block, uint32_t touched) noexcept nogil:
    """Note which of the `touched` bytes of a block were written since the latest membar (docs/semantics.md
    "Hazards"): the executing instruction's hazard spans its first to its last such byte. A block with no
    byte touched is not read: a store whose mask has no active lane is not range-checked, so its
    address (and block) may be anywhere."""
    cdef uint32_t hot
    cdef int64_t first, last
    if touched == 0:
        return
    hot = m.ub_dirty[block] & touched
    if hot == 0:
        return
    first = block * BLOCK + __builtin_ctzll(hot)
    last = block * BLOCK + top_bit(hot) + 1
    if not m.hazard or first < m.hazard_first:
        m.hazard_first = first
        m.hazard_writer = m.ub_write_row[first]     # now: a scatter's lanes write as they are scanned
    if not m.hazard or last > m.hazard_last:
        m.hazard_last = last
    m.hazard = True


cdef inline bint any_dirty_word(const uint32_t* words) noexcept nogil:
    """Whether any of the VL / BLOCK = 8 dirty words from `words` is non-zero: read as four 64-bit
    words (memcpy: no alignment assumed), which the compiler ORs in a few vector instructions."""
    cdef uint64_t w[4]
    memcpy(w, words, sizeof(w))
    return (w[0] | w[1] | w[2] | w[3]) != 0


cdef inline void scan_hazard(Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """scan_block over every block of a checked access [addr, addr + size). The common cases return
    here, inlined, after a test or two: nothing written since the membar, or a vector whose 8 blocks
    are untouched."""
    if m.n_dirty == 0:
        return
    if size == VL and addr & (BLOCK - 1) == 0 and not any_dirty_word(&m.ub_dirty[<uint64_t>addr // BLOCK]):
        return
    scan_blocks(m, addr, size)


cdef void scan_blocks(Machine* m, int64_t addr, int64_t size) noexcept nogil:
    cdef int64_t block, lo, hi
    if (addr | size) & (BLOCK - 1) == 0:                # whole blocks (vector loads and stores, streams)
        for block in range(addr // BLOCK, (addr + size) // BLOCK):
            if m.ub_dirty[block]:
                scan_block(m, block, 0xFFFFFFFFU)
        return
    for block in range(addr // BLOCK, (addr + size - 1) // BLOCK + 1):
        lo = addr - block * BLOCK if addr > block * BLOCK else 0
        hi = addr + size - block * BLOCK if addr + size < (block + 1) * BLOCK else BLOCK
        scan_block(m, block, block_bits(lo, hi))


cdef inline uint32_t element_bits(int64_t addr, int64_t size) noexcept nogil:
    """The bits of an element of `size` <= 8 bytes at an address aligned to it, inside its block."""
    return <uint32_t>(((ONE << size) - 1) << (addr & (BLOCK - 1)))


cdef inline int hazard_verdict(Machine* m) noexcept nogil:
    """After every access of an instruction was scanned: under --strict a hazard is a fault; otherwise
    the run loop records it once the instruction completes."""
    if not m.hazard:
        return STOP_RUNNING
    if m.strict:
        return fault(m, STOP_HAZARD, m.hazard_writer, m.hazard_first, m.hazard_last)
    return STOP_RUNNING


cdef enum:
    VECTOR_BLOCKS = 8       # 32-byte blocks in a vector register (VL / BLOCK)

assert VECTOR_BLOCKS * BLOCK == VL


cdef inline uint32_t block_lanes(const Machine* m, int64_t p, int64_t k, int64_t width) noexcept nogil:
    """The governing bits of the lanes of `width` bytes in 32-byte block k of mask p (bit j: byte j)."""
    return <uint32_t>(mask_word(m, p, k // 2) >> (32 * (k % 2))) & <uint32_t>stride_bits(width)


cdef inline int check_blocks(Machine* m, const int64_t* block_addr, const uint32_t* active, int64_t width,
                             const uint32_t* index) noexcept nogil:
    """The blocks of a block access with an active lane, from block 0 up: each 32-byte aligned and in the
    UB (a fault names its first lane and index[k], -1 without `index`) and its active lanes' bytes scanned
    for hazards (what inactive lanes receive is not used: docs/semantics.md "Hazards")."""
    cdef int64_t k
    cdef int status
    for k in range(VECTOR_BLOCKS):
        if active[k]:
            status = (check_align(m, block_addr[k], BLOCK)
                      or check_range(m, block_addr[k], BLOCK, k * BLOCK // width, <int64_t>index[k] if index != NULL else -1))
            if status:
                return status
            scan_block(m, block_addr[k] // BLOCK, <uint32_t>lane_bytes(active[k], width))
    return hazard_verdict(m)


cdef inline int check_span(Machine* m, int64_t addr, int64_t align, int64_t size) noexcept nogil:
    """One contiguous access: alignment, range, then its hazard."""
    cdef int status = check_align(m, addr, align) or check_range(m, addr, size, -1, -1)
    if status:
        return status
    scan_hazard(m, addr, size)
    return hazard_verdict(m)


cdef inline void mark_block(Machine* m, int64_t block, uint32_t written) noexcept nogil:
    """Bytes of a block written by the executing instruction: dirty until the next membar. The block
    goes to the end of the dirty list, which only a newly dirty block extends (no branch on the data:
    the list has a slot to spare)."""
    cdef uint32_t before = m.ub_dirty[block]
    m.dirty_blocks[m.n_dirty] = <int32_t>block
    m.n_dirty += before == 0
    m.ub_dirty[block] = before | written


cdef inline void end_hazard_window(Machine* m) noexcept nogil:
    """A membar, a waitflag or a pipebar: no byte is written since it (docs/semantics.md "Hazards");
    the bytes written since the previous one are no longer never written."""
    cdef int64_t k
    for k in range(m.n_dirty):
        m.ub_unwritten[m.dirty_blocks[k]] &= ~m.ub_dirty[m.dirty_blocks[k]]
        m.ub_dirty[m.dirty_blocks[k]] = 0
    m.n_dirty = 0


cdef inline void book_block(Machine* m, int32_t* write_row, uint64_t block) noexcept nogil:
    """A whole block written by the executing row (write_row: m.ub_write_row, held by the caller)."""
    cdef int64_t k
    cdef int32_t row = <int32_t>m.row
    for k in range(BLOCK):                      # the compiler stores the row in a few vector moves
        write_row[block * BLOCK + k] = row
    mark_block(m, block, 0xFFFFFFFFU)


cdef inline void wrote(Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """Book the (checked) bytes [addr, addr + size) as written by the executing row."""
    cdef int32_t* write_row = m.ub_write_row    # a local: through m, every store would reload it (8x slower)
    cdef int64_t k, block, lo, hi
    cdef uint64_t whole
    if (addr | size) & (BLOCK - 1) == 0:        # whole blocks (vector and stream stores)
        for whole in range(<uint64_t>addr // BLOCK, <uint64_t>(addr + size) // BLOCK):
            book_block(m, write_row, whole)
        return
    for k in range(addr, addr + size):
        write_row[k] = <int32_t>m.row
    for block in range(addr // BLOCK, (addr + size - 1) // BLOCK + 1):
        lo = addr - block * BLOCK if addr > block * BLOCK else 0
        hi = addr + size - block * BLOCK if addr + size < (block + 1) * BLOCK else BLOCK
        mark_block(m, block, block_bits(lo, hi))


ctypedef fused ElementBits:      # an element moved as its bits, by width
    uint8_t
    uint16_t
    uint32_t
    uint64_t


cdef inline void book_rows(Machine* m, int64_t addr, ElementBits* width) noexcept nogil:
    """ub_write_row of one element's bytes = the executing row (a fixed-size copy: a few stores)."""
    cdef int32_t rows[8]
    cdef int64_t k
    for k in range(8):
        rows[k] = <int32_t>m.row
    memcpy(&m.ub_write_row[addr], rows, 4 * sizeof(ElementBits))


cdef struct Booking:
    # the machine's arrays a lane loop writes, held in a local: through the Machine pointer the compiler
    # would reload them after every store
    uint8_t* ub
    int32_t* write_row
    uint32_t* dirty
    int32_t* dirty_list
    int64_t n_dirty
    int32_t rows[8]                 # the executing row, 8 times: an element's writer rows in one copy


cdef inline void open_booking(Machine* m, Booking* b) noexcept nogil:
    cdef int64_t k
    b.ub, b.write_row, b.dirty, b.dirty_list, b.n_dirty = m.ub, m.ub_write_row, m.ub_dirty, m.dirty_blocks, m.n_dirty
    for k in range(8):
        b.rows[k] = <int32_t>m.row


cdef inline void put_element(Booking* b, uint64_t addr, uint32_t before, const uint8_t* value,
                             ElementBits* width) noexcept nogil:
    """UB element at addr (checked, aligned to its width, so inside one block, whose dirty word was
    `before`) <- the element at value, booked as wrote() does, the block listed as mark_block does."""
    cdef uint64_t block = addr // BLOCK
    (<ElementBits*>(b.ub + addr))[0] = (<const ElementBits*>value)[0]
    memcpy(&b.write_row[addr], b.rows, 4 * sizeof(ElementBits))
    b.dirty_list[b.n_dirty] = <int32_t>block
    b.n_dirty += before == 0
    b.dirty[block] = before | element_bits(addr, sizeof(ElementBits))


cdef inline void store_elements(Machine* m, const int64_t* addrs, const int64_t* lanes, int64_t n,
                                const uint8_t* src, int64_t pitch, ElementBits* width) noexcept nogil:
    """UB element addrs[k] <- lane lanes[k] of src (lanes `pitch` bytes apart), for k from 0 up (a later
    lane overwrites an earlier one at the same address), each booked as wrote() does."""
    cdef Booking b
    cdef int64_t k
    open_booking(m, &b)
    for k in range(n):
        put_element(&b, <uint64_t>addrs[k], b.dirty[<uint64_t>addrs[k] // BLOCK], src + lanes[k] * pitch, width)
    m.n_dirty = b.n_dirty


cdef inline void log_span(Machine* m, int64_t kind, int64_t addr, int64_t width, int64_t count, int64_t pitch,
                          int64_t lane, int64_t operand, int64_t index) noexcept nogil:
    """One write-log record, when a recorder asked for the log (docs/bytecode.md "Write log"). A caller
    whose arguments cost a division tests m.log itself: the compiler computes them before this test."""
    cdef int64_t* record
    if m.log == NULL:
        return
    record = m.log + m.log_len * LOG_FIELDS
    record[0], record[1], record[2], record[3], record[4] = m.step, m.row, kind, addr, width
    record[5], record[6], record[7], record[8], record[9] = count, pitch, lane, operand, index
    m.log_len += 1



cdef void record_hazard(Machine* m) noexcept nogil:
    """Count a completed instruction's hazard in its row's record; the first case stays."""
    cdef int64_t* record = &m.hazard_warn[m.row * HAZARD_WARN_FIELDS]
    if record[0] == 0:
        record[1] = m.hazard_writer
        record[2] = m.hazard_first
        record[3] = m.hazard_last
    record[0] += 1
    m.hazard = False


cdef inline bint active(const Machine* m, int64_t p, int64_t lane, int64_t width) noexcept nogil:
    return mask_bit(m, p, lane * width)


cdef inline void set_verdict(uint8_t* verdicts, int64_t i, bint holds, int64_t width) noexcept nogil:
    """Lane i's `width` bytes (a constant where this is inlined) all 0xFF when `holds`, else all 0: the
    compiler turns a loop of these into vector compares stored as they come."""
    if width == 1:
        verdicts[i] = <uint8_t>(0 - holds)
    elif width == 2:
        (<uint16_t*>verdicts)[i] = <uint16_t>(0 - holds)
    elif width == 4:
        (<uint32_t*>verdicts)[i] = <uint32_t>(0 - holds)
    else:
        (<uint64_t*>verdicts)[i] = <uint64_t>(0 - holds)


cdef inline int verdicts_into_mask(Machine* m, int32_t pD, int32_t pM, const uint8_t* verdicts, int64_t width) noexcept nogil:
    """pD = bit i*W for each active lane i whose verdict bytes are 0xFF (set_verdict): each byte's top
    bit as a mask bit (signs.h), then the bits at lane starts, then the active ones."""
    cdef uint64_t words[MASK_WORDS]             # pD may be pM: read every lane first
    cdef int64_t w
    cdef int status = check_mask(m, pM)
    if status:
        return status
    ascasm_sign_bits(verdicts, words)
    for w in range(MASK_WORDS):
        words[w] &= stride_bits(width) & mask_word(m, pM, w)
    set_mask(m, pD, words)
    return STOP_RUNNING


cdef inline int load_span(Machine* m, const Ins* ins, const Addr* a, int64_t* addr) noexcept nogil:
    """The checked address of a whole-span load: alignment, range (check_whole_read), then its hazard."""
    addr[0] = address(a)
    cdef int status = check_align(m, addr[0], ins.align) or check_whole_read(m, addr[0], addr[0], ins.size)
    if status:
        return status
    scan_hazard(m, addr[0], ins.size)
    return hazard_verdict(m)
