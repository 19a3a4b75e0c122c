"""Ctrl-C: `Machine.run` hands the executor bounded chunks, so SIGINT ends `ascasm run` at once with
"interrupted at step N, line L" and exit status 130; the chunks stop exactly where one executor call
would (stop flags, last_row, the step limit)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
import time
from unittest import mock

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascasm import assemble
from ascasm import vm
from ascasm.vm import Machine
from test_random_programs import programs

# An endless loop of vector work (a vsct and a vadd per iteration): about a microsecond per step.
SPIN = """\
.ub out u16[384]
.ub idx u16[128] = (i * 3) % 128
    vld v0.u16, [idx]
    mask p0.b16, ALL
loop:
    vsct [out], v0.u16, v0.u16, p0
    membar
    vadd v1.u16, v0.u16, v0.u16, p0
    b loop
"""


def interrupt_run(tmp_path, *options, wait: float = 2.0):
    """Start `ascasm run spin.s`, let it run, send SIGINT; (seconds until it ended, the process)."""
    program = tmp_path / "spin.s"
    program.write_text(SPIN)
    process = subprocess.Popen([sys.executable, "-m", "ascasm", "run", str(program), "--max-steps", str(10 ** 12),
                                *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=tempfile.gettempdir())
    time.sleep(wait)                       # past Python's start-up and the assembly: the engine is running
    assert process.poll() is None, process.communicate()
    start = time.perf_counter()
    process.send_signal(signal.SIGINT)
    process.wait(timeout=10)
    return time.perf_counter() - start, process


def test_ctrl_c_ends_a_run_at_once_with_status_130(tmp_path):
    seconds, process = interrupt_run(tmp_path)
    err = process.stderr.read()
    assert process.returncode == 130, err
    assert "Traceback" not in err
    # the message names the steps done and the line of the next instruction, one of the loop's
    line = err.strip().splitlines()[-1]
    assert line.startswith("ascasm: interrupted at step ") and ", line " in line, line
    steps, source_line = int(line.split("step ")[1].split(",")[0]), int(line.rsplit(" ", 1)[1])
    assert steps > 2 and source_line in (6, 7, 8, 9)
    # a chunk of 65536 steps takes well under 0.1 s; the rest is the interpreter exiting (a loaded
    # CI machine gets some slack)
    assert seconds < 0.5, seconds


def test_ctrl_c_in_json_mode_reports_where(tmp_path):
    _seconds, process = interrupt_run(tmp_path, "--json")
    report = json.loads(process.stdout.read())
    assert process.returncode == 130
    assert report["status"] == "interrupted" and report["exit"] == 130
    assert report["interrupted"].startswith("interrupted at step ") and report["steps"] > 2


def test_chunked_runs_stop_where_one_call_stops():
    """Machine.run with tiny chunks against one executor call per run: the same state and last_row
    after every call, with stop flags, budgets and the step limit (the debugger relies on this)."""
    @settings(max_examples=120, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(programs(), st.data(), st.sampled_from((1, 2, 3)))
    def check(source, data, chunk):
        program = assemble(source, "random.s")
        n = len(program.insns)
        before, after = (np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), np.uint8)
                         for _ in range(2))
        chunked, whole = (Machine(program, "cy", max_steps=100) for _ in range(2))
        for m in (chunked, whole):
            m.set_stop_rows(before, after)
        for _ in range(40):
            budget = data.draw(st.sampled_from((1, 2, 5, 7, 1 << 30)))
            with mock.patch.object(vm, "RUN_CHUNK", chunk):
                chunked.run(budget)
            whole.executor.run(budget)
            assert chunked.state.first_difference(whole.state) is None
            assert chunked.last_row == whole.executor.last_row
            if whole.stop_name != "RUNNING":
                break

    check()


def test_ctrl_c_while_the_tool_starts_is_one_line_and_status_130():
    """SIGINT delivered while the command's modules are imported (here: as ascasm.cli is looked up,
    a deterministic point, no sleeping) ends the tool as a Ctrl-C during a run does: no traceback."""
    script = """
import os, signal, sys
class InterruptOnCli:
    def find_spec(self, name, path=None, target=None):
        if name == "ascasm.cli":
            os.kill(os.getpid(), signal.SIGINT)
        return None
sys.meta_path.insert(0, InterruptOnCli())
sys.argv = ["ascasm", "--version"]
from ascasm.cli import main
sys.exit(main())
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tempfile.gettempdir())
    assert (result.returncode, result.stderr) == (130, "ascasm: interrupted\n")
