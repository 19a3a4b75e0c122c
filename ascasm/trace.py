"""Recording execution: what each step writes, reverse execution, last-writer maps for `why`, and
the JSON lines of `ascasm run --trace`.

The engine executes; nothing here re-implements an instruction. Before a step, `predict_effects`
reads the ISA row and the machine state to say which registers the instruction writes and which UB
bytes it writes or reads, lane by lane (the lane -> address mapping reuses the reference executor's
address, mask and gather/scatter helpers, with its checks switched off).

History (`Recorder`) is a list of entries, newest last, bounded by a byte cap:
- a `Move` is one recorded `run(1)`: an undo log of the bytes it changed (the register files and
  small parts compared in full, the UB and its per-byte bookkeeping only in the store's window) plus
  the previous last-writer rows of what it wrote;
- a `Segment` is a stretch run without a per-step record (`continue`: at full engine speed, the
  engine returning only at the rows where breakpoints and watches must be checked): one compressed
  checkpoint of the whole state. Going back into it restores the checkpoint and re-runs the engine
  (deterministic) to the target step; `why` and `rc` search it backwards by replaying it in chunks.
When the history exceeds its cap, the oldest entries are dropped: `back` then reaches only the oldest
step still kept, and `why` says when a write may hide in a dropped stretch.
"""
from __future__ import annotations

import json
import math
import zlib
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from .isa import Kind, STOP_CODES
from .isa import dtypes
from .program import Program
from .ref.executor import Fault, RefMachine
from .state import UB_SIZE, VL, MachineState, STOP_NAMES

RUNNING, HALTED = STOP_CODES["RUNNING"], STOP_CODES["HALTED"]
DEFAULT_HISTORY_CAP = 64 << 20          # bytes of undo log kept for reverse execution
FAST_CHUNK = 1 << 20                    # engine budget per call in a fast run (lets Ctrl-C through)
USER_EDIT = -2                          # the pc of a last-writer entry written by the user (Recorder.edit)

# One last-writer entry: the step (1-based; -1: never written since the program was loaded), the pc
# of the instruction, the lane of the register the data came from (-1: none), which operand that
# register was (its position in the ISA row's syntax, -1: none), the gather/scatter index (-1: none)
# and, for register bytes filled by a load, the UB address the byte came from (-1: none).
WRITER = np.dtype([("step", "<i8"), ("pc", "<i4"), ("lane", "<i4"), ("src", "i1"), ("index", "<i8"),
                   ("origin", "<i8")])
_FILE_OF_KIND = {Kind.VREG: "v", Kind.PREG: "p", Kind.AREG: "a", Kind.SREG: "s"}


# ---------------------------------------------------------------------------------------------
# What one step does, predicted from the ISA row and the state before it runs
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """`count` lanes from `lane` on (of the register operand at position `src`) each move `width` bytes
    at `addr + k*pitch` (pitch 0: `width`). lane and index are -1 when the access has no lanes (a
    scalar or mask store, most loads), src -1 when no register is known."""
    addr: int
    width: int
    count: int = 1
    pitch: int = 0
    lane: int = -1
    src: int = -1
    index: int = -1

    @property
    def end(self) -> int:
        """One past the last byte (pitch 0 means `width`: contiguous lanes)."""
        return self.addr + (self.count - 1) * (self.pitch or self.width) + self.width


@dataclass(frozen=True)
class RegWrite:
    file: str            # "v", "p", "a", "s"
    number: int
    operand: int         # position of the operand in the ISA row's syntax
    etype: object        # ElemType of the lanes (None for s/a registers)


@dataclass
class Effects:
    regs: list = field(default_factory=list)       # RegWrite
    ub_writes: list | None = field(default_factory=list)  # Span; None: unknown, diff the whole UB
    ub_reads: list = field(default_factory=list)   # Span (lanes are the destination register's)
    ub_window: tuple | None = None                 # UB bytes the step may change, if wider than ub_writes


def _runs(lanes: np.ndarray, addr: int, slot: int, src: int) -> list[Span]:
    """Consecutive active lanes of a position-preserving store, merged: lane i -> addr + i*slot."""
    spans = []
    if lanes.size == 0:
        return spans
    breaks = np.flatnonzero(np.diff(lanes) != 1) + 1
    for group in np.split(lanes, breaks):
        first = int(group[0])
        spans.append(Span(addr + first * slot, slot, int(group.size), slot, first, src))
    return spans


def _zero_inactive(machine) -> bool:
    return machine.store_inactive == "zero"


def _position(insn, name: str) -> int:
    return next(i for i, op in enumerate(insn.spec.operands) if op.name == name)


def _masked_store(m, insn, slot: int, zero: bool) -> list[Span]:
    (etype,) = insn.types
    active = np.array(m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes])
    if zero:
        active[:] = True
    return _runs(np.flatnonzero(active), m.address(insn.operand("[addr]")), slot, _position(insn, "vS"))


def _store_window(m, insn) -> tuple | None:
    """For masked contiguous stores: the whole region, whatever the mask (so that an inactive-lane
    mode the recorder was not told about still cannot write outside the bytes it diffs)."""
    family = insn.spec.family
    if family not in ("vsta_norm", "vsta_pack", "vsta_packv2"):
        return None
    addr = m.address(insn.operand("[addr]"))
    return addr, addr + {"vsta_norm": VL, "vsta_pack": VL // 2, "vsta_packv2": VL // 4}[family]


def _store_spans(m, insn, zero: bool) -> list[Span] | None:
    """The UB bytes a store writes, lane by lane; None for a family this table does not know."""
    family, types = insn.spec.family, insn.types
    if family == "scalar_store":
        return [Span(m.address(insn.operand("[addr]")), types[0].width, 1, types[0].width, -1,
                     _position(insn, "sS"))]
    if family in ("vsta_norm", "vsta_pack", "vsta_packv2"):
        width = types[0].width
        slot = {"vsta_norm": width, "vsta_pack": width // 2, "vsta_packv2": 1}[family]
        return _masked_store(m, insn, slot, zero)
    if family == "vsta_first":
        return [Span(m.address(insn.operand("[addr]")), types[0].width, 1, types[0].width, 0,
                     _position(insn, "vS"))]
    if family == "vsta_intlv":
        width, lanes, addr = types[0].width, types[0].lanes, m.address(insn.operand("[addr]"))
        return [Span(addr, width, lanes, 2 * width, 0, _position(insn, "vS0")),
                Span(addr + width, width, lanes, 2 * width, 0, _position(insn, "vS1"))]
    if family in ("mask_store_norm", "mask_store_pack"):
        size = VL // 8 if family == "mask_store_norm" else VL // 16
        m.mask_bits(insn.operand("pS"))               # faults (no write) when the mask is unset
        return [Span(m.address(insn.operand("[addr]")), size, 1, size, -1, _position(insn, "pS"))]
    if family == "vsct":
        return indexed_spans(m, insn, _position(insn, "vS"))
    return None


def indexed_spans(m, insn, src: int) -> list[Span]:
    """Gather/scatter lanes (vgat, vsct): active lane i accesses base + idx[i]*sizeof(T), one span per
    lane, in lane order. The same mapping as the reference executor's `_indexed_lanes` (lane pitch the
    wider of data and index, mask read at that pitch), vectorised and without its checks."""
    data_type, index_type = insn.types
    pitch = max(data_type.width, index_type.width)
    active = np.flatnonzero(m.active_lanes(insn.operand("pM"), pitch)[:VL // pitch])
    base = m.address(insn.operand("[base]"))
    indices = m.state.vreg[insn.operand("vI")].view(index_type.bits)[active].astype(np.int64)
    width = data_type.width
    return [Span(base + index * width, width, 1, width, lane, src, index)
            for lane, index in zip(active.tolist(), indices.tolist())]


# Loads: bytes read at the address operand (lane-less), by family. vld (NORM) and vgat give lanes.
_LOAD_SIZES = {"vld_us": VL // 2, "vld_ds": 2 * VL, "vld_unpk": VL // 2, "vld_dintlv": 2 * VL,
               "mask_load_norm": VL // 8, "mask_load_us": VL // 16, "mask_load_ds": VL // 4}


def _load_spans(m, insn) -> list[Span]:
    family, types = insn.spec.family, insn.types
    if family == "vld_norm":
        width = types[0].width
        return [Span(m.address(insn.operand("[addr]")), width, VL // width, width, 0, _position(insn, "vD"))]
    if family == "vgat":
        return indexed_spans(m, insn, _position(insn, "vD"))
    if family in ("scalar_load", "vld_brc"):
        return [Span(m.address(insn.operand("[addr]")), types[0].width)]
    if family in _LOAD_SIZES:
        return [Span(m.address(insn.operand("[addr]")), _LOAD_SIZES[family])]
    return []


def lane_type(insn, operand) -> object:
    """The element type a written register is best viewed as."""
    family = insn.spec.family
    if operand.kind is Kind.PREG:
        return insn.types[0] if operand.type_slot is not None else dtypes.lookup("b8")
    if operand.kind is not Kind.VREG:
        return None
    etype = insn.types[operand.type_slot] if operand.type_slot is not None else dtypes.lookup("u8")
    if family == "vld_unpk":                           # lanes twice the source width, zero-extended
        return dtypes.lookup(f"u{16 * etype.width}")
    if family == "vgat" and insn.types[1].width > etype.width:  # b8 data in 16-bit lanes
        return dtypes.lookup(f"u{8 * insn.types[1].width}")
    return etype


class _Probe(RefMachine):
    """The reference executor's operand access (addresses, masks, lanes) with every check and its
    bookkeeping (hazard records) switched off: predicting a step must not change the state. A step
    that would fault is discarded after the engine runs it."""

    def check_aligned(self, address: int, alignment: int):
        pass

    def check_in_ub(self, address: int, size: int, lane: int = -1, index: int = -1):
        pass

    def check_hazard(self, address: int, size: int):
        pass


def predict_effects(program: Program, machine) -> Effects:
    """What the instruction at the machine's pc will write (and read) if it executes."""
    state = machine.state
    insn = program.insns[state.pc]
    effects = Effects()
    for position, (operand, value) in enumerate(zip(insn.spec.operands, insn.operands)):
        if operand.writes and operand.kind in _FILE_OF_KIND:
            effects.regs.append(RegWrite(_FILE_OF_KIND[operand.kind], int(value), position,
                                         lane_type(insn, operand)))
    if not any(op.kind is Kind.ADDR for op in insn.spec.operands):
        return effects                                  # no address operand: the UB is not touched
    m = _Probe(program, state, UB_SIZE, 1 << 62)
    try:
        if any(op.writes for op in insn.spec.operands):
            effects.ub_reads = _load_spans(m, insn)
        else:
            effects.ub_writes = _store_spans(m, insn, _zero_inactive(machine))
            effects.ub_window = _store_window(m, insn)
    except Fault:
        effects.ub_writes, effects.ub_reads = [], []    # the step will fault and write nothing
    return effects


# ---------------------------------------------------------------------------------------------
# Last-writer rows of one step
# ---------------------------------------------------------------------------------------------

def _expand(spans: list) -> tuple[np.ndarray, ...]:
    """Every byte of a list of spans in access order: (address, lane, src operand, index, byte
    within the lane); lane is -1 for lane-less spans."""
    column = lambda name: np.array([getattr(s, name) for s in spans], np.int64)
    count, width = column("count"), column("width")
    pitch = np.array([s.pitch or s.width for s in spans], np.int64)
    span_of_lane = np.repeat(np.arange(len(spans)), count)
    k = np.arange(span_of_lane.size) - np.repeat(np.cumsum(count) - count, count)   # lane within its span
    lane_width = width[span_of_lane]
    lane_of_byte = np.repeat(np.arange(span_of_lane.size), lane_width)
    within = np.arange(lane_of_byte.size) - np.repeat(np.cumsum(lane_width) - lane_width, lane_width)
    span_of_byte = span_of_lane[lane_of_byte]
    k_of_byte = k[lane_of_byte]
    addr = column("addr")[span_of_byte] + k_of_byte * pitch[span_of_byte] + within
    first = column("lane")[span_of_byte]
    lane = np.where(first >= 0, first + k_of_byte, -1)
    return addr, lane, column("src")[span_of_byte], column("index")[span_of_byte], within


def effect_rows(effects: Effects, pc: int, step: int) -> list:
    """What one executed step does to the last-writer maps: [(map name, positions, WRITER rows)].
    Map "ub" is indexed by byte address, "v" by register*256 + byte, "p"/"a"/"s" by register."""
    out = []
    origins = {}
    for span in effects.ub_reads:                      # load lanes: the UB bytes each lane came from
        if span.src >= 0:
            origins.setdefault(span.src, []).append(span)
    for reg in effects.regs:
        rows = _never(VL if reg.file == "v" else 1)
        rows["step"], rows["pc"] = step, pc
        if reg.file != "v":
            out.append((reg.file, np.array([reg.number]), rows))
            continue
        width = reg.etype.width
        rows["lane"] = np.arange(VL) // width
        if reg.operand in origins:
            addr, lane, _src, index, within = _expand(origins[reg.operand])
            byte = lane * width + within
            keep = (lane >= 0) & (byte < VL)
            rows["origin"][byte[keep]] = addr[keep]
            rows["index"][byte[keep]] = index[keep]
        out.append(("v", reg.number * VL + np.arange(VL), rows))
    if effects.ub_writes:
        addr, lane, src, index, _within = _expand(effects.ub_writes)
        # in access order the last write of a byte wins (vsct: the highest duplicate lane)
        positions, reverse_first = np.unique(addr[::-1], return_index=True)
        last = addr.size - 1 - reverse_first
        rows = _never(positions.size)
        rows["step"], rows["pc"], rows["lane"] = step, pc, lane[last]
        rows["src"], rows["index"] = src[last], index[last]
        keep = (positions >= 0) & (positions < UB_SIZE)
        out.append(("ub", positions[keep], rows[keep]))
    return out


def _never(n) -> np.ndarray:
    """WRITER rows meaning "not written since the program was loaded"."""
    rows = np.zeros(n, WRITER)
    for name in ("step", "pc", "lane", "src", "index", "origin"):
        rows[name] = -1
    return rows


def _window(spans: list | None, wider: tuple | None = None) -> tuple[int, int]:
    """The UB bytes to diff after a store: the predicted writes' bounding box (or `wider`)."""
    if spans is None:
        return 0, UB_SIZE
    bounds = [(span.addr, span.end) for span in spans] + ([wider] if wider else [])
    lo = max(0, min(b[0] for b in bounds))
    hi = min(UB_SIZE, max(b[1] for b in bounds))
    return lo, hi


# ---------------------------------------------------------------------------------------------
# History entries
# ---------------------------------------------------------------------------------------------

@dataclass
class Move:
    """One recorded `run(1)`: an executed instruction, or a stop without a step (fault, end of code).
    `undo`: (state part, changed byte positions, their old bytes); `writer_undo`: (map, positions,
    old WRITER rows)."""
    steps_before: int
    pc: int
    undo: list
    writer_undo: list
    nbytes: int = 0
    moves: int = 1


class Snapshot:
    """A whole machine state, its large parts zlib-compressed (mostly zeros or smooth data)."""

    def __init__(self, state: MachineState):
        self.parts, self.nbytes = {}, 0
        for part in state.PARTS:
            array = getattr(state, part)
            if array.nbytes > 65536:
                packed = zlib.compress(array.tobytes(), 1)
                self.parts[part] = (packed, array.dtype, array.shape)
                self.nbytes += len(packed)
            else:
                self.parts[part] = array.copy()
                self.nbytes += array.nbytes

    def restore_into(self, state: MachineState):
        for part in state.PARTS:
            value = self.parts[part]
            target = getattr(state, part)
            if isinstance(value, tuple):
                target[...] = np.frombuffer(zlib.decompress(value[0]), value[1]).reshape(value[2])
            else:
                np.copyto(target, value)


@dataclass
class Segment:
    """`moves` run(1)-equivalents executed from `checkpoint` without a per-step record: a run at engine
    speed, stopping only where breakpoints and watches are checked. The last-writer maps are not
    updated inside a segment; `Recorder.last_writers` searches it by replaying."""
    checkpoint: Snapshot
    moves: int
    steps_before: int
    nbytes: int = 0

    @property
    def last_step(self) -> int:
        """Steps count at the segment's end is at most steps_before + moves."""
        return self.steps_before + self.moves


def _nbytes(*arrays) -> int:
    return sum(a.nbytes for a in arrays)


MOVE_OVERHEAD = 200          # bytes charged per recorded step on top of its arrays


class Recorder:
    """Runs a Machine (recorded step by step, or at engine speed) and undoes moves.

    `writers` holds the last-writer maps of recorded steps: "ub" (per UB byte), "v" (per vector
    register byte, register*256 + byte), "p", "a", "s" (per register)."""

    def __init__(self, program: Program, machine, cap: int = DEFAULT_HISTORY_CAP):
        self.program, self.machine, self.cap = program, machine, cap
        self.history: deque = deque()
        self.nbytes = 0
        self.dropped = 0                 # history entries dropped at the cap so far
        self.horizon = 0                 # steps up to this ran in a segment whose checkpoint was dropped
        self.on_drop = None              # called when the cap drops history
        self.writers = {"ub": _never(UB_SIZE), "v": _never(32 * VL), "p": _never(8), "a": _never(8),
                        "s": _never(32)}
        n = len(program.insns)
        self.row_writes = [_row_writes(insn) for insn in program.insns] + [frozenset()]
        self._n = n
        # state parts with one element per UB byte (the UB, hazard bookkeeping): bytes per element
        self.ub_shaped = {part: getattr(self.state, part).itemsize for part in self.state.PARTS
                          if getattr(self.state, part).shape == (UB_SIZE,)}
        self._sync_shadows()

    # --- state bookkeeping ---
    @property
    def state(self) -> MachineState:
        return self.machine.state

    def _raw(self, part: str) -> np.ndarray:
        return getattr(self.state, part).reshape(-1).view(np.uint8)

    def _sync_shadows(self):
        self.shadows = {part: self._raw(part).copy() for part in self.state.PARTS}

    @property
    def moves_available(self) -> int:
        return sum(entry.moves for entry in self.history)

    @property
    def oldest_steps(self) -> int:
        """The step count `back` can reach at most (the state before the oldest kept entry)."""
        return self.history[0].steps_before if self.history else self.state.steps

    def segments(self) -> list:
        return [entry for entry in self.history if isinstance(entry, Segment)]

    # --- forward ---
    def step(self) -> tuple[Move, Effects | None]:
        """Execute one instruction with the engine (`run(1)`) and record it; returns the move and
        what the instruction wrote (None when it did not execute)."""
        state, program = self.state, self.program
        pc, steps_before = state.pc, state.steps
        effects = predict_effects(program, self.machine) if pc < self._n else None
        self.machine.run(1)
        executed = state.steps > steps_before
        undo, size, ub_changes = [], MOVE_OVERHEAD, None
        for part in state.PARTS:
            if part in self.ub_shaped:                  # the UB and per-UB-byte bookkeeping: only stores
                if not executed or effects is None or effects.ub_writes == []:
                    continue
                lo, hi = _window(effects.ub_writes, effects.ub_window)
                scale = self.ub_shaped[part]
                entry = self._diff(part, (lo * scale, hi * scale))
                if part == "ub":
                    ub_changes = entry
            else:
                entry = self._diff(part, None)
            if entry is not None:
                undo.append(entry)
                size += _nbytes(*entry[1:])
        if executed and effects.ub_writes is None:      # a store family predict_effects does not know:
            effects.ub_writes = [] if ub_changes is None else [Span(int(a), 1) for a in ub_changes[1]]
        writer_undo = []
        if executed:
            for name, positions, rows in effect_rows(effects, pc, state.steps):
                table = self.writers[name]
                writer_undo.append((name, positions, table[positions].copy()))
                table[positions] = rows
                size += _nbytes(positions, rows)
        move = Move(steps_before, pc, undo, writer_undo, size)
        self._push(move)
        return move, (effects if executed else None)

    def _diff(self, part: str, window):
        raw, shadow = self._raw(part), self.shadows[part]
        lo, hi = window if window is not None else (0, raw.size)
        if hi <= lo or raw[lo:hi].tobytes() == shadow[lo:hi].tobytes():
            return None
        changed = np.flatnonzero(raw[lo:hi] != shadow[lo:hi]) + lo
        old = shadow[changed]
        shadow[changed] = raw[changed]
        return part, changed.astype(np.int32), old

    def edit(self, part: str, positions: np.ndarray, new: np.ndarray, writer: tuple | None = None) -> Move:
        """A change the user makes (the debugger's `set var`), recorded as a move that `back` undoes:
        bytes `positions` of state part `part` (its raw bytes) become `new`. `writer` = (map name,
        positions): last-writer entries to mark as written by the user (pc USER_EDIT) at this step."""
        raw = self._raw(part)
        undo = [(part, positions.astype(np.int32), raw[positions].copy())]
        raw[positions] = new
        self.shadows[part][positions] = new
        writer_undo = []
        if writer is not None:
            name, where = writer
            rows = _never(where.size)
            rows["step"], rows["pc"] = self.state.steps, USER_EDIT
            writer_undo.append((name, where, self.writers[name][where].copy()))
            self.writers[name][where] = rows
        move = Move(self.state.steps, self.state.pc, undo, writer_undo,
                    MOVE_OVERHEAD + _nbytes(*undo[0][1:]) + sum(_nbytes(*w[1:]) for w in writer_undo))
        self._push(move)
        return move

    def run_fast(self, budget: int | None = None, interrupted=lambda: False, stops=None) -> int:
        """Run at full engine speed (no per-step work) until a stop or `budget` instructions; one
        checkpoint goes into the history. Returns the moves made. `interrupted()` is polled between
        engine chunks. `stops` = (before, after, at_stop): per-row flags for `Machine.set_stop_rows`
        (the engine returns before a `before` row and after an `after` row) and a function called
        whenever the engine returns still running, there or between chunks: True stops the run."""
        state = self.state
        if state.status != RUNNING:
            return 0
        checkpoint, steps0 = Snapshot(state), state.steps
        end = steps0 + ((1 << 62) if budget is None else budget)
        before, after, at_stop = stops or (None, None, lambda: False)
        self.machine.set_stop_rows(before, after)
        try:
            while not interrupted():       # kept lean: a conditional breakpoint in a loop comes here often
                left = end - state.steps
                if left <= 0 or self.machine.run(min(left, FAST_CHUNK)) != RUNNING or at_stop():
                    break
        finally:
            self.machine.set_stop_rows(None, None)     # replays (back, why, rc) must run unstopped
            moves = state.steps - steps0 + (1 if self._stopped_without_step() else 0)
            self._end_segment(checkpoint, steps0, moves)
        return moves

    def run_checked(self, stop_after) -> int:
        """Run until `stop_after(pc)`, called after each instruction with its pc, returns True or the
        machine stops: the engine returns after every row. One checkpoint goes into the history.
        Returns the moves made."""
        every_row = np.ones(self._n, np.uint8)
        return self.run_fast(stops=(None, every_row, lambda: stop_after(self.machine.last_row)))

    def _end_segment(self, checkpoint: Snapshot, steps0: int, moves: int):
        self._sync_shadows()
        if moves:
            self._push(Segment(checkpoint, moves, steps0, checkpoint.nbytes + MOVE_OVERHEAD))

    def _stopped_without_step(self) -> bool:
        """A fault, the step limit or falling off the end: a stop that executed no instruction."""
        state = self.state
        if state.status == RUNNING:
            return False
        return not (state.status == HALTED and state.pc < self._n)

    def _push(self, entry):
        self.history.append(entry)
        self.nbytes += entry.nbytes
        self.trim()

    def trim(self):
        """Drop the oldest history entries while the history is over its cap."""
        dropped = False
        while self.nbytes > self.cap and self.history:
            entry = self.history.popleft()
            self.nbytes -= entry.nbytes
            self.dropped += 1
            dropped = True
            if isinstance(entry, Segment):
                self.horizon = max(self.horizon, entry.last_step)
        if dropped and self.on_drop is not None:
            self.on_drop()

    # --- backward ---
    def back(self, n: int = 1) -> int:
        """Undo up to n moves; returns how many were undone (fewer when the history runs out)."""
        done = 0
        while done < n and self.history:
            entry = self.history[-1]
            if isinstance(entry, Move):
                self._undo(entry)
                self.history.pop()
                self.nbytes -= entry.nbytes
                done += 1
                continue
            take = min(n - done, entry.moves)
            self._restore(entry.checkpoint)
            remaining = entry.moves - take
            if remaining:
                self.machine.run(remaining)            # the engine is deterministic: the same state again
                entry.moves = remaining
            else:
                self.history.pop()
                self.nbytes -= entry.nbytes
            self._sync_shadows()
            done += take
        return done

    def _undo(self, move: Move):
        for part, positions, old in move.undo:
            self._raw(part)[positions] = old
            self.shadows[part][positions] = old
        for name, positions, old in reversed(move.writer_undo):
            self.writers[name][positions] = old

    def _restore(self, snapshot):
        if isinstance(snapshot, Snapshot):
            snapshot.restore_into(self.state)
            return
        for part in self.state.PARTS:
            np.copyto(getattr(self.state, part), getattr(snapshot, part))

    # --- searching segments (for `why` and `rc`) ---
    def search_segment(self, segment: Segment, search) -> None:
        """Replay `segment` to search it from its end backwards, chunk by chunk: `search(lo, hi, advance)`
        is called with the machine in the state after `lo` moves of the segment; each `advance()` makes
        one move (up to `hi`). Chunks are visited from the last to the first until `search` returns
        True. The machine's state is restored afterwards. Costs one engine replay of the segment plus
        single steps through the chunks visited."""
        current = self.state.copy()
        chunk = max(SEARCH_CHUNK_MIN, -(-segment.moves // SEARCH_CHUNKS))
        starts = list(range(0, segment.moves, chunk))
        snapshots = {}
        try:
            self._restore(segment.checkpoint)
            for k, lo in enumerate(starts):
                snapshots[lo] = Snapshot(self.state) if k else segment.checkpoint
                if k + 1 < len(starts):
                    self.machine.run(chunk)
            for lo in reversed(starts):
                hi = min(lo + chunk, segment.moves)
                self._restore(snapshots.pop(lo))
                if search(lo, hi, lambda: self.machine.run(1)):
                    break
        finally:
            self._restore(current)
            self._sync_shadows()

    def last_writers(self, name: str, positions: np.ndarray) -> np.ndarray:
        """The last writer of each position of map `name` (see `writers`), searching the segments in
        the history that ran after the recorded writer."""
        rows = self.writers[name][positions].copy()
        for segment in reversed(self.segments()):
            open_ = np.flatnonzero(rows["step"] <= segment.steps_before)
            if open_.size == 0:
                continue
            found = self._search_writes(segment, name, positions[open_])
            for k, row in found.items():
                rows[open_[k]] = row
        return rows

    def _search_writes(self, segment: Segment, name: str, positions: np.ndarray) -> dict:
        """{index into positions: WRITER row} of the last write inside `segment` of each position."""
        size = self.writers[name].size
        slot = np.full(size, -1, np.int64)              # map position -> index into positions
        slot[positions] = np.arange(positions.size)
        found: dict = {}
        state, program = self.state, self.program
        if name == "ub":
            registers = {"ub"}
        else:
            registers = {f"{name}{p // VL if name == 'v' else p}" for p in positions.tolist()}
        may_write = [bool(registers & writes) for writes in self.row_writes]

        def search(lo, hi, advance):
            hits = {}
            for _ in range(lo, hi):
                pc, before = state.pc, state.steps
                effects = predict_effects(program, self.machine) if may_write[pc] else None
                advance()
                if effects is None or state.steps == before:
                    continue
                if effects.ub_writes is None:
                    effects.ub_writes = []             # (no store family is unknown today)
                for map_name, where, rows in effect_rows(effects, pc, state.steps):
                    if map_name != name:
                        continue
                    k = slot[where]
                    for index, row in zip(k[k >= 0].tolist(), rows[k >= 0]):
                        hits[index] = row.copy()
            for index, row in hits.items():
                found[index] = row
                slot[positions[index]] = -1            # settled: earlier chunks cannot override it
            return not (slot >= 0).any()

        self.search_segment(segment, search)
        return found


SEARCH_CHUNKS = 64           # a segment search keeps at most this many temporary checkpoints
SEARCH_CHUNK_MIN = 4096      # ... of at least this many moves apart


def _row_writes(insn) -> frozenset:
    """What an instruction can write, from its ISA row alone: "ub" for a store (an address operand and
    no register written), and "vN"/"pN"/"aN"/"sN" for the registers it writes."""
    names = set()
    writes_register = False
    for operand, value in zip(insn.spec.operands, insn.operands):
        if operand.writes and operand.kind in _FILE_OF_KIND:
            names.add(f"{_FILE_OF_KIND[operand.kind]}{value}")
            writes_register = True
    if any(op.kind is Kind.ADDR for op in insn.spec.operands) and not writes_register:
        names.add("ub")
    return frozenset(names)


# ---------------------------------------------------------------------------------------------
# `ascasm run --trace`: one JSON object per line (schema in docs/debugger.md)
# ---------------------------------------------------------------------------------------------

TRACE_SCHEMA_VERSION = 1


def json_number(value):
    """A lane value as JSON: ints as ints, finite floats as numbers, NaN/inf as the strings "nan",
    "inf", "-inf" (JSON has no literals for them)."""
    if isinstance(value, (np.integer, int)):
        return int(value)
    number = float(value)
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return number


def register_name(insn, position: int) -> str:
    operand = insn.spec.operands[position]
    return f"{_FILE_OF_KIND[operand.kind]}{insn.operands[position]}"


def register_json(state: MachineState, reg: RegWrite) -> dict:
    name = f"{reg.file}{reg.number}"
    if reg.file == "s":
        return {"reg": name, "value": int(state.sreg[reg.number])}
    if reg.file == "a":
        return {"reg": name, "value": int(state.areg[reg.number])}
    if reg.file == "p":
        raw = state.preg[reg.number]
        bits = np.unpackbits(raw, bitorder="little")[::reg.etype.width][:reg.etype.lanes]
        return {"reg": name, "type": reg.etype.name, "active": np.flatnonzero(bits).tolist(), "hex": raw.tobytes().hex()}
    lanes = state.vreg[reg.number].view(reg.etype.np_dtype)
    values = lanes.tolist() if reg.etype.kind != "float" else [json_number(x) for x in lanes]
    return {"reg": name, "type": reg.etype.name, "lanes": values}


def span_json(insn, span: Span) -> dict:
    entry = {"addr": span.addr, "end": span.end, "width": span.width, "count": span.count,
             "pitch": span.pitch or span.width}
    entry["src"] = register_name(insn, span.src) if span.src >= 0 else None
    entry["lane"] = span.lane if span.lane >= 0 else None
    if span.index >= 0:
        entry["index"] = span.index
    return entry


def source_text(loc) -> str:
    """The source line without its comment."""
    text = loc.text.rstrip("\n")
    for marker in (";", "//"):
        if marker in text:
            text = text[:text.index(marker)]
    return text.strip()


def trace_record(program: Program, state: MachineState, pc: int, step: int, effects: Effects | None,
                 fault=None) -> dict:
    """One trace line: the instruction at `pc`, executed as step `step` (or faulting there)."""
    insn = program.insns[pc]
    record = {"step": step, "pc": pc, "line": insn.loc.line, "text": source_text(insn.loc),
              "insn": insn.spec.mnemonic,
              "regs": [register_json(state, r) for r in effects.regs] if effects and not fault else [],
              "ub_writes": [span_json(insn, s) for s in effects.ub_writes or []] if effects and not fault else [],
              "ub_reads": [span_json(insn, s) for s in effects.ub_reads] if effects and not fault else [],
              "status": STOP_NAMES[state.status]}
    if fault is not None:
        record["fault"] = fault.message
    return record


def traced_step(program: Program, machine) -> tuple[int, Effects | None]:
    """Execute one instruction with the engine (`run(1)`); returns its pc and what it wrote and read
    (None past the last instruction). Whether it executed: the machine's step count tells. The one
    per-step record that the trace, `ascasm stats` and `ascasm draw` read."""
    pc = machine.state.pc
    effects = predict_effects(program, machine) if pc < len(program.insns) else None
    machine.run(1)
    if effects is not None and effects.ub_writes is None:
        effects.ub_writes = []                          # (no store family is unknown today)
    return pc, effects


def write_trace(program: Program, machine, out) -> None:
    """Run `machine` to its stop, writing one JSON line per executed instruction to the text stream
    `out` (plus a last line for a faulting instruction, with "fault"). The engine executes each step
    (`run(1)`); the caller reports the stop as `ascasm run` does (machine.fault(), .expect)."""
    state = machine.state
    while state.status == RUNNING:
        before = state.steps
        pc, effects = traced_step(program, machine)
        if state.steps > before:
            out.write(json.dumps(trace_record(program, state, pc, state.steps, effects)) + "\n")
        elif state.status != HALTED:
            fault = machine.fault()
            out.write(json.dumps(trace_record(program, state, pc, state.steps + 1, effects, fault)) + "\n")
