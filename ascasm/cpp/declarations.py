"""Declarations in a vector function: local variables (scalars in s registers, register variables in
their file, constant scalars, structs and enums as values), local typedefs, `static_assert`; constant
structs and unions as values (a union's members read the bytes of the member it was built from)."""
from __future__ import annotations

from ..isa import dtypes, regapi
from . import calls, ir
from .clang import callee_and_args as _callee, error_at, loc_of, strip_parens as _strip
from .forms import REGISTER_CTYPE
from .values import Const
from .cpptypes import S32, CType
from .ir import RV
from .cursors import find_call, initializer, is_default_construct, is_auto, leading_constexpr
from .conversions import float_text
from .statements import NAME_DECLS


REGISTER_FILE = {"vec": "v", "mask": "p", "addr": "a", "ustore": "u", "uload": "q", "unalign": "u"}


def union_of(decl):
    """The union declaration of a variable's type, or None."""
    record = decl.type.get_canonical().get_declaration()
    return record if record.kind.name == "UNION_DECL" else None


class Declarations:
    def local_type(self, c):
        if c.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL"):
            self.frame.targs[c.spelling] = Const(self.resolve_type(c.underlying_typedef_type, c), None)

    def var_decl(self, decl):
        if decl.kind.name != "VAR_DECL":
            if decl.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL"):
                return self.local_type(decl)
            if decl.kind.name == "STATIC_ASSERT":
                return self.static_assert(decl)
            if decl.kind.name in NAME_DECLS + ("UNION_DECL", "STRUCT_DECL", "CLASS_DECL"):
                return          # clang resolved the names (and local types) they bring in
            raise error_at(decl, f"unsupported declaration ({decl.kind.name.lower()})")
        init = initializer(decl)
        value = None
        union = union_of(decl)
        if union is not None:
            return self.bind(decl, self.union_value(union, init, decl))
        if is_auto(decl):
            ctype, value = self.auto_type(decl, init)
        else:
            ctype = self.resolve_type(decl.type, decl)
        is_const = decl.type.is_const_qualified() or leading_constexpr(decl)
        if ctype.kind in REGISTER_FILE:
            reg = self.new_reg(REGISTER_FILE[ctype.kind], decl.spelling, loc_of(decl))
            var = RV(reg, ctype)
            self.bind(decl, var)
            if init is not None and not is_default_construct(init):
                self.assign_register(var, init)
            return
        if ctype.kind in ("enum", "struct"):
            value = self.expr(init) if init is not None else Const(None, ctype)
            if ctype.kind == "struct" and isinstance(value, Const) and isinstance(value.value, list):
                value = Const(self.struct_value(ctype.name, value.value), ctype)     # {a, b}: by field
            if ctype.kind == "struct" and isinstance(value, Const) and isinstance(value.value, dict):
                value = Const(self.copied_members(value.value, decl), ctype)
            self.bind(decl, value)
            return
        if value is None and init is not None:
            value = self.expr(init)
        if is_const and (value is None or isinstance(value, Const)):
            self.bind(decl, self.convert(value, ctype) if value is not None else Const(0, ctype))
            return
        reg = self.new_reg("s", decl.spelling, loc_of(decl))
        var = RV(reg, ctype)
        if value is not None:
            self.store(var, value)
        self.bind(decl, var)

    def auto_type(self, decl, init):
        """(type, value) of an `auto` variable: a register kind when a Reg call returns one (value
        None: the call is lowered into the variable), else the initialiser's value and its type."""
        if init is None:
            raise error_at(decl, "'auto' without an initialiser")
        call = find_call(init)
        if call is not None:
            callee, _ = _callee(call)
            name = calls.callee_name(callee, call)[0].split("::")[-1]
            api = regapi.lookup(name)
            if api is not None and api.forms[0].result is not None:
                return CType(REGISTER_CTYPE[api.forms[0].result.kind]), None
        value = self.expr(init)
        if value.ctype is None:
            raise error_at(decl, "cannot tell this 'auto' variable's type: write the type")
        return value.ctype, value

    def store(self, var: RV, value):
        """var = value (a scalar or pointer variable)."""
        if var.ctype.kind == "ptr":
            if isinstance(value, Const):
                self.emit("mov", var.reg, int(self.const_number(value)))
            else:
                self.emit("mov", var.reg, value.reg)
            return
        value = self.convert(value, var.ctype)
        if isinstance(value, Const):
            if var.ctype.kind == "float":
                self.emit("fmov", ir.view(var.reg, var.ctype.etype), float_text(float(value.value)))
            else:
                self.emit("mov", var.reg, int(self.const_number(value)))
        elif value.reg is not var.reg:
            self.emit("mov", var.reg, value.reg)

    def static_assert(self, decl):
        """A static_assert with the template arguments of the translation: checked, nothing emitted."""
        condition = next(decl.get_children(), None)
        value = self.try_const(condition) if condition is not None else None
        if value is None:
            raise error_at(decl, "this static_assert's condition is not a constant here")
        if not self.truth(value):
            message = next((t.spelling for t in decl.get_tokens() if t.kind.name == "LITERAL"
                            and t.spelling.startswith('"')), "")
            raise error_at(decl, f"static_assert failed with these template arguments{': ' + message if message else ''}")

    def union_value(self, union, init, decl):
        """A constant union: each member reads the bytes its first member was initialised with (the pun
        kernels write float constants with, `{0xff7fffff}.f`)."""
        fields = [f for f in union.get_children() if f.kind.name == "FIELD_DECL"]
        types = [self.resolve_type(f.type, f) for f in fields]
        if not fields or not all(t.is_scalar and t.kind != "bool" for t in types):
            raise error_at(decl, "a constant union of scalar members only is supported")
        written, init = _union_constructor_member(init)     # `U(v) : i(v)` writes i, not the first member
        member = next((k for k, f in enumerate(fields) if f.spelling == written), 0)
        value = self.const_expr(init, "union's initialiser") if init is not None else Const(0, S32)
        if isinstance(value.value, list):
            value = value.value[0] if value.value else Const(0, S32)
        raw = _scalar_bytes(self.convert(value, types[member]), types[member]).ljust(
            max(t.width for t in types), b"\0")
        members = {f.spelling: Const(_scalar_from_bytes(raw[:t.width], t), t) for f, t in zip(fields, types)}
        return Const(members, CType("struct", name=union.spelling))

    def copied_members(self, members: dict, decl) -> dict:
        """A struct variable holds copies of the run-time values it was made from (C++ copies them):
        `Tile tile{count, scale}; UpdateMask(tile.count)` must not change `count`."""
        copies = {}
        for name, value in members.items():
            if isinstance(value, RV) and value.ctype.is_scalar:
                copy = RV(self.new_reg("s", f"{decl.spelling}.{name}", loc_of(decl)), value.ctype)
                self.store(copy, value)
                value = copy
            copies[name] = value
        return copies

    def struct_value(self, name, values):
        decl = self.index.struct(name)
        fields = [f.spelling for f in decl.get_children() if f.kind.name == "FIELD_DECL"] if decl else []
        return dict(zip(fields, values))


def _union_constructor_member(init):
    """(the member a union's constructor initialises, the expression it gets) for a call of a constructor
    with a member initialiser (`U(uint32_t v) : i(v)`, `U() : f(0.0f)`); else (None, init)."""
    call = _strip(init) if init is not None else None
    if call is None or call.kind.name != "CALL_EXPR" or call.referenced is None \
            or call.referenced.kind.name != "CONSTRUCTOR":
        return None, init
    parts = list(call.referenced.get_children())
    params = [p.hash for p in parts if p.kind.name == "PARM_DECL"]
    for ref, expr in zip(parts, parts[1:]):
        if ref.kind.name == "MEMBER_REF":
            target = _strip(expr).referenced if _strip(expr).kind.name == "DECL_REF_EXPR" else None
            if target is not None and target.hash in params:           # the constructor's parameter
                return ref.spelling, list(call.get_arguments())[params.index(target.hash)]
            return ref.spelling, expr
    return None, init


def _scalar_bytes(value: Const, ctype: CType) -> bytes:
    import numpy as np
    return np.array(value.value, dtypes.BY_SPELLING[ctype.etype].np_dtype).tobytes()


def _scalar_from_bytes(raw: bytes, ctype: CType):
    import numpy as np
    number = np.frombuffer(raw, dtypes.BY_SPELLING[ctype.etype].np_dtype)[0]
    return float(number) if ctype.kind == "float" else int(number)
