"""Conditions: a branch taken when a condition holds (`&&`, `||` and `!` short-circuited into branches,
an integer comparison one compare-and-branch instruction, a float comparison `fcmp` then a branch on its
0/1), and a comparison's 0/1 value in a register."""
from __future__ import annotations

from .clang import operator_of, strip_parens as _strip
from .conversions import float_text
from .values import Const, bracket, common_type as _common, fold_compare as _fold_compare
from .cpptypes import BOOL
from .ir import RV, view


# the branch taken when a comparison holds, and the comparison that holds when one does not
BRANCH = {"==": "beq", "!=": "bne", "<": "blt", "<=": "ble", ">": "bgt", ">=": "bge"}
INVERSE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
MIRRORED = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}      # a op b == b MIRRORED[op] a
FCMP = {"==": "fcmp.eq", "!=": "fcmp.ne", "<": "fcmp.lt", "<=": "fcmp.le", ">": "fcmp.gt", ">=": "fcmp.ge"}


class Conditions:
    def cond_branch(self, cond, when: bool, target: str, tag=None):
        """Branch to target if cond is `when`."""
        cond = _strip(cond)
        kind = cond.kind.name
        if kind == "BINARY_OPERATOR":
            op = operator_of(cond)
            if op in BRANCH:
                a, b = (self.expr(side) for side in cond.get_children())
                if _is_float(a) or _is_float(b):     # no inverse: a NaN fails both `<` and `>=`
                    self.branch_on_value(self.float_compare(op, a, b), when, target, tag)
                    return
                left, right = self.compare_operands(a, b)
                if isinstance(left, Const) and isinstance(right, Const):     # two constants: no branch to test
                    if _fold_compare(op, self.const_number(left), self.const_number(right)) == when:
                        self.emit("b", target, tag=tag)
                    return
                if isinstance(left, Const):          # the branch needs a register first
                    left, right, op = right, left, MIRRORED.get(op, op)
                if not when:
                    op = INVERSE[op]
                self.emit(BRANCH[op], left.reg, self.operand(right), target, tag=tag)
                return
            if op in ("&&", "||"):
                a, b = list(cond.get_children())
                if (op == "&&") == when:     # both must hold (&&, when) / both must fail (||, not when)
                    skip = self.label("skip")
                    self.cond_branch(a, not when, skip)
                    self.cond_branch(b, when, target, tag)
                    self.place(skip)
                else:
                    self.cond_branch(a, when, target)
                    self.cond_branch(b, when, target, tag)
                return
        if kind == "UNARY_OPERATOR" and operator_of(cond) == "!":
            self.cond_branch(list(cond.get_children())[0], not when, target, tag)
            return
        value = self.expr(cond)
        if _is_float(value):
            value = self.convert(value, BOOL)
        self.branch_on_value(value, when, target, tag)

    def branch_on_value(self, value, when: bool, target: str, tag=None):
        """Branch to target if the scalar `value` is non-zero (`when`) or zero (not `when`)."""
        if isinstance(value, Const):
            if self.truth(value) == when:
                self.emit("b", target, tag=tag)
            return
        self.emit("bne" if when else "beq", value.reg, 0, target, tag=tag)

    def compare_operands(self, a, b):
        """Both sides converted to their common type (so that a signed 64-bit compare is C's)."""
        if a.ctype.kind == "ptr" or b.ctype.kind == "ptr":
            return a, b
        common = _common(a.ctype, b.ctype)
        return self.convert(a, common), self.convert(b, common)

    def compare_value(self, op, a, b):
        """A comparison's 0/1 value in a register."""
        if _is_float(a) or _is_float(b):
            return self.float_compare(op, a, b)
        a, b = self.compare_operands(a, b)
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(int(_fold_compare(op, self.const_number(a), self.const_number(b))), BOOL)
        if isinstance(a, Const):
            a, b, op = b, a, MIRRORED.get(op, op)
        reg, done = self.new_reg("s"), self.label("cmp")
        self.emit("mov", reg, 1)
        self.emit(BRANCH[op], a.reg, self.operand(b), done)
        self.emit("mov", reg, 0)
        self.place(done)
        return RV(reg, BOOL)

    def float_compare(self, op, a, b):
        """A comparison with a float side, as C computes it: in the widest float type of the two (an
        integer side converted to it), a 0/1 value from `fcmp`. A constant exact in that type is compared
        as it is; one between two of its values (a double constant such as 0.1 against a float) by the
        nearer one on the side that keeps the result exact (x < 0.1 is x <= the float below 0.1)."""
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(int(_fold_compare(op, float(self.const_number(a)), float(self.const_number(b)))), BOOL)
        if isinstance(a, Const):
            a, b, op = b, a, MIRRORED.get(op, op)
        ctype = max((side.ctype for side in (a, b) if _is_float(side)), key=lambda t: t.width)
        a = self.convert(a, ctype)
        if isinstance(b, Const):
            op, b = self.exact_float_operand(op, float(self.const_number(b)), ctype)
            if isinstance(b, Const):
                return b
        else:
            b = view(self.convert(b, ctype).reg, ctype.etype)
        reg = self.new_reg("s")
        self.emit(FCMP[op], reg, view(a.reg, ctype.etype), b)
        return RV(reg, BOOL)

    def exact_float_operand(self, op, x: float, ctype):
        """`a op x` for a float register a of ctype as an equivalent `a op' y` with y a value of ctype (its
        operand text), or as a constant result when no value of ctype can satisfy (or fail) it."""
        below, above = bracket(x, ctype)
        if below == above:
            return op, float_text(below)
        if op in ("==", "!="):                   # no value of ctype equals x (a NaN x included)
            return op, Const(int(op == "!="), BOOL)
        if op in ("<", "<="):
            return "<=", float_text(below)
        return ">=", float_text(above)


def _is_float(value) -> bool:
    return value.ctype is not None and value.ctype.kind == "float"
