"""Inlining a helper's call: a frame with the helper's template arguments (explicit, deduced from the
arguments' types, or defaulted; a method also sees its class's), its parameters bound (a read-only
one is the argument itself), its body lowered, and its return label placed when a run-time `return`
branches to it."""
from __future__ import annotations

from . import templates
from .clang import body_of as _body, error_at, loc_of
from .templates import deduce as _deduce, template_default as _template_default
from .values import Const, ConstReturn
from .cpptypes import S32
from .ir import RV
from .cursors import initializer, writes
from .scope import Frame


MAX_INLINE_DEPTH = 16


class Inlining:
    explicit_template_args = staticmethod(templates.explicit_template_args)

    def inline(self, c, callee, decl, args):
        if len(self.frames) > MAX_INLINE_DEPTH:
            raise error_at(c, f"helper calls nested deeper than {MAX_INLINE_DEPTH} (recursion?)")
        decl = decl.get_definition() or decl      # declared before the call, defined after: the body's parameters
        self.check_clang_errors(decl)
        body = _body(decl)
        params = [ch for ch in decl.get_children() if ch.kind.name == "PARM_DECL"]
        frame = Frame(ret_label=self.label("ret"))
        # class template arguments stay visible in methods, and the enclosing function's in a lambda
        is_lambda = decl.kind.name == "LAMBDA_EXPR"
        if is_lambda or decl.kind.name == "CXX_METHOD" or \
                decl.semantic_parent.kind.name in ("CLASS_TEMPLATE", "CLASS_DECL", "STRUCT_DECL"):
            frame.targs.update(self.frames[-1].targs)
            frame.cls = decl.semantic_parent if decl.kind.name == "CXX_METHOD" else None
        explicit = self.explicit_template_args(callee)
        tparams = [ch for ch in decl.get_children()
                   if ch.kind.name in ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER",
                                       "TEMPLATE_TEMPLATE_PARAMETER")]
        for tp, text in zip(tparams, explicit):
            frame.targs[tp.spelling] = self.template_arg_value(text, c)
        values = [self.expr(a) for a in args]
        # deduce the rest from the arguments' types
        for param, value in zip(params, values):
            _deduce(param.type.spelling, value, frame.targs, {tp.spelling for tp in tparams})
        for tp in tparams[len(explicit):]:
            if tp.spelling not in frame.targs:
                default = _template_default(tp)
                if default is None:
                    raise error_at(c, f"cannot deduce template parameter '{tp.spelling}' of '{decl.spelling}'")
                self.frames.append(frame)
                try:
                    frame.targs[tp.spelling] = self.template_arg_value(default, c)
                finally:
                    self.frames.pop()
        self.frames.append(frame)
        call_loc = self.cur_loc
        push = self.push_frame(decl, c)
        try:
            result_type = decl.result_type if not is_lambda else c.type     # a lambda's: its call's
            frame.ret_type = self.try_resolve(result_type, decl) if is_lambda else \
                self.resolve_type(result_type, decl) if result_type.spelling not in ("void",) else None
            for param, value in zip(params, values):
                self.bind_param(param, value, body)
            if len(values) < len(params):
                for param in params[len(values):]:
                    init = initializer(param)
                    if init is None:
                        raise error_at(c, f"missing argument '{param.spelling}'")
                    self.bind_param(param, self.expr(init), body)
            try:
                self.stmt(body)
            except ConstReturn:
                pass
        finally:
            self.frames.pop()
            self.pop_frame(push)
            self.cur_loc = call_loc
        if frame.returns_early:
            self.place(frame.ret_label)
        if frame.const_return is not None:
            return frame.const_return
        if frame.ret_reg is not None:
            return frame.ret_reg
        return Const(0, S32)

    def bind_param(self, param, value, body):
        ctype = self.resolve_type(param.type, param)
        by_ref = param.type.kind.name in ("LVALUEREFERENCE", "RVALUEREFERENCE") or "&" in param.type.spelling
        if isinstance(value, RV) and (by_ref or value.ctype.kind not in ("int", "float", "bool", "ptr")):
            self.bind(param, value if not ctype.is_scalar else RV(value.reg, value.ctype))
            return
        if not writes(body, {param.hash}):     # read only: the argument itself, converted
            self.bind(param, self.convert(value, ctype) if ctype.is_scalar else value)
            return
        var = RV(self.new_reg("s", param.spelling, loc_of(param)), ctype)
        self.store(var, value)
        self.bind(param, var)
