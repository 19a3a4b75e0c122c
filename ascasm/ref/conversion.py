"""Conversions between element types, rounding to integral values, and the CTRL special register that governs
saturation (docs/semantics.md "Conversions")."""
from __future__ import annotations

import math

import numpy as np

from ..isa import dtypes

from . import hif8
from .. import floats
from ..isa.table import CONVERSIONS
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


def conversion_saturates(m: Machine, keyword: bool, src, dst) -> bool:
    """Whether a vcvt saturates: its `sat` keyword, unless CTRL[60] makes the mode global for the pairs
    whose page has _sat forms; then CTRL[48] (float destination) or CTRL[59] (integer destination) = 0
    saturates."""
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
