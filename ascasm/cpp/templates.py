"""Template arguments, bound before anything is lowered: a unit's class and function templates from the
entry, partial specialisations by their pattern, defaults, deduction from a call's arguments, and a
class template named with its arguments (`Trait<T>::type`, `numeric_limits<T>::max()`) resolved to the
specialisation they choose.

Arguments live in the lowering's frames as Consts by parameter name (a type argument is a Const whose
value is its CType); the lowering's type methods (lower.py `resolve_type`, `lookup_type`) read them."""
from __future__ import annotations

import re

from . import cpptypes
from .clang import CppError, error_at, has_body, tokens
from .cpptypes import split_template_args
from .cursors import initializer
from .scope import Frame
from .values import Const

_PARAMETER_KINDS = ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER")


def template_params(cursor) -> list:
    """The type and value template parameters of a class or function template, in order."""
    return [c for c in cursor.get_children() if c.kind.name in _PARAMETER_KINDS]


def pattern_binding(cls, texts) -> dict | None:
    """A partial specialisation's parameters bound from the arguments of the class it specialises:
    `Part<T, 2>` with (half, 2) binds T = half; None when the arguments do not fit its pattern (or
    `cls` is no partial specialisation)."""
    if cls.kind.name != "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION" or "<" not in cls.displayname:
        return None
    pattern = split_template_args(cls.displayname[cls.displayname.index("<") + 1:-1])
    names = {p.spelling for p in template_params(cls)}
    if len(pattern) != len(texts):
        return None
    bound = {}
    for want, text in zip(pattern, texts):
        if want in names:
            bound[want] = text
        elif want.replace(" ", "") != text.replace(" ", ""):
            return None
    return bound


def bind_template(lowering, cursor, texts, what, named=None):
    """Bind the template parameters of the unit's class or function `cursor` in the lowering's frame:
    from the entry's argument texts, by name (`named`), else their defaults."""
    params = template_params(cursor)
    frame = lowering.frame
    pattern = pattern_binding(cursor, texts) if texts else None
    if pattern is not None:             # the entry names the primary template's arguments
        texts, named = [], {**pattern, **(named or {})}
    if len(texts) > len(params) and cursor.kind.name == "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION":
        raise CppError(f"the entry's arguments <{', '.join(texts)}> do not fit the partial specialisation "
                       f"{cursor.displayname}")
    if len(texts) > len(params):
        raise CppError(f"{what} takes {len(params)} template arguments, the entry gives {len(texts)}")
    for i, param in enumerate(params):
        if named and param.spelling in named:
            text = named[param.spelling]
        elif i < len(texts):
            text = texts[i]
        else:
            text = template_default(param)
            if text is None:
                needed = ", ".join(p.spelling for p in params)
                raise CppError(f"{what} is a template: give its arguments in the entry, e.g. "
                               f"{cursor.spelling}<{needed}>")
        frame.targs[param.spelling] = lowering.template_arg_value(text, cursor)


def template_default(tp):
    """A template parameter's default argument as text (its tokens up to the list's closing `>`)."""
    toks = tokens(tp)
    if "=" not in toks:
        return None
    out, depth = [], 0
    for t in toks[toks.index("=") + 1:]:
        depth += t.count("<") if t in ("<", "<<") else 0
        if t in (">", ">>"):
            if depth - len(t) < 0:
                out.append(">" * depth) if depth > 0 else None
                break
            depth -= len(t)
        if t == "," and depth == 0:
            break
        out.append(t)
    return join_tokens(out)


def join_tokens(toks) -> str:
    """Tokens back to text, with a space only between two words."""
    text = ""
    for t in toks:
        if text and (t[0].isalnum() or t[0] == "_") and (text[-1].isalnum() or text[-1] == "_"):
            text += " "
        text += t
    return text


def deduce(param_spelling: str, value, targs: dict, names: set):
    """Bind a template type parameter from an argument: `T`, `T*`, `RegTensor<T>`, `const T&`."""
    if value.ctype is None:
        return
    text = cpptypes.strip_qualifiers(param_spelling)
    ctype = value.ctype
    if text.endswith("*") and ctype.kind == "ptr":
        text, ctype = cpptypes.strip_qualifiers(text[:-1]), cpptypes.scalar(ctype.etype)
    elif "RegTensor<" in text and ctype.kind == "vec":
        text, ctype = text[text.index("<") + 1:text.rindex(">")].split(",")[0].strip(), cpptypes.scalar(ctype.etype)
    if text in names and text not in targs and ctype.kind in ("int", "float", "bool", "vec", "mask", "addr"):
        targs[text] = Const(ctype, None)


def _closing(toks, start) -> int:
    """The index of the `>` closing the `<` at toks[start] (len(toks) when none does)."""
    depth = 0
    for i in range(start, len(toks)):
        if toks[i] == "<":
            depth += 1
        elif toks[i] == ">":
            depth -= 1
        elif toks[i] == ">>":
            depth -= 2
        if depth <= 0:
            return i
    return len(toks)


def explicit_template_args(callee) -> list[str]:
    """The `<...>` after the called name, as argument texts."""
    toks = tokens(callee) if callee is not None else []
    if callee is not None and callee.spelling and callee.spelling not in toks:
        raise error_at(callee, f"'{callee.spelling}' is called inside a macro: its template arguments cannot "
                               "be read (expand the macro in the source)")
    if "<" not in toks:
        return []
    start = toks.index("<")
    # a callee a macro's body writes has tokens running on past the call (libclang's range of it
    # ends where the macro is used): a `<` after the call's `(` is another call's
    if "(" in toks[:start] or (callee.spelling and toks[start - 1] != callee.spelling):
        return []
    return split_template_args(join_tokens(toks[start + 1:_closing(toks, start)]))


def class_instance(lowering, name: str, arg_texts) -> tuple:
    """Class template `name` with these arguments: the explicit specialisation they choose (nothing left
    to bind), else the first partial specialisation whose pattern they fit, with its parameters bound,
    else the primary template with its parameters bound; (None, {}) when there is none."""
    values = [lowering.template_arg_value(arg, None) for arg in arg_texts]
    for special in lowering.index.specialisations(name):
        written = split_template_args(special.displayname[special.displayname.index("<") + 1:-1])
        try:
            chosen = [lowering.template_arg_value(arg, None) for arg in written] == values
        except CppError:        # arguments of a type ascasm has no use for (numeric_limits<double>): not these
            continue
        if chosen:
            return special, {}
    for partial in lowering.index.partial_specialisations(name):
        bound = pattern_values(lowering, partial, values)
        if bound is not None:
            return partial, bound
    primary = lowering.index.class_template(name)
    if primary is None:
        return None, {}
    return primary, dict(zip([p.spelling for p in template_params(primary)], values))


def pattern_values(lowering, partial, values) -> dict | None:
    """A partial specialisation's parameters bound from argument values, when they fit its pattern:
    `IsSame<Tp, Tp>` fits (float, float) with Tp = float, and not (float, half); None when they do not.
    A pattern naming a parameter inside another type (`Box<Tp*>`) is not matched: an error, rather
    than the primary template chosen in its place."""
    pattern = split_template_args(partial.displayname[partial.displayname.index("<") + 1:-1])
    names = {p.spelling for p in template_params(partial)}
    if len(pattern) != len(values):
        return None
    bound = {}
    for want, value in zip(pattern, values):
        if want in names:
            if bound.setdefault(want, value) != value:
                return None
        elif names & set(re.findall(r"\w+", want)):
            raise CppError(f"cannot tell whether {partial.displayname} applies: ascasm matches a partial "
                           "specialisation's parameters only as whole arguments")
        elif lowering.template_arg_value(want, None) != value:
            return None
    return bound


_STATIC_MEMBER = re.compile(r"\s*(?:\w+\s*::\s*)*(\w+)\s*<(.*)>\s*::\s*(\w+)\s*")


def static_member_value(lowering, text: str):
    """`Trait<args>::value` for a class template of the kernel's (`IsSame<T, half>::value` with
    `IsSame<Tp, Tp> : trueType`): the static constexpr member of the specialisation the arguments
    choose, or of the first base that has it; None when text names no such member."""
    m = _STATIC_MEMBER.fullmatch(text)
    if m is None:
        return None
    cls, targs = class_instance(lowering, m.group(1), split_template_args(m.group(2)))
    return None if cls is None else member_value(lowering, cls, targs, m.group(3))


def member_value(lowering, cls, targs: dict, member: str):
    """Static member `member` of class `cls` (its template parameters bound to `targs`) or of a base:
    its constant value; None when none declares it with an initialiser."""
    decl, targs = member_decl(lowering, cls, targs, member)
    init = initializer(decl) if decl is not None and decl.kind.name == "VAR_DECL" else None
    if init is None:
        return None
    lowering.frames.append(Frame(targs=targs))
    try:
        value = lowering.constant(init)
        ctype = lowering.try_resolve(decl.type, decl)
        if ctype is not None and ctype.kind == "struct" and isinstance(value.value, list):    # {a, b}: by field
            return Const(lowering.struct_value(ctype.name, value.value), ctype)
        return lowering.convert(value, ctype) if ctype is not None and ctype.is_scalar else value
    finally:
        lowering.frames.pop()


_CLASS_NAME = re.compile(r"\s*(?:\w+\s*::\s*)*(\w+)\s*(?:<(.*)>)?\s*")


def member_decl(lowering, cls, targs: dict, name: str) -> tuple:
    """The declaration of data member `name` in class `cls` (its template parameters bound to `targs`),
    else in its bases, each base's parameters bound from the arguments the class gives it: (the
    declaration, the template arguments of the class declaring it), or (None, {})."""
    for child in cls.get_children():
        if child.kind.name in ("VAR_DECL", "FIELD_DECL") and child.spelling == name:
            return child, targs
    for base in cls.get_children():
        if base.kind.name != "CXX_BASE_SPECIFIER":
            continue
        spelling = base.type.get_canonical().spelling          # through aliases (`trueType`)
        m = _CLASS_NAME.fullmatch(base.type.spelling if "type-parameter" in spelling else spelling)
        if m is None:
            continue
        if m.group(2) is None:
            base_cls, base_targs = lowering.index.struct(m.group(1)), {}
        else:
            lowering.frames.append(Frame(targs=targs))         # the arguments name cls's parameters
            try:
                base_cls, base_targs = class_instance(lowering, m.group(1), split_template_args(m.group(2)))
            finally:
                lowering.frames.pop()
        if base_cls is not None:
            found = member_decl(lowering, base_cls, base_targs, name)
            if found[0] is not None:
                return found
    return None, {}


def static_member(lowering, callee) -> tuple | None:
    """`Cls<args>::f` called where clang leaves it unresolved (a dependent argument, as in
    `std::numeric_limits<T>::max()`): the static method with a body of the class those arguments
    choose, and the class's arguments; None for any other callee."""
    toks = tokens(callee) if callee is not None else []
    if "<" not in toks or len(toks) < 5 or toks[-2] != "::" or not toks[-1].isidentifier():
        return None
    start = toks.index("<")
    if _closing(toks, start) != len(toks) - 3:
        return None
    cls, targs = class_instance(lowering, toks[start - 1], split_template_args(join_tokens(toks[start + 1:-3])))
    if cls is None:
        return None
    method = next((m for m in cls.get_children() if m.kind.name == "CXX_METHOD" and m.spelling == toks[-1]
                   and m.is_static_method() and has_body(m)), None)
    return (method, targs) if method is not None else None
