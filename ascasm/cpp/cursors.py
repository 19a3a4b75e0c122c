"""Questions about libclang cursors that need no lowering state: a declaration's initialiser, the call
inside an expression, whether a body may write a variable, a `for`'s parts, where the stubs are."""
from __future__ import annotations

import itertools

from .clang import body_of as _body, callee_and_args as _callee, operator_of, strip_parens as _strip
from .stubs import INCLUDE_DIR


_STUBS = str(INCLUDE_DIR.resolve())


def find_call(c):
    c = _strip(c)
    if c.kind.name == "CALL_EXPR":
        callee, args = _callee(c)
        if not callee and len(args) == 1 and c.referenced is not None and c.referenced.kind.name == "CONSTRUCTOR":
            return find_call(args[0])          # a copy construction around the call
        return c
    if c.kind.name in ("CXX_FUNCTIONAL_CAST_EXPR",):
        children = list(c.get_children())
        return find_call(children[-1]) if children else None
    return None


def referenced_decl(c):
    c = _strip(c)
    return c.referenced if c.kind.name == "DECL_REF_EXPR" else None


def initializer(decl):
    """A variable's or parameter's initialiser: its last expression child from its name on (those
    before the name are its type's template arguments: `RegTensor<T, RegTraitNumOne> x;`)."""
    name_at = decl.location.offset
    children = [ch for ch in decl.get_children()
                if ch.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF", "ANNOTATE_ATTR")
                and not ch.kind.name.endswith("_ATTR") and ch.extent.start.offset >= name_at]
    return children[-1] if children else None


def is_default_construct(init) -> bool:
    return init.kind.name == "CALL_EXPR" and not list(init.get_children()) and init.referenced is not None \
        and init.referenced.kind.name == "CONSTRUCTOR"


def decl_refs(c) -> set:
    return {ch.referenced.hash for ch in c.walk_preorder() if ch.kind.name == "DECL_REF_EXPR" and ch.referenced
            is not None and ch.referenced.kind.name in ("VAR_DECL", "PARM_DECL")} | \
        {ch.referenced.hash for ch in c.walk_preorder() if ch.kind.name == "MEMBER_REF_EXPR" and ch.referenced
         is not None}


def writes(body, hashes: set) -> bool:
    """Whether `body` may write a variable in `hashes`: assigns, increments, or passes it to a call
    (a call may take it by reference)."""
    if not hashes:
        return False
    for ch in body.walk_preorder():
        kind = ch.kind.name
        if kind in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR", "UNARY_OPERATOR", "CALL_EXPR"):
            children = list(ch.get_children())
            if not children:
                continue
            if kind == "BINARY_OPERATOR":
                if operator_of(ch) != "=":
                    continue
                targets = children[:1]
            elif kind == "UNARY_OPERATOR":
                if operator_of(ch) not in ("++", "--", "post++", "post--", "&"):
                    continue
                targets = children[:1]
            elif kind == "CALL_EXPR":
                targets = children[1:]
            else:
                targets = children[:1]
            for t in targets:
                d = referenced_decl(t)
                if d is not None and d.hash in hashes:
                    return True
    return False


def is_auto(decl) -> bool:
    return decl.type.spelling.replace("const ", "").strip() in ("auto", "auto *", "auto &")


def captured_type(decl):
    """The clang type of a variable a block captures; for `auto`, its initialiser's (which a template
    leaves undeduced on the variable)."""
    init = initializer(decl) if is_auto(decl) else None
    return initializer_type(init) if init is not None else decl.type


def initializer_type(init):
    """The clang type of an `auto` variable's initialiser in a template: a cast's written type
    (`(__ubuf__ T*)local.GetPhyAddr()`); of pointer arithmetic on a dependent operand (`p + i * n`,
    undeduced by clang), the pointer operand's; of a name, its variable's."""
    while init.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR") and next(init.get_children(), None) is not None:
        init = next(init.get_children())
    if init.type.kind.name not in ("DEPENDENT", "AUTO"):
        return init.type
    if init.kind.name == "BINARY_OPERATOR" and operator_of(init) in ("+", "-"):
        for operand in init.get_children():
            ctype = initializer_type(operand)
            if ctype.kind.name == "POINTER":
                return ctype
    if init.kind.name == "DECL_REF_EXPR" and init.referenced is not None \
            and init.referenced.kind.name in ("VAR_DECL", "PARM_DECL"):
        return captured_type(init.referenced)
    return init.type


def leading_constexpr(cursor, count=4) -> bool:
    """`constexpr` among the first tokens of a declaration or an `if` (without lexing all of it)."""
    return any(t.spelling == "constexpr" for t in itertools.islice(cursor.get_tokens(), count))


def in_stubs(path: str) -> bool:
    return path.startswith(_STUBS)


def never_written(decl) -> bool:
    """A local of the function around a __VEC_SCOPE__ block that nothing assigns after its
    initialisation (so a constant initialiser is its value everywhere)."""
    if decl.kind.name != "VAR_DECL":
        return False
    function = decl.semantic_parent
    body = _body(function) if function is not None and function.kind.name in (
        "FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD") else None
    return decl.kind.name == "VAR_DECL" and body is not None and not writes(body, {decl.hash})
