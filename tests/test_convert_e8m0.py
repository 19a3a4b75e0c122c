"""vcvt between bfloat16 and fp8_e8m0 (reg-api Cast.md table 7 and its note on e8m0; no C-API page), proven
on both executors against models written here from the formats: e8m0 is 2^(byte - 127), 0xFF NaN, and
shares bfloat16's 8-bit exponent field (bias 127).

- bfloat16 -> e8m0 for every bfloat16 pattern, from either half of the destination: the exponent field
  (|x| rounded down to a power of two), 0 and the subnormals 2^-127, +-inf 0xFE, NaN 0xFF (Cast.md);
- e8m0 -> bfloat16 for every byte from either half of the source; the mask and the options.
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from conftest import SWEEP_ENGINES, sweep
from test_cast_packed import every_bf16, run_registers

from ascasm import AssemblyFailed, assemble


def e8m0_of_bf16(words: np.ndarray) -> np.ndarray:
    """From the bits: the exponent field, whatever the sign; NaN (field 0xFF, mantissa not 0) 0xFF, inf
    (field 0xFF, mantissa 0) 0xFE, e8m0's largest value."""
    field, mantissa = (words >> 7) & 0xFF, words & 0x7F
    return np.where(field == 0xFF, np.where(mantissa != 0, 0xFF, 0xFE), field).astype(np.uint8)


@pytest.mark.parametrize("engine", SWEEP_ENGINES)
@pytest.mark.parametrize("part", (0, 1))
def test_bf16_to_e8m0_every_pattern(engine, part):
    engine, words = sweep(engine, every_bf16())
    got = run_registers(engine, f"vcvt v2.e8m0, v1.bf16, p0, {('even', 'odd')[part]}",
                        words.view(np.uint8).reshape(-1, 256), "mask p0.b16, ALL")
    want = np.zeros_like(got)
    want[:, part::2] = e8m0_of_bf16(words).reshape(-1, 128)
    np.testing.assert_array_equal(got, want)


def test_bf16_to_e8m0_by_hand(engine):
    x = np.zeros(128, ml_dtypes.bfloat16)
    x[:12] = [1.0, 1.5, 3.99, -0.3, 0.0, -0.0, 1e-39, np.inf, -np.inf, np.nan, 3.3895e38, 2.0 ** -126]
    got, = run_registers(engine, "vcvt v2.e8m0, v1.bf16, p0", x.view(np.uint8)[None], "mask p0.b16, VL8")
    # 2^0, 2^0, 2^1, 2^-2 (|-0.3| rounded down), 2^-127 for 0, -0 and a subnormal, inf; lanes 8.. inactive
    assert got[0:24:2].tolist() == [127, 127, 128, 125, 0, 0, 0, 0xFE, 0, 0, 0, 0]
    every, = run_registers(engine, "vcvt v2.e8m0, v1.bf16, p0", x.view(np.uint8)[None], "mask p0.b16, ALL")
    assert every[14:24:2].tolist() == [0xFE, 0xFE, 0xFF, 0xFE, 1]        # inf, -inf, nan, MAX, 2^-126
    assert not every[1::2].any()


@pytest.mark.parametrize("part", (0, 1))
def test_e8m0_to_bf16_every_byte(engine, part):
    source = np.full(512, 0x3C, np.uint8)
    source[part::2] = np.arange(256)
    got = run_registers(engine, f"vcvt v2.bf16, v1.e8m0, p0, {('even', 'odd')[part]}", source.reshape(2, 256),
                        "mask p0.b8, ALL").view(np.uint16).reshape(-1)
    # 2^(b - 127): 2^-127 is the bf16 subnormal 0x0040, the others a bare exponent field; NaN 0x7FFF
    want = np.array([0x0040] + [b << 7 for b in range(1, 255)] + [0x7FFF], np.uint16)
    np.testing.assert_array_equal(got, want)
    # ml_dtypes' float8_e8m0fnu decodes the 255 finite bytes to the same values
    finite = np.arange(255, dtype=np.uint8).view(ml_dtypes.float8_e8m0fnu).astype(np.float64)
    assert got[:255].view(ml_dtypes.bfloat16).astype(np.float64).tolist() == finite.tolist()


def test_e8m0_mask_reads_the_source_byte(engine):
    source = np.full(256, 127, np.uint8)
    got, = run_registers(engine, "vcvt v2.bf16, v1.e8m0, p0, odd", source[None], "mask p0.b8, VL4")
    assert got.view(np.uint16)[:3].tolist() == [0x3F80, 0x3F80, 0]       # bytes 1 and 3 active, 5 not
    assert not got.view(np.uint16)[2:].any()


@pytest.mark.parametrize("text", ("vcvt v2.e8m0, v1.bf16, p0, sat", "vcvt.rint v2.e8m0, v1.bf16, p0",
                                  "vcvt v2.e8m0, v1.f16, p0", "vcvt v2.f32, v1.e8m0, p0"))
def test_options_the_page_does_not_list_are_rejected(text):
    with pytest.raises(AssemblyFailed):
        assemble(f"    mask p0.b16, ALL\n    {text}\n    halt\n")
