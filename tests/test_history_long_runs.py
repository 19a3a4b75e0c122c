"""Reverse execution over long fast runs: a checkpoint at least every SEGMENT_STEPS steps, so `back`
replays little; Ctrl-C during `back` still ends exactly where asked; `why` runs at engine speed
between the rows that may write what it looks for."""
from __future__ import annotations

import os
import signal
from unittest import mock

import numpy as np
from hypothesis import given, settings

from ascasm import assemble, history
from ascasm.debugger.control import RunControl
from ascasm.effects import StepLog
from ascasm.history import Recorder, Segment
from ascasm.vm import Machine
from test_random_programs import SETTINGS, programs

# s5 is written once (row 1), then a loop of 4 rows runs 50,000 times (s0 counts, s1 accumulates)
LOOP = """\
        mov     s0, 0
        mov     s5, 7
loop:   add     s1, s1, s0
        add     s0, s0, 1
        blt     s0, 50000, loop
        halt
"""
STEPS = 2 + 3 * 50000 + 1


def same_state(a, b) -> bool:
    return all(np.array_equal(getattr(a, part), getattr(b, part)) for part in a.PARTS)


def state_after(program, steps: int):
    machine = Machine(program)
    machine.run(steps)
    return machine.state


def test_a_long_continue_keeps_a_checkpoint_per_stretch_and_back_is_exact():
    program = assemble(LOOP, "loop.s")
    recorder = Recorder(program, Machine(program))
    with mock.patch.object(history, "SEGMENT_STEPS", 10000), mock.patch.object(history, "FAST_CHUNK", 10000):
        assert recorder.run_fast() == STEPS
    segments = recorder.segments()
    assert len(segments) == -(-STEPS // 10000) and all(s.moves <= 10000 for s in segments)
    assert sum(s.moves for s in segments) == STEPS
    assert recorder.back(5) == 5
    assert recorder.state.steps == STEPS - 5
    assert same_state(recorder.state, state_after(program, STEPS - 5))
    assert recorder.back(60000) == 60000
    assert same_state(recorder.state, state_after(program, STEPS - 60005))


def test_ctrl_c_during_back_ends_exactly_where_asked():
    program = assemble(LOOP, "loop.s")
    control = RunControl(program, "cy")
    control.recorder.run_fast()
    real_run = Machine.run

    def run_interrupted(self, budget=None):     # Ctrl-C arrives while `back` replays the segment
        os.kill(os.getpid(), signal.SIGINT)
        return real_run(self, budget)
    with mock.patch.object(Machine, "run", run_interrupted):
        done = control.back(5)
    assert done == 5 and control.state.steps == STEPS - 5
    assert same_state(control.state, state_after(program, STEPS - 5))


def test_why_runs_at_engine_speed_between_possible_writers():
    program = assemble(LOOP, "loop.s")
    recorder = Recorder(program, Machine(program))
    recorder.run_fast()
    single_steps = []
    real_step = StepLog.step

    def counted_step(self):
        single_steps.append(self.machine.state.pc)
        return real_step(self)
    with mock.patch.object(StepLog, "step", counted_step):
        (s5,) = recorder.last_writers("s", np.array([5]))
    # `mov s5, 7`: row 1, the second step; only that row was stepped one at a time, never the loop's
    assert (int(s5["step"]), int(s5["pc"])) == (2, 1)
    assert set(single_steps) == {1}
    single_steps.clear()
    with mock.patch.object(StepLog, "step", counted_step):
        (s1,) = recorder.last_writers("s", np.array([1]))
    # the last `add s1` (row 2): step 2 + 3 * 49999 + 1
    assert (int(s1["step"]), int(s1["pc"])) == (2 + 3 * 49999 + 1, 2)
    assert set(single_steps) == {2}
    assert isinstance(recorder.history[-1], Segment)


def test_a_long_why_reports_progress():
    program = assemble(LOOP, "loop.s")
    recorder = Recorder(program, Machine(program))
    with mock.patch.object(history, "SEGMENT_STEPS", 10000), mock.patch.object(history, "FAST_CHUNK", 10000):
        recorder.run_fast()
    lines = []
    recorder.on_progress = lines.append
    with mock.patch.object(history, "PROGRESS_EVERY", 0.0):      # every segment searched reports
        (s5,) = recorder.last_writers("s", np.array([5]))
    assert (int(s5["step"]), int(s5["pc"])) == (2, 1)
    segments = len(recorder.segments())
    assert len(lines) == segments
    assert lines[-1] == f"searched {STEPS:,} of {STEPS:,} steps run by continue (Ctrl-C stops the search)"


@settings(SETTINGS, max_examples=25)
@given(programs())
def test_why_after_a_fast_run_agrees_with_a_recorded_one(source):
    # the same run recorded step by step (exact last writers) and run fast (searched afterwards)
    program = assemble(source, "random.s")
    recorded = Recorder(program, Machine(program, max_steps=300))
    while recorded.state.status == history.RUNNING:
        recorded.step()
    recorded.step()                                       # (the stop itself is a move too)
    fast = Recorder(program, Machine(program, max_steps=300))
    with mock.patch.object(history, "SEGMENT_STEPS", 37), mock.patch.object(history, "FAST_CHUNK", 37):
        fast.run_fast()
    assert fast.state.steps == recorded.state.steps
    for name in ("ub", "v", "s", "p", "a"):
        positions = np.flatnonzero(recorded.writers[name]["step"] >= 0)
        positions = np.union1d(positions, np.arange(min(64, recorded.writers[name].size)))
        assert np.array_equal(fast.last_writers(name, positions), recorded.writers[name][positions]), name
