"""Ctrl-C: `Machine.run` hands the executor bounded chunks, so SIGINT ends `ascasm run` at once with
"interrupted at step N, line L" and exit status 130; the chunks stop exactly where one executor call
would (stop flags, last_row, the step limit)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import tempfile
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


# `python -m ascasm` with a readiness signal for the test: once the engine has executed 1,000 steps, the
# Machine.run call writes a line to standard error, and only then is SIGINT sent (a fixed sleep
# would depend on how fast the machine is).
READY = "engine running"
ASCASM_SIGNALLING_READY = f"""\
import sys
from ascasm import vm
from ascasm.cli import main

real_run, announced = vm.Machine.run, []


def run(self, budget=None):
    if announced:
        return real_run(self, budget)
    code = real_run(self, 1000 if budget is None else min(budget, 1000))
    if self.state.steps < 1000 and code == vm.RUNNING:
        return code                    # (stats calls the engine in short runs: announce after the loop has begun)
    announced.append(True)
    print({READY!r}, file=sys.stderr, flush=True)
    if code != vm.RUNNING or budget is not None:
        return code                    # (a caller with a budget takes a shorter call as it comes)
    return real_run(self, None)


vm.Machine.run = run
sys.exit(main(sys.argv[1:]))
"""


def sigint_as_a_terminal_sends_it():
    """(Run in the child before Python starts.) A suite started in the background (`pytest &`) hands
    its children SIGINT ignored, and Python then installs no handler: the child would never see the
    signal, and run on to its step limit."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_run(tmp_path, *command):
    """Start `ascasm COMMAND spin.s`, wait until the engine runs, send SIGINT; (the process, its
    standard output, its standard error after the readiness line)."""
    program = tmp_path / "spin.s"
    program.write_text(SPIN)
    process = subprocess.Popen([sys.executable, "-c", ASCASM_SIGNALLING_READY, *(command or ["run"]), str(program),
                                "--max-steps", str(10 ** 12)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=tempfile.gettempdir(), preexec_fn=sigint_as_a_terminal_sends_it)
    line = process.stderr.readline()
    assert line.strip() == READY, line + process.stderr.read()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=600)     # (a guard against a hang, not a speed test)
    return process, out, err


def test_ctrl_c_ends_a_run_with_status_130(tmp_path):
    process, _out, err = interrupt_run(tmp_path)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    # the message names the steps done and the line of the next instruction, one of the loop's
    line = err.strip().splitlines()[-1]
    assert line.startswith("ascasm: interrupted at step ") and ", line " in line, line
    steps, source_line = int(line.split("step ")[1].split(",")[0]), int(line.rsplit(" ", 1)[1])
    assert steps >= 1000 and source_line in (6, 7, 8, 9)


def test_ctrl_c_in_json_mode_reports_where(tmp_path):
    process, out, _err = interrupt_run(tmp_path, "run", "--json")
    report = json.loads(out)
    assert process.returncode == 130
    assert report["status"] == "interrupted" and report["exit"] == 130
    assert report["interrupted"].startswith("interrupted at step ") and report["steps"] >= 1000


def test_ctrl_c_in_stats_reports_the_steps_done(tmp_path):
    process, out, err = interrupt_run(tmp_path, "stats", "--json")
    assert process.returncode == 130, err
    assert "Traceback" not in err
    line = err.strip().splitlines()[-1]
    assert line.startswith("ascasm: interrupted at step "), line
    report = json.loads(out)
    steps = int(line.split("step ")[1].split(",")[0])
    assert report["steps"] == steps and report["stop"] == line.removeprefix("ascasm: ")
    # the statistics cover exactly those steps: vld and mask once, then the loop's four rows in turn
    counts = {row["mnemonic"]: row["count"] for row in report["instructions"]}
    assert counts["vld"] == counts["mask"] == 1 and sum(counts.values()) == steps
    loop = [counts["vsct"], counts["membar"], counts["vadd"], counts["b"]]
    assert loop == sorted(loop, reverse=True) and loop[0] - loop[-1] <= 1
    # every lane of the vld, vsct and vadd (u16, mask ALL) is active: 128 per execution
    assert report["lanes_active"] == report["lanes_total"] == 128 * (1 + counts["vsct"] + counts["vadd"])
    assert report["ub_bytes_read"] == 256 and report["ub_bytes_written"] == 256 * counts["vsct"]


def test_chunked_runs_stop_where_one_call_stops():
    """Machine.run with tiny chunks against Machine.run in one executor call per run: the same state
    and last_row after every call, with stop flags, budgets, the step limit and a lone block's
    cross-core waits, which Machine.run resolves between calls (the debugger relies on this)."""
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
            with mock.patch.object(vm, "RUN_CHUNK", 1 << 62):      # one executor call per run
                whole.run(budget)
            assert chunked.state.first_difference(whole.state) is None
            assert chunked.last_row == whole.last_row
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
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tempfile.gettempdir(),
                            preexec_fn=sigint_as_a_terminal_sends_it)
    assert (result.returncode, result.stderr) == (130, "ascasm: interrupted\n")
