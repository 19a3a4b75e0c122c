"""What a call in a vector function is, decided once, over the callee alone.

A call is one of the kinds below; `classify` decides which from the called name, its written namespace
path and its declaration, in one place, so that the lowering (lower.py `call`) only dispatches. The
builtins are the entries of the registry in builtin_calls.py: adding one touches that registry and a
test, never this function."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ..isa import regapi
from .builtin_calls import BUILTINS
from .clang import callee_and_args, error_at, has_body, qualified_name, strip_parens, tokens
from .templates import static_member


class CallKind(enum.Enum):
    ASSIGNMENT = "a class's assignment operator (mask = UpdateMask<T>(n))"
    CONVERSION = "a constructor call or conversion, T(x)"
    BUILTIN = "a function of the stubs the translator computes itself (builtin_calls.py)"
    REG = "an AscendC::Reg (MicroAPI) function: instructions from the Reg mapping"
    TENSOR_ADDRESS = "LocalTensor::GetPhyAddr inside a block: a captured UB pointer"
    HOST_SIDE = "a host-side call (data movement, synchronisation, queues): an error"
    CAPI = "an asc_* C API function: the ISA row citing its page"
    STATIC_MEMBER = "Cls<args>::f() that clang leaves unresolved: the method of the class the arguments choose"
    LAMBDA = "a lambda called where it is written ([]() { ... }()): its body inlined"
    INLINE = "a function with a body: inlined"


@dataclass
class Call:
    kind: CallKind
    name: str               # the called name as resolved (qualified when clang resolved it)
    short: str              # the function's own name, a Reg alias replaced by the function it stands for
    path: list              # its namespace path
    decl: object            # its declaration (INLINE: the definition to inline; STATIC_MEMBER: the method), or None
    callee: object          # the callee's cursor (its tokens hold the explicit template arguments)
    args: list
    class_args: dict | None = None      # STATIC_MEMBER: the template arguments of the method's class


def classify(lowering, c) -> Call:
    """The kind of call `c` (a CALL_EXPR), with what the lowering of that kind needs."""
    if c.spelling == "operator=":
        return Call(CallKind.ASSIGNMENT, "operator=", "operator=", [], None, None, list(c.get_children()))
    callee, args = callee_and_args(c)
    if callee is None and args and strip_parens(args[0]).kind.name == "LAMBDA_EXPR":
        return Call(CallKind.LAMBDA, "lambda", "lambda", [], strip_parens(args[0]), None, args[1:])
    name, path, decl = callee_name(callee, c)
    if not name:
        return Call(CallKind.CONVERSION, "", "", path, decl, callee, args)
    short = name.split("::")[-1]
    in_reg = any(p in ("Reg", "MicroAPI") for p in path)
    if short in regapi.REG_ALIASES and (in_reg or decl is None and (short != "DataCopy"
                                                                     or lowering.reg_operands(args))):
        short = lowering.reg_alias(short, args)

    def kind_of(kind, target=decl, class_args=None):
        return Call(kind, name, short, path, target, callee, args, class_args)
    if short in BUILTINS and (decl is None or not has_body(decl)) and not (in_reg and regapi.lookup(short)):
        return kind_of(CallKind.BUILTIN)
    if in_reg or (regapi.lookup(short) is not None and decl is None):
        return kind_of(CallKind.REG)
    if short == "GetPhyAddr" and lowering.capturing:
        return kind_of(CallKind.TENSOR_ADDRESS)
    if short in regapi.HOST_SIDE:
        return kind_of(CallKind.HOST_SIDE)
    if short.startswith("asc_"):
        return kind_of(CallKind.CAPI)
    if decl is not None and decl.kind.name == "FUNCTION_DECL" and decl.get_num_template_arguments() > 0:
        decl = None           # an instantiation: inline its template's pattern, arguments deduced again
    target = decl if decl is not None and has_body(decl) else lowering.index.function(short, len(args), path)
    if target is None and decl is None:
        member = static_member(lowering, callee)
        if member is not None:
            return kind_of(CallKind.STATIC_MEMBER, *member)
    if target is None:
        raise error_at(c, f"'{name}': no definition to inline and no Reg API of that name",
                       ["the Reg API pages are listed in docs/frontend.md"])
    return kind_of(CallKind.INLINE, target)


def callee_name(callee, c):
    """The called function's name, its written namespace path, and its declaration if resolved."""
    decl = callee.referenced if callee is not None else None
    path, name = [], ""
    if callee is not None:
        for ch in callee.walk_preorder():
            if ch.kind.name == "NAMESPACE_REF":
                path.append(ch.spelling)
            elif ch.kind.name in ("OVERLOADED_DECL_REF",) and not name:
                name = ch.spelling
    if decl is not None and decl.kind.name in ("FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD"):
        name = decl.spelling
        path = qualified_name(decl).split("::")[:-1] or path
        return name, path, decl
    if decl is not None and decl.kind.name == "CONSTRUCTOR":
        return "", path, decl
    if not name and callee is not None:
        name = callee.spelling or (c.spelling if c.spelling else "")
    if not name:
        toks = tokens(callee) if callee is not None else []
        names = [t for t in toks if t.isidentifier() and t not in ("template", "typename")]
        name = names[-1] if names and "<" not in toks else (toks[toks.index("<") - 1] if "<" in toks else "")
    return name, path, None
