"""Random valid programs, run on both executors in lockstep (ascasm.lockstep): after every step the
whole machine state of "ref" and "cy" must be identical, faults and step limits included.

The programs draw on every row of the table, with operands generated from the row's syntax string
and type list, so a row added to the table is fuzzed without touching this file. Registers hold
boundary values, divisors may be zero, addresses may be misaligned or outside the usable UB, mask
registers p3 and p7 start unset, and scatter/gather indices come from tame tables (v1, v2) or from
random bytes, so a good share of the programs fault: every fault path is compared too.

A second property checks straight-line scalar programs against an independent Python model of the
scalar rules (docs/semantics.md "Scalars"), division by zero included.
"""
from __future__ import annotations

import ml_dtypes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascasm import assemble
from ascasm.isa.operands import Kind
from ascasm.isa.table import BARRIER_KINDS, INSNS, PATTERNS
from ascasm.lockstep import run_lockstep
from ascasm.vm import Machine

USABLE = 248 * 1024
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
MAX_STEPS = 100

SETTINGS = settings(max_examples=300, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

PROLOGUE = f"""\
.ub data  u8[2048] = (i * 37 + 11) % 256
.ub idx16 u16[128] = (i * 7) % 300
.ub idx32 u32[64]  = (i * 13) % 200
.ub tail  u8[256]  = 255 - i @ {USABLE - 256}
        vld v1.u16, [idx16]
        vld v2.u32, [idx32]
        mask p0.b16, ALL
        mask p1.b32, M3
        mask p2.b8, VL16
        mov s1, 64
        mov s2, 32
        mov s3, 5
"""

SCALAR_ALU = ("add", "sub", "mul", "div", "rem", "and", "or", "xor", "shl", "shr")

INTERESTING = [0, 1, -1, 2, 3, 7, 31, 32, 63, 64, 255, 256, 1000, 2047, 65535, 1 << 32,
               INT64_MIN, INT64_MAX, INT64_MIN + 1, USABLE, USABLE - 8, -64]
immediates = st.one_of(st.sampled_from(INTERESTING), st.integers(-300, 300),
                       st.integers(INT64_MIN, INT64_MAX))
sregs = st.integers(0, 7).map(lambda n: f"s{n}")
aregs = st.integers(0, 3).map(lambda n: f"a{n}")
# p0-p2 are set by the prologue; p3 and p7 start unset (MASK_UNSET unless something writes them)
pregs = st.sampled_from(("p0", "p1", "p2") * 5 + ("p3", "p7"))
vregs = st.integers(0, 5).map(lambda n: f"v{n}")
x_operands = st.one_of(immediates.map(str), sregs)


FLOAT_IMMEDIATES = ("0.0", "-0.0", "1.5", "-2.25", "inf", "-inf", "nan", "0.1", "-7", "3.0e-3")


def float_immediates(etype) -> tuple:
    """Immediates every float type takes, plus T's own extremes: largest, smallest normal and subnormal."""
    info = ml_dtypes.finfo(etype.np_dtype)
    return FLOAT_IMMEDIATES + tuple(repr(float(v)) for v in (info.max, -info.max, info.tiny, info.smallest_subnormal))


@st.composite
def typed_values(draw, etype):
    """An X.T operand: a scalar register or an immediate that fits T (ascasm/isa/operands.py)."""
    if draw(st.integers(0, 3)) == 0:
        return draw(sregs)
    if etype.kind == "float":
        return draw(st.sampled_from(float_immediates(etype)))
    bits = 8 * etype.width
    low, high = -(1 << (bits - 1)), (1 << bits) - 1
    return str(draw(st.one_of(st.sampled_from((low, -1, 0, 1, high, high >> 1)), st.integers(low, high))))


@st.composite
def addresses(draw):
    """An address operand: mostly 32-byte aligned offsets inside `data`, sometimes anything."""
    if draw(st.integers(0, 11)) == 0:
        offset = draw(st.integers(0, 2047))
    else:
        offset = 32 * draw(st.integers(0, 2048 // 32 - 1))
    form = draw(st.integers(0, 11))
    if form <= 6:
        return f"[data + {offset}]"
    if form <= 8:
        return f"[data + {offset} + {draw(aregs)}]"
    if form == 9:
        return f"[data + {draw(sregs)}]"
    if form == 10:
        return f"[{draw(sregs)} + {draw(sregs)} + {draw(aregs)}]"
    return f"[tail + {draw(st.sampled_from([0, 32, 128, 224, 240, 248, 255, 256]))}]"


def typed(register: str, operand, types) -> str:
    return f"{register}.{types[operand.type_slot].name}" if operand.type_slot is not None else register


ROWS = [(spec, list(spec.types)) for spec in INSNS]


@st.composite
def instructions(draw, n_labels: int):
    """Any row of the ISA table with operands drawn by kind (ascasm/isa/operands.py)."""
    spec, combos = draw(st.sampled_from(ROWS))
    types = draw(st.sampled_from(combos)) if spec.types else ()
    operands = []
    for operand in spec.operands:
        kind = operand.kind
        if kind is Kind.VREG:
            text = typed(draw(vregs), operand, types)
        elif kind is Kind.PREG:
            text = typed(draw(pregs), operand, types)
        elif kind is Kind.AREG:
            text = typed(draw(aregs), operand, types)
        elif kind is Kind.SREG:
            text = typed(draw(sregs), operand, types)
        elif kind is Kind.SVAL:
            text = draw(x_operands)
        elif kind is Kind.TVAL:
            text = draw(typed_values(types[operand.type_slot]))
        elif kind is Kind.IMM:
            text = str(draw(st.integers(-4, 64)))
        elif kind is Kind.ADDR:
            text = draw(addresses())
        elif kind is Kind.LABEL:
            text = f"L{draw(st.integers(0, n_labels - 1))}"
        elif kind is Kind.PAT:
            text = draw(st.sampled_from(sorted(PATTERNS)))
        elif kind is Kind.BARRIER:
            text = draw(st.sampled_from(("",) + BARRIER_KINDS))
        else:
            raise AssertionError(f"no generator for operand kind {kind}")
        operands.append(text)
    return f"{spec.mnemonic} {', '.join(t for t in operands if t)}".strip()


@st.composite
def programs(draw) -> str:
    n = draw(st.integers(1, 40))
    body = [f"L{k}: {draw(instructions(n + 1))}" for k in range(n)]
    return PROLOGUE + "\n".join(body) + f"\nL{n}:\n"


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
