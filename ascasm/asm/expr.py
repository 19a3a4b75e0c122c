"""Constant expressions of the source text: numbers, names, + - * / // % & | ^ << >>, unary minus.

The same evaluator serves operands (Python numbers) and buffer INIT expressions, where the element
index `i` is a numpy array of Python integers, so every element is computed exactly (no int64
wrap-around) and range-checked when converted to the buffer's type. Nothing is ever `eval`ed.
Evaluation is iterative, so very long expressions cannot exhaust Python's recursion limit.
"""
from __future__ import annotations

import operator

import numpy as np
from lark import Token

MAX_SHIFT = 128     # larger shift counts cannot produce a value that fits any type


class ExprError(Exception):
    def __init__(self, message: str, node):
        super().__init__(message)
        self.node = node


def parse_number(text: str) -> int | float:
    digits = text.replace("_", "").lower()
    if digits.startswith("0x"):
        return int(digits, 16)
    if digits.startswith("0b"):
        return int(digits, 2)
    if any(c in digits for c in ".e"):
        return float(digits)
    return int(digits)


_BINARY = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": operator.floordiv, "mod": operator.mod, "band": operator.and_, "bor": operator.or_,
    "bxor": operator.xor, "shl": operator.lshift, "shr": operator.rshift,
}
_SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "band": "&",
            "bor": "|", "bxor": "^", "shl": "<<", "shr": ">>"}
_INTEGER_ONLY = {"band", "bor", "bxor", "shl", "shr"}
_DIVISIONS = {"truediv", "floordiv", "mod"}
_PASS_THROUGH = {"unary", "expr"}


def evaluate(root, resolve_name):
    """Value of an expression tree. `resolve_name(token)` gives a name's value or raises ExprError."""
    values = []
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if isinstance(node, Token):
            values.append(resolve_name(node))
            continue
        kind = node.data
        if kind == "number":
            values.append(parse_number(node.children[0]))
        elif kind == "name":
            values.append(resolve_name(node.children[0]))
        elif kind == "call":
            raise ExprError(f"'{node.children[0]}(...)' is not allowed here", node)
        elif kind not in _BINARY and kind not in _PASS_THROUGH and kind != "neg":
            raise ExprError(f"unexpected {kind} in an expression", node)
        elif not children_done:
            stack.append((node, True))
            unary = kind in _PASS_THROUGH or kind == "neg"
            operands = [node.children[0]] if unary else [node.children[0], node.children[-1]]
            stack.extend((child, False) for child in reversed(operands))
        elif kind == "neg":
            values.append(_apply(operator.neg, node, values.pop()))
        elif kind in _PASS_THROUGH:
            pass
        else:
            right, left = values.pop(), values.pop()
            values.append(_binary(kind, node, left, right))
    return values[0]


def _binary(kind: str, node, left, right):
    if kind in _INTEGER_ONLY and (_has_float(left) or _has_float(right)):
        raise ExprError(f"'{_SYMBOLS[kind]}' needs integer operands", node)
    if kind in _DIVISIONS and np.any(np.asarray(right) == 0):
        raise ExprError("division by zero", node)
    if kind in ("shl", "shr"):
        if np.any(np.asarray(right) < 0):
            raise ExprError("negative shift count", node)
        if np.any(np.asarray(right) > MAX_SHIFT):
            raise ExprError(f"shift count larger than {MAX_SHIFT}", node)
    return _apply(_BINARY[kind], node, left, right)


def _apply(function, node, *args):
    try:
        return function(*args)
    except (ArithmeticError, TypeError, ValueError) as exc:
        raise ExprError(f"cannot compute this expression: {exc}", node) from None


def _has_float(value) -> bool:
    if isinstance(value, np.ndarray):
        return value.dtype.kind == "f" or (value.dtype == object and any(isinstance(v, float) for v in value.flat))
    return isinstance(value, float)
