"""Constant expressions of the source text: numbers, names, + - * / // % & | ^ << >>, unary minus.

The same evaluator serves operands (Python numbers) and buffer INIT expressions, where the element
index `i` is a numpy int64 array and the result is computed element-wise. Nothing is ever `eval`ed.
"""
from __future__ import annotations

import operator

import numpy as np
from lark import Token, Tree


class ExprError(Exception):
    def __init__(self, message: str, node):
        super().__init__(message)
        self.node = node


def parse_number(text: str) -> int | float:
    digits = text.replace("_", "")
    lowered = digits.lower()
    if lowered.startswith("0x"):
        return int(lowered, 16)
    if lowered.startswith("0b"):
        return int(lowered, 2)
    if any(c in lowered for c in ".e"):
        return float(lowered)
    return int(lowered)


def _floordiv(a, b):
    return a // b


def _check_integer(op_name):
    def check(a, b):
        for value in (a, b):
            if _is_float(value):
                raise TypeError(f"'{op_name}' needs integer operands")
    return check


def _is_float(value) -> bool:
    return isinstance(value, float) or (isinstance(value, np.ndarray) and value.dtype.kind == "f")


_BINARY = {
    "add": operator.add, "sub": operator.sub, "mul": operator.mul, "truediv": operator.truediv,
    "floordiv": _floordiv, "mod": operator.mod, "band": operator.and_, "bor": operator.or_,
    "bxor": operator.xor, "shl": operator.lshift, "shr": operator.rshift,
}
_INTEGER_ONLY = {"band": "&", "bor": "|", "bxor": "^", "shl": "<<", "shr": ">>"}
_DIVISIONS = {"truediv", "floordiv", "mod"}


def evaluate(node, resolve_name):
    """Value of an expression tree. `resolve_name(token)` gives a name's value or raises ExprError."""
    if isinstance(node, Token):
        return resolve_name(node)
    kind = node.data
    if kind == "number":
        return parse_number(node.children[0])
    if kind == "name":
        return resolve_name(node.children[0])
    if kind == "neg":
        return -evaluate(node.children[0], resolve_name)
    if kind == "unary" or kind == "expr":
        return evaluate(node.children[0], resolve_name)
    if kind == "call":
        raise ExprError(f"'{node.children[0]}(...)' is not allowed here", node)
    if kind in _BINARY:
        left = evaluate(node.children[0], resolve_name)
        right = evaluate(node.children[-1], resolve_name)
        if kind in _INTEGER_ONLY:
            try:
                _check_integer(_INTEGER_ONLY[kind])(left, right)
            except TypeError as exc:
                raise ExprError(str(exc), node) from None
        if kind in _DIVISIONS and np.any(np.asarray(right) == 0):
            raise ExprError("division by zero", node)
        if kind in ("shl", "shr") and np.any(np.asarray(right) < 0):
            raise ExprError("negative shift count", node)
        with np.errstate(all="ignore"):
            return _BINARY[kind](left, right)
    raise ExprError(f"unexpected {kind} in an expression", node)


def names_in(node) -> list[Token]:
    """Every NAME token in an expression tree."""
    if isinstance(node, Token):
        return [node] if node.type == "NAME" else []
    if isinstance(node, Tree):
        return [t for child in node.children for t in names_in(child)]
    return []
