"""vtrc.rint/round/floor/ceil/trunc (c-api-reg/data_type_convert asc_rint, asc_round, asc_floor,
asc_ceil, asc_trunc): each float lane rounded to an integral value of its own type, on both executors,
against a model written here with Python's integer rounding: every f16 and bf16 pattern, a dense f32
sample, appendix/boundary-values.md table 33, masks."""
from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import SWEEP_ENGINES, run_source, sweep
from test_convert import NAN, T, run_lanes

MODES = ("rint", "round", "floor", "ceil", "trunc")


def integral(x: float, mode: str) -> float:
    """x rounded to an integer by rounding_mode.md's rule; a zero result keeps x's sign."""
    if not math.isfinite(x):
        return x
    whole = math.floor(abs(x))
    fraction = abs(x) - whole                       # exact: x has at most 24 significant bits
    magnitude = {
        "rint": whole + (fraction > 0.5 or (fraction == 0.5 and whole % 2 == 1)),
        "round": whole + (fraction >= 0.5),
        "trunc": whole,
        "floor": whole + (fraction > 0 and x < 0),
        "ceil": whole + (fraction > 0 and x > 0),
    }[mode]
    return math.copysign(float(magnitude), x)


def expected(words: np.ndarray, etype, mode: str) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        values = words.view(etype.np_dtype).astype(np.float64)
    out = np.array([integral(v, mode) for v in values.tolist()]).astype(etype.np_dtype).view(etype.bits)
    return np.where(np.isnan(values), NAN[etype.name], out).astype(etype.bits)


def samples(etype) -> np.ndarray:
    if etype.width == 2:
        return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    rng = np.random.default_rng(33)
    ties = (np.arange(-70000, 70000) + 0.5).astype(np.float32).view(np.uint32)     # every .5 to 2^16
    small = rng.uniform(-3, 3, 20000).astype(np.float32).view(np.uint32)
    return np.concatenate([rng.integers(0, 1 << 32, 30000, dtype=np.uint64).astype(np.uint32), ties, small,
                           np.array([0, 0x80000000, 1, 0x80000001, 0x3F000000, 0xBF000000, 0x4B000000, 0x4AFFFFFF,
                                     0x7F800000, 0xFF800000, 0x7FC00001, 0xFFFFFFFF], np.uint32)])


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("type_name", ["f16", "bf16", "f32"])
@pytest.mark.parametrize("engine", SWEEP_ENGINES)
def test_every_pattern_or_a_dense_sample(engine, type_name, mode):
    etype = T[type_name]
    engine, words = sweep(engine, samples(etype))
    got = run_lanes(engine, f"vtrc.{mode} v2.{type_name}, v1.{type_name}, p0", etype, etype, words)
    want = expected(words, etype, mode)
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{bad.size} wrong, first: {words[bad[0]]:#x} -> {got[bad[0]]:#x}, want {want[bad[0]]:#x}"


def test_rounding_mode_page_examples(engine):
    # rounding_mode.md: RINT 1.5 -> 2, 2.5 -> 2, 3.5 -> 4, -1.5 -> -2; ROUND 1.5 -> 2, -1.5 -> -2;
    # FLOOR 1.7 -> 1, -1.3 -> -2; CEIL 1.3 -> 2, -1.7 -> -1; TRUNC 1.7 -> 1, -1.7 -> -1
    cases = {"rint": ([1.5, 2.5, 3.5, -1.5, 1.4], [2, 2, 4, -2, 1]), "round": ([1.4, 1.5, 1.6, -1.5], [1, 2, 2, -2]),
             "floor": ([1.7, -1.3], [1, -2]), "ceil": ([1.3, -1.7], [2, -1]), "trunc": ([1.7, -1.7], [1, -1])}
    for mode, (given, want) in cases.items():
        machine = run_source(f"""
            .ub a f32[64] = {given}
            .ub out f32[64]
                mask p0.b32, ALL
                vld v1.f32, [a]
                vtrc.{mode} v2.f32, v1.f32, p0
                vsta [out], v2.f32, p0
                halt
        """, engine)
        out = machine.program.buffers["out"].view(machine.state.ub)
        assert list(out[:len(want)]) == want, mode


@pytest.mark.parametrize("type_name", ["f16", "f32", "bf16"])
def test_boundary_values_table_33(engine, type_name):
    # table 33: inf, -inf, 0/-0, nan, MAX and MIN come out unchanged (both columns)
    etype = T[type_name]
    largest = {"f16": 65504.0, "f32": 3.4028234663852886e38, "bf16": 3.3895313892515355e38}[type_name]
    given = np.array([np.inf, -np.inf, 0.0, -0.0, np.nan, largest, -largest]).astype(etype.np_dtype)
    got = run_lanes(engine, f"vtrc.rint v2.{type_name}, v1.{type_name}, p0", etype, etype,
                    given.view(etype.bits)).view(etype.np_dtype).astype(np.float64)
    assert list(got[[0, 1, 2, 3, 5, 6]]) == [np.inf, -np.inf, 0.0, 0.0, largest, -largest] and np.isnan(got[4])


def test_inactive_lanes_are_zero_and_the_destination_may_be_the_source(engine):
    machine = run_source("""
        .ub a f16[128] = 2.5
        .ub out f16[128] = 7
            mask p0.b16, VL2
            mask p1.b16, ALL
            vld v1.f16, [a]
            vtrc.round v1.f16, v1.f16, p0
            vsta [out], v1.f16, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:3]) == [3, 3, 0] and not out[2:].any()
