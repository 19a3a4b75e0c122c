"""The fault corpus: each file in tests/faults/ stops with the fault its first line states,
`; expect KIND at LINE:COL step N: MESSAGE`, on both executors, writing nothing. A second line
`; options: key=value ...` passes Machine options (e.g. max_steps=100)."""
import re
from pathlib import Path

import pytest

from ascasm import Machine, assemble_file

CORPUS = sorted((Path(__file__).parent / "faults").glob("*.s"))
EXPECT = re.compile(r"^; expect (\w+) at (\d+):(\d+) step (\d+): (.*)$")


def parse_header(path: Path):
    lines = path.read_text().splitlines()
    m = EXPECT.match(lines[0])
    assert m, f"{path.name}: first line must be '; expect KIND at LINE:COL step N: MESSAGE'"
    options = {}
    if lines[1].startswith("; options:"):
        options = {k: int(v) for k, v in (item.split("=") for item in lines[1].split(":", 1)[1].split())}
    kind, line, col, step, message = m.groups()
    return kind, int(line), int(col), int(step), message, options


def test_corpus_is_not_empty():
    assert len(CORPUS) >= 9


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_fault_kind_position_step_and_message(path, engine):
    kind, line, col, step, message, options = parse_header(path)
    program = assemble_file(path)
    machine = Machine(program, engine, **options)
    before_ub = program.initial_state().ub
    machine.run()
    fault = machine.fault()
    assert fault is not None, "the program was expected to fault"
    assert (fault.kind, fault.loc.line, fault.loc.col, fault.step, fault.message) == (kind, line, col, step, message)
    assert machine.state.steps == step - 1, "the faulting instruction does not count as a step"
    # no corpus program stores before its faulting instruction: the UB must be exactly as loaded
    assert (machine.state.ub == before_ub).all()
