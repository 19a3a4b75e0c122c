"""`ascasm stats` counts whole straight runs of rows at engine speed: masks that change inside a loop,
dual issue across a loop's back edge, and (differentially) the same figures as counting one step at a
time on random programs."""
from __future__ import annotations

import json
import math

from hypothesis import given, settings

from ascasm import assemble
from ascasm.observers import stats
from ascasm.observers.effects import StepLog
from ascasm.isa import Kind
from ascasm.lanes import governed_lanes, lane_width
from ascasm.state import VL
from ascasm.vm import Machine
from conftest import run_cli as ascasm
from test_random_programs import SETTINGS, programs


def test_masks_changing_inside_a_loop(tmp_path):
    program = tmp_path / "masks.s"
    program.write_text("""\
.ub a u16[128]
        mov     s0, 0
loop:   mask    p0.b16, ALL
        vadd    v1.u16, v0.u16, v0.u16, p0
        mask    p0.b16, M4
        vadd    v2.u16, v0.u16, v0.u16, p0
        add     s0, s0, 1
        blt     s0, 3, loop
        halt
""")
    result = ascasm("stats", program, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    # mov, three rounds of six rows, halt
    assert report["steps"] == 1 + 3 * 6 + 1
    by_name = {r["mnemonic"]: r for r in report["instructions"]}
    # each round: a vadd under ALL (128 of 128 u16 lanes), one under M4 (every 4th: 32 of 128)
    assert by_name["vadd"]["count"] == 6
    assert by_name["vadd"]["lanes_active"] == 3 * (128 + 32) and by_name["vadd"]["lanes_total"] == 6 * 128
    assert by_name["mask"]["count"] == 6 and by_name["blt"]["count"] == 3
    # mov 1; per round: mask 1, the vadd shares its cycle, mask 1, vadd shares, add 1, blt 1; halt 1
    assert report["estimated_cycles"] == 1 + 3 * 4 + 1
    # in the order the rows first ran
    assert [r["mnemonic"] for r in report["instructions"]] == ["mov", "mask", "vadd", "add", "blt", "halt"]


def test_dual_issue_across_an_engine_return(tmp_path):
    # the engine returns before each mask row: a vadd before it and the mask still share a cycle
    program = tmp_path / "pairs.s"
    program.write_text("""\
.ub a u16[128]
        mask    p0.b16, ALL
        mov     s0, 0
loop:   vadd    v1.u16, v0.u16, v0.u16, p0
        mask    p1.b16, M4
        vadd    v2.u16, v0.u16, v0.u16, p1
        vadd    v3.u16, v0.u16, v0.u16, p0
        add     s0, s0, 1
        blt     s0, 2, loop
        halt
""")
    result = ascasm("stats", program, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["steps"] == 2 + 2 * 6 + 1
    # mask 1, mov 1; per round: vadd 1, mask shares it, vadd 1, vadd shares it, add 1, blt 1; halt 1
    assert report["estimated_cycles"] == 2 + 2 * 4 + 1
    vadd = next(r for r in report["instructions"] if r["mnemonic"] == "vadd")
    assert vadd["lanes_active"] == 2 * (128 + 32 + 128) and vadd["lanes_total"] == 6 * 128


def per_step_stats(program, machine) -> stats.Stats:
    """The statistics counted one executed step at a time (effects.StepLog), as the docs define them."""
    counted, state, log, pending = stats.Stats(), machine.state, StepLog(program, machine), False
    while state.status == 0:
        pc, before = state.pc, state.steps
        insn = program.insns[pc] if pc < len(program.insns) else None
        active = governed_lanes(insn, state) if insn is not None else None
        _pc, effects, _records = log.step()
        if state.steps == before:
            break
        spec = insn.spec
        key = (spec.mnemonic, "/".join(t.name for t in insn.types))
        row = counted.by_insn.setdefault(key, stats.Row())
        row.count += 1
        lanes = 0
        if any(op.kind is Kind.VREG for op in spec.operands):
            lanes = VL // lane_width(insn)
            row.lanes_total += lanes
            one_element_store = spec.access is not None and spec.access.direction == "store" and spec.access.size == "T"
            row.lanes_active += int(active.sum()) if active is not None else 1 if one_element_store else lanes
        counted.ub_read += sum(span.count * span.width for span in effects.ub_reads)
        counted.ub_written += sum(span.count * span.width for span in effects.ub_writes)
        per_cycle = dict(spec.throughput).get(key[1])
        occupancy = max(1, math.ceil(lanes / per_cycle)) if per_cycle else 1
        dual = spec.issue == "dual" and occupancy == 1
        if dual and pending:
            pending = False
        else:
            counted.cycles += occupancy
            pending = dual
    counted.steps = state.steps
    return counted


def figures(counted: stats.Stats) -> tuple:
    return (counted.steps, counted.ub_read, counted.ub_written, counted.cycles,
            [(key, vars(row)) for key, row in counted.by_insn.items()])


@settings(SETTINGS, max_examples=60)       # (tests/test_random_programs.py runs 300 of these)
@given(programs())
def test_engine_speed_statistics_match_a_step_by_step_count(source):
    program = assemble(source, "random.s")
    one_step_at_a_time = per_step_stats(program, Machine(program, "cy", max_steps=2000))
    machine = Machine(program, "cy", max_steps=2000)
    at_engine_speed, interrupted = stats.collect(program, machine)
    assert not interrupted
    assert figures(at_engine_speed) == figures(one_step_at_a_time)
