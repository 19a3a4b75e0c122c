"""Reverse execution: the debugger's history of a run, bounded by a byte cap.

History (`Recorder`) is a list of entries, newest last:
- a `Move` is one recorded `run(1)`: an undo log of the bytes it changed (the register files and the
  small parts compared in full; the UB and its per-byte bookkeeping, and global memory, at exactly
  the bytes the executor's write log says the step wrote) plus the previous last-writer rows of what it wrote;
- a `Segment` is a stretch run without a per-step record (`continue`: at full engine speed, the
  engine returning only at the rows where breakpoints and watches must be checked): one compressed
  checkpoint of the whole state. Going back into it restores the checkpoint and re-runs the engine
  (deterministic) to the target step; `why` and `rc` search it backwards by replaying it in chunks.
When the history exceeds its cap, the oldest entries are dropped: `back` then reaches only the oldest
step still kept, and `why` says when a write may hide in a dropped stretch.
"""
from __future__ import annotations

import time
import zlib
from collections import deque
from dataclasses import dataclass

import numpy as np

from .effects import FILE_OF_KIND, Effects, StepLog, written_bytes
from ..isa import STOP_CODES
from ..program import Program
from .provenance import USER_EDIT, effect_rows, expand_columns, never
from ..state import LOG_FIELDS, LOG_GM_WRITE, LOG_WRITE, MASK_SPR_NAME, UB_SIZE, VL, MachineState

RUNNING, HALTED = STOP_CODES["RUNNING"], STOP_CODES["HALTED"]
DEFAULT_HISTORY_CAP = 64 << 20          # bytes of undo log kept for reverse execution
FAST_CHUNK = 1 << 20                    # engine budget per call in a fast run (lets Ctrl-C through)
PROGRESS_EVERY = 1.0                    # seconds between progress lines of a long search
SEGMENT_STEPS = 1 << 20                 # a fast run keeps a checkpoint at least this often: `back`
                                        # replays at most this many steps, `why` searches one at a time
SEARCH_CHUNKS = 16           # a search splits a stretch into this many chunks (a state copy each) ...
SEARCH_LEAF = 256            # ... until a chunk has at most this many moves, searched move by move
SEARCH_LEAF_UB = 1 << 16     # `why` of UB bytes reads the write log: its chunks can be longer


@dataclass
class Move:
    """One recorded `run(1)`: an executed instruction, or a stop without a step (fault, end of code).
    `undo`: (state part, changed byte positions, their old bytes); `writer_undo`: (map, positions,
    old WRITER rows); `edit`: for a change the user made (`set var`), what they typed."""
    steps_before: int
    pc: int
    undo: list
    writer_undo: list
    nbytes: int = 0
    moves: int = 1
    edit: str = ""


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
        self.on_progress = None          # called with a line of text about every second of a long search
        self.writers = {"ub": never(UB_SIZE), "v": never(32 * VL), "p": never(8), "a": never(8),
                        "s": never(32), "u": never(4), "q": never(4), "AR": never(1), "SQZN": never(1),
                        "LOOP": never(1), MASK_SPR_NAME: never(1), "CTRL": never(1),
                        "gm": never(machine.state.gm.size)}
        n = len(program.insns)
        self.row_writes = [_row_writes(insn) for insn in program.insns] + [frozenset()]
        self.log = StepLog(program, machine)
        self._n = n
        # state parts with one element per UB byte (the UB, hazard bookkeeping): bytes per element
        self.ub_shaped = {part: getattr(self.state, part).itemsize for part in self.state.PARTS
                          if getattr(self.state, part).shape == (UB_SIZE,) and part not in ("gm", "gm_writer")}
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
        what the instruction did (None when it did not complete). The undo log covers every byte the
        step changed: the UB-shaped parts exactly where the write log says it wrote."""
        state = self.state
        steps_before = state.steps
        pc, effects, records = self.log.step()
        undo, size = [], MOVE_OVERHEAD
        written = written_bytes(records)
        for part in state.PARTS:
            if part in self.ub_shaped:
                scale = self.ub_shaped[part]
                entry = self._diff_at(part, (written[:, None] * scale + np.arange(scale)).reshape(-1))
            elif part == "gm":                          # GM: at the bytes the GM write records cover
                entry = self._diff_at(part, written_bytes(records, LOG_GM_WRITE))
            else:
                entry = self._diff_at(part, None)
            if entry is not None:
                undo.append(entry)
                size += _nbytes(*entry[1:])
        writer_undo = []
        if effects is not None:
            for name, positions, rows in effect_rows(effects, pc, state.steps, self.program.insns[pc], state):
                table = self.writers[name]
                writer_undo.append((name, positions, table[positions].copy()))
                table[positions] = rows
                size += _nbytes(positions, rows)
        move = Move(steps_before, pc, undo, writer_undo, size)
        self._push(move)
        return move, effects

    def _diff_at(self, part: str, positions: np.ndarray | None):
        """(part, changed byte positions, their old bytes) among `positions` of a part's raw bytes
        (None: all of them), or None if nothing changed; the shadow copy catches up."""
        raw, shadow = self._raw(part), self.shadows[part]
        if positions is None:
            if raw.tobytes() == shadow.tobytes():
                return None
            changed = np.flatnonzero(raw != shadow)
        else:
            changed = positions[raw[positions] != shadow[positions]]
            if changed.size == 0:
                return None
        old = shadow[changed]
        shadow[changed] = raw[changed]
        return part, changed.astype(np.int32), old

    def edit(self, part: str, positions: np.ndarray, new: np.ndarray, writer: tuple | None = None,
             label: str = "") -> Move:
        """A change the user makes (the debugger's `set var`), recorded as a move that `back` undoes:
        bytes `positions` of state part `part` (its raw bytes) become `new`. `writer` = (map name,
        positions): last-writer entries to mark as written by the user (pc USER_EDIT) at this step.
        `label`: the change as the user wrote it, for `back` to say what it undid."""
        raw = self._raw(part)
        undo = [(part, positions.astype(np.int32), raw[positions].copy())]
        raw[positions] = new
        self.shadows[part][positions] = new
        writer_undo = []
        if writer is not None:
            name, where = writer
            rows = never(where.size)
            rows["step"], rows["pc"] = self.state.steps, USER_EDIT
            writer_undo.append((name, where, self.writers[name][where].copy()))
            self.writers[name][where] = rows
        move = Move(self.state.steps, self.state.pc, undo, writer_undo,
                    MOVE_OVERHEAD + _nbytes(*undo[0][1:]) + sum(_nbytes(*w[1:]) for w in writer_undo), edit=label)
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
        start = steps0
        end = steps0 + ((1 << 62) if budget is None else budget)
        before, after, at_stop = stops or (None, None, lambda: False)
        self.machine.set_stop_rows(before, after)
        try:
            while not interrupted():       # kept lean: a conditional breakpoint in a loop comes here often
                left = end - state.steps
                if left <= 0 or self.machine.run(min(left, FAST_CHUNK)) != RUNNING or at_stop():
                    break
                if state.steps - steps0 >= SEGMENT_STEPS:      # a new segment with its own checkpoint
                    self._end_segment(checkpoint, steps0, state.steps - steps0)
                    checkpoint, steps0 = Snapshot(state), state.steps
        finally:
            self.machine.set_stop_rows(None, None)     # replays (back, why, rc) must run unstopped
            last = state.steps - steps0 + (1 if self._stopped_without_step() else 0)
            self._end_segment(checkpoint, steps0, last)
        return state.steps - start + (1 if self._stopped_without_step() else 0)

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
    def edits_in_last(self, n: int) -> list[str]:
        """The user's changes among the last n moves, oldest first (what back(n) will undo of them)."""
        labels, moves = [], 0
        for entry in reversed(self.history):
            if moves >= n:
                break
            if isinstance(entry, Move) and entry.edit:
                labels.append(entry.edit)
            moves += entry.moves
        return labels[::-1]

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
    def search_segment(self, segment: Segment, search, rows=None, leaf: int = SEARCH_LEAF,
                       interrupted=lambda: False) -> bool:
        """Search `segment` from its end backwards for the last of something that can happen only when
        a row flagged in `rows` (one flag per instruction; None: any row) executes: the breakpoints and
        watches of `rc`, the writers `why` looks for. The segment is replayed at engine speed in
        SEARCH_CHUNKS chunks, noting which chunks execute a flagged row; those are split again, the
        last first, down to chunks of at most `leaf` moves, on which `search(lo, hi, advance)` is
        called with the machine in the state after `lo` moves of the segment: each `advance()` makes
        one move and returns its pc and what it did (effects.StepLog.step: None if the move executed
        nothing). Returns True as soon as `search` does. `interrupted()` is polled between chunks:
        True raises KeyboardInterrupt. The machine's state is restored afterwards, whatever happens."""
        current = self.state.copy()
        flags = None if rows is None else np.asarray(rows, np.uint8)
        try:
            return self._search_range(segment.checkpoint, 0, segment.moves, flags, search, leaf, interrupted)
        finally:
            self._restore(current)
            self._sync_shadows()

    def _search_range(self, start, lo: int, hi: int, flags, search, leaf: int, interrupted) -> bool:
        """search_segment over moves lo..hi of a segment, from `start`, the state after lo moves."""
        self._restore(start)
        if hi - lo <= leaf:
            return bool(search(lo, hi, lambda: self.log.step()[:2]))
        size = -(-(hi - lo) // SEARCH_CHUNKS)
        candidates = []                 # (first move, state there) of the chunks executing a flagged row
        for first in range(lo, hi, size):
            if interrupted():
                raise KeyboardInterrupt
            here = self.state.copy()
            if self._reaches(flags, min(first + size, hi) - first):
                candidates.append((first, here))
            if self.state.status != RUNNING:
                break
        for first, here in reversed(candidates):
            if self._search_range(here, first, min(first + size, hi), flags, search, leaf, interrupted):
                return True
        return False

    def _reaches(self, flags, moves: int) -> bool:
        """Make `moves` moves at engine speed (fewer if the machine stops): whether one of them was at
        a row flagged in `flags` (None: any row)."""
        state = self.state
        if state.status != RUNNING:
            return False
        hit = flags is None or (state.pc < self._n and bool(flags[state.pc]))
        made = self.run_until(None if hit else flags, moves)
        if made < moves and state.status == RUNNING:        # stopped before a flagged row
            hit = True
            self.run_until(None, moves - made)
        return hit

    def run_until(self, rows, budget: int) -> int:
        """Run at most `budget` steps, stopping before any row flagged in `rows` (except the first;
        None: no row); returns the moves made."""
        state, steps = self.state, self.state.steps
        self.machine.set_stop_rows(rows, None)
        try:
            self.machine.run(budget)
        finally:
            self.machine.set_stop_rows(None, None)
        return state.steps - steps + (1 if self._stopped_without_step() else 0)

    def last_writers(self, name: str, positions: np.ndarray) -> np.ndarray:
        """The last writer of each position of map `name` (see `writers`), searching the segments in
        the history that ran after the recorded writer."""
        rows = self.writers[name][positions].copy()
        segments = self.segments()
        searched, next_report = 0, time.monotonic() + PROGRESS_EVERY
        for segment in reversed(segments):
            open_ = np.flatnonzero(rows["step"] <= segment.steps_before)
            if open_.size == 0:
                continue
            found = self._search_writes(segment, name, positions[open_])
            for k, row in found.items():
                rows[open_[k]] = row
            searched += segment.moves
            if self.on_progress is not None and time.monotonic() >= next_report:
                self.on_progress(f"searched {searched:,} of {sum(s.moves for s in segments):,} steps run by "
                                 f"continue (Ctrl-C stops the search)")
                next_report = time.monotonic() + PROGRESS_EVERY
        return rows

    def _search_writes(self, segment: Segment, name: str, positions: np.ndarray) -> dict:
        """{index into positions: WRITER row} of the last write inside `segment` of each position."""
        size = self.writers[name].size
        slot = np.full(size, -1, np.int64)              # map position -> index into positions
        slot[positions] = np.arange(positions.size)
        found: dict = {}
        state = self.state
        if name in ("ub", "gm"):
            registers = {name}
        else:
            registers = {f"{name}{p // VL if name == 'v' else p}" for p in positions.tolist()}
        may_write = [bool(registers & writes) for writes in self.row_writes]
        writers = np.array(may_write[:self._n], np.uint8)

        def settle(hits: dict) -> bool:
            for index, row in hits.items():
                found[index] = row
                slot[positions[index]] = -1            # settled: earlier chunks cannot override it
            return not (slot >= 0).any()

        def search_ub(lo, hi, _advance):
            """The chunk at engine speed with the write log on: the last record covering each byte (of
            the UB, or of GM for map "gm")."""
            hits = {}
            open_positions = np.flatnonzero(slot >= 0)             # sorted
            for records in self._logged_run(hi - lo):
                writes = records[records[:, 2] == (LOG_GM_WRITE if name == "gm" else LOG_WRITE)]
                # only the records whose byte range holds an open position (most hold none)
                first = writes[:, 3]
                last = first + (writes[:, 5] - 1) * np.where(writes[:, 6] == 0, writes[:, 4], writes[:, 6])
                low, high = np.minimum(first, last), np.maximum(first, last) + writes[:, 4]
                writes = writes[np.searchsorted(open_positions, low) < np.searchsorted(open_positions, high)]
                if writes.size == 0:
                    continue
                step, row, _kind, addr, width, count, pitch, lane, operand, index = writes.T
                addr, lane, src, index, _within, record = expand_columns(addr, width, count, pitch, lane,
                                                                          operand, index)
                inside = (addr >= 0) & (addr < size)
                k = np.full(addr.size, -1)
                k[inside] = slot[addr[inside]]
                wanted = np.flatnonzero(k >= 0)
                # in access order the last write of a byte wins (vsct: the highest duplicate lane)
                last = wanted[::-1][np.unique(k[wanted][::-1], return_index=True)[1]]
                for byte in last.tolist():
                    entry = never(1)[0]
                    entry["step"], entry["pc"] = step[record[byte]], row[record[byte]]
                    entry["lane"], entry["src"], entry["index"] = lane[byte], src[byte], index[byte]
                    hits[int(k[byte])] = entry
            return settle(hits)

        def search(lo, hi, advance):
            hits = {}
            moved = lo
            while moved < hi:
                if state.status == RUNNING and not may_write[state.pc]:
                    made = self.run_until(writers, hi - moved)        # at engine speed to the next writer
                    if made:
                        moved += made
                        continue
                pc, effects = advance()
                moved += 1
                if effects is None or not may_write[pc]:
                    continue
                for map_name, where, rows in effect_rows(effects, pc, state.steps, self.program.insns[pc], state):
                    if map_name != name:
                        continue
                    k = slot[where]
                    for index, row in zip(k[k >= 0].tolist(), rows[k >= 0]):
                        hits[index] = row.copy()
            return settle(hits)

        if name in ("ub", "gm"):
            self.search_segment(segment, search_ub, writers, SEARCH_LEAF_UB)
        else:
            self.search_segment(segment, search, writers)
        return found

    def _logged_run(self, moves: int):
        """Make `moves` moves at engine speed with the write log on, yielding its records as it fills."""
        state, log = self.state, np.zeros((SEARCH_LOG_RECORDS, len(LOG_FIELDS)), np.int64)
        self.machine.set_log(log)
        try:
            while moves > 0:
                steps = state.steps
                self.machine.run(moves)
                made = state.steps - steps + (1 if self._stopped_without_step() else 0)
                yield log[:self.machine.log_length]
                self.machine.clear_log()
                if made == 0:
                    break
                moves -= made
        finally:
            self.machine.set_log(None)


SEARCH_LOG_RECORDS = 1 << 16  # write-log records read at a time while searching (5 MiB)


def _row_writes(insn) -> frozenset:
    """What an instruction can write, from its ISA row alone: "ub" for a store (its access facts), and
    "vN"/"pN"/"aN"/"sN"/"uN" for the registers it writes (a stream store writes both)."""
    names = set()
    for operand, value in zip(insn.spec.operands, insn.operands):
        if operand.writes and operand.kind in FILE_OF_KIND:
            names.add(f"{FILE_OF_KIND[operand.kind]}{value}")
    if insn.spec.access is not None and insn.spec.access.direction == "store":
        names.add("ub")
    if insn.spec.family in GM_WRITING_FAMILIES:
        names.add("gm")
    return frozenset(names)


GM_WRITING_FAMILIES = frozenset({"ub2gm", "ub2gm_size", "ub2gm_cache"})     # the data moves out to GM
