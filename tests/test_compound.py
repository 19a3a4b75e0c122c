"""vmov (asc_copy, merging), vmadd (asc_madd), vaxpy (asc_axpy) and vln (asc_ln) on both executors.
Expected values: hand-worked cases and the exact model of tests/test_compute.py (Fraction arithmetic,
one rounding to T), never ascasm's output."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

import pytest
from conftest import run_source
from test_compute import buf, check_lanes, decode, lanes_of, operand_bits, round_to, vreg_bits


def model_fma(t, x_bits, y_bits, z_bits):
    """x * y + z rounded once to T; NaN and infinities as IEEE fma gives them."""
    x, y, z = (decode(t, b) for b in (x_bits, y_bits, z_bits))
    if not all(math.isfinite(v) for v in (x, y, z)):
        return round_to(t, x * y + z)         # inf/NaN rules: inf * 0 = NaN, inf - inf = NaN
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    return round_to(t, (x * y) + z if exact == 0 else exact)     # an exact zero: IEEE's sign


@pytest.mark.parametrize("t", ["s8", "u16", "f16", "bf16", "f32", "u32"])
def test_vmov_merges(engine, t):
    a, d = operand_bits(t, 1), operand_bits(t, 2)
    m = run_source(buf("a", t, a) + buf("d", t, d) + f"""
        mask p0.b{2048 // lanes_of(t)}, M3
        vld v0.{t}, [a]
        vld v1.{t}, [d]
        vmov v1.{t}, v0.{t}, p0
    """, engine)
    assert vreg_bits(m, 1, t) == [x if i % 3 == 0 else y for i, (x, y) in enumerate(zip(a, d))]


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_vmadd_and_vaxpy_model(engine, t):
    x, y, z = operand_bits(t, 3), operand_bits(t, 4)[::-1], operand_bits(t, 5)
    width = 2048 // lanes_of(t)
    m = run_source(buf("x", t, x) + buf("y", t, y) + buf("z", t, z) + f"""
        mask p0.b{width}, M3
        vld v0.{t}, [x]
        vld v1.{t}, [y]
        vld v2.{t}, [z]
        vld v3.{t}, [x]
        vmadd v3.{t}, v1.{t}, v2.{t}, p0
        vld v4.{t}, [z]
        vaxpy v4.{t}, v0.{t}, 1.5, p0
    """, engine)
    active = [i % 3 == 0 for i in range(lanes_of(t))]
    check_lanes(vreg_bits(m, 3, t), [model_fma(t, a, b, c) if on else 0 for a, b, c, on in zip(x, y, z, active)],
                f"vmadd.{t}")
    s = round_to(t, 1.5)
    check_lanes(vreg_bits(m, 4, t), [model_fma(t, a, s, c) if on else 0 for a, c, on in zip(x, z, active)],
                f"vaxpy.{t}")


def test_fused_rounding_by_hand(engine):
    # x = 1 + 2^-12: x * x = 1 + 2^-11 + 2^-24, half an f32 ulp above 1 + 2^-11. Fused with
    # z = -(1 + 2^-11) the result is 2^-24 (0x33800000); rounding the product first would give 0.
    m = run_source("""
        mask p0.b32, ALL
        vdup v0.f32, 1.000244140625
        vdup v1.f32, -1.00048828125
        vdup v2.f32, 1.000244140625
        vmadd v2.f32, v0.f32, v1.f32, p0
        vdup v3.f32, -1.00048828125
        vaxpy v3.f32, v0.f32, 1.000244140625, p0
        vmul v4.f32, v0.f32, v0.f32, p0
        vadd v4.f32, v4.f32, v1.f32, p0
    """, engine)
    assert vreg_bits(m, 2, "f32") == vreg_bits(m, 3, "f32") == [0x33800000] * 64
    assert vreg_bits(m, 4, "f32") == [0] * 64


LN_CASES = {   # (a, expected bits), worked by hand
    "f16": [(0x3C00, 0x0000),     # ln 1 = +0
            (0x0000, 0xFC00), (0x8000, 0xFC00),     # ln(+-0) = -inf
            (0xBC00, 0x7FFF),     # ln(-1): the hardware NaN
            (0x7C00, 0x7C00),     # ln(inf) = inf
            (0x0001, 0xFC00),     # a subnormal input is flushed to +0: -inf
            (0x4000, 0x398C)],    # ln 2 = 0.693147: 0.693147 * 2048 = 1419.56 -> 1420 * 2^-11 = 0x398C
    "f32": [(0x3F800000, 0x00000000), (0x00000000, 0xFF800000), (0xBF800000, 0x7FFFFFFF),
            (0x40000000, 0x3F317218),          # ln 2 = 0.69314718: the f32 nearest is 0x3F317218
            (0x00000001, 0xFF800000)],         # flushed subnormal
}


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_vln(engine, t):
    cases = LN_CASES[t]
    pad = [0x3C00 if t == "f16" else 0x3F800000] * (lanes_of(t) - len(cases))
    m = run_source(buf("a", t, [a for a, _ in cases] + pad) + f"""
        mask p0.b{2048 // lanes_of(t)}, ALL
        vld v0.{t}, [a]
        vln v1.{t}, v0.{t}, p0
    """, engine)
    assert vreg_bits(m, 1, t)[:len(cases)] == [want for _, want in cases]
    for a, want in cases:                                 # ln 1 and ln 2 by hand, against the model
        if a in (0x3C00, 0x4000, 0x3F800000, 0x40000000):
            assert round_to(t, math.log(decode(t, a))) == want


def layernorm_model():
    """programs/layernorm.s step by step: exact rationals, each instruction's result rounded once to f32
    (round_to), the sums as pairwise f32 trees."""
    f32 = lambda v: decode("f32", round_to("f32", v))                       # noqa: E731
    x = [Fraction((i * 29) % 64, 8) - 4 for i in range(64)]
    gamma = [Fraction(1) + Fraction(i, 64) for i in range(64)]
    beta = [Fraction(i, 32) - 1 for i in range(64)]

    def tree(values):
        while len(values) > 1:
            values = [f32(Fraction(a) + Fraction(b)) for a, b in zip(values[0::2], values[1::2])]
        return Fraction(values[0])

    mean = f32(tree([f32(v) for v in x]) / 64)
    d = [f32(Fraction(v) - Fraction(mean)) for v in x]
    var_eps = f32(tree([f32(Fraction(v) * Fraction(v) + Fraction(1, 1024)) for v in d]) / 64)
    rstd = f32(1 / Fraction(decode("f32", sqrt_to_f32(var_eps))))
    y = [f32(Fraction(f32(Fraction(v) * Fraction(rstd))) * g + b) for v, g, b in zip(d, gamma, beta)]
    return mean, rstd, var_eps, y


def sqrt_to_f32(value):
    from test_compute import sqrt_to
    return sqrt_to("f32", Fraction(value))


def test_layernorm_program(engine):
    from pathlib import Path

    from ascasm import assemble_file
    from ascasm.vm import Machine
    program = assemble_file(Path(__file__).resolve().parent.parent / "programs" / "layernorm.s")
    machine = Machine(program, engine)
    machine.run()
    assert machine.stop_name == "HALTED"
    mean, rstd, var_eps, y = layernorm_model()
    stats = program.buffers["stats"].view(machine.state.ub)
    assert stats[:3].tolist() == [mean, rstd, var_eps]
    out = program.buffers["y"].view(machine.state.ub)
    assert out.tolist() == y
    assert [e.mismatches(machine.state.ub).size for e in program.expects] == [0, 0]   # its .expect: the model
    z = (out.astype(np.float64) - (np.arange(64) / 32 - 1)) / (1 + np.arange(64) / 64)
    assert abs(z.mean()) < 1e-6 and abs(z.var() - 1) < 0.001      # the property: mean 0, variance ~1
