"""Statements: lowered by kind (STATEMENT_HANDLERS), `if` with a constant condition taken at translation
time, `return` (a helper's early run-time return branches to its return label), break and continue.
Declarations are declarations.py's, loops loops.py's, an expression statement expressions.py's."""
from __future__ import annotations

from .clang import error_at, loc_of
from .values import ConstReturn
from .ir import RV
from .cursors import leading_constexpr, in_stubs


NAME_DECLS = ("USING_DIRECTIVE", "USING_DECLARATION", "NAMESPACE_ALIAS")


# The statement kinds a vector function may hold, and the method lowering each. A new kind of statement
# is an entry here and its method; an expression statement goes to Expressions.expr (by cursor kind).
STATEMENT_HANDLERS = {
    "COMPOUND_STMT": "compound_stmt",
    "DECL_STMT": "decl_stmt",
    "IF_STMT": "if_stmt",
    "FOR_STMT": "for_stmt",
    "WHILE_STMT": "while_stmt",
    "DO_STMT": "do_stmt",
    "RETURN_STMT": "return_stmt",
    "BREAK_STMT": "break_stmt",
    "CONTINUE_STMT": "continue_stmt",
    "NULL_STMT": "null_stmt",
    **{kind: "local_type" for kind in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL", "STATIC_ASSERT") + NAME_DECLS},
}


class Statements:
    def stmt(self, c):
        kind = c.kind.name
        loc = loc_of(c)
        if loc is not None and not in_stubs(loc[0]):     # a stub's inlined body shows its call site
            self.cur_loc = loc
        handler = STATEMENT_HANDLERS.get(kind)
        if handler is not None:
            getattr(self, handler)(c)
        elif kind.endswith("_EXPR") or kind.endswith("_OPERATOR") or kind == "UNEXPOSED_EXPR":
            self.expr(c, discard=True)
        else:
            raise error_at(c, f"unsupported statement ({kind.lower().replace('_', ' ')}) in a vector function")

    def compound_stmt(self, c):
        for child in c.get_children():
            self.stmt(child)

    def decl_stmt(self, c):
        for decl in c.get_children():
            self.var_decl(decl)

    def break_stmt(self, c):
        self.branch_to(self.loop_targets("break", c)[0])

    def continue_stmt(self, c):
        self.branch_to(self.loop_targets("continue", c)[1])

    def null_stmt(self, c):
        pass

    def branch_to(self, label: str):
        self.emit("b", label)

    def loop_targets(self, what, c):
        if not self.loop_stack or self.loop_stack[-1] is None:
            raise error_at(c, f"'{what}' outside a loop, or inside a hardware loop")
        return self.loop_stack[-1]

    def if_stmt(self, c):
        parts = list(c.get_children())          # [init;] cond then [else]
        if parts[0].kind.name == "DECL_STMT":   # if (init; cond)
            self.stmt(parts.pop(0))
        cond, then, other = parts[0], parts[1], parts[2] if len(parts) > 2 else None
        is_constexpr = leading_constexpr(c, 3)
        value = self.try_const(cond)
        if value is not None:
            taken = then if self.truth(value) else other
            if taken is not None:
                self.stmt(taken)
            return
        if is_constexpr:
            raise error_at(cond, "this 'if constexpr' condition is not a constant here")
        else_label, end_label = self.label("else"), self.label("endif")
        self.frame.runtime_depth += 1
        self.cond_branch(cond, False, else_label if other is not None else end_label)
        self.stmt(then)
        if other is not None:
            self.branch_to(end_label)
            self.place(else_label)
            self.stmt(other)
        self.place(end_label)
        self.frame.runtime_depth -= 1

    def return_stmt(self, c):
        children = list(c.get_children())
        frame = self.frame
        value = self.expr(children[0]) if children else None
        if frame.ret_label is None:                     # the entry itself
            self.emit("b", "__end")
            return
        if value is not None and frame.ret_type is not None and frame.ret_type.kind not in ("void",):
            if frame.ret_type.is_scalar:
                value = self.convert(value, frame.ret_type)
        if frame.runtime_depth == 0 and frame.ret_reg is None:
            frame.const_return = value
            raise ConstReturn
        if value is not None:
            if frame.ret_reg is None:
                frame.ret_reg = RV(self.new_reg("s", "return value"), frame.ret_type)
            self.store(frame.ret_reg, value)
        frame.returns_early = True
        self.branch_to(frame.ret_label)
