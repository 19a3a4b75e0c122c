"""Duplicate (c-api-reg data_fill asc_duplicate.md, asc_duplicate_scalar.md) beyond its first forms,
on both executors: e8m0 in the unmasked scalar form (the page's list without a mask), and the MERGING
mode that appendix merge-mode.md gives Duplicate in hardware (`vdup.merge`, `vdup.v.merge`: inactive
lanes keep vD). Expected values: ml_dtypes e8m0 encodings and numpy models of the lanes written here."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble

NP = {"s8": np.int8, "u8": np.uint8, "s16": np.int16, "u16": np.uint16, "f16": np.float16,
      "bf16": ml_dtypes.bfloat16, "s32": np.int32, "u32": np.uint32, "f32": np.float32,
      "e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2}
BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32}


def e8m0_bits(value: float) -> int:
    return int(np.array([value], np.float64).astype(ml_dtypes.float8_e8m0fnu).view(np.uint8)[0])


def test_e8m0_duplicate(engine):
    m = run_source("""
        .ub scales u8[32] = [130, 127]
        vdup    v0.e8m0, 0.25
        vdup    v1.e8m0, 1024
        ld      s1.e8m0, [scales]            ; a scale held as its bits
        vdup    v2.e8m0, s1.e8m0
        fmov    s2.e8m0, 0.5
        vdup    v3.e8m0, s2.e8m0
    """, engine)
    assert (m.state.vreg[0] == e8m0_bits(0.25)).all() and e8m0_bits(0.25) == 125
    assert (m.state.vreg[1] == e8m0_bits(1024)).all() and e8m0_bits(1024) == 137
    assert (m.state.vreg[2] == 130).all()                                  # 2^3
    assert (m.state.vreg[3] == 126).all()


@pytest.mark.parametrize("bad, words", [
    ("vdup v0.e8m0, s1", "held as its bits"),               # no integer converts to e8m0 at run time
    ("vdup v0.e8m0, 1.0, p0", "e8m0"),                      # the masked form's list has no e8m0
    ("vdup.merge v0.e8m0, 1.0, p0", "e8m0"),
])
def test_e8m0_errors(bad, words):
    with pytest.raises(AssemblyFailed) as failure:
        assemble(f"mask p0.b8, ALL\n{bad}\n", "t.s")
    assert words in str(failure.value)


@pytest.mark.parametrize("t", list(NP))
def test_merge_keeps_inactive_lanes(engine, t):
    n = 256 // np.dtype(NP[t]).itemsize
    width = np.dtype(NP[t]).itemsize
    before = np.arange(256, dtype=np.uint8)                     # vD's old bytes: 0, 1, 2, ...
    value = "-2.5" if t in ("f16", "bf16", "f32", "e4m3", "e5m2") else ("7" if t.startswith("u") else "-7")
    m = run_source(f"""
        .ub old u8[256] = i
        mask p0.b{8 * width}, M3
        vld  v0.u8, [old]
        vld  v1.u8, [old]
        vdup v2.{t}, {value}
        vdup.merge   v0.{t}, {value}, p0
        vdup.v.merge v1.{t}, v2.{t}, p0
    """, engine)
    x = np.array([float(value)], np.float64).astype(NP[t]).view(BITS[width])[0]
    active = np.arange(n) % 3 == 0
    expected = np.where(active, x, before.view(BITS[width]))
    assert m.state.vreg[0].view(BITS[width]).tolist() == expected.tolist()
    assert m.state.vreg[1].view(BITS[width]).tolist() == expected.tolist()


def test_merge_from_a_float_register_and_onto_itself(engine):
    m = run_source("""
        mask  p0.b32, VL4
        vci   v0.f32, 10
        fmov  s1.f32, 0.0173
        vdup.merge   v1.f32, s1.f32, p0
        vdup.v.merge v0.f32, v0.f32, p0     ; vA = vD: lane 0 read first
    """, engine)
    lanes = m.state.vreg.view(np.float32).reshape(32, 64)
    assert lanes[1][:4].tolist() == [np.float32(0.0173)] * 4 and (lanes[1][4:] == 0).all()
    assert lanes[0].tolist() == [10.0] * 4 + [10.0 + i for i in range(4, 64)]


def test_merge_with_an_unset_mask_faults(engine):
    m = run_source("vdup v0.s16, 3\nvdup.merge v0.s16, 5, p5\n", engine)
    assert m.stop_name == "MASK_UNSET" and (m.state.vreg[0].view(np.int16) == 3).all()
