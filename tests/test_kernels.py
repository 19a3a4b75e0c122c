"""Two small kernels written as ascasm programs, each checked against an independent numpy model.

programs/threshold_scatter.s: f32 values >= a threshold scattered through a permutation of indices.
programs/softmax_row.s: softmax over one row of 128 f16 values (vredmax, vsub, vexp, vredsum, vdiv).

The models below are written from the semantics (LANGUAGE.md §4, docs/semantics.md), never from a run
of ascasm. Each test checks that (a) the model reproduces the program's `.expect` bit for bit, (b) the
program runs identically on both executors, halts with no warning and meets its `.expect`, and (c) the
result has the property the kernel is for.

The f16 semantics the softmax model follows: every f16 operation is computed exactly and rounded once to
f16, round to nearest even (vsub, vdiv, every partial of vredsum's pairwise tree); vexp is libm's exp
in double (Python's math.exp) rounded once to f16. The model is computed twice: with numpy float16
arithmetic, and with exact rationals and a hand-written rounding to f16; the two must agree bit for bit.
"""
from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from ascasm import assemble_file
from ascasm.lockstep import run_lockstep
from ascasm.vm import Machine, run_warnings

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
F16_MAX = 65504


def bits16(a) -> np.ndarray:
    return np.asarray(a, np.float16).view(np.uint16)


def expectations(program) -> dict:
    return {e.buffer.name: e for e in program.expects}


def run_checked(program, engine: str) -> Machine:
    """Run on one engine with --strict semantics: a duplicate index or a hazard would stop it."""
    machine = Machine(program, engine, strict=True)
    machine.run()
    assert machine.stop_name == "HALTED", (engine, machine.stop_name)
    assert run_warnings(program, machine.state) == []
    for expectation in program.expects:
        wrong = expectation.mismatches(machine.state.ub)
        assert wrong.size == 0, f"{engine}: {expectation.buffer.name}: elements {wrong[:10]} differ"
    return machine


# ---------------------------------------------------------------- exact rounding to f16 (the oracle)

def round_f16(q: Fraction) -> np.float16:
    """The f16 nearest to the exact rational q, ties to even; subnormals kept, overflow to inf."""
    if q == 0:
        return np.float16(0.0)
    sign, a = (-1 if q < 0 else 1), abs(q)
    e = a.numerator.bit_length() - a.denominator.bit_length()     # 2^(e-1) < a < 2^(e+1)
    if a < Fraction(2) ** e:
        e -= 1                                                   # now 2^e <= a < 2^(e+1)
    quantum = Fraction(2) ** (max(e, -14) - 10)                  # 10 fraction bits; subnormal step 2^-24
    value = round(a / quantum) * quantum                         # Fraction rounding: half to even
    if value > F16_MAX:
        return np.float16(sign * math.inf)
    return np.float16(sign * float(value))


def test_round_f16_oracle_on_known_values():
    assert bits16(round_f16(Fraction(1))) == 0x3C00
    assert bits16(round_f16(Fraction(1) + Fraction(1, 2048))) == 0x3C00          # tie -> even (1.0)
    assert bits16(round_f16(Fraction(1) + Fraction(3, 2048))) == 0x3C02          # tie -> even (1+2^-9)
    assert bits16(round_f16(Fraction(1) + Fraction(1, 2048) + Fraction(1, 2**40))) == 0x3C01
    assert bits16(round_f16(Fraction(1, 2**24))) == 0x0001                       # smallest subnormal
    assert bits16(round_f16(Fraction(1, 2**25))) == 0x0000                       # tie -> even (0)
    assert bits16(round_f16(Fraction(3, 2**25))) == 0x0002                       # tie -> even (2)
    assert bits16(round_f16(Fraction(-65504))) == 0xFBFF
    assert bits16(round_f16(Fraction(65519))) == 0x7BFF
    assert bits16(round_f16(Fraction(65520))) == 0x7C00                          # tie -> even (inf)
    assert bits16(round_f16(Fraction(1, 3))) == 0x3555


def test_numpy_float64_to_float16_is_one_correct_rounding():
    """The numpy model rounds math.exp's double with astype(float16): check that this is a single
    rounding (no detour through float32) on the f16 midpoints, their double neighbours (where a
    rounding via float32 would first land on the midpoint) and random doubles, subnormals included."""
    halves = np.arange(0x0000, 0x7BFF, dtype=np.uint16).view(np.float16).astype(np.float64)
    nexts = np.arange(0x0001, 0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64)
    mid = (halves + nexts) / 2                                     # exact in double
    probes = np.concatenate([mid, np.nextafter(mid, 0), np.nextafter(mid, np.inf),
                             mid + mid * 2.0**-30, mid - mid * 2.0**-30,
                             np.random.default_rng(7).uniform(-70000, 70000, 2000),
                             np.exp(np.random.default_rng(8).uniform(-18, 11, 2000))])
    probes = np.concatenate([probes, -probes])
    with np.errstate(over="ignore"):                               # |p| >= 65520 rounds to inf
        got = bits16(probes.astype(np.float16))
    want = np.array([bits16(round_f16(Fraction(float(p)))) for p in probes], np.uint16)
    assert np.array_equal(got, want), probes[got != want][:5]


# ---------------------------------------------------------------- threshold scatter

THRESHOLD = np.float32(2.0)
SENTINEL = np.float32(-100.0)


def threshold_scatter_inputs() -> tuple[np.ndarray, np.ndarray]:
    i = np.arange(256)
    values = (((97 * i) % 256) / 16 - 8).astype(np.float32)      # multiples of 1/16: exact in f32
    indices = ((77 * i) % 256).astype(np.uint32)
    return values, indices


def threshold_scatter_model(values, indices) -> tuple[np.ndarray, int]:
    out = np.full(256, SENTINEL, np.float32)
    keep = values >= THRESHOLD
    for i in np.flatnonzero(keep):                  # lanes from 0 up, chunk after chunk (no duplicates)
        out[indices[i]] = values[i]
    return out, int(keep.sum())


def test_threshold_scatter_model_matches_expect():
    program = assemble_file(PROGRAMS / "threshold_scatter.s")
    values, indices = threshold_scatter_inputs()
    assert np.array_equal(program.buffers["values"].data.view(np.uint32), values.view(np.uint32))
    assert np.array_equal(program.buffers["indices"].data, indices)
    assert sorted(indices.tolist()) == list(range(256))                  # a permutation
    out, kept = threshold_scatter_model(values, indices)
    expect = expectations(program)
    assert expect["out"].buffer.etype.name == "f32" and expect["out"].buffer.count == 256
    assert np.array_equal(expect["out"].values.view(np.uint32), out.view(np.uint32))
    assert kept == 96
    assert expect["count"].values.tolist() == [kept, 0, 0, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("engine", ["ref", "cy"])
def test_threshold_scatter_runs_and_writes_exactly_the_kept_values(engine):
    program = assemble_file(PROGRAMS / "threshold_scatter.s")
    machine = run_checked(program, engine)
    out = program.buffers["out"].view(machine.state.ub)
    values, indices = threshold_scatter_inputs()
    written = np.flatnonzero(out != SENTINEL)
    kept = np.flatnonzero(values >= THRESHOLD)
    assert np.array_equal(np.sort(written), np.sort(indices[kept]))         # exactly the kept lanes
    assert np.array_equal(out[indices[kept]], values[kept])                  # each at its index
    assert out[32] == THRESHOLD                                              # >=: the equal value kept
    assert (out[written] >= THRESHOLD).all() and written.size == 96
    assert int(program.buffers["count"].view(machine.state.ub)[0]) == 96


def test_threshold_scatter_lockstep():
    program = assemble_file(PROGRAMS / "threshold_scatter.s")
    ref, cy = run_lockstep(program)
    assert ref.stop_name == cy.stop_name == "HALTED"


# ---------------------------------------------------------------- softmax over one f16 row

def softmax_input() -> np.ndarray:
    i = np.arange(128)
    return (((37 * i) % 128) / 16 - 4).astype(np.float16)   # 128 distinct multiples of 1/16 in [-4, 4)


def softmax_model_numpy(x: np.ndarray):
    """numpy float16 arithmetic (correctly rounded for + - /), exp rounded once from the double."""
    m = x.max()
    d = x - m                                                             # float16 - float16 -> float16
    e = np.array([math.exp(float(v)) for v in d], np.float64).astype(np.float16)
    level = e
    while level.size > 1:                                                 # (x0+x1), (x2+x3), ... in f16
        level = level[0::2] + level[1::2]
    s = level[0]
    y = e / s                                                             # float16 / float16 -> float16
    assert d.dtype == e.dtype == level.dtype == y.dtype == np.float16
    return m, s, y


def softmax_model_exact(x: np.ndarray):
    """The same computation with exact rationals and round_f16 at every step."""
    m = max(x.tolist())
    d = [round_f16(Fraction(float(v)) - Fraction(m)) for v in x]
    e = [round_f16(Fraction(math.exp(float(v)))) for v in d]
    level = e
    while len(level) > 1:
        level = [round_f16(Fraction(float(a)) + Fraction(float(b))) for a, b in zip(level[0::2], level[1::2])]
    s = level[0]
    y = [round_f16(Fraction(float(v)) / Fraction(float(s))) for v in e]
    return np.float16(m), s, np.array(y, np.float16)


def test_softmax_models_agree_and_match_expect():
    program = assemble_file(PROGRAMS / "softmax_row.s")
    x = softmax_input()
    assert np.array_equal(bits16(program.buffers["x"].data), bits16(x))
    m, s, y = softmax_model_numpy(x)
    m2, s2, y2 = softmax_model_exact(x)
    assert bits16(m) == bits16(m2) and bits16(s) == bits16(s2)
    assert np.array_equal(bits16(y), bits16(y2))
    expect = expectations(program)
    assert expect["y"].buffer.etype.name == "f16" and expect["y"].buffer.count == 128
    assert np.array_equal(expect["y"].values.view(np.uint16), bits16(y))
    stats = np.zeros(16, np.float16)
    stats[0], stats[1] = m, s
    assert np.array_equal(expect["stats"].values.view(np.uint16), bits16(stats))


def test_softmax_model_is_a_softmax():
    """Properties of the model's (= the .expect's) result, independent of the exact bits."""
    x = softmax_input()
    m, s, y = softmax_model_numpy(x)
    assert float(m) == 3.9375                              # 37 i = 127 (mod 128) at i = 83
    exact = np.exp(x.astype(np.float64) - 3.9375)
    assert abs(float(s) - exact.sum()) <= 8 * 2.0**-11 * exact.sum()       # 7 levels + exp rounding
    # Each y is within a few f16 roundings of the true softmax: relative error <= (7 + 3) * 2^-11 for
    # normal results (exp, 7 tree levels, division), plus 2^-25 absolute where y is subnormal.
    true = exact / exact.sum()
    assert (np.abs(y.astype(np.float64) - true) <= 10 * 2.0**-11 * true + 2.0**-25).all()
    assert abs(y.astype(np.float64).sum() - 1.0) <= 0.005
    order = np.argsort(x)
    assert (np.diff(y[order].astype(np.float64)) >= 0).all()              # monotone in x
    assert int(np.argmax(y)) == 83 and y[83] == np.float16(1) / s


@pytest.mark.parametrize("engine", ["ref", "cy"])
def test_softmax_runs_and_sums_to_one(engine):
    program = assemble_file(PROGRAMS / "softmax_row.s")
    machine = run_checked(program, engine)
    y = program.buffers["y"].view(machine.state.ub).astype(np.float64)
    assert np.isfinite(y).all() and (y > 0).all()
    assert abs(y.sum() - 1.0) <= 0.005


def test_softmax_lockstep():
    program = assemble_file(PROGRAMS / "softmax_row.s")
    ref, cy = run_lockstep(program)
    assert ref.stop_name == cy.stop_name == "HALTED"
