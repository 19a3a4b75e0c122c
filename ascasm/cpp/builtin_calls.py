"""The registry of builtins: functions of the stubs (and clang's builtins the standard macros expand to)
that the translator computes itself instead of inlining a body or mapping a row.

Each entry is `name -> function(lowering, c, callee, args)` returning the call's value (a Const when it
folds). calls.classify picks an entry when the call's name is registered and its declaration has no
body (a kernel's own function of the same name with a body is inlined instead). To add a builtin: one
function here under `@builtin("Name")`, and a test."""
from __future__ import annotations

import math

from . import cpptypes
from .cpptypes import S32, U32
from .values import Const, common_type

VECTOR_BYTES = 256
BUILTINS: dict = {}


def builtin(*names):
    """Register the decorated function as the builtin called `names`."""
    def register(function):
        for name in names:
            BUILTINS[name] = function
        return function
    return register


@builtin("GetVecLen")
def vector_length(lowering, c, callee, args):
    return Const(VECTOR_BYTES, U32)


@builtin("CeilDivision", "CeilDiv", "DivCeil")
def ceil_division(lowering, c, callee, args):
    a, b = (lowering.expr(x) for x in args)
    ctype = common_type(a.ctype, b.ctype)
    if isinstance(a, Const) and isinstance(b, Const):
        x, y = lowering.const_number(a), lowering.const_number(b)
        return Const((x + y - 1) // y, ctype)
    total = lowering.arith(c, "+", a, lowering.arith(c, "-", b, Const(1, ctype)))
    return lowering.arith(c, "/", total, b)


@builtin("min")
def minimum(lowering, c, callee, args):
    return lowering.choose(c, args, "<")


@builtin("max")
def maximum(lowering, c, callee, args):
    return lowering.choose(c, args, ">")


@builtin("__builtin_inff", "__builtin_huge_valf")      # INFINITY, HUGE_VALF
def infinity(lowering, c, callee, args):
    return Const(math.inf, cpptypes.scalar("f32"))


@builtin("__builtin_nanf")                             # NAN
def not_a_number(lowering, c, callee, args):
    return Const(math.nan, cpptypes.scalar("f32"))


@builtin("SetCtrlSpr")
def set_ctrl_spr(lowering, c, callee, args):
    """Recorded in Translation.ctrl: the harness sets the CTRL bits before the vector function."""
    targs = lowering.explicit_template_args(callee)
    values = [lowering.expr(a) for a in args]
    lowering.ctrl.setdefault("SetCtrlSpr", []).append(
        (tuple(targs), tuple(lowering.const_number(v) if isinstance(v, Const) else None for v in values)))
    return Const(0, S32)
