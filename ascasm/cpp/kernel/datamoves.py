"""The data moves between GM and the UB: DataCopy (contiguous) and DataCopyPad with DataCopyExtParams and
DataCopyPadExtParams, lowered to the gm2ub/ub2gm rows where their semantics live."""
from __future__ import annotations

from .. import ir
from ..clang import error_at, loc_of, operator_of, strip_parens
from ..cpptypes import S64, U64
from ..values import Const
from .members import names, passed_for_writing
from .objects import ALIGN, PARAM_FIELDS, GlobalTensorObj, LocalTensorObj, api_class


class DataMoves:
    """Mixin of KernelLowering: DataCopy, DataCopyPad and their parameter structs."""
    def param_struct(self, kind, value, decl, ctype=None) -> dict:
        """A data move's parameter struct: a field the kernel assigns in an s register, one it never
        assigns its constant (registers for every field of three structs would not fit the 32);
        DataCopyPadExtParams<T>'s paddingValue a T in a register."""
        element = self.element_of(ctype, decl) if ctype is not None and api_class(ctype.name)[1] else S64
        given = value.value if value is not None and isinstance(value.value, (list, dict)) else []
        assigned = _assigned_fields(decl)
        fields = {}
        for k, (name, default) in enumerate(PARAM_FIELDS[kind]):
            if isinstance(given, dict):
                item = given.get(name, Const(default, S64))
            else:
                item = given[k] if k < len(given) else Const(default, S64)
            if isinstance(item, Const) and name != "paddingValue" and assigned is not None and name not in assigned:
                fields[name] = item
                continue
            reg = ir.RV(self.new_reg("s", f"{decl.spelling}.{name}", loc_of(decl)),
                        element if name == "paddingValue" else S64)
            self.store(reg, item)
            fields[name] = reg
        return fields

    def api_DataCopy(self, c, _obj, callee, args):
        if len(args) != 3:
            raise error_at(c, "DataCopy(dst, src, count) between GM and the UB is supported (the contiguous form)")
        dst, src = (self.tensor_or_none(a) for a in args[:2])
        count = self.expr(args[2])
        if count.ctype is None or not count.ctype.is_scalar:
            raise error_at(args[2], "DataCopy with DataCopyParams (32-byte units) is not supported: give an element "
                                    "count, or use DataCopyPad with DataCopyExtParams")
        count = self.convert(count, U64)
        if isinstance(dst, LocalTensorObj) and isinstance(src, GlobalTensorObj):
            size = self.scalar_reg(self.arith(None, "*", count, Const(src.etype.width, U64)))
            self.emit("gm2ub", ir.Mem(ir.view(self.address_reg(dst).reg)), ir.Mem(ir.view(src.addr.reg)), size.reg)
        elif isinstance(dst, GlobalTensorObj) and isinstance(src, LocalTensorObj):
            size = self.scalar_reg(self.arith(None, "*", count, Const(src.etype.width, U64)))
            self.emit("ub2gm", ir.Mem(ir.view(dst.addr.reg)), ir.Mem(ir.view(self.address_reg(src).reg)), size.reg)
        else:
            raise error_at(c, "DataCopy between two LocalTensors (UB to UB) is not supported; GM and UB are")
        return Const(0, S64)

    def api_DataCopyPad(self, c, _obj, callee, args):
        if len(self.explicit_template_args(callee) if callee is not None else []) > 1:
            raise error_at(c, "DataCopyPad with a PaddingMode (Compact) is not supported; the Normal form is")
        dst, src = (self.tensor_or_none(a) for a in args[:2])
        params = self.param_values(args[2], "DataCopyExtParams")
        count, length = params["blockCount"], params["blockLen"]
        skip = self.label("nop")
        # a zero blockCount or blockLen is a NOP (the page); the rows take 1..4095 bursts
        for value in (count, length):
            self.emit("beq", value.reg, 0, skip)
        if isinstance(dst, LocalTensorObj) and isinstance(src, GlobalTensorObj) and len(args) == 4:
            pad = self.param_values(args[3], "DataCopyPadExtParams")
            width = dst.etype.width
            if width not in (1, 2, 4):
                raise error_at(c, f"DataCopyPad of {dst.etype} elements: the gm2ub.align rows move 8-, 16- and "
                                  "32-bit elements")
            left = self.scalar_reg(self.arith(None, "*", pad["leftPadding"], Const(width, S64)))
            right = self.scalar_reg(self.arith(None, "*", pad["rightPadding"], Const(width, S64)))
            padded = self.arith(None, "+", self.arith(None, "+", left, right), length)
            ub_stride = self.scalar_reg(self.arith(None, "+", _round_up(self, padded),
                                                   self.arith(None, "*", params["dstStride"], Const(32, S64))))
            gm_stride = self.scalar_reg(self.arith(None, "+", length, params["srcStride"]))
            self.emit("sprset.pad", pad["paddingValue"].reg)    # T's bits in the low bytes
            self.emit(f"gm2ub.align.b{8 * width}", ir.Mem(ir.view(self.address_reg(dst).reg)),
                      ir.Mem(ir.view(src.addr.reg)), count.reg, length.reg, pad["leftPadding"].reg,
                      pad["rightPadding"].reg, pad["isPad"].reg, gm_stride.reg, ub_stride.reg)
        elif isinstance(dst, GlobalTensorObj) and isinstance(src, LocalTensorObj) and len(args) == 3:
            ub_stride = self.scalar_reg(self.arith(None, "+", _round_up(self, length),
                                                   self.arith(None, "*", params["srcStride"], Const(32, S64))))
            gm_stride = self.scalar_reg(self.arith(None, "+", length, params["dstStride"]))
            self.emit("ub2gm.align", ir.Mem(ir.view(dst.addr.reg)), ir.Mem(ir.view(self.address_reg(src).reg)),
                      count.reg, length.reg, gm_stride.reg, ub_stride.reg)
        else:
            raise error_at(c, "DataCopyPad(LocalTensor, GlobalTensor, DataCopyExtParams, DataCopyPadExtParams) or "
                              "DataCopyPad(GlobalTensor, LocalTensor, DataCopyExtParams) is supported")
        self.place(skip)
        return Const(0, S64)

    def param_values(self, arg, kind) -> dict:
        value = self.expr(arg)
        fields = value.value if isinstance(value, Const) else None
        if isinstance(fields, list):
            fields = self.param_struct(kind, value, arg)
        if not isinstance(fields, dict):
            raise error_at(arg, f"expected a {kind} here")
        return {name: self.scalar_reg(fields.get(name, Const(default, S64)), S64)
                if not (name == "paddingValue" and isinstance(fields.get(name), ir.RV)) else fields[name]
                for name, default in PARAM_FIELDS[kind]}


def _assigned_fields(decl):
    """The fields of a local struct its function assigns (`params.blockLen = n;`); None when it may be
    written whole (a member of a class, or passed for writing to a call)."""
    if decl.kind.name != "VAR_DECL" or decl.semantic_parent is None:
        return None if decl.kind.name == "FIELD_DECL" else set()
    fields = set()
    for c in decl.semantic_parent.walk_preorder():
        if c.kind.name in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR", "UNARY_OPERATOR"):
            target = strip_parens(next(c.get_children(), c))
            base = next((ch for ch in target.get_children() if ch.kind.is_expression()), None) \
                if target.kind.name == "MEMBER_REF_EXPR" else None
            if base is not None and names(base, decl):
                fields.add(target.spelling)
            elif names(target, decl) and operator_of(c) in ("=", "&"):
                return None
        elif c.kind.name == "CALL_EXPR" and any(names(arg, decl) and passed_for_writing(c, arg)
                                                for arg in list(c.get_children())[1:]):
            return None
    return fields


def _round_up(lowering, value):
    """(value + 31) / 32 * 32, at run time."""
    total = lowering.arith(None, "+", value, Const(ALIGN - 1, S64))
    return lowering.arith(None, "*", lowering.arith(None, "/", total, Const(ALIGN, S64)), Const(ALIGN, S64))
