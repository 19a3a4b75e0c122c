"""vrelu, vprelu, vleakyrelu (c-api-reg arithmetic_compute asc_relu/asc_prelu/asc_leakyrelu.md), vabssub
(compound_compute asc_abs_sub.md) and vpairsum (reduce_compute asc_pair_reduce_sum.md) on both
executors, against the exact model of tests/test_compute.py (never ascasm's output)."""
from __future__ import annotations

import math

import pytest
from conftest import run_source
from test_compute import FLOAT_TYPES, buf, check_lanes, decode, lanes_of, operand_bits, round_to, vreg_bits


def sign_clear(t, bits):
    return not bits >> (FLOAT_TYPES[t].width - 1)


def model_prelu(t, a, b):
    """a where its sign bit is clear, else a * b rounded once (NaN -> the hardware NaN)."""
    return a if sign_clear(t, a) else round_to(t, decode(t, a) * decode(t, b))


def model_abssub(t, a, b):
    return round_to(t, abs(decode(t, a) - decode(t, b)))


def model_relu(t, a):
    x = decode(t, a)
    if math.isnan(x):
        return FLOAT_TYPES[t].nan
    return a if x > 0 else 0


@pytest.mark.parametrize("t", ["f16", "f32"])
def test_activations_and_abs_sub(engine, t):
    a, b = operand_bits(t, 11), operand_bits(t, 12)[::-1]
    width = 2048 // lanes_of(t)
    m = run_source(buf("a", t, a) + buf("b", t, b) + f"""
        mask p0.b{width}, M3
        vld v0.{t}, [a]
        vld v1.{t}, [b]
        vprelu v2.{t}, v0.{t}, v1.{t}, p0
        vabssub v3.{t}, v0.{t}, v1.{t}, p0
        vleakyrelu v4.{t}, v0.{t}, -0.25, p0
        vrelu v5.{t}, v0.{t}, p0
        vprelu v0.{t}, v0.{t}, v1.{t}, p0
    """, engine)
    active = [i % 3 == 0 for i in range(lanes_of(t))]
    quarter = round_to(t, -0.25)
    for v, model in ((2, lambda x, y: model_prelu(t, x, y)), (0, lambda x, y: model_prelu(t, x, y)),
                     (3, lambda x, y: model_abssub(t, x, y)), (4, lambda x, y: model_prelu(t, x, quarter)),
                     (5, lambda x, y: model_relu(t, x))):
        check_lanes(vreg_bits(m, v, t), [model(x, y) if on else 0 for x, y, on in zip(a, b, active)], f"v{v}.{t}")


def test_relu_s32_and_by_hand(engine):
    m = run_source("""
        .ub a s32[64] = i - 32
        .ub h f16[128] = [0.0, -0.0, 1.5, -1.5, inf, -inf]
            mask p0.b32, ALL
            mask p1.b16, ALL
            vld v0.s32, [a]
            vrelu v1.s32, v0.s32, p0
            vld v2.f16, [h]
            vrelu v3.f16, v2.f16, p1
            vleakyrelu v4.f16, v2.f16, 0.5, p1
    """, engine)
    assert m.state.vreg[1].view("i4").tolist() == [max(i - 32, 0) for i in range(64)]
    assert vreg_bits(m, 3, "f16")[:6] == [0, 0, 0x3E00, 0, 0x7C00, 0]           # -0 -> +0
    assert vreg_bits(m, 4, "f16")[:6] == [0, 0x8000, 0x3E00, 0xBA00, 0x7C00, 0xFC00]  # -0 * 0.5 = -0


@pytest.mark.parametrize("t", ["f16", "f32"])
@pytest.mark.parametrize("mask", ["ALL", "M3", "VL4"])
def test_pair_sum(engine, t, mask):
    a = operand_bits(t, 13)
    n = lanes_of(t)
    m = run_source(buf("a", t, a) + f"""
        mask p0.b{2048 // n}, {mask}
        vld v0.{t}, [a]
        vpairsum v1.{t}, v0.{t}, p0
        vpairsum v0.{t}, v0.{t}, p0
    """, engine)
    active = {"ALL": [True] * n, "M3": [i % 3 == 0 for i in range(n)], "VL4": [i < 4 for i in range(n)]}[mask]
    expected = []
    for i in range(n // 2):
        present = [a[k] for k in (2 * i, 2 * i + 1) if active[k]]
        if len(present) == 2:
            expected.append(round_to(t, decode(t, present[0]) + decode(t, present[1])))
        else:
            expected.append(present[0] if present else 0)
    expected += [0] * (n // 2)
    check_lanes(vreg_bits(m, 1, t), expected, f"vpairsum.{t}")
    check_lanes(vreg_bits(m, 0, t), expected, f"vpairsum.{t} in place")
