"""Random valid programs, run on both executors in lockstep (ascasm.lockstep): after every step the
whole machine state of "ref" and "cy" must be identical, faults and step limits included.

The programs come from ascasm/randprog.py, the generator tools/fuzz.py uses too: every row of the
table with operands generated from the row's syntax string and type list, so a row added to the table
is fuzzed without touching this file. Here hypothesis draws the choices, so a failure shrinks.

A second property checks straight-line scalar programs against an independent Python model of the
scalar rules (docs/semantics.md "Scalars"), division by zero included.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascasm import assemble, randprog
from ascasm.lockstep import run_lockstep
from ascasm.vm import Machine

MAX_STEPS = 100

SETTINGS = settings(max_examples=300, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

SCALAR_ALU = ("add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr")


class HypothesisChooser:
    """randprog's choices drawn by hypothesis (`draw` of a composite strategy)."""

    def __init__(self, draw):
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def choice(self, items):
        return self.draw(st.sampled_from(items))


@st.composite
def programs(draw) -> str:
    """A random program's source (the debugger, trace and stop-flag tests draw these too)."""
    return randprog.program(HypothesisChooser(draw))


@pytest.mark.slow                 # (tools/fuzz.py runs the same check on 20,000 programs in CI)
@SETTINGS
@given(programs())
def test_random_program_lockstep(source):
    program = assemble(source, "random.s")
    ref, cy = run_lockstep(program, max_steps=MAX_STEPS)   # raises Divergence on any difference
    assert ref.stop_name == cy.stop_name != "RUNNING"
    assert ref.state.steps == cy.state.steps <= MAX_STEPS


# ---------------------------------------------------------------------------------------------
# straight-line scalar programs against an independent model
# ---------------------------------------------------------------------------------------------

def wrap(value: int) -> int:
    return (value + (1 << 63)) % (1 << 64) - (1 << 63)


def model_alu(op: str, a: int, b: int):
    """docs/semantics.md "Scalars"; None means division by zero."""
    if op in ("div", "rem"):
        if b == 0:
            return None
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return wrap(q) if op == "div" else wrap(a - b * q)
    return wrap({"add": a + b, "sub": a - b, "mul": a * b, "and": a & b, "or": a | b, "xor": a ^ b,
                 "shl": a << (b & 63), "shr": a >> (b & 63)}[op])


immediates = st.one_of(st.sampled_from(randprog.INTERESTING), st.integers(-300, 300),
                       st.integers(randprog.INT64_MIN, randprog.INT64_MAX))
scalar_ops = st.tuples(st.sampled_from(SCALAR_ALU), st.integers(0, 5), st.integers(0, 5),
                       st.one_of(st.tuples(st.just("imm"), immediates), st.tuples(st.just("reg"), st.integers(0, 5))))


@SETTINGS
@given(st.lists(immediates, min_size=6, max_size=6), st.lists(scalar_ops, min_size=1, max_size=12),
       st.sampled_from(("ref", "cy")))
def test_random_scalar_program_matches_model(initial, ops, engine):
    lines = [f"mov s{n}, {value}" for n, value in enumerate(initial)]
    regs = list(initial)
    expected_stop, expected_steps = "HALTED", len(initial) + len(ops)
    for step, (op, d, a, (form, x)) in enumerate(ops):
        lines.append(f"{op} s{d}, s{a}, {x if form == 'imm' else f's{x}'}")
        if expected_stop != "HALTED":
            continue
        result = model_alu(op, regs[a], x if form == "imm" else regs[x])
        if result is None:
            expected_stop, expected_steps = "DIV_ZERO", len(initial) + step
            continue
        regs[d] = result
    machine = Machine(assemble("\n".join(lines), "scalar.s"), engine)
    machine.run()
    assert machine.stop_name == expected_stop
    assert machine.state.steps == expected_steps
    assert machine.state.sreg[:6].tolist() == regs
