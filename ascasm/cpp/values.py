"""Compile-time values of the C++ front end and C's arithmetic on them: the constant evaluator's
results (Const), enum members, and the conversions every pass applies to constants."""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import floats
from ..isa import dtypes
from .clang import CppError
from .cpptypes import BOOL, S32, CType


@dataclass(frozen=True)
class EnumValue:
    enum: str
    member: str
    value: int

    def __str__(self):
        return self.member


@dataclass
class Const:
    value: object          # int, float, bool, EnumValue, dict (a trait struct), CType (a type argument)
    ctype: CType | None


class ConstReturn(Exception):
    """A `return` whose value is a constant, outside run-time control flow: unwinds the function."""


class NotConstant(Exception):
    """Raised in constant-only mode when an expression would need an instruction."""


def wrap_int(value: int, ctype: CType) -> int:
    """`value` wrapped to an integer type's range."""
    if ctype.kind == "bool":
        return int(bool(value))
    bits = 8 * ctype.width
    value &= (1 << bits) - 1
    if ctype.signed and value >> (bits - 1):
        value -= 1 << bits
    return value


def round_to(x: float, ctype: CType) -> float:
    """A float constant rounded to its C type (float, half, bfloat16_t), as C computes it."""
    return float(floats.round_to_type(np.array([x]), dtypes.BY_SPELLING[ctype.etype])[0])


def bracket(x: float, ctype: CType) -> tuple[float, float]:
    """The greatest value of float type ctype at most x and the least at least x (equal when x is one of
    its values; NaN, NaN for a NaN). Past the finite range they are the largest finite value and inf."""
    etype = dtypes.BY_SPELLING[ctype.etype]
    below, above = (float(floats.round_to_type(np.array([x]), etype, mode)[0]) for mode in ("floor", "ceil"))
    largest = float(dtypes.finfo(etype).max)
    if math.isfinite(x):
        below, above = min(below, largest), max(above, -largest)
    return below, above


def common_type(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions for two integer types (after promotion to int)."""
    def promote(t):
        return S32 if t.kind == "bool" or t.width < 4 else t
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.width == b.width:
        return a if not a.signed else b          # the unsigned one
    wide, narrow = (a, b) if a.width > b.width else (b, a)
    return wide


def fold_compare(op, x, y) -> bool:
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def number(value: Const):
    """A constant's number (an enum member's value, a bool as 0 or 1)."""
    v = value.value
    if isinstance(v, EnumValue):
        return v.value
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, (int, float)):
        return v
    raise CppError(f"expected a number, got {v!r}")


def truth(value: Const) -> bool:
    return bool(number(value))


def fold_unary(op: str, value: Const) -> Const:
    """`!x`, `+x`, `-x`, `~x` of a constant, in its promoted type."""
    if op == "!":
        return Const(int(not truth(value)), BOOL)
    if op == "+":
        return value
    n = number(value)
    if isinstance(n, float):
        return Const(-n, value.ctype)
    ctype = common_type(value.ctype, value.ctype)
    return Const(wrap_int(-n if op == "-" else ~n, ctype), ctype)
