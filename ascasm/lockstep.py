"""Differential execution: the same program on both executors, the whole machine state compared
byte for byte after every step. The first difference is reported with step, pc and source line."""
from __future__ import annotations

from .program import Program
from .state import MAX_STEPS_DEFAULT, UB_USABLE_DEFAULT
from .vm import Machine


class Divergence(AssertionError):
    pass


def run_lockstep(program: Program, ub_usable: int = UB_USABLE_DEFAULT, max_steps: int = MAX_STEPS_DEFAULT,
                 step_cap: int | None = None) -> tuple[Machine, Machine]:
    """Run `program` on "ref" and "cy" one instruction at a time; raise Divergence on any difference.

    Returns both machines once they have stopped (or after `step_cap` instructions)."""
    ref = Machine(program, "ref", ub_usable, max_steps)
    cy = Machine(program, "cy", ub_usable, max_steps)
    _compare(program, ref, cy, "before the first step")
    executed = 0
    while ref.stop_name == "RUNNING" or cy.stop_name == "RUNNING":
        pc = ref.state.pc
        ref.run(1)
        cy.run(1)
        executed += 1
        if pc < len(program.insns):
            insn = program.insns[pc]
            where = f"after step {ref.state.steps} (pc {pc}, {insn.loc}: {insn.loc.text.strip()})"
        else:
            where = f"after falling off the end (pc {pc})"
        _compare(program, ref, cy, where)
        if step_cap is not None and executed >= step_cap:
            break
    return ref, cy


def _compare(program: Program, ref: Machine, cy: Machine, where: str):
    difference = ref.state.first_difference(cy.state)
    if difference is not None:
        raise Divergence(f"{program.filename}: ref and cy differ {where}: {difference} (ref != cy)")


def run_lockstep_blocks(program: Program, count: int, ub_usable: int = UB_USABLE_DEFAULT,
                        max_steps: int = MAX_STEPS_DEFAULT, step_cap: int | None = None):
    """run_lockstep for a run of `count` blocks: the same schedule on both executors, every block's
    state (and the shared GM) compared after every step. Returns both Blocks once they have finished."""
    from .blocks import Blocks
    ref = Blocks(program, count, "ref", ub_usable, max_steps)
    cy = Blocks(program, count, "cy", ub_usable, max_steps)
    executed = 0
    while not (ref.finished and cy.finished):
        where = f"at block {ref.turn}, pc {ref.machines[ref.turn].state.pc}"
        ref.run(1)
        cy.run(1)
        executed += 1
        if (ref.turn, ref.stopped, ref.deadlocked) != (cy.turn, cy.stopped, cy.deadlocked):
            raise Divergence(f"{program.filename}: the schedules differ {where}: ref at block {ref.turn}, "
                             f"cy at block {cy.turn}")
        for number, (mine, theirs) in enumerate(zip(ref.machines, cy.machines)):
            _compare(program, mine, theirs, f"in block {number} after a step {where}")
        if step_cap is not None and executed >= step_cap:
            break
    return ref, cy
