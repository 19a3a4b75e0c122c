"""HiFloat8 conversions (c-api-reg/data_type_convert/asc_half2hif8.md, asc_hif82half.md, the deprecated
asc_float2hif8 and asc_hif82float; reg-api Cast.md's half and float -> hifloat8 pseudo-code), proven on both executors against HifModel below, written here from the
format's definition (Luo et al., "Ascend HiFloat8 Format for Deep Learning", arXiv 2409.16626: sign, a
prefix-coded dot field giving the exponent's width, a sign-magnitude exponent with an implicit leading
magnitude bit, the mantissa; a denormal mode 2^(m-23); one zero 0x00, NaN 0x80, +-inf 0x6F/0xEF):

- hif8 -> half for all 256 patterns, from either half of the source register;
- half -> hif8 for all 65,536 half patterns, in both modes the page lists (_rna: ties away, vcvt.round;
  _rh: HYBRID, vcvt.hybrid), without and with saturation;
- float -> hif8 on every half value widened, every neighbour pair's edges and a random sample, in both
  modes and settings, and hif8 -> float for all 256 patterns from each quarter;
- values worked by hand from the rules, typed in; layouts, the mask, and the options the page lists.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli, run_source
from test_convert import T, convert, every_pattern

from ascasm import AssemblyFailed, assemble, assemble_file

HIF8, F16 = T["hif8"], T["f16"]
NAN, POS_INF, NEG_INF, LARGEST = 0x80, 0x6F, 0xEF, 0x6E
# The dot field's prefix codes: (code, exponent bits stored); "DML" is the denormal mode
DOT_CODES = (("0000", "DML"), ("0001", 0), ("001", 1), ("01", 2), ("10", 3), ("11", 4))


def hif8_value(byte: int) -> float:
    """The value of one hif8 byte, read field by field as the paper defines them."""
    text = f"{byte:08b}"
    sign, rest = (-1.0 if text[0] == "1" else 1.0), text[1:]
    if rest == "0000000":
        return float("nan") if sign < 0 else 0.0
    dot, width = next((code, width) for code, width in DOT_CODES if rest.startswith(code))
    rest = rest[len(dot):]
    if width == "DML":                       # the mantissa field holds the exponent: 2^(m - 23)
        return sign * 2.0 ** (int(rest, 2) - 23)
    exponent = 0
    if width:                                # sign bit, then the magnitude without its leading 1
        magnitude = int("1" + rest[1:width], 2)
        exponent = -magnitude if rest[0] == "1" else magnitude
    mantissa = rest[width:]
    if exponent == 15 and mantissa == "1":   # the code of +-inf
        return sign * float("inf")
    return sign * 2.0 ** exponent * (1 + int(mantissa, 2) / 2 ** len(mantissa))


class HifModel:
    """half -> hif8 from the sorted positive values of the 256 bytes, plus inf's code placed where the
    next value would be (1.5 * 2^15, so overflow starts half a step above 2^15 as in IEEE 754):
    "round" takes the nearest, ties away from zero; "hybrid" (Cast.md's pseudo-code) does too for
    2^-3 <= |x| < 2^4 (3 mantissa bits) and otherwise goes up iff floor(4 r) >= 2*b + 1, r being the
    position of |x| between its two neighbours (0 at the lower, 1 at the upper) and b the half's lowest
    bit. |x| below 2^-23 gives 0 (the pseudo-code's `Ev < -23`)."""

    def __init__(self):
        values = {b: hif8_value(b) for b in range(0x80)}
        finite = sorted((v, b) for b, v in values.items() if np.isfinite(v))
        self.values = np.array([v for v, _ in finite] + [1.5 * 2.0 ** 15])
        self.codes = np.array([b for _, b in finite] + [POS_INF])

    def convert(self, half_bits: int, mode: str, sat: bool) -> int:
        return self.convert_value(float(np.uint16(half_bits).view(np.float16)), half_bits & 1, 2, mode, sat)

    def convert_value(self, x: float, low: int, bits: int, mode: str, sat: bool) -> int:
        """x converted; the hybrid rule goes up iff floor(2^bits r) >= 2 low + 1, low being the source's
        lowest bits - 1 bits (bits = 2 from a half, 14 from a float)."""
        sign = 0x80 if np.signbit(x) else 0
        if np.isnan(x):
            return 0 if sat else NAN
        a = abs(x)
        if np.isinf(x) or a >= self.values[-1]:
            return sign | (LARGEST if sat else POS_INF)
        if a < 2.0 ** -23:
            return 0
        k = np.searchsorted(self.values, a, side="right") - 1
        lo, hi = self.values[k], self.values[k + 1]
        r = (a - lo) / (hi - lo)
        if mode == "round" or 2.0 ** -3 <= a < 2.0 ** 4:
            up = r >= 0.5
        else:
            up = np.floor(2.0 ** bits * r) >= 2 * low + 1
        code = int(self.codes[k + 1 if up else k])
        if code == 0:
            return 0                          # one zero, whatever the sign
        if code == POS_INF:
            return sign | (LARGEST if sat else POS_INF)
        return sign | code


MODEL = HifModel()
HALVES = every_pattern(F16)


def test_the_model_decodes_the_papers_landmarks():
    """Values typed in from the paper's description and Cast.md: 1.0 is dot 0001 with mantissa 0; the
    smallest value 2^-22 (denormal m = 1, Cast.md's "min subnormal" 0b00000001); the largest finite
    2^15; exponents -22..15; 7 exponents with 3 mantissa bits, 8 with 2, 16 with 1."""
    assert hif8_value(0x08) == 1.0 and hif8_value(0x01) == 2.0 ** -22 and hif8_value(0x81) == -2.0 ** -22
    assert hif8_value(0x6E) == 32768.0 and hif8_value(0x6F) == np.inf and hif8_value(0xEF) == -np.inf
    assert np.isnan(hif8_value(0x80)) and hif8_value(0x00) == 0.0
    assert hif8_value(0x20) == 4.0 and hif8_value(0x30) == 0.25 and hif8_value(0x41) == 20.0
    finite = [abs(hif8_value(b)) for b in range(1, 0x80) if np.isfinite(hif8_value(b))]
    exponents = {int(np.floor(np.log2(v))) for v in finite}
    assert exponents == set(range(-22, 16))
    per_exponent = {e: sum(int(np.floor(np.log2(v))) == e for v in finite) for e in exponents}
    assert sorted(e for e, n in per_exponent.items() if n == 8) == list(range(-3, 4))
    assert sorted(e for e, n in per_exponent.items() if n == 4) == [-7, -6, -5, -4, 4, 5, 6, 7]
    assert len([e for e, n in per_exponent.items() if n == 2]) == 15    # 16 exponents, +15 with inf
    assert per_exponent[15] == 1


@pytest.mark.parametrize("part", ("even", "odd"))
def test_every_hif8_pattern_to_half(engine, part):
    words = np.arange(256, dtype=np.uint8)
    got = convert(engine, "", F16, HIF8, words, f", {part}", part=("even", "odd").index(part))
    want = np.array([hif8_value(b) for b in range(256)]).astype(np.float16).view(np.uint16)
    want = np.where(np.isnan(want.view(np.float16)), 0x7FFF, want)          # the hardware NaN
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{bad.size} wrong, first: {words[bad[0]]:#x} -> {got[bad[0]]:#x}, want {want[bad[0]]:#x}"


@pytest.mark.parametrize("mode", ("round", "hybrid"))
@pytest.mark.parametrize("sat", (False, True), ids=("nosat", "sat"))
def test_every_half_pattern_to_hif8(engine, mode, sat):
    got = convert(engine, mode, HIF8, F16, HALVES, ", sat" if sat else "")
    want = np.array([MODEL.convert(int(w), mode, sat) for w in HALVES], np.uint8)
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{bad.size} wrong, first: {HALVES[bad[0]]:#x} -> {got[bad[0]]:#x}, want {want[bad[0]]:#x}"


# Worked by hand from the rules (half bits, vcvt.round, vcvt.hybrid, each without sat): 16 and 20 are
# neighbours (2 mantissa bits at E = 4, a step of 4); 18.0 (0x4C80) is their tie; the hybrid rule reads
# the two bits below the step (floor(4r)) against 1 (the half's last bit 0) or 3 (last bit 1).
WORKED = [
    (0x3C00, 0x08, 0x08),        # 1.0 exactly
    (0x3C40, 0x09, 0x09),        # 1.0625: tie of 1 and 1.125 -> away (HYBRID is ties away here too)
    (0xBC40, 0x89, 0x89),        # -1.0625 -> -1.125
    (0x4C80, 0x41, 0x41),        # 18.0: tie -> 20; hybrid: floor(4 * 0.5) = 2 >= 1 -> 20
    (0x4C40, 0x40, 0x41),        # 17.0: r = 0.25 -> 16; hybrid: 1 >= 1 -> 20
    (0x4C81, 0x41, 0x40),        # 18.015625: r > 0.5 -> 20; hybrid: 2 < 3 (last bit 1) -> 16
    (0x4CC1, 0x41, 0x41),        # 19.015625: 3 >= 3 -> 20
    (0x4C01, 0x40, 0x40),        # 16.015625: 0 -> 16
    (0x78FF, 0x6E, 0x6E),        # 40928: just under 1.25 * 2^15 -> 2^15; hybrid: floor(4r) = 1 < 3
    (0x7900, 0x6F, 0x6F),        # 40960 = 1.25 * 2^15: the tie with inf's place -> inf; hybrid: 2 >= 1
    (0xF900, 0xEF, 0xEF),        # -40960 -> -inf
    (0x7BFF, 0x6F, 0x6F),        # 65504 -> inf
    (0x7C00, 0x6F, 0x6F),        # inf
    (0x7E00, 0x80, 0x80),        # NaN -> 0x80
    (0x8000, 0x00, 0x00),        # -0.0 -> the one zero
    (0x0001, 0x00, 0x00),        # 2^-24: below 2^-23 -> 0
    (0x8001, 0x00, 0x00),        # -2^-24 -> 0x00, not 0x80 (NaN)
    (0x0002, 0x01, 0x01),        # 2^-23: the tie of 0 and 2^-22 -> 2^-22 (Cast.md's Ev == -23 case)
    (0x8002, 0x81, 0x81),        # -2^-23 -> -2^-22
    (0x0003, 0x01, 0x01),        # 1.5 * 2^-23 -> 2^-22
    (0x000C, 0x03, 0x03),        # 3 * 2^-22 (denormal range): tie of 2^-21 and 2^-20 -> 2^-20 (m = 3)
    (0x0006, 0x02, 0x02),        # 1.5 * 2^-22 -> 2^-21; hybrid: floor(4 * 0.5) = 2 >= 1
]


@pytest.mark.parametrize("half, rounded, hybrid", WORKED, ids=lambda v: f"{v:#06x}")
def test_worked_values(engine, half, rounded, hybrid):
    words = np.array([half], np.uint16)
    assert convert(engine, "round", HIF8, F16, words)[0] == rounded
    assert convert(engine, "hybrid", HIF8, F16, words)[0] == hybrid


@pytest.mark.parametrize("half, result", [(0x7C00, 0x6E), (0xFC00, 0xEE), (0x7900, 0x6E), (0x7BFF, 0x6E),
                                          (0x7E00, 0x00), (0xFE00, 0x00), (0x78FF, 0x6E)])
def test_saturation(engine, half, result):
    # the page's _sat forms (Cast.md table 4, float to float): overflow and +-inf -> +-max (2^15), NaN -> 0
    words = np.array([half], np.uint16)
    for mode in ("round", "hybrid"):
        assert convert(engine, mode, HIF8, F16, words, ", sat")[0] == result


def test_narrowing_writes_the_chosen_lanes_and_zeroes_the_rest(engine):
    # half 1.0, 2.0, ... -> hif8 lanes 2i (even) or 2i + 1 (odd); the mask read at f16's width
    machine = run_source("""
        .ub a f16[128] = [1.0, 2.0, -0.5, 20.0]
        .ub even u8[256] = 7
        .ub odd u8[256] = 7
            mask p0.b16, VL3
            mask p1.b8, ALL
            vld v1.f16, [a]
            vcvt.round v2.hif8, v1.f16, p0
            vcvt.hybrid v3.hif8, v1.f16, p0, odd, sat
            vsta [even], v2.u8, p1
            vsta [odd], v3.u8, p1
            halt
    """, engine)
    even = machine.program.buffers["even"].view(machine.state.ub)
    odd = machine.program.buffers["odd"].view(machine.state.ub)
    assert list(even[:8]) == [0x08, 0, 0x10, 0, 0x98, 0, 0, 0] and not even[6:].any()
    assert list(odd[:8]) == [0, 0x08, 0, 0x10, 0, 0x98, 0, 0] and not odd[6:].any()


def test_widening_reads_the_chosen_lanes_and_the_destination_may_be_the_source(engine):
    # hif8 bytes 0x08 (1.0), 0x41 (20.0), 0x80 (NaN), 0x6F (inf), 0x01 (2^-22); odd reads bytes 1, 3, 5...
    machine = run_source("""
        .ub a u8[256] = [0x08, 0x41, 0x80, 0x6F, 0x01, 0xEF]
        .ub lo f16[128] = 3
        .ub hi f16[128] = 3
            mask p0.b8, ALL
            mask p1.b16, ALL
            vld v1.hif8, [a]
            vcvt v2.f16, v1.hif8, p0
            vcvt v1.f16, v1.hif8, p0, odd
            vsta [lo], v2.f16, p1
            vsta [hi], v1.f16, p1
            halt
    """, engine)
    lo = machine.program.buffers["lo"].view(machine.state.ub).view(np.uint16)
    hi = machine.program.buffers["hi"].view(machine.state.ub).view(np.uint16)
    assert list(lo[:4]) == [0x3C00, 0x7FFF, 0x0004, 0] and not lo[3:].any()
    assert list(hi[:4]) == [0x4D00, 0x7C00, 0xFC00, 0] and not hi[3:].any()


def test_widening_reads_the_mask_at_the_source_width(engine):
    # mask element 2i + 1 (b8) selects hif8 lane 2i + 1 for the odd part
    machine = run_source("""
        .ub a u8[256] = 0x08
        .ub out f16[128] = 3
            mask p0.b8, VL4
            mask p1.b16, ALL
            vld v1.hif8, [a]
            vcvt v2.f16, v1.hif8, p0, odd
            vsta [out], v2.f16, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub).astype(np.float64)
    assert list(out[:3]) == [1.0, 1.0, 0.0] and not out[2:].any()


@pytest.mark.parametrize("line, message", [
    ("vcvt.rint v0.hif8, v1.f16, p0", "'vcvt.rint' does not accept hif8/f16"),
    ("vcvt v0.hif8, v1.f16, p0", "'vcvt' does not accept hif8/f16"),
    ("vcvt.hybrid v0.f16, v1.f32, p0", "'vcvt.hybrid' does not accept f16/f32"),
    ("vcvt.round v0.f16, v1.hif8, p0", "'vcvt.round' does not accept f16/hif8"),
    ("vcvt v0.f16, v1.hif8, p0, sat", "sat"),
    ("vcvt.hybrid v0.hif8, v1.f16, p0, part2", "part2"),
])
def test_options_the_pages_do_not_list_are_errors(line, message):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(f"    mask p0.b16, ALL\n    {line}\n")
    assert message in str(failed.value)


def test_explain_finds_the_rows_by_their_c_api_names():
    result = run_cli("explain", "asc_half2hif8")
    assert result.returncode == 0 and "vcvt.round, vcvt.hybrid" in result.stdout
    result = run_cli("explain", "asc_hif82half")
    assert result.returncode == 0 and "implemented by vcvt" in result.stdout and "f16/hif8" in result.stdout


def test_quant_hif8_program_expectation_is_the_model():
    """programs/quant_hif8.s checks itself with an .expect list (tests/test_programs.py runs it on both
    executors); the list must be this model's: x rounded to f16, HYBRID under saturation, back to f16."""
    program = assemble_file(Path(__file__).resolve().parent.parent / "programs" / "quant_hif8.s")
    got = next(e.values for e in program.expects if e.buffer.name == "y").astype(np.float64)
    x = ((np.arange(128) - 64) * 700.5).astype(np.float16)
    want = [hif8_value(MODEL.convert(int(b), "hybrid", True)) for b in x.view(np.uint16)]
    assert list(got) == want and max(want) == 32768.0 and min(want) == -32768.0


# --- float <-> hif8 (Reg::Cast table 7; asc_float2hif8 / asc_hif82float, deprecated): part0..part3 ---

F32 = T["f32"]


def float_words() -> np.ndarray:
    """f32 patterns: every half value widened, each pair of neighbouring hif8 values' midpoint and the
    floats either side of it and of each quarter point, the specials, and 65,536 random patterns."""
    with np.errstate(invalid="ignore"):
        halves = HALVES.view(np.float16).astype(np.float32).view(np.uint32)
    values = MODEL.values[:-1]
    points = np.concatenate([values[:-1] + (values[1:] - values[:-1]) * q for q in (0.25, 0.5, 0.75)])
    points = np.concatenate([points, values, [2.0 ** -23, 1.5 * 2.0 ** -23, 2.0 ** -24, 40960.0, 2.0 ** 20]])
    near = points.astype(np.float32).view(np.uint32)
    near = np.concatenate([near - 1, near, near + 1])
    specials = np.array([0x7F800000, 0x7FC00000, 0x7F800001, 0x00000001, 0x007FFFFF, 0x7F7FFFFF], np.uint32)
    random = np.random.default_rng(21).integers(0, 1 << 32, 65536, dtype=np.uint64).astype(np.uint32)
    return np.concatenate([halves, near, near | 0x80000000, specials, specials | 0x80000000, random])


FLOATS = float_words()


def float_model(word: int, mode: str, sat: bool) -> int:
    x = float(np.uint32(word).view(np.float32))
    return MODEL.convert_value(x, word & 0x1FFF, 14, mode, sat)


@pytest.mark.parametrize("mode", ("round", "hybrid"))
@pytest.mark.parametrize("sat", (False, True), ids=("nosat", "sat"))
def test_float_patterns_to_hif8(engine, mode, sat):
    words = FLOATS if engine == "cy" else FLOATS[::5]
    got = convert(engine, mode, HIF8, F32, words, (", sat" if sat else "") + ", part2", part=2)
    want = np.array([float_model(int(w), mode, sat) for w in words], np.uint8)
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{bad.size} wrong, first: {words[bad[0]]:#x} -> {got[bad[0]]:#x}, want {want[bad[0]]:#x}"


# Worked by hand (f32 bits, vcvt.round, vcvt.hybrid): at E = 4 the neighbours 16 and 20 are a step of 4
# apart; the hybrid rule reads the 14 bits below the step (floor(2^14 r)) against {the float's low 13
# bits, 1}. 16.0 itself stays 16: Cast.md's pseudo-code, read literally (threshold = the low 14 bits,
# 0 here, and `frac >= thr`), would round every exact value up.
FLOAT_WORKED = [
    (0x41800000, 0x40, 0x40),    # 16.0 exactly
    (0x41880000, 0x40, 0x41),    # 17.0: r = 0.25 -> 16; hybrid: 4096 >= 1 -> 20
    (0x41900000, 0x41, 0x41),    # 18.0: the tie -> 20; hybrid: 8192 >= 1
    (0x41901FFF, 0x41, 0x40),    # 18 + 8191 * 2^-19: r just over 0.5 -> 20; hybrid: 8255 < 16383 -> 16
    (0x41801FFF, 0x40, 0x40),    # 16 + 8191 * 2^-19: 63 < 16383 -> 16
    (0x3F880000, 0x09, 0x09),    # 1.0625: the tie of 1 and 1.125 -> away (3 mantissa bits: ties away)
    (0x47200000, 0x6F, 0x6F),    # 40960 = 1.25 * 2^15: inf's place -> inf
    (0x34000000, 0x01, 0x01),    # 2^-23: the tie of 0 and 2^-22 -> 2^-22
    (0x33800000, 0x00, 0x00),    # 2^-24 -> 0
    (0x7FC00000, 0x80, 0x80),    # NaN
    (0xFF800000, 0xEF, 0xEF),    # -inf
]


@pytest.mark.parametrize("word, rounded, hybrid", FLOAT_WORKED, ids=lambda v: f"{v:#010x}")
def test_float_worked_values(engine, word, rounded, hybrid):
    words = np.array([word], np.uint32)
    assert convert(engine, "round", HIF8, F32, words)[0] == rounded
    assert convert(engine, "hybrid", HIF8, F32, words)[0] == hybrid


@pytest.mark.parametrize("part", range(4))
def test_every_hif8_pattern_to_float(engine, part):
    words = np.arange(256, dtype=np.uint8)
    got = convert(engine, "", F32, HIF8, words, f", part{part}", part=part)
    want = np.array([hif8_value(b) for b in range(256)]).astype(np.float32).view(np.uint32)
    want = np.where(np.isnan(want.view(np.float32)), 0x7FFFFFFF, want)      # the hardware NaN
    np.testing.assert_array_equal(got, want)


def test_float_to_hif8_layout_and_mask(engine):
    # float lane i -> byte 4i + part; the mask read at f32's width (VL2: lanes 0 and 1)
    machine = run_source("""
        .ub a f32[64] = [1.0, 20.0, -0.5]
        .ub out u8[256] = 7
            mask p0.b32, VL2
            mask p1.b8, ALL
            vld v1.f32, [a]
            vcvt.hybrid v2.hif8, v1.f32, p0, part3, sat
            vsta [out], v2.u8, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:8]) == [0, 0, 0, 0x08, 0, 0, 0, 0x41] and not out[8:].any()
