"""Calls, by kind: calls.classify decides the kind once, and CALL_HANDLERS names the method lowering
each. A new kind of call is a CallKind member, its test in classify and its entry here; a new builtin
is an entry of builtin_calls.py's registry, a Reg alias one of ascasm/isa/regapi.py's."""
from __future__ import annotations

from ..isa import regapi
from . import calls
from .builtin_calls import BUILTINS
from .calls import CallKind
from .clang import CppError, error_at
from .values import Const, NotConstant
from .ir import RV
from .cursors import referenced_decl
from .scope import Frame


# The method lowering each kind of call, all taking (call cursor, calls.Call, destination register or
# None). A new kind of call: a CallKind member, its test in calls.classify, and its entry here.
CALL_HANDLERS = {
    CallKind.ASSIGNMENT: "assignment_call",
    CallKind.CONVERSION: "conversion",
    CallKind.BUILTIN: "builtin_call",
    CallKind.REG: "reg_api_call",
    CallKind.TENSOR_ADDRESS: "tensor_address_call",
    CallKind.HOST_SIDE: "host_side_call",
    CallKind.CAPI: "capi_api_call",
    CallKind.STATIC_MEMBER: "static_member_call",
    CallKind.INLINE: "inline_call",
    CallKind.LAMBDA: "inline_call",
}


class CallLowering:
    def call(self, c, dest: RV | None = None):
        call = calls.classify(self, c)
        return getattr(self, CALL_HANDLERS[call.kind])(c, call, dest)

    def assignment_call(self, c, call, dest):
        return self.assign(c, call.args[0], call.args[-1])

    def builtin_call(self, c, call, dest):
        return BUILTINS[call.short](self, c, call.callee, call.args)

    def reg_api_call(self, c, call, dest):
        return self.reg_call(c, call.callee, call.short, call.args, dest)

    def tensor_address_call(self, c, call, dest):
        return self.tensor_address(c, call.callee, call.args)

    def host_side_call(self, c, call, dest):
        raise error_at(c, f"'{call.short}' is a host-side call: it belongs outside the vector function "
                          "(data movement between GM and UB, synchronisation and queues run on the scalar side)")

    def capi_api_call(self, c, call, dest):
        return self.capi_call(c, call.short, call.args, dest)

    def static_member_call(self, c, call, dest):
        self.frames.append(Frame(targs=call.class_args))      # inline() gives a method its class's arguments
        try:
            return self.inline(c, None, call.decl, call.args)
        finally:
            self.frames.pop()

    def inline_call(self, c, call, dest):
        return self.inline(c, call.callee, call.decl, call.args)

    def conversion(self, c, call, dest):
        """A constructor call (T(x)) or a conversion; in a template T(x) names its type first."""
        args = [a for a in call.args if a.kind.name not in ("TYPE_REF", "TEMPLATE_REF", "NAMESPACE_REF")]
        if args and "dependent" not in c.type.spelling:
            target = self.try_resolve(c.type, c)
            value = self.expr(args[0])
            return self.convert(value, target) if target is not None and target.is_scalar else value
        if not args and dest is None:
            return Const(0, self.try_resolve(c.type, c))
        raise error_at(c, "unsupported call")

    def reg_alias(self, short, args):
        alias = regapi.REG_ALIASES[short]
        if isinstance(alias, str):
            return alias
        first = self.try_kind(args[0]) if args else None
        return alias[0 if first in ("vec", "mask") else 1]     # a load's destination comes first

    def reg_operands(self, args) -> bool:
        """An unresolved DataCopy (its arguments dependent in a template) is Reg's when a register or a
        UB pointer is among its first two arguments: the host forms take only tensors."""
        return any(self.try_kind(a) in ("vec", "mask", "ptr") for a in args[:2])

    def try_kind(self, arg):
        try:
            self.const_only += 1
            value = self.expr(arg)
            return value.ctype.kind if value.ctype is not None else None
        except (NotConstant, CppError):
            decl = referenced_decl(arg)
            if decl is not None:
                bound = self.lookup_var(decl)
                if bound is not None and bound.ctype is not None:
                    return bound.ctype.kind
            return None
        finally:
            self.const_only -= 1
