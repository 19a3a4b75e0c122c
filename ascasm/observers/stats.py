"""`ascasm stats FILE`: what a run executed — instructions per mnemonic and type, vector lanes active
against lanes available, UB bytes read and written — and an *estimated* cycle count.

The run goes at engine speed: the engine returns only after a row that may jump (a branch, a loop
row, halt) and before a row that writes a mask register, so each call executes a straight run of
consecutive rows under unchanged masks, and its counts, lanes and cycles follow from its first row and
its length; the UB bytes come from the engine's write log (docs/bytecode.md "Write log"). The
estimate is a throughput model, not a simulation of the pipeline (docs/cli.md "ascasm stats"):
- an instruction occupies ceil(lanes / throughput) cycles, throughput being the elements per cycle
  of the C-API theoretical-throughput table for its operation and type (the row's `throughput` field,
  ascasm/isa/appendix.py), or all its lanes in one cycle where the table has no row;
- two consecutive instructions that the dual-issue table lists (the row's `issue` field is "dual"),
  each occupying one cycle, share a cycle; every other instruction issues alone;
- scalar and control instructions take one cycle each (the tables do not cover the scalar unit).
Latencies, dependencies between instructions, UB bank conflicts and the scalar unit's own pipeline are
not modelled.
"""
from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from dataclasses import dataclass, field

import numpy as np

from .effects import LOG_CAPACITY
from ..isa import Kind
from ..lanes import governing_mask, lane_width
from ..state import LOG_FIELDS, LOG_GM_READ, LOG_GM_WRITE, LOG_READ, LOG_RESERVE, LOG_WRITE, VL
from .history import RUNNING

CALL_BUDGET = 1 << 16       # steps per engine call at most: a Ctrl-C is seen within a fraction of a second
PROGRESS_EVERY = 1.0        # seconds between progress reports
LANES_CACHE_SIZE = 4096     # mask states whose per-row active lanes are kept between flushes


@dataclass
class Row:
    count: int = 0
    lanes_active: int = 0
    lanes_total: int = 0


@dataclass
class Stats:
    steps: int = 0
    by_insn: dict = field(default_factory=dict)         # (mnemonic, types) -> Row, in first-run order
    ub_read: int = 0
    ub_written: int = 0
    gm_read: int = 0
    gm_written: int = 0
    cycles: int = 0
    by_pipe: dict = field(default_factory=dict)         # pipe name -> instructions executed on it
    row_steps: np.ndarray | None = None                 # per row: its executions, its lanes active and in all
    row_lanes_active: np.ndarray | None = None
    row_lanes_total: np.ndarray | None = None

    @property
    def lanes_active(self) -> int:
        return sum(row.lanes_active for row in self.by_insn.values())

    @property
    def lanes_total(self) -> int:
        return sum(row.lanes_total for row in self.by_insn.values())


class _Rows:
    """What each row contributes when it executes, from the ISA table alone: its count key, its lanes,
    the mask register that governs them and at which width, its cycle occupancy and dual issue."""

    def __init__(self, program):
        insns = program.insns
        n = len(insns)
        self.keys = [(i.spec.mnemonic, "/".join(t.name for t in i.types)) for i in insns]
        self.lanes = np.zeros(n, np.int64)
        self.mask_reg = np.full(n, -1, np.int64)            # -1: no pM (every lane counts as active)
        self.mask_width = np.ones(n, np.int64)
        self.unmasked_active = np.zeros(n, np.int64)        # lanes used by a row without pM
        self.occupancy, self.dual = [1] * n, [False] * n
        self.pipes = [row_pipe(insn) for insn in insns]
        self.jumps = np.zeros(n, np.uint8)                  # the engine returns after these rows ...
        self.writes_mask = np.zeros(n, np.uint8)            # ... and before these (unless first)
        for row, insn in enumerate(insns):
            spec = insn.spec
            if any(op.kind is Kind.VREG for op in spec.operands):
                self.lanes[row] = VL // lane_width(insn)
                mask = governing_mask(insn)
                if mask is not None:
                    self.mask_reg[row], self.mask_width[row] = mask
                self.unmasked_active[row] = _unmasked_lanes(spec, self.lanes[row])
            per_cycle = dict(spec.throughput).get(self.keys[row][1])
            self.occupancy[row] = max(1, math.ceil(self.lanes[row] / per_cycle)) if per_cycle else 1
            self.dual[row] = spec.issue == "dual" and self.occupancy[row] == 1
            self.jumps[row] = spec.family in JUMP_FAMILIES
            self.writes_mask[row] = any(op.writes and op.kind is Kind.PREG for op in spec.operands)
        self._runs: dict = {}

    def active_lanes(self, state) -> np.ndarray:
        """Per row, the lanes its mask leaves active in `state` (all its lanes when it has no pM or
        the register is unset: it then faults, executing nothing)."""
        bits = np.unpackbits(state.preg, axis=1, bitorder="little")         # [register, bit]
        # active lanes [register, lane width]: bit i*W of the register for lane i
        table = np.zeros((len(bits), 9), np.int64)
        for width in (1, 2, 4, 8):
            table[:, width] = bits[:, ::width].sum(axis=1)
        reg = np.maximum(self.mask_reg, 0)
        active = table[reg, self.mask_width]
        governed = (self.mask_reg >= 0) & state.preg_set[reg].astype(bool)
        return np.where(governed, np.minimum(active, self.lanes), self.unmasked_active)

    def cycles(self, first: int, count: int, pending: bool) -> tuple[int, bool]:
        """Estimated cycles of rows first .. first+count-1 executed in order, entered with the previous
        instruction able to share its cycle (`pending`); and whether the last one can."""
        key = (first, count, pending)
        if key not in self._runs:
            cycles = 0
            for row in range(first, first + count):
                if self.dual[row] and pending:
                    pending = False                          # issued in the previous instruction's cycle
                else:
                    cycles += self.occupancy[row]
                    pending = self.dual[row]
            self._runs[key] = (cycles, pending)
        return self._runs[key]


def _unmasked_lanes(spec, lanes: int) -> int:
    """The lanes a row without a usable mask uses: a store of one element (vsta.1st: lane 0) one;
    otherwise all."""
    access = spec.access
    return 1 if access is not None and access.direction == "store" and access.size == "T" else lanes


JUMP_FAMILIES = frozenset(("branch", "cond_branch", "halt", "loop", "endloop"))
MOVES_IN = frozenset(("gm2ub", "gm2ub_size", "gm2ub_align", "gm2ub_align_cache"))
MOVES_OUT = frozenset(("ub2gm", "ub2gm_size", "ub2gm_cache"))
VECTOR_KINDS = frozenset((Kind.VREG, Kind.PREG, Kind.AREG, Kind.UREG, Kind.QREG))
PIPES_SHOWN = ("PIPE_V", "PIPE_MTE2", "PIPE_MTE3", "PIPE_S")


def row_pipe(insn) -> str:
    """The pipe a row issues to: PIPE_MTE2 for the moves into the UB, PIPE_MTE3 for the moves out,
    PIPE_V for a row with a vector, mask, address or alignment register or a UB access, PIPE_S (the
    scalar unit) for the rest (scalar arithmetic, branches, settings, synchronisation)."""
    family = insn.spec.family
    if family in MOVES_IN:
        return "PIPE_MTE2"
    if family in MOVES_OUT:
        return "PIPE_MTE3"
    vector = insn.spec.access is not None and family not in ("scalar_load", "scalar_store")
    if vector or any(op.kind in VECTOR_KINDS for op in insn.spec.operands):
        return "PIPE_V"
    return "PIPE_S"


def collect(program, machine, progress=None) -> tuple[Stats, bool]:
    """Run `machine` to its stop at engine speed, counting what the executed steps did. Returns the
    statistics and whether Ctrl-C ended the run early (the statistics then cover exactly the steps
    done). `progress(steps)` is called about every PROGRESS_EVERY seconds of a long run."""
    collector = Collector(program, machine, progress)
    try:
        with _ctrl_c_flag() as interrupted:
            collector.interrupted = interrupted
            collector.run()
            stopped_early = interrupted()
    finally:
        stats = collector.finish()
    return stats, stopped_early


def collect_blocks(program, blocks, progress=None) -> tuple[list, bool]:
    """collect() of a run of several blocks (ascasm/blocks.py) in its schedule: the statistics of each
    block, and whether Ctrl-C ended the run early."""
    collectors = [Collector(program, machine, progress) for machine in blocks.machines]
    blocks.runners = [collector.run for collector in collectors]
    try:
        with _ctrl_c_flag() as interrupted:
            for collector in collectors:
                collector.interrupted = interrupted
            while not blocks.finished and not interrupted():
                blocks.run()
            stopped_early = interrupted()
    finally:
        blocks.runners = None
        stats = [collector.finish() for collector in collectors]
    return stats, stopped_early


class Collector:
    """collect()'s counting of one machine, resumable: `run` goes on until the machine stops (halt,
    fault, a cross-core wait) or Ctrl-C; `finish` adds everything up."""

    def __init__(self, program, machine, progress=None):
        self.stats, self.machine, self.rows = Stats(), machine, _Rows(program)
        self.tally = _Tally(self.rows)
        self.log = np.zeros((LOG_CAPACITY, len(LOG_FIELDS)), np.int64)
        self.pending, self.progress = False, progress
        self.next_report = time.monotonic() + PROGRESS_EVERY
        self.masks = self.tally.masks_of(machine.state)
        self.interrupted = lambda: False

    def run(self, budget=None) -> int:
        """Run (at engine speed, counting) until the machine stops; returns its status."""
        machine, state, rows, tally, stats = self.machine, self.machine.state, self.rows, self.tally, self.stats
        log_full = LOG_CAPACITY - 2 * LOG_RESERVE
        machine.set_stop_rows(rows.writes_mask, rows.jumps)
        machine.set_log(self.log)
        try:
            while state.status == RUNNING and not self.interrupted():
                first, steps, masks_before = state.pc, state.steps, self.masks
                machine.run(CALL_BUDGET)
                count = state.steps - steps
                if machine.log_length >= log_full:
                    _count_log(stats, self.log[:machine.log_length])
                    machine.clear_log()
                if count == 0:
                    continue
                # masks change only at a call's first row (the engine stops before any other row that
                # writes one): that row ran under the masks before the call, the rest under those after
                if rows.writes_mask[first]:
                    self.masks = tally.masks_of(state)
                tally.add(first, count, masks_before, self.masks)
                cycles, self.pending = rows.cycles(first, count, self.pending)
                stats.cycles += cycles
                if self.progress is not None and time.monotonic() >= self.next_report:
                    self.progress(state.steps)
                    self.next_report = time.monotonic() + PROGRESS_EVERY
                if tally.full():
                    tally.flush()
                    self.masks = tally.masks_of(state)
        finally:
            _count_log(stats, self.log[:machine.log_length])
            machine.clear_log()
            machine.set_log(None)
            machine.set_stop_rows(None, None)
        return state.status

    def finish(self) -> Stats:
        stats, rows, tally = self.stats, self.rows, self.tally
        tally.flush()
        for row in tally.order:
            entry = stats.by_insn.setdefault(rows.keys[row], Row())
            entry.count += int(tally.executed[row])
            entry.lanes_total += int(rows.lanes[row] * tally.executed[row])
            entry.lanes_active += int(tally.active[row])
            pipe = rows.pipes[row]
            stats.by_pipe[pipe] = stats.by_pipe.get(pipe, 0) + int(tally.executed[row])
        stats.steps = self.machine.state.steps
        stats.row_steps, stats.row_lanes_active = tally.executed, tally.active
        stats.row_lanes_total = rows.lanes * tally.executed
        return stats


@dataclass
class LineRow:
    """What the rows of one source line executed: a C++ line's (through .loc) or an assembly line's."""
    file: str
    line: int
    text: str
    steps: int = 0
    artificial_steps: int = 0                            # of them, the translator's own (.artificial)
    lanes_active: int = 0
    lanes_total: int = 0
    by_insn: dict = field(default_factory=dict)          # (mnemonic, types, artificial) -> count


def by_line(program, stats: Stats) -> list[LineRow]:
    """The executed rows added up per source line, in the order of the files and lines; a row the
    debug information marks `.artificial` is counted apart (LineRow.artificial_steps)."""
    artificial = program.debug.artificial
    lines: dict = {}
    for row in np.flatnonzero(stats.row_steps):
        insn, count = program.insns[row], int(stats.row_steps[row])
        entry = lines.setdefault((insn.loc.file, insn.loc.line), LineRow(insn.loc.file, insn.loc.line,
                                                                          insn.loc.text.strip()))
        own = int(row) in artificial
        entry.steps += count
        entry.artificial_steps += count if own else 0
        entry.lanes_active += int(stats.row_lanes_active[row])
        entry.lanes_total += int(stats.row_lanes_total[row])
        key = (insn.spec.mnemonic, "/".join(t.name for t in insn.types), own)
        entry.by_insn[key] = entry.by_insn.get(key, 0) + count
    return [lines[key] for key in sorted(lines)]


class _Tally:
    """Engine calls counted by (first row, steps, masks before, masks after): a dictionary increment
    per call; `flush` adds them up per row. The mask states met are numbered; at most
    LANES_CACHE_SIZE are kept between flushes."""

    def __init__(self, rows: _Rows):
        n = len(rows.keys)
        self.rows = rows
        self.executed = np.zeros(n, np.int64)             # per row, its executions
        self.active = np.zeros(n, np.int64)               # per row, active lanes summed over them
        self.order: list = []                             # rows in the order they first ran
        self.seen = np.zeros(n, bool)
        self.calls: dict = {}
        self.mask_ids: dict = {}
        self.lanes: list = []                             # per mask state, per row active lanes

    def masks_of(self, state) -> int:
        key = state.preg.tobytes() + state.preg_set.tobytes()
        number = self.mask_ids.get(key)
        if number is None:
            number = self.mask_ids[key] = len(self.lanes)
            self.lanes.append(self.rows.active_lanes(state))
        return number

    def add(self, first: int, count: int, masks_before: int, masks_after: int):
        key = (first, count, masks_before, masks_after)
        self.calls[key] = self.calls.get(key, 0) + 1

    def full(self) -> bool:
        return len(self.lanes) >= LANES_CACHE_SIZE

    def flush(self):
        for (first, count, before, after), calls in self.calls.items():      # (in first-call order)
            end = first + count
            self.executed[first:end] += calls
            self.active[first:end] += calls * self.lanes[after][first:end]
            self.active[first] += calls * (self.lanes[before][first] - self.lanes[after][first])
            new = np.flatnonzero(~self.seen[first:end]) + first
            self.order.extend(new.tolist())
            self.seen[new] = True
        self.calls.clear()
        self.mask_ids.clear()
        self.lanes.clear()


def _count_log(stats: Stats, records: np.ndarray):
    nbytes = records[:, 4] * records[:, 5]                      # width * count
    stats.ub_read += int(nbytes[records[:, 2] == LOG_READ].sum())
    stats.ub_written += int(nbytes[records[:, 2] == LOG_WRITE].sum())
    stats.gm_read += int(nbytes[records[:, 2] == LOG_GM_READ].sum())
    stats.gm_written += int(nbytes[records[:, 2] == LOG_GM_WRITE].sum())


@contextlib.contextmanager
def _ctrl_c_flag():
    """While the block runs, Ctrl-C sets a flag (read by calling what this yields) instead of raising
    in the middle of the bookkeeping, so the statistics always cover whole engine calls."""
    hit = [False]
    previous = None
    if threading.current_thread() is threading.main_thread():
        def handler(signum, frame):
            hit[0] = True
        previous = signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: hit[0]
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


def report_lines(program, stats: Stats, stop: str, name: str | None = None) -> list[str]:
    """The text report of `ascasm stats` on the file `name` (default the program's: a C++ kernel's is
    its translation's, KERNEL.cpp.s)."""
    lines = [f"{name or program.filename}: {stats.steps} step{'s' if stats.steps != 1 else ''}, {stop}", ""]
    rows = sorted(stats.by_insn.items(), key=lambda item: -item[1].count)
    width = max([len(m) for (m, _t), _r in rows] + [len("instruction")])
    type_width = max([len(t) for (_m, t), _r in rows] + [len("types")])
    lines.append(f"  {'instruction':<{width}}  {'types':<{type_width}}  {'count':>9}  lanes active / total")
    for (mnemonic, types), row in rows:
        lanes = ""
        if row.lanes_total:
            lanes = f"{row.lanes_active:>10} / {row.lanes_total:<10} ({_percent(row.lanes_active, row.lanes_total)})"
        lines.append(f"  {mnemonic:<{width}}  {types:<{type_width}}  {row.count:>9}  {lanes}".rstrip())
    lines.append("")
    if stats.lanes_total:
        lines.append(f"vector lanes: {stats.lanes_active} of {stats.lanes_total} active "
                     f"({_percent(stats.lanes_active, stats.lanes_total)})")
    lines.append(f"UB: {stats.ub_read} bytes read, {stats.ub_written} bytes written")
    if stats.gm_read or stats.gm_written:
        lines.append(f"GM: {stats.gm_read} bytes read, {stats.gm_written} bytes written")
    lines.append("instructions per pipe: " + ", ".join(f"{pipe} {stats.by_pipe.get(pipe, 0)}" for pipe in PIPES_SHOWN))
    lines.append(f"estimated cycles: {stats.cycles} (an ESTIMATE, not a measurement)")
    lines.append("  from the Ascend 950 C-API tables of theoretical throughput and dual issue; latencies, "
                 "dependencies and UB bank conflicts are not modelled (docs/cli.md \"ascasm stats\")")
    return lines


def by_line_lines(program, stats: Stats, stop: str, name: str | None = None) -> list[str]:
    """`ascasm stats --by-line`: per source line, its steps (those of the translator's own
    instructions apart), its lanes, its instructions ( `*` marks the translator's own)."""
    lines = [f"{name or program.filename}: {stats.steps} step{'s' if stats.steps != 1 else ''}, {stop}, by source line",
             "", f"  {'line':<20} {'steps':>9} {'own':>7}  {'lanes active / total':<23}  source",
             f"  {'':<20} {'':>9} {'':>7}  its instructions and their counts (* the translator's own)"]
    entries = by_line(program, stats)
    for entry in entries:
        lanes = f"{entry.lanes_active:>10} / {entry.lanes_total:<10}" if entry.lanes_total else " " * 23
        where = f"{os.path.basename(entry.file)}:{entry.line}"
        lines.append(f"  {where:<20} {entry.steps:>9} {entry.artificial_steps or '':>7}  {lanes}  {entry.text}".rstrip())
        mix = sorted(entry.by_insn.items(), key=lambda item: (-item[1], item[0]))
        lines.append(f"  {'':<20} {'':>9} {'':>7}  " + ", ".join(
            f"{mnemonic}{'.' + types if types else ''}{'*' if own else ''} {count}"
            for (mnemonic, types, own), count in mix))
    own = sum(entry.artificial_steps for entry in entries)
    lines += ["", f"the translator's own instructions (*: they implement a C++ rule, such as wrapping to a type's "
                  f"width, and stand for no call of their line): {own} of {stats.steps} steps"]
    return lines


def by_line_json(program, stats: Stats) -> list[dict]:
    return [{"file": e.file, "line": e.line, "text": e.text, "steps": e.steps, "artificial_steps": e.artificial_steps,
             "lanes_active": e.lanes_active, "lanes_total": e.lanes_total,
             "instructions": [{"mnemonic": m, "types": t, "artificial": own, "count": count}
                              for (m, t, own), count in e.by_insn.items()]} for e in by_line(program, stats)]


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def stats_json(program, stats: Stats, stop: str, name: str | None = None) -> dict:
    return {"file": name or program.filename, "steps": stats.steps, "stop": stop,
            "instructions": [{"mnemonic": m, "types": t, "count": r.count, "lanes_active": r.lanes_active,
                              "lanes_total": r.lanes_total} for (m, t), r in stats.by_insn.items()],
            "lanes_active": stats.lanes_active, "lanes_total": stats.lanes_total,
            "ub_bytes_read": stats.ub_read, "ub_bytes_written": stats.ub_written,
            "gm_bytes_read": stats.gm_read, "gm_bytes_written": stats.gm_written,
            "pipes": {pipe: stats.by_pipe.get(pipe, 0) for pipe in PIPES_SHOWN},
            "estimated_cycles": stats.cycles}
