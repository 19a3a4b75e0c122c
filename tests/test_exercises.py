"""The tutorial's exercises (programs/exercises/): every solution halts with its .expect lines met and no
warning (with --strict, on both executors in lockstep); every exercise assembles, has its solution's
.expect lines, and does not pass them yet. The tutorial names every exercise, and its example programs
run."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import ascasm
from ascasm.lockstep import run_lockstep

ROOT = Path(__file__).resolve().parent.parent
EXERCISES = sorted((ROOT / "programs" / "exercises").glob("*.s"))
TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text()


def solution(exercise: Path) -> Path:
    return exercise.parent / "solutions" / exercise.name


def expect_lines(path: Path) -> list[str]:
    return [line for line in path.read_text().splitlines() if line.startswith(".expect")]


def test_there_are_ten_exercises_each_with_a_solution():
    assert len(EXERCISES) == 10
    assert sorted(p.name for p in (ROOT / "programs" / "exercises" / "solutions").glob("*.s")) == \
        [p.name for p in EXERCISES]


@pytest.mark.parametrize("exercise", EXERCISES, ids=[p.name for p in EXERCISES])
def test_the_solution_passes_strictly_on_both_executors(exercise):
    program = ascasm.assemble(solution(exercise))
    assert program.expects
    ref, cy = run_lockstep(program)
    assert cy.stop_name == "HALTED"
    result = ascasm.run(program, strict=True)
    assert result.ok and not result.warnings, result.mismatches


@pytest.mark.parametrize("exercise", EXERCISES, ids=[p.name for p in EXERCISES])
def test_the_exercise_is_not_solved_yet(exercise):
    assert expect_lines(exercise) == expect_lines(solution(exercise))
    assert "TODO" in exercise.read_text()
    result = ascasm.run(exercise)
    assert not result.ok


def test_the_tutorial_names_every_exercise():
    named = set(re.findall(r"programs/exercises/(\d\d_\w+\.s)", TUTORIAL))
    assert named == {p.name for p in EXERCISES}


def test_the_tutorials_programs_run():
    blocks = re.findall(r"```asm\n(.*?)```", TUTORIAL, re.DOTALL)
    assert len(blocks) >= 8
    for number, block in enumerate(blocks, 1):
        result = ascasm.run(ascasm.assemble(block, f"tutorial block {number}"), strict=True)
        assert result.ok, (number, result.mismatches)
