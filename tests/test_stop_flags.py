"""Per-row stop flags (`Machine.set_stop_rows`, docs/bytecode.md "Stop flags") on both executors: `run`
returns, still running, before a `before` row (never on the first instruction of the call) and right
after an `after` row completes; `last_row` names the row completed last. The debugger's `continue`
stops on them (tests/test_debugger.py checks its sessions)."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascasm import assemble
from ascasm.vm import Machine
from test_random_programs import programs

SETTINGS = settings(max_examples=150, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

LOOP = """
    mov s0, 0              ; row 0
loop:
    add s0, s0, 1          ; row 1
    blt s0, 3, loop        ; row 2
    halt                   ; row 3
"""

FAULT = """
.ub out u16[128]
    mov s0, 2              ; row 0
    mask p0.b16, ALL       ; row 1
    vsta [out + s0], v0.u16, p0   ; row 2: misaligned
    halt
"""


def machine(source: str, engine: str, **options) -> Machine:
    return Machine(assemble(textwrap.dedent(source), "flags.s"), engine, **options)


def flags(n: int, *rows: int) -> np.ndarray:
    out = np.zeros(n, np.uint8)
    out[list(rows)] = 1
    return out


def where(m: Machine) -> tuple:
    return m.stop_name, m.state.pc, m.state.steps, m.last_row


def test_no_flags_by_default(engine):
    m = machine(LOOP, engine)
    assert m.last_row == -1
    m.run()
    assert where(m) == ("HALTED", 3, 8, 3)


def test_stops_before_a_flagged_row_but_not_on_the_first_instruction(engine):
    m = machine(LOOP, engine)
    m.set_stop_rows(flags(4, 1), None)
    m.run()
    assert where(m) == ("RUNNING", 1, 1, 0)         # before row 1, row 0 done
    m.run()                                          # row 1 first: it runs, then the loop comes back
    assert where(m) == ("RUNNING", 1, 3, 2) and m.state.sreg[0] == 1
    m.run(1)                                         # a budget of one runs the flagged row itself
    assert where(m) == ("RUNNING", 2, 4, 1)
    m.run()
    assert where(m) == ("RUNNING", 1, 5, 2) and m.state.sreg[0] == 2
    m.run()
    assert where(m) == ("HALTED", 3, 8, 3)


def test_stops_after_a_flagged_row(engine):
    m = machine(LOOP, engine)
    m.set_stop_rows(None, flags(4, 2))
    m.run()
    assert where(m) == ("RUNNING", 1, 3, 2)          # the branch back, taken
    m.run()
    m.run()
    assert where(m) == ("RUNNING", 3, 7, 2)          # the branch, not taken: the pc is on the halt
    m.run()
    assert where(m) == ("HALTED", 3, 8, 3)


def test_both_flags_and_clearing_them(engine):
    m = machine(LOOP, engine)
    m.set_stop_rows(flags(4, 2), flags(4, 1))
    m.run()
    assert where(m) == ("RUNNING", 2, 2, 1)          # after row 1 (row 2's before flag is then moot)
    m.run()
    assert where(m) == ("RUNNING", 2, 4, 1)
    m.set_stop_rows(None, None)
    m.run()
    assert where(m) == ("HALTED", 3, 8, 3)


def test_a_flagged_row_that_faults(engine):
    m = machine(FAULT, engine)
    m.set_stop_rows(None, flags(4, 2))
    m.run()
    assert where(m) == ("MISALIGNED", 2, 2, 1)       # no stop after a row that did not complete
    m = machine(FAULT, engine)
    m.set_stop_rows(flags(4, 2), None)
    m.run()
    assert where(m) == ("RUNNING", 2, 2, 1)
    m.run()
    assert where(m) == ("MISALIGNED", 2, 2, -1)      # this call completed no row


def test_before_flag_comes_before_the_step_limit(engine):
    m = machine(LOOP, engine, max_steps=1)
    m.set_stop_rows(flags(4, 1), None)
    m.run()
    assert where(m) == ("RUNNING", 1, 1, 0)
    m.run()
    assert where(m) == ("STEP_LIMIT", 1, 1, -1)


def test_falling_off_the_end_after_a_flagged_row(engine):
    m = machine("    mov s0, 1\n    add s0, s0, 1\n", engine)
    m.set_stop_rows(None, flags(2, 1))
    m.run()
    assert where(m) == ("RUNNING", 2, 2, 1)          # past the last row, still running
    m.run()
    assert where(m) == ("HALTED", 2, 2, -1)


@pytest.mark.parametrize("bad", [np.zeros(3, np.uint8), np.zeros(5, np.uint8), np.zeros((4, 1), np.uint8),
                                 np.zeros(0, np.uint8), 1, [1, 0]])
def test_wrong_lengths_are_rejected(engine, bad):
    m = machine(LOOP, engine)
    m.set_stop_rows(flags(4, 1), None)
    for before, after in ((bad, None), (None, bad), (flags(4, 2), bad)):
        with pytest.raises(ValueError, match=r"stop flags have shape .*expected \(4,\)"):
            m.set_stop_rows(before, after)
    m.run()
    assert where(m) == ("RUNNING", 1, 1, 0)          # the flags set before are still the ones used


def test_a_negative_budget_is_rejected(engine):
    # the compiled run loop counts its budget down to 0: a negative one ran past the step limit
    m = machine(LOOP, engine)
    with pytest.raises(ValueError, match="budget -1 is negative"):
        m.run(-1)
    assert where(m) == ("RUNNING", 0, 0, -1)


def test_the_engine_rejects_a_negative_budget_itself():
    m = machine(LOOP, "cy", max_steps=3)
    with pytest.raises(ValueError, match="budget -5 is negative"):
        m.executor.run(-5)
    assert m.state.steps == 0


def test_the_engine_keeps_a_private_copy():
    m = machine(LOOP, "cy")
    before = flags(4, 1)
    m.set_stop_rows(before, None)
    before[1] = 0
    m.run()
    assert where(m) == ("RUNNING", 1, 1, 0)


@pytest.mark.slow                 # (150 random programs on both executors: the tests above stay in pytest -q)
@SETTINGS
@given(programs(), st.data())
def test_both_executors_stop_alike(source, data):
    """Random programs, random flags and budgets: after every run() call the two executors have the
    same state and the same last_row."""
    program = assemble(source, "random.s")
    n = len(program.insns)
    before, after = (np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)), np.uint8)
                     for _ in range(2))
    ref, cy = (Machine(program, engine, max_steps=100) for engine in ("ref", "cy"))
    for m in (ref, cy):
        m.set_stop_rows(before, after)
    for _ in range(60):
        budget = data.draw(st.sampled_from((1, 2, 5, 1 << 30)))
        ref.run(budget)
        cy.run(budget)
        assert ref.state.first_difference(cy.state) is None
        assert ref.last_row == cy.last_row
        if ref.stop_name != "RUNNING":
            break
