"""Dispatching the kernel-side API's calls: which call is an API method (`api_<Class>_<method>` or
`api_<function>` on the mixins), its object and operands, and the argument helpers every API method uses.

A new kernel-side API call goes in the module of its part (placement.py, tensors.py, datamoves.py,
sync.py) as an `api_...` method; a free function also goes in FREE_FUNCTIONS here."""
from __future__ import annotations

import re

from .. import calls
from ..clang import callee_and_args, error_at, strip_parens
from ..cpptypes import S64, U64, CType, scalar, split_template_args
from ..stubs import INCLUDE_DIR
from ..values import Const
from .members import field_of
from .objects import AllocatorObj, BufObj, GlobalTensorObj, LocalTensorObj, PipeObj, QueueObj

_HOST_HEADER = "host.h"

FREE_FUNCTIONS = {"InitSocState", "asc_vf_call", "VF_CALL", "DataCopy", "DataCopyPad", "SetFlag", "WaitFlag",
                   "PipeBarrier", "SyncAll", "GetBlockIdx", "ToFloat",
                   "GetBlockNum", "__ascasm_tiling", "__ascasm_tiling_key_is"}
TENSOR_OPS = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Subs", "Muls", "Divs", "Maxs", "Mins", "Exp", "Ln",
               "Log", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "LeakyRelu", "Not", "And", "Or", "Xor", "ShiftLeft",
               "ShiftRight", "Cast", "Compare", "CompareScalar", "Select", "ReduceSum", "ReduceMax", "ReduceMin",
               "WholeReduceSum", "WholeReduceMax", "WholeReduceMin", "BlockReduceSum", "BlockReduceMax",
               "BlockReduceMin", "Brcb", "Gather", "GatherMask", "Transpose", "Copy", "Axpy", "Sort", "Duplicate",
               "Sign", "Floor", "Ceil", "Round", "Trunc", "FusedMulAdd", "MulAddDst", "Fill", "Abs"}



def _in_stubs(decl) -> bool:
    return decl.location.file is not None and str(INCLUDE_DIR.resolve()) in str(decl.location.file)


def _in_host_stub(decl) -> bool:
    return decl is not None and decl.location.file is not None and \
        str(decl.location.file).endswith(_HOST_HEADER) and str(INCLUDE_DIR.resolve()) in str(decl.location.file)


class ApiCalls:
    """Mixin of KernelLowering: the API calls' dispatch and argument helpers."""
    def call(self, c, dest=None):
        name = self.api_call_name(c)
        if name is None:
            return super().call(c, dest)
        obj, callee, args = self.api_operands(c)
        try:
            return getattr(self, "api_" + name)(c, obj, callee, args)
        except (IndexError, TypeError, AttributeError, ValueError):
            # arguments of a form the method does not take (too few, a struct where a number goes)
            raise error_at(c, f"'{name.split('_')[-1]}' called with arguments of a form ascasm does not take "
                              "(docs/frontend.md \"Whole kernels\" lists the supported ones)") from None

    def api_call_name(self, c):
        """The kernel-side API method this call is (`api_<name>` below), or None."""
        c = strip_parens(c)
        while c.kind.name == "UNEXPOSED_EXPR" and len(list(c.get_children())) == 1:
            c = strip_parens(next(c.get_children()))
        if c.kind.name != "CALL_EXPR":
            return None
        name, decl = c.spelling, c.referenced
        if name == "operator[]":
            return "subscript" if self.object_of(next(c.get_children())) is not None else None
        callee, _ = callee_and_args(c)
        if not name and callee is not None:          # a call a template leaves dependent
            name = calls.callee_name(callee, c)[0].split("::")[-1]
        if callee is not None and callee.kind.name == "MEMBER_REF_EXPR":
            base = [ch for ch in callee.get_children() if ch.kind.is_expression()]
            obj = self.object_of(base[0]) if base else None
            if obj is not None and hasattr(self, f"api_{type(obj).__name__}_{name}"):
                return f"{type(obj).__name__}_{name}"
            return None
        if name == "DataCopy" and self.vector_depth > 0:     # in vector code, the Reg API's register load
            return None
        if name in FREE_FUNCTIONS and (decl is None or _in_stubs(decl)):
            return name
        if _in_host_stub(decl) and name in TENSOR_OPS:
            return "tensor_op"
        return None

    def object_of(self, expr):
        """The API object an expression names or an API call gives (`t[8]`, `t.ReinterpretCast<U>()`),
        or None."""
        expr = strip_parens(expr)
        while expr.kind.name == "UNEXPOSED_EXPR" and len(list(expr.get_children())) == 1:
            expr = strip_parens(next(expr.get_children()))
        if expr.kind.name == "CALL_EXPR" and self.api_call_name(expr) is not None:
            value = self.expr(expr)
            return value.value if isinstance(value, Const) else None
        if expr.kind.name not in ("DECL_REF_EXPR", "MEMBER_REF_EXPR"):
            return None
        decl, name = expr.referenced, field_of(expr)
        value = self.lookup_var(decl) if decl is not None else None
        if value is None and name is not None:
            owner = self.owner_of([ch for ch in expr.get_children() if ch.kind.is_expression()])
            value = owner.fields.get(name) if owner is not None else None
        if isinstance(value, Const) and isinstance(value.value, (LocalTensorObj, GlobalTensorObj, QueueObj,
                                                                  BufObj, PipeObj, AllocatorObj)):
            return value.value
        return None

    def api_operands(self, c):
        """(the object or None, the callee cursor, the argument cursors) of an API call."""
        c = strip_parens(c)
        while c.kind.name == "UNEXPOSED_EXPR" and len(list(c.get_children())) == 1:
            c = strip_parens(next(c.get_children()))
        if c.spelling == "operator[]":
            children = list(c.get_children())
            return self.object_of(children[0]), None, children[-1:]
        callee, args = callee_and_args(c)
        obj = None
        if callee is not None and callee.kind.name == "MEMBER_REF_EXPR":
            base = [ch for ch in callee.get_children() if ch.kind.is_expression()]
            obj = self.object_of(base[0]) if base else None
        return obj, callee, args

    def template_type(self, c, callee, default=None) -> CType:
        texts = self.explicit_template_args(callee) if callee is not None else []
        if not texts:
            if default is None:
                raise error_at(c, "give the element type as a template argument (<T>)")
            return default
        element = self.type_from_text(texts[0])
        if element is None or not element.is_scalar:
            raise error_at(c, f"'{texts[0]}' is not a scalar element type")
        return element

    def const_arg(self, c, arg, what) -> int:
        value = self.expr(arg)
        if not isinstance(value, Const):
            raise error_at(arg, f"{what} must be known at translation time (a constant or a tiling field): "
                                "ascasm places the UB buffers once")
        return int(self.const_number(value))

    def scalar_reg(self, value, ctype=U64):
        return self.materialize(self.convert(value, ctype), ctype)
    def tensor_arg(self, arg, kind):
        obj = self.object_of(arg)
        if obj is None:
            value = self.expr(arg)
            obj = value.value if isinstance(value, Const) else None
        if not isinstance(obj, kind):
            raise error_at(arg, f"expected a {kind.__name__.replace('Obj', '')} here")
        if isinstance(obj, LocalTensorObj) and obj.addr is None:
            raise error_at(arg, "a LocalTensor used before it was allocated (AllocTensor, DeQue or TBuf::Get)")
        if isinstance(obj, GlobalTensorObj):
            self.check_global(arg, obj)
        return obj

    def tensor_or_none(self, arg):
        value = self.expr(arg)
        obj = value.value if isinstance(value, Const) else None
        if isinstance(obj, LocalTensorObj) and obj.addr is None:
            raise error_at(arg, "a LocalTensor used before it was allocated (AllocTensor, DeQue or TBuf::Get)")
        if isinstance(obj, GlobalTensorObj):
            self.check_global(arg, obj)
        return obj if isinstance(obj, (LocalTensorObj, GlobalTensorObj)) else None

    def api_InitSocState(self, c, _obj, callee, args):
        return Const(0, S64)        # the machine starts in its documented state

    def api_ToFloat(self, c, _obj, callee, args):
        """`ToFloat(x)` of a half or bfloat16_t scalar: its value as a float (a widening, exact)."""
        return self.convert(self.expr(args[0]), scalar("f32"))

    def api_asc_vf_call(self, c, _obj, callee, args):
        """`asc_vf_call<F<args>>(...)`: the vector function F called with those template arguments."""
        texts = self.explicit_template_args(callee) if callee is not None else []
        text = texts[0] + ">" * (texts[0].count("<") - texts[0].count(">")) if texts else ""   # `>>` is one token
        m = re.fullmatch(r"\s*&?\s*([\w:]+)\s*(?:<(.*)>)?\s*", text) if texts else None
        function = self.index.function(m.group(1).split("::")[-1], len(args), []) if m else None
        if function is None:
            raise error_at(c, f"asc_vf_call: no vector function '{texts[0] if texts else ''}' defined in the file")
        inner = split_template_args(m.group(2)) if m.group(2) else []
        # the call's own template argument names F; F's arguments are what its body binds
        self.explicit_template_args = \
            lambda cursor: inner if cursor is callee else type(self).explicit_template_args(cursor)
        try:
            return self.inline(c, callee, function, args)
        finally:
            del self.explicit_template_args

    api_VF_CALL = api_asc_vf_call

    def api_tensor_op(self, c, _obj, callee, args):
        raise error_at(c, f"AscendC::{c.spelling} on LocalTensors (the tensor-level API, page '{c.spelling}') is not "
                          "implemented: compute with the Reg API in a __simd_vf__ function or a __VEC_SCOPE__ block")
