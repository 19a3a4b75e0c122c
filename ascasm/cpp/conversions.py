"""Types and conversions: a clang type resolved to a CType with the frames' template arguments bound
(member typedefs of class templates included), and values converted as C converts them, constants
folded in the target type, run-time values wrapped to its width."""
from __future__ import annotations

import math

from ..isa import dtypes
from . import cpptypes, ir, templates
from .clang import CppError, error_at
from .values import Const, number, round_to as _in_type, truth, wrap_int as _int_c
from .cpptypes import S32, CType, parse_spelling
from .ir import ARTIFICIAL, RV, VReg
from .scope import Frame


def float_text(value) -> str:
    value = float(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    return repr(value)


class Conversions:
    # --- types ------------------------------------------------------------------------------
    def resolve_type(self, ctype, cursor=None) -> CType:
        """The CType of a clang type, with the current template arguments."""
        canonical = ctype.get_canonical().spelling
        spelling = ctype.spelling if "type-parameter" in canonical else canonical
        result = parse_spelling(spelling, self.lookup_type)
        if result is None and spelling != ctype.spelling:
            result = parse_spelling(ctype.spelling, self.lookup_type)
        if result is None:
            notes = ["ascasm works on 64-bit lanes in one register (RegTraitNumOne); docs/semantics.md "
                     "\"64-bit lanes\" says how the two-register layout maps"] if "RegTraitNumTwo" in ctype.spelling else []
            raise error_at(cursor, f"unsupported type '{ctype.spelling}' in a vector function", notes) if cursor \
                else CppError(f"unsupported type '{ctype.spelling}'", notes=notes)
        return result

    def lookup_type(self, name: str, args, member=None):
        if name in ("conditional_t", "conditional", "Conditional") and len(args) == 3:   # std and AscendC spellings
            chosen = args[1] if self.truth(self.template_arg_value(args[0], None)) else args[2]
            return self.type_from_text(chosen)
        if member is not None:
            return self.member_type(name, args, member)
        for frame in reversed(self.frames):
            if name in frame.targs:
                value = frame.targs[name]
                return value.value if isinstance(value, Const) and isinstance(value.value, CType) else None
            break
        decl = self.index.typedef(name)
        if decl is not None:
            underlying = decl.underlying_typedef_type if decl.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL") else None
            if underlying is not None:
                return parse_spelling(underlying.spelling, self.lookup_type)
        enum = self.index.enum(name)
        if enum is not None:
            return CType("enum", name=name)
        struct = self.index.struct(name)
        if struct is not None:
            return CType("struct", name=name)
        return None

    def member_type(self, name: str, args, member: str) -> CType | None:
        """`Name<args>::member`: the member typedef of the explicit or partial specialisation of class
        template Name the arguments choose, else of the primary template with its parameters bound to them."""
        cls, targs = templates.class_instance(self, name, args)
        return None if cls is None else self.member_typedef(cls, member, targs)

    def member_typedef(self, cls, member: str, targs: dict) -> CType | None:
        decl = next((c for c in cls.get_children() if c.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL")
                     and c.spelling == member), None)
        if decl is None:
            return None
        self.frames.append(Frame(targs=targs))      # the typedef's text names the template's parameters
        try:
            return parse_spelling(decl.underlying_typedef_type.spelling, self.lookup_type)
        finally:
            self.frames.pop()

    def type_from_text(self, text: str) -> CType | None:
        return parse_spelling(text, self.lookup_type)

    # --- values -----------------------------------------------------------------------------
    def materialize(self, val, ctype: CType | None = None) -> RV:
        """A run-time value in a register (a constant is moved into a new one)."""
        if isinstance(val, RV):
            return val if ctype is None else self.convert(val, ctype)
        ctype = ctype or val.ctype
        reg = self.new_reg("s")
        if ctype.kind == "float":
            self.emit("fmov", ir.view(reg, ctype.etype), float_text(val.value))
        else:
            self.emit("mov", reg, int(self.const_number(val)))
        return RV(reg, ctype)

    const_number = staticmethod(number)
    truth = staticmethod(truth)

    def convert(self, val, to: CType):
        """`val` converted to scalar type `to` as C does."""
        if isinstance(val, Const):
            if to.kind == "float":
                return Const(_in_type(float(self.const_number(val)), to), to)
            if to.kind in ("int", "bool"):
                n = self.const_number(val)
                return Const(_int_c(int(n), to) if not isinstance(n, float) else self.float_to_int(n, to), to)
            return Const(val.value, to)
        src = val.ctype
        if src == to or to.kind not in ("int", "bool", "float") or src.kind == "ptr":
            return RV(val.reg, to) if to.kind in ("int", "bool") and src.kind == "ptr" else val
        if to.kind == "float":
            reg = self.new_reg("s")
            if src.kind == "float":
                self.emit("fcvt", ir.view(reg, to.etype), ir.view(val.reg, src.etype))
            else:
                self.emit("fmov", ir.view(reg, to.etype), val.reg)
            return RV(reg, to)
        if src.kind == "float":               # C truncates; fcvt.trunc saturates what C leaves undefined
            if to.kind == "bool":
                return self.compare_value("!=", val, Const(0.0, src))
            reg = self.new_reg("s")
            self.emit("fcvt.trunc", ir.view(reg, to.etype), ir.view(val.reg, src.etype))
            return RV(reg, to)
        if to.kind == "bool":
            return self.compare_value("!=", val, Const(0, S32))
        if to.width == 8 or (to.width > src.width and (to.signed or not src.signed)) or \
                (to.width == src.width and to.signed == src.signed):
            return RV(val.reg, to)
        reg = self.new_reg("s")
        self.wrap_into(reg, val.reg, to)
        return RV(reg, to)

    def as_expression_type(self, c, value):
        """A scalar value converted to the type of expression `c` (clang's implicit conversions), when
        that type is known here (a template may leave it dependent)."""
        target = self.try_resolve(c.type, c)
        if target is not None and target.is_scalar and isinstance(value, (Const, RV)) \
                and value.ctype is not None and value.ctype.is_scalar:
            return self.convert(value, target)
        return value

    def cast_value(self, value, target: CType):
        """An explicit cast of `value` to `target`: a pointer keeps its register or number, a scalar
        converts, `(RegTensor<U>&)x` reads the same register's lanes as U."""
        if target.kind == "ptr":
            if isinstance(value, RV):
                return RV(value.reg, target)
            return Const(self.const_number(value), target)
        if target.is_scalar:
            return self.convert(value, target)
        if target.kind == "vec" and isinstance(value, RV) and value.ctype.kind == "vec":
            return RV(value.reg, target)
        return value

    def float_to_int(self, n: float, to: CType) -> int:
        """A float constant as integer type `to` (C truncates; NaN and the infinities have no value)."""
        if to.kind == "bool":
            return int(n != 0)
        if not math.isfinite(n):
            raise CppError(f"{n} converted to {to}: C++ leaves the result undefined (the value is not finite)",
                           *(self.cur_loc or ()))
        return _int_c(int(n), to)

    def wrap_into(self, dst: VReg, src: VReg, ctype: CType):
        """dst = src wrapped to ctype's width (zero- or sign-extended to 64 bits)."""
        bits = 8 * ctype.width
        if bits >= 64:
            if dst is not src:
                self.emit("mov", dst, src, tag=ARTIFICIAL)
        elif ctype.signed:
            self.emit("shl", dst, src, 64 - bits, tag=ARTIFICIAL)
            self.emit("shr", dst, dst, 64 - bits, tag=ARTIFICIAL)
        else:
            self.emit("and", dst, src, (1 << bits) - 1, tag=ARTIFICIAL)

    def operand(self, val) -> str:
        """A scalar value as an X operand of a scalar instruction (an immediate or a register)."""
        if isinstance(val, Const):
            n = self.const_number(val)
            return float_text(n) if isinstance(n, float) else str(int(n))
        return str(val.reg)

    def typed_operand(self, val, etype: str) -> str:
        """A scalar as an X.T operand for lanes of `etype`: an immediate, an integer register, or a
        register holding the bits of a float of that type (converted first when it is another float)."""
        lane = dtypes.BY_SPELLING[etype]
        if isinstance(val, Const):
            n = self.const_number(val)
            if lane.kind == "float":
                return float_text(float(n))
            return str(_int_c(int(n), cpptypes.scalar(etype)) if not isinstance(n, float) else
                       self.float_to_int(n, cpptypes.scalar(etype)))
        if val.ctype.kind == "float":
            if val.ctype.etype != etype:
                val = self.convert(val, cpptypes.scalar(etype))
            return f"{val.reg}.{etype}" if lane.kind == "float" else str(val.reg)
        return str(val.reg)


    def try_resolve(self, ctype, cursor):
        try:
            kind = ctype.kind.name
        except ValueError:              # libclang 18's bindings have no TypeKind for _Float16
            kind = "FLOAT16"
        if kind in ("DEPENDENT", "INVALID") or "dependent" in ctype.spelling:
            return None
        try:
            return self.resolve_type(ctype, cursor)
        except CppError:
            return None
