"""`ascasm stats FILE`: what a run executed — instructions per mnemonic and type, vector lanes active
against lanes available, UB bytes read and written — and an *estimated* cycle count.

The counts come from the same per-step records as `ascasm run --trace` (effects.StepLog). The
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

import math
from dataclasses import dataclass, field

from .isa import Kind
from .lanes import governed_lanes, lane_width
from .state import VL
from .effects import StepLog
from .history import RUNNING

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
    cycles: int = 0
    _pending_dual: bool = False                         # the previous instruction can share its cycle

    @property
    def lanes_active(self) -> int:
        return sum(row.lanes_active for row in self.by_insn.values())

    @property
    def lanes_total(self) -> int:
        return sum(row.lanes_total for row in self.by_insn.values())


def collect(program, machine) -> Stats:
    """Run `machine` to its stop one instruction at a time, counting what each executed step did."""
    stats, state, log = Stats(), machine.state, StepLog(program, machine)
    while state.status == RUNNING:
        pc, before = state.pc, state.steps
        insn = program.insns[pc] if pc < len(program.insns) else None
        active = governed_lanes(insn, state) if insn is not None else None
        _pc, effects, _records = log.step()
        if state.steps == before:
            break                                       # halt past the end, or a fault: nothing ran
        _count(stats, insn, active, effects)
    stats.steps = state.steps
    return stats


def _count(stats: Stats, insn, active, effects):
    spec = insn.spec
    key = (spec.mnemonic, "/".join(t.name for t in insn.types))
    row = stats.by_insn.setdefault(key, Row())
    row.count += 1
    lanes = 0
    if any(op.kind is Kind.VREG for op in spec.operands):
        lanes = VL // lane_width(insn)
        row.lanes_total += lanes
        row.lanes_active += lanes if active is None else int(active.sum())
    stats.ub_read += sum(span.count * span.width for span in effects.ub_reads)
    stats.ub_written += sum(span.count * span.width for span in effects.ub_writes or [])
    per_cycle = dict(spec.throughput).get(key[1])
    occupancy = max(1, math.ceil(lanes / per_cycle)) if per_cycle else 1
    dual = spec.issue == "dual" and occupancy == 1
    if dual and stats._pending_dual:
        stats._pending_dual = False                     # issued in the previous instruction's cycle
    else:
        stats.cycles += occupancy
        stats._pending_dual = dual


def report_lines(program, stats: Stats, stop: str) -> list[str]:
    """The text report of `ascasm stats`."""
    lines = [f"{program.filename}: {stats.steps} step{'s' if stats.steps != 1 else ''}, {stop}", ""]
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
    lines.append(f"estimated cycles: {stats.cycles} (an ESTIMATE, not a measurement)")
    lines.append("  from the Ascend 950 C-API tables of theoretical throughput and dual issue; latencies, "
                 "dependencies and UB bank conflicts are not modelled (docs/cli.md \"ascasm stats\")")
    return lines


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%"


def stats_json(program, stats: Stats, stop: str) -> dict:
    return {"file": program.filename, "steps": stats.steps, "stop": stop,
            "instructions": [{"mnemonic": m, "types": t, "count": r.count, "lanes_active": r.lanes_active,
                              "lanes_total": r.lanes_total} for (m, t), r in stats.by_insn.items()],
            "lanes_active": stats.lanes_active, "lanes_total": stats.lanes_total,
            "ub_bytes_read": stats.ub_read, "ub_bytes_written": stats.ub_written,
            "estimated_cycles": stats.cycles}
