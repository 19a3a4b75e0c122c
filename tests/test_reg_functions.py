"""The rows added for Reg API functions that had none: vlog2/vlog10 and the .nftz logarithms (Reg::Log2,
Log10, the PRECISION_1ULP_FTZ_FALSE algorithms), vmla (Reg::MulAddDst) and vgatr (Reg::Gather's register
form), on both executors. Expected values are worked by hand from the pages (their formulas, the
examples they give) or computed independently with numpy/math here; the boundary-values rows are in
tests/test_boundary_values.py."""
from __future__ import annotations

import math
import warnings

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


# Boundary-values table 27 (ExpSub), typed in: (source type, src0, src1, dst). MIN/MAX: -65504/65504 in the
# rows the table gives for half and float alike, the f32 extremes in its float-only rows. Two entries
# contradict IEEE 754, which the table's note says the column follows: MIN - (-inf) is printed -inf in the
# half/float rows (its float rows give inf), and -inf - (-inf) is printed 0.0 where the difference is NaN
# (inf - inf gives nan in the same table); both are typed with the IEEE result (docs/semantics.md).
_EXPSUB_SHARED = """
-65504 -65504 1 | -65504 65504 0 | -65504 0 0 | -65504 -0 0 | -65504 inf 0 | -65504 nan nan | -65504 -inf inf
65504 65504 1 | 65504 0 inf | 65504 -0 inf | 65504 -65504 inf | 65504 -inf inf | 65504 nan nan | 65504 inf 0
0 65504 0 | 0 inf 0 | -0 inf 0 | 0 0 1 | -0 0 1 | 0 -0 1 | 0 nan nan | 0 -65504 inf | -0 -inf inf
nan nan nan | nan inf nan | nan -inf nan | nan 0 nan | nan 65504 nan | nan -65504 nan
inf -inf inf | inf 0 inf | inf -0 inf | inf 65504 inf | inf -65504 inf | inf nan nan | inf inf nan
-inf inf 0 | -inf 0 0 | -inf -0 0 | -inf 65504 0 | -inf -65504 0 | -inf nan nan | -inf -inf nan
"""
_EXPSUB_F32 = """
MIN MIN 1 | MIN MAX 0 | MIN 0 0 | MIN inf 0 | MIN nan nan | MIN -inf inf
MAX MAX 1 | MAX 0 inf | MAX MIN inf | MAX -inf inf | MAX nan nan | MAX inf 0
0 MAX 0 | -0 inf 0 | 0 MIN inf | -0 -inf inf
"""


def _rows(text):
    return [row.split() for line in text.strip().splitlines() for row in line.split("|")]


def _number(token, dtype):
    extreme = float(np.finfo(dtype).max)
    return {"MIN": -extreme, "MAX": extreme}.get(token, None) or float(token)


@pytest.mark.parametrize("source", ["f16", "f32"])
def test_expsub_boundary_rows(engine, source):
    dtype = np.float16 if source == "f16" else np.float32
    rows = _rows(_EXPSUB_SHARED) + (_rows(_EXPSUB_F32) if source == "f32" else [])
    step = 2 if source == "f16" else 1                 # f16: the even lanes (RegLayout ZERO)
    a, b = np.zeros(64 * step, dtype), np.zeros(64 * step, dtype)
    a[:len(rows) * step:step] = [_number(x, np.float32) if x in ("MIN", "MAX") else float(x) for x, _, _ in rows]
    b[:len(rows) * step:step] = [_number(y, np.float32) if y in ("MIN", "MAX") else float(y) for _, y, _ in rows]
    width = 8 * np.dtype(dtype).itemsize
    m = run_source(ub("a", width, [int(v) for v in a.view(f"u{width // 8}")])
                   + ub("b", width, [int(v) for v in b.view(f"u{width // 8}")]) + f"""
        mask p0.b{width}, ALL
        vld v0.{source}, [a]
        vld v1.{source}, [b]
        vexpsub v2.f32, v0.{source}, v1.{source}, p0
    """, engine)
    got = lanes(m, 2, np.float32)
    for lane, (x, y, expected) in enumerate(rows):
        value = got[lane]
        if expected == "nan":
            assert np.isnan(value), (x, y)
        else:
            assert value == float(expected), (x, y, value)


def test_expsub_of_nan_bits_warns_nothing(engine):
    """A signalling-NaN half source (0x7C01) minus -inf: numpy's cast of the NaN lane to float32 warned
    (a RuntimeWarning on the user's terminal, seen in the fuzzer); the result is a NaN either way."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = run_source(ub("a", 16, [0x7C01] * 128) + ub("b", 16, [0xFC00] * 128) + """
            mask p0.b16, ALL
            vld v0.f16, [a]
            vld v1.f16, [b]
            vexpsub v2.f32, v0.f16, v1.f16, p0
        """, engine)
    assert np.isnan(lanes(m, 2, np.float32)).all()


def test_expsub_half_lanes_and_mask(engine):
    """f16 sources: destination lane i takes source lanes 2i (even, RegLayout ZERO) or 2i + 1 (odd), and the
    mask is read at the sources' width; the difference is taken in f32: e^(1.5 - 0.5) = e, e^(0.25 - 1)."""
    a = [1.5, 2.0, 3.0, 0.25] * 32
    b = [0.5, 2.0, 1.0, 1.0] * 32
    m = run_source(ub("a", 16, bits16(a)) + ub("b", 16, bits16(b)) + """
        mask p0.b16, M4
        vld v0.f16, [a]
        vld v1.f16, [b]
        vexpsub v2.f32, v0.f16, v1.f16, p0
        mask p1.b16, ALL
        vexpsub v3.f32, v0.f16, v1.f16, p1, odd
    """, engine)
    even, odd = lanes(m, 2, np.float32), lanes(m, 3, np.float32)
    assert even[0] == np.float32(math.e) and even[1] == 0          # source lane 2 is inactive under M4
    assert even[2] == np.float32(math.e)                           # source lane 4 (active): 1.5 - 0.5
    assert odd[0] == 1.0 and odd[1] == np.float32(math.exp(-0.75))


# Boundary-values table 30 (MulsCast), typed in: src (f32), scalar, the f16 result. MIN/MAX are float's.
# The row "inf | -inf/0/-0/max/min | inf" contradicts IEEE 754 for four of its five scalars (inf * -inf =
# -inf, inf * 0 = nan, inf * MIN = -inf) and "inf | inf -> nan" too; those are typed with the IEEE result.
_MULSCAST = """
MIN nan nan | MIN -0 0 | MIN 0 -0 | MIN -inf inf | MIN MIN inf | MIN inf -inf | MIN MAX -inf
MAX nan nan | MAX -0 -0 | MAX 0 0 | MAX -inf -inf | MAX MIN -inf | MAX inf inf | MAX MAX inf
0 0 0 | 0 inf nan | 0 -inf nan | 0 nan nan | 0 -0 -0 | -0 0 -0 | -0 inf nan | -0 nan nan | -0 -0 0
nan 0 nan | nan inf nan | nan MAX nan | inf MAX inf | inf -inf -inf | inf 0 nan | inf MIN -inf | inf nan nan
inf inf inf | -inf -inf inf | -inf MIN inf | -inf inf -inf | -inf MAX -inf | -inf 0 nan | -inf nan nan
"""


# The saturation column of table 30 is the INF/NAN column with the appendix's saturation rule applied to
# the half result: inf -> MAX, -inf -> MIN, nan -> 0.
_SATURATED = {"nan": "0", "inf": "65504", "-inf": "-65504"}
_SET_SATURATION_MODE = f"mov s9, {1 << 60}\nsprset.ctrl s9\n"     # SetCtrlSpr: global mode, bits 48/59 clear


@pytest.mark.parametrize("saturating", [False, True], ids=["inf-nan mode", "saturation mode"])
def test_mulscast_boundary_rows(engine, saturating):
    rows = _rows(_MULSCAST)
    if saturating:
        rows = [(x, y, _SATURATED.get(expected, expected)) for x, y, expected in rows]
    scalars = sorted({y for _, y, _ in rows})
    src = np.zeros(64, np.float32)
    src[:len(rows)] = [_number(x, np.float32) if x in ("MIN", "MAX") else float(x) for x, _, _ in rows]
    body = "".join(f"vmulscvt v{2 + k}.f16, v0.f32, {_literal(y)}, p0\n" for k, y in enumerate(scalars))
    m = run_source(ub("s", 32, [int(v) for v in src.view(np.uint32)]) + (_SET_SATURATION_MODE if saturating else "")
                   + "mask p0.b32, ALL\nvld v0.f32, [s]\n" + body, engine)
    for lane, (x, y, expected) in enumerate(rows):
        value = lanes(m, 2 + scalars.index(y), np.float16)[2 * lane]          # even lanes: RegLayout ZERO
        if expected == "nan":
            assert np.isnan(value), (x, y)
        else:
            assert value == float(expected) and math.copysign(1, value) == math.copysign(1, float(expected)), \
                (x, y, value)


def _literal(token):
    return repr(_number(token, np.float32) if token in ("MIN", "MAX") else float(token))


def test_mulscast_rounds_to_f32_then_ties_away(engine):
    """1 + 2^-11 (a tie between the f16 values 1 and 1 + 2^-10) rounds away from zero to 1 + 2^-10 (CAST_ROUND;
    rint would give 1), 1 + 2^-23 to 1. With X = 3 (f16's step above 2 is 2^-9): 3 * (1 + 2^-11) = 3 + 0.75 *
    2^-9 gives 3 + 2^-9; 3 * (1 + 2^-23) is 3 + 2^-21 in f32 (a tie, to even) and 3 in f16. The odd layout
    writes lanes 2i + 1 and leaves the even ones 0."""
    src = np.array([1 + 2 ** -11, 1 + 2 ** -23, -(1 + 2 ** -11), 2.0] + [0] * 60, np.float32)
    m = run_source(ub("s", 32, [int(v) for v in src.view(np.uint32)]) + """
        mask p0.b32, VL3
        vld v0.f32, [s]
        vmulscvt v1.f16, v0.f32, 1.0, p0
        vmulscvt v2.f16, v0.f32, 3.0, p0, odd
    """, engine)
    plain, odd = lanes(m, 1, np.float16), lanes(m, 2, np.float16)
    assert plain[[0, 2, 4, 6]].tolist() == [1 + 2 ** -10, 1.0, -(1 + 2 ** -10), 0.0]   # source lane 3 inactive
    assert not plain[1::2].any()
    assert odd[[1, 3, 5]].tolist() == [3 + 2 ** -9, 3.0, -(3 + 2 ** -9)] and not odd[0::2].any()


@pytest.mark.parametrize("pair, values, expected", [
    # Reg::Cast's integer rows: 4:1, RegLayout ZERO..THREE = part0..part3 (the source lane 4i + part)
    ("s32.s8", [-1, 2, -128, 127], [-1, 2, -128, 127]),
    ("u32.u8", [255, 2, 128, 0], [255, 2, 128, 0]),
])
def test_four_to_one_widening(engine, pair, values, expected):
    dst, src = pair.split(".")
    raw = [v & 0xFF for v in values]
    source = [raw[k // 4] if k % 4 == 2 else 0x55 for k in range(16)] + [0] * 240     # part2: bytes 4i + 2
    m = run_source(ub("a", 8, source) + f"""
        mask p0.b8, ALL
        vld v0.{src}, [a]
        vcvt v1.{dst}, v0.{src}, p0, part2
    """, engine)
    assert lanes(m, 1, np.dtype(dst.replace("s", "int").replace("u", "uint")))[:4].tolist() == expected


def test_four_to_one_narrowing(engine):
    """Cast.md: an int32 256 gives uint8 0 without saturation (the low bits), 255 with it; part1 writes bytes
    4i + 1, every other byte 0."""
    values = [256, -1, 300, 7]
    m = run_source(ub("a", 32, [v & 0xFFFFFFFF for v in values] + [0] * 60) + """
        mask p0.b32, ALL
        vld v0.s32, [a]
        vcvt v1.u8, v0.s32, p0, part1
        vcvt v2.u8, v0.s32, p0, sat, part1
        vld v3.u32, [a]
        vcvt v4.u8, v3.u32, p0, sat
    """, engine)
    assert lanes(m, 1, np.uint8)[:16].tolist() == [0, 0, 0, 0, 0, 255, 0, 0, 0, 44, 0, 0, 0, 7, 0, 0]
    assert lanes(m, 2, np.uint8)[1:16:4].tolist() == [255, 0, 255, 7]
    assert lanes(m, 4, np.uint8)[0:16:4].tolist() == [255, 255, 255, 7]     # u32 0xFFFFFFFF saturates high
