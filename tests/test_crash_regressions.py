"""Programs that once crashed the engine, each run on both executors (a crash kills the test process,
so a regression cannot pass)."""
from __future__ import annotations

import subprocess
import tempfile
import sys

import numpy as np
import pytest
from conftest import run_cli, run_source

from ascasm import assemble
from ascasm.state import SPR_SQZN
from ascasm.vm import Machine


def test_a_store_with_no_active_lane_at_a_wild_address_after_a_write(engine):
    # tools/fuzz.py --seed 11 under AddressSanitizer, program 1132 shrunk: vsta.pu's address (s7 after
    # a post-update of -2^63 elements) is far outside the UB and p0 has no active lane, so nothing is
    # checked or written; with a byte written since the latest membar (the vstu), the hazard scan read
    # the dirty-byte table at that address's block: a segfault.
    machine = run_source("""
        .ub data u8[2048] = (i * 37 + 11) % 256
            mask p1.b32, M3
            vld.ds.pu v1.b8, [s7], -9223372036854775808
            vstu [data + 1792], v2.b16
            mov s0, s7
            vcmp.ne p0, v5.u16, v0.u16, p1
            vsta.pu [s0], v0.e1m2x2, p0, 1268474523468743752
            halt
    """, engine)
    assert machine.state.status == 1                   # HALTED: the store wrote nothing, no fault


def test_a_stream_state_set_from_outside_is_refused_before_running():
    """The stream kernels size their copies by a u register's pending count and by SQZN: the engine
    refuses a state whose values no instruction could leave (a copy of 40 pending bytes would run past
    the kernel's buffer)."""
    program = assemble("    mov s0, 0x44\n    vstas [s0], u0\n    halt\n")
    machine = Machine(program, "cy")
    machine.state.ureg_state[0] = (40, 0)
    with pytest.raises(ValueError, match="u0 holds 40 pending bytes"):
        machine.run()
    machine = Machine(program, "cy")
    machine.state.spr[SPR_SQZN] = 257
    with pytest.raises(ValueError, match="SQZN 257"):
        machine.run()
    machine = Machine(program, "cy")
    machine.state.ureg_state[0] = (4, 0x40)                 # what a stream leaves: the flush runs
    assert machine.run() == 1


# A stream left pending near the UB's end with the whole UB usable: vstus keeps 2 bytes pending for
# 0x3ffe1..0x3ffe2 (no 32-byte block is complete), vstas flushes them there.
PENDING_AT_THE_END = """
    vci v0.s8, 1
    vstus [0x3ffe1], u0, v0.u8, 2
    vstas [0x3ffe3], u0
    halt
"""


@pytest.mark.parametrize("first_call", [1, 2, 3])
def test_a_stream_pending_at_the_ub_end_passes_the_state_check(engine, first_call):
    """Every state an instruction can leave is one the engine accepts at the next run() call: here
    the calls split the program after each step (as the debugger's `s` and a run chunk's end do)."""
    program = assemble(PENDING_AT_THE_END, ub_usable=256 * 1024)
    machine = Machine(program, engine, ub_usable=256 * 1024)
    machine.run(first_call)
    assert machine.run() == 1                                       # HALTED
    assert list(machine.state.ub[0x3ffe1:0x3ffe3]) == [1, 2]        # vci .s8, 1: lanes 1, 2, ...


def test_the_cli_tools_that_step_accept_a_stream_pending_at_the_ub_end(tmp_path):
    source = tmp_path / "end.s"
    source.write_text(PENDING_AT_THE_END)
    for command in (["stats"], ["run", f"--trace={tmp_path / 't.jsonl'}"], ["draw", "--step", "3"]):
        result = run_cli(*command, source, "--ub-usable", "256K")
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    result = subprocess.run([sys.executable, "-m", "ascasm", "debug", str(source), "--ub-usable", "256K"],
                            input="s\ns\ns\ns\n", capture_output=True, text=True,
                            cwd=tempfile.gettempdir())
    assert "the program halted after 4 steps" in result.stdout, result.stdout      # halt is a step
    assert "Error" not in result.stdout


REPLACED = """
.ub out u8[32]
    mov s1, 3
    vci v2.s8, 5
    mask p0.b8, ALL
    vsta [out], v2.u8, p0
    halt
"""


@pytest.mark.parametrize("part", ["ub", "vreg", "sreg", "ctrl", "dup_warn", "hazard_warn", "ub_write_row"])
def test_a_state_array_replaced_after_loading_is_the_one_the_engine_runs_on(part):
    """The compiled engine points into the state's arrays: replacing one (m.state.ub = ...) must never
    leave it writing into a freed array. Run in a child process, so that a crash fails the test."""
    script = f"""
import numpy as np
from ascasm import assemble
from ascasm.vm import Machine
m = Machine(assemble({REPLACED!r}), "cy")
setattr(m.state, {part!r}, getattr(m.state, {part!r}).copy())
import gc; gc.collect()
np.zeros(1 << 22, np.uint8)          # reuse the freed memory
assert m.run() == 1, m.stop_name
assert int(m.state.sreg[1]) == 3 and list(m.state.vreg[2][:3]) == [5, 6, 7], (m.state.sreg[1], m.state.vreg[2][:3])
assert list(m.state.ub[:3]) == [5, 6, 7], m.state.ub[:3]
assert int(m.state.ctrl[1]) == 5
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            cwd=tempfile.gettempdir())
    assert result.returncode == 0 and result.stdout == "ok\n", (result.returncode, result.stderr)


def test_a_replaced_state_array_of_the_wrong_shape_is_refused():
    machine = Machine(assemble(REPLACED), "cy")
    machine.state.vreg = np.zeros((31, 256), np.uint8)
    with pytest.raises(ValueError, match=r"state.vreg is uint8\(31, 256\)"):
        machine.run()


def test_a_huge_step_count_set_from_outside_does_not_hang(engine):
    """ctrl[1] (the steps done) of -2^63 once overflowed the engine's countdown: run(10) never returned."""
    machine = Machine(assemble("top: add s0, s0, 1\n    b top\n"), engine)
    machine.state.ctrl[1] = -(1 << 63)
    with pytest.raises(ValueError, match="steps -9223372036854775808 is not a step count"):
        machine.run(10)


def test_a_garbage_status_set_from_outside_is_a_clear_error(engine):
    machine = Machine(assemble("    halt\n"), engine)
    machine.state.ctrl[2] = 12345
    with pytest.raises(ValueError, match="status 12345 is not a stop code"):
        machine.run(10)
