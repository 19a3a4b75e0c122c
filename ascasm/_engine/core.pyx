"""The Cython engine: runs encoded bytecode (docs/bytecode.md) in place on a MachineState.

Semantics are LANGUAGE.md §4 plus the rules of docs/semantics.md. Loading a program verifies every row
against the ISA table and decodes it once: its operands become the named fields of its family's struct
(generated, isa.pxi), its access facts byte counts, and its (family, types, sub-operation) the number
of a kernel compiled for exactly that combination (dispatch.pxi). The run loop then holds no Python
objects and runs without the GIL; a kernel returns a stop code: STOP_RUNNING when the instruction
completed, otherwise a fault whose arguments it stored with `fault` before writing anything (every
check precedes every write). Addresses are computed at run time and range-checked before use.

Kernels live in kernels_*.pxi, one section per family, each starting with its syntax.
"""
cimport cython
from libc.math cimport INFINITY, NAN, exp, log, sqrt, nextafter
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t, uintptr_t, INT32_MIN, INT32_MAX
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memmove, memset

cdef extern from "squeeze.h":                  # vsqz's lane compaction (a byte shuffle per lane group)
    void ascasm_squeeze_init() nogil
    int64_t ascasm_squeeze(const uint8_t* src, const uint64_t* mask, int width, uint8_t* packed) nogil
    uint64_t ascasm_lane_bits(uint64_t x, int width) nogil

ascasm_squeeze_init()                          # its shuffle tables, filled once when the engine loads

cdef extern from "signs.h":                    # the compares' mask bits (a byte-sign gather per 16 bytes)
    void ascasm_sign_bits(const uint8_t* bytes, uint64_t* words) nogil

import sys

import numpy as np

from ascasm.isa import families, table
from ascasm.isa.operands import Kind
from ascasm.state import (CTRL_SIZE as _CTRL_SIZE, DUP_WARN_FIELDS as _DUP_WARN_FIELDS,
                          HAZARD_WARN_FIELDS as _HAZARD_WARN_FIELDS, LOG_FIELDS as _LOG_FIELDS,
                          LOG_RESERVE as _LOG_RESERVE, LOOP_COUNT as _LOOP_COUNT, LOOP_INDEX as _LOOP_INDEX,
                          MAX_LOOP_COUNT as _MAX_LOOP_COUNT, NUM_LOOPS as _NUM_LOOPS, NUM_AREGS, NUM_PREGS, NUM_QREGS, NUM_SREGS, NUM_UREGS, NUM_VREGS,
                          QREG_POS as _QREG_POS, QREG_SET as _QREG_SET,
                          SPR_AR as _SPR_AR, SPR_SIZE as _SPR_SIZE, SPR_SQZN as _SPR_SQZN, SPR_SQZN_SET as _SPR_SQZN_SET,
                          MASK_SPR_SIZE as _MASK_SPR_SIZE, UB_BLOCK as _UB_BLOCK, UB_SIZE, UREG_ADDR as _UREG_ADDR, UREG_BYTES as _UREG_BYTES,
                          UREG_PENDING as _UREG_PENDING, VL as _VL, control_error)

include "opcodes.pxd"

cdef struct Addr:           # [offset + s + s + a]: absent registers point at a zero
    int64_t offset
    const int64_t* s0
    const int64_t* s1
    const uint32_t* a

cdef struct SVal:           # X: an immediate or a scalar register, read through `ptr` either way
    int64_t value
    const int64_t* ptr
    int32_t reg             # -1: an immediate (its bits already converted to T for X.T)
    bint raw                # X.T: the register holds T's bits (written `sN.T`), not an integer to convert

include "isa.pxi"

if sys.byteorder != "little":
    raise ImportError("the ascasm engine views lanes in place and needs a little-endian host")

cdef enum:
    VL = 256                # bytes in a vector register
    MASK_BYTES = 32         # bytes in a mask register (VL / 8)
    MASK_WORDS = 4          # 64-bit words in a mask register
    LANES_B16 = 128         # lanes of a 16-bit type: the most a gather, scatter or float sum has
    LANES_B32 = 64
    # ctrl layout (ascasm/state.py)
    PC = 0
    STEPS = 1
    STATUS = 2
    FAULT_ARGS = 3
    CTRL_SIZE = 8
    DUP_WARN_FIELDS = 4     # dup_warn columns: count, earlier lane, later lane, address
    HAZARD_WARN_FIELDS = 4  # hazard_warn columns: count, writer row, first byte, one past the last byte
    UB_BYTES = 262144       # the UB (ascasm/state.py UB_SIZE); every checked address is below it
    BLOCK = 32              # bytes per hazard block: ub_dirty has one bit per byte, a word per block
    UB_BLOCKS = 8192        # UB_BYTES / BLOCK
    STOP_END = 100          # the end-of-code row: halts without counting a step
    LOG_FIELDS = 10         # a write-log record: step, row, kind, addr, width, count, pitch, lane, operand, index
    LOG_RESERVE = 520       # the most records one instruction can log (gather/scatter: a read and a write per lane)
    STOP_BEFORE = 1         # Ins.stop flags
    STOP_AFTER = 2
    SPR_AR = 0              # spr layout (ascasm/state.py): AR, SQZN, SQZN's set-flag
    SPR_SQZN = 1
    SPR_SQZN_SET = 2
    SPR_SIZE = 3
    UREG_BYTES = 32         # an unaligned store register: its pending bytes; ureg_state: count, address
    UREG_PENDING = 0
    UREG_ADDR = 1
    QREG_SET = 0            # qreg_state: set by a vldas, the stream position of the block in qreg
    QREG_POS = 1
    NUM_LOOPS = 4           # hwloop: (index, count) per active hardware loop, innermost first
    LOOP_INDEX = 0
    LOOP_COUNT = 1
    MAX_LOOP_COUNT = 65535
    MASK_SPR_LOW = 0        # mask_spr layout (ascasm/state.py): MASK0, MASK1, set by sprset.mask
    MASK_SPR_HIGH = 1
    MASK_SPR_SET = 2
    MASK_SPR_SIZE = 3
    MASK_SPR_FAULT = 2      # SPR_UNSET's argument for it

assert VL == _VL and MASK_BYTES * 8 == VL and MASK_WORDS * 8 == MASK_BYTES and LANES_B16 * 2 == VL and LANES_B32 * 4 == VL and UB_BLOCKS * BLOCK == UB_BYTES and DUP_WARN_FIELDS == _DUP_WARN_FIELDS and UB_BYTES == UB_SIZE
assert CTRL_SIZE == _CTRL_SIZE and HAZARD_WARN_FIELDS == _HAZARD_WARN_FIELDS and BLOCK == _UB_BLOCK
assert LOG_FIELDS == len(_LOG_FIELDS) and LOG_RESERVE == _LOG_RESERVE
assert (SPR_AR, SPR_SQZN, SPR_SQZN_SET, SPR_SIZE) == (_SPR_AR, _SPR_SQZN, _SPR_SQZN_SET, _SPR_SIZE)
assert (UREG_BYTES, UREG_PENDING, UREG_ADDR) == (_UREG_BYTES, _UREG_PENDING, _UREG_ADDR)
assert (QREG_SET, QREG_POS) == (_QREG_SET, _QREG_POS) and UREG_BYTES == BLOCK
assert (NUM_LOOPS, LOOP_INDEX, LOOP_COUNT, MAX_LOOP_COUNT) == (_NUM_LOOPS, _LOOP_INDEX, _LOOP_COUNT, _MAX_LOOP_COUNT)
assert MASK_SPR_SIZE == _MASK_SPR_SIZE

HANDLED = frozenset(table.OPCODES.values())     # every row: the kernels are generated per family


# ---------------------------------------------------------------------------------------------
# The machine as the kernels see it: raw pointers into the MachineState's arrays
# ---------------------------------------------------------------------------------------------

cdef struct Ins            # (declared below)
cdef struct Machine
ctypedef const Ins* (*KernelFn)(Machine* m, const Ins* ins) noexcept nogil


cdef struct Ins:            # a decoded bytecode row
    KernelFn run            # its specialised kernel (dispatch.pxi KERNELS): returns the row to run next
    int32_t kernel          # ... by number; 0: the end-of-code row
    int64_t row             # its own number
    int32_t family
    int32_t t, u            # type codes of type slots 0 and 1
    int32_t tw, uw          # their widths in bytes (1 if none)
    int64_t size, align, slot   # the row's access facts in bytes (ISA table Access), 0 if none
    uint8_t stop            # STOP_BEFORE | STOP_AFTER flags (set_stop_rows)
    int64_t partner         # vloop / endloop: the row of the matching endloop / vloop (-1 for other rows)
    Args a                  # the operands, as named fields of the family's struct

cdef struct Machine:
    uint8_t* ub
    uint8_t* vreg           # [32][256]
    uint64_t* preg          # [8][4] words: bit k of a register is bit k % 64 of word k / 64
    uint8_t* preg_set
    uint32_t* areg
    int64_t* sreg
    int64_t* ctrl
    int64_t* dup_warn
    int64_t* hazard_warn
    int64_t* spr            # AR, SQZN, SQZN set (special registers)
    uint8_t* ureg           # [4][32]: the bytes pending in each unaligned store register
    int64_t* ureg_state     # [4][2]: how many are pending, the UB address they belong at
    uint8_t* qreg           # [4][32]: the UB block each unaligned load register holds
    int64_t* qreg_state     # [4][2]: set by a vldas, the stream position the block was loaded for
    int64_t* hwloop         # [4][2]: index and count of each active hardware loop, innermost first
    int64_t* mask_spr       # MASK0, MASK1, set (the legacy mask special register)
    uint64_t* ctrlreg       # [1]: the CTRL special register (saturation modes, kernels_ctrl.pxi)
    uint32_t* ub_dirty      # per 32-byte block, one bit per byte written since the latest membar
    int32_t* ub_write_row   # per UB byte, the row that wrote it last
    int32_t* dirty_blocks   # the blocks with a nonzero ub_dirty word (a membar clears just those)
    int64_t n_dirty
    uint16_t* seen          # per UB byte: the stamp of the latest vsct whose lane addressed it
    uint16_t seen_stamp     # the executing (or latest) vsct's stamp
    int64_t ub_usable
    bint strict
    bint zero_inactive
    const Ins* code         # the decoded rows (branch targets are code + label)
    const Ins* next         # set by a branching kernel: the row to run next
    int status              # set by a kernel that stops the machine: a fault, halt or the end
    int64_t row             # the executing row (set for the kernels that touch the UB)
    int64_t step            # the executing instruction's step number (set when logging)
    bint hazard             # it touched bytes written since the latest membar: first..last, below
    int64_t hazard_first, hazard_last, hazard_writer
    int64_t* log            # the write log, when a recorder asks (NULL: off)
    int64_t log_len, log_cap
    int64_t zero64
    uint32_t zero32


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


cdef inline bint in_range(const Machine* m, int64_t addr, int64_t size) noexcept nogil:
    """Every byte of [addr, addr + size) in [0, usable) (written so nothing can overflow)."""
    return addr >= 0 and addr <= m.ub_usable - size


cdef inline int check_range(Machine* m, int64_t addr, int64_t size, int64_t lane, int64_t index) noexcept nogil:
    if in_range(m, addr, size):
        return STOP_RUNNING
    return fault(m, STOP_UB_RANGE, addr, size, m.ub_usable, lane, index)


cdef inline uint32_t block_bits(int64_t lo, int64_t hi) noexcept nogil:
    """Bits lo..hi-1 of a block's word (0 <= lo < hi <= 32)."""
    return <uint32_t>((((<uint64_t>1) << (hi - lo)) - 1) << lo)


cdef inline void scan_block(Machine* m, int64_t block, uint32_t touched) noexcept nogil:
    """Note which of the `touched` bytes of a block were written since the latest membar (LANGUAGE.md
    §5): the executing instruction's hazard spans its first to its last such byte. A block with no
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


cdef const Ins* k_end(Machine* m, const Ins* ins) noexcept nogil:
    """The row after the last one: falling off the end halts."""
    m.status = STOP_END
    return NULL


cdef void record_hazard(Machine* m) noexcept nogil:
    """Count a completed instruction's hazard in its row's record; the first case stays."""
    cdef int64_t* record = &m.hazard_warn[m.row * HAZARD_WARN_FIELDS]
    if record[0] == 0:
        record[1] = m.hazard_writer
        record[2] = m.hazard_first
        record[3] = m.hazard_last
    record[0] += 1
    m.hazard = False


include "kernels_scalar.pxi"
include "kernels_memory.pxi"
include "kernels_compute.pxi"
include "kernels_convert.pxi"
include "kernels_hif8.pxi"
include "kernels_ctrl.pxi"
include "kernels_compute_families.pxi"
include "kernels_stream.pxi"
include "kernels_loops.pxi"
include "kernels_stream_post.pxi"
include "kernels_compute_rest.pxi"
include "dispatch.pxi"


# ---------------------------------------------------------------------------------------------
# Loading: verification of the rows (vectorised), decoding
# ---------------------------------------------------------------------------------------------

# Slot kinds of each opcode's row (docs/bytecode.md), for checking every row at once.
cdef enum:
    SLOT_UNUSED = 0
    SLOT_VREG = 1
    SLOT_PREG = 2
    SLOT_AREG = 3
    SLOT_SREG = 4
    SLOT_FLAG = 5           # X: 0 immediate, 1 register
    SLOT_XVALUE = 6         # X: a register number if the flag before it is 1, else any value
    SLOT_ANY = 7            # immediates, address offsets
    SLOT_OPT_SREG = 8       # an address's scalar register or -1
    SLOT_OPT_AREG = 9       # an address's address register or -1
    SLOT_LABEL = 10
    SLOT_PAT = 11
    SLOT_BARRIER = 12
    SLOT_SAT = 13           # 0 or 1 (sat)
    SLOT_PART = 14          # a layout part, 0..3
    SLOT_UREG = 15          # an unaligned store register u0..u3
    SLOT_QREG = 16          # an unaligned load register q0..q3
    SLOT_TFLAG = 17         # X.T: 0 immediate, 1 register (an integer), 2 register holding T's bits
    N_SLOT_KINDS = 18

_SLOTS_OF_KIND = {Kind.VREG: [SLOT_VREG], Kind.PREG: [SLOT_PREG], Kind.AREG: [SLOT_AREG], Kind.SREG: [SLOT_SREG],
                  Kind.UREG: [SLOT_UREG], Kind.QREG: [SLOT_QREG], Kind.BASE: [SLOT_SREG],
                  Kind.SVAL: [SLOT_FLAG, SLOT_XVALUE], Kind.TVAL: [SLOT_TFLAG, SLOT_XVALUE], Kind.IMM: [SLOT_ANY],
                  Kind.ADDR: [SLOT_ANY, SLOT_OPT_SREG, SLOT_OPT_SREG, SLOT_OPT_AREG], Kind.LABEL: [SLOT_LABEL],
                  Kind.PAT: [SLOT_PAT], Kind.BARRIER: [SLOT_BARRIER], Kind.SAT: [SLOT_SAT], Kind.PART: [SLOT_PART]}
_N_OPCODES = max(table.OPCODES.values()) + 1
_N_TYPES = 1 + max(t.code for t in table.dtypes.TYPES)


def _build_tables():
    """Per opcode: the kind of each row slot, its family, and the kernel of each (type, type) pair
    (-1: not accepted); per opcode and type code, the access facts in bytes; per type code, its width."""
    slot_kinds = np.full((_N_OPCODES, ROW_WIDTH), SLOT_UNUSED, np.int64)
    kernel = np.full((_N_OPCODES, _N_TYPES, _N_TYPES), -1, np.int64)
    family = np.zeros(_N_OPCODES, np.int64)
    access = np.zeros((_N_OPCODES, _N_TYPES, 3), np.int64)
    width = np.ones(_N_TYPES, np.int64)            # type code 0 (no type): width 1
    for t in table.dtypes.TYPES:
        width[t.code] = t.width
    for op, spec in table.BY_OPCODE.items():
        kinds = [k for operand in spec.operands for k in _SLOTS_OF_KIND[operand.kind]]
        slot_kinds[op, ROW_HEADER:ROW_HEADER + len(kinds)] = kinds
        family[op] = FAMILY_OF_OPCODE[op]
        a = spec.access
        if a is not None:
            for code in range(_N_TYPES):
                w = int(width[code])
                access[op, code] = [a.bytes(a.size, w), a.bytes(a.align, w), a.bytes(a.slot, w) if a.slot else 0]
    for op, t, u, k in KERNEL_OF_ROWS:
        kernel[op, t, u] = k
    return slot_kinds, kernel, family, access, width


_SLOT_KINDS, _KERNEL, _FAMILY, _ACCESS, _WIDTH = _build_tables()
_RANGES = {SLOT_VREG: (0, NUM_VREGS), SLOT_PREG: (0, NUM_PREGS), SLOT_AREG: (0, NUM_AREGS), SLOT_SREG: (0, NUM_SREGS),
           SLOT_UREG: (0, NUM_UREGS), SLOT_QREG: (0, NUM_QREGS),
           SLOT_FLAG: (0, 2), SLOT_TFLAG: (0, 3), SLOT_OPT_SREG: (-1, NUM_SREGS), SLOT_OPT_AREG: (-1, NUM_AREGS),
           SLOT_PAT: (0, 16), SLOT_BARRIER: (-1, len(table.BARRIER_KINDS)), SLOT_SAT: (0, 2), SLOT_PART: (0, 4)}
_PATTERN_VALUES = np.array(sorted(table.PATTERNS.values()))


def _verify(code):
    """Every row checked against the ISA table at once (numpy): the kernels trust opcodes, type codes,
    register numbers, labels and patterns. Raises ValueError naming the first bad row."""
    n = code.shape[0]
    ops = code[:, 0]
    bad = (ops < 1) | (ops >= _N_OPCODES)
    safe_ops = np.where(bad, 0, ops)
    t, u = code[:, 1], code[:, 2]
    types_ok = (t >= 0) & (t < _N_TYPES) & (u >= 0) & (u < _N_TYPES)
    bad |= ~types_ok
    kernels = _KERNEL[safe_ops, np.where(types_ok, t, 0), np.where(types_ok, u, 0)]
    bad |= kernels < 0
    kinds = _SLOT_KINDS[safe_ops]
    slot_bad = (kinds == SLOT_UNUSED) & (code != 0)
    slot_bad[:, :ROW_HEADER] = False
    for kind, (lo, hi) in _RANGES.items():
        slot_bad |= (kinds == kind) & ((code < lo) | (code >= hi))
    flags = np.zeros_like(code)
    flags[:, 1:] = code[:, :-1]
    slot_bad |= (kinds == SLOT_XVALUE) & (flags != 0) & ((code < 0) | (code >= NUM_SREGS))   # 1, 2: a register
    slot_bad |= (kinds == SLOT_LABEL) & ((code < 0) | (code > n))          # n: a branch past the end halts
    slot_bad |= (kinds == SLOT_PAT) & ~np.isin(code, _PATTERN_VALUES)
    bad |= slot_bad.any(axis=1)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"bytecode row {row}: {_row_problem(code[row].tolist())}")
    return kernels


def _loop_partners(family):
    """Per row, the row of the matching endloop (for a vloop) or vloop (for an endloop), -1 for other rows.
    The kernels jump to them unchecked, so bytecode whose loops do not pair up, or nest deeper than
    NUM_LOOPS, is refused here (the assembler reports it with a caret)."""
    partners = np.full(family.shape[0], -1, np.int64)
    open_loops = []
    for row in np.flatnonzero((family == FAM_LOOP) | (family == FAM_ENDLOOP)).tolist():
        if family[row] == FAM_LOOP:
            if len(open_loops) == NUM_LOOPS:
                raise ValueError(f"bytecode row {row}: vloop nested deeper than {NUM_LOOPS} loops")
            open_loops.append(row)
        elif not open_loops:
            raise ValueError(f"bytecode row {row}: endloop without a vloop")
        else:
            start = open_loops.pop()
            partners[start], partners[row] = row, start
    if open_loops:                  # (no negative index here: the module is compiled without wraparound)
        raise ValueError(f"bytecode row {open_loops.pop()}: vloop without an endloop")
    return partners


def _row_problem(row) -> str:
    """Why one row failed verification, in words."""
    op = row[0]
    spec = table.BY_OPCODE.get(op)
    if spec is None:
        return f"unknown opcode {op}"
    if not 0 <= row[1] < _N_TYPES or not 0 <= row[2] < _N_TYPES or _KERNEL[op, row[1], row[2]] < 0:
        return f"type codes {row[1:ROW_HEADER]} not accepted by {spec.mnemonic}"
    return f"{spec.mnemonic}: operand slots {row[ROW_HEADER:]} out of range for `{spec.text}`"


def _require_shape(name, array, shape, dtype):
    if tuple(array.shape) != shape or array.dtype != np.dtype(dtype) or not array.flags.c_contiguous:
        raise ValueError(f"state.{name} is {array.dtype}{tuple(array.shape)}, expected C-contiguous {np.dtype(dtype)}{shape}")


# ---------------------------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------------------------

@cython.final
cdef class Engine:
    """Executes bytecode rows in place on a MachineState's arrays (shared with the reference executor)."""
    cdef Machine m
    cdef Ins* code                  # decoded rows, plus the end-of-code row
    cdef int64_t n_rows
    cdef int64_t max_steps
    cdef bint stops_set             # some row carries a stop flag: the loop looks at them
    cdef object state               # the MachineState whose arrays the engine runs on
    cdef tuple parts                # (name, shape, dtype) of each of its arrays
    cdef tuple bound                # the arrays the pointers point into, kept alive (see _bind)
    cdef object seen_buffer, dirty_list_buffer, log_buffer
    cdef readonly int64_t last_row  # the row the latest run() completed last; -1: it completed none

    def __cinit__(self):
        self.code = NULL

    def __dealloc__(self):
        free(self.code)

    def __init__(self, const int64_t[:, ::1] code, state, long long ub_usable, long long max_steps,
                 bint zero_inactive=False, bint strict=False):
        if code.shape[1] != ROW_WIDTH:
            raise ValueError(f"bytecode rows have {code.shape[1]} columns, expected {ROW_WIDTH}")
        rows = np.array(code, dtype=np.int64)
        kernels = _verify(rows)
        n = rows.shape[0]
        partners = _loop_partners(_FAMILY[rows[:, 0]])
        self.parts = (("ub", (UB_BYTES,), np.uint8), ("vreg", (NUM_VREGS, VL), np.uint8),
                      ("preg", (NUM_PREGS, MASK_BYTES), np.uint8), ("preg_set", (NUM_PREGS,), np.uint8),
                      ("areg", (NUM_AREGS,), np.uint32), ("sreg", (NUM_SREGS,), np.int64),
                      ("ctrl", (CTRL_SIZE,), np.int64), ("dup_warn", (n, DUP_WARN_FIELDS), np.int64),
                      ("hazard_warn", (n, HAZARD_WARN_FIELDS), np.int64),
                      ("ub_dirty", (UB_BLOCKS,), np.uint32), ("ub_write_row", (UB_BYTES,), np.int32),
                      ("spr", (SPR_SIZE,), np.int64), ("ureg", (NUM_UREGS, UREG_BYTES), np.uint8),
                      ("ureg_state", (NUM_UREGS, 2), np.int64),
                      ("qreg", (NUM_QREGS, UREG_BYTES), np.uint8), ("qreg_state", (NUM_QREGS, 2), np.int64),
                      ("hwloop", (NUM_LOOPS, 2), np.int64),
                      ("mask_spr", (MASK_SPR_SIZE,), np.int64),
                      ("ctrlreg", (1,), np.uint64))
        if not 0 <= ub_usable <= UB_BYTES:
            raise ValueError(f"ub_usable {ub_usable} outside [0, {UB_BYTES}]")
        self.state = state
        self.bound = ()
        self._bind()
        self.seen_buffer = np.zeros(UB_BYTES, np.uint16)
        self.dirty_list_buffer = np.zeros(UB_BLOCKS + 1, np.int32)     # + 1: mark_block appends before it counts
        cdef Machine* m = &self.m
        m.seen = <uint16_t*>_pointer(self.seen_buffer)
        m.seen_stamp = 0
        m.dirty_blocks = <int32_t*>_pointer(self.dirty_list_buffer)
        m.ub_usable = ub_usable
        m.strict = strict
        m.zero_inactive = zero_inactive
        m.zero64, m.zero32 = 0, 0
        m.log, m.log_len, m.log_cap = NULL, 0, 0
        self.max_steps = max_steps
        self.n_rows = n
        self.last_row = -1
        self.code = <Ins*>malloc((n + 1) * sizeof(Ins))
        if self.code == NULL:
            raise MemoryError("no memory for the decoded program")
        memset(self.code, 0, (n + 1) * sizeof(Ins))
        self.code[n].run = KERNELS[0]                        # row n: the end of the code
        self.code[n].row = n
        self.m.code = self.code
        ops = rows[:, 0]
        facts = np.column_stack([_ACCESS[ops, rows[:, 1]], _WIDTH[rows[:, 1]], _WIDTH[rows[:, 2]]])
        self._decode(rows, kernels, _FAMILY[ops], facts, partners)

    cdef _bind(self):
        """Point the machine at the state's arrays, checked, unless they are the ones bound already:
        a caller may replace an array (state.ub = ...), and the old one may then be freed."""
        cdef Py_ssize_t k
        arrays = tuple([getattr(self.state, name) for name, _shape, _dtype in self.parts])
        if len(self.bound) == len(arrays):
            for k in range(len(arrays)):
                if arrays[k] is not self.bound[k]:
                    break
            else:
                return
        for (name, shape, dtype), array in zip(self.parts, arrays):
            _require_shape(name, array, shape, dtype)
        cdef Machine* m = &self.m
        m.ub = <uint8_t*>_pointer(arrays[0])
        m.vreg = <uint8_t*>_pointer(arrays[1])
        m.preg = <uint64_t*>_pointer(arrays[2])
        m.preg_set = <uint8_t*>_pointer(arrays[3])
        m.areg = <uint32_t*>_pointer(arrays[4])
        m.sreg = <int64_t*>_pointer(arrays[5])
        m.ctrl = <int64_t*>_pointer(arrays[6])
        m.dup_warn = <int64_t*>_pointer(arrays[7])
        m.hazard_warn = <int64_t*>_pointer(arrays[8])
        m.ub_dirty = <uint32_t*>_pointer(arrays[9])
        m.ub_write_row = <int32_t*>_pointer(arrays[10])
        m.spr = <int64_t*>_pointer(arrays[11])
        m.ureg = <uint8_t*>_pointer(arrays[12])
        m.ureg_state = <int64_t*>_pointer(arrays[13])
        m.qreg = <uint8_t*>_pointer(arrays[14])
        m.qreg_state = <int64_t*>_pointer(arrays[15])
        m.hwloop = <int64_t*>_pointer(arrays[16])
        m.mask_spr = <int64_t*>_pointer(arrays[17])
        m.ctrlreg = <uint64_t*>_pointer(arrays[18])
        self.bound = arrays

    cdef void _decode(self, const int64_t[:, ::1] rows, const int64_t[::1] kernels, const int64_t[::1] family,
                      const int64_t[:, ::1] facts, const int64_t[::1] partners):
        """facts per row: access size, alignment and slot in bytes, then the widths of types 0 and 1."""
        cdef Ins* ins
        cdef int64_t r
        for r in range(self.n_rows):
            ins = &self.code[r]
            ins.kernel = <int32_t>kernels[r]
            ins.row = r
            ins.run = KERNELS[ins.kernel]
            ins.family = <int32_t>family[r]
            ins.t, ins.u = <int32_t>rows[r, 1], <int32_t>rows[r, 2]
            ins.size, ins.align, ins.slot = facts[r, 0], facts[r, 1], facts[r, 2]
            ins.tw, ins.uw = <int32_t>facts[r, 3], <int32_t>facts[r, 4]
            ins.partner = partners[r]
            decode_args(&self.m, &rows[r, 0], ins)

    def set_stop_rows(self, before, after):
        """Per-row stop flags (docs/bytecode.md "Stop flags"), each None (no flag) or n_rows values:
        `run` returns, the status still running, before executing a row flagged in `before` (except the
        first instruction of the call, so that a run can leave a breakpoint) and right after a row
        flagged in `after` completes. The debugger's breakpoints and watches; `ascasm run` sets none."""
        flags = _stop_flags(before, self.n_rows) * STOP_BEFORE + _stop_flags(after, self.n_rows) * STOP_AFTER
        cdef int64_t r
        for r in range(self.n_rows):
            self.code[r].stop = flags[r]
        self.stops_set = bool(flags.any())

    def set_log(self, log):
        """Log what each executed instruction reads and writes in the UB into `log`, an int64 array of
        shape (capacity, LOG_FIELDS) (None: stop logging). `run` then also returns, still running, once
        fewer than LOG_RESERVE records are free; `log_length` says how many it holds (docs/bytecode.md)."""
        if log is None:
            self.m.log, self.log_buffer = NULL, None
            return
        _require_shape("log", log, (log.shape[0], LOG_FIELDS), np.int64)
        if log.shape[0] < 2 * LOG_RESERVE:
            raise ValueError(f"a write log needs room for at least {2 * LOG_RESERVE} records")
        self.log_buffer = log
        self.m.log = <int64_t*>_pointer(log)
        self.m.log_cap = log.shape[0]
        self.m.log_len = 0

    @property
    def log_length(self) -> int:
        return self.m.log_len

    def clear_log(self):
        self.m.log_len = 0

    def run(self, long long budget) -> int:
        """Execute at most `budget` instructions; return the status (ctrl[2]): 0 (running) if the budget
        ran out or a stop flag (or a full write log) stopped it."""
        cdef int status
        if budget < 0:          # the run loop counts down to 0: a negative budget would ignore the step limit
            raise ValueError(f"budget {budget} is negative")
        self._bind()
        problem = control_error(self.state.ctrl, self.n_rows)
        if problem:
            raise ValueError(problem)
        self._check_streams()
        self._collect_dirty_blocks()
        with nogil:
            status = self._run(budget)
        return status

    cdef _check_streams(self):
        """The stream kernels size their copies by these, so a state set from outside must keep what the
        kernels do: up to 31 pending bytes that fit in the UB at their address, and SQZN a vector's bytes."""
        cdef int64_t u, pending, addr
        for u in range(NUM_UREGS):
            pending, addr = self.m.ureg_state[2 * u + UREG_PENDING], self.m.ureg_state[2 * u + UREG_ADDR]
            if not (0 <= pending < UREG_BYTES and (pending == 0 or 0 <= addr <= UB_BYTES - pending)):
                raise ValueError(f"u{u} holds {pending} pending bytes for address {addr}: "
                                 f"0..{UREG_BYTES - 1} bytes that fit in the UB from their address")
        if not 0 <= self.m.spr[SPR_SQZN] <= VL:
            raise ValueError(f"SQZN {self.m.spr[SPR_SQZN]} is not a vector's byte count (0..{VL})")

    cdef void _collect_dirty_blocks(self):
        """The list of blocks with dirty bits, from the state (which the debugger may have rewound)."""
        cdef int64_t block
        self.m.n_dirty = 0
        for block in range(UB_BLOCKS):
            if self.m.ub_dirty[block]:
                self.m.dirty_blocks[self.m.n_dirty] = <int32_t>block
                self.m.n_dirty += 1

    cdef int _run(self, long long budget) noexcept nogil:
        """Run rows from ctrl's pc (docs/semantics.md "Steps, halting, limits"): each kernel returns the
        row to run next, or NULL with Machine.status when it stops the machine."""
        cdef Machine* m = &self.m
        cdef int64_t steps = m.ctrl[STEPS]
        cdef int64_t limit = self.max_steps - steps if self.max_steps > steps else 0
        cdef int64_t todo = budget if budget < limit else limit        # the step limit is part of the budget
        cdef int64_t left = todo
        cdef const Ins* ins = &self.code[m.ctrl[PC]]
        cdef const Ins* last = NULL                 # the row completed last
        cdef const Ins* after
        cdef int status = <int>m.ctrl[STATUS]
        cdef bint flagged = False                   # a stop flag (or a full log) ended the run
        self.last_row = -1
        m.hazard = False
        m.status = STOP_RUNNING
        if status != STOP_RUNNING or (m.log != NULL and m.log_len > m.log_cap - LOG_RESERVE):
            return status
        if not self.stops_set and m.log == NULL:
            while left:                             # the fast loop: nothing to look at between rows
                after = ins.run(m, ins)
                if after == NULL:
                    break
                last = ins
                ins = after
                left -= 1
        else:
            while left:
                if (ins.stop & STOP_BEFORE) and last != NULL:
                    flagged = True                  # a breakpoint, not on the call's first row
                    break
                m.step = steps + todo - left + 1
                after = ins.run(m, ins)
                if after == NULL:
                    break
                last = ins
                left -= 1
                flagged = (ins.stop & STOP_AFTER) or (m.log != NULL and m.log_len > m.log_cap - LOG_RESERVE)
                ins = after
                if flagged:
                    break
        if m.status == STOP_HALTED:                 # halt counts its step; pc stays on its row
            last = ins
            left -= 1
        elif m.status == STOP_END:                  # past the last row: halts without a step
            m.status = STOP_HALTED
        elif m.status == STOP_RUNNING and left == 0 and todo < budget and not flagged:
            # the step limit, not the budget, ended the run; a breakpoint there still stops first
            if ins.row == self.n_rows:
                m.status = STOP_HALTED
            elif not (self.stops_set and (ins.stop & STOP_BEFORE) and last != NULL):
                m.status = fault(m, STOP_STEP_LIMIT, self.max_steps)
        m.ctrl[PC] = ins.row
        m.ctrl[STEPS] = steps + todo - left
        m.ctrl[STATUS] = m.status
        self.last_row = last.row if last != NULL else -1
        return m.status


cdef void* _pointer(array) except NULL:
    """The address of a C-contiguous array's first element (the engine keeps the array alive)."""
    if not array.flags.c_contiguous or not array.flags.writeable:
        raise ValueError("engine state arrays must be writeable and C-contiguous")
    return <void*><uintptr_t>array.ctypes.data


def _stop_flags(flags, n_rows):
    """One 0/1 stop flag per row (None: none set); the length is checked here."""
    rows = np.zeros(n_rows, np.uint8) if flags is None else (np.asarray(flags) != 0).astype(np.uint8)
    if rows.shape != (n_rows,):
        raise ValueError(f"stop flags have shape {rows.shape}, expected ({n_rows},): one per bytecode row")
    return rows


# ---------------------------------------------------------------------------------------------
# Test hook (not used by the engine): the float conversions over whole arrays, for the proofs
# ---------------------------------------------------------------------------------------------

def _test_codec(int64_t t, const uint64_t[::1] bits, const double[::1] values, const int64_t[::1] ints):
    """For float type t: (the exact values of `bits`, `values` rounded once to t, `ints` rounded once
    to t), as numpy arrays (float64, uint64 bits, uint64 bits)."""
    cdef FloatFormat f
    if t == T_F16:
        f = float_format(<F16*>NULL)
    elif t == T_BF16:
        f = float_format(<BF16*>NULL)
    elif t == T_F32:
        f = float_format(<float*>NULL)
    elif t == T_E4M3:
        f = float_format(<E4M3*>NULL)
    elif t == T_E5M2:
        f = float_format(<E5M2*>NULL)
    else:
        raise ValueError(f"type code {t} is not a float type the engine computes on")
    decoded = np.empty(bits.shape[0], np.float64)
    from_values = np.empty(values.shape[0], np.uint64)
    from_ints = np.empty(ints.shape[0], np.uint64)
    cdef double[::1] decoded_view = decoded
    cdef uint64_t[::1] from_values_view = from_values
    cdef uint64_t[::1] from_ints_view = from_ints
    cdef Py_ssize_t i
    with nogil:
        for i in range(bits.shape[0]):
            decoded_view[i] = decode_bits(bits[i], &f)
        for i in range(values.shape[0]):
            from_values_view[i] = encode_double(values[i], &f)
        for i in range(ints.shape[0]):
            from_ints_view[i] = encode_int(ints[i], &f)
    return decoded, from_values, from_ints
