"""programs/softmax_bf16.s and programs/quant_e4m3.s check themselves with .expect lists; this test
recomputes those lists with an independent numpy model of each kernel (float32 arithmetic rounded once,
exp from libm in double, the pairwise f32 tree of vredsum, ml_dtypes for the final narrowing from float32,
which rounds once) and compares them with the program's own. tests/test_programs.py runs the programs
on both executors in lockstep and checks the .expect."""
from __future__ import annotations

import math
from pathlib import Path

import ml_dtypes
import numpy as np

from ascasm import assemble_file

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"


def softmax_bf16_model() -> np.ndarray:
    i = np.arange(128)
    x = (((i * 37) % 128) / 8 - 8).astype(ml_dtypes.bfloat16).astype(np.float32)  # the program's INIT, exact
    m = x.max()
    d = x - m                                                          # float32, rounded once
    e = np.array([math.exp(float(v)) for v in d]).astype(np.float32)   # libm exp, rounded once to f32
    level = e[0::2] + e[1::2]                                          # vadd of the even and odd halves
    while level.size > 1:                                              # vredsum: pairwise, f32 partials
        level = level[0::2] + level[1::2]
    y = e / level[0]
    return y.astype(ml_dtypes.bfloat16)                                # round to nearest even, once


def quant_e4m3_model() -> np.ndarray:
    i = np.arange(128)
    x = ((i - 64) * 0.375).astype(np.float16).astype(np.float32)
    scaled = x * np.float32(19.5)
    saturated = np.clip(scaled, -448, 448)          # sat: beyond the range -> +-448 (no NaN here)
    return saturated.astype(ml_dtypes.float8_e4m3fn)


def _expected(name: str, buffer: str) -> np.ndarray:
    program = assemble_file(PROGRAMS / name)
    return next(e.values for e in program.expects if e.buffer.name == buffer)


def test_softmax_bf16_expectation_is_the_model():
    want = softmax_bf16_model()
    assert (_expected("softmax_bf16.s", "y").view(np.uint16) == want.view(np.uint16)).all()
    assert abs(float(want.astype(np.float64).sum()) - 1) < 0.02


def test_quant_e4m3_expectation_is_the_model():
    want = quant_e4m3_model()
    got = _expected("quant_e4m3.s", "q")
    assert (got.view(np.uint8) == want.view(np.uint8)).all()
    assert {float(want[0]), float(want[-1])} == {-448.0, 448.0}      # the ends saturate
