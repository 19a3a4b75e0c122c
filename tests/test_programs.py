"""Every bundled program runs identically on both executors, step by step, and passes its .expect."""
from pathlib import Path

import pytest

from ascasm import assemble_file
from ascasm.lockstep import run_lockstep

PROGRAMS = sorted((Path(__file__).resolve().parent.parent / "programs").glob("*.s"))


def test_programs_exist():
    assert PROGRAMS


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_program_lockstep_and_expectations(path):
    program = assemble_file(path)
    assert program.expects, f"{path.name} has no .expect: every bundled program checks itself"
    ref, cy = run_lockstep(program)
    assert ref.stop_name == cy.stop_name == "HALTED"
    for expectation in program.expects:
        wrong = expectation.mismatches(cy.state)
        assert wrong.size == 0, f"{expectation.buffer.name}: elements {wrong[:10]} differ"
