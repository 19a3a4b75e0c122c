"""Operators on scalars and pointers: unary and binary arithmetic in the C type's width (folded when both
sides are constant), float arithmetic, pointer offsets in elements, assignment (of scalars, UB
elements and register variables), the conditional operator and min/max."""
from __future__ import annotations

import math

import numpy as np

from ..isa import dtypes
from . import ir
from .clang import error_at, operator_of, strip_parens as _strip
from .values import (Const, common_type as _common, fold_compare as _fold_compare, fold_unary, round_to as _in_type,
                     wrap_int as _int_c)
from .cpptypes import BOOL, S32, S64
from .ir import ARTIFICIAL, RV
from .cursors import find_call
from .conversions import float_text
from .conditions import BRANCH
from .declarations import REGISTER_FILE


ARITH = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "and", "|": "or", "^": "xor",
         "<<": "shl", ">>": "shr"}
FLOAT = {"+": "fadd", "-": "fsub", "*": "fmul", "/": "fdiv"}


class Operators:
    def x_conditional_operator(self, c):
        cond, a, b = list(c.get_children())
        value = self.try_const(cond)
        if value is not None:
            return self.expr(a if self.truth(value) else b)
        # in a template the operator's own type may be left dependent; its operands' types are bound
        ctype = self.try_resolve(c.type, c) or self.try_resolve(a.type, a) or self.resolve_type(b.type, b)
        result = RV(self.new_reg("s"), ctype)
        other, end = self.label("else"), self.label("endsel")
        self.cond_branch(cond, False, other)
        self.store(result, self.expr(a))
        self.branch_to(end)
        self.place(other)
        self.store(result, self.expr(b))
        self.place(end)
        return result

    def x_unary_operator(self, c, discard=False):
        op = operator_of(c)
        (child,) = list(c.get_children())
        if op in ("++", "--", "post++", "post--"):
            return self.increment(c, op, child, discard)
        value = self.expr(child)
        if op == "*" or op == "&":
            raise error_at(c, f"unary '{op}' (pointer dereference or address) is not supported in a vector function")
        if op not in ("!", "+", "-", "~"):
            raise error_at(c, f"unsupported operator '{op}'")
        if isinstance(value, Const):
            return fold_unary(op, value)
        if op == "+":
            return value
        if op == "!":
            return self.compare_value("==", value, Const(0, S32))
        if value.ctype.kind == "float":
            zero, t = self.new_reg("s"), value.ctype.etype
            self.emit("fmov", ir.view(zero, t), "0.0")
            self.emit("fsub", ir.view(zero, t), ir.view(zero, t), ir.view(value.reg, t))
            return RV(zero, value.ctype)
        ctype = _common(value.ctype, value.ctype)
        value = self.convert(value, ctype)
        reg = self.new_reg("s")
        if op == "-":
            self.emit("mov", reg, 0)
            self.emit("sub", reg, reg, value.reg)
        else:
            self.emit("xor", reg, value.reg, -1)
        if ctype.width < 8:
            self.wrap_into(reg, reg, ctype)
        return RV(reg, ctype)

    def increment(self, c, op, child, discard):
        """`++x`, `x--`, ...: the variable stepped in place (a pointer by its element's size); a postfix
        one's value is a copy of the old value unless it is discarded."""
        if _strip(child).kind.name == "ARRAY_SUBSCRIPT_EXPR":
            raise error_at(c, f"'{op.replace('post', '')}' on an element of the UB is not supported: "
                              "write p[i] += 1")
        var = self.expr(child)
        if not isinstance(var, RV):
            raise error_at(c, f"'{op.replace('post', '')}' on something that is not a variable")
        old = None
        if op.startswith("post") and not discard:
            old = RV(self.new_reg("s"), var.ctype)
            self.emit("mov", old.reg, var.reg)
        step = 1 if "++" in op else -1
        if var.ctype.kind == "ptr":
            step *= dtypes.BY_SPELLING[var.ctype.etype].width
        self.emit("add", var.reg, var.reg, step)
        if var.ctype.kind == "int" and var.ctype.width < 8:
            self.wrap_into(var.reg, var.reg, var.ctype)
        return old or var

    def x_binary_operator(self, c):
        op = operator_of(c)
        a, b = list(c.get_children())
        if op == "=":
            return self.assign(c, a, b)
        if op == ",":
            self.expr(a, discard=True)
            return self.expr(b)
        if op in ("&&", "||"):
            left = self.try_const(a)
            if left is not None and (self.truth(left) == (op == "||")):
                return Const(int(op == "||"), BOOL)
            if left is not None:
                right = self.expr(b)
                return Const(int(self.truth(right)), BOOL) if isinstance(right, Const) else self.convert(right, BOOL)
            reg, end = self.new_reg("s"), self.label("logic")
            self.emit("mov", reg, int(op == "||"))
            self.cond_branch(c, op == "||", end)
            self.emit("mov", reg, int(op != "||"))
            self.place(end)
            return RV(reg, BOOL)
        left, right = self.expr(a), self.expr(b)
        return self.arith(c, op, left, right)

    def arith(self, c, op, left, right):
        if op in BRANCH:
            if isinstance(left, Const) and isinstance(right, Const):
                return Const(int(_fold_compare(op, self.const_number(left), self.const_number(right))), BOOL)
            return self.compare_value(op, left, right)
        if left.ctype is not None and left.ctype.kind == "ptr" or right.ctype is not None and right.ctype.kind == "ptr":
            return self.pointer_arith(c, op, left, right)
        if not (left.ctype.is_scalar and right.ctype.is_scalar):       # a template leaves `x * mask` to us
            raise error_at(c, f"operator '{op}' on {left.ctype} and {right.ctype}: operators take scalars (a "
                              "register's arithmetic is a Reg:: call)")
        if left.ctype.kind == "float" or right.ctype.kind == "float":
            return self.float_arith(c, op, left, right)
        ctype = _common(left.ctype, right.ctype) if op not in ("<<", ">>") else _common(left.ctype, left.ctype)
        left, right = self.convert(left, ctype), self.convert(right, ctype)
        if isinstance(left, Const) and isinstance(right, Const):
            return Const(_fold_int(c, op, self.const_number(left), self.const_number(right), ctype), ctype)
        if op not in ARITH:
            raise error_at(c, f"unsupported operator '{op}'")
        if isinstance(left, Const):
            left = self.materialize(left)
        mnemonic = ARITH[op]
        if op == ">>" and not ctype.signed and ctype.width == 8:
            raise error_at(c, "'>>' of a 64-bit unsigned value: ascasm's shr is arithmetic")
        reg = self.new_reg("s")
        self.emit(mnemonic, reg, left.reg, self.operand(right))
        if op in ("+", "-", "*", "<<") and ctype.width < 8:
            self.wrap_into(reg, reg, ctype)
        return RV(reg, ctype)

    def float_arith(self, c, op, left, right):
        ctype = left.ctype if left.ctype.kind == "float" else right.ctype
        if left.ctype.kind == "float" and right.ctype.kind == "float" and left.ctype.width != right.ctype.width:
            ctype = left.ctype if left.ctype.width > right.ctype.width else right.ctype
        if op not in FLOAT:
            raise error_at(c, f"operator '{op}' on float scalars has no ascasm instruction")
        if isinstance(left, Const) and isinstance(right, Const):   # IEEE in double, then rounded to the C type
            x, y = np.float64(self.const_number(left)), np.float64(self.const_number(right))
            with np.errstate(all="ignore"):
                result = float({"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[op](x, y))
            return Const(result if c.type.get_canonical().spelling == "double" else _in_type(result, ctype), ctype)
        if c.type.get_canonical().spelling == "double":
            self.check_double_arithmetic(c, op, left, right, ctype)
        left = self.materialize(self.convert(left, ctype) if isinstance(left, RV) else left, ctype)
        t = ctype.etype
        rhs = self.convert(right, ctype) if isinstance(right, RV) else right
        rhs = ir.view(rhs.reg, t) if isinstance(rhs, RV) else float_text(float(self.const_number(rhs)))
        reg = self.new_reg("s")
        self.emit(FLOAT[op], ir.view(reg, t), ir.view(left.reg, t), rhs)
        return RV(reg, ctype)

    def check_double_arithmetic(self, c, op, left, right, ctype):
        """C computes `x op 0.5` (x a float, 0.5 a double) in double; ascasm has no double arithmetic. The
        value computed in x's type is C's when the double result is converted to a float type at once
        (IEEE double has more than twice the digits, so rounding twice is rounding once) and every operand
        is a value of that type; otherwise (a double result compared or computed with, a constant such as
        0.1, a 32-bit integer) the results can differ, and the arithmetic is refused."""
        written = f"'{op}' of a {ctype} with a double"
        if c.hash not in self.narrowed:
            raise error_at(c, f"{written}: C computes it in double and uses the double result, ascasm has no "
                              f"double arithmetic; write {ctype} constants (0.5f, ({ctype})0.5) or convert the result to "
                              f"{ctype} at once")
        for side in (left, right):
            if isinstance(side, Const):
                value = float(self.const_number(side))
                if not math.isnan(value) and _in_type(value, ctype) != value:
                    raise error_at(c, f"{written} constant {value!r}: C computes it in double, ascasm only in "
                                      f"{ctype}, and {value!r} is not a {ctype} value; write the constant as a "
                                      f"{ctype} ({value!r}f or ({ctype}){value!r})")
            elif side.ctype.kind != "float" and 8 * side.ctype.width - side.ctype.signed > _significand_bits(ctype):
                raise error_at(c, f"{written}: C converts the {side.ctype} to double exactly, ascasm to {ctype}, "
                                  f"which rounds large values; convert it to {ctype} first")

    def pointer_arith(self, c, op, left, right):
        if op not in ("+", "-") or (right.ctype.kind == "ptr" and op == "+"):
            raise error_at(c, f"unsupported pointer arithmetic '{op}'")
        if left.ctype.kind != "ptr":
            left, right = right, left
        if right.ctype.kind == "ptr":
            raise error_at(c, "the difference of two pointers is not supported")
        size = dtypes.BY_SPELLING[left.ctype.etype].width
        offset = self.arith(c, "*", self.convert(right, S64), Const(size, S64))
        if isinstance(offset, Const) and isinstance(left, Const):
            n = self.const_number(offset)
            return Const(self.const_number(left) + (n if op == "+" else -n), left.ctype)
        if isinstance(left, Const):
            left = self.materialize(left, left.ctype)
        reg = self.new_reg("s")
        self.emit(ARITH[op], reg, left.reg, self.operand(offset))
        return RV(reg, left.ctype)

    def x_compound_assignment_operator(self, c):
        op = operator_of(c)[:-1]
        a, b = list(c.get_children())
        if _strip(a).kind.name == "ARRAY_SUBSCRIPT_EXPR":        # p[i] op= b: load, compute, store
            return self.store_element(c, _strip(a), self.arith(c, op, self.expr(a), self.expr(b)))
        var = self.expr(a)
        if not isinstance(var, RV):
            raise error_at(a, "assignment to something that is not a variable")
        value = self.arith(c, op, var, self.expr(b))
        self.store(var, value)
        return var

    def assign(self, c, a, b):
        if _strip(a).kind.name == "ARRAY_SUBSCRIPT_EXPR":
            return self.store_element(c, _strip(a), self.expr(b))
        target = self.expr(a)
        if not isinstance(target, RV):
            raise error_at(a, "assignment to something that is not a run-time variable (a constant?)")
        if target.ctype.kind in REGISTER_FILE:
            self.assign_register(target, b)
        else:
            self.store(target, self.expr(b))
        return target

    def assign_register(self, var: RV, init):
        """A register variable = a call returning one (CreateMask, UpdateMask, CreateAddrReg) or another
        variable of its kind."""
        init = _strip(init)
        call = find_call(init)
        if call is not None:
            result = self.call(call, dest=var)
            if result is not var and isinstance(result, RV):
                self.copy_register(init, var, result)
            return
        value = self.expr(init)
        if isinstance(value, RV) and value.ctype.kind == var.ctype.kind:
            self.copy_register(init, var, value)
            return
        raise error_at(init, f"cannot initialise a {var.ctype} from this expression")

    def copy_register(self, c, var: RV, value: RV):
        if var.ctype.kind == "mask":
            self.emit("pmov", var.reg, value.reg)
        elif var.ctype.kind == "vec" and value.ctype.kind == "vec":
            # Reg::Move without a mask: every lane, which is vmov under an all-true mask
            every = self.new_reg("p")
            self.emit("mask", ir.view(every, "b8"), ir.Word("ALL"), tag=ARTIFICIAL)
            self.emit("vmov", ir.view(var.reg, var.ctype.etype), ir.view(value.reg, var.ctype.etype), every)
        else:
            raise error_at(c, f"copying a {var.ctype} is not supported: use the value's own variable")

    def choose(self, c, args, op):
        a, b = (self.expr(x) for x in args)
        if isinstance(a, Const) and isinstance(b, Const):
            x, y = self.const_number(a), self.const_number(b)
            return Const(x if _fold_compare(op, x, y) else y, _common(a.ctype, b.ctype))
        ctype = _common(a.ctype, b.ctype)
        a, b = self.convert(a, ctype), self.convert(b, ctype)
        result = RV(self.new_reg("s"), ctype)
        done = self.label("pick")
        self.store(result, a)
        a_reg = result
        self.emit(BRANCH[op], a_reg.reg, self.operand(b), done)
        self.store(result, b)
        self.place(done)
        return result


def _fold_int(c, op, x, y, ctype):
    if op in ("/", "%"):
        if y == 0:
            raise error_at(c, "division by zero in a constant expression")
        q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
        value = q if op == "/" else x - q * y
    else:
        value = {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y, "^": x ^ y,
                 "<<": x << (y & 63), ">>": x >> (y & 63)}[op]
    return _int_c(value, ctype)


def _significand_bits(ctype) -> int:
    return int(dtypes.finfo(dtypes.BY_SPELLING[ctype.etype]).nmant) + 1
