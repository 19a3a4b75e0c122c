"""The assembler's domain of the evaluator (ascasm/expr/evaluate.py): constant expressions of the
source text, made of numbers, names, + - * / // % & | ^ << >> and unary signs.

The same domain serves operands (Python numbers) and buffer INIT expressions, where the element
index `i` is a numpy array, so every element is computed exactly and range-checked when converted to
the buffer's type. Integer arrays are int64 while an operation's result provably fits (bounds from
the operands' least and greatest values, in Python integers): numpy speed, no wrap-around; otherwise
they become arrays of Python integers (dtype object: exact, about 100 times slower), whose total work
is bounded per expression (MAX_WIDE_ELEMENT_OPS), as is the work on arrays of any kind
(MAX_ELEMENT_OPS: a 64 KB line of operations on 65,536 elements took 28 s). Nothing is ever `eval`ed.
Evaluation is iterative, so very long expressions cannot exhaust Python's recursion limit, and every
intermediate value is bounded (ascasm/limits.py): an integer wider than MAX_INT_BITS or a float that
overflows is an error, so a few lines cannot make numbers of gigabytes.
"""
from __future__ import annotations

import math
import operator
from functools import lru_cache

import numpy as np

from ..limits import MAX_ELEMENT_OPS, MAX_INT_BITS, MAX_WIDE_ELEMENT_OPS, shown
from . import evaluate as walk
from .tree import ExprError

MAX_SHIFT = 128     # larger shift counts cannot produce a value that fits any type
FLOAT_MAX = float(np.finfo(np.float64).max)
# Decimal digits of the largest integer allowed, checked before converting (Python refuses to
# convert more than 4,300 digits at all).
_MAX_DECIMAL_DIGITS = len(str(1 << MAX_INT_BITS))


def number_value(token) -> int | float:
    """The value of a NUMBER token (grammar/ascasm.lark: hex, binary, decimal, float)."""
    value, problem = parse_number(token.value)
    if problem:
        raise ExprError(problem, token)
    return value


@lru_cache(maxsize=4096)
def parse_number(text: str) -> tuple[int | float, str]:
    """(value, "") or (0, why the number is refused): malformed, an integer wider than MAX_INT_BITS
    (checked before converting: Python refuses more than 4,300 digits), or a float beyond the double
    range. Shared with the debugger's expressions."""
    digits = text.replace("_", "").lower()
    too_wide = (0, f"number {shown(text)} is wider than {MAX_INT_BITS} bits")
    try:
        if digits.startswith(("0x", "0b")):
            base, bits_per_digit = (16, 4) if digits[1] == "x" else (2, 1)
            if len(digits[2:].lstrip("0")) * bits_per_digit > MAX_INT_BITS + bits_per_digit:
                return too_wide
            value = int(digits[2:], base)
        elif any(c in digits for c in ".e"):
            value = float(digits)
            if math.isinf(value):
                return 0, f"number {shown(text)} overflows: the largest float is {FLOAT_MAX!r}"
            return value, ""
        else:
            if len(digits.lstrip("0")) > _MAX_DECIMAL_DIGITS:
                return too_wide
            value = int(digits)
    except ValueError:
        return 0, f"malformed number {shown(text)!r}"
    return too_wide if value.bit_length() > MAX_INT_BITS else (value, "")


_BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "&": operator.and_, "|": operator.or_,
    "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
}
_INTEGER_ONLY = {"&", "|", "^", "<<", ">>"}
_DIVISIONS = {"/", "//", "%"}


def index_array(count: int) -> np.ndarray:
    """The element index `i` of an INIT expression over `count` elements."""
    return np.arange(count, dtype=np.int64)


def evaluate(root, resolve_name):
    """Value of a constant expression. `resolve_name(token)` gives a name's value or raises ExprError."""
    return walk.evaluate(root, Constants(resolve_name))


_KIND_WORDS = {"address": "an address [...]", "list": "a list [...]", "index": "indexing [...]",
               "STRING": "a string"}


class Constants:
    """Exact numbers (and arrays of them), with the work they may cost bounded per expression."""

    def __init__(self, resolve_name):
        self.resolve_name = resolve_name
        self.budget = [MAX_WIDE_ELEMENT_OPS, MAX_ELEMENT_OPS]     # element operations left: on Python integers, on any

    def enter(self, node):
        kind = node.type
        if kind == "call":
            raise ExprError(f"'{node.function.value}(...)' is not allowed here", node)
        if kind == "unary" and node.op in ("~", "not") or kind == "binary" and node.op not in _BINARY:
            raise ExprError(f"'{node.op}' is not allowed in a constant expression", node)
        if kind not in ("binary", "unary"):
            raise ExprError(f"{_KIND_WORDS.get(kind, kind)} is not allowed in an expression", node)

    def leaf(self, token):
        if token.type == "NUMBER":
            return number_value(token)
        if token.type == "NAME":
            return self.resolve_name(token)
        raise ExprError(f"{_KIND_WORDS.get(token.type, token.type)} is not allowed in an expression", token)

    def unary(self, node, operand):
        return _checked(operator.neg, node, self.budget, operand) if node.op == "-" else operand

    def binary(self, node, left, right):
        return _binary(node, left, right, self.budget)


def _binary(node, left, right, budget: list):
    symbol = node.op
    if symbol in _INTEGER_ONLY and (_has_float(left) or _has_float(right)):
        raise ExprError(f"'{symbol}' needs integer operands", node)
    if symbol in _DIVISIONS and _anywhere(right == 0):
        raise ExprError("division by zero", node)
    if symbol in ("<<", ">>"):
        if _anywhere(right < 0):
            raise ExprError("negative shift count", node)
        if _anywhere(right > MAX_SHIFT):
            raise ExprError(f"shift count larger than {MAX_SHIFT}", node)
    return _checked(_BINARY[symbol], node, budget, left, right)


def _checked(function, node, budget: list, *operands):
    """function(*operands), refusing a result too wide (MAX_INT_BITS) or a float overflow.

    Arrays (INIT expressions of `i`) hold Python integers (dtype object, exact) until a float is
    involved; from then on they are float64, which is what Python's int-float arithmetic does."""
    arrays = any(isinstance(operand, np.ndarray) for operand in operands)
    if arrays:
        budget[1] -= max(o.size for o in operands if isinstance(o, np.ndarray))
        if budget[1] < 0:
            raise ExprError(f"this INIT expression needs more than {MAX_ELEMENT_OPS:,} element operations", node)
    floating = arrays and any(_has_float(operand) for operand in operands)
    if floating:
        operands = tuple(np.asarray(o, np.float64) if isinstance(o, np.ndarray) else o for o in operands)
    elif arrays:
        operands = _integer_operands(function, node, operands, budget)
    try:
        if arrays:
            with np.errstate(all="ignore"):         # numpy would warn; the checks below say it
                result = function(*operands)
        else:
            result = function(*operands)
    except (ArithmeticError, TypeError, ValueError) as exc:
        raise ExprError(f"cannot compute this expression: {exc}", node) from None
    if arrays and (floating or function is operator.truediv):
        result = np.asarray(result, np.float64)
        overflowed = ~np.isfinite(result)
        for operand in operands:
            overflowed &= _finite(operand)
        too_wide = False
    elif arrays:
        too_wide = result.dtype == object and max(result.max().bit_length(), result.min().bit_length()) > MAX_INT_BITS
        overflowed = False
    else:
        too_wide = isinstance(result, int) and result.bit_length() > MAX_INT_BITS
        overflowed = not _finite(result) and all(_finite(operand) for operand in operands)
    if too_wide:
        raise ExprError(f"an intermediate value is wider than {MAX_INT_BITS} bits", node)
    if _anywhere(overflowed):
        raise ExprError(f"float overflow: the result is beyond {FLOAT_MAX!r}", node)
    return result


INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


def _integer_operands(function, node, operands: tuple, budget: list) -> tuple:
    """Integer operands (arrays and Python integers) of one operation, as int64 arrays when the result
    provably fits in int64, else as arrays of Python integers (exact; their work is counted)."""
    bounds = [_bounds(o) for o in operands]
    if all(INT64_MIN <= lo and hi <= INT64_MAX for lo, hi in bounds) and _fits_int64(function, bounds):
        return tuple(o.astype(np.int64, copy=False) if isinstance(o, np.ndarray) else o for o in operands)
    count = max(o.size for o in operands if isinstance(o, np.ndarray))
    _spend_wide(budget, count, node)
    return tuple(o.astype(object) if isinstance(o, np.ndarray) else o for o in operands)


def _bounds(value) -> tuple[int, int]:
    if isinstance(value, np.ndarray):
        return (int(value.min()), int(value.max())) if value.size else (0, 0)
    return value, value


def _fits_int64(function, bounds: list) -> bool:
    """Whether function's result lies in int64 for every operand value within `bounds` (a list of
    (least, greatest) per operand): from the extreme cases, computed with Python integers."""
    if function is operator.neg:
        return -bounds[0][0] <= INT64_MAX
    (a, b), (c, d) = bounds
    if function in (operator.add, operator.sub, operator.mul):
        corners = [function(x, y) for x in (a, b) for y in (c, d)]
        return INT64_MIN <= min(corners) and max(corners) <= INT64_MAX
    if function is operator.truediv:                        # numpy converts to float64 first: exact
        return all(-(1 << 53) <= lo and hi <= 1 << 53 for lo, hi in bounds)
    if function in (operator.floordiv, operator.mod):       # INT64_MIN // -1: the one quotient beyond
        return not (a == INT64_MIN and c <= -1 <= d)
    if function in (operator.and_, operator.or_, operator.xor):
        return True                                         # as wide as the wider operand
    if function is operator.rshift:
        return d < 64                                       # numpy shifts by 64 or more are not Python's
    if function is operator.lshift:
        return d < 64 and INT64_MIN <= min(a << d, a) and max(b << d, b) <= INT64_MAX
    return False


def _spend_wide(budget: list, count: int, node):
    budget[0] -= count
    if budget[0] < 0:
        raise ExprError(f"INIT expressions need more than {MAX_WIDE_ELEMENT_OPS:,} element operations on "
                        f"integers beyond 64 bits, which are slow; keep intermediate values within 64 bits", node)


def _anywhere(condition) -> bool:
    """Whether a condition holds, for any element of an array (np.any costs microseconds on a bool)."""
    return bool(condition.any()) if isinstance(condition, np.ndarray) else bool(condition)


def _finite(value):
    """Whether a number is finite (integers always are); element by element for a float array."""
    if isinstance(value, np.ndarray):
        return np.isfinite(value) if value.dtype.kind == "f" else True
    return not isinstance(value, float) or math.isfinite(value)


def _has_float(value) -> bool:
    return value.dtype.kind == "f" if isinstance(value, np.ndarray) else isinstance(value, float)
