"""vcvt between the float types (c-api-reg/data_type_convert: asc_float2half, asc_float2bfloat16,
asc_half2float, asc_bfloat162float, asc_half2bfloat16, asc_bfloat162half; reg-api Cast.md table 7 for
the fp8 pairs), proven on both executors:

- every source pattern of f16, bf16, e4m3 and e5m2, in every rounding mode and saturation setting the
  page lists, against GridModel below (written here from rounding_mode.md: the two representable
  neighbours of the exact value, then the mode's rule) and, for round-to-nearest-even, against ml_dtypes;
- f32 sources on a dense sample plus every boundary of the destination (its values, the midpoints
  between them and their float neighbours, the overflow threshold, subnormals, NaN payloads);
- the layouts (even/odd halves, quarters), the mask read at the source width, inactive lanes 0;
- every float-to-float row of appendix/boundary-values.md table 34, typed in.
"""
from __future__ import annotations

import textwrap

import ml_dtypes
import numpy as np
import pytest
from conftest import SWEEP_ENGINES, run_source, sweep

from ascasm import AssemblyFailed, assemble
from ascasm.isa import dtypes
from ascasm.vm import Machine

T = dtypes.BY_SPELLING
FIVE = ("rint", "round", "floor", "ceil", "trunc")
# (destination, source): the rounding modes its page lists (() = exact) and whether it has _sat forms
PAGES = {
    ("f32", "f16"): ((), False), ("f32", "bf16"): ((), False), ("f32", "e4m3"): ((), False),
    ("f32", "e5m2"): ((), False),
    ("f16", "f32"): (FIVE + ("odd",), True), ("bf16", "f32"): (FIVE, True), ("bf16", "f16"): (FIVE, False),
    ("f16", "bf16"): (FIVE, True), ("e4m3", "f32"): (("rint",), True), ("e5m2", "f32"): (("rint",), True),
}
CASES = [(dst, src, mode, sat) for (dst, src), (modes, has_sat) in PAGES.items()
         for mode in (modes or ("",)) for sat in ((False, True) if has_sat else (False,))]
# The NaN every operation produces (docs/semantics.md "Floating point": positive, every exponent and
# mantissa bit set, as reg-api Div table 8 shows for f32) and +inf of each type, typed in
NAN = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF, "e4m3": 0x7F, "e5m2": 0x7F}
INF = {"f16": 0x7C00, "bf16": 0x7F80, "f32": 0x7F800000, "e5m2": 0x7C}

UB_CHUNK_REGISTERS = 480        # source registers per run fit in the usable UB


def mnemonic_of(mode: str) -> str:
    return "vcvt" + ("." + mode if mode else "")


def convert(engine: str, mode: str, dst, src, words: np.ndarray, options: str = "", part: int = 0) -> np.ndarray:
    """Source bit patterns `words` through one conversion with every lane active, on `engine`; the
    destination bits of each word, in order. Widening conversions read the source lanes of `part`."""
    return run_lanes(engine, f"{mnemonic_of(mode)} v2.{dst.name}, v1.{src.name}, p0{options}", dst, src, words, part)


def run_lanes(engine: str, instruction: str, dst, src, words: np.ndarray, part: int = 0) -> np.ndarray:
    """Source bit patterns `words` in v1, `instruction` (v2 from v1 under p0, all lanes of U's width
    active) run on them, the bits of v2's results in order. The program loops over the source forever;
    the harness runs one iteration at a time and reads v2 (a store per register would dominate the
    reference executor's time)."""
    ratio = max(dst.width, src.width) // min(dst.width, src.width)
    per_register = min(src.lanes, dst.lanes)
    registers = -(-len(words) // per_register)
    padded = np.zeros(registers * per_register, src.bits)
    padded[:len(words)] = words
    results = []
    for first in range(0, registers, UB_CHUNK_REGISTERS):
        count = min(UB_CHUNK_REGISTERS, registers - first)
        chunk = padded[first * per_register:(first + count) * per_register]
        source = np.zeros(count * src.lanes, src.bits)
        if dst.width < src.width:
            source[:] = chunk
        else:
            source[part::ratio] = chunk
        program = assemble(textwrap.dedent(f"""
            .ub src {src.name}[{count * src.lanes}]
                mask p0.b{8 * min(src.width, 4)}, ALL          ; (b32 sets bit 8i of 64-bit lanes too)
                mov s0, src
            loop:
                vld v1.{src.name}, [s0]
                {instruction}
                add s0, s0, 256
                b loop
        """))
        machine = Machine(program, engine)
        program.buffers["src"].view(machine.state.ub).view(src.bits)[:] = source
        assert machine.run(2) == 0
        for _ in range(count):
            assert machine.run(4) == 0, machine.fault
            out = machine.state.vreg[2].view(dst.bits)
            results.append((out[part::ratio] if dst.width < src.width else out).copy())
    return np.concatenate(results)[:len(words)]


class GridModel:
    """A float type's conversions by rounding_mode.md, from the sorted list of its non-negative finite
    values (every bit pattern decoded by ml_dtypes/numpy), plus one virtual value a step above the
    largest: a result there has overflowed."""

    def __init__(self, etype):
        self.etype = etype
        bits = np.arange(1 << (8 * etype.width), dtype=np.uint64).astype(etype.bits)
        with np.errstate(invalid="ignore"):
            values = bits.view(etype.np_dtype).astype(np.float64)
        keep = np.isfinite(values) & ~np.signbit(values)
        order = np.argsort(values[keep], kind="stable")
        self.values, self.bits = values[keep][order], bits[keep][order].astype(np.uint64)
        self.largest_bits = int(self.bits[-1])
        self.values = np.append(self.values, 2 * self.values[-1] - self.values[-2])
        self.bits = np.append(self.bits, np.uint64(self.largest_bits + 1))
        self.sign = 1 << (8 * etype.width - 1)

    def convert(self, x: np.ndarray, mode: str, sat: bool) -> np.ndarray:
        """Exact values x (float64) converted: the destination bits."""
        name, last = self.etype.name, len(self.values) - 1
        negative = np.signbit(x)
        a = np.abs(np.where(np.isfinite(x), x, 0.0))
        k = np.clip(np.searchsorted(self.values, a, side="right") - 1, 0, last)
        lo, hi = self.values[k], self.values[np.minimum(k + 1, last)]
        exact = lo == a
        lo_odd = (self.bits[k] & 1) == 1
        up = {   # of the magnitude: take the neighbour above
            "rint": (hi - a < a - lo) | ((hi - a == a - lo) & lo_odd),
            "round": hi - a <= a - lo,
            "floor": negative, "ceil": ~negative, "trunc": np.zeros_like(negative),
            "odd": ~lo_odd, "": np.zeros_like(negative),
        }[mode] & ~exact
        r = np.minimum(k + up, last)
        out = self.bits[r] | np.where(negative, self.sign, 0).astype(np.uint64)
        overflow = np.isfinite(x) & ((a >= self.values[-1]) | (r == last))
        to_inf = {"rint": True, "round": True, "ceil": ~negative, "floor": negative}.get(mode, False)
        to_inf = np.broadcast_to(to_inf, x.shape)
        signed_max = self.largest_bits | np.where(negative, self.sign, 0).astype(np.uint64)
        signed_inf = (INF[name] | np.where(negative, self.sign, 0).astype(np.uint64)) if name in INF \
            else np.full(x.shape, NAN[name], np.uint64)
        if sat:
            out = np.where(overflow | np.isinf(x), signed_max, out)
            out = np.where(np.isnan(x), 0, out)
        else:
            out = np.where(overflow, np.where(to_inf, signed_inf, signed_max), out)
            out = np.where(np.isinf(x), signed_inf, out)
            out = np.where(np.isnan(x), NAN[name], out)
        return out.astype(self.etype.bits)


MODELS = {name: GridModel(T[name]) for name in ("f16", "bf16", "e4m3", "e5m2")}


def every_pattern(etype) -> np.ndarray:
    return np.arange(1 << (8 * etype.width), dtype=np.uint64).astype(etype.bits)


def expected(words: np.ndarray, dst, src, mode: str, sat: bool) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        x = words.view(src.np_dtype).astype(np.float64)
    if dst.name == "f32":                        # widening: exact; NaN canonical
        with np.errstate(invalid="ignore"):
            out = x.astype(np.float32).view(np.uint32)
        return np.where(np.isnan(x), NAN["f32"], out).astype(np.uint32)
    return MODELS[dst.name].convert(x, mode, sat)


@pytest.mark.parametrize("dst, src, mode, sat", [c for c in CASES if c[1] != "f32"],
                         ids=lambda v: v if isinstance(v, str) else ("sat" if v else "nosat"))
@pytest.mark.parametrize("engine", SWEEP_ENGINES)
def test_every_source_pattern(engine, dst, src, mode, sat):
    d, s = T[dst], T[src]
    engine, words = sweep(engine, every_pattern(s))
    got = convert(engine, mode, d, s, words, ", sat" if sat else "")
    want = expected(words, d, s, mode, sat)
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{bad.size} wrong, first: source {words[bad[0]]:#x} -> {got[bad[0]]:#x}, want {want[bad[0]]:#x}"


def test_the_model_rounds_to_nearest_even_as_ml_dtypes():
    """The grid model's rint is ml_dtypes' conversion (from the source type itself: no float64 detour),
    for every f16 and bf16 pattern and each pair of 16-bit types; NaNs compared as NaNs."""
    for dst, src in (("bf16", "f16"), ("f16", "bf16")):
        words = every_pattern(T[src])
        values = words.view(T[src].np_dtype)
        with np.errstate(invalid="ignore"):
            ours = MODELS[dst].convert(values.astype(np.float64), "rint", False).view(T[dst].np_dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            theirs = values.astype(np.float32).astype(T[dst].np_dtype)     # f16/bf16 -> f32 is exact
        both_nan = np.isnan(ours.astype(np.float64)) & np.isnan(theirs.astype(np.float64))
        assert (both_nan | (ours.view(T[dst].bits) == theirs.view(T[dst].bits))).all()


def f32_sample(dst_name: str) -> np.ndarray:
    """f32 bit patterns: random ones over every exponent, and every boundary of the destination: its
    values, the midpoints between neighbours (ties) and the float32 numbers next to each, around the
    overflow threshold, f32 subnormals, infinities and NaNs with payloads."""
    rng = np.random.default_rng(12)
    model = MODELS[dst_name]
    grid = model.values
    step = max(1, len(grid) // 6000)             # bf16 and f16 have many values: every step-th, plus the ends
    picked = np.unique(np.concatenate([grid[::step], grid[:300], grid[-300:]]))
    mids = (picked[:-1] + picked[1:]) / 2
    mids = np.concatenate([mids, (grid[:-1] + grid[1:])[-4:] / 2])
    with np.errstate(over="ignore"):             # bf16's virtual value above the largest is beyond f32
        points = np.concatenate([picked, mids]).astype(np.float32)
    near = np.concatenate([points, np.nextafter(points, np.float32(np.inf)), np.nextafter(points, np.float32(0))])
    near = np.concatenate([near, -near]).view(np.uint32)
    special = np.array([0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000,
                        0x7F800001, 0x7FC00000, 0x7FC00001, 0xFFFFFFFF, 0x7FBFFFFF, 0xFFC00123], np.uint32)
    return np.concatenate([rng.integers(0, 1 << 32, 50000, dtype=np.uint64).astype(np.uint32), near, special])


@pytest.mark.parametrize("dst, src, mode, sat", [c for c in CASES if c[1] == "f32"],
                         ids=lambda v: v if isinstance(v, str) else ("sat" if v else "nosat"))
@pytest.mark.parametrize("engine", SWEEP_ENGINES)
def test_f32_sources_dense_sample_and_boundaries(engine, dst, src, mode, sat):
    d, s = T[dst], T[src]
    engine, words = sweep(engine, f32_sample(dst))
    got = convert(engine, mode, d, s, words, ", sat" if sat else "")
    want = expected(words, d, s, mode, sat)
    bad = np.flatnonzero(got != want)
    assert not bad.size, f"{bad.size} wrong, first: source {words[bad[0]]:#x} -> {got[bad[0]]:#x}, want {want[bad[0]]:#x}"


def test_f32_round_to_nearest_even_agrees_with_ml_dtypes():
    """ml_dtypes converts float32 arrays straight to bf16/fp8 (one rounding); the model agrees."""
    for dst in ("f16", "bf16", "e4m3", "e5m2"):
        words = f32_sample(dst)
        finite = np.isfinite(words.view(np.float32))
        with np.errstate(over="ignore", invalid="ignore"):
            ours = MODELS[dst].convert(words.view(np.float32).astype(np.float64), "rint", False)
            theirs = words.view(np.float32).astype(T[dst].np_dtype).view(T[dst].bits)
        theirs_nan = np.isnan(theirs.view(T[dst].np_dtype).astype(np.float64))
        assert ((ours == theirs) | (theirs_nan & (ours == NAN[dst])))[finite].all()


# ---- layouts and masks (RegLayout; the pages' "write to even/odd positions") ----

def test_narrowing_writes_the_chosen_half_and_zeroes_the_rest(engine):
    machine = run_source("""
        .ub a f32[64] = i + 0.25
        .ub even f16[128] = 7
        .ub odd f16[128] = 7
            mask p0.b32, ALL
            mask p1.b16, ALL
            vld v1.f32, [a]
            vcvt.rint v2.f16, v1.f32, p0
            vcvt.rint v3.f16, v1.f32, p0, odd
            vsta [even], v2.f16, p1
            vsta [odd], v3.f16, p1
            halt
    """, engine)
    even = machine.program.buffers["even"].view(machine.state.ub)
    odd = machine.program.buffers["odd"].view(machine.state.ub)
    assert list(even[:6]) == [0.25, 0, 1.25, 0, 2.25, 0] and (odd[0::2] == 0).all()
    assert (odd[1::2] == np.arange(64) + 0.25).all()


def test_quarters_of_an_fp8_register(engine):
    # f32 lane i -> e4m3 lane 4i + part; 1.0 is 0x38, 2.0 is 0x40, 0.5 is 0x30
    machine = run_source("""
        .ub a f32[64] = [1.0, 2.0, 0.5]
        .ub out u8[256]
            mask p0.b32, ALL
            mask p1.b8, ALL
            vld v1.f32, [a]
            vcvt.rint v2.e4m3, v1.f32, p0, part2
            vsta [out], v2.u8, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:12]) == [0, 0, 0x38, 0, 0, 0, 0x40, 0, 0, 0, 0x30, 0] and not out[12:].any()


def test_widening_reads_the_chosen_lanes_under_the_source_width_mask(engine):
    # f16 lanes 0..127 hold i; odd part: f32 lane i <- f16 lane 2i+1, active if mask element 2i+1 (b16)
    machine = run_source("""
        .ub a f16[128] = i
        .ub out f32[64] = 9
            mask p0.b16, VL8
            mask p1.b32, ALL
            vld v1.f16, [a]
            vcvt v2.f32, v1.f16, p0, odd
            vsta [out], v2.f32, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:5]) == [1, 3, 5, 7, 0] and not out[4:].any()


def test_fp8_quarter_widening(engine):
    # e5m2 0x3C is 1.0, 0x40 is 2.0; part3 reads source lanes 3, 7, 11...
    machine = run_source("""
        .ub a u8[256] = [0, 0, 0, 0x3C, 0, 0, 0, 0x40]
        .ub out f32[64]
            mask p0.b8, ALL
            mask p1.b32, ALL
            vld v1.e5m2, [a]
            vcvt v2.f32, v1.e5m2, p0, part3
            vsta [out], v2.f32, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:3]) == [1.0, 2.0, 0.0]


def test_inactive_source_lanes_give_zero_and_the_destination_may_be_the_source(engine):
    machine = run_source("""
        .ub a f32[64] = -1.5
        .ub out bf16[128] = 3
            mask p0.b32, VL2
            mask p1.b16, ALL
            vld v1.f32, [a]
            vcvt.floor v1.bf16, v1.f32, p0, odd, sat
            vsta [out], v1.bf16, p1
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub).astype(np.float64)
    assert list(out[:5]) == [0, -1.5, 0, -1.5, 0] and not out[4:].any()


def test_same_width_conversion_is_lane_for_lane(engine):
    # 1 + 2^-8 is a tie between bf16 1.0 and 1.0078125: rint keeps 1.0 (even), round goes away
    machine = run_source("""
        .ub a f16[128] = 1.00390625
        .ub rint bf16[128]
        .ub away bf16[128]
            mask p0.b16, ALL
            vld v1.f16, [a]
            vcvt.rint v2.bf16, v1.f16, p0
            vcvt.round v3.bf16, v1.f16, p0
            vsta [rint], v2.bf16, p0
            vsta [away], v3.bf16, p0
            halt
    """, engine)
    buffers = machine.program.buffers
    assert (buffers["rint"].view(machine.state.ub) == 1.0).all()
    assert (buffers["away"].view(machine.state.ub) == 1.0078125).all()


# ---- appendix/boundary-values.md table 34, the float-to-float rows (INF/NAN mode, saturation mode) ----
# MIN and MAX are the source type's lowest and largest finite values; conversions round to nearest even.
F32_MAX, BF16_MAX, F16_MAX = 3.4028234663852886e38, 3.3895313892515355e38, 65504.0
INPUTS = {"0.0": 0.0, "inf": np.inf, "-inf": -np.inf, "nan": np.nan}
TABLE_34 = [   # (source, destination, input, INF/NAN mode, saturation mode); None: blank in the table
    ("f32", "bf16", "0.0", 0.0, 0.0), ("f32", "bf16", "MIN", -np.inf, -3.39e38), ("f32", "bf16", "MAX", np.inf, 3.39e38),
    ("f32", "bf16", "inf", np.inf, 3.39e38), ("f32", "bf16", "-inf", -np.inf, -3.39e38), ("f32", "bf16", "nan", np.nan, 0.0),
    ("f32", "f16", "0.0", 0.0, 0.0), ("f32", "f16", "MIN", -np.inf, -65504.0), ("f32", "f16", "MAX", np.inf, 65504.0),
    ("f32", "f16", "inf", np.inf, 65504.0), ("f32", "f16", "-inf", -np.inf, -65504.0), ("f32", "f16", "nan", np.nan, 0.0),
    ("f32", "e4m3", "0.0", 0.0, 0.0), ("f32", "e4m3", "MIN", np.nan, -448), ("f32", "e4m3", "MAX", np.nan, 448),
    ("f32", "e4m3", "inf", np.nan, 448), ("f32", "e4m3", "-inf", np.nan, -448), ("f32", "e4m3", "nan", np.nan, None),
    ("f32", "e5m2", "0.0", 0.0, 0.0), ("f32", "e5m2", "MIN", -np.inf, -57344), ("f32", "e5m2", "MAX", np.inf, 57344),
    ("f32", "e5m2", "inf", np.inf, 57344), ("f32", "e5m2", "-inf", -np.inf, -57344), ("f32", "e5m2", "nan", np.nan, 0.0),
    ("e5m2", "f32", "0.0", 0.0, 0.0), ("e5m2", "f32", "MIN", -57344, -57344), ("e5m2", "f32", "MAX", 57344, 57344),
    ("e5m2", "f32", "inf", np.inf, np.inf), ("e5m2", "f32", "-inf", -np.inf, -np.inf), ("e5m2", "f32", "nan", np.nan, np.nan),
    ("e4m3", "f32", "0.0", 0.0, 0.0), ("e4m3", "f32", "MIN", -448, -448), ("e4m3", "f32", "MAX", 448, 448),
    ("e4m3", "f32", "nan", np.nan, np.nan),
    ("f16", "bf16", "0.0", 0.0, 0.0), ("f16", "bf16", "inf", np.inf, np.inf), ("f16", "bf16", "-inf", -np.inf, -np.inf),
    ("f16", "bf16", "nan", np.nan, np.nan),
    ("f16", "f32", "0.0", 0.0, 0.0), ("f16", "f32", "MIN", -65504.0, -65504.0), ("f16", "f32", "MAX", 65504.0, 65504.0),
    ("f16", "f32", "inf", np.inf, np.inf), ("f16", "f32", "-inf", -np.inf, -np.inf), ("f16", "f32", "nan", np.nan, np.nan),
    ("bf16", "f16", "0.0", 0.0, 0.0), ("bf16", "f16", "MIN", -np.inf, -65504.0), ("bf16", "f16", "MAX", np.inf, 65504.0),
    ("bf16", "f16", "inf", np.inf, 65504.0), ("bf16", "f16", "-inf", -np.inf, -65504.0), ("bf16", "f16", "nan", np.nan, 0.0),
    ("bf16", "f32", "0.0", 0.0, 0.0), ("bf16", "f32", "MIN", -3.39e38, -3.39e38), ("bf16", "f32", "MAX", 3.39e38, 3.39e38),
    ("bf16", "f32", "inf", np.inf, np.inf), ("bf16", "f32", "-inf", -np.inf, -np.inf), ("bf16", "f32", "nan", np.nan, np.nan),
]
SOURCE_RANGE = {"f32": F32_MAX, "bf16": BF16_MAX, "f16": F16_MAX, "e4m3": 448.0, "e5m2": 57344.0}


def _table_value(source: str, name: str) -> float:
    return {"MIN": -SOURCE_RANGE[source], "MAX": SOURCE_RANGE[source]}.get(name, INPUTS.get(name))


@pytest.mark.parametrize("source, destination, given, plain, saturated", TABLE_34,
                         ids=lambda v: str(v))
def test_boundary_values_table_34(engine, source, destination, given, plain, saturated):
    s, d = T[source], T[destination]
    narrowing_sat = PAGES[(destination, source)][1]
    with np.errstate(invalid="ignore"):
        word = np.array([_table_value(source, given)], np.float64).astype(s.np_dtype).view(s.bits)
    mode = "rint" if PAGES[(destination, source)][0] else ""
    for options, want in (("", plain), (", sat", saturated)):
        if want is None or (options and not narrowing_sat):
            continue
        got = float(convert(engine, mode, d, s, word, options).view(d.np_dtype).astype(np.float64)[0])
        if np.isnan(want):
            assert np.isnan(got)
        elif abs(want) in (3.39e38,):                      # the table prints bf16's largest value rounded
            assert got == np.copysign(BF16_MAX, want)
        else:
            assert got == want


# ---- the assembler accepts exactly what each page lists ----

@pytest.mark.parametrize("line, message", [
    ("vcvt.rint v0.bf16, v1.f16, p0, sat", "'vcvt.rint' bf16/f16 does not take 'sat'"),
    ("vcvt.rint v0.f16, v1.bf16, p0, odd", "'vcvt.rint' f16/bf16 does not take 'odd'"),
    ("vcvt.rint v0.e4m3, v1.f32, p0, odd", "'vcvt.rint' e4m3/f32 does not take 'odd'"),
    ("vcvt v0.f32, v1.f16, p0, sat", "'vcvt' f32/f16 does not take 'sat'"),
    ("vcvt.odd v0.bf16, v1.f32, p0", "'vcvt.odd' does not accept bf16/f32"),
    ("vcvt.floor v0.e4m3, v1.f32, p0", "'vcvt.floor' does not accept e4m3/f32"),
    ("vcvt v0.f16, v1.f32, p0", "'vcvt' does not accept f16/f32"),
    ("vcvt.rint v0.f16, v1.f32, p0, sat, sat", "'vcvt.rint' takes one saturation keyword"),
    ("vcvt.rint v0.f16, v1.f32, p0, saturate", "unknown option 'saturate' of 'vcvt.rint'"),
])
def test_options_each_page_does_not_list_are_errors(line, message):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(f"    mask p0.b32, ALL\n    {line}\n")
    assert message in str(failed.value)


# vcvt joins the pairs of one page per conversion; vcvt.odd's single pair is asc_float2half's
@pytest.mark.parametrize("line, note", [
    ("vcvt v0.s8, v1.f32, p0", "accepted (the lists of its 19 C-API pages): f32/f16, f32/bf16"),
    ("vcvt.odd v0.bf16, v1.f32, p0", "accepted (asc_float2half's list): f16/f32"),
])
def test_a_rejected_pair_names_where_the_accepted_list_comes_from(line, note):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(f"    mask p0.b32, ALL\n    {line}\n")
    assert note in str(failed.value)


def test_options_in_either_order():
    for options in ("odd, sat", "sat, odd", "SAT, Odd"):
        program = assemble(f"    mask p0.b32, ALL\n    vcvt.ceil v0.f16, v1.f32, p0, {options}\n")
        assert [o for o in program.insns[1].operands[-2:]] == ["sat", "odd"]


# Reg::Cast tables 6-9 (and table 3's pairs), typed in: (source, destination, the roundMode values, whether SatMode::SAT is
# listed, how many RegLayout values: 0 for UNKNOWN). Every pair ascasm converts is one of these rows, with
# the same modes and options (the MaskMergeMode is ZEROING in every row).
CAST_TABLES = [
    ("half", "float", "", False, 2),     # table 3 lists it, tables 6-9 have no row: asc_half2float's options
    ("half", "int4x2_t", "rint round floor ceil trunc", True, 4),
    ("half", "int8_t", "rint round floor ceil trunc", True, 2),
    ("half", "uint8_t", "rint round floor ceil trunc", True, 2),
    ("half", "int16_t", "rint round floor ceil trunc", True, 0),
    ("half", "int32_t", "rint round floor ceil trunc", False, 2),
    ("bfloat16_t", "int32_t", "rint round floor ceil trunc", True, 2),
    ("float", "int16_t", "rint round floor ceil trunc", True, 2),
    ("float", "int32_t", "rint round floor ceil trunc", True, 0),
    ("float", "int64_t", "rint round floor ceil trunc", True, 2),
    ("hifloat8_t", "half", "", False, 2),
    ("hifloat8_t", "float", "", False, 4),
    ("fp8_e4m3fn_t", "float", "", False, 4),
    ("fp8_e5m2_t", "float", "", False, 4),
    ("fp8_e8m0_t", "bfloat16_t", "", False, 2),
    ("fp4x2_e2m1_t", "bfloat16_t", "", False, 4),
    ("fp4x2_e1m2_t", "bfloat16_t", "", False, 4),
    ("half", "hifloat8_t", "round hybrid", True, 2),
    ("half", "bfloat16_t", "rint round floor ceil trunc", False, 0),
    ("bfloat16_t", "half", "rint round floor ceil trunc", True, 0),
    ("bfloat16_t", "fp4x2_e2m1_t", "rint round floor ceil trunc", False, 4),
    ("bfloat16_t", "fp4x2_e1m2_t", "rint round floor ceil trunc", False, 4),
    ("bfloat16_t", "fp8_e8m0_t", "", False, 2),
    ("bfloat16_t", "float", "", False, 2),
    ("float", "hifloat8_t", "round hybrid", True, 4),
    ("float", "fp8_e4m3fn_t", "rint", True, 4),
    ("float", "fp8_e5m2_t", "rint", True, 4),
    ("float", "half", "odd rint round floor ceil trunc", True, 2),
    ("float", "bfloat16_t", "rint round floor ceil trunc", True, 2),
    ("int4x2_t", "half", "", False, 4),
    ("int4x2_t", "bfloat16_t", "", False, 4),
    ("int8_t", "half", "", False, 2),
    ("uint8_t", "half", "", False, 2),
    ("int16_t", "half", "rint round floor ceil trunc", False, 0),
    ("int16_t", "float", "", False, 2),
    ("int32_t", "float", "rint round floor ceil trunc", False, 0),
    ("int64_t", "float", "rint round floor ceil trunc", False, 2),
    ("int4x2_t", "int16_t", "", False, 4),
    ("int8_t", "int16_t", "", False, 2),
    ("int8_t", "int32_t", "", False, 4),
    ("uint8_t", "uint16_t", "", False, 2),
    ("uint8_t", "uint32_t", "", False, 4),
    ("int16_t", "int4x2_t", "", True, 4),
    ("int16_t", "uint8_t", "", True, 2),
    ("int16_t", "int32_t", "", False, 2),
    ("int16_t", "uint32_t", "", False, 2),
    ("uint16_t", "uint8_t", "", True, 2),
    ("uint16_t", "uint32_t", "", False, 2),
    ("int32_t", "uint8_t", "", True, 4),
    ("int32_t", "int16_t", "", True, 2),
    ("int32_t", "uint16_t", "", True, 2),
    ("int32_t", "int64_t", "", False, 2),
    ("uint32_t", "uint8_t", "", True, 4),
    ("uint32_t", "int16_t", "", True, 2),
    ("uint32_t", "uint16_t", "", True, 2),
    ("int64_t", "int32_t", "", True, 2),
]


def test_the_conversions_are_reg_cast_tables_6_to_9():
    from ascasm.cpp.cpptypes import SCALAR_NAMES
    from ascasm.isa.table import CONVERSIONS, PARTS, width_ratio
    page = {(SCALAR_NAMES[dst], SCALAR_NAMES[src]): (tuple(modes.split()), sat, layouts)
            for src, dst, modes, sat, layouts in CAST_TABLES}
    assert set(CONVERSIONS) == set(page)
    for pair, (modes, sat, layouts) in page.items():
        facts = CONVERSIONS[pair]
        assert (set(facts.modes), facts.sat) == (set(modes), sat), pair
        assert len(PARTS.get(width_ratio(dtypes.named(*pair)), ())) == layouts, pair
