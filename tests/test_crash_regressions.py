"""Programs that once crashed the engine, each run on both executors (a crash kills the test process,
so a regression cannot pass)."""
from __future__ import annotations

import pytest
from conftest import run_source

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
