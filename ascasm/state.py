"""Machine state (docs/language.md §1), stored as raw bytes so both executors can share and compare it."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .defaults import GM_MAX, MAX_STEPS_DEFAULT, UB_SIZE, UB_USABLE_DEFAULT   # (also imported from here)
from .isa.table import STOP_CODES

UB_BLOCK = 32               # bytes per word of ub_dirty (hazard tracking)
VL = 256                    # bytes in a vector register
NUM_VREGS, NUM_PREGS, NUM_AREGS, NUM_SREGS = 32, 8, 8, 32
# Special registers (docs/semantics.md "Squeeze and unaligned store streams"): spr holds AR (the byte
# offset of the AR-addressed store), SQZN (the bytes the latest vsqz.st kept) and whether SQZN was set.
SPR_AR, SPR_SQZN, SPR_SQZN_SET = 0, 1, 2
SPR_SIZE = 3
SPR_NAMES = ("AR", "SQZN")
# The legacy mask special register {MASK1, MASK0} (docs/semantics.md "The mask special register"):
# mask_spr holds MASK0 (the low 64 bits), MASK1 (the high 64 bits) and whether sprset.mask has set them.
MASK_SPR_LOW, MASK_SPR_HIGH, MASK_SPR_SET = 0, 1, 2
MASK_SPR_SIZE = 3
MASK_SPR_NAME = "MASK"      # as the debugger, the trace and `specials` name it
MASK_SPR_FAULT = 2          # SPR_UNSET's argument when the mask SPR is read unset (0, 1: AR, SQZN)
# Unaligned store registers u0-u3: up to 31 pending bytes each (ureg) and, per register (ureg_state),
# how many bytes are pending and the UB address they belong at.
NUM_UREGS, UREG_BYTES = 4, 32
UREG_PENDING, UREG_ADDR = 0, 1
# Unaligned load registers q0-q3: one 32-byte UB block each (qreg) and, per register (qreg_state),
# whether a vldas has set it and the stream position the block was loaded for.
NUM_QREGS = 4
QREG_SET, QREG_POS = 0, 1
# Hardware loops (docs/semantics.md "Hardware loops"): one row per active loop, innermost
# first, holding its index and its count (0, 0 for a level no loop occupies). At most 4 nest, as the
# pages' HardwareLoop allows; the index is a uint16 and the count at most 65535.
NUM_LOOPS = 4
LOOP_INDEX, LOOP_COUNT = 0, 1
MAX_LOOP_COUNT = 65535
# The CTRL special register (Reg::Cast table 5, docs/semantics.md "The CTRL register"),
# written whole by sprset.ctrl: bit 60 makes the saturation mode global (0: each conversion's `sat`);
# then bit 48 = 1 turns it off for float results, bit 59 = 1 for float->integer and integer->integer
# conversions; bit 50 = 1 keeps NaN in saturating conversions to e4m3/e5m2.
CTRL_GLOBAL_SAT, CTRL_FLOAT_NO_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN = 60, 48, 59, 50

# The data-move settings (docs/semantics.md "Data moves"), set by the sprset.gm2ub.* / sprset.ub2gm.* /
# sprset.pad rows: per direction the loop1 and loop2 sizes (1 at start: the pages' reset value) and the
# loop1 and loop2 strides, each a source then a destination stride in bytes; then the pad value's bits.
MTE_GM2UB, MTE_UB2GM = 0, 6          # the first field of each direction's six
MTE_LOOP1, MTE_LOOP2, MTE_L1_SRC, MTE_L1_DST, MTE_L2_SRC, MTE_L2_DST = range(6)
MTE_PAD = 12
MTE_SIZE = 13
MTE_INITIAL = (1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0)
MAX_LOOP_ITERATIONS = 256            # loop1 * loop2 of one data move (docs/semantics.md "Data moves")
# The system variables a run sets (docs/language.md §1): block index and block count.
SYS_BLOCK_IDX, SYS_BLOCK_NUM = 0, 1
SYS_SIZE = 2
# Synchronisation flags (docs/semantics.md "Synchronisation"): a count of pending setflags per
# (source pipe, target pipe, event).
PIPES = {"PIPE_S": 0, "PIPE_V": 1, "PIPE_M": 2, "PIPE_MTE1": 3, "PIPE_MTE2": 4, "PIPE_MTE3": 5, "PIPE_ALL": 6,
         "PIPE_FIX": 7}
NUM_PIPES, NUM_EVENTS = 8, 8
PIPE_ALL = PIPES["PIPE_ALL"]
# Synchronisation between blocks (docs/semantics.md "Several cores"): per cross-core flag 0..15 and,
# last, SyncAll's own counter, how often this block has set it (crossset, or reached a syncall), how
# often it has passed its wait, and how many rounds every block of the run has completed (the smallest
# set count of all blocks, which the run's scheduler writes). A flag's counter is rounds - waits.
NUM_XFLAGS = 16
XSYNC_SYNCALL = NUM_XFLAGS           # the column of SyncAll's counter
XSYNC_SETS, XSYNC_WAITS, XSYNC_ROUNDS = 0, 1, 2
XSYNC_SHAPE = (3, NUM_XFLAGS + 1)
MAX_XPENDING = 15                    # a flag's counter holds 0..15 (CrossCoreSetFlag)
# The GM writer of each GM byte in a run of several blocks (empty otherwise): (epoch << 32) | (block + 1),
# epoch the cross-core waits the block had passed when it wrote (0: never written by a block).
GM_WRITER_BLOCK_BITS = 32

# ctrl array layout, shared by both executors (docs/bytecode.md).
PC, STEPS, STATUS = 0, 1, 2
FAULT_ARGS = slice(3, 8)    # up to five int64 values describing a fault
CTRL_SIZE = 8
DUP_WARN_FIELDS = 4         # count, earlier lane, later lane, address
# The write log a recorder can ask either executor for (docs/bytecode.md "Write log"): one int64 record
# per access, and the room an instruction may need (a gather's or scatter's lanes).
LOG_FIELDS = ("step", "row", "kind", "addr", "width", "count", "pitch", "lane", "operand", "index")
LOG_READ, LOG_WRITE = 0, 1
LOG_GM_READ, LOG_GM_WRITE = 2, 3    # the same for global memory (the data moves)
LOG_RESERVE = 520
HAZARD_WARN_FIELDS = 4      # count, writer's row, first byte, one past the last byte
UNWRITTEN_WARN_FIELDS = 4   # count, the load's row, the first unwritten UB byte, its lane (-1: a scalar read)
# vreg_origin columns: the row of the vld that filled the register, the UB address of its byte 0
ORIGIN_ROW, ORIGIN_ADDR = 0, 1


@dataclass
class MachineState:
    ub: np.ndarray = field(default_factory=lambda: np.zeros(UB_SIZE, np.uint8))
    vreg: np.ndarray = field(default_factory=lambda: np.zeros((NUM_VREGS, VL), np.uint8))
    preg: np.ndarray = field(default_factory=lambda: np.zeros((NUM_PREGS, VL // 8), np.uint8))
    preg_set: np.ndarray = field(default_factory=lambda: np.zeros(NUM_PREGS, np.uint8))  # 0 = never written
    areg: np.ndarray = field(default_factory=lambda: np.zeros(NUM_AREGS, np.uint32))
    sreg: np.ndarray = field(default_factory=lambda: np.zeros(NUM_SREGS, np.int64))
    ctrl: np.ndarray = field(default_factory=lambda: np.zeros(CTRL_SIZE, np.int64))
    # One row per instruction: how often it stored duplicate active indices, and the first such case
    # (earlier lane, later lane, address). Sized by Program.initial_state().
    dup_warn: np.ndarray = field(default_factory=lambda: np.zeros((0, DUP_WARN_FIELDS), np.int64))
    # Hazard tracking (docs/language.md §9, docs/semantics.md "Hazards"): which UB bytes were written since
    # the latest membar (bit j of word b: byte 32*b + j), the row that wrote each UB byte last, and per
    # instruction how often it touched bytes written since the latest membar and the first case.
    ub_dirty: np.ndarray = field(default_factory=lambda: np.zeros(UB_SIZE // UB_BLOCK, np.uint32))
    ub_write_row: np.ndarray = field(default_factory=lambda: np.zeros(UB_SIZE, np.int32))
    hazard_warn: np.ndarray = field(default_factory=lambda: np.zeros((0, HAZARD_WARN_FIELDS), np.int64))
    # Bytes never written (docs/semantics.md "Bytes never written"): per UB byte of an `undef` buffer,
    # one bit (as ub_dirty's) until a write since the latest membar folds in; per vector register byte,
    # one bit when a vld filled it from such bytes, with the vld's row and address; per row, how often
    # it read such bytes and the first case.
    ub_unwritten: np.ndarray = field(default_factory=lambda: np.zeros(UB_SIZE // UB_BLOCK, np.uint32))
    vreg_unwritten: np.ndarray = field(default_factory=lambda: np.zeros((NUM_VREGS, VL // 64), np.uint64))
    vreg_origin: np.ndarray = field(default_factory=lambda: np.zeros((NUM_VREGS, 2), np.int64))
    unwritten_warn: np.ndarray = field(default_factory=lambda: np.zeros((0, UNWRITTEN_WARN_FIELDS), np.int64))
    spr: np.ndarray = field(default_factory=lambda: np.zeros(SPR_SIZE, np.int64))
    ureg: np.ndarray = field(default_factory=lambda: np.zeros((NUM_UREGS, UREG_BYTES), np.uint8))
    ureg_state: np.ndarray = field(default_factory=lambda: np.zeros((NUM_UREGS, 2), np.int64))
    qreg: np.ndarray = field(default_factory=lambda: np.zeros((NUM_QREGS, UREG_BYTES), np.uint8))
    qreg_state: np.ndarray = field(default_factory=lambda: np.zeros((NUM_QREGS, 2), np.int64))
    hwloop: np.ndarray = field(default_factory=lambda: np.zeros((NUM_LOOPS, 2), np.int64))
    mask_spr: np.ndarray = field(default_factory=lambda: np.zeros(MASK_SPR_SIZE, np.int64))
    ctrlreg: np.ndarray = field(default_factory=lambda: np.zeros(1, np.uint64))   # CTRL
    gm: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint8))   # global memory, sized by the program
    mte: np.ndarray = field(default_factory=lambda: np.array(MTE_INITIAL, np.int64))   # data-move settings
    sysreg: np.ndarray = field(default_factory=lambda: np.array((0, 1), np.int64))      # block index, count
    flags: np.ndarray = field(default_factory=lambda: np.zeros((NUM_PIPES, NUM_PIPES, NUM_EVENTS), np.int64))
    xsync: np.ndarray = field(default_factory=lambda: np.zeros(XSYNC_SHAPE, np.int64))  # cross-core flags
    gm_writer: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # shared by a run's blocks

    PARTS = ("ub", "vreg", "preg", "preg_set", "areg", "sreg", "ctrl", "dup_warn", "ub_dirty",
             "ub_write_row", "hazard_warn", "spr", "ureg", "ureg_state", "qreg",
             "qreg_state", "hwloop", "mask_spr", "ctrlreg", "gm", "mte", "sysreg", "flags", "xsync",
             "gm_writer", "ub_unwritten", "vreg_unwritten", "vreg_origin", "unwritten_warn")

    @property
    def pc(self) -> int:
        return int(self.ctrl[PC])

    @property
    def steps(self) -> int:
        return int(self.ctrl[STEPS])

    @property
    def status(self) -> int:
        return int(self.ctrl[STATUS])

    @property
    def fault_args(self) -> tuple:
        return tuple(int(x) for x in self.ctrl[FAULT_ARGS])

    def copy(self) -> "MachineState":
        return MachineState(**{name: getattr(self, name).copy() for name in self.PARTS})

    def first_difference(self, other: "MachineState") -> str | None:
        """Where two states first differ byte for byte, in words; None when identical."""
        for name in self.PARTS:
            mine, theirs = getattr(self, name), getattr(other, name)
            raw_mine, raw_theirs = mine.view(np.uint8).reshape(-1), theirs.view(np.uint8).reshape(-1)
            differing = np.flatnonzero(raw_mine != raw_theirs)
            if differing.size:
                return _describe(name, mine, theirs, int(differing[0]))
        return None


def _describe(name: str, mine: np.ndarray, theirs: np.ndarray, byte: int) -> str:
    if name in ("ub", "gm"):
        return f"{name}[{byte:#x}]: {mine[byte]:#04x} != {theirs[byte]:#04x}"
    if name == "flags":
        where = np.unravel_index(byte // mine.itemsize, mine.shape)
        return f"sync flag (pipe {where[0]}, pipe {where[1]}, event {where[2]}): {mine[where]} != {theirs[where]}"
    if name == "xsync":
        what, flag = divmod(byte // mine.itemsize, XSYNC_SHAPE[1])
        label = "SyncAll" if flag == XSYNC_SYNCALL else f"cross-core flag {flag}"
        return f"{label} {('sets', 'waits', 'rounds')[what]}: {mine[what, flag]} != {theirs[what, flag]}"
    if name == "gm_writer":
        index = byte // mine.itemsize
        return f"GM writer of GM byte {index:#x}: {mine[index]:#x} != {theirs[index]:#x}"
    if name in ("dup_warn", "hazard_warn", "unwritten_warn"):
        row = byte // (mine.itemsize * mine.shape[1])
        return f"{name} record of row {row}: {list(mine[row])} != {list(theirs[row])}"
    if name == "ub_unwritten":
        block = byte // mine.itemsize
        return (f"bytes never written, UB {block * UB_BLOCK:#x}..{block * UB_BLOCK + UB_BLOCK - 1:#x}: "
                f"{mine[block]:#010x} != {theirs[block]:#010x}")
    if name in ("vreg_unwritten", "vreg_origin"):
        reg, column = divmod(byte // mine.itemsize, mine.shape[1])
        what = f"unwritten bits {column * 64}..{column * 64 + 63}" if name == "vreg_unwritten" else \
            ("load row", "load address")[column]
        return f"v{reg} {what}: {mine[reg, column]:#x} != {theirs[reg, column]:#x}"
    if name == "ub_dirty":
        block = byte // mine.itemsize
        return (f"bytes written since the membar, UB {block * UB_BLOCK:#x}..{block * UB_BLOCK + UB_BLOCK - 1:#x}: "
                f"{mine[block]:#010x} != {theirs[block]:#010x}")
    if name == "ub_write_row":
        index = byte // mine.itemsize
        return f"{name}[{index:#x}]: {mine[index]} != {theirs[index]}"
    if name in ("ureg_state", "qreg_state"):
        reg, column = divmod(byte // mine.itemsize, 2)
        what = ("pending bytes", "address") if name == "ureg_state" else ("set flag", "position")
        return f"{name[0]}{reg} {what[column]}: {mine[reg, column]} != {theirs[reg, column]}"
    if name == "hwloop":
        level, column = divmod(byte // mine.itemsize, 2)
        return f"hardware loop lidx{level} {('index', 'count')[column]}: {mine[level, column]} != {theirs[level, column]}"
    if mine.ndim == 2:
        row, col = divmod(byte, mine.shape[1])
        prefix = {"vreg": "v", "preg": "p", "ureg": "u", "qreg": "q"}[name]
        return f"{prefix}{row} byte {col}: {mine[row, col]:#04x} != {theirs[row, col]:#04x}"
    index = byte // mine.itemsize
    if name == "ctrlreg":
        return f"CTRL: {int(mine[0]):#x} != {int(theirs[0]):#x}"
    label = {"preg_set": "p{} set-flag", "areg": "a{}", "sreg": "s{}", "spr": "spr[{}] (AR, SQZN, SQZN set)",
             "mask_spr": "mask_spr[{}] (MASK0, MASK1, set)",
             "mte": "mte[{}] (data-move loop sizes, strides, pad)", "sysreg": "sysreg[{}] (block index, count)",
             "ctrl": "ctrl[{}] (pc, steps, status, 5 fault args)"}[name].format(index)
    return f"{label}: {mine[index]} != {theirs[index]}"


STOP_NAMES = {code: name for name, code in STOP_CODES.items()}


def control_error(ctrl: np.ndarray, n_rows: int) -> str | None:
    """What is wrong with a ctrl array set from outside (the executors run only from what a run can
    leave: a pc in the program or just past it, a step count from 0, a known stop code); None if fine."""
    pc, steps, status = (int(x) for x in ctrl[:STATUS + 1])
    if not 0 <= pc <= n_rows:
        return f"pc {pc} is outside the program (0..{n_rows})"
    if steps < 0:
        return f"steps {steps} is not a step count (0 or more)"
    if status not in STOP_NAMES:
        return f"status {status} is not a stop code ({', '.join(f'{c} {n}' for c, n in STOP_NAMES.items())})"
    return None
