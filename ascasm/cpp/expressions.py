"""Expressions, lowered by cursor kind: `expr` calls the method named `x_<kind>` (lower case), so a new
kind of expression is one such method. Here: literals, names (variables, template parameters, enum
values), members, casts, sizeof, UB element reads and writes. Operators are operators.py's, calls
call_lowering.py's; a constant expression folds to a Const in the same methods."""
from __future__ import annotations

from . import ir, templates
from .consteval import ConstantEvaluator, cast_operand, is_builtin_trait
from .builtin_calls import VECTOR_BYTES
from .clang import error_at, strip_parens as _strip, tokens
from .values import Const, EnumValue
from .cpptypes import U64, CType, scalar
from .ir import RV
from .scope import Frame


class Expressions:
    def expr(self, c, discard=False):
        """c's value (a Const or an RV). `discard`: only its effect is wanted (a statement)."""
        kind = c.kind.name
        handler = getattr(self, "x_" + kind.lower(), None)
        if handler is None:
            raise error_at(c, f"unsupported expression ({kind.lower().replace('_', ' ')}) in a vector function")
        if discard and kind == "UNARY_OPERATOR":
            return self.x_unary_operator(c, discard=True)
        return handler(c)

    def x_unexposed_expr(self, c):
        children = list(c.get_children())
        if is_builtin_trait(c, children):
            return self.builtin_trait(c, next(c.get_tokens()).spelling)
        if len(children) == 1:
            self.mark_narrowed(c, children[0])
            return self.as_expression_type(c, self.expr(children[0]))
        if not children:
            return self.token_value(c)
        raise error_at(c, "unsupported expression in a vector function")

    x_paren_expr = lambda self, c: self.expr(list(c.get_children())[0])

    def x_literal(self, c):
        """A literal: always a constant, the constant evaluator's."""
        return ConstantEvaluator(self).value(c)

    x_integer_literal = x_floating_literal = x_cxx_bool_literal_expr = x_character_literal = x_literal
    x_cxx_null_ptr_literal_expr = x_literal

    def x_decl_ref_expr(self, c):
        decl = c.referenced
        if decl is None:
            return self.token_value(c)
        kind = decl.kind.name
        if kind == "ENUM_CONSTANT_DECL":
            return Const(EnumValue(decl.semantic_parent.spelling, decl.spelling, decl.enum_value),
                         CType("enum", name=decl.semantic_parent.spelling))
        if kind in ("TEMPLATE_NON_TYPE_PARAMETER",):
            for frame in reversed(self.frames):
                if decl.spelling in frame.targs:
                    return frame.targs[decl.spelling]
                break
            raise error_at(c, f"template parameter '{decl.spelling}' has no argument: give it in the entry "
                              f"(Name<...>)")
        if kind in ("VAR_DECL", "PARM_DECL", "FIELD_DECL"):
            bound = self.lookup_var(decl)
            if bound is not None:
                return bound
            # `IsSameType<T, half>::value` in a class template: the trait of the bound T, not the
            # static member's initialiser (which needs the trait's own parameters)
            trait = self.trait_value("".join(tokens(c)), c) if kind == "VAR_DECL" else None
            return trait if trait is not None else self.outer_variable(c, decl)
        if kind in ("FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD"):
            raise error_at(c, f"'{decl.spelling}' used as a value (only calls are supported)")
        return self.token_value(c)          # a variable template (is_same_v<A, B>) and the like

    def x_member_ref_expr(self, c):
        decl = c.referenced
        # the object, if any: in a method, `std::is_same<T, half>::value` is a member reference
        # with only the qualifier's references (namespace, template, types) for children
        children = [ch for ch in c.get_children() if ch.kind.is_expression()]
        owner = self.captured_struct(children[0]) if children and decl is not None else None
        if owner is not None:
            return self.captured_member(c, owner, decl)
        if children:
            base = self.expr(children[0])
            name = c.spelling or tokens(c)[-1]      # unnamed where the template leaves it dependent
            if isinstance(base, Const) and isinstance(base.value, dict) and name in base.value:
                return base.value[name]
            if isinstance(base, Const) and isinstance(base.value, CType):
                raise error_at(c, f"unsupported member access on the type {base.value}")
        if decl is not None and decl.kind.name in ("FIELD_DECL", "VAR_DECL"):
            bound = self.lookup_var(decl)
            return bound if bound is not None else self.outer_variable(c, decl)
        member = self.unresolved_member(c) if decl is None else None
        return member if member is not None else self.token_value(c)

    def x_cxx_this_expr(self, c):
        return Const("this", None)

    def x_init_list_expr(self, c):
        return Const([self.expr(ch) for ch in c.get_children()], None)

    def x_cxx_functional_cast_expr(self, c):
        return self.cast_expr(c)

    x_cstyle_cast_expr = x_cxx_functional_cast_expr

    x_cxx_static_cast_expr = x_cxx_functional_cast_expr

    x_cxx_reinterpret_cast_expr = x_cxx_functional_cast_expr

    def cast_expr(self, c):
        target = self.resolve_type(c.type, c)
        self.mark_narrowed(c, cast_operand(c))
        return self.cast_value(self.expr(cast_operand(c)), target)

    def mark_narrowed(self, c, operand):
        """Double arithmetic whose result C converts to a float type at once (`float y = x * 0.5;`): computed
        in that type it gives the same value (operators.float_arith)."""
        if operand.type.get_canonical().spelling == "double":
            target = self.try_resolve(c.type, c)
            if target is not None and target.kind == "float":
                self.narrowed.add(_strip(operand).hash)

    def x_cxx_unary_expr(self, c):
        toks = tokens(c)
        if toks[0] == "sizeof":
            inner = "".join(t + (" " if t.isidentifier() else "") for t in toks[2:-1]).strip()
            if inner.endswith("..."):
                raise error_at(c, "sizeof... is not supported")
            children = [ch for ch in c.get_children() if ch.kind.name.endswith("_EXPR")]
            if children:
                value = self.expr(children[0])
                return Const(value.ctype.width, U64)
            ctype = self.type_from_text(" ".join(toks[2:-1]))
            if ctype is None:
                raise error_at(c, f"sizeof of an unknown type: {' '.join(toks[2:-1])}")
            return Const(VECTOR_BYTES if ctype.kind == "vec" else ctype.width, U64)
        raise error_at(c, f"unsupported '{toks[0]}' expression")

    def x_call_expr(self, c):
        return self.call(c)

    def x_cxx_dependent_scope_member_expr(self, c):
        member = self.unresolved_member(c)
        return member if member is not None else self.token_value(c)

    def unresolved_member(self, c):
        """`this->name` that clang leaves unresolved in a template (a member of a base that depends
        on the template's parameters): the member of the method's class or of its bases; None when
        c is no such access."""
        children = [ch for ch in c.get_children() if ch.kind.is_expression()]
        cls = next((frame.cls for frame in reversed(self.frames) if frame.cls is not None), None)
        if len(children) != 1 or _strip(children[0]).kind.name != "CXX_THIS_EXPR" or cls is None:
            return None
        decl, targs = templates.member_decl(self, cls, dict(self.frame.targs), tokens(c)[-1])
        if decl is None:
            return None
        bound = self.lookup_var(decl)
        if bound is not None:
            return bound
        self.frames.append(Frame(targs=targs))     # the member's type names its class's parameters
        try:
            return self.outer_variable(c, decl)
        finally:
            self.frames.pop()

    def x_array_subscript_expr(self, c):
        """`p[i]` read: one element loaded from the UB into a scalar register (the pages' scalar UB
        reads in a vector function, LocalMemBar's SCALAR_LOAD)."""
        address, ctype = self.element_address(c)
        reg = self.new_reg("s")
        self.emit("ld", ir.view(reg, ctype.etype), ir.Mem(ir.view(address.reg)))
        return RV(reg, ctype)

    def element_address(self, c) -> tuple[RV, CType]:
        """The address of `p[i]` in a register, and the element's type."""
        base, index = list(c.get_children())
        pointer = self.expr(base)
        if pointer.ctype is None or pointer.ctype.kind != "ptr":
            raise error_at(c, "a subscript of something that is not a UB pointer (a local array?) is not supported")
        address = self.materialize(self.pointer_arith(c, "+", pointer, self.expr(index)))
        return address, scalar(pointer.ctype.etype)

    def store_element(self, c, target, value):
        """`p[i] = value`: one element stored from a scalar register (SCALAR_STORE)."""
        address, ctype = self.element_address(target)
        value = self.materialize(self.convert(value, ctype), ctype)
        self.emit("st", ir.Mem(ir.view(address.reg)), ir.view(value.reg, ctype.etype))
        return value
