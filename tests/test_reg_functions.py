"""The rows added for Reg API functions that had none: vlog2/vlog10 and the .nftz logarithms (Reg::Log2,
Log10, the PRECISION_1ULP_FTZ_FALSE algorithms), vmla (Reg::MulAddDst) and vgatr (Reg::Gather's register
form), on both executors. Expected values are worked by hand from the pages (their formulas, the
examples they give) or computed independently with numpy/math here; the boundary-values rows are in
tests/test_boundary_values.py."""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest
from conftest import run_source


def bits16(values, dtype=np.float16):
    return [int(v) for v in np.array(values, dtype).view(np.uint16)]


def ub(name, width, bits):
    return f".ub {name} u{width}[{len(bits)}] = [{', '.join(map(str, bits))}]\n"


def lanes(machine, vreg, dtype):
    return machine.state.vreg[vreg].view(dtype)


def test_log2_and_log10_by_hand(engine):
    x = np.array([8, 0.5, 1, 1024, 1000, 0.001, 2, 10], np.float32)
    m = run_source(ub("x", 32, [int(b) for b in x.view(np.uint32)]) + """
        mask p0.b32, ALL
        vld v0.f32, [x]
        vlog2 v1.f32, v0.f32, p0
        vlog10 v2.f32, v0.f32, p0
    """, engine)
    # exact powers give exact results; log2(1000) = 9.965784284662087 and log2(0.001 as f32) =
    # -9.965784286...: rounded to f32 as numpy does from the double
    assert lanes(m, 1, np.float32)[:4].tolist() == [3.0, -1.0, 0.0, 10.0]
    assert lanes(m, 1, np.float32)[4] == np.float32(math.log2(1000.0))
    assert lanes(m, 1, np.float32)[5] == np.float32(math.log2(float(np.float32(0.001))))
    assert lanes(m, 2, np.float32)[[2, 4, 7]].tolist() == [0.0, 3.0, 1.0]
    assert lanes(m, 2, np.float32)[6] == np.float32(math.log10(2.0))


def test_half_logarithm_is_rounded_through_float(engine):
    """The pages compute half in float: log10(0.2362060546875) = -0.62670897427682..., within 1.1e-8 of
    the f16 midpoint -0.626708984375 (itself an f32 value, half an f32 ulp is 3e-8), so the f32 result is
    that midpoint and f16 rounds it to even, -0.626953125; rounding the double once would give
    -0.62646484375."""
    m = run_source(ub("x", 16, bits16([0.2362060546875] * 128)) + """
        mask p0.b16, ALL
        vld v0.f16, [x]
        vlog10 v1.f16, v0.f16, p0
    """, engine)
    assert lanes(m, 1, np.float16)[0] == np.float16(-0.626953125)


def rounded(value, via_f32):
    """A double rounded to f16: once (vln), or to f32 first (vlog2, vlog10: the pages compute half in float)."""
    return np.float16(np.float32(value)) if via_f32 else np.float16(value)


@pytest.mark.parametrize("mnemonic, log, via_f32", [("vln", math.log, False), ("vlog2", math.log2, True),
                                                    ("vlog10", math.log10, True)])
def test_subnormal_inputs_flush_unless_nftz(engine, mnemonic, log, via_f32):
    tiny = float(np.float16(2.0 ** -20))                # an f16 subnormal
    m = run_source(ub("x", 16, bits16([tiny, 4.0] * 64)) + f"""
        mask p0.b16, M3
        vld v0.f16, [x]
        {mnemonic} v1.f16, v0.f16, p0
        {mnemonic}.nftz v2.f16, v0.f16, p0
    """, engine)
    flushed, kept = lanes(m, 1, np.float16), lanes(m, 2, np.float16)
    assert flushed[0] == -np.inf                       # the input read as +0
    assert kept[0] == rounded(log(tiny), via_f32)
    assert flushed[3] == kept[3] == rounded(log(4.0), via_f32)           # lane 3: 4.0, active (M3)
    assert not flushed[1] and not kept[1] and not kept[2]                 # inactive lanes 0


def test_vmla_integers_wrap(engine):
    a = [300, 7, -2, 0x7FFF] + [0] * 124
    b = [300, 9, 3, 2] + [0] * 124
    d = [1, 5, 6, 1] + [11] * 124
    m = run_source(ub("a", 16, [v & 0xFFFF for v in a]) + ub("b", 16, [v & 0xFFFF for v in b])
                   + ub("d", 16, [v & 0xFFFF for v in d]) + """
        mask p0.b16, ALL
        vld v0.s16, [a]
        vld v1.s16, [b]
        vld v2.s16, [d]
        vmla v2.s16, v0.s16, v1.s16, p0
        mask p1.b32, VL1
        vld v3.u32, [a]
        vld v4.u32, [d]
        vmla v4.u32, v3.u32, v3.u32, p1
    """, engine)
    # 300*300 + 1 = 90001 = 24465 + 65536; 7*9 + 5 = 68; -2*3 + 6 = 0; 32767*2 + 1 = 65535 = -1
    assert lanes(m, 2, np.int16)[:5].tolist() == [24465, 68, 0, -1, 11]
    # u32 lane 0 of a = 0x0007_012C (300, 7 as two u16): squared + 0x0005_0001, modulo 2^32; lane 1 inactive
    x = 7 << 16 | 300
    assert lanes(m, 4, np.uint32)[:2].tolist() == [(x * x + (5 << 16 | 1)) % 2 ** 32, 0]


def test_vmla_rounds_once(engine):
    """bf16 x = 1 + 2^-7: x * x = 1 + 2^-6 + 2^-14 is not a bf16 (8 significant bits); fused with
    dst = -(1 + 2^-6) the sum is exactly 2^-14, where Mul then Add gives 0 (x * x rounds to 1 + 2^-6)."""
    x, d = 1 + 2 ** -7, -(1 + 2 ** -6)
    xb = np.array([x] * 128, ml_dtypes.bfloat16).view(np.uint16)
    db = np.array([d] * 128, ml_dtypes.bfloat16).view(np.uint16)
    m = run_source(ub("x", 16, [int(v) for v in xb]) + ub("d", 16, [int(v) for v in db]) + """
        mask p0.b16, ALL
        vld v0.bf16, [x]
        vld v1.bf16, [d]
        vmla v1.bf16, v0.bf16, v0.bf16, p0
        vmul v2.bf16, v0.bf16, v0.bf16, p0
        vld v3.bf16, [d]
        vadd v2.bf16, v2.bf16, v3.bf16, p0
    """, engine)
    assert float(lanes(m, 1, ml_dtypes.bfloat16)[0]) == 2.0 ** -14
    assert float(lanes(m, 2, ml_dtypes.bfloat16)[0]) == 0.0


def test_vgatr_picks_lanes_and_wraps(engine):
    data = bits16(np.arange(128) / 4)                  # lane k holds k/4
    index = [(5 * i) % 200 for i in range(128)]        # beyond 127 wraps: the page's 168 -> 40
    index[7] = 168
    m = run_source(ub("d", 16, data) + ub("i", 16, index) + """
        vld v0.f16, [d]
        vld v1.u16, [i]
        vgatr v2.f16, v0.f16, v1.u16
        vgatr v0.f16, v0.f16, v1.u16
    """, engine)
    expected = [data[k % 128] for k in index]
    assert lanes(m, 2, np.uint16).tolist() == expected
    assert lanes(m, 0, np.uint16).tolist() == expected  # the destination may be the source
    assert lanes(m, 2, np.uint16)[7] == data[40]


@pytest.mark.parametrize("width, lanes_count", [(8, 256), (32, 64)])
def test_vgatr_other_widths(engine, width, lanes_count):
    data = [(k * 37 + 1) % 2 ** width for k in range(lanes_count)]
    index = [(lanes_count - 1 - k) + (lanes_count if k % 2 else 0) for k in range(lanes_count)]
    index = [v % 2 ** width for v in index]
    m = run_source(ub("d", width, data) + ub("i", width, index) + f"""
        vld v0.s{width}, [d]
        vld v1.u{width}, [i]
        vgatr v2.s{width}, v0.s{width}, v1.u{width}
    """, engine)
    assert lanes(m, 2, f"u{width // 8}").tolist() == [data[k % lanes_count] for k in index]
