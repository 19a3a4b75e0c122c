"""Vector compute (docs/semantics.md "Vector compute") on both executors, against an independent model
written here: Python integers, exact `fractions.Fraction` rounding to each float type, and numpy float64
arithmetic (never ascasm's output, never ascasm.floats or ascasm.ref)."""
from __future__ import annotations

import functools
import math
import random
from fractions import Fraction
from typing import NamedTuple

import ml_dtypes
import numpy as np
import pytest

from conftest import run_source

# ---- element types ----

INT_TYPES = {"s8": (8, True), "u8": (8, False), "s16": (16, True), "u16": (16, False), "s32": (32, True),
             "u32": (32, False), "s64": (64, True), "u64": (64, False)}


class FloatFormat(NamedTuple):
    width: int
    exp_bits: int
    man_bits: int
    has_inf: bool          # e4m3 has none: S.1111.111 is its NaN, S.1111.110 = 448 its largest value
    nan: int               # the hardware NaN: the result of any arithmetic that gives a NaN
    payload_nans: tuple    # other NaN bit patterns, kept by vabs/vneg only
    np_dtype: object       # for the model self-check only

    @property
    def bias(self):
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def emin(self):
        return 1 - self.bias

    @property
    def max_bits(self):
        top = ((1 << self.exp_bits) - 1) << self.man_bits
        return (top - (1 << self.man_bits)) | ((1 << self.man_bits) - 1) if self.has_inf else top | ((1 << self.man_bits) - 2)

    @property
    def inf(self):
        """The bits of +inf (None for e4m3)."""
        return ((1 << self.exp_bits) - 1) << self.man_bits if self.has_inf else None

    def overflow(self, sign):
        """What an overflowing or infinite result becomes: +-inf; e4m3, which has no inf, gives its
        canonical NaN 0x7F whatever the sign (docs/semantics.md "Floating point"; ml_dtypes keeps the sign)."""
        return sign | self.inf if self.has_inf else self.nan


FLOAT_TYPES = {
    # the NaN of each type: positive, every exponent and mantissa bit set (reg-api Div table 8: 0x7FFFFFFF)
    "f16": FloatFormat(16, 5, 10, True, 0x7FFF, (0x7C01, 0xFE01), np.float16),
    "bf16": FloatFormat(16, 8, 7, True, 0x7FFF, (0x7F81, 0xFFC1), ml_dtypes.bfloat16),
    "f32": FloatFormat(32, 8, 23, True, 0x7FFFFFFF, (0x7F800001, 0xFFC12345), np.float32),
    "e4m3": FloatFormat(8, 4, 3, False, 0x7F, (0xFF,), ml_dtypes.float8_e4m3fn),
    "e5m2": FloatFormat(8, 5, 2, True, 0x7F, (0x7D, 0xFE), ml_dtypes.float8_e5m2),
}
# The type lists of the C-API pages (the prototypes of c-api-reg/.../asc_<name>.md), typed in from them.
ARITH = ["s8", "u8", "s16", "u16", "f16", "bf16", "s32", "u32", "f32"]          # asc_add, asc_sub, asc_max, ...
MUL = ["s16", "u16", "f16", "bf16", "s32", "u32", "f32"]                        # asc_mul
DIV = ["s16", "u16", "f16", "s32", "u32", "f32"]                                # asc_div, asc_mul_scalar
SIGNED_FLOAT = ["s8", "s16", "f16", "s32", "f32"]                               # asc_abs, asc_neg, asc_arange
HALF_FLOAT = ["f16", "f32"]                                                     # asc_exp, asc_sqrt
DUPLICATE = ["s8", "u8", "e5m2", "e4m3", "s16", "u16", "f16", "bf16", "s32", "u32", "f32"]   # asc_duplicate_scalar
BINARY_TYPES = {"add": ARITH, "sub": ARITH, "mul": MUL, "div": DIV, "max": ARITH, "min": ARITH,
                "div_nftz": HALF_FLOAT}
SCALAR_FORM_TYPES = {"adds": ARITH, "muls": DIV, "maxs": ARITH, "mins": [t for t in ARITH if t != "bf16"]}
UNARY_TYPES = {"abs": SIGNED_FLOAT, "neg": SIGNED_FLOAT, "exp": HALF_FLOAT, "sqrt": HALF_FLOAT,
               "exp_nftz": HALF_FLOAT, "sqrt_nftz": HALF_FLOAT}
TYPES = list(INT_TYPES) + list(FLOAT_TYPES)
NAN = FLOAT_TYPES["f32"].nan
MASKS = {"ALL": lambda n: [True] * n, "M3": lambda n: [i % 3 == 0 for i in range(n)],
         "VL4": lambda n: [i < 4 for i in range(n)], "none": lambda n: [False] * n}


def width_of(t):
    return FLOAT_TYPES[t].width if t in FLOAT_TYPES else INT_TYPES[t][0]


def lanes_of(t):
    return 2048 // width_of(t)


def signed(bits, w):
    return bits - (1 << w) if bits >> (w - 1) else bits


# ---- the float model: exact decoding, one exact round-to-nearest-even ----

@functools.lru_cache(maxsize=None)
def decode(t, bits) -> float:
    """T's bit pattern as a Python float (exact: every value of every T is a double)."""
    f = FLOAT_TYPES[t]
    sign = -1.0 if bits >> (f.width - 1) else 1.0
    field, man = (bits >> f.man_bits) & ((1 << f.exp_bits) - 1), bits & ((1 << f.man_bits) - 1)
    if field == (1 << f.exp_bits) - 1 and f.has_inf:
        return sign * math.inf if man == 0 else math.nan
    if field == (1 << f.exp_bits) - 1 and man == (1 << f.man_bits) - 1:
        return math.nan
    if field == 0:
        return sign * math.ldexp(man, f.emin - f.man_bits)
    return sign * math.ldexp((1 << f.man_bits) | man, field - f.bias - f.man_bits)


def round_to(t, x) -> int:
    """x (an int, a Fraction or a float, each taken exactly) rounded once to T with ties to even, as bits.
    NaN -> canonical NaN; overflow and +-inf -> +-inf (e4m3: 0x7F); a zero keeps a float's sign."""
    f = FLOAT_TYPES[t]
    if isinstance(x, float) and math.isnan(x):
        return f.nan
    sign = (x < 0 or (isinstance(x, float) and math.copysign(1.0, x) < 0)) << (f.width - 1)
    if isinstance(x, float) and math.isinf(x):
        return f.overflow(sign)
    magnitude = round_magnitude(t, abs(Fraction(x)))
    return f.overflow(sign) if magnitude is None else sign | magnitude


@functools.lru_cache(maxsize=None)
def round_magnitude(t, magnitude: Fraction) -> int:
    """A non-negative number rounded to T's bits (sign clear), ties to even; None if it overflows."""
    f = FLOAT_TYPES[t]
    if magnitude == 0:
        return 0
    e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** e > magnitude:
        e -= 1                                           # now 2^e <= magnitude < 2^(e+1)
    q = max(e, f.emin) - f.man_bits                      # weight of T's last mantissa bit there
    k = round(magnitude / Fraction(2) ** q)              # Fraction rounds half to even
    if k == 1 << (f.man_bits + 1):                       # rounded up into the next binade
        k, q = k >> 1, q + 1
    if k * Fraction(2) ** q > Fraction(decode(t, f.max_bits)):
        return None
    if k < 1 << f.man_bits:                              # subnormal (q = emin - M) or zero
        return k
    return ((q + f.man_bits + f.bias) << f.man_bits) | (k - (1 << f.man_bits))


def sqrt_to(t, x: Fraction) -> int:
    """sqrt(x) rounded once to T. s = floor(sqrt(x) * 2^K); when inexact, (s + 1/2) / 2^K lies on the same
    side of every rounding boundary of T as sqrt(x) does: all boundaries are multiples of 2^-150 >= 2^-K."""
    K = 200
    s = math.isqrt(math.floor(x * 4 ** K))
    exact = Fraction(s * s, 4 ** K) == x
    return round_to(t, Fraction(s, 2 ** K) if exact else Fraction(2 * s + 1, 2 ** (K + 1)))


def float_arith(op, x, y) -> float:
    """x op y in IEEE double (numpy: x/0 = +-inf, 0/0 = NaN). Every T has p <= 24 bits and 53 >= 2p + 2, so
    rounding this double once more to T gives the correctly rounded result (innocuous double rounding);
    the double never overflows or goes subnormal for operands of any T."""
    with np.errstate(all="ignore"):
        return float({"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide}[op](
            np.float64(x), np.float64(y)))


def value(t, bits):
    """The number a lane holds (floats: a Python float, NaN included)."""
    if t in FLOAT_TYPES:
        return decode(t, bits)
    w, is_signed = INT_TYPES[t]
    return signed(bits, w) if is_signed else bits


def key(t, bits):
    """Order of T's values (floats, non-NaN: -0 below +0)."""
    return (decode(t, bits), bits >> (width_of(t) - 1) == 0) if t in FLOAT_TYPES else value(t, bits)


def mnemonic(op):
    """The instruction of a model operation: "div_nftz" -> "vdiv.nftz"."""
    return "v" + op.replace("_", ".")


def flushed(t, bits):
    """A subnormal flushed to the zero of its sign (the default of vdiv, vexp, vsqrt on floats)."""
    f = FLOAT_TYPES[t]
    return bits & (1 << (f.width - 1)) if (bits >> f.man_bits) & ((1 << f.exp_bits) - 1) == 0 else bits


def int_divide(x, y):
    """Toward zero; x / 0 = -1 (all ones once wrapped)."""
    if y == 0:
        return -1
    q = abs(x) // abs(y)
    return -q if (x < 0) != (y < 0) else q


def model_binary(op, t, a, b):
    if op == "div" and t in FLOAT_TYPES:
        return flushed(t, model_binary("div_nftz", t, flushed(t, a), flushed(t, b)))
    op = op.replace("_nftz", "")
    if op in ("max", "min"):
        if t in FLOAT_TYPES and (math.isnan(decode(t, a)) or math.isnan(decode(t, b))):
            return FLOAT_TYPES[t].nan
        if key(t, a) == key(t, b):
            return a
        return (max if op == "max" else min)((a, b), key=lambda v: key(t, v))
    if t in FLOAT_TYPES:
        return round_to(t, float_arith(op, decode(t, a), decode(t, b)))
    x, y = value(t, a), value(t, b)
    return {"add": x + y, "sub": x - y, "mul": x * y, "div": int_divide(x, y)}[op] % (1 << width_of(t))


def model_unary(op, t, a):
    w = width_of(t)
    if t not in FLOAT_TYPES:
        x = signed(a, w)
        return (abs(x) if op == "abs" else -x) % (1 << w)
    if op in ("exp", "sqrt"):
        return flushed(t, model_unary(op + "_nftz", t, flushed(t, a)))
    op = op.replace("_nftz", "")
    sign = 1 << (w - 1)
    if op in ("abs", "neg"):
        return a & ~sign if op == "abs" else a ^ sign          # bits only: NaNs keep sign and payload
    x = decode(t, a)
    if math.isnan(x) or (op == "sqrt" and x < 0):
        return FLOAT_TYPES[t].nan
    if op == "sqrt":
        return a if x == 0 or math.isinf(x) else sqrt_to(t, Fraction(x))   # sqrt(-0) = -0
    try:
        return round_to(t, math.exp(x))                        # libm exp in double, rounded once to T
    except OverflowError:
        return round_to(t, math.inf)


# ---- operands ----

def float_boundaries(t):
    f = FLOAT_TYPES[t]
    s, one = 1 << (f.width - 1), round_to(t, 1)
    infs = [f.inf, s | f.inf] if f.has_inf else []
    return [0, s, one, s | one, *infs, f.nan, *f.payload_nans,
            1, s | 1,                                    # smallest subnormal
            (1 << f.man_bits) - 1, 1 << f.man_bits,      # largest subnormal, smallest normal
            f.max_bits, s | f.max_bits, round_to(t, 1.5), one + 1, round_to(t, 2.0 ** -(f.man_bits + 1)),
            round_to(t, 2)]


def operand_bits(t, seed):
    """Lane bit patterns: boundary values first, then random ones (1-byte floats: every pattern once)."""
    rng = np.random.default_rng(seed)
    rand = random.Random(seed)
    n, w = lanes_of(t), width_of(t)
    if t in FLOAT_TYPES:
        base = float_boundaries(t)
        if w == 8:
            rest = [v for v in range(256) if v not in base]
            rand.shuffle(rest)
            return base + rest
        k = (n - len(base)) // 3 + 1
        moderate = [round_to(t, float(v)) for v in rng.normal(0, 4, k)]      # sums and exps round here
        wide = [round_to(t, float(v)) for v in rng.normal(0, 1e3, k)]
        raw = [rand.randrange(1 << w) for _ in range(k)]
        return (base + moderate + wide + raw)[:n]
    top = (1 << w) - 1
    base = [0, 1, top, top >> 1, (top >> 1) + 1, 2, top - 1] + [rand.randint(0, top) for _ in range(n)]
    return base[:n]


def special_pairs(t):
    """(a, b) lanes placed first in the binary operands: division edges, rounding ties, overflow."""
    w = width_of(t)
    if t in FLOAT_TYPES:
        f = FLOAT_TYPES[t]
        mx, tiny, half = decode(t, f.max_bits), math.ldexp(1, f.emin - f.man_bits), math.ldexp(1, -f.man_bits - 1)
        half_ulp_max = math.ldexp(1, math.frexp(mx)[1] - f.man_bits - 2)
        inf, nan = math.inf, math.nan
        values = [(1, half), (1 + 2 * half, half),                  # 1 + half an ulp: ties (to 1, to 1 + 2 ulp)
                  (mx, half_ulp_max), (mx, half_ulp_max / 2),       # the tie above max (overflows unless even)
                  (mx, mx), (-mx, mx), (tiny, 0.5), (3 * tiny, 0.5), (-tiny, 0.5),   # overflow; subnormal ties
                  (0, 0), (1, 0), (-1, 0), (1, -0.0), (-0.0, -0.0), (-0.0, 0),         # zeros, x/0
                  (inf, inf), (inf, -inf), (inf, 0), (1, 3), (2, 3), (nan, 1), (1, nan)]
        one = round_to(t, 1)
        return [(round_to(t, x), round_to(t, y)) for x, y in values] + [(f.payload_nans[0], one),
                                                                         (one, f.payload_nans[0])]
    top = (1 << w) - 1
    lo, hi = (-(1 << (w - 1)), top >> 1) if INT_TYPES[t][1] else (0, top)
    if INT_TYPES[t][1]:      # lane 0: min / -1; lanes 1 and 3: x / 0 (active under M3 and VL4 at every width)
        values = [(lo, -1), (7, 0), (-7, 2), (-7, 0), (7, -2), (-7, -2), (0, 0), (hi, -1), (lo, 1), (lo, 0)]
    else:
        values = [(hi, 0), (7, 0), (7, 2), (0, 0), (hi, hi), (1, hi), (hi, 1), (hi, 2)]
    return [(x % (top + 1), y % (top + 1)) for x, y in values]


def binary_operands(t):
    a, b = operand_bits(t, 1), operand_bits(t, 2)[::-1]
    pairs = special_pairs(t)
    a[:len(pairs)] = [x for x, _ in pairs]
    b[:len(pairs)] = [y for _, y in pairs]
    return a, b


# ---- programs ----

def buf(name, t, bits):
    return f".ub {name} u{width_of(t)}[{len(bits)}] = [{', '.join(map(str, bits))}]\n"


def vreg_bits(machine, number, t):
    return [int(v) for v in machine.state.vreg[number].view(f"u{width_of(t) // 8}")]


def mask_setup(mask, t):
    return "mov s9, 0\n mask.upd p0.b8, s9\n" if mask == "none" else f"mask p0.b{min(width_of(t), 32)}, {mask}\n"


def active_lanes(mask, t):
    """Which lanes the mask of mask_setup selects: bit i*W, with b32 patterns for 64-bit types."""
    n = lanes_of(t)
    if width_of(t) <= 32:
        return MASKS[mask](n)
    bits = [False] * 256
    for j, on in enumerate(MASKS[mask](64)):
        bits[j * 4] = on
    return [bits[i * 8] for i in range(n)]


# ---- the model itself, against ml_dtypes / numpy conversions (which round once from float32/float64) ----

def test_model_matches_numpy_conversions():
    rand = random.Random(0)
    for t, f in FLOAT_TYPES.items():
        patterns = range(256) if f.width == 8 else rand.sample(range(1 << f.width), 1500)
        if f.width == 32:
            patterns = [*patterns, *float_boundaries(t)]
        raw = np.array(patterns, f"u{f.width // 8}")
        with np.errstate(invalid="ignore"):
            theirs = raw.view(f.np_dtype).astype(np.float64)
        for bits, v in zip(patterns, theirs.tolist()):
            assert decode(t, bits) == v or (math.isnan(v) and math.isnan(decode(t, bits))), (t, hex(bits))
        # rounding: T's values, the midpoints between neighbours and the float32s just beside them
        finite = [decode(t, p) for p in patterns if math.isfinite(decode(t, p))]
        probes = []
        for p in patterns:
            lo, hi = decode(t, p), decode(t, (p + 1) % (1 << f.width))
            if math.isfinite(lo) and math.isfinite(hi) and abs(hi) > abs(lo) and (lo > 0 or p == 0):
                mid = np.float32((lo + hi) / 2)
                probes += [mid, np.nextafter(mid, np.float32(0)), np.nextafter(mid, np.float32(np.inf))]
        mx = decode(t, f.max_bits)
        probes += [np.float32(v) for v in finite] + [mx + math.ldexp(1, math.frexp(mx)[1] - f.man_bits - 2)]
        with np.errstate(over="ignore"):
            src = np.array(probes, np.float32)
        if t == "f32":               # f32: round doubles, numpy's float64 -> float32 rounds once
            src = np.array([float(v) * (1 + 2.0 ** -30) for v in probes] + [rand.uniform(-1e38, 1e38) for _ in range(500)])
        with np.errstate(all="ignore"):
            expected = src.astype(f.np_dtype).view(f"u{f.width // 8}").tolist()
        for x, bits in zip(src.tolist(), expected):
            for v, want in ((x, bits), (-x, bits ^ (1 << (f.width - 1)))):
                want = f.nan if want == f.nan | (1 << (f.width - 1)) else want    # e4m3: ml_dtypes keeps the sign
                assert round_to(t, v) == want, (t, v, hex(round_to(t, v)), hex(want))
    for t in ("f16", "f32"):         # sqrt: float64 sqrt is correctly rounded, and innocuous for f16/f32
        for bits in operand_bits(t, 9):
            x = decode(t, bits)
            if math.isfinite(x) and x > 0:
                assert sqrt_to(t, Fraction(x)) == round_to(t, math.sqrt(x)), (t, hex(bits))


def test_special_pairs_are_exact():
    for t, f in FLOAT_TYPES.items():
        for a, b in special_pairs(t):
            assert round_to(t, decode(t, a)) in (a, f.nan) and round_to(t, decode(t, b)) in (b, f.nan)


# ---- the instructions ----

BINARY_OPS = ["add", "sub", "mul", "div", "max", "min", "div_nftz"]


def check_lanes(got, expected, what):
    """got == expected, naming the first differing lane."""
    bad = [i for i, (g, e) in enumerate(zip(got, expected)) if g != e]
    assert not bad and len(got) == len(expected), \
        f"{what}: {len(bad)} lanes differ, first lane {bad[0]}: got {got[bad[0]]:#x}, expected {expected[bad[0]]:#x}"


@pytest.mark.parametrize("mask", ["ALL", "M3", "VL4", "none"])
@pytest.mark.parametrize("t", ARITH)
def test_vector_binary(engine, t, mask):
    """Every binary op whose page lists T on one program: vD = op(a, b) in v2.., and op(a, a) in v10.. (a
    destination named by a source: v0 last)."""
    a, b = binary_operands(t)
    if t in INT_TYPES:                      # the division edges are among the lanes
        w = width_of(t)
        assert any(y == 0 and x != 0 for x, y in zip(a, b)) and (0, 0) in zip(a, b)
        assert not INT_TYPES[t][1] or (1 << (w - 1), (1 << w) - 1) in zip(a, b)
    binary_ops = [op for op in BINARY_OPS if t in BINARY_TYPES[op]]
    ops = "".join(f"vdup v{2 + i}.{t}, 7\n {mnemonic(op)} v{2 + i}.{t}, v0.{t}, v1.{t}, p0\n"
                  f"{mnemonic(op)} v{10 + i}.{t}, v0.{t}, v0.{t}, p0\n" for i, op in enumerate(binary_ops))
    m = run_source(buf("a", t, a) + buf("b", t, b) + mask_setup(mask, t) + f"vld v0.{t}, [a]\nvld v1.{t}, [b]\n"
                   + ops + f"vsub v0.{t}, v0.{t}, v1.{t}, p0\n", engine)
    assert m.stop_name == "HALTED"
    act = active_lanes(mask, t)
    for i, op in enumerate(binary_ops):
        check_lanes(vreg_bits(m, 2 + i, t), [model_binary(op, t, x, y) if on else 0 for x, y, on in zip(a, b, act)],
                    f"{mnemonic(op)}.{t} a, b")
        check_lanes(vreg_bits(m, 10 + i, t), [model_binary(op, t, x, x) if on else 0 for x, on in zip(a, act)],
                    f"{mnemonic(op)}.{t} a, a")
    check_lanes(vreg_bits(m, 0, t), vreg_bits(m, 3, t), f"vsub.{t} into its source")


MERGING = ["add", "max", "min"]          # appendix merge-mode.md table 2: MERGING in software for these alone


@pytest.mark.parametrize("mask", ["ALL", "M3", "VL4", "none"])
@pytest.mark.parametrize("t", ARITH)
def test_vector_binary_merge(engine, t, mask):
    """vadd.merge|vmax.merge|vmin.merge: active lanes op(a, b) as the zeroing rows, inactive lanes keep vD's
    old bits (reg-api Add/Max/Min, mode MERGING). vD apart from its sources (old bits d), vD = vA, vD = vB
    and vD = vA = vB; mask "none" leaves every destination as it was."""
    a, b = binary_operands(t)
    d = operand_bits(t, 7)[::-1]
    ops = "".join(f"vld v{2 + i}.{t}, [d]\n v{op}.merge v{2 + i}.{t}, v0.{t}, v1.{t}, p0\n"
                  f"vld v{10 + i}.{t}, [a]\n v{op}.merge v{10 + i}.{t}, v{10 + i}.{t}, v1.{t}, p0\n"
                  f"vld v{20 + i}.{t}, [b]\n v{op}.merge v{20 + i}.{t}, v0.{t}, v{20 + i}.{t}, p0\n"
                  f"vld v{26 + i}.{t}, [a]\n v{op}.merge v{26 + i}.{t}, v{26 + i}.{t}, v{26 + i}.{t}, p0\n"
                  for i, op in enumerate(MERGING))
    m = run_source(buf("a", t, a) + buf("b", t, b) + buf("d", t, d) + mask_setup(mask, t)
                   + f"vld v0.{t}, [a]\nvld v1.{t}, [b]\n" + ops, engine)
    assert m.stop_name == "HALTED"
    act = active_lanes(mask, t)
    for i, op in enumerate(MERGING):
        result = [model_binary(op, t, x, y) for x, y in zip(a, b)]
        check_lanes(vreg_bits(m, 2 + i, t), [r if on else old for r, old, on in zip(result, d, act)],
                    f"v{op}.merge.{t} d, a, b")
        check_lanes(vreg_bits(m, 10 + i, t), [r if on else x for r, x, on in zip(result, a, act)],
                    f"v{op}.merge.{t} a, a, b")
        check_lanes(vreg_bits(m, 20 + i, t), [r if on else y for r, y, on in zip(result, b, act)],
                    f"v{op}.merge.{t} b, a, b")
        check_lanes(vreg_bits(m, 26 + i, t), [model_binary(op, t, x, x) if on else x for x, on in zip(a, act)],
                    f"v{op}.merge.{t} a, a, a")


def test_merge_hand_worked(engine):
    """A few lanes worked by hand: s8 127 + 1 wraps to -128; f16 min(-0, +0) = -0 and a NaN operand gives the
    hardware NaN 0x7FFF; f32 1 + 2^-24 ties to 1, 1 + 2^-23 is exact. Lanes 0 and 1 active (VL2), the others
    keep vD's old bits (0x5A bytes, or vA's own lane when vD = vA)."""
    m = run_source("""
        .ub fill u8[256] = 0x5A
        .ub s8a s8[256] = [127, -128, 5]
        .ub s8b s8[256] = [1, -1, 9]
        .ub f16a u16[128] = [0x8000, 0x7E00, 0x3C00]
        .ub f16b u16[128] = [0x0000, 0x3C00, 0x4000]
        .ub f32a u32[64] = [0x3F800000, 0x3F800000, 0x40000000]
        .ub f32b u32[64] = [0x33800000, 0x34000000, 0x40000000]
        mask p0.b8, VL2
        mask p1.b16, VL2
        mask p2.b32, VL2
        vld v0.s8, [s8a]
        vld v1.s8, [s8b]
        vld v2.u8, [fill]
        vadd.merge v2.s8, v0.s8, v1.s8, p0
        vld v3.f16, [f16a]
        vld v4.f16, [f16b]
        vld v5.u8, [fill]
        vld v6.u8, [fill]
        vmin.merge v5.f16, v3.f16, v4.f16, p1
        vmax.merge v6.f16, v3.f16, v4.f16, p1
        vld v7.f32, [f32a]
        vld v8.f32, [f32b]
        vadd.merge v7.f32, v7.f32, v8.f32, p2
    """, engine)
    assert vreg_bits(m, 2, "s8")[:4] == [0x80, 0x7F, 0x5A, 0x5A]          # 127 + 1 = -128, -128 + -1 = 127
    assert vreg_bits(m, 5, "f16")[:3] == [0x8000, 0x7FFF, 0x5A5A]         # min(-0, +0) = -0, min(NaN, 1) = NaN
    assert vreg_bits(m, 6, "f16")[:3] == [0x0000, 0x7FFF, 0x5A5A]         # max(-0, +0) = +0
    assert vreg_bits(m, 7, "f32")[:3] == [0x3F800000, 0x3F800001, 0x40000000]   # vD = vA: lane 2 keeps 2.0


@pytest.mark.parametrize("bad", ["vsub.merge v0.s16, v1.s16, v2.s16, p0", "vmul.merge v0.f32, v1.f32, v2.f32, p0",
                                 "vadds.merge v0.s32, v1.s32, 2, p0", "vadd.merge v0.e4m3, v1.e4m3, v2.e4m3, p0",
                                 "vmax.merge v0.s64, v1.s64, v2.s64, p0", "vmin.merge v0.f16, v1.f16, p0"])
def test_merge_only_where_the_appendix_gives_it(bad):
    from ascasm import AssemblyFailed, assemble
    with pytest.raises(AssemblyFailed):
        assemble(f"mask p0.b8, ALL\n{bad}\n", "bad.s")


SREG = -123456789012345
SCALARS = {"s8": ["-128", "127", "255", "s5"], "u16": ["65535", "-1", "s5"], "s32": ["-7", "s5"],
           "u32": ["0xffffffff", "s5"],
           # 2^24 + 1 ties to 2^24; 2^60 + 2^36 + 1 is above the f32 tie it would hit via a double
           "f32": ["1.5", "0.1", "-inf", "nan", "s5", "16777217", "1152921573326323713"],
           # 2049 ties to 2048; 6e-8 is nearest the smallest subnormal 2^-24; s5 overflows to -inf
           "f16": ["1.5", "0.1", "-inf", "nan", "s5", "2049", "-6e-8", "65504"],
           # 257 ties to 256; 2^60 + 2^52 + 1 rounds up (through a double it would tie down to 2^60)
           "bf16": ["1.5", "0.1", "-inf", "nan", "s5", "257", "1157425104234217473"]}


def immediate_bits(t, text, sreg_value):
    """An X.T operand: integers keep the low W bits; floats round the integer (a register, an integer
    literal) or the decimal's double value once to T."""
    number = sreg_value if text == "s5" else text
    if t in INT_TYPES:
        return int(number, 0) % (1 << width_of(t)) if isinstance(number, str) else number % (1 << width_of(t))
    try:
        number = int(number, 0) if isinstance(number, str) else number
    except ValueError:
        number = float(number)
    return round_to(t, number)


@pytest.mark.parametrize("t,text", [(t, x) for t, xs in SCALARS.items() for x in xs])
def test_vector_scalar_forms(engine, t, text):
    ops = [op for op, types in SCALAR_FORM_TYPES.items() if t in types]
    a = operand_bits(t, 3)
    m = run_source(buf("a", t, a) + mask_setup("M3", t) + f"mov s5, {SREG}\nvld v0.{t}, [a]\n"
                   + "".join(f"v{op} v{1 + i}.{t}, v0.{t}, {text}, p0\n" for i, op in enumerate(ops)), engine)
    x = immediate_bits(t, text, SREG)
    act = active_lanes("M3", t)
    for i, op in enumerate(ops):
        check_lanes(vreg_bits(m, 1 + i, t), [model_binary(op[:-1], t, v, x) if on else 0 for v, on in zip(a, act)],
                    f"v{op}.{t} {text} (bits {x:#x})")


@pytest.mark.parametrize("mask", ["ALL", "M3"])
@pytest.mark.parametrize("op,t", [(op, t) for op, ts in UNARY_TYPES.items() for t in ts])
def test_vector_unary(engine, op, t, mask):
    a = operand_bits(t, 6)
    m = run_source(buf("a", t, a) + mask_setup(mask, t) + f"""
        vld v0.{t}, [a]
        vdup v1.{t}, 7
        {mnemonic(op)} v1.{t}, v0.{t}, p0
        {mnemonic(op)} v0.{t}, v0.{t}, p0
    """, engine)
    act = active_lanes(mask, t)
    expected = [model_unary(op, t, x) if on else 0 for x, on in zip(a, act)]
    check_lanes(vreg_bits(m, 1, t), expected, f"{mnemonic(op)}.{t}")
    check_lanes(vreg_bits(m, 0, t), expected, f"{mnemonic(op)}.{t} into its source")


def test_f32_rounding_and_special_cases(engine):
    # 1 + 2^-24 rounds (ties to even) back to 1; 1 + 3*2^-24 rounds up; the largest float doubled
    # overflows to inf; subnormal * 1 stays subnormal; inf - inf is NaN (canonical); -0 + -0 = -0; -0 + +0 = +0
    a = [0x3F800000, 0x3F800000, 0x7F7FFFFF, 0x00000001, 0x7F800000, 0x80000000, 0x80000000, 0xFFC12345]
    b = [0x33800000, 0x34400000, 0x7F7FFFFF, 0x3F800000, 0x7F800000, 0x80000000, 0x00000000, 0x3F800000]
    m = run_source(buf("a", "f32", a) + buf("b", "f32", b) + """
        mask p0.b32, ALL
        vld v0.f32, [a]
        vld v1.f32, [b]
        vadd v2.f32, v0.f32, v1.f32, p0
        vmul v3.f32, v0.f32, v1.f32, p0
        vsub v4.f32, v0.f32, v1.f32, p0
        vmax v5.f32, v0.f32, v1.f32, p0
        vmin v6.f32, v0.f32, v1.f32, p0
    """, engine)
    add = vreg_bits(m, 2, "f32")[:8]
    assert add == [0x3F800000, 0x3F800002, 0x7F800000, 0x3F800000, 0x7F800000, 0x80000000, 0x00000000, NAN]
    assert vreg_bits(m, 3, "f32")[:4] == [0x33800000, 0x34400000, 0x7F800000, 0x00000001]
    assert vreg_bits(m, 4, "f32")[4] == NAN                       # inf - inf
    assert vreg_bits(m, 5, "f32")[6:8] == [0x00000000, NAN]       # max(-0, +0) = +0; NaN operand
    assert vreg_bits(m, 6, "f32")[6:8] == [0x80000000, NAN]       # min(-0, +0) = -0


# Worked by hand: (instruction, a, b, expected) lanes per type; b is unused by the unary ones.
HAND_CASES = {
    "bf16": [
        ("vadd", 0x3F80, 0x3B80, 0x3F80),      # 1 + 2^-8: half an ulp, tie -> 1 (even mantissa)
        ("vadd", 0x3F81, 0x3B80, 0x3F82),      # (1 + 2^-7) + 2^-8: tie between odd 0x3F81 and even -> 1 + 2^-6
        ("vmul", 0x7F7F, 0x4000, 0x7F80),      # largest * 2 -> inf
        ("vsub", 0x7F80, 0x7F80, 0x7FFF),      # inf - inf -> the hardware NaN
    ],
    "f16": [
        ("vadd", 0x7BFF, 0x4800, 0x7BFF),      # 65504 + 8 = 65512: below the tie 65520 -> 65504
        ("vadd", 0x7BFF, 0x4B80, 0x7BFF),      # 65504 + 15 = 65519: below the tie -> 65504
        ("vadd", 0x7BFF, 0x4C00, 0x7C00),      # 65504 + 16 = 65520: the tie; 65504's mantissa is odd -> 65536 = inf
        ("vmul", 0x0001, 0x3800, 0x0000),      # 2^-24 * 0.5: tie between 0 and 2^-24 -> 0
        ("vmul", 0x0003, 0x3800, 0x0002),      # 3 * 2^-24 * 0.5 = 1.5 * 2^-24: tie -> 2 * 2^-24 (Mul keeps subnormals)
        ("vmul", 0x8001, 0x3800, 0x8000),      # -2^-24 * 0.5 -> -0
        ("vadd", 0x03FF, 0x0001, 0x0400),      # largest subnormal + smallest = smallest normal
        ("vdiv", 0xBC00, 0x0000, 0xFC00),      # -1 / +0 = -inf
        ("vdiv", 0x3C00, 0x8000, 0xFC00),      # 1 / -0 = -inf
        ("vdiv", 0x8000, 0x8000, 0x7FFF),      # -0 / -0 = the hardware NaN
        ("vdiv", 0x3C00, 0x83FF, 0xFC00),      # 1 / (a subnormal): flushed to -0 -> -inf
        ("vdiv", 0x0400, 0x4000, 0x0000),      # 2^-14 / 2 = 2^-15, a subnormal result: flushed to +0
        ("vdiv.nftz", 0x0400, 0x4000, 0x0200),  # the Subnormal mode keeps it
        ("vdiv.nftz", 0x3C00, 0x8200, 0xF800),  # 1 / -2^-15 = -32768
        ("vmax", 0x7C01, 0x3C00, 0x7FFF),      # a signalling NaN operand -> the hardware NaN
        ("vsqrt", 0x4000, 0, 0x3DA8),          # sqrt 2 = 1.0110101000|0010.. -> 0x3DA8
        ("vsqrt", 0x8000, 0, 0x8000),          # sqrt(-0) = -0
        ("vsqrt", 0xBC00, 0, 0x7FFF),          # sqrt(-1) = the hardware NaN
        ("vsqrt", 0x0001, 0, 0x0000),          # sqrt(2^-24): the subnormal input is flushed -> 0
        ("vsqrt.nftz", 0x0001, 0, 0x0C00),     # kept in the Subnormal mode: 2^-12
        ("vexp", 0x4980, 0, 0x7B4F),           # e^11 = 59874.14: ulp 32, 1871.07 ulps -> 59872
        ("vexp", 0x4A00, 0, 0x7C00),           # e^12 = 162754.8 -> inf
        ("vexp", 0xFC00, 0, 0x0000),           # e^-inf = +0
        ("vexp", 0xC900, 0, 0x0000),           # e^-10 = 4.54e-5, below 2^-14: flushed to 0
        ("vexp.nftz", 0xC900, 0, 0x02FA),      # kept: 4.54e-5 / 2^-24 = 761.68 -> 762 = 0x2FA
    ],
    "s8": [("vabs", 0x80, 0, 0x80), ("vneg", 0x80, 0, 0x80)],   # |-128| = -(-128) = -128
    "s16": [("vdiv", 0x8000, 0xFFFF, 0x8000),  # -32768 / -1 = 32768 wraps to -32768
            ("vdiv", 7, 0, 0xFFFF),            # 7 / 0 = -1
            ("vdiv", 0, 0, 0xFFFF),
            ("vdiv", 0xFFF9, 2, 0xFFFD)],      # -7 / 2 = -3 (toward zero)
    "u16": [("vdiv", 7, 0, 0xFFFF), ("vdiv", 0xFFFF, 2, 0x7FFF)],
    # reg-api Div table 8 (Subnormal examples), typed in from the page: the default mode flushes the
    # subnormal operands, the Subnormal mode (vdiv.nftz) keeps them
    "f32": [("vdiv", 0x3F800000, 0x8036A794, 0xFF800000),            # 1 / -5.019e-39: divisor flushed -> -inf
            ("vdiv.nftz", 0x3F800000, 0x8036A794, 0xFF15E301),       # = -1.9923364e+38
            ("vdiv", 0x0014440B, 0x0053E3CF, 0x7FFFFFFF),            # both flushed: 0 / 0 -> the hardware NaN
            ("vdiv.nftz", 0x0014440B, 0x0053E3CF, 0x3E775FBC),       # 1.861e-39 / 7.704e-39 = 0.24157614
            # exp next to a point halfway between two f32 values (ulp 2^-6, 2^-4, 2^26 there), where the
            # engine's vectorised exp defers to libm's: each rounds to the side the exact value lies on
            ("vexp", 0x413F5C00, 0, 0x4818B3BE),    # e^11.9599609375 = 156366.97656249607, 3.9e-12 below the tie -> .96875
            ("vexp", 0x415BA000, 0, 0x495F5CD2),    # e^13.7265625 = 914893.093750055, 5.5e-11 above the tie -> .125
            ("vexp", 0x4209BF00, 0, 0x584D45F1),    # e^34.4365234375 = 902801152540558.4, 113.6 below the tie
            ("vexp", 0xC2B40000, 0, 0x00000000),    # e^-90 = 8.194e-40, subnormal: flushed
            ("vexp.nftz", 0xC2B40000, 0, 0x0008EC28),  # kept: 8.194e-40 / 2^-149 = 584744.28 -> 584744 = 0x8EC28
            ("vexp", 0x42B20000, 0, 0x7F800000)],   # e^89 = 4.49e38, above the largest f32 -> inf
    "s32": [("vdiv", 0xFFFFFFF9, 2, 0xFFFFFFFD),                 # -7 / 2 = -3
            ("vdiv", 7, 0xFFFFFFFE, 0xFFFFFFFD),                 # 7 / -2 = -3
            ("vdiv", 0xFFFFFFF9, 0xFFFFFFFE, 3)],                # -7 / -2 = 3
}


@pytest.mark.parametrize("t", list(HAND_CASES))
def test_hand_worked_cases(engine, t):
    cases = HAND_CASES[t]
    ops = sorted({op for op, *_ in cases})
    binary = {mnemonic(op) for op in BINARY_OPS}
    pad = [0] * (lanes_of(t) - len(cases))
    body = "".join(f"{op} v{2 + i}.{t}, v0.{t}, v1.{t}, p0\n" if op in binary else f"{op} v{2 + i}.{t}, v0.{t}, p0\n"
                   for i, op in enumerate(ops))
    m = run_source(buf("a", t, [a for _, a, _, _ in cases] + pad) + buf("b", t, [b for _, _, b, _ in cases] + pad)
                   + mask_setup("ALL", t) + f"vld v0.{t}, [a]\nvld v1.{t}, [b]\n" + body, engine)
    for lane, (op, a, b, want) in enumerate(cases):
        got = vreg_bits(m, 2 + ops.index(op), t)[lane]
        assert got == want, f"{op}.{t} {a:#x}, {b:#x}: got {got:#x}, expected {want:#x}"
        model_op = op[1:].replace(".", "_")
        model = model_binary(model_op, t, a, b) if op in binary else model_unary(model_op, t, a)
        assert model == want                   # the model agrees with the hand


def round_ties_up(t, x) -> int:
    """x rounded once to T, to nearest with ties toward +inf (vci; the Arange table 38)."""
    nearest = round_to(t, x)
    up = nearest - 1 if nearest >> (width_of(t) - 1) else nearest + 1       # the next value toward +inf
    low, high = decode(t, nearest), decode(t, up)
    if math.isfinite(low) and math.isfinite(high) and low < x and Fraction(high) - Fraction(x) == Fraction(x) - Fraction(low):
        return up
    return nearest


@pytest.mark.parametrize("t", DUPLICATE)
def test_vdup(engine, t):
    w = width_of(t)
    n = lanes_of(t)
    imm = "-2.5" if t in FLOAT_TYPES else str(-3 if INT_TYPES[t][1] else (1 << w) - 3)
    m = run_source(mask_setup("M3", t) + f"""
        mov s4, -3
        vdup v0.{t}, {imm}
        vdup v1.{t}, s4
        vdup v2.{t}, {imm}, p0
    """, engine)
    x = round_to(t, -2.5) if t in FLOAT_TYPES else (-3) % (1 << w)
    r = round_to(t, -3) if t in FLOAT_TYPES else (-3) % (1 << w)
    act = active_lanes("M3", t)
    assert vreg_bits(m, 0, t) == [x] * n
    assert vreg_bits(m, 1, t) == [r] * n
    assert vreg_bits(m, 2, t) == [x if on else 0 for on in act]


@pytest.mark.parametrize("t", SIGNED_FLOAT)
def test_vci(engine, t):
    w = width_of(t)
    n = lanes_of(t)
    imm = "-2.5" if t in FLOAT_TYPES else "-3"
    m = run_source(f"mov s4, -3\nvci v3.{t}, {imm}\nvci v4.{t}, s4\n", engine)
    if t in FLOAT_TYPES:            # X + i exactly, rounded once
        assert vreg_bits(m, 3, t) == [round_ties_up(t, Fraction(-5, 2) + i) for i in range(n)]
        assert vreg_bits(m, 4, t) == [round_ties_up(t, -3 + i) for i in range(n)]
    else:
        assert vreg_bits(m, 3, t) == [(-3 + i) % (1 << w) for i in range(n)]    # wraps through 0
        assert vreg_bits(m, 4, t) == [(-3 + i) % (1 << w) for i in range(n)]


# int64 register values: ties and overflow of the narrow types; 2^60 + 2^36 +- 1 and 2^60 + 2^52 + 1 sit
# beside f32's / bf16's ties at 2^60 + 2^36 / 2^60 + 2^52, which a detour through a double would hit.
REGISTER_VALUES = [0, 3, -3, 65519, 65520, 464, 465, -465, 61439, 61440, 2 ** 24 + 1, 2 ** 60 + 2 ** 36 + 1,
                   2 ** 60 + 2 ** 36 - 1, 2 ** 60 + 2 ** 52 + 1, 2 ** 63 - 1, -2 ** 63]


@pytest.mark.parametrize("t", list(FLOAT_TYPES))
def test_float_operand_from_register(engine, t):
    moves = "".join(f"mov s{i}, {v}\nvdup v{i}.{t}, s{i}\n" for i, v in enumerate(REGISTER_VALUES))
    m = run_source(moves, engine)
    for i, v in enumerate(REGISTER_VALUES):
        assert vreg_bits(m, i, t) == [round_to(t, v)] * lanes_of(t), (t, v)


@pytest.mark.parametrize("t", HALF_FLOAT)
def test_vci_rounding_and_specials(engine, t):
    mx = decode(t, FLOAT_TYPES[t].max_bits)
    m = run_source(f"vci v0.{t}, {mx!r}\nvci v1.{t}, nan\nvci v2.{t}, -inf\nvdup v3.{t}, -inf\n", engine)
    n = lanes_of(t)
    # max + i: f16 65504 + 16 is the tie -> inf (the table: 16 lanes 65504, the rest inf)
    assert vreg_bits(m, 0, t) == [round_ties_up(t, Fraction(mx) + i) for i in range(n)]
    assert vreg_bits(m, 1, t) == [FLOAT_TYPES[t].nan] * n
    assert vreg_bits(m, 2, t) == vreg_bits(m, 3, t) == [round_to(t, -math.inf)] * n


def test_f32_from_register_and_large_vci(engine):
    # int64 rounded once: 2^53 + 1 -> 2^53; vci at 2^24: 2^24 + 1 and 2^24 + 3 are ties, toward +inf
    m = run_source("""
        mov s1, 9007199254740993
        vdup v0.f32, s1
        vci v1.f32, 16777216
    """, engine)
    assert vreg_bits(m, 0, "f32")[0] == 0x5A000000                   # 2^53
    assert vreg_bits(m, 1, "f32")[:4] == [0x4B800000, 0x4B800001, 0x4B800001, 0x4B800002]   # 2^24, +2, +2, +4


@pytest.mark.parametrize("bad", [
    "vdup v0.u8, 256", "vdup v0.s8, -129", "vdup v0.f32, 1e39", "vdup v0.s16, 1.5",
    "vdup v0.f16, 65520", "vdup v0.e4m3, 465", "vdup v0.e5m2, 61440", "vdup v0.bf16, 3.4e38",
    "vexp v0.s32, v1.s32, p0", "vexp v0.u8, v1.u8, p0", "vsqrt v0.u8, v1.u8, p0", "vsqrt v0.s64, v1.s64, p0",
    "vabs v0.u16, v1.u16, p0", "vabs v0.u64, v1.u64, p0", "vneg v0.u8, v1.u8, p0",
    # types no page lists: fp8 arithmetic, bf16 exp/sqrt/abs/neg/div/muls, 8-bit mul/div/muls,
    # unsigned and bf16 vci, 64-bit float operations
    "vadd v0.e4m3, v1.e4m3, v2.e4m3, p0", "vcmp.lt p1, v1.e5m2, v2.e5m2, p0", "vci v0.e4m3, 1",
    "vexp v0.bf16, v1.bf16, p0", "vsqrt v0.bf16, v1.bf16, p0", "vabs v0.bf16, v1.bf16, p0",
    "vneg v0.bf16, v1.bf16, p0", "vdiv v0.bf16, v1.bf16, v2.bf16, p0", "vmuls v0.bf16, v1.bf16, 2.0, p0",
    "vmins v0.bf16, v1.bf16, 2.0, p0", "vmul v0.s8, v1.s8, v2.s8, p0", "vdiv v0.u8, v1.u8, v2.u8, p0",
    "vmuls v0.u8, v1.u8, 3, p0", "vci v0.u16, 1", "vci v0.bf16, 1.0", "vexp v0.s64, v1.s64, p0",
    "vmadd v0.s64, v1.s64, v2.s64, p0", "vsqrt v0.u64, v1.u64, p0", "vexp.nftz v0.bf16, v1.bf16, p0",
    "vdivs v0.s32, v1.s32, 2, p0", "vdivs v0.f32, v1.f32, 2.0, p0"])
def test_assembly_errors(bad):
    from ascasm import AssemblyFailed, assemble
    with pytest.raises(AssemblyFailed):
        assemble(bad, "bad.s")


def test_assembly_accepts():
    from ascasm import assemble
    assemble("vdup v0.f32, inf\nvdup v0.u8, -128\nvdup v0.f32, 3\n"
             "vdup v0.f16, 65519\nvdup v0.e4m3, 464\nvdup v0.e5m2, 61439\nvdup v0.e4m3, nan\n"
             "vabs v0.s8, v1.s8, p0\nvneg v0.f16, v1.f16, p0\nvexp v0.f16, v1.f16, p0\n"
             "vsqrt v0.f32, v1.f32, p0\nvdiv v0.u32, v1.u32, v2.u32, p0\nvmaxs v0.bf16, v1.bf16, 2.0, p0\n"
             "vsel v0.e4m3, v1.e4m3, v2.e4m3, p0\nvsel v0.hif8, v1.hif8, v2.hif8, p0", "ok.s")


COMPARE = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
           "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}


@pytest.mark.parametrize("mask", ["ALL", "M3"])
@pytest.mark.parametrize("t", ARITH)
def test_vcmp(engine, t, mask):
    a = operand_bits(t, 4)
    b = list(a[:len(a) // 2]) + operand_bits(t, 5)[len(a) // 2:]     # half equal lanes
    b = b[1:] + b[:1] if t in FLOAT_TYPES else b                      # floats: NaN against numbers, -0 vs +0
    m = run_source(buf("a", t, a) + buf("b", t, b) + mask_setup(mask, t) + f"vld v0.{t}, [a]\nvld v1.{t}, [b]\n"
                   + "".join(f"vcmp.{cc} p{1 + i}, v0.{t}, v1.{t}, p0\n" for i, cc in enumerate(COMPARE)), engine)
    w8 = width_of(t) // 8
    act = active_lanes(mask, t)
    for i, (cc, holds) in enumerate(COMPARE.items()):
        expected = [False] * 256
        for lane, (x, y, on) in enumerate(zip(a, b, act)):
            expected[lane * w8] = on and holds(value(t, x), value(t, y))
        got = np.unpackbits(m.state.preg[1 + i], bitorder="little").astype(bool).tolist()
        assert got == expected, f"vcmp.{cc}.{t}: first bad bit {[g == e for g, e in zip(got, expected)].index(False)}"
        assert m.state.preg_set[1 + i] == 1


def test_vsel_raw_bits(engine):
    a, b = float_boundaries("f32") * 4, [0x12345678 + i for i in range(64)]
    a = a[:64]
    m = run_source(buf("a", "f32", a) + buf("b", "f32", b) + """
        mask p0.b32, M4
        vld v0.f32, [a]
        vld v1.f32, [b]
        vsel v0.f32, v0.f32, v1.f32, p0
    """, engine)
    act = [i % 4 == 0 for i in range(64)]             # M4: every fourth lane
    assert vreg_bits(m, 0, "f32") == [x if on else y for x, y, on in zip(a, b, act)]


@pytest.mark.parametrize("bw", [8, 16, 32])
def test_pcnt(engine, bw):
    bits = np.random.default_rng(bw).integers(0, 256, 32, dtype=np.uint8)
    m = run_source(f"""
        .ub raw u8[32] = [{', '.join(map(str, bits))}]
        vld p1, [raw]
        pcnt s1, p1.b{bw}
    """, engine)
    flat = np.unpackbits(bits, bitorder="little")
    assert m.state.sreg[1] == int(flat[::bw // 8].sum())


@pytest.mark.parametrize("line", ["pcnt s1, p3.b8", "vadd v0.s8, v1.s8, v2.s8, p3", "vsel v0.u8, v1.u8, v2.u8, p3",
                                  "vcmp.eq p0, v1.u8, v2.u8, p3", "vdup v0.u8, 1, p3", "vdiv v0.s16, v1.s16, v2.s16, p3",
                                  "vsqrt v0.f16, v1.f16, p3", "vabs v0.s32, v1.s32, p3",
                                  "vadd.merge v0.u16, v1.u16, v2.u16, p3"])
def test_unset_mask_faults(engine, line):
    m = run_source(line, engine)
    assert m.stop_name == "MASK_UNSET"
