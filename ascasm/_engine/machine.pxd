# The engine's shared declarations (cimported by core.pyx and every kernel module): the decoded row,
# the machine as the kernels see it, the kernel pointer type, and the layout constants.

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef extern from "squeeze.h":                  # vsqz's lane compaction (a byte shuffle per lane group)
    void ascasm_squeeze_init() nogil
    int64_t ascasm_squeeze(const uint8_t* src, const uint64_t* mask, int width, uint8_t* packed) nogil
    uint64_t ascasm_lane_bits(uint64_t x, int width) nogil


cdef extern from "signs.h":                    # the compares' mask bits (a byte-sign gather per 16 bytes)
    void ascasm_sign_bits(const uint8_t* bytes, uint64_t* words) nogil


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
    # CTRL bits (ascasm/state.py, docs/semantics.md "The CTRL register")
    CTRL_GLOBAL_SAT = 60    # 1: the saturation mode is global (conversions ignore their `sat`; compute obeys)
    CTRL_FLOAT_NO_SAT = 48  # then 1: float results (conversions and compute) do not saturate
    CTRL_INT_NO_SAT = 59    # then 1: integer results (conversions, integer add/sub/mul) do not saturate
    CTRL_SAT_KEEPS_NAN = 50 # 1: a saturating conversion to e4m3/e5m2 gives NaN for NaN, not 0
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
    MTE_SIZE = 13           # mte layout (ascasm/state.py): per direction loop1, loop2 counts, loop1 then loop2
    MTE_GM2UB = 0           # source and destination strides; then the pad value's bits
    MTE_UB2GM = 6
    MTE_PAD = 12
    NUM_PIPES = 8
    NUM_EVENTS = 8
    NUM_XFLAGS = 16         # xsync layout (ascasm/state.py): sets, waits, rounds per cross-core flag; last
    XSYNC_COLUMNS = 17      # column: SyncAll's counter
    MAX_XPENDING = 15


cdef struct Ins            # (declared below)
cdef struct Machine
ctypedef const Ins* (*KernelFn)(Machine* m, const Ins* ins) noexcept nogil


cdef struct Ins:            # a decoded bytecode row
    KernelFn run            # its specialised kernel (dispatch.pxi KERNELS): returns the row to run next
    int32_t kernel          # ... by number; 0: the end-of-code row
    int64_t row             # its own number
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
    uint64_t* ctrlreg       # [1]: the CTRL special register (saturation modes, convert.pyx)
    uint32_t* ub_dirty      # per 32-byte block, one bit per byte written since the latest membar
    int32_t* ub_write_row   # per UB byte, the row that wrote it last
    int32_t* dirty_blocks   # the blocks with a nonzero ub_dirty word (a membar clears just those)
    int64_t n_dirty
    uint16_t* seen          # per UB byte: the stamp of the latest vsct whose lane addressed it
    uint16_t seen_stamp     # the executing (or latest) vsct's stamp
    int64_t ub_usable
    const int64_t* regions  # the buffers as sorted [lo, hi) pairs, adjacent ones merged (docs/semantics.md
    int64_t n_regions       # "Buffers as bounds"); 0: every byte of the usable UB may be accessed
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
    uint8_t* gm             # global memory (datamove.pyx), gm_size bytes
    int64_t gm_size
    const int64_t* gm_regions   # GM's buffers as sorted [lo, hi) pairs, adjacent ones merged: always bounds
    int64_t n_gm_regions
    int64_t* mte            # the data-move settings (ascasm/state.py MTE_*)
    int64_t* sysreg         # block index, block count
    int64_t* flags          # [pipe][pipe][event]: pending setflags
    int64_t* xsync          # [3][17]: per cross-core flag (and SyncAll) sets, waits passed, rounds completed
    int64_t* gm_writer      # per GM byte in a run of several blocks: (epoch << 32) | (block + 1); 0 none
    int64_t n_gm_writer     # 0 (one block: nothing recorded) or gm_size
    uint32_t* ub_unwritten  # per 32-byte block, one bit per byte never written (docs/semantics.md
                            # "Bytes never written"; a write folds in from ub_dirty at the hazard window's end)
    uint64_t* vreg_unwritten    # [32][4]: per vector register byte, filled by a vld from such a byte
    int64_t* vreg_origin    # [32][2]: the row of that vld and its address
    int64_t* unwritten_warn # per row: count, the load's row, the first such UB byte, its lane
