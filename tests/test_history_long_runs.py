"""Reverse execution over long fast runs: a checkpoint at least every SEGMENT_STEPS steps, so `back`
replays little; Ctrl-C during `back` still ends exactly where asked; `why` and `rc` run at engine speed
between the rows that may write what they look for, and agree with a run recorded step by step."""
from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tempfile
from unittest import mock

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ascasm import assemble
from ascasm.observers import history
from ascasm.debugger import Debugger
from ascasm.debugger.control import RunControl
from ascasm.observers.effects import StepLog
from ascasm.observers.history import Recorder, Segment
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
    before = fast.state.copy()
    # tiny chunks: the search splits each segment (37 moves) into chunks of 13, 5 and 2 moves
    with mock.patch.object(history, "SEARCH_CHUNKS", 3), mock.patch.object(history, "SEARCH_LEAF", 2), \
            mock.patch.object(history, "SEARCH_LEAF_UB", 5):
        for name in ("ub", "v", "s", "p", "a"):
            positions = np.flatnonzero(recorded.writers[name]["step"] >= 0)
            positions = np.union1d(positions, np.arange(min(64, recorded.writers[name].size)))
            assert np.array_equal(fast.last_writers(name, positions), recorded.writers[name][positions]), name
    assert same_state(fast.state, before)


def rc_session(program, recorded: bool, commands: str) -> str:
    """The debugger's output for `commands` after running `program` to its stop: recorded step by step
    (rc then undoes one move at a time: the reference) or at engine speed in segments of 37 moves,
    searched in chunks of 13, 5 and 2 moves."""
    out = io.StringIO()
    debugger = Debugger(program, "cy", max_steps=300, stdin=io.StringIO(), stdout=out)
    with mock.patch.object(history, "SEGMENT_STEPS", 37), mock.patch.object(history, "FAST_CHUNK", 37), \
            mock.patch.object(history, "SEARCH_CHUNKS", 3), mock.patch.object(history, "SEARCH_LEAF", 2):
        debugger.onecmd("s 301" if recorded else "c")
        out.seek(0)
        out.truncate()
        for line in commands.splitlines():
            debugger.onecmd(line)
    return out.getvalue()


@settings(SETTINGS, max_examples=40)
@given(programs(), st.data())
def test_rc_over_a_fast_run_stops_where_stepping_back_stops(source, data):
    program = assemble(source, "random.s")
    lines = sorted({insn.loc.line for insn in program.insns})
    watch = data.draw(st.sampled_from([f"s{k}" for k in range(8)] + ["v0.u16[0:4]", "p0", "a0", "ub[0:64]"]))
    line = data.draw(st.sampled_from(lines))
    commands = f"w {watch}\nrc\nrc\nb {line}\nrc\nrc\np steps\n"
    assert rc_session(program, False, commands) == rc_session(program, True, commands)


def test_ctrl_c_during_rc_stops_at_a_stated_step():
    program = assemble(LOOP, "loop.s")
    control = RunControl(program, "cy")
    with mock.patch.object(history, "SEGMENT_STEPS", 10000), mock.patch.object(history, "FAST_CHUNK", 10000):
        control.recorder.run_fast()
    control.add_watch("s5")                 # written once, at step 2: rc searches every segment back
    segments = control.recorder.segments()
    real_reaches = Recorder._reaches

    def reaches_interrupted(self, flags, moves):  # Ctrl-C arrives while the third segment from the end is searched
        if len(self.history) == len(segments) - 2:
            os.kill(os.getpid(), signal.SIGINT)
        return real_reaches(self, flags, moves)
    with mock.patch.object(Recorder, "_reaches", reaches_interrupted):
        run = control.reverse_continue()
    # it stopped at the end of the segment being searched, the start of the two it went back over
    step = segments[-3].last_step
    assert run.reasons == [f"interrupted: rc stopped at step {step}"]
    assert control.state.steps == step
    assert same_state(control.state, state_after(program, step))


# `python -m ascasm debug` with a readiness signal: once `back` is replaying a segment (inside Machine.run),
# the child says so on standard error and waits until the debugger has seen the SIGINT the test then
# sends (waiting for the event, not a fixed time), then lets the replay go on.
READY = "back is replaying"
DEBUG_SIGNALLING_READY = f"""\
import sys
import time
from ascasm.observers import history
from ascasm import vm
from ascasm.debugger import control
from ascasm.cli import main

real_control_back, real_recorder_back, real_run = control.RunControl.back, history.Recorder.back, vm.Machine.run
current, replaying = [], []


def control_back(self, count):
    current.append(self)
    return real_control_back(self, count)


def recorder_back(self, n=1):
    replaying.append(True)
    try:
        return real_recorder_back(self, n)
    finally:
        replaying.clear()


def run(self, budget=None):
    if replaying and current and not current[-1].interrupted:
        print({READY!r}, file=sys.stderr, flush=True)
        while not current[-1].interrupted:
            time.sleep(0.01)
    return real_run(self, budget)


control.RunControl.back, history.Recorder.back, vm.Machine.run = control_back, recorder_back, run
sys.exit(main(sys.argv[1:]))
"""


def test_ctrl_c_during_back_in_a_session_ends_at_the_exact_step(tmp_path):
    source = tmp_path / "loop.s"
    source.write_text(LOOP)
    commands = tmp_path / "commands.txt"
    commands.write_text("c\nback 5\np steps\np s0\np s1\nq\n")
    with commands.open() as stdin:
        process = subprocess.Popen([sys.executable, "-c", DEBUG_SIGNALLING_READY, "debug", str(source)],
                                   stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   cwd=tempfile.gettempdir())
    line = process.stderr.readline()
    assert line.strip() == READY, line + process.stderr.read()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=600)     # (a guard against a hang, not a speed test)
    assert process.returncode == 0 and "Traceback" not in err, err
    # back 5 from the halt (step 150003): after step 149998, the `add s0` of iteration 49998
    assert "steps = 149998" in out.splitlines()
    assert "s0 = 49999 (0xc34f)" in out.splitlines()
    assert f"s1 = {49998 * 49999 // 2} ({49998 * 49999 // 2:#x})" in out.splitlines()
