"""HiFloat8 for the reference executor: the 256 values and the half/float -> hif8 rounding.

The format is that of the white paper "Ascend HiFloat8 Format for Deep Learning" (Luo et al., 2024,
arXiv 2409.16626); the rounding is asc_half2hif8's and asc_float2hif8's, step by step as Reg::Cast's
pseudo-code "half转hifloat8_t转换规则" and "float转hifloat8_t转换规则" (docs/semantics.md "HiFloat8"). Byte s|rest: a prefix code (the dot field)
at the top of `rest` says how many exponent bits follow:

    rest      dot   exponent E                           mantissa bits
    0000 mmm  DML   m - 23 (m = 1..7; m = 0: zero, or NaN when s = 1)  none (the value is 2^E)
    0001 mmm  0     0                                    3
    001e mmm  1     +-1                                  3
    01ea mmm  2     +-(2 + a)                            3
    10ea amm  3     +-(4 + aa)                           2
    11ea aam  4     +-(8 + aaa)                          1

e is the exponent's sign (1: negative), the magnitude's leading 1 is implicit. 0x6F / 0xEF (E = +15
with mantissa 1) are +-inf, so the largest finite value is 2^15 (0x6E).
"""
from __future__ import annotations

import math

import numpy as np

NAN, INF, LARGEST = 0x80, 0x6F, 0x6E       # LARGEST: 2^15, what saturation gives for overflow and inf


def _fields(rest: int) -> tuple[int, int, int]:
    """(E, mantissa, mantissa bits) of the low 7 bits of a finite, non-zero hif8."""
    if rest < 0x08:                                   # denormal: no mantissa, the field is the exponent
        return rest - 23, 0, 0
    if rest < 0x10:
        return 0, rest & 7, 3
    sign = -1 if rest & (0x08 if rest < 0x20 else 0x10) else 1
    if rest < 0x20:
        return sign, rest & 7, 3
    if rest < 0x40:
        return sign * (2 + ((rest >> 3) & 1)), rest & 7, 3
    if rest < 0x60:
        return sign * (4 + ((rest >> 2) & 3)), rest & 3, 2
    return sign * (8 + ((rest >> 1) & 7)), rest & 1, 1


def _value(bits: int) -> float:
    rest, negative = bits & 0x7F, bits >= 0x80
    if rest == 0:
        return math.nan if negative else 0.0
    if rest == INF:
        return -math.inf if negative else math.inf
    exponent, mantissa, width = _fields(rest)
    value = math.ldexp(1 + mantissa / (1 << width), exponent)
    return -value if negative else value


VALUES = np.array([_value(b) for b in range(256)], np.float64)   # every hif8 byte's value (float64 is exact)


def mantissa_bits(exponent: int) -> int:
    """How many mantissa bits hif8 keeps for a value 2^exponent * 1.f; -1 below the denormals, where
    the nearest values are 0 and 2^-22."""
    size = abs(exponent)
    if exponent < -15:
        return 0 if exponent >= -22 else -1
    return 3 if size <= 3 else 2 if size <= 7 else 1


def _code(exponent: int, mantissa: int) -> int:
    """The low 7 bits encoding 2^exponent * (1 + mantissa/2^width) (inverse of _fields)."""
    if exponent < -15:
        return exponent + 23
    size, negative = abs(exponent), exponent < 0
    if size == 0:
        return 0x08 | mantissa
    if size == 1:
        return 0x10 | negative << 3 | mantissa
    if size <= 3:
        return 0x20 | negative << 4 | (size - 2) << 3 | mantissa
    if size <= 7:
        return 0x40 | negative << 4 | (size - 4) << 2 | mantissa
    return 0x60 | negative << 4 | (size - 8) << 1 | mantissa


# The source formats: (mantissa bits, exponent bits, the HYBRID rule's fraction bits: how many bits below
# hif8's last kept one it compares with the threshold)
SOURCES = {"f16": (10, 5, 2), "f32": (23, 8, 14)}


def from_float(bits: int, source: str, mode: str, sat: bool) -> int:
    """The hif8 byte of a half's or a float's bit pattern, rounded by `mode` ("round": ties away from
    zero; "hybrid": the HYBRID rule of Reg::Cast's pseudo-code). Without sat: NaN -> NaN, +-inf and
    overflow -> +-inf; with sat: NaN -> 0, +-inf and overflow -> +-2^15."""
    width, exponent_bits, fraction_bits = SOURCES[source]          # width: the stored mantissa bits
    bias = (1 << (exponent_bits - 1)) - 1
    sign = bits >> (width + exponent_bits) and 0x80
    field, fraction = (bits >> width) & ((1 << exponent_bits) - 1), bits & ((1 << width) - 1)
    if field == (1 << exponent_bits) - 1:
        if fraction:
            return 0 if sat else NAN
        return sign | (LARGEST if sat else INF)
    if field:                                         # the value is significand * 2^(exponent - width)
        significand, exponent = fraction | 1 << width, field - bias
    elif fraction:                                    # a subnormal, normalised
        top = fraction.bit_length() - 1
        significand, exponent = fraction << (width - top), top - width - bias + 1
    else:
        return 0                                      # +-0: hif8 has one zero
    if exponent < -23:                                # below half of hif8's smallest value 2^-22
        return 0
    kept = mantissa_bits(exponent)
    drop = width - kept                               # the bits below hif8's last kept bit
    units, rest = significand >> drop, significand & ((1 << drop) - 1)
    if mode == "hybrid" and abs(exponent) > 3:
        # {the source's lowest fraction_bits - 1 bits, 1} against as many bits below the last kept one
        threshold = (bits & ((1 << (fraction_bits - 1)) - 1)) << 1 | 1
        up = rest >> (drop - fraction_bits) >= threshold
    else:                                             # ties away (and HYBRID where 3 bits are kept)
        up = rest >= 1 << (drop - 1)
    units += up
    if units == 0:
        return 0
    top = units.bit_length() - 1                      # a carry makes units a power of two
    exponent, mantissa = exponent - kept + top, units - (1 << top)
    if exponent > 15 or (exponent == 15 and mantissa):
        return sign | (LARGEST if sat else INF)
    return sign | _code(exponent, mantissa)


def convert_lanes(values: np.ndarray, src, dst, mode: str, sat: bool) -> np.ndarray:
    """Lanes of a conversion with hif8 on one side: f16 or f32 -> hif8 by `mode`, hif8 -> f16 or f32
    exactly (NaN gives the hardware NaN, all ones but the sign, as every conversion)."""
    if dst.name == "hif8":
        words = values.view(src.bits).tolist()
        return np.array([from_float(w, src.name, mode, sat) for w in words], np.uint8)
    wide = VALUES[values.view(np.uint8)]
    out = wide.astype(dst.np_dtype).view(dst.bits)    # exact: every hif8 value is a half
    return np.where(np.isnan(wide), (1 << (8 * dst.width - 1)) - 1, out).astype(dst.bits).view(dst.np_dtype)
