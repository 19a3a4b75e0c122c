"""Exact rounding of numbers to ascasm's floating-point element types, for the assembler (immediates,
buffer INIT values) and the reference executor (arithmetic results). The Cython engine has its own
bit-level code; tests prove both against ml_dtypes and an independent model.

Why not `float64.astype(T)`: ml_dtypes before 0.7 narrows float64 to bfloat16 and the fp8 types through
float32, which rounds twice (1 + 2^-8 + 2^-30 becomes 1.0 in bf16 instead of 1.0078125), and the
project accepts any ml_dtypes >= 0.4. Here a value is
scaled by a power of two so that T's last mantissa bit has weight 1, rounded to an integer with ties
to even, and scaled back; the result is exactly representable in T, so the final cast is exact.
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from .isa.dtypes import ElemType

# The hardware NaN of each float type, the result of any arithmetic that produces a NaN: positive, every
# exponent and mantissa bit set. The pages show f32's (0x7FFFFFFF, Reg::Div table 8); e4m3's only NaN
# is of that form too; the rule is extended to the other types (docs/semantics.md "Floating point").
CANONICAL_NAN_BITS = {"f16": 0x7FFF, "bf16": 0x7FFF, "f32": 0x7FFFFFFF, "e4m3": 0x7F, "e5m2": 0x7F}


def canonical_nan(etype: ElemType) -> np.ndarray:
    """T's canonical quiet NaN as a 0-d array of T."""
    return np.array(CANONICAL_NAN_BITS[etype.name], etype.bits).view(etype.np_dtype)


def exact_float64(value: int | float) -> float:
    """A Python number as a float64 that rounds to every narrower type as the number itself does.
    Integers beyond 2^53 are rounded to odd at 53 bits, which keeps the information a later
    round-to-nearest-even to at most 51 bits needs (every ascasm float type has at most 24)."""
    if isinstance(value, float) or abs(value) < (1 << 53):
        return float(value)
    magnitude = abs(value)
    if magnitude.bit_length() > 1024:                 # beyond every double: overflows every type
        return math.inf if value > 0 else -math.inf
    shift = magnitude.bit_length() - 53
    kept = (magnitude >> shift) | (1 if magnitude & ((1 << shift) - 1) else 0)
    return float(kept) * 2.0 ** shift * (1 if value > 0 else -1)


def _round_to_odd(x: np.ndarray) -> np.ndarray:
    """Truncate; if that lost anything and left an even integer, step one away from zero (to odd)."""
    t = np.trunc(x)
    return np.where((t != x) & (t % 2 == 0), t + np.sign(x), t)


# Integer rounding of the scaled value by rounding mode (the conversions' suffixes, the C API's rounding-mode page).
ROUNDERS = {"rint": np.round, "round": lambda x: np.where(np.abs(x) >= 2.0 ** 52, x,       # integers already
                                                         np.copysign(np.floor(np.abs(x) + 0.5), x)),
            "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "odd": _round_to_odd}


def round_to_type(values, etype: ElemType, mode: str = "rint") -> np.ndarray:
    """float64 values rounded once to float type T: to nearest with ties to even, or by another
    rounding mode of ROUNDERS. Overflow gives inf,
    or NaN for e4m3 (which has no inf; ml_dtypes' rule). Every NaN result is T's canonical NaN."""
    wide = np.asarray(values, np.float64)
    with np.errstate(over="ignore", invalid="ignore"):     # overflow to inf is the rule; NaNs pass through
        if etype.name == "f32" and mode == "rint":     # numpy's float64 -> float32 cast rounds once
            narrow = wide.astype(np.float32)
        else:
            info = ml_dtypes.finfo(etype.np_dtype)      # (numpy's finfo for float32)
            finite = np.isfinite(wide) & (wide != 0)
            _, exponent = np.frexp(np.where(finite, wide, 1.0))        # |x| = f * 2^exponent, f in [0.5, 1)
            quantum = np.maximum(exponent - 1, info.minexp) - info.nmant   # weight of T's last mantissa bit
            rounded = np.where(finite, np.ldexp(ROUNDERS[mode](np.ldexp(wide, -quantum)), quantum), wide)
            narrow = rounded.astype(etype.np_dtype)   # exact: rounded is in T, or beyond its largest value
        nan = np.isnan(narrow.astype(np.float64))
    return np.where(nan, canonical_nan(etype), narrow).astype(etype.np_dtype)
