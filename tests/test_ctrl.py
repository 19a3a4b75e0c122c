"""The CTRL special register's saturation switch (reg-api Cast.md table 5): `sprset.ctrl X`, on both
executors. CTRL[60] = 0 leaves each vcvt's `sat` keyword in charge; CTRL[60] = 1 makes the mode global:
CTRL[48] = 0 saturates conversions to a float type, CTRL[59] = 0 those to an integer type, whatever the
keyword; CTRL[50] = 1 keeps NaN in a saturating conversion to e4m3/e5m2. The expected values are
appendix/boundary-values.md table 34's two columns (INF/NAN mode, saturation mode), typed in."""
from __future__ import annotations

import json

import ml_dtypes
import numpy as np
import pytest
from conftest import run_cli, run_source
from test_debugger import session

from ascasm import assemble
from ascasm.isa import dtypes
from ascasm.isa.table import ALWAYS_SATURATING, CONVERSIONS

GLOBAL, FLOAT_NO_SAT, INT_NO_SAT, SAT_KEEPS_NAN = 1 << 60, 1 << 48, 1 << 59, 1 << 50
SATURATE_ALL = GLOBAL                                       # 48 and 59 clear: both kinds saturate
SATURATE_NONE = GLOBAL | FLOAT_NO_SAT | INT_NO_SAT

F32_MAX = "3.4028235e38"
# (destination, source, source value, INF/NAN column, saturation column): table 34
TABLE_34 = [
    ("f16", "f32", F32_MAX, "inf", 65504.0), ("f16", "f32", "-inf", "-inf", -65504.0),
    ("f16", "f32", "nan", "nan", 0.0), ("f16", "f32", "0.0", 0.0, 0.0),
    ("bf16", "f32", F32_MAX, "inf", 3.3895313892515355e38), ("bf16", "f32", "nan", "nan", 0.0),
    ("e4m3", "f32", F32_MAX, "nan", 448.0), ("e4m3", "f32", "-inf", "nan", -448.0),
    ("e5m2", "f32", F32_MAX, "inf", 57344.0), ("e5m2", "f32", "nan", "nan", 0.0),
    ("s16", "f32", F32_MAX, 0, 32767), ("s16", "f32", "-" + F32_MAX, 0, -32768),
    ("s32", "f32", F32_MAX, 0, 2147483647), ("s32", "f32", "inf", 2147483647, 2147483647),
    ("s16", "s32", "-2147483648", 0, -32768), ("s16", "s32", "2147483647", -1, 32767),
    ("s16", "u32", "4294967295", -1, 32767),
    ("s32", "s64", "-9223372036854775808", 0, -2147483648), ("s32", "s64", "9223372036854775807", -1, 2147483647),
]
T = dtypes.BY_SPELLING


def converted(engine: str, dst: str, src: str, value: str, ctrl: int, keyword: str = "") -> float:
    """One value through `vcvt.rint` (plain `vcvt` for the exact pairs) after `sprset.ctrl ctrl`; lane 0."""
    mnemonic = "vcvt.rint" if CONVERSIONS[(dst, src)].modes else "vcvt"
    width = min(T[src].width, 4) * 8
    machine = run_source(f"""
        .ub a {src}[{256 // T[src].width}] = {value}
            mask p0.b{width}, ALL
            mov s1, {ctrl}
            sprset.ctrl s1
            vld v1.{src}, [a]
            {mnemonic} v2.{dst}, v1.{src}, p0{keyword}
            halt
    """, engine)
    lane = machine.state.vreg[2].view(T[dst].np_dtype)[0]
    return float(lane) if T[dst].kind == "float" else int(lane)


def same(got, want) -> bool:
    if want == "nan":
        return np.isnan(got)
    return got == (float(want) if isinstance(want, str) else want)


@pytest.mark.parametrize("dst, src, value, plain, saturated", TABLE_34, ids=lambda v: str(v))
def test_table_34_in_both_global_modes(engine, dst, src, value, plain, saturated):
    # global: the keyword is ignored, either way
    assert same(converted(engine, dst, src, value, SATURATE_ALL), saturated)
    assert same(converted(engine, dst, src, value, SATURATE_NONE, ", sat"), plain)
    # not global (CTRL[60] = 0): the keyword decides, whatever bits 48 and 59 say
    assert same(converted(engine, dst, src, value, FLOAT_NO_SAT | INT_NO_SAT, ", sat"), saturated)
    assert same(converted(engine, dst, src, value, 0), plain)


def test_bits_48_and_59_govern_float_and_integer_destinations_apart(engine):
    ctrl = GLOBAL | FLOAT_NO_SAT                      # floats: INF/NAN; integers: saturated
    assert converted(engine, "f16", "f32", F32_MAX, ctrl, ", sat") == np.inf
    assert converted(engine, "s16", "f32", F32_MAX, ctrl) == 32767
    ctrl = GLOBAL | INT_NO_SAT                        # floats: saturated; integers: INF/NAN
    assert converted(engine, "f16", "f32", F32_MAX, ctrl) == 65504.0
    assert converted(engine, "s16", "f32", F32_MAX, ctrl, ", sat") == 0


def test_bit_50_keeps_nan_in_a_saturating_conversion_to_fp8(engine):
    # Cast.md: in saturation mode NaN gives 0 for e4m3/e5m2 unless CTRL[50] = 1 (table 34 leaves the e4m3
    # saturation cell blank)
    for dst in ("e4m3", "e5m2"):
        assert converted(engine, dst, "f32", "nan", SATURATE_ALL) == 0.0
        assert np.isnan(converted(engine, dst, "f32", "nan", SATURATE_ALL | SAT_KEEPS_NAN))
        assert np.isnan(converted(engine, dst, "f32", "nan", SAT_KEEPS_NAN, ", sat"))
    assert converted(engine, "f16", "f32", "nan", SATURATE_ALL | SAT_KEEPS_NAN) == 0.0    # fp8 only


def test_hif8_follows_the_global_mode(engine):
    # half 65504 is beyond hif8's 2^15: +inf (0x6F) in INF/NAN mode, 2^15 (0x6E) saturated
    for ctrl, keyword, want in ((SATURATE_ALL, "", 0x6E), (SATURATE_NONE, ", sat", 0x6F), (0, "", 0x6F)):
        machine = run_source(f"""
            .ub a f16[128] = 65504
                mask p0.b16, ALL
                sprset.ctrl {ctrl}
                vld v1.f16, [a]
                vcvt.round v2.hif8, v1.f16, p0{keyword}
                halt
        """, engine)
        assert machine.state.vreg[2][0] == want


def test_pairs_without_sat_forms_ignore_the_global_mode(engine):
    # f32 <- f16 (the pages: a float32 destination has no saturation mode): NaN stays NaN
    assert np.isnan(converted(engine, "f32", "f16", "nan", SATURATE_ALL))
    assert converted(engine, "f32", "f16", "inf", SATURATE_ALL) == np.inf


def test_the_pages_sat_forms_are_exactly_the_pairs_that_can_overflow():
    """The engine decides which pairs the global mode governs by comparing the types' largest values
    (convert.pyx); the table's facts come from the pages. They must agree on every pair."""
    def largest(name):
        by_format = {"hif8": 32768.0, "s4x2": 7.0, "e2m1x2": 6.0, "e1m2x2": 1.75}   # the formats' definitions
        if name in by_format:
            return by_format[name]
        etype = T[name]
        info = ml_dtypes.finfo(etype.np_dtype) if etype.kind == "float" else np.iinfo(etype.np_dtype)
        return float(info.max)
    for (dst, src), facts in CONVERSIONS.items():
        if dst in ALWAYS_SATURATING:            # no inf or NaN to overflow to: saturates always, no option
            assert not facts.sat, (dst, src)
            continue
        assert facts.sat == (largest(dst) < largest(src)), (dst, src)


PROGRAM = "    sprset.ctrl 0x1000000000000000\n    halt\n"


def test_the_trace_records_ctrl(tmp_path):
    source = tmp_path / "c.s"
    source.write_text(PROGRAM)
    result = run_cli("run", source, "--trace=-")
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    write = next(r for r in records if r["insn"] == "sprset.ctrl")
    assert {"reg": "CTRL", "value": 1 << 60} in write["regs"], write


@pytest.mark.parametrize("engine_name", ("ref", "cy"))
def test_ctrl_starts_zero_and_the_debugger_shows_it_and_steps_back(engine_name):
    text = session(assemble(PROGRAM), "regs\nstep\np ctrl\nregs\nback\np ctrl\nquit\n", engine_name)
    first, stepped = text.index("CTRL = 0x0"), text.index("CTRL = 0x1000000000000000")
    assert first < stepped and str(1 << 60) in text, text
    assert "CTRL = 0\n" in text.split("(ascasm) back")[-1], text    # `back` restores it
