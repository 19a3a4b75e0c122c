"""Calls of the Reg API and of the asc_* C API as instructions: a call's arguments matched against the
forms of ascasm/isa/regapi.py (compiled there into typed arguments and instruction templates) or against
the ISA table rows that cite a C-API page, and the chosen form's instructions emitted with the call's
operands. A mixin of the Lowering (lower.py), whose expressions, conversions and emission it uses."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..isa import BY_MNEMONIC, dtypes, regapi
from ..isa.operands import REGISTER_FILES, Kind
from ..isa.regtemplates import AddressSlot, OptionSlot
from ..isa.table import BY_CAPI, CONVERSIONS, PARTS, capi_functions, width_ratio
from . import cpptypes, ir
from .clang import error_at
from .cpptypes import S32, U32, CType
from .ir import RV
from .values import Const, EnumValue


class FormCalls:
    # --- Reg API calls ----------------------------------------------------------------------
    def reg_call(self, c, callee, name, args, dest):
        api = regapi.lookup(name)
        if api is None:
            raise error_at(c, f"Reg::{name} has no ascasm instruction (no row implements it)",
                           [f"its reference page: the Reg API page of {name}; `ascasm explain Reg::` lists the "
                            "functions ascasm translates"])
        explicit = [self.template_arg_value(t, c) for t in self.explicit_template_args(callee)]
        values = [self.expr(a) for a in args]
        if name == "Move" and len(values) == 2 and all(v.ctype is not None and v.ctype.kind == "vec" for v in values):
            self.copy_register(c, values[0], values[1])       # the page's form without a mask
            return None
        if name == "CreateAddrReg" and len(values) in (2, 4, 6, 8):
            values = self.addr_operands(c, values)
        candidates = [f for f in api.forms if _matches(f, values)]
        if not candidates:
            got = ", ".join(str(v.ctype) if v.ctype else "?" for v in values)
            raise error_at(c, f"no form of Reg::{name} takes ({got})",
                           [f"forms: " + "; ".join(f.args or "()" for f in api.forms)])
        nearest = (-1, "")             # the form whose options the call meets most: what it lacks
        for form in candidates:
            options = self.options_of(c, form, explicit, values)
            met = [_option_text(options, k) == v for k, v in form.when]
            if all(met):
                return self.emit_form(c, api, form, options, values, args, dest)
            if sum(met) > nearest[0]:
                nearest = (sum(met), ", ".join(f"{k}={_option_text(options, k)} (the nearest form needs {v})"
                                               for (k, v), ok in zip(form.when, met) if not ok))
        raise error_at(c, f"Reg::{name} with these template options has no ascasm instruction: {nearest[1]}",
                       [f"see `ascasm explain Reg::{name}`"])

    # --- asc_* C API calls: the ISA table's rows that cite the function's page, operands in order ---
    def capi_call(self, c, name, args, dest):
        base, width = name, None
        m = re.match(r"^(asc_\w+?)_b(8|16|32|64)$", name)
        if m and m.group(1) in BY_CAPI:
            base, width = m.group(1), int(m.group(2))
        mnemonics = BY_CAPI.get(base)
        if not mnemonics:
            raise error_at(c, f"'{name}' has no ascasm instruction (no row cites its C-API page {base})",
                           [f"`ascasm explain {base}` shows what exists; the Reg API is translated more fully"])
        values = self.element_offset_folded(c, [self.expr(a) for a in args])
        returns = "void" not in c.type.spelling
        for mnemonic in mnemonics:
            # only the forms that cite the page: `iter aD.bW, X` is not asc_update_addr_reg, `vag` is
            for spec in (spec for spec in BY_MNEMONIC[mnemonic] if base in capi_functions(spec.ref)):
                operands = [op for op in spec.operands if not op.optional and op.kind not in (Kind.SAT, Kind.PART)]
                if returns:
                    if not operands or not operands[0].writes or operands[0].kind not in (Kind.PREG, Kind.AREG):
                        continue
                    result = dest or RV(self.new_reg("p" if operands[0].kind is Kind.PREG else "a", "temporary"),
                                        CType("mask" if operands[0].kind is Kind.PREG else "addr"))
                    bound = [result] + values
                else:
                    result, bound = None, values
                if not any(op.kind is Kind.AREG for op in operands):
                    bound = _offset_addresses(bound)
                if spec.post is not None and len(bound) > 2 and operands[-2].kind is Kind.PREG \
                        and _capi_fits(operands[-2], bound[-1]):
                    bound = bound[:-2] + [bound[-1], bound[-2]]      # the pages: (..., offset, mask)
                if len(bound) != len(operands) or not all(_capi_fits(op, v) for op, v in zip(operands, bound)):
                    continue
                etype = next((v.ctype.etype for v in bound if isinstance(v, RV) and v.ctype.kind in ("vec", "ptr")),
                             None) or (f"b{width}" if width else None)
                self.emit(mnemonic, *(self.capi_operand(c, op, v, etype, width) for op, v in zip(operands, bound)))
                return result if result is not None else Const(0, S32)
        raise error_at(c, f"no row of {', '.join(mnemonics)} takes {name}'s arguments as written",
                       [f"`ascasm explain {base}` lists the rows"])

    def element_offset_folded(self, c, values):
        """The pages' integer `offset` beside a pointer passed by value (asc_loadalign(dst, src, offset),
        asc_storealign(dst, src, offset, mask), asc_storeunalign_post(dst, src, offset), ...) counts elements
        of the pointer's type (asc_loadalign_deintlv's page: src + offset, offset * sizeof(T) bytes): the
        pointer becomes src + offset, constant or run-time. The declaration the call resolves to names the
        parameter, which tells this form from the block-stride one of the same arity; a post-update form's
        offset (the pointer passed by reference) is its step, and an addr_reg offset stays as it is."""
        params = list(c.referenced.get_arguments()) if c.referenced is not None else []
        if len(params) != len(values):
            return values
        pointer = next((i for i, v in enumerate(values) if v.ctype is not None and v.ctype.kind == "ptr"
                        and params[i].type.kind.name == "POINTER"), None)
        offset = next((i for i, (p, v) in enumerate(zip(params, values)) if p.spelling == "offset"
                       and v.ctype is not None and v.ctype.kind == "int"), None)
        if pointer is None or offset is None:
            return values
        folded = [v for i, v in enumerate(values) if i != offset]
        folded[pointer] = self.arith(c, "+", values[pointer], values[offset])
        return folded

    def capi_operand(self, c, op, value, etype, width):
        """A C-API call's value as the IR operand of the row's operand `op`."""
        kind = op.kind
        if kind is Kind.VREG:
            return ir.view(value.reg, value.ctype.etype)
        if kind in (Kind.PREG, Kind.AREG) and op.type_text == "bW":     # `iter aD.bW`, `mask pD.bW`
            bits = width or 8 * dtypes.BY_SPELLING[etype].width
            return ir.view(value.reg, f"b{bits}")
        if kind in (Kind.PREG, Kind.AREG, Kind.UREG, Kind.QREG, Kind.SREG):
            return ir.view(value.reg)
        if isinstance(value, OffsetAddress):
            return ir.Mem(ir.view(self.register_of(value.base)), ir.view(value.offset.reg))
        if kind in (Kind.ADDR, Kind.BASE):
            return ir.Mem(ir.view(self.register_of(value)))
        if kind is Kind.TVAL:
            return self.typed_value(value, etype)
        if kind is Kind.SVAL:
            return self.scalar_value(value)
        if kind in (Kind.PAT, Kind.BARRIER):
            return ir.Word(str(value.value).removeprefix("PAT_"))
        raise error_at(c, f"unsupported operand {op.text}")

    def register_of(self, value):
        """The register holding a pointer: its own, or a constant address materialised."""
        return value.reg if isinstance(value, RV) else self.materialize(value, value.ctype).reg

    def scalar_value(self, value):
        """A scalar as a plain X operand: an immediate or its register."""
        return ir.Imm(self.operand(value)) if isinstance(value, Const) else ir.view(value.reg)

    def typed_value(self, value, etype: str):
        """A scalar as an X.T operand for lanes of `etype` (conversions.typed_operand: an immediate, or a
        register, converted first when it holds another float type)."""
        return ir.scalar(self.typed_operand(value, etype), self.regs)

    def addr_operands(self, c, values):
        """CreateAddrReg's (index, stride) pairs as iter's sI and X in the page's types (uint16_t index,
        uint32_t stride, constant or run-time): one pair as it is, two to four as their offset in elements,
        index0 * stride0 + index1 * stride1 + ..., with the stride 1."""
        pairs = [(self.convert(index, _U16), self.convert(stride, U32)) for index, stride in zip(values[::2], values[1::2])]
        if len(pairs) == 1:
            index, stride = pairs[0]
        else:
            terms = [self.arith(c, "*", self.convert(index, U32), stride) for index, stride in pairs]
            index, stride = terms[0], Const(1, U32)
            for term in terms[1:]:
                index = self.arith(c, "+", index, term)
        return [self.materialize(index), stride]         # iter's sI is a register

    def options_of(self, c, form, explicit, values) -> dict:
        options = {}
        for i, tp in enumerate(form.tparams):
            name, _, default = tp.partition("=")
            if i < len(explicit):
                v = explicit[i]
                options[name] = v.value if isinstance(v.value, (CType, EnumValue, dict)) else v.value
            elif default:
                options[name] = default
        if "T" not in options or options["T"] is None or str(options.get("T")) == "DefaultType":
            for v in values:
                if v.ctype is not None and v.ctype.kind in ("vec", "ptr"):
                    options["T"] = cpptypes.scalar(v.ctype.etype)
                    break
        return {k: (v.member if isinstance(v, EnumValue) else _trait_name(v)) for k, v in options.items()}

    def emit_form(self, c, api, form, options, values, args, dest):
        t = options.get("T")
        etype = t.etype if isinstance(t, CType) and t.etype else None
        bound = dict(zip(form.operands, values))          # regapi.Arg -> the call's value
        result = None
        if form.result is not None:
            kind = form.result.kind
            result = dest if dest is not None else RV(self.new_reg(REGISTER_FILE[kind], "temporary"),
                                                      CType(REGISTER_CTYPE[kind]))
            bound[form.result] = result
        for template in form.templates:
            template, advance = self.post_update_units(c, form, template, bound)
            self.emit_template(c, template, bound, etype, options)
            if advance is not None:
                pointer, stride = advance
                self.store(bound[pointer], self.pointer_arith(c, "+", bound[pointer], bound[stride]))
        return result if result is not None else Const(0, S32)

    def post_update_units(self, c, form, template, bound):
        """The pages count a vector form's postUpdateStride in elements of the pointer's type T; the
        instruction's X counts elements of its first vector operand's view (vsta.pack.pu of a b32 view
        after a float->half Cast stores halves but advances by b32 elements). Scale the stride to the
        view's units when it divides; otherwise emit the form without post-update and advance the pointer
        by stride * sizeof(T) bytes. Returns the template to emit and (pointer, stride) to advance, or None."""
        if not template.post_update or form.advanced is None or form.stride_in_blocks:
            return template, None
        pointer, stride_arg = form.advanced
        view = template.first_vector()
        if view is None:
            return template, None            # a mask's post-update counts bytes (its page)
        pointer_type = bound[pointer].ctype.etype
        pointer_width = dtypes.BY_SPELLING[pointer_type].width
        unit_width = dtypes.BY_SPELLING[view.view or bound[view.arg].ctype.etype].width
        if pointer_width == unit_width:
            return template, None
        stride = bound[stride_arg]
        if isinstance(stride, Const) and self.const_number(stride) * pointer_width % unit_width == 0:
            bound[stride_arg] = Const(self.const_number(stride) * pointer_width // unit_width, stride.ctype)
            return template, None
        if isinstance(stride, RV) and pointer_width % unit_width == 0:
            bound[stride_arg] = self.arith(c, "*", stride, Const(pointer_width // unit_width, stride.ctype))
            return template, None
        plain = template.without_post_update()
        if plain is None:
            raise error_at(c, f"this post-update stride counts elements of {pointer_type}, "
                              f"which is not a whole number of the instruction's {unit_width}-byte elements")
        return plain, (pointer, stride_arg)

    def emit_template(self, c, template, bound, etype, options):
        """One instruction of a form, its operands filled in from the call's values."""
        values = list(bound.values())
        mnemonic = template.head + (self.cast_text(c, template.suffix, values, options) if template.suffix else "")
        operands = [self.form_operand(c, pattern, bound, etype, options) for pattern in template.operands]
        if template.keywords:
            operands += [ir.Word(word) for word in self.cast_text(c, template.keywords, values, options)]
        self.emit(mnemonic, *operands)

    def form_operand(self, c, pattern, bound, etype, options):
        if isinstance(pattern, str):
            return ir.Word(pattern)
        if isinstance(pattern, OptionSlot):
            return ir.literal(str(options[pattern.name]))
        if isinstance(pattern, AddressSlot):
            offset = pattern.offset and bound[pattern.offset.arg]
            return ir.Mem(ir.view(self.register_of(bound[pattern.base.arg])), offset and ir.view(offset.reg))
        kind, value = pattern.arg.kind, bound[pattern.arg]
        if kind is Kind.VREG:
            return ir.view(value.reg, pattern.view or value.ctype.etype)
        if pattern.sized:                       # a mask or address register with T's width
            if etype is None:
                raise error_at(c, "this call needs its element type T")
            return ir.view(value.reg, f"b{8 * dtypes.BY_SPELLING[etype].width}")
        if kind in (Kind.UREG, Kind.QREG):
            value.reg.file = REGISTER_FILE[kind]      # an UnalignReg serves either stream: its first use decides
        if kind in (Kind.UREG, Kind.QREG, Kind.PREG, Kind.AREG, Kind.SREG):
            return ir.view(value.reg, etype if pattern.view == "T" else "")
        if kind is Kind.SVAL:                   # a count or stride: a plain X operand
            return self.scalar_value(value)
        return self.typed_value(value, pattern.view or etype or value.ctype.etype)

    def cast_text(self, c, slot, values, options):
        """Cast's suffix (slot.options False: `.rint`) or its keywords (a list: `sat`, `odd`) from the trait;
        values: (dst, src, mask)."""
        trait = options.get("trait")
        if trait is None or trait == "castTrait":
            trait = {}
        if not isinstance(trait, dict):
            raise error_at(c, "Cast's trait must be a constant CastTrait")
        dst, src = values[0].ctype.etype, values[1].ctype.etype
        fields = {k: (v.value.member if isinstance(v, Const) and isinstance(v.value, EnumValue) else v)
                  for k, v in trait.items()}
        conversion = CONVERSIONS.get((dst, src))
        if conversion is None:
            raise error_at(c, f"Cast from {src} to {dst} has no ascasm instruction")
        if not slot.options:
            mode = regapi.ROUND_MODES.get(str(fields.get("roundMode", "UNKNOWN")), "")
            if not conversion.modes:
                return ""
            if not mode:
                raise error_at(c, f"Cast from {src} to {dst} needs a round mode (trait.roundMode): "
                                  f"{', '.join('CAST_' + m.upper() for m in conversion.modes)}")
            if mode not in conversion.modes:
                raise error_at(c, f"Cast from {src} to {dst} has no round mode {fields.get('roundMode')}")
            return "." + mode
        words = []
        # SAT where the page lists no saturation (a conversion that cannot overflow, or that always
        # saturates) changes nothing: the vendor's own library passes it there
        if str(fields.get("satMode", "")) == "SAT" and conversion.sat:
            words.append("sat")
        ratio = width_ratio(dtypes.named(dst, src))
        if ratio > 1:
            layout = {"ZERO": 0, "ONE": 1, "TWO": 2, "THREE": 3}.get(str(fields.get("layoutMode", "ZERO")), 0)
            words.append(PARTS[ratio][layout])
        return words


@dataclass
class OffsetAddress:
    """A C-API call's pointer followed by an addr_reg offset (`asc_loadalign(dst, src, offset)`): one
    address operand, [src + aN]."""
    base: object
    offset: RV

    @property
    def ctype(self):
        return self.base.ctype


def _offset_addresses(values: list) -> list:
    """For a row without an address-register operand: an addr_reg argument is the offset of the call's
    pointer (loads: (dst, src, offset); stores: (dst, src, offset, mask))."""
    offsets = [v for v in values if isinstance(v, RV) and v.ctype is not None and v.ctype.kind == "addr"]
    pointer = next((i for i, v in enumerate(values) if v.ctype is not None and v.ctype.kind == "ptr"), None)
    if len(offsets) != 1 or pointer is None:
        return values
    out = [v for v in values if v is not offsets[0]]
    out[out.index(values[pointer])] = OffsetAddress(values[pointer], offsets[0])
    return out


def _capi_fits(op, value) -> bool:
    if isinstance(value, OffsetAddress):
        return op.kind is Kind.ADDR
    kind = value.ctype.kind if value.ctype is not None else None
    return {Kind.VREG: kind == "vec", Kind.PREG: kind == "mask", Kind.AREG: kind == "addr",
            Kind.UREG: kind in ("ustore", "unalign"), Kind.QREG: kind in ("uload", "unalign"),
            Kind.ADDR: kind == "ptr", Kind.BASE: kind == "ptr" and isinstance(value, RV),
            Kind.SREG: isinstance(value, RV) and kind in ("int", "bool"),
            Kind.SVAL: kind in ("int", "bool", "enum"), Kind.TVAL: kind in ("int", "bool", "float"),
            Kind.PAT: kind == "enum", Kind.BARRIER: kind == "enum"}.get(op.kind, False)


_U16 = CType("int", "u16")      # CreateAddrReg's index type
REGISTER_FILE = {kind: letter for letter, (kind, _) in REGISTER_FILES.items()}     # Kind.PREG -> "p"
REGISTER_CTYPE = {Kind.VREG: "vec", Kind.PREG: "mask", Kind.AREG: "addr", Kind.UREG: "ustore", Kind.QREG: "uload"}
_SCALARS = ("int", "float", "bool", "enum")
# the C types (CType.kind) a Reg form's argument of each kind takes; an UnalignReg serves either stream
_ACCEPTS = {Kind.VREG: ("vec",), Kind.PREG: ("mask",), Kind.AREG: ("addr",), Kind.UREG: ("ustore", "unalign"),
            Kind.QREG: ("uload", "unalign"), Kind.ADDR: ("ptr",), Kind.BASE: ("ptr",),
            Kind.TVAL: _SCALARS, Kind.SVAL: _SCALARS, Kind.SREG: _SCALARS}


def _fits(arg, value) -> bool:
    """Whether a call's value can be a Reg form's argument: its type, and a variable (not a temporary)
    where the call writes it back."""
    if value.ctype is None or value.ctype.kind not in _ACCEPTS[arg.kind]:
        return False
    return not arg.written or (isinstance(value, RV) and bool(value.reg.name) and value.reg.name != "temporary")


def _matches(form, values) -> bool:
    return len(form.operands) == len(values) and all(_fits(arg, v) for arg, v in zip(form.operands, values))


def _option_text(options: dict, key: str) -> str:
    """A template option as the text a form's `when` names; "mode.algo" is the field `algo` of the
    struct a *SpecificMode option points to (INTRINSIC, the struct's default, when the initialiser
    leaves it out; nothing when the option is a plain enum)."""
    name, _, field_ = key.partition(".")
    value = options.get(name)
    if field_:
        if not isinstance(value, dict):
            return "None"
        value = value.get(field_, Const(EnumValue("", "INTRINSIC", 0), None))
    if isinstance(value, Const) and isinstance(value.value, EnumValue):
        value = value.value.member
    return str(value)


def _trait_name(value):
    """A RegTrait constant by its name (RegTraitNumOne, RegTraitNumTwo), any other value as it is."""
    if isinstance(value, dict) and set(value) == {"regNum"} and isinstance(value["regNum"], Const):
        return {1: "RegTraitNumOne", 2: "RegTraitNumTwo"}.get(value["regNum"].value, value)
    return value
