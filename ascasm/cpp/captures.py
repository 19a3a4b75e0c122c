"""The inputs of a __VEC_SCOPE__ block: variables declared around it. A constant one folds; a pointer or
scalar it reads becomes a parameter of the translation, as does a member of a struct around it and
the UB address of a LocalTensor (`GetPhyAddr`)."""
from __future__ import annotations

from .clang import error_at, loc_of, strip_parens as _strip
from .values import Const, NotConstant
from .cpptypes import BOOL, CType, split_template_args, strip_qualifiers
from .ir import RV, VReg
from .cursors import initializer, captured_type, leading_constexpr, never_written
from .scope import Frame, ParamSlot
from .declarations import union_of


class Captures:
    def outer_variable(self, c, decl):
        """A variable not declared in the translated code: a constexpr global or static member
        (folded), or a captured local/member of a __VEC_SCOPE__ block (a parameter)."""
        init = initializer(decl)
        if init is not None and decl.hash not in self.unfoldable and (
                decl.type.is_const_qualified() or leading_constexpr(decl) or never_written(decl)):
            saved = self.frames
            self.frames = self.frames[:1] + [Frame(targs=dict(self.frames[0].targs))]
            try:
                union = union_of(decl)
                value = self.try_const(init) if union is None else self.union_value(union, init, decl)
            finally:
                self.frames = saved
            if value is not None:
                ctype = self.try_resolve(decl.type, decl)
                if ctype is not None and ctype.is_scalar:
                    value = self.convert(value, ctype)
                elif ctype is not None and ctype.kind == "struct" and isinstance(value.value, list):
                    value = Const(self.struct_value(ctype.name, value.value), ctype)
                self.captures[decl.hash] = value
                return value
            self.unfoldable.add(decl.hash)
        if self.const_only:
            raise NotConstant
        if not self.capturing:
            raise error_at(c, f"'{decl.spelling}' is not a parameter or local of the translated function")
        ctype = self.resolve_type(captured_type(decl), decl)
        if ctype.kind not in ("ptr", "int", "float", "bool"):
            raise error_at(c, f"'{decl.spelling}' ({ctype}) is captured by the block but is not a pointer or scalar")
        reg = VReg("s", len(self.regs), decl.spelling, loc_of(decl), 0)
        self.regs.append(reg)
        value = RV(reg, ctype if ctype.kind != "bool" else BOOL)
        self.params.append(ParamSlot(decl.spelling, "pointer" if ctype.kind == "ptr" else "scalar",
                                     ctype.etype, str(ctype), reg))
        self.captures[decl.hash] = value
        return value

    capturing = False

    def captured_struct(self, expr):
        """The declaration of a struct variable declared around a block (a local, parameter or member
        that is not a constant), whose member the block reads; else None."""
        owner = _strip(expr)
        decl = owner.referenced if owner.kind.name in ("DECL_REF_EXPR", "MEMBER_REF_EXPR") else None
        if not self.capturing or decl is None or decl.kind.name not in ("VAR_DECL", "PARM_DECL", "FIELD_DECL") \
                or self.lookup_var(decl) is not None or decl.hash in self.captures:
            return None
        if initializer(decl) is not None and (decl.type.is_const_qualified() or leading_constexpr(decl)):
            return None         # a constant struct: its members fold
        ctype = self.try_resolve(captured_type(decl), decl)
        return decl if ctype is not None and ctype.kind == "struct" else None

    def captured_member(self, c, owner, field):
        """`s.member` of a struct declared around a block: an input of the block, a scalar named
        `s.member` (the block sees the member's value on entry, as it sees a captured local)."""
        key = ("member", owner.hash, field.spelling)
        if key not in self.captures:
            ctype = self.resolve_type(field.type, field)
            if not ctype.is_scalar:
                raise error_at(c, f"member '{field.spelling}' ({ctype}) of '{owner.spelling}', captured by the "
                                  "block, is not a scalar")
            name = f"{owner.spelling}.{field.spelling}"
            reg = VReg("s", len(self.regs), name, loc_of(owner), 0)
            self.regs.append(reg)
            self.captures[key] = RV(reg, ctype)
            self.params.append(ParamSlot(name, "scalar", ctype.etype, str(ctype), reg))
        return self.captures[key]

    def tensor_address(self, c, callee, args):
        """`tensor.GetPhyAddr([offset])` inside a block: the UB address of a LocalTensor declared around
        it, an input of the block like a captured pointer (named after the tensor); offset in elements."""
        if self.const_only:
            raise NotConstant       # an address is never a constant (and folding must not add an input)
        tensor = _strip(next(callee.get_children(), None)) if callee is not None else None
        decl = tensor.referenced if tensor is not None else None
        if decl is None or decl.kind.name not in ("VAR_DECL", "PARM_DECL", "FIELD_DECL"):
            raise error_at(c, "GetPhyAddr of something that is not a LocalTensor variable")
        key = ("tensor", decl.hash)
        if key not in self.captures:
            tensor_type = decl.type.get_pointee() if decl.type.kind.name == "LVALUEREFERENCE" else decl.type
            spelling = strip_qualifiers(tensor_type.spelling)
            element = self.type_from_text(split_template_args(spelling[spelling.index("<") + 1:-1])[0]) \
                if spelling.endswith(">") and "LocalTensor<" in spelling else None
            if element is None or not element.is_scalar:
                raise error_at(c, f"GetPhyAddr of '{decl.spelling}' ({tensor_type.spelling}): not a LocalTensor "
                                  "of a scalar type")
            reg = VReg("s", len(self.regs), decl.spelling, loc_of(decl), 0)
            self.regs.append(reg)
            self.captures[key] = RV(reg, CType("ptr", element.etype))
            self.params.append(ParamSlot(decl.spelling, "pointer", element.etype,
                                         f"__ubuf__ {element}*", reg))
        base = self.captures[key]
        return self.pointer_arith(c, "+", base, self.expr(args[0])) if args else base
