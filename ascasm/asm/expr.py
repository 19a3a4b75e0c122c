"""Constant expressions of the source text: numbers, names, + - * / // % & | ^ << >>, unary signs.

The same evaluator serves operands (Python numbers) and buffer INIT expressions, where the element
index `i` is a numpy array of Python integers, so every element is computed exactly (no int64
wrap-around) and range-checked when converted to the buffer's type. Nothing is ever `eval`ed.
Evaluation is iterative, so very long expressions cannot exhaust Python's recursion limit, and every
intermediate value is bounded (ascasm/limits.py): an integer wider than MAX_INT_BITS or a float that
overflows is an error, so a few lines cannot make numbers of gigabytes.
"""
from __future__ import annotations

import math
import operator
from functools import lru_cache

import numpy as np

from ..limits import MAX_INT_BITS, shown
from .syntax import Binary

MAX_SHIFT = 128     # larger shift counts cannot produce a value that fits any type
FLOAT_MAX = float(np.finfo(np.float64).max)
# Decimal digits of the largest integer allowed, checked before converting (Python refuses to
# convert more than 4,300 digits at all).
_MAX_DECIMAL_DIGITS = len(str(1 << MAX_INT_BITS))


class ExprError(Exception):
    def __init__(self, message: str, node):
        super().__init__(message)
        self.node = node


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
# Python's precedence, lowest first: | ^ & (<< >>) (+ -) (* / // %)
PRECEDENCE = {"|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6}
_INTEGER_ONLY = {"&", "|", "^", "<<", ">>"}
_DIVISIONS = {"/", "//", "%"}


def ordered_chain(items: list):
    """[term, op, term, op, term ...] -> one Binary tree, by PRECEDENCE, left to right within a level
    (operator-precedence parsing with two stacks)."""
    terms, ops = [items[0]], []
    for k in range(1, len(items), 2):
        op = items[k].value
        while ops and PRECEDENCE[ops[-1]] >= PRECEDENCE[op]:
            right = terms.pop()
            terms.append(Binary(ops.pop(), terms.pop(), right))
        ops.append(op)
        terms.append(items[k + 1])
    while ops:
        right = terms.pop()
        terms.append(Binary(ops.pop(), terms.pop(), right))
    return terms[0]


def evaluate(root, resolve_name):
    """Value of an expression. `resolve_name(token)` gives a name's value or raises ExprError."""
    kind = root.type
    if kind == "NUMBER":
        return number_value(root)
    if kind == "NAME":
        return resolve_name(root)
    values = []
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        kind = node.type
        if kind == "NUMBER":
            values.append(number_value(node))
        elif kind == "NAME":
            values.append(resolve_name(node))
        elif kind == "group":
            stack.append((node.inner, False))
        elif kind == "call":
            raise ExprError(f"'{node.function.value}(...)' is not allowed here", node)
        elif kind not in ("binary", "signed"):
            raise ExprError(f"{_KIND_WORDS.get(kind, kind)} is not allowed in an expression", node)
        elif not children_done:
            stack.append((node, True))
            if kind == "signed":
                stack.append((node.operand, False))
            else:
                stack.extend(((node.right, False), (node.left, False)))
        elif kind == "signed":
            if node.sign == "-":
                values.append(_checked(operator.neg, node, values.pop()))
        else:
            right, left = values.pop(), values.pop()
            values.append(_binary(node, left, right))
    return values[0]


_KIND_WORDS = {"address": "an address [...]", "list": "a list [...]"}


def _binary(node, left, right):
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
    return _checked(_BINARY[symbol], node, left, right)


def _checked(function, node, *operands):
    """function(*operands), refusing a result too wide (MAX_INT_BITS) or a float overflow.

    Arrays (INIT expressions of `i`) hold Python integers (dtype object, exact) until a float is
    involved; from then on they are float64, which is what Python's int-float arithmetic does."""
    arrays = any(isinstance(operand, np.ndarray) for operand in operands)
    floating = arrays and any(_has_float(operand) for operand in operands)
    if floating:
        operands = tuple(np.asarray(o, np.float64) if isinstance(o, np.ndarray) else o for o in operands)
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
        too_wide = max(result.max().bit_length(), result.min().bit_length()) > MAX_INT_BITS
        overflowed = False
    else:
        too_wide = isinstance(result, int) and result.bit_length() > MAX_INT_BITS
        overflowed = not _finite(result) and all(_finite(operand) for operand in operands)
    if too_wide:
        raise ExprError(f"an intermediate value is wider than {MAX_INT_BITS} bits", node)
    if _anywhere(overflowed):
        raise ExprError(f"float overflow: the result is beyond {FLOAT_MAX!r}", node)
    return result


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
