"""Conditions: a branch taken when a condition holds (`&&`, `||` and `!` short-circuited into branches,
a comparison one compare-and-branch instruction), and a comparison's 0/1 value in a register."""
from __future__ import annotations

from .clang import CppError, operator_of, strip_parens as _strip
from .values import Const, common_type as _common, fold_compare as _fold_compare
from .cpptypes import BOOL
from .ir import RV


# the branch taken when a comparison holds, and the comparison that holds when one does not
BRANCH = {"==": "beq", "!=": "bne", "<": "blt", "<=": "ble", ">": "bgt", ">=": "bge"}
INVERSE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


class Conditions:
    def cond_branch(self, cond, when: bool, target: str, tag=None):
        """Branch to target if cond is `when`."""
        cond = _strip(cond)
        kind = cond.kind.name
        if kind == "BINARY_OPERATOR":
            op = operator_of(cond)
            if op in BRANCH:
                a, b = list(cond.get_children())
                left, right = self.compare_operands(self.expr(a), self.expr(b))
                if isinstance(left, Const):          # the branch needs a register first
                    left, right, op = right, left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
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
        if isinstance(value, Const):
            if self.truth(value) == when:
                self.emit("b", target, tag=tag)
            return
        self.emit("bne" if when else "beq", value.reg, 0, target, tag=tag)

    def compare_operands(self, a, b):
        """Both sides converted to their common type (so that a signed 64-bit compare is C's)."""
        if a.ctype.kind == "float" or b.ctype.kind == "float":
            raise CppError("comparing float scalars at run time has no ascasm instruction")
        if a.ctype.kind == "ptr" or b.ctype.kind == "ptr":
            return a, b
        common = _common(a.ctype, b.ctype)
        return self.convert(a, common), self.convert(b, common)

    def compare_value(self, op, a, b):
        """A comparison's 0/1 value in a register."""
        a, b = self.compare_operands(a, b)
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(int(_fold_compare(op, self.const_number(a), self.const_number(b))), BOOL)
        if isinstance(a, Const):
            a, b, op = b, a, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        reg, done = self.new_reg("s"), self.label("cmp")
        self.emit("mov", reg, 1)
        self.emit(BRANCH[op], a.reg, self.operand(b), done)
        self.emit("mov", reg, 0)
        self.place(done)
        return RV(reg, BOOL)
