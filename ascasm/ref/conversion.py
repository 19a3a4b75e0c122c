"""Conversions between element types, rounding to integral values, and the CTRL special register that governs
saturation (docs/semantics.md "Conversions")."""
from __future__ import annotations

import math

import numpy as np

from ..isa import dtypes

from . import hif8
from .. import floats
from ..isa.table import ALWAYS_SATURATING, CONVERSIONS, NIBBLE_PAIRS
from ..program import Insn
from ..state import CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN
from .compute import libm_exp
from .machine import Machine
from .values import ctrl_bit, typed_value, widened, zeroed


def _rounds_overflow_to_inf(mode: str, negative: np.ndarray) -> np.ndarray:
    """Whether a finite value beyond T's range rounds to inf (IEEE 754): the modes rounding away from
    zero in its direction do; truncation, round-to-odd and the other direction stop at the largest
    finite value."""
    if mode in ("rint", "round"):
        return np.ones_like(negative)
    return {"ceil": ~negative, "floor": negative}.get(mode, np.zeros_like(negative))


def integer_lanes(values: np.ndarray, src, dst, mode: str, sat: bool) -> np.ndarray:
    """Lanes converted to integer type dst: a float is rounded to an integer by `mode` (NaN gives 0,
    +-inf dst's max / min); a value beyond dst's range saturates (sat) or keeps its low bits."""
    bits = 8 * dst.width
    lowest, highest = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if dst.kind == "int" else (0, (1 << bits) - 1)
    results = []
    for v in (widened(values) if src.kind == "float" else values).tolist():
        if isinstance(v, float) and math.isnan(v):
            r = 0
        elif isinstance(v, float) and math.isinf(v):
            r = highest if v > 0 else lowest
        else:
            r = int(floats.ROUNDERS[mode](np.float64(v))) if isinstance(v, float) else int(v)   # exact
            r = min(max(r, lowest), highest) if sat else r
        results.append(r % (1 << bits))
    return np.array(results, dtype=np.uint64).astype(dst.bits).view(dst.np_dtype)


def convert_lanes(values: np.ndarray, src, dst, mode: str, sat: bool, keep_nan: bool = False) -> np.ndarray:
    """Lanes of type src converted to type dst, rounded by `mode` ("exact": no rounding needed).
    To a float, without sat: overflow as IEEE 754 per mode, +-inf stays, NaN gives dst's canonical NaN
    (e4m3, without inf, gives NaN for both); with sat: overflow and +-inf give +-max, NaN gives +0.
    Integer sources are exact in float64 (beyond 2^53 rounded to odd, which keeps every later rounding
    to at most 51 bits right); an integer widening always saturates (Reg::Cast). keep_nan (CTRL[50]): NaN
    stays NaN under sat."""
    if "hif8" in (src.name, dst.name):
        return hif8.convert_lanes(values, src, dst, mode, sat)
    if "e8m0" in (src.name, dst.name):
        return e8m0_lanes(values, src, dst)
    if src.kind != "float" and dst.kind != "float":
        sat = sat or dst.width > src.width
    if dst.kind != "float":
        return integer_lanes(values, src, dst, "rint" if mode == "exact" else mode, sat)
    if src.kind == "float":
        wide = widened(values)
    else:
        wide = np.array([floats.exact_float64(int(v)) for v in values.tolist()], np.float64)
    with np.errstate(invalid="ignore"):
        out = floats.round_to_type(wide, dst, "rint" if mode == "exact" else mode).astype(np.float64)
    largest = np.copysign(float(dtypes.finfo(dst).max), wide)
    overflowed = np.isfinite(wide) & ~np.isfinite(out)
    if sat:
        out = np.where(np.isnan(wide) & ~keep_nan, 0.0, np.where(overflowed | np.isinf(wide), largest, out))
    else:
        out = np.where(overflowed & ~_rounds_overflow_to_inf(mode, np.signbit(wide)), largest, out)
    return floats.round_to_type(out, dst)          # exact: out holds values of dst (or inf, NaN)


# The 4-bit values: s4x2 holds two's-complement integers -8..7; the fp4 formats have a sign bit and these
# eight magnitudes (exponent bias 1, subnormals at field 0), which are also their codes' order
FP4_MAGNITUDES = {"e2m1x2": (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0),
                  "e1m2x2": (0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75)}
FP4_MANTISSA_BITS = {"e2m1x2": 1, "e1m2x2": 2}


def nibble_values(nibbles: np.ndarray, etype) -> np.ndarray:
    """The values of 4-bit codes of a pair type: integers for s4x2, float64 for fp4."""
    nibbles = nibbles.astype(np.int64)
    if etype.name == "s4x2":
        return np.where(nibbles >= 8, nibbles - 16, nibbles)
    magnitude = np.array(FP4_MAGNITUDES[etype.name])[nibbles & 7]
    return np.where(nibbles & 8, -magnitude, magnitude)


def _fp4_code(v: float, name: str, mode: str) -> int:
    """A value rounded to fp4 by `mode` in fp4's own steps (2^(e - m) in the binade 2^e, e >= 0: the
    subnormals share binade 0's step). Beyond the largest value, and +-inf, give +-max; NaN gives 0;
    the sign is kept, a negative value rounding to zero included."""
    magnitudes = FP4_MAGNITUDES[name]
    if math.isnan(v):
        return 0
    sign = 8 if math.copysign(1.0, v) < 0 else 0
    if math.isinf(v):
        return sign | 7
    step = 2.0 ** (max(math.frexp(v)[1] - 1, 0) - FP4_MANTISSA_BITS[name]) if v else 1.0
    magnitude = min(abs(float(floats.ROUNDERS[mode](np.float64(v / step)))) * step, magnitudes[-1])
    return sign | magnitudes.index(magnitude)


E8M0_NAN, E8M0_LARGEST = 0xFF, 0xFE


def e8m0_lanes(values: np.ndarray, src, dst) -> np.ndarray:
    """bf16 <-> e8m0 (2^(field - 127), 0xFF NaN). To e8m0: |x| rounded down to a power of two, kept
    within 2^-127 .. 2^127 (so 0 and the subnormals give 2^-127), +-inf 2^127, NaN NaN; from e8m0
    exactly."""
    if dst.name == "e8m0":
        wide = widened(values)
        finite = np.isfinite(wide) & (wide != 0)
        exponent = np.frexp(np.where(finite, wide, 1.0))[1] - 1          # |x| in [2^exponent, 2^(exponent+1))
        field = np.where(finite, np.clip(exponent + 127, 0, E8M0_LARGEST), 0)
        field = np.where(np.isinf(wide), E8M0_LARGEST, np.where(np.isnan(wide), E8M0_NAN, field))
        return field.astype(np.uint8).view(dst.np_dtype)
    field = values.view(np.uint8).astype(np.int64)
    return floats.round_to_type(np.where(field == E8M0_NAN, np.nan, np.ldexp(1.0, field - 127)), dst)


def nibble_codes(values: np.ndarray, src, dst, mode: str, sat: bool) -> np.ndarray:
    """b16 lanes converted to the 4-bit codes of pair type dst. To s4x2 as to any integer (the rounded
    value's low 4 bits, or -8..7 with sat; NaN 0, +-inf 7 / -8); to fp4 always saturating."""
    if dst.name in FP4_MAGNITUDES:
        return np.array([_fp4_code(v, dst.name, mode) for v in widened(values).tolist()], np.uint8)
    as_int16 = integer_lanes(values, src, dtypes.BY_SPELLING["s16"], mode, sat).astype(np.int64)
    if src.kind == "float":           # inf became int16's max / min: int4's, in either mode
        infinite = np.isinf(widened(values))
        as_int16 = np.where(infinite, np.clip(as_int16, -8, 7), as_int16)
    return (np.clip(as_int16, -8, 7) if sat else as_int16).astype(np.uint8) & 0xF


def convert_nibble_pairs(m: Machine, insn: Insn, dst, src, part: int, sat: bool) -> np.ndarray:
    """The bytes of a vcvt with a 4-bit pair type on one side. Narrowing: b16 lanes 2p and 2p + 1 become
    the low and high half of byte 4p + part, the pair active when lane 2p is; widening: byte 4p + part
    (active by its own mask bit, at b8) gives lanes 2p and 2p + 1. Every other lane 0."""
    out = np.zeros(256, np.uint8)
    if dst.name in NIBBLE_PAIRS:
        active = m.active_lanes(insn.operand("pM"), src.width)[:src.lanes][0::2]
        codes = nibble_codes(m.lanes(insn.operand("vS"), src).copy(), src, dst, insn.spec.sub, sat)
        out[part::4] = zeroed(active, codes[0::2] | codes[1::2] << 4)
        return out
    active = np.repeat(m.active_lanes(insn.operand("pM"), 1)[:256][part::4], 2)
    picked = m.lanes(insn.operand("vS"), src).view(np.uint8)[part::4]
    values = nibble_values(np.stack((picked & 0xF, picked >> 4), axis=1).reshape(-1), src)
    converted = values.astype(dst.np_dtype) if dst.kind == "int" else floats.round_to_type(values, dst)   # exact
    return zeroed(active, converted).view(np.uint8)


def conversion_saturates(m: Machine, keyword: bool, src, dst) -> bool:
    """Whether a vcvt saturates: its `sat` keyword, unless CTRL[60] makes the mode global for the pairs
    whose page has _sat forms; then CTRL[48] (float destination) or CTRL[59] (integer destination) = 0
    saturates. A destination without inf and NaN always saturates."""
    if dst.name in ALWAYS_SATURATING:
        return True
    if not ctrl_bit(m, CTRL_GLOBAL_SAT) or not CONVERSIONS[(dst.name, src.name)].sat:
        return keyword
    return not ctrl_bit(m, CTRL_FLOAT_NO_SAT if dst.kind == "float" or dst.name == "hif8" else CTRL_INT_NO_SAT)


def spr_set_ctrl(m: Machine, insn: Insn):
    # sprset.ctrl X  -- CTRL = X, all 64 bits
    m.state.ctrlreg[0] = m.value(insn.operand("X")) & ((1 << 64) - 1)


PART_NUMBER = {"even": 0, "odd": 1, "part0": 0, "part1": 1, "part2": 2, "part3": 3}


def vcvt(m: Machine, insn: Insn):
    # vcvt[.MODE] vD.T, vS.U, pM[, sat][, PART]  -- the mask governs the source lanes; all else 0
    dst, src = insn.types
    ratio = max(dst.width, src.width) // min(dst.width, src.width)
    part = PART_NUMBER[insn.operand("PART") or "even"]
    active = m.active_lanes(insn.operand("pM"), src.width)[:src.lanes]
    values = m.lanes(insn.operand("vS"), src).copy()
    out = np.zeros(dst.lanes, dst.np_dtype)
    sat = conversion_saturates(m, insn.operand("SAT") is not None, src, dst)
    if dst.name in NIBBLE_PAIRS or src.name in NIBBLE_PAIRS:
        m.lanes(insn.operand("vD"), dtypes.BY_SPELLING["u8"])[:] = convert_nibble_pairs(m, insn, dst, src, part, sat)
        return
    keep_nan = sat and dst.name in ("e4m3", "e5m2") and ctrl_bit(m, CTRL_SAT_KEEPS_NAN)
    if dst.width < src.width:                 # narrowing: source lane i -> destination lane ratio*i + part
        converted = convert_lanes(values, src, dst, insn.spec.sub, sat, keep_nan)
        out[part::ratio] = zeroed(active, converted)
    else:                                     # widening (or same width): destination lane i <- source lane ratio*i + part
        picked = slice(part, None, ratio)
        converted = convert_lanes(values[picked], src, dst, insn.spec.sub, sat, keep_nan)
        out[:] = zeroed(active[picked], converted)
    m.lanes(insn.operand("vD"), dst)[:] = out


def vtrc(m: Machine, insn: Insn):
    # vtrc.MODE vD.T, vS.T, pM  -- rounded to an integral value of T (asc_rint ... asc_trunc); zeroing
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    wide = widened(m.lanes(insn.operand("vS"), etype))
    with np.errstate(invalid="ignore"):                       # NaN lanes stay NaN
        integral = floats.ROUNDERS[insn.spec.sub](wide)      # exact in float64; signs of zero kept
    m.lanes(insn.operand("vD"), etype)[:] = zeroed(active, floats.round_to_type(integral, etype))


def vexpsub(m: Machine, insn: Insn):
    # vexpsub vD.f32, vA.U, vB.U, pM[, PART]  -- lane i = e^(vA[j] - vB[j]), j = ratio*i + part (the mask at
    # U's width); the difference rounded to f32, exp in double rounded once to f32; inactive lanes 0
    dst, src = insn.types
    ratio = dst.width // src.width
    part = PART_NUMBER[insn.operand("PART") or "even"]
    active = m.active_lanes(insn.operand("pM"), src.width)[:src.lanes][part::ratio]
    with np.errstate(all="ignore"):                            # NaN and inf lanes stay what they are
        a, b = (widened(m.lanes(insn.operand(name), src))[part::ratio].astype(np.float32) for name in ("vA", "vB"))
        difference = (a - b).astype(np.float64)                 # numpy's float32 subtraction: rounded once
    result = floats.round_to_type(np.array([libm_exp(x) for x in difference.tolist()]), dst)
    m.lanes(insn.operand("vD"), dst)[:] = zeroed(active, result)


def vmulscvt(m: Machine, insn: Insn):
    # vmulscvt vD.f16, vA.f32, X.f32, pM[, PART]  -- active lane i: vA * X rounded to f32, then converted as
    # vcvt.round -> lane 2i + part of vD; every other lane 0
    dst, src = insn.types
    part = PART_NUMBER[insn.operand("PART") or "even"]
    active = m.active_lanes(insn.operand("pM"), src.width)[:src.lanes]
    scalar = float(widened(typed_value(m, insn.operand("X"), src))[0])
    with np.errstate(all="ignore"):
        product = floats.round_to_type(widened(m.lanes(insn.operand("vA"), src)) * scalar, src)
    converted = convert_lanes(product, src, dst, insn.spec.sub, conversion_saturates(m, False, src, dst))
    out = np.zeros(dst.lanes, dst.np_dtype)
    out[part::2] = zeroed(active, converted)
    m.lanes(insn.operand("vD"), dst)[:] = out
