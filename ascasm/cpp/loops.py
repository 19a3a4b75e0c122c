"""Loops: `for`, `while` and `do` as branch loops, and a counted `for` whose count is known on entry and
whose body has no branch as a hardware loop (vloop/endloop), tried first and undone if its body
turns out to branch."""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from . import ir
from .clang import loc_of, operator_of, strip_parens as _strip
from .values import Const
from .cpptypes import BOOL
from .ir import RV
from .cursors import referenced_decl, decl_refs, writes, leading_constexpr


MAX_HW_LOOPS = 4
HW_LOOP_MAX = 65535


@dataclass
class Loop:
    start: object
    end: object


class Loops:
    def for_stmt(self, c):
        init, cond, inc, body = _for_parts(c)
        if init is not None:
            self.stmt(init)
        self.loop(c, cond, inc, body, test_first=True)

    def while_stmt(self, c):
        cond, body = list(c.get_children())
        self.loop(c, cond, None, body, test_first=True)

    def do_stmt(self, c):
        body, cond = list(c.get_children())
        self.loop(c, cond, None, body, test_first=False)

    def loop(self, c, cond, inc, body, test_first):
        self.frame.runtime_depth += 1
        if self.try_hardware_loop(c, cond, inc, body):
            self.frame.runtime_depth -= 1
            return
        top, cont, end = self.label("loop"), self.label("next"), self.label("endloop")
        value = self.try_const(cond) if cond is not None else Const(1, BOOL)
        if value is not None and not self.truth(value):
            self.frame.runtime_depth -= 1
            if not test_first:
                self.stmt(body)
            return
        if test_first and value is None:
            self.cur_loc = loc_of(cond)
            self.cond_branch(cond, False, end)
        marker = Loop(object(), object())
        self.loops.append(marker)
        self.lines.append(ir.LabelDef(top, loc_of(c), marker.start))
        self.loop_stack.append((end, cont))
        self.stmt(body)
        self.loop_stack.pop()
        self.place(cont)
        if inc is not None:
            self.cur_loc = loc_of(inc)
            self.expr(inc, discard=True)
        self.cur_loc = loc_of(cond) if cond is not None else loc_of(c)
        if value is None:
            self.cond_branch(cond, True, top, tag=marker.end)
        else:
            self.emit("b", top, tag=marker.end)
        self.place(end)
        self.frame.runtime_depth -= 1

    def try_hardware_loop(self, c, cond, inc, body) -> bool:
        """`for (i = 0; i < n; ++i)` whose count is known on entry (n not written in the body, i
        only by the increment) and whose body lowers without a branch: a vloop."""
        if self.hw_depth >= MAX_HW_LOOPS or c.kind.name != "FOR_STMT" or cond is None or inc is None:
            return False
        if any(_may_branch(ch) for ch in body.walk_preorder()):
            return False
        shape = _counted_shape(c, cond, inc)
        if shape is None:
            return False
        var_decl, bound = shape
        counter = self.lookup_var(var_decl)
        if not isinstance(counter, RV) or counter.ctype.kind != "int":
            return False
        if writes(body, {var_decl.hash} | decl_refs(bound)):
            return False
        count = self.try_const(bound)
        if count is not None and not (0 <= self.const_number(count) <= HW_LOOP_MAX):
            return False
        saved_lines, saved_labels, saved_loops = len(self.lines), self.labels, len(self.loops)
        # the counter must start at 0: its initialiser is the instruction just emitted (mov %sI, 0)
        if not (self.lines and _sets_zero(self.lines[-1], counter.reg)):
            return False
        if count is None:
            bound_val = self.expr(_strip(bound))
            if not (isinstance(bound_val, RV) and bound_val.ctype.kind == "int" and bound_val.ctype.width <= 2
                    and not bound_val.ctype.signed):
                del self.lines[saved_lines:]
                return False
            count_operand = bound_val.reg
        else:
            count_operand = int(self.const_number(count))
        marker = Loop(object(), object())
        self.loops.append(marker)
        self.cur_loc = loc_of(c)
        self.lines.append(ir.instruction("vloop", (count_operand,), self.regs, loc_of(c), marker.start))
        body_start = len(self.lines)
        self.loop_stack.append(None)
        self.hw_depth += 1
        try:
            self.stmt(body)
        finally:
            self.hw_depth -= 1
            self.loop_stack.pop()
        if any(isinstance(item, ir.LabelDef) or getattr(item, "is_branch", False) for item in self.lines[body_start:]):
            # lower it again as a branch loop; the virtual registers made meanwhile stay unused
            del self.lines[saved_lines:], self.loops[saved_loops:]
            self.labels = saved_labels
            return False
        self.cur_loc = loc_of(inc)
        self.expr(inc, discard=True)
        self.lines.append(ir.instruction("endloop", (), self.regs, loc_of(c), marker.end))
        return True


def _for_parts(c):
    """for (init; cond; inc) body: libclang omits absent parts, so place them by source position."""
    children = list(c.get_children())
    body = children[-1]
    rest = children[:-1]
    toks = itertools.takewhile(lambda t: t.extent.start.offset < body.extent.start.offset, c.get_tokens())
    semis = [t.extent.start.offset for t in toks if t.spelling == ";"][:2]
    init = cond = inc = None
    for ch in rest:
        offset = ch.extent.start.offset
        if len(semis) == 2 and offset < semis[0]:
            init = ch
        elif len(semis) == 2 and offset < semis[1]:
            cond = ch
        else:
            inc = ch
    return init, cond, inc, body


def _counted_shape(c, cond, inc):
    """(counter declaration, bound expression) of `for (... i = 0; i < n; ++i / i++ / i += 1)`."""
    cond = _strip(cond)
    if cond.kind.name != "BINARY_OPERATOR" or operator_of(cond) != "<":
        return None
    left, bound = list(cond.get_children())
    decl = referenced_decl(left)
    if decl is None:
        return None
    inc = _strip(inc)
    if inc.kind.name == "UNARY_OPERATOR" and operator_of(inc) in ("++", "post++"):
        target = referenced_decl(list(inc.get_children())[0])
    else:
        return None
    if target is None or target.hash != decl.hash:
        return None
    return decl, bound


def _may_branch(c) -> bool:
    """Whether a statement of a loop body lowers to a branch (checked before trying a hardware loop,
    so that nested loops are not lowered twice at every level): jumps, run-time ifs, while loops,
    `?:`, `&&`, `||`."""
    kind = c.kind.name
    if kind in ("BREAK_STMT", "CONTINUE_STMT", "RETURN_STMT", "GOTO_STMT", "WHILE_STMT", "DO_STMT",
                "CONDITIONAL_OPERATOR"):
        return True
    if kind == "IF_STMT":
        return not leading_constexpr(c, 3)
    return kind == "BINARY_OPERATOR" and operator_of(c) in ("&&", "||")


def _sets_zero(item, reg) -> bool:
    """Whether IR item `item` is `mov REG, 0`."""
    return isinstance(item, ir.Instr) and item.mnemonic == "mov" and len(item.operands) == 2 and \
        isinstance(item.operands[0], ir.Reg) and item.operands[0].vreg is reg and not item.operands[0].view and \
        item.operands[1] == ir.Imm("0")
