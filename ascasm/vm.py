"""Run a program on either executor, and turn stop codes into faults a user can read."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from .defaults import ENGINES, STORE_INACTIVE
from .isa import STOP_CODES
from .lanes import mask_width_warnings
from .program import Program
from .source import SourceLoc, format_diagnostic
from .state import (FAULT_ARGS, PIPES, MASK_SPR_FAULT, MASK_SPR_NAME, MAX_STEPS_DEFAULT, SPR_NAMES, STATUS, STOP_NAMES,
                    UB_USABLE_DEFAULT, XSYNC_ROUNDS, XSYNC_SETS, XSYNC_SYNCALL, XSYNC_WAITS, MachineState)

RUNNING, WAITING, DEADLOCK = STOP_CODES["RUNNING"], STOP_CODES["WAITING"], STOP_CODES["DEADLOCK"]
MAX_BLOCKS = 65535      # the block count a run may give (docs/language.md §1)
# Steps per executor call in Machine.run: at most ~1 us per vector step, a chunk takes < 0.1 s.
RUN_CHUNK = 1 << 16


class EngineMissing(RuntimeError):
    pass


def compiled_engine():
    """The Cython engine module; raises EngineMissing (never falls back) when it is not built."""
    try:
        from ._engine import core
    except ImportError as exc:
        raise EngineMissing(missing_engine_message(Path(__file__).resolve().parent, exc)) from exc
    return core


def missing_engine_message(package: Path, exc: ImportError) -> str:
    if (package.parent / "setup.py").is_file():          # a source checkout, never built in place
        return (f"ascasm is imported from its source tree ({package}), where the compiled engine is not "
                "built; run from another directory to use the installed ascasm, or build it here with "
                "`pip install -e .`")
    return f"the compiled engine is not available ({exc}); reinstall with `pip install .` or run with --engine ref"


class MachineFault(Exception):
    """A runtime fault: its kind, the instruction's source position, the step and the values."""

    def __init__(self, kind: str, message: str, loc: SourceLoc | None, step: int, asm: SourceLoc | None = None):
        super().__init__(message)
        self.kind, self.message, self.loc, self.step = kind, message, loc, step
        self.asm = asm          # the instruction's assembly line when `loc` is a .loc (C++) position

    def __str__(self) -> str:
        notes = [f"at step {self.step}"]
        if self.loc is None:
            return f"fault: {self.message} ({notes[0]})"
        if self.asm is not None:
            notes.append(f"in the instruction {' '.join(self.asm.text.split(';')[0].split())} ({self.asm})")
        return format_diagnostic("fault", self.loc, self.message, notes)


def written_by_move(program: Program, writer_row: int) -> bool:
    return program.insns[writer_row].spec.mnemonic.startswith("gm2ub")


def hazard_text(program: Program, writer_row: int, first: int, last: int) -> str:
    writer = program.insns[writer_row].loc
    if written_by_move(program, writer_row):
        return (f"UB bytes {first:#x}..{last - 1:#x} were written by the data move at line {writer.line} "
                f"({writer.text.strip()}) and are touched with no wait between (waitflag, pipebar or membar)")
    return (f"UB bytes {first:#x}..{last - 1:#x} were written by line {writer.line} "
            f"({writer.text.strip()}) and are touched again with no membar between")


def unwritten_text(program: Program, load_row: int, address: int, lane: int) -> str:
    """A read of UB bytes never written: by a vector lane a vld filled (lane >= 0), or by a scalar ld."""
    buffers = [b for b in program.buffers.values() if b.space == "ub" and b.addr <= address < b.addr + b.nbytes]
    place = f" (offset {address - buffers[0].addr} of buffer {buffers[0].name})" if buffers else ""
    if lane < 0 or not 0 <= load_row < len(program.insns):
        return f"UB byte {address:#x}{place}: nothing has written it"
    load = program.insns[load_row].loc
    return (f"lane {lane} holds UB byte {address:#x}{place}, which nothing had written when line {load.line} "
            f"({load.text.strip()}) loaded it")


def outside_text(program: Program, address: int, size: int, lane: int, index: int) -> str:
    """An access outside every buffer, placed against the nearest buffer (the lower one of two as near)."""
    where = f" (lane {lane}, index {index % 2**64})" if index != -1 else f" (lane {lane})" if lane >= 0 else ""
    strict = "" if program.bounded else " (--strict)"
    text = f"UB access outside every buffer{strict}: {size} bytes at address {address:#x}{where}"
    ub = [b for b in program.buffers.values() if b.space == "ub"]
    if not ub:
        return text
    buf = min(ub,
              key=lambda b: (max(b.addr - (address + size), address - (b.addr + b.nbytes), 0), b.addr))
    return (text + f" are offset {address - buf.addr} of buffer {buf.name}, which is {buf.nbytes} bytes "
            f"({buf.etype.name}[{buf.count}] at {buf.addr:#x})")


def gm_outside_text(program: Program, address: int, size: int) -> str:
    """A GM access outside every .gm buffer, placed against the nearest one."""
    text = f"GM access outside every buffer: {size} bytes at GM address {address:#x}"
    gm = [b for b in program.buffers.values() if b.space == "gm"]
    if not gm:
        return text + " (the program declares no .gm buffer)"
    buf = min(gm, key=lambda b: (max(b.addr - (address + size), address - (b.addr + b.nbytes), 0), b.addr))
    return (text + f" are offset {address - buf.addr} of buffer {buf.name}, which is {buf.nbytes} bytes "
            f"({buf.etype.name}[{buf.count}] at GM {buf.addr:#x})")


# BAD_MOVE's texts, by its first argument (ascasm/ref/datamove.py names them)
BAD_MOVE_TEXT = (
    "burst count {} out of range 1..4095",
    "burst length {} out of range 1..2097151",
    "burst length {} is not a multiple of the {}-byte element",
    "left padding of {} elements of {} bytes is more than 32 bytes",
    "right padding of {} elements of {} bytes is more than 32 bytes",
    "loop sizes {} x {}: more than 256 iterations in one data move (ascasm's limit), or a count outside 0..2097151",
    "pipe {} is not a pipe this instruction takes (setflag/waitflag: not PIPE_ALL; pipebar: not PIPE_S; "
    "crossset: neither)",
    "event {} out of range 0..7",
    "loop count {} out of range 0..2097151",
    "UB stride {} of a loop setting is not a 32-byte multiple in 0..2097151",
    "GM stride {} of a loop setting out of range 0..2^40-1",
    "UB stride {} is not 32-byte aligned (it must be unless it equals the burst length)",
    "size {} is not a multiple of 32 bytes (the size form's rule)",
    "L2 cache mode {} is not one of the page's values (loads: 0 1 2 4 5 6; stores: 0 1 2 4)",
    "cross-core flag {}: a 16th set not yet waited for in this block (its counter holds 0..15)",
)
HAZARD_NOTE = "the hardware runs vector loads and stores out of order: put a membar between them"
MOVE_HAZARD_NOTE = ("the data move runs in its own pipe (MTE2): wait for it first (WaitFlag after SetFlag, "
                    "PipeBarrier, or a queue's DeQue)")
DUP_NOTE = "the hardware keeps an unspecified one; ascasm keeps the highest lane"
UNWRITTEN_NOTE = ("the hardware leaves such bytes as they were (garbage): write them first (a data move or a "
                  "store), or leave their lanes out of the mask")


def wait_name(column: int) -> str:
    """What a cross-core wait waits for, by its xsync column."""
    return "syncall" if column == XSYNC_SYNCALL else f"crosswait of cross-core flag {column}"


def publish_rounds(states: list):
    """Each cross-core flag's completed rounds, the smallest set count of all the blocks, into every
    block's state (docs/semantics.md "Several cores")."""
    rounds = np.min([state.xsync[XSYNC_SETS] for state in states], axis=0)
    for state in states:
        state.xsync[XSYNC_ROUNDS] = rounds


def can_pass(state: MachineState) -> bool:
    """Whether a block stopped WAITING can now take its wait (publish_rounds first)."""
    column = int(state.ctrl[FAULT_ARGS][0])
    return bool(state.xsync[XSYNC_ROUNDS, column] > state.xsync[XSYNC_WAITS, column])


def deadlock_text(program: Program, states: list, waiting: list) -> str:
    """Why the blocks in `waiting` (indices into `states`, each stopped WAITING) can never go on: what
    each waits for and how often every block has set it."""
    parts = []
    for b in waiting:
        state = states[b]
        column = int(state.ctrl[FAULT_ARGS][0])
        line = program.insns[state.pc].loc.line
        sets = ", ".join(f"block {k} {int(other.xsync[XSYNC_SETS, column])}" for k, other in enumerate(states))
        parts.append(f"block {b} waits at line {line} ({wait_name(column)}, its wait {int(state.xsync[XSYNC_WAITS, column]) + 1}; "
                     f"sets so far: {sets})")
    others = [f"block {k} {STOP_NAMES[s.status].lower()} at line {program.insns[min(s.pc, len(program.insns) - 1)].loc.line}"
              for k, s in enumerate(states) if k not in waiting]
    return ("deadlock: " + "; ".join(parts) + (". " + ", ".join(others) if others else "")
            + ": no block can set what these waits need any more")


def fault_message(kind: str, args: tuple, program: Program, insn=None, block: int = 0) -> str:
    if kind == "MISALIGNED":
        return f"misaligned address {args[0]:#x}: this access needs {args[1]}-byte alignment"
    if kind == "UB_RANGE":
        address, size, usable, lane, index = args
        # index -1: no index (a store lane); a u64 index of 2^63 or more is stored negative
        where = f" (lane {lane}, index {index % 2**64})" if index != -1 else f" (lane {lane})" if lane >= 0 else ""
        return (f"UB access out of range: {size} bytes at address {address:#x}{where}; "
                f"the usable UB is {usable} bytes (0x0..{usable:#x})")
    if kind == "OUT_OF_BUFFER":
        return outside_text(program, *args[:4])
    if kind == "MASK_UNSET":
        return f"read of unset mask register p{args[0]}: no instruction has written it"
    if kind == "DIV_ZERO":
        return "scalar division by zero"
    if kind == "STEP_LIMIT":
        return f"step limit of {args[0]} steps reached (raise it with --max-steps)"
    if kind == "DUP_INDEX":
        return f"duplicate active indices (--strict): lanes {args[0]} and {args[1]} both store to address {args[2]:#x}"
    if kind == "HAZARD":
        return "memory hazard (--strict): " + hazard_text(program, *args[:3])
    if kind == "UNWRITTEN":
        return "read of bytes never written (--strict): " + unwritten_text(program, *args[:3])
    if kind == "SPR_UNSET":
        if args[0] == MASK_SPR_FAULT:
            return f"read of unset special register {MASK_SPR_NAME}: no sprset.mask has set it"
        return f"read of unset special register {SPR_NAMES[args[0]]}: no vsqz.st has set it"
    if kind == "STREAM_BREAK":
        u, address, pending_at, pending = args[:4]
        return (f"unaligned store stream of u{u} broken at address {address:#x}: its {pending} pending bytes "
                f"belong at {pending_at:#x}..{pending_at + pending - 1:#x}, so the stream continues (and its flush "
                f"ends) at {pending_at + pending:#x}")
    if kind == "ALIGN_UNSET":
        return f"read of unset unaligned load register q{args[0]}: no vldas has started its stream"
    if kind == "ALIGN_BREAK":
        return (f"unaligned load stream of q{args[0]} broken at address {args[1]:#x}: q{args[0]} holds the "
                f"block for position {args[2]:#x}, where the stream continues")
    if kind == "LOOP_COUNT":
        return f"hardware loop count {args[0]} out of range 0..{args[1]} (the loop index is a uint16)"
    if kind == "BAD_COUNT" and insn is not None and insn.spec.family == "mask_from_vector":
        return (f"block {args[0]} out of range 0..{args[1]}: a vector register holds {args[1] + 1} blocks of "
                f"{32 // insn.types[0].width} bytes for {insn.types[0].name} (asc_copy: part)")
    if kind == "BAD_COUNT":
        return f"element count {args[0]} out of range: a vector register of this type holds 0..{args[1]}"
    if kind == "GM_RANGE":
        return gm_outside_text(program, args[0], args[1])
    if kind == "BAD_MOVE":
        return BAD_MOVE_TEXT[args[0]].format(*args[1:])
    if kind == "SYNC_UNPAIRED":
        names = {number: name for name, number in PIPES.items()}
        return (f"waitflag {names[args[0]]}, {names[args[1]]}, {args[2]} has no setflag to take: no setflag of that "
                f"flag is pending (the hardware would wait forever)")
    if kind == "GM_CONFLICT":
        first, end, other, writing = args[:4]
        verb, what = ("writes", "multi-core overlap") if writing else ("reads", "multi-core race")
        return (f"{what}: block {block} {verb} GM bytes {first:#x}..{end - 1:#x}{gm_place(program, first)} that "
                f"block {other} wrote, with no cross-core synchronisation (syncall, crossset/crosswait) between")
    if kind == "DEADLOCK":
        return (f"deadlock: {wait_name(args[0])} can never pass: the run's only block waits for a set "
                "(crossset) it has not made")
    if kind == "WAITING":
        return f"waiting at {wait_name(args[0])}"
    return kind.lower()


def gm_place(program: Program, address: int) -> str:
    """` (NAME[I])` for a GM address inside a .gm buffer, else nothing."""
    for buf in program.buffers.values():
        if buf.space == "gm" and buf.addr <= address < buf.addr + buf.nbytes:
            return f" ({buf.name}[{(address - buf.addr) // buf.etype.width}])"
    return ""


class Machine:
    """A program loaded into a fresh machine state, executed by `engine` ("cy" or "ref")."""

    def __init__(self, program: Program, engine: str = "cy", ub_usable: int = UB_USABLE_DEFAULT,
                 max_steps: int = MAX_STEPS_DEFAULT, store_inactive: str = "keep", strict: bool = False,
                 state: MachineState | None = None, alone: bool = True):
        if engine not in ENGINES:
            raise ValueError(f"unknown engine {engine!r}; choose one of {ENGINES}")
        if store_inactive not in STORE_INACTIVE:
            raise ValueError(f"unknown --store-inactive {store_inactive!r}; choose one of {STORE_INACTIVE}")
        self.program, self.engine = program, engine
        self.store_inactive, self.strict = store_inactive, strict
        self.state: MachineState = program.initial_state() if state is None else state
        # alone: the only block of the run, which resolves its own cross-core waits; else a scheduler
        # (ascasm/blocks.py) resumes the block when `run` returns WAITING, or `passes` (set by the
        # debugger) says at once whether the others' sets let it pass
        self.alone = alone
        self.passes = None
        regions = program.regions() if program.bounded or strict else []
        if engine == "cy":
            self.executor = compiled_engine().Engine(program.code, self.state, ub_usable, max_steps,
                                                     zero_inactive=store_inactive == "zero", strict=strict,
                                                     regions=regions, gm_regions=program.regions("gm"))
        else:
            from .ref.executor import RefMachine          # (the reference executor's import is slow)
            self.executor = RefMachine(program, self.state, ub_usable, max_steps, store_inactive, strict,
                                       regions)
        self._before = self._after = None       # the stop flags (set_stop_rows)
        self._last_row = -1

    def set_block(self, index: int, count: int):
        """The block index and count the system variables give (blkidx, blknum): 0 <= index < count."""
        if not 0 <= index < count <= MAX_BLOCKS:
            raise ValueError(f"block index {index} of {count} blocks: need 0 <= index < count <= {MAX_BLOCKS}")
        self.state.sysreg[:] = (index, count)

    def run(self, budget: int | None = None) -> int:
        """Execute until halt, fault, a stop flag (set_stop_rows) or `budget` instructions; returns the
        stop code. The executor runs in chunks of RUN_CHUNK steps, so that Python sees a Ctrl-C (a
        KeyboardInterrupt, raised between chunks with the state consistent) within a fraction of a
        second; the chunks stop exactly where one call would have stopped."""
        if budget is not None and budget < 0:
            raise ValueError(f"budget {budget} is negative")
        left = (1 << 62) if budget is None else budget
        state, self._last_row = self.state, -1
        while True:
            chunk = min(left, RUN_CHUNK)
            steps = state.steps
            code = self.executor.run(chunk)
            if code == WAITING and (self.alone or self.passes is not None):
                code = self._resolve_wait()
                resumed = code == RUNNING
            else:
                resumed = False
            done = state.steps - steps
            left -= done
            if self.executor.last_row >= 0:
                self._last_row = self.executor.last_row
            if resumed and left > 0:
                continue            # the wait passes now: on with the same budget (the wait is the next
                                    # call's first row, which a stop flag does not hold back)
            # fewer steps than the chunk while running: a stop flag ended it
            if code != RUNNING or left <= 0 or done < chunk or self._flagged_stop():
                return code

    def _resolve_wait(self) -> int:
        """The only block stopped at a cross-core wait: the rounds it has completed alone let it pass
        (running again, the wait retried), or nothing ever will (a deadlock fault). A block of several
        under the debugger: running again when `passes`, else still WAITING."""
        if not self.alone:
            if self.passes(self):
                self.state.ctrl[STATUS] = RUNNING
            return int(self.state.ctrl[STATUS])
        publish_rounds([self.state])
        self.state.ctrl[STATUS] = RUNNING if can_pass(self.state) else DEADLOCK
        return int(self.state.ctrl[STATUS])

    def _flagged_stop(self) -> bool:
        """Whether a single executor call would have returned where this chunk ended: after an `after`
        row, or before a `before` row that is not the call's first instruction."""
        return bool((self._after is not None and self._last_row >= 0 and self._after[self._last_row])
                    or (self._before is not None and self.state.pc < len(self._before)
                        and self._before[self.state.pc]))

    def set_stop_rows(self, before=None, after=None):
        """Stop flags, one per instruction (None: none): `run` returns, still running, before a row
        flagged in `before` (except the first instruction of the call) and after a flagged `after` row
        completes (docs/bytecode.md "Stop flags"). The debugger's breakpoints and watches."""
        self.executor.set_stop_rows(before, after)
        self._before = None if before is None else np.array(before, np.uint8)
        self._after = None if after is None else np.array(after, np.uint8)

    def set_log(self, log):
        """Ask the executor to log every UB access of each executed instruction into `log` (an int64
        array of shape (n, len(LOG_FIELDS)); None: stop); `run` also returns once it is nearly full
        (docs/bytecode.md "Write log")."""
        self.executor.set_log(log)

    @property
    def log_length(self) -> int:
        return self.executor.log_length

    def clear_log(self):
        self.executor.clear_log()

    @property
    def last_row(self) -> int:
        """The row of the instruction the latest `run` completed last; -1 if it completed none."""
        return self._last_row

    @property
    def stop_name(self) -> str:
        return STOP_NAMES[self.state.status]

    def fault(self) -> MachineFault | None:
        """The fault the machine stopped on, or None if it is running or halted."""
        kind = self.stop_name
        if kind in ("RUNNING", "HALTED"):
            return None
        pc = self.state.pc
        insn = self.program.insns[pc] if pc < len(self.program.insns) else None
        return MachineFault(kind, fault_message(kind, self.state.fault_args, self.program, insn,
                                                int(self.state.sysreg[0])),
                            insn and insn.loc, self.state.steps + 1, insn and insn.asm)


def run_warnings(program: Program, state: MachineState) -> list[tuple]:
    """(loc, message, notes) of each warning, once per source line (docs/language.md §9), in line order;
    with the static ones (a mask set wider than an instruction reads it: lanes.mask_width_warnings).
    A C++ line may have become several instructions (a helper inlined at each call): their warnings
    are one, counting every execution, and name the first instruction's case."""
    static: dict = {}
    for warning in mask_width_warnings(program):
        static.setdefault((warning[0].file, warning[0].line, warning[1]), warning)
    out = list(static.values())
    for loc, rows in _rows_by_line(program, state.dup_warn):
        count, earlier, later, address = (int(x) for x in state.dup_warn[rows[0]])
        out.append((loc, f"duplicate active indices: lanes {earlier} and {later} both store to address {address:#x}",
                    [f"{DUP_NOTE} ({_times(state.dup_warn, rows)})"]))
    for loc, rows in _rows_by_line(program, state.hazard_warn):
        _count, writer, first, last = (int(x) for x in state.hazard_warn[rows[0]])
        out.append((loc, "memory hazard: " + hazard_text(program, writer, first, last),
                    [f"{MOVE_HAZARD_NOTE if written_by_move(program, writer) else HAZARD_NOTE} "
                     f"({_times(state.hazard_warn, rows)})"]))
    for loc, rows in _rows_by_line(program, state.unwritten_warn):
        _count, load_row, address, lane = (int(x) for x in state.unwritten_warn[rows[0]])
        out.append((loc, "read of bytes never written: " + unwritten_text(program, load_row, address, lane),
                    [f"{UNWRITTEN_NOTE} ({_times(state.unwritten_warn, rows)})"]))
    return sorted(out, key=lambda w: (w[0].file, w[0].line, w[0].col))


def _rows_by_line(program: Program, table: np.ndarray) -> list[tuple]:
    """[(loc, rows)]: the rows with a warning in `table` (a count in column 0), grouped by source line."""
    groups: dict = {}
    for row in np.flatnonzero(table[:, 0]).tolist():
        loc = program.insns[row].loc
        groups.setdefault((loc.file, loc.line), (loc, []))[1].append(row)
    return list(groups.values())


def _times(table: np.ndarray, rows: list) -> str:
    count = int(table[rows, 0].sum())
    text = "once" if count == 1 else f"in {count} executions"
    return text if len(rows) == 1 else f"{text} of {len(rows)} instructions translated from this line"


def auto_engine() -> str:
    """"cy" when the compiled engine is importable, else "ref" with a warning (users only; tests never)."""
    try:
        compiled_engine()
        return "cy"
    except EngineMissing as exc:
        print(f"warning: {exc}; using the slower reference executor", file=sys.stderr)
        return "ref"
