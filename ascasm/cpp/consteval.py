"""The constant evaluator: what a C++ expression's value is at translation time, when it has one.

The lowering asks it first (`try_const`, `const_expr`), and lowers to instructions only what is not
constant; `if constexpr`, `static_assert`, template arguments and constexpr initialisers need it to
succeed. `ConstantEvaluator` walks the AST itself, never emitting: literals, operators (folded in the
C type by the same code the lowering folds with), `?:`, casts and conversions, traits. It asks the
lowering only what the lowering's scopes know, with emission forbidden (`const_only`): what a name is
bound to (a constant, or a run-time value: then the expression is not constant), and the value of a
call (a builtin, or a constexpr function inlined with its template arguments bound). It also covers
template arguments written as text (libclang gives only the tokens of a dependent expression:
`token_value`, `TextExpression`), the standard traits (`is_same`, `IsSameType`, `is_integral`, ... and
clang's `__is_*` builtins the stubs are written with)."""
from __future__ import annotations

import ast
import re

from . import templates
from .builtin_calls import VECTOR_BYTES
from .clang import CppError, error_at, evaluated_number, operator_of, tokens
from .cpptypes import BOOL, S32, S64, U64, CType, scalar, split_template_args
from .values import Const, EnumValue, NotConstant, fold_unary, round_to, truth


class ConstantEvaluation:
    """The constant evaluator's part of the lowering (lower.py's Lowering inherits it)."""

    def try_const(self, c):
        """c's value if it is a compile-time constant, else None (nothing emitted)."""
        try:
            return self.constant(c)
        except (NotConstant, CppError):
            return None

    def constant(self, c) -> Const:
        """c's value; NotConstant when it is known only at run time."""
        self.const_only += 1
        try:
            return ConstantEvaluator(self).value(c)
        finally:
            self.const_only -= 1

    def const_expr(self, c, what="value"):
        value = self.try_const(c)
        if value is None:
            raise error_at(c, f"this {what} must be a compile-time constant")
        return value

    def template_arg_value(self, text: str, c):
        """A template argument's text as a Const: a type, an enum member, a constexpr name, a type
        trait's value, a bool literal or a number."""
        trait = self.trait_value(text, c)
        if trait is not None:
            return trait
        ctype = self.type_from_text(text)
        if ctype is not None and ctype.kind not in ("enum", "struct"):
            return Const(ctype, None)
        name = text.split("::")[-1].strip()
        for frame in reversed(self.frames):
            if name in frame.targs:
                return frame.targs[name]
            break
        local = self.frame.vars.get(("name", name))
        if isinstance(local, Const):             # a constexpr local (a *SpecificMode struct, a count)
            return local
        outer = self.outer_decls.get(name)      # a constexpr local of the function around a block
        if outer is not None and text.strip() == name:
            self.const_only += 1
            try:
                value = self.outer_variable(c, outer)
            except NotConstant:
                value = None
            finally:
                self.const_only -= 1
            if isinstance(value, Const):
                return value
        member = self.index.enum_constant(text)
        if member is not None:
            return Const(EnumValue(member.semantic_parent.spelling, member.spelling, member.enum_value),
                         CType("enum", name=member.semantic_parent.spelling))
        var = self.index.variable(name)
        if var is not None:
            value = self.outer_variable(c, var)
            if isinstance(value, Const):
                return value
        if text.strip() in ("true", "false"):
            return Const(text.strip() == "true", BOOL)
        try:
            return Const(int(text.rstrip("uUlL"), 0), S64)
        except ValueError:
            pass
        if re.search(r"[-+*/%<>=!&|?()]", text):
            return TextExpression(self, text, c).value()
        raise error_at(c, f"cannot evaluate the template argument '{text}'")

    def trait_value(self, text: str, c):
        """`std::is_same<A, B>::value`, `is_same_v<A, B>`, `IsSameType<A, B>::value` and the
        is_integral/is_floating_point/is_signed/is_unsigned family, on our types, and std::negation,
        conjunction and disjunction of them; a class template's static member (a kernel's own trait)."""
        m = _TRAIT.match(text.replace(" ", ""))
        if m and m.group(1) in _COMBINATORS:          # negation/conjunction/disjunction of traits
            values = [self.trait_value(arg, c) for arg in split_template_args(m.group(2))]
            if any(v is None for v in values):
                return None
            return Const(bool(_COMBINATORS[m.group(1)]([v.value for v in values])), BOOL)
        if not m or m.group(1) not in _TRAITS:
            return templates.static_member_value(self, text)     # a trait of the kernel's own
        args = split_template_args(m.group(2))
        types = [self.type_from_text(arg) for arg in args]
        if m.group(1) in ("is_same", "IsSameType") and sum(t is None for t in types) == 1 and \
                any(arg.strip() in _HOST_ONLY_TYPES for arg in args):
            return Const(False, BOOL)       # `IsSameType<T, double>`: no vector type is a double
        if any(t is None for t in types):
            raise error_at(c, f"cannot evaluate '{text}': unknown type")
        return Const(bool(_TRAITS[m.group(1)](*types)), BOOL)

    def builtin_trait(self, c, name):
        """clang's type-trait builtins the standard headers are written with: `__is_signed(T)`."""
        text = "".join(tokens(c))
        if not text.startswith(name + "(") or not text.endswith(")"):
            raise error_at(c, f"cannot evaluate '{text}'")
        types = [self.type_from_text(arg) for arg in split_template_args(text[len(name) + 1:-1])]
        if any(t is None for t in types):
            raise error_at(c, f"cannot evaluate '{text}': unknown type")
        return Const(bool(_TRAITS[_BUILTIN_TRAITS[name]](*types)), BOOL)

    def token_value(self, c):
        """An expression libclang leaves unexposed in a template (a dependent name): by its tokens;
        a lone name is first looked for among the variables in scope."""
        text = " ".join(tokens(c))
        if not text:
            raise error_at(c, "unsupported expression")
        if text.isidentifier():
            for frame in reversed(self.frames):
                if ("name", text) in frame.vars:
                    return frame.vars[("name", text)]
                if frame.ret_label is not None:
                    break
            decl = self.outer_decls.get(text)
            if decl is not None:
                bound = self.lookup_var(decl)
                return bound if bound is not None else self.outer_variable(c, decl)
        return self.template_arg_value(text.replace(" :: ", "::"), c)


class ConstantEvaluator:
    """An expression's value over its AST (`value`), by cursor kind (the `c_<kind>` methods); a kind it
    does not know (a call, a member, sizeof, an initialiser list) is the lowering's, in constant-only mode."""

    def __init__(self, lowering):
        self.lowering = lowering

    def value(self, c) -> Const:
        handler = getattr(self, "c_" + c.kind.name.lower(), None)
        result = handler(c) if handler is not None else self.lowering.expr(c)
        if not isinstance(result, Const):
            raise NotConstant
        return result

    # A literal's value is clang's: the tokens of a literal a macro expands to are not the literal's
    # (none, or the macro's whole definition and what follows it)
    def c_integer_literal(self, c):
        value = evaluated_number(c)
        if not isinstance(value, int):
            raise error_at(c, "an integer literal whose value clang does not give")
        return Const(value, self.lowering.try_resolve(c.type, c) or S32)

    def c_floating_literal(self, c):
        value = evaluated_number(c)
        if not isinstance(value, float):
            raise error_at(c, "a floating literal whose value clang does not give")
        ctype = self.lowering.try_resolve(c.type, c)       # None for a double
        if ctype is None or ctype.etype not in ("f32", "f16", "bf16"):   # a double: its value as written
            return Const(value, scalar("f32"))
        return Const(round_to(value, ctype), ctype)

    def c_cxx_bool_literal_expr(self, c):
        return Const(tokens(c)[0] == "true", BOOL)

    def c_character_literal(self, c):
        return Const(ord(ast.literal_eval(tokens(c)[0])), S32)

    def c_cxx_null_ptr_literal_expr(self, c):
        return Const(0, U64)

    def c_paren_expr(self, c):
        return self.value(next(c.get_children()))

    def c_unexposed_expr(self, c):
        children = list(c.get_children())
        if is_builtin_trait(c, children) or len(children) != 1:
            return self.lowering.expr(c)
        return self.lowering.as_expression_type(c, self.value(children[0]))

    def c_unary_operator(self, c):
        op = operator_of(c)
        if op not in ("!", "+", "-", "~"):
            raise NotConstant               # ++, --, dereference and address are run-time
        return fold_unary(op, self.value(next(c.get_children())))

    def c_binary_operator(self, c):
        op = operator_of(c)
        a, b = list(c.get_children())
        if op in ("&&", "||"):
            left = truth(self.value(a))
            if left == (op == "||"):
                return Const(int(left), BOOL)
            return Const(int(truth(self.value(b))), BOOL)
        if op == "=":
            raise NotConstant
        if op == ",":
            return self.lowering.expr(c)
        return self.lowering.arith(c, op, self.value(a), self.value(b))

    def c_conditional_operator(self, c):
        cond, a, b = list(c.get_children())
        return self.value(a if truth(self.value(cond)) else b)

    def c_cxx_functional_cast_expr(self, c):
        target = self.lowering.resolve_type(c.type, c)
        return self.lowering.cast_value(self.value(cast_operand(c)), target)

    c_cstyle_cast_expr = c_cxx_static_cast_expr = c_cxx_reinterpret_cast_expr = c_cxx_functional_cast_expr


def is_builtin_trait(c, children) -> bool:
    """`__is_signed(T)` and the like: clang's trait builtins, types for arguments."""
    first = next(c.get_tokens(), None)
    return first is not None and first.spelling in _BUILTIN_TRAITS and all(ch.kind.name == "TYPE_REF"
                                                                            for ch in children)


def cast_operand(c):
    """The expression a cast converts (its other children name the target type)."""
    return [ch for ch in c.get_children() if ch.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF")][-1]


class TextExpression:
    """A constant expression written in a template argument (libclang gives only its tokens):
    numbers, names, sizeof(type), traits, and C's operators, by precedence climbing."""
    _TOKEN = re.compile(r"\s*(sizeof\s*\([^()]*\)|[A-Za-z_][\w:]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?(?:::value)?"
                        r"|0[xX][0-9a-fA-F]+|\d+\.?\d*[fFuUlL]*|&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!()?:~&|^])")
    _LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
               ("+", "-"), ("*", "/", "%"))

    def __init__(self, lowering, text, cursor):
        self.lowering, self.cursor, self.text = lowering, cursor, text
        self.tokens, pos = [], 0
        while pos < len(text.rstrip()):
            m = self._TOKEN.match(text, pos)
            if not m:
                raise error_at(cursor, f"cannot evaluate the template argument '{text}'")
            self.tokens.append(m.group(1))
            pos = m.end()
        self.pos = 0

    def value(self) -> Const:
        result = self.conditional()
        if self.pos != len(self.tokens):
            raise error_at(self.cursor, f"cannot evaluate the template argument '{self.text}'")
        return result

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        self.pos += 1
        return self.tokens[self.pos - 1] if self.pos <= len(self.tokens) else None

    def conditional(self):
        cond = self.binary(0)
        if self.peek() == "?":
            self.take()
            a = self.conditional()
            self.take()
            b = self.conditional()
            return a if self.lowering.truth(cond) else b
        return cond

    def binary(self, level):
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1)
            if op in ("&&", "||"):
                x, y = self.lowering.truth(left), self.lowering.truth(right)
                left = Const(int(x and y if op == "&&" else x or y), BOOL)
            else:
                left = self.lowering.arith(self.cursor, op, left, right)
        return left

    def unary(self):
        token = self.take()
        if token == "(":
            value = self.conditional()
            self.take()
            return value
        if token in ("!", "-", "~"):
            value = self.unary()
            if token == "!":
                return Const(int(not self.lowering.truth(value)), BOOL)
            n = self.lowering.const_number(value)
            return Const(-n if token == "-" else ~n, value.ctype)
        if token == "&":       # &mode: a *SpecificMode option points to a constant struct, whose value stands for it
            return self.unary()
        if token is None or not re.match(r"[\w.]", token):
            raise error_at(self.cursor, f"cannot evaluate the template argument '{self.text}'")
        if token.startswith("sizeof"):
            ctype = self.lowering.type_from_text(token[token.index("(") + 1:-1])
            if ctype is None:
                raise error_at(self.cursor, f"sizeof of an unknown type in '{self.text}'")
            return Const(VECTOR_BYTES if ctype.kind == "vec" else ctype.width, U64)
        return self.lowering.template_arg_value(token, self.cursor)


_TRAIT = re.compile(r"^(?:[\w:]*::)?(\w+?)(?:_v)?<(.*)>(?:::value)?$")
_TRAITS = {
    "is_same": lambda a, b: a == b, "IsSameType": lambda a, b: a == b,
    "is_integral": lambda t: t.kind in ("int", "bool"), "is_floating_point": lambda t: t.kind == "float",
    "is_signed": lambda t: t.signed or t.kind == "float", "is_unsigned": lambda t: t.kind == "int" and not t.signed,
    "is_arithmetic": lambda t: t.kind in ("int", "bool", "float"),
}
_HOST_ONLY_TYPES = ("double", "long double")     # C types no vector function computes in
_COMBINATORS = {"negation": lambda values: not values[0], "conjunction": all, "disjunction": any}
_BUILTIN_TRAITS = {"__is_same": "is_same", "__is_integral": "is_integral", "__is_floating_point": "is_floating_point",
                   "__is_signed": "is_signed", "__is_unsigned": "is_unsigned", "__is_arithmetic": "is_arithmetic"}
