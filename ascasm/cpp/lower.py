"""Lowering C++ to the translator's IR (ir.py): statements and expressions of a vector function, walked
on libclang's AST of the template pattern with the template's arguments bound in an environment.

Expressions fold to constants wherever their inputs are known (template arguments, constexpr
values, sizeof, enum values, GetVecLen): that is the constexpr evaluator, and `if constexpr` needs
a constant. Everything else becomes IR instructions on virtual registers (`%s3`, `%v1`, ...) that
regalloc.py maps to machine registers. Scalars keep their C type's width: a value held in a 64-bit
s register is always in its type's range (wrapped, sign- or zero-extended) after each operation.
Helper functions are inlined; Reg:: and asc_* calls are forms.py's (with ascasm/isa/regapi.py)."""
from __future__ import annotations

import ast
import itertools
import math
import re
from dataclasses import dataclass, field

import numpy as np

from .. import floats
from ..isa import dtypes, regapi
from . import cpptypes, ir
from .clang import (CppError, check_recovered, diagnostics_error, error_at, errors_inside, evaluated_number, loc_of,
                    operator_of, qualified_name, skipped_text, tokens)
from .forms import REGISTER_CTYPE, FormCalls
from .stubs import INCLUDE_DIR
from .cpptypes import BOOL, S32, S64, U32, U64, CType, parse_spelling, scalar, split_template_args, strip_qualifiers
from .ir import RV, VReg
from .values import Const, EnumValue

MAX_INLINE_DEPTH = 16
_NAME_DECLS = ("USING_DIRECTIVE", "USING_DECLARATION", "NAMESPACE_ALIAS")
_STUBS = str(INCLUDE_DIR.resolve())
VECTOR_BYTES = 256
MAX_HW_LOOPS = 4
HW_LOOP_MAX = 65535
_REG_FILE = {"vec": "v", "mask": "p", "addr": "a", "ustore": "u", "uload": "q", "unalign": "u"}


@dataclass
class Loop:
    start: object
    end: object


def buffer_name(name: str, sreg: int) -> str:
    """The assembly name of pointer parameter `name`'s buffer (arriving in s`sreg`): assembly names are
    ASCII and not register names; C++ names need not be either."""
    if re.fullmatch(r"[vpasuqVPASUQ]\d+", name):
        return name + "_buf"
    return name if name.isascii() else f"param{sreg}_buf"


@dataclass
class ParamSlot:
    """A parameter (or a block's captured variable) and the virtual register it arrives in."""
    name: str
    kind: str               # "pointer" or "scalar"
    etype: str
    cpp_type: str
    reg: VReg


@dataclass
class Frame:
    """One inlined function: its variables (by declaration hash), its template arguments by name,
    where `return` goes."""
    vars: dict = field(default_factory=dict)
    targs: dict = field(default_factory=dict)
    ret_label: str | None = None
    returns_early: bool = False  # a run-time `return` branched to ret_label: the label must be placed
    ret_reg: RV | None = None
    ret_type: CType | None = None
    runtime_depth: int = 0      # run-time ifs/loops entered in this function
    const_return: Const | None = None


class ConstReturn(Exception):
    """A `return` whose value is a constant, outside run-time control flow: unwinds the function."""


class NotConstant(Exception):
    """Raised in constant-only mode when an expression would need an instruction."""


def _int_c(value: int, ctype: CType) -> int:
    """`value` wrapped to an integer type's range."""
    if ctype.kind == "bool":
        return int(bool(value))
    bits = 8 * ctype.width
    value &= (1 << bits) - 1
    if ctype.signed and value >> (bits - 1):
        value -= 1 << bits
    return value


def _in_type(x: float, ctype: CType) -> float:
    """A float constant rounded to its C type (float, half, bfloat16_t), as C computes it."""
    return float(floats.round_to_type(np.array([x]), dtypes.BY_SPELLING[ctype.etype])[0])


def _common(a: CType, b: CType) -> CType:
    """C's usual arithmetic conversions for two integer types (after promotion to int)."""
    def promote(t):
        return S32 if t.kind == "bool" or t.width < 4 else t
    a, b = promote(a), promote(b)
    if a == b:
        return a
    if a.width == b.width:
        return a if not a.signed else b          # the unsigned one
    wide, narrow = (a, b) if a.width > b.width else (b, a)
    return wide


class Lowering(FormCalls):
    def __init__(self, index, file: str, clang_errors=()):
        self.index = index          # name lookups over the translation unit (translate.TUIndex)
        self.file = file
        self.clang_errors = list(clang_errors)   # clang's errors anywhere in the file (check_clang_errors)
        self.checked: set = set()   # functions check_recovered passed
        self.skipped = None         # clang.skipped_text, once needed
        self.lines: list = []       # the IR (ir.py): instructions, labels, debug directives
        self.loops: list[Loop] = []
        self.regs: list[VReg] = []
        self.frames: list[Frame] = []
        self.params: list[ParamSlot] = []
        self.captures: dict = {}    # decl hash -> RV for a block's captured locals and members
        self.unfoldable: set = set()  # outer variables whose initialiser is not a constant
        self.outer_decls: dict = {}   # name -> declaration of the locals and parameters around a block
        self.labels = 0
        self.const_only = 0
        self.hw_depth = 0
        self.cur_loc = None
        self.ctrl: dict = {}
        self.loop_stack: list = []       # (break label, continue label); None inside a hardware loop
        # debug information (ascasm/cpp/debugvars.py): every variable bound, with the line it was bound
        # at and its inline depth; the .frame push lines of the inlined calls open now
        self.bindings: list = []         # (name, value, line index, depth, is a parameter)
        self.open_frames: list = []

    def check_clang_errors(self, function):
        """clang's errors inside a function the translation reads, raised: those elsewhere in the file
        (host code, other kernels) do not stop it."""
        inside = errors_inside(self.clang_errors, function)
        if inside:
            raise diagnostics_error(inside, self.file)
        if self.clang_errors and function.hash not in self.checked:
            if self.skipped is None:
                self.skipped = skipped_text(self.index.tu)
            check_recovered(function, self.clang_errors, self.skipped)
            self.checked.add(function.hash)

    # --- emission ---------------------------------------------------------------------------
    def emit(self, mnemonic: str, *operands, tag=None):
        """Append an instruction to the IR. Operands: virtual registers (VReg; ir.view(reg, type) for one
        read as a type), ir.Mem, ints, labels (a branch's last operand) and the text of a scalar operand
        (self.operand's). `tag`: a loop's start or end marker."""
        if self.const_only:
            raise NotConstant
        self.lines.append(ir.instruction(mnemonic, operands, self.regs, self.cur_loc, tag))

    def emit_text(self, text: str):
        """Append an instruction written as assembly text (a Reg form's filled-in template)."""
        if self.const_only:
            raise NotConstant
        self.lines.append(ir.parse(text, self.regs, self.cur_loc))

    def new_reg(self, file: str, name: str = "", loc=None) -> VReg:
        if self.const_only:
            raise NotConstant
        reg = VReg(file, len(self.regs), name, loc or self.cur_loc, len(self.lines))
        self.regs.append(reg)
        return reg

    def label(self, hint: str) -> str:
        self.labels += 1
        return f"L{self.labels}_{hint}"

    def place(self, label: str):
        if self.const_only:
            raise NotConstant
        self.lines.append(ir.LabelDef(label, self.cur_loc))

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
        if name in ("conditional_t", "conditional") and len(args) == 3:
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
        """`Name<args>::member`: the member typedef of the explicit specialisation of class template
        Name the arguments choose, else of the primary template with its parameters bound to them."""
        values = [self.template_arg_value(arg, None) for arg in args]
        for special in self.index.specialisations(name):
            written = split_template_args(special.displayname[special.displayname.index("<") + 1:-1])
            if [self.template_arg_value(arg, None) for arg in written] == values:
                return self.member_typedef(special, member, {})
        primary = self.index.class_template(name)
        if primary is None:
            return None
        params = [p.spelling for p in primary.get_children()
                  if p.kind.name in ("TEMPLATE_TYPE_PARAMETER", "TEMPLATE_NON_TYPE_PARAMETER")]
        return self.member_typedef(primary, member, dict(zip(params, values)))

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
            self.emit("fmov", ir.view(reg, ctype.etype), _float_text(val.value))
        else:
            self.emit("mov", reg, int(self.const_number(val)))
        return RV(reg, ctype)

    def const_number(self, val: Const):
        v = val.value
        if isinstance(v, EnumValue):
            return v.value
        if isinstance(v, bool):
            return int(v)
        if isinstance(v, (int, float)):
            return v
        raise CppError(f"expected a number, got {v!r}")

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
        if src.kind == "float":
            raise CppError(f"converting a run-time {src} to {to} has no scalar instruction in ascasm")
        if to.kind == "bool":
            return self.compare_value("!=", val, Const(0, S32))
        if to.width == 8 or (to.width > src.width and (to.signed or not src.signed)) or \
                (to.width == src.width and to.signed == src.signed):
            return RV(val.reg, to)
        reg = self.new_reg("s")
        self.wrap_into(reg, val.reg, to)
        return RV(reg, to)

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
                self.emit("mov", dst, src)
        elif ctype.signed:
            self.emit("shl", dst, src, 64 - bits)
            self.emit("shr", dst, dst, 64 - bits)
        else:
            self.emit("and", dst, src, (1 << bits) - 1)

    def operand(self, val) -> str:
        """A scalar value as an X operand of a scalar instruction (an immediate or a register)."""
        if isinstance(val, Const):
            n = self.const_number(val)
            return _float_text(n) if isinstance(n, float) else str(int(n))
        return str(val.reg)

    def typed_operand(self, val, etype: str) -> str:
        """A scalar as an X.T operand for lanes of `etype`: an immediate, an integer register, or a
        register holding the bits of a float of that type (converted first when it is another float)."""
        lane = dtypes.BY_SPELLING[etype]
        if isinstance(val, Const):
            n = self.const_number(val)
            if lane.kind == "float":
                return _float_text(float(n))
            return str(_int_c(int(n), cpptypes.scalar(etype)) if not isinstance(n, float) else
                       self.float_to_int(n, cpptypes.scalar(etype)))
        if val.ctype.kind == "float":
            if lane.kind != "float":
                raise CppError(f"a {val.ctype} scalar used with {etype} lanes: C++ would convert it, "
                               "ascasm has no scalar float-to-integer instruction")
            if val.ctype.etype != etype:
                val = self.convert(val, cpptypes.scalar(etype))
            return f"{val.reg}.{etype}"
        return str(val.reg)

    # --- frames and variables ---------------------------------------------------------------
    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def bind(self, decl, value):
        self.frame.vars[decl.hash] = value
        self.frame.vars[("name", decl.spelling)] = value    # for references libclang leaves unresolved
        if not self.const_only and decl.location.file and not _in_stubs(str(decl.location.file)):
            self.bindings.append((decl.spelling, value, len(self.lines), len(self.open_frames),
                                  decl.kind.name == "PARM_DECL"))

    def push_frame(self, decl, c):
        """A `.frame push` line for an inlined call of a kernel's own helper (not a stub's)."""
        loc = loc_of(c)
        if self.const_only or loc is None or _in_stubs(str(decl.location.file)):
            return None
        line = ir.Directive(f'.frame push "{decl.spelling}" "{loc[0]}" {loc[1]} {max(1, loc[2])}')
        self.lines.append(line)
        self.open_frames.append(line)
        return line

    def pop_frame(self, push):
        if push is None:
            return
        self.open_frames.pop()
        if self.lines[-1] is push:          # no instruction came of the call
            self.lines.pop()
        else:
            self.lines.append(ir.Directive(".frame pop"))

    def lookup_var(self, decl):
        for frame in reversed(self.frames):
            if decl.hash in frame.vars:
                return frame.vars[decl.hash]
            if frame.ret_label is not None or frame is self.frames[0]:
                break
        return self.captures.get(decl.hash)

    # --- statements -------------------------------------------------------------------------
    def stmt(self, c):
        kind = c.kind.name
        loc = loc_of(c)
        if loc is not None and not _in_stubs(loc[0]):     # a stub's inlined body shows its call site
            self.cur_loc = loc
        if kind == "COMPOUND_STMT":
            for child in c.get_children():
                self.stmt(child)
        elif kind == "DECL_STMT":
            for decl in c.get_children():
                self.var_decl(decl)
        elif kind == "IF_STMT":
            self.if_stmt(c)
        elif kind == "FOR_STMT":
            self.for_stmt(c)
        elif kind == "WHILE_STMT":
            self.while_stmt(c)
        elif kind == "DO_STMT":
            self.do_stmt(c)
        elif kind == "RETURN_STMT":
            self.return_stmt(c)
        elif kind == "BREAK_STMT":
            self.branch_to(self.loop_targets("break", c)[0])
        elif kind == "CONTINUE_STMT":
            self.branch_to(self.loop_targets("continue", c)[1])
        elif kind == "NULL_STMT":
            pass
        elif kind in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL", "STATIC_ASSERT") + _NAME_DECLS:
            self.local_type(c)
        elif kind.endswith("_EXPR") or kind.endswith("_OPERATOR") or kind == "UNEXPOSED_EXPR":
            self.expr(c, discard=True)
        else:
            raise error_at(c, f"unsupported statement ({kind.lower().replace('_', ' ')}) in a vector function")

    def local_type(self, c):
        if c.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL"):
            self.frame.targs[c.spelling] = Const(self.resolve_type(c.underlying_typedef_type, c), None)

    def branch_to(self, label: str):
        self.emit("b", label)

    def loop_targets(self, what, c):
        if not self.loop_stack or self.loop_stack[-1] is None:
            raise error_at(c, f"'{what}' outside a loop, or inside a hardware loop")
        return self.loop_stack[-1]

    def var_decl(self, decl):
        if decl.kind.name != "VAR_DECL":
            if decl.kind.name in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL"):
                return self.local_type(decl)
            if decl.kind.name == "STATIC_ASSERT":
                return self.static_assert(decl)
            if decl.kind.name in _NAME_DECLS + ("UNION_DECL", "STRUCT_DECL", "CLASS_DECL"):
                return          # clang resolved the names (and local types) they bring in
            raise error_at(decl, f"unsupported declaration ({decl.kind.name.lower()})")
        init = _initializer(decl)
        value = None
        union = _union_of(decl)
        if union is not None:
            return self.bind(decl, self.union_value(union, init, decl))
        if _is_auto(decl):
            ctype, value = self.auto_type(decl, init)
        else:
            ctype = self.resolve_type(decl.type, decl)
        is_const = decl.type.is_const_qualified() or _leading_constexpr(decl)
        if ctype.kind in _REG_FILE:
            reg = self.new_reg(_REG_FILE[ctype.kind], decl.spelling, loc_of(decl))
            var = RV(reg, ctype)
            self.bind(decl, var)
            if init is not None and not _is_default_construct(init):
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
        call = _find_call(init)
        if call is not None:
            callee, _ = _callee(call)
            name = self.callee_name(callee, call)[0].split("::")[-1]
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
                self.emit("fmov", ir.view(var.reg, var.ctype.etype), _float_text(float(value.value)))
            else:
                self.emit("mov", var.reg, int(self.const_number(value)))
        elif value.reg is not var.reg:
            self.emit("mov", var.reg, value.reg)

    def if_stmt(self, c):
        parts = list(c.get_children())          # [init;] cond then [else]
        if parts[0].kind.name == "DECL_STMT":   # if (init; cond)
            self.stmt(parts.pop(0))
        cond, then, other = parts[0], parts[1], parts[2] if len(parts) > 2 else None
        is_constexpr = _leading_constexpr(c, 3)
        value = self.try_const(cond)
        if value is not None:
            taken = then if self.truth(value) else other
            if taken is not None:
                self.stmt(taken)
            return
        if is_constexpr:
            raise error_at(cond, "this 'if constexpr' condition is not a constant here")
        else_label, end_label = self.label("else"), self.label("endif")
        self.frame.runtime_depth += 1
        self.cond_branch(cond, False, else_label if other is not None else end_label)
        self.stmt(then)
        if other is not None:
            self.branch_to(end_label)
            self.place(else_label)
            self.stmt(other)
        self.place(end_label)
        self.frame.runtime_depth -= 1

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

    def truth(self, value: Const) -> bool:
        return bool(self.const_number(value))

    def for_stmt(self, c):
        init, cond, inc, body = _for_parts(c)
        if init is not None:
            self.stmt(init)
        self.loop(c, cond, inc, body, test_first=True)

    def while_stmt(self, c):
        cond, body = list(c.get_children())
        self.loop(c, cond, None, body, test_first=True)

    def do_stmt(self, c):
        body, cond = list(c.get_children())
        self.loop(c, cond, None, body, test_first=False)

    def loop(self, c, cond, inc, body, test_first):
        self.frame.runtime_depth += 1
        if self.try_hardware_loop(c, cond, inc, body):
            self.frame.runtime_depth -= 1
            return
        top, cont, end = self.label("loop"), self.label("next"), self.label("endloop")
        value = self.try_const(cond) if cond is not None else Const(1, BOOL)
        if value is not None and not self.truth(value):
            self.frame.runtime_depth -= 1
            if not test_first:
                self.stmt(body)
            return
        if test_first and value is None:
            self.cur_loc = loc_of(cond)
            self.cond_branch(cond, False, end)
        marker = Loop(object(), object())
        self.loops.append(marker)
        self.lines.append(ir.LabelDef(top, loc_of(c), marker.start))
        self.loop_stack.append((end, cont))
        self.stmt(body)
        self.loop_stack.pop()
        self.place(cont)
        if inc is not None:
            self.cur_loc = loc_of(inc)
            self.expr(inc, discard=True)
        self.cur_loc = loc_of(cond) if cond is not None else loc_of(c)
        if value is None:
            self.cond_branch(cond, True, top, tag=marker.end)
        else:
            self.emit("b", top, tag=marker.end)
        self.place(end)
        self.frame.runtime_depth -= 1

    def try_hardware_loop(self, c, cond, inc, body) -> bool:
        """`for (i = 0; i < n; ++i)` whose count is known on entry (n not written in the body, i
        only by the increment) and whose body lowers without a branch: a vloop."""
        if self.hw_depth >= MAX_HW_LOOPS or c.kind.name != "FOR_STMT" or cond is None or inc is None:
            return False
        if any(_may_branch(ch) for ch in body.walk_preorder()):
            return False
        shape = _counted_shape(c, cond, inc)
        if shape is None:
            return False
        var_decl, bound = shape
        counter = self.lookup_var(var_decl)
        if not isinstance(counter, RV) or counter.ctype.kind != "int":
            return False
        if _writes(body, {var_decl.hash} | _decl_refs(bound)):
            return False
        count = self.try_const(bound)
        if count is not None and not (0 <= self.const_number(count) <= HW_LOOP_MAX):
            return False
        saved_lines, saved_labels, saved_loops = len(self.lines), self.labels, len(self.loops)
        # the counter must start at 0: its initialiser is the instruction just emitted (mov %sI, 0)
        if not (self.lines and _sets_zero(self.lines[-1], counter.reg)):
            return False
        if count is None:
            bound_val = self.expr(_strip(bound))
            if not (isinstance(bound_val, RV) and bound_val.ctype.kind == "int" and bound_val.ctype.width <= 2
                    and not bound_val.ctype.signed):
                del self.lines[saved_lines:]
                return False
            count_operand = bound_val.reg
        else:
            count_operand = int(self.const_number(count))
        marker = Loop(object(), object())
        self.loops.append(marker)
        self.cur_loc = loc_of(c)
        self.lines.append(ir.instruction("vloop", (count_operand,), self.regs, loc_of(c), marker.start))
        body_start = len(self.lines)
        self.loop_stack.append(None)
        self.hw_depth += 1
        try:
            self.stmt(body)
        finally:
            self.hw_depth -= 1
            self.loop_stack.pop()
        if any(isinstance(item, ir.LabelDef) or getattr(item, "is_branch", False) for item in self.lines[body_start:]):
            # lower it again as a branch loop; the virtual registers made meanwhile stay unused
            del self.lines[saved_lines:], self.loops[saved_loops:]
            self.labels = saved_labels
            return False
        self.cur_loc = loc_of(inc)
        self.expr(inc, discard=True)
        self.lines.append(ir.instruction("endloop", (), self.regs, loc_of(c), marker.end))
        return True

    def return_stmt(self, c):
        children = list(c.get_children())
        frame = self.frame
        value = self.expr(children[0]) if children else None
        if frame.ret_label is None:                     # the entry itself
            self.emit("b", "__end")
            return
        if value is not None and frame.ret_type is not None and frame.ret_type.kind not in ("void",):
            if frame.ret_type.is_scalar:
                value = self.convert(value, frame.ret_type)
        if frame.runtime_depth == 0 and frame.ret_reg is None:
            frame.const_return = value
            raise ConstReturn
        if value is not None:
            if frame.ret_reg is None:
                frame.ret_reg = RV(self.new_reg("s", "return value"), frame.ret_type)
            self.store(frame.ret_reg, value)
        frame.returns_early = True
        self.branch_to(frame.ret_label)

    # --- conditions -------------------------------------------------------------------------
    _INVERSE = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
    _BRANCH = {"==": "beq", "!=": "bne", "<": "blt", "<=": "ble", ">": "bgt", ">=": "bge"}

    def cond_branch(self, cond, when: bool, target: str, tag=None):
        """Branch to target if cond is `when`."""
        cond = _strip(cond)
        kind = cond.kind.name
        if kind == "BINARY_OPERATOR":
            op = operator_of(cond)
            if op in self._BRANCH:
                a, b = list(cond.get_children())
                left, right = self.compare_operands(self.expr(a), self.expr(b))
                if isinstance(left, Const):          # the branch needs a register first
                    left, right, op = right, left, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
                if not when:
                    op = self._INVERSE[op]
                self.emit(self._BRANCH[op], left.reg, self.operand(right), target, tag=tag)
                return
            if op in ("&&", "||"):
                a, b = list(cond.get_children())
                if (op == "&&") == when:     # both must hold (&&, when) / both must fail (||, not when)
                    skip = self.label("skip")
                    self.cond_branch(a, not when, skip)
                    self.cond_branch(b, when, target, tag)
                    self.place(skip)
                else:
                    self.cond_branch(a, when, target)
                    self.cond_branch(b, when, target, tag)
                return
        if kind == "UNARY_OPERATOR" and operator_of(cond) == "!":
            self.cond_branch(list(cond.get_children())[0], not when, target, tag)
            return
        value = self.expr(cond)
        if isinstance(value, Const):
            if self.truth(value) == when:
                self.emit("b", target, tag=tag)
            return
        self.emit("bne" if when else "beq", value.reg, 0, target, tag=tag)

    def compare_operands(self, a, b):
        """Both sides converted to their common type (so that a signed 64-bit compare is C's)."""
        if a.ctype.kind == "float" or b.ctype.kind == "float":
            raise CppError("comparing float scalars at run time has no ascasm instruction")
        if a.ctype.kind == "ptr" or b.ctype.kind == "ptr":
            return a, b
        common = _common(a.ctype, b.ctype)
        return self.convert(a, common), self.convert(b, common)

    def compare_value(self, op, a, b):
        """A comparison's 0/1 value in a register."""
        a, b = self.compare_operands(a, b)
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(int(_fold_compare(op, self.const_number(a), self.const_number(b))), BOOL)
        if isinstance(a, Const):
            a, b, op = b, a, {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        reg, done = self.new_reg("s"), self.label("cmp")
        self.emit("mov", reg, 1)
        self.emit(self._BRANCH[op], a.reg, self.operand(b), done)
        self.emit("mov", reg, 0)
        self.place(done)
        return RV(reg, BOOL)

    # --- expressions ------------------------------------------------------------------------
    def try_const(self, c):
        """c's value if it is a compile-time constant, else None (nothing emitted)."""
        self.const_only += 1
        try:
            value = self.expr(c)
            return value if isinstance(value, Const) else None
        except (NotConstant, CppError):
            return None
        finally:
            self.const_only -= 1

    def const_expr(self, c, what="value"):
        value = self.try_const(c)
        if value is None:
            raise error_at(c, f"this {what} must be a compile-time constant")
        return value

    def expr(self, c, discard=False):
        """c's value (a Const or an RV). `discard`: only its effect is wanted (a statement)."""
        kind = c.kind.name
        handler = getattr(self, "x_" + kind.lower(), None)
        if handler is None:
            raise error_at(c, f"unsupported expression ({kind.lower().replace('_', ' ')}) in a vector function")
        if discard and kind == "UNARY_OPERATOR":
            return self.x_unary_operator(c, discard=True)
        return handler(c)

    def x_unexposed_expr(self, c):
        children = list(c.get_children())
        if len(children) == 1:
            value = self.expr(children[0])
            target = self.try_resolve(c.type, c)
            if target is not None and target.is_scalar and isinstance(value, (Const, RV)) \
                    and value.ctype is not None and value.ctype.is_scalar:
                return self.convert(value, target)
            return value
        if not children:
            return self.token_value(c)
        raise error_at(c, "unsupported expression in a vector function")

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

    x_paren_expr = lambda self, c: self.expr(list(c.get_children())[0])

    # A literal's value is clang's: the tokens of a literal a macro expands to are not the literal's
    # (none, or the macro's whole definition and what follows it)
    def x_integer_literal(self, c):
        value = evaluated_number(c)
        if not isinstance(value, int):
            raise error_at(c, "an integer literal whose value clang does not give")
        return Const(value, self.try_resolve(c.type, c) or S32)

    def x_floating_literal(self, c):
        value = evaluated_number(c)
        if not isinstance(value, float):
            raise error_at(c, "a floating literal whose value clang does not give")
        ctype = self.try_resolve(c.type, c) or cpptypes.scalar("f32")
        if ctype.etype not in ("f32", "f16", "bf16"):       # a double: its value as written
            return Const(value, cpptypes.scalar("f32"))
        return Const(_in_type(value, ctype), ctype)

    def x_cxx_bool_literal_expr(self, c):
        return Const(tokens(c)[0] == "true", BOOL)

    def x_character_literal(self, c):
        return Const(ord(ast.literal_eval(tokens(c)[0])), S32)

    def x_cxx_null_ptr_literal_expr(self, c):
        return Const(0, U64)

    def x_decl_ref_expr(self, c):
        decl = c.referenced
        if decl is None:
            return self.token_value(c)
        kind = decl.kind.name
        if kind == "ENUM_CONSTANT_DECL":
            return Const(EnumValue(decl.semantic_parent.spelling, decl.spelling, decl.enum_value),
                         CType("enum", name=decl.semantic_parent.spelling))
        if kind in ("TEMPLATE_NON_TYPE_PARAMETER",):
            for frame in reversed(self.frames):
                if decl.spelling in frame.targs:
                    return frame.targs[decl.spelling]
                break
            raise error_at(c, f"template parameter '{decl.spelling}' has no argument: give it in the entry "
                              f"(Name<...>)")
        if kind in ("VAR_DECL", "PARM_DECL", "FIELD_DECL"):
            bound = self.lookup_var(decl)
            if bound is not None:
                return bound
            return self.outer_variable(c, decl)
        if kind in ("FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD"):
            raise error_at(c, f"'{decl.spelling}' used as a value (only calls are supported)")
        return self.token_value(c)          # a variable template (is_same_v<A, B>) and the like

    def outer_variable(self, c, decl):
        """A variable not declared in the translated code: a constexpr global or static member
        (folded), or a captured local/member of a __VEC_SCOPE__ block (a parameter)."""
        init = _initializer(decl)
        if init is not None and decl.hash not in self.unfoldable and (
                decl.type.is_const_qualified() or _leading_constexpr(decl) or _never_written(decl)):
            saved = self.frames
            self.frames = self.frames[:1] + [Frame(targs=dict(self.frames[0].targs))]
            try:
                union = _union_of(decl)
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
        ctype = self.resolve_type(_captured_type(decl), decl)
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
        if _initializer(decl) is not None and (decl.type.is_const_qualified() or _leading_constexpr(decl)):
            return None         # a constant struct: its members fold
        ctype = self.try_resolve(_captured_type(decl), decl)
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

    def union_value(self, union, init, decl):
        """A constant union: each member reads the bytes its first member was initialised with (the pun
        kernels write float constants with, `{0xff7fffff}.f`)."""
        fields = [f for f in union.get_children() if f.kind.name == "FIELD_DECL"]
        value = self.const_expr(init, "union's initialiser") if init is not None else Const(0, S32)
        if isinstance(value.value, list):
            value = value.value[0] if value.value else Const(0, S32)
        types = [self.resolve_type(f.type, f) for f in fields]
        if not fields or not all(t.is_scalar and t.kind != "bool" for t in types):
            raise error_at(decl, "a constant union of scalar members only is supported")
        raw = _scalar_bytes(self.convert(value, types[0]), types[0]).ljust(max(t.width for t in types), b"\0")
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

    def x_member_ref_expr(self, c):
        decl = c.referenced
        # the object, if any: in a method, `std::is_same<T, half>::value` is a member reference
        # with only the qualifier's references (namespace, template, types) for children
        children = [ch for ch in c.get_children() if ch.kind.is_expression()]
        owner = self.captured_struct(children[0]) if children and decl is not None else None
        if owner is not None:
            return self.captured_member(c, owner, decl)
        if children:
            base = self.expr(children[0])
            name = c.spelling or tokens(c)[-1]      # unnamed where the template leaves it dependent
            if isinstance(base, Const) and isinstance(base.value, dict) and name in base.value:
                return base.value[name]
            if isinstance(base, Const) and isinstance(base.value, CType):
                raise error_at(c, f"unsupported member access on the type {base.value}")
        if decl is not None and decl.kind.name in ("FIELD_DECL", "VAR_DECL"):
            bound = self.lookup_var(decl)
            return bound if bound is not None else self.outer_variable(c, decl)
        return self.token_value(c)

    def x_cxx_this_expr(self, c):
        return Const("this", None)

    def x_init_list_expr(self, c):
        return Const([self.expr(ch) for ch in c.get_children()], None)

    def x_cxx_functional_cast_expr(self, c):
        return self.cast_expr(c)

    x_cstyle_cast_expr = x_cxx_functional_cast_expr
    x_cxx_static_cast_expr = x_cxx_functional_cast_expr
    x_cxx_reinterpret_cast_expr = x_cxx_functional_cast_expr

    def cast_expr(self, c):
        children = [ch for ch in c.get_children() if ch.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF")]
        target = self.resolve_type(c.type, c)
        value = self.expr(children[-1])
        if target.kind == "ptr":
            if isinstance(value, RV):
                return RV(value.reg, target)
            return Const(self.const_number(value), target)
        if target.is_scalar:
            return self.convert(value, target)
        if target.kind == "vec" and isinstance(value, RV) and value.ctype.kind == "vec":
            return RV(value.reg, target)        # (RegTensor<U>&)x: the same register, its lanes read as U
        return value

    def x_cxx_unary_expr(self, c):
        toks = tokens(c)
        if toks[0] == "sizeof":
            inner = "".join(t + (" " if t.isidentifier() else "") for t in toks[2:-1]).strip()
            if inner.endswith("..."):
                raise error_at(c, "sizeof... is not supported")
            children = [ch for ch in c.get_children() if ch.kind.name.endswith("_EXPR")]
            if children:
                value = self.expr(children[0])
                return Const(value.ctype.width, U64)
            ctype = self.type_from_text(" ".join(toks[2:-1]))
            if ctype is None:
                raise error_at(c, f"sizeof of an unknown type: {' '.join(toks[2:-1])}")
            return Const(VECTOR_BYTES if ctype.kind == "vec" else ctype.width, U64)
        raise error_at(c, f"unsupported '{toks[0]}' expression")

    def x_conditional_operator(self, c):
        cond, a, b = list(c.get_children())
        value = self.try_const(cond)
        if value is not None:
            return self.expr(a if self.truth(value) else b)
        # in a template the operator's own type may be left dependent; its operands' types are bound
        ctype = self.try_resolve(c.type, c) or self.try_resolve(a.type, a) or self.resolve_type(b.type, b)
        result = RV(self.new_reg("s"), ctype)
        other, end = self.label("else"), self.label("endsel")
        self.cond_branch(cond, False, other)
        self.store(result, self.expr(a))
        self.branch_to(end)
        self.place(other)
        self.store(result, self.expr(b))
        self.place(end)
        return result

    def x_unary_operator(self, c, discard=False):
        op = operator_of(c)
        (child,) = list(c.get_children())
        if op in ("++", "--", "post++", "post--"):
            if _strip(child).kind.name == "ARRAY_SUBSCRIPT_EXPR":
                raise error_at(c, f"'{op.replace('post', '')}' on an element of the UB is not supported: "
                                  "write p[i] += 1")
            var = self.expr(child)
            if not isinstance(var, RV):
                raise error_at(c, f"'{op.replace('post', '')}' on something that is not a variable")
            old = None
            if op.startswith("post") and not discard:
                old = RV(self.new_reg("s"), var.ctype)
                self.emit("mov", old.reg, var.reg)
            step = 1 if "++" in op else -1
            if var.ctype.kind == "ptr":
                step *= dtypes.BY_SPELLING[var.ctype.etype].width
            self.emit("add", var.reg, var.reg, step)
            if var.ctype.kind == "int" and var.ctype.width < 8:
                self.wrap_into(var.reg, var.reg, var.ctype)
            return old or var
        value = self.expr(child)
        if op == "!":
            if isinstance(value, Const):
                return Const(int(not self.truth(value)), BOOL)
            return self.compare_value("==", value, Const(0, S32))
        if op == "+":
            return value
        if op in ("-", "~"):
            if isinstance(value, Const):
                n = self.const_number(value)
                if isinstance(n, float):
                    return Const(-n, value.ctype)
                ctype = _common(value.ctype, value.ctype)
                return Const(_int_c(-n if op == "-" else ~n, ctype), ctype)
            if value.ctype.kind == "float":
                zero = self.new_reg("s")
                self.emit("fmov", ir.view(zero, value.ctype.etype), "0.0")
                self.emit("fsub", ir.view(zero, value.ctype.etype), ir.view(zero, value.ctype.etype), ir.view(value.reg, value.ctype.etype))
                return RV(zero, value.ctype)
            ctype = _common(value.ctype, value.ctype)
            value = self.convert(value, ctype)
            reg = self.new_reg("s")
            if op == "-":
                self.emit("mov", reg, 0)
                self.emit("sub", reg, reg, value.reg)
            else:
                self.emit("xor", reg, value.reg, -1)
            self.wrap_into(reg, reg, ctype) if ctype.width < 8 else None
            return RV(reg, ctype)
        if op == "*" or op == "&":
            raise error_at(c, f"unary '{op}' (pointer dereference or address) is not supported in a vector function")
        raise error_at(c, f"unsupported operator '{op}'")

    _ARITH = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "and", "|": "or", "^": "xor",
              "<<": "shl", ">>": "shr"}
    _FLOAT = {"+": "fadd", "-": "fsub", "*": "fmul", "/": "fdiv"}

    def x_binary_operator(self, c):
        op = operator_of(c)
        a, b = list(c.get_children())
        if op == "=":
            return self.assign(c, a, b)
        if op == ",":
            self.expr(a, discard=True)
            return self.expr(b)
        if op in ("&&", "||"):
            left = self.try_const(a)
            if left is not None and (self.truth(left) == (op == "||")):
                return Const(int(op == "||"), BOOL)
            if left is not None:
                right = self.expr(b)
                return Const(int(self.truth(right)), BOOL) if isinstance(right, Const) else self.convert(right, BOOL)
            reg, end = self.new_reg("s"), self.label("logic")
            self.emit("mov", reg, int(op == "||"))
            self.cond_branch(c, op == "||", end)
            self.emit("mov", reg, int(op != "||"))
            self.place(end)
            return RV(reg, BOOL)
        left, right = self.expr(a), self.expr(b)
        return self.arith(c, op, left, right)

    def arith(self, c, op, left, right):
        if op in self._BRANCH:
            if isinstance(left, Const) and isinstance(right, Const):
                return Const(int(_fold_compare(op, self.const_number(left), self.const_number(right))), BOOL)
            return self.compare_value(op, left, right)
        if left.ctype is not None and left.ctype.kind == "ptr" or right.ctype is not None and right.ctype.kind == "ptr":
            return self.pointer_arith(c, op, left, right)
        if not (left.ctype.is_scalar and right.ctype.is_scalar):       # a template leaves `x * mask` to us
            raise error_at(c, f"operator '{op}' on {left.ctype} and {right.ctype}: operators take scalars (a "
                              "register's arithmetic is a Reg:: call)")
        if left.ctype.kind == "float" or right.ctype.kind == "float":
            return self.float_arith(c, op, left, right)
        ctype = _common(left.ctype, right.ctype) if op not in ("<<", ">>") else _common(left.ctype, left.ctype)
        left, right = self.convert(left, ctype), self.convert(right, ctype)
        if isinstance(left, Const) and isinstance(right, Const):
            return Const(_fold_int(c, op, self.const_number(left), self.const_number(right), ctype), ctype)
        if op not in self._ARITH:
            raise error_at(c, f"unsupported operator '{op}'")
        if isinstance(left, Const):
            left = self.materialize(left)
        mnemonic = self._ARITH[op]
        if op == ">>" and not ctype.signed and ctype.width == 8:
            raise error_at(c, "'>>' of a 64-bit unsigned value: ascasm's shr is arithmetic")
        reg = self.new_reg("s")
        self.emit(mnemonic, reg, left.reg, self.operand(right))
        if op in ("+", "-", "*", "<<") and ctype.width < 8:
            self.wrap_into(reg, reg, ctype)
        return RV(reg, ctype)

    def float_arith(self, c, op, left, right):
        ctype = left.ctype if left.ctype.kind == "float" else right.ctype
        if left.ctype.kind == "float" and right.ctype.kind == "float" and left.ctype.width != right.ctype.width:
            ctype = left.ctype if left.ctype.width > right.ctype.width else right.ctype
        if op not in self._FLOAT:
            raise error_at(c, f"operator '{op}' on float scalars has no ascasm instruction")
        if isinstance(left, Const) and isinstance(right, Const):   # IEEE in double, then rounded to the C type
            x, y = np.float64(self.const_number(left)), np.float64(self.const_number(right))
            with np.errstate(all="ignore"):
                result = float({"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.divide}[op](x, y))
            return Const(result if c.type.get_canonical().spelling == "double" else _in_type(result, ctype), ctype)
        left = self.materialize(self.convert(left, ctype) if isinstance(left, RV) else left, ctype)
        t = ctype.etype
        rhs = self.convert(right, ctype) if isinstance(right, RV) else right
        rhs = ir.view(rhs.reg, t) if isinstance(rhs, RV) else _float_text(float(self.const_number(rhs)))
        reg = self.new_reg("s")
        self.emit(self._FLOAT[op], ir.view(reg, t), ir.view(left.reg, t), rhs)
        return RV(reg, ctype)

    def pointer_arith(self, c, op, left, right):
        if op not in ("+", "-") or (right.ctype.kind == "ptr" and op == "+"):
            raise error_at(c, f"unsupported pointer arithmetic '{op}'")
        if left.ctype.kind != "ptr":
            left, right = right, left
        if right.ctype.kind == "ptr":
            raise error_at(c, "the difference of two pointers is not supported")
        size = dtypes.BY_SPELLING[left.ctype.etype].width
        offset = self.arith(c, "*", self.convert(right, S64), Const(size, S64))
        if isinstance(offset, Const) and isinstance(left, Const):
            n = self.const_number(offset)
            return Const(self.const_number(left) + (n if op == "+" else -n), left.ctype)
        if isinstance(left, Const):
            left = self.materialize(left, left.ctype)
        reg = self.new_reg("s")
        self.emit(self._ARITH[op], reg, left.reg, self.operand(offset))
        return RV(reg, left.ctype)

    def x_compound_assignment_operator(self, c):
        op = operator_of(c)[:-1]
        a, b = list(c.get_children())
        if _strip(a).kind.name == "ARRAY_SUBSCRIPT_EXPR":        # p[i] op= b: load, compute, store
            return self.store_element(c, _strip(a), self.arith(c, op, self.expr(a), self.expr(b)))
        var = self.expr(a)
        if not isinstance(var, RV):
            raise error_at(a, "assignment to something that is not a variable")
        value = self.arith(c, op, var, self.expr(b))
        self.store(var, value)
        return var

    def assign(self, c, a, b):
        if _strip(a).kind.name == "ARRAY_SUBSCRIPT_EXPR":
            return self.store_element(c, _strip(a), self.expr(b))
        target = self.expr(a)
        if not isinstance(target, RV):
            raise error_at(a, "assignment to something that is not a run-time variable (a constant?)")
        if target.ctype.kind in _REG_FILE:
            self.assign_register(target, b)
        else:
            self.store(target, self.expr(b))
        return target

    def assign_register(self, var: RV, init):
        """A register variable = a call returning one (CreateMask, UpdateMask, CreateAddrReg) or another
        variable of its kind."""
        init = _strip(init)
        call = _find_call(init)
        if call is not None:
            result = self.call(call, dest=var)
            if result is not var and isinstance(result, RV):
                self.copy_register(init, var, result)
            return
        value = self.expr(init)
        if isinstance(value, RV) and value.ctype.kind == var.ctype.kind:
            self.copy_register(init, var, value)
            return
        raise error_at(init, f"cannot initialise a {var.ctype} from this expression")

    def copy_register(self, c, var: RV, value: RV):
        if var.ctype.kind == "mask":
            self.emit("pmov", var.reg, value.reg)
        elif var.ctype.kind == "vec" and value.ctype.kind == "vec":
            # Reg::Move without a mask: every lane, which is vmov under an all-true mask
            every = self.new_reg("p")
            self.emit("mask", ir.view(every, "b8"), ir.Word("ALL"))
            self.emit("vmov", ir.view(var.reg, var.ctype.etype), ir.view(value.reg, var.ctype.etype), every)
        else:
            raise error_at(c, f"copying a {var.ctype} is not supported: use the value's own variable")

    # --- calls ------------------------------------------------------------------------------
    def x_call_expr(self, c):
        return self.call(c)

    def call(self, c, dest: RV | None = None):
        if c.spelling == "operator=":        # a class's assignment operator: mask = UpdateMask<T>(n)
            children = list(c.get_children())
            return self.assign(c, children[0], children[-1])
        callee, args = _callee(c)
        name, path, decl = self.callee_name(callee, c)
        if not name:
            # a constructor call (T(x)) or a conversion; in a template T(x) names its type first
            args = [a for a in args if a.kind.name not in ("TYPE_REF", "TEMPLATE_REF", "NAMESPACE_REF")]
            if args and "dependent" not in c.type.spelling:
                target = self.try_resolve(c.type, c)
                value = self.expr(args[0])
                return self.convert(value, target) if target is not None and target.is_scalar else value
            if not args and dest is None:
                return Const(0, self.try_resolve(c.type, c))
            raise error_at(c, "unsupported call")
        short = name.split("::")[-1]
        in_reg = any(p in ("Reg", "MicroAPI") for p in path)
        if short in regapi.REG_ALIASES and (in_reg or decl is None and (short != "DataCopy"
                                                                         or self.reg_operands(args))):
            short = self.reg_alias(short, args)
        builtin = getattr(self, "builtin_" + short, None)
        if builtin is not None and (decl is None or not _has_body(decl)) and not (in_reg and regapi.lookup(short)):
            return builtin(c, callee, args)
        if in_reg or (regapi.lookup(short) is not None and decl is None):
            return self.reg_call(c, callee, short, args, dest)
        if short == "GetPhyAddr" and self.capturing:
            return self.tensor_address(c, callee, args)
        if short in regapi.HOST_SIDE:
            raise error_at(c, f"'{short}' is a host-side call: it belongs outside the vector function "
                              "(data movement between GM and UB, synchronisation and queues run on the scalar side)")
        if short.startswith("asc_"):
            return self.capi_call(c, short, args, dest)
        if decl is not None and decl.kind.name == "FUNCTION_DECL" and decl.get_num_template_arguments() > 0:
            decl = None           # an instantiation: inline its template's pattern, arguments deduced again
        target = decl if decl is not None and _has_body(decl) else self.index.function(short, len(args), path)
        if target is None:
            raise error_at(c, f"'{name}': no definition to inline and no Reg API of that name",
                           ["the Reg API pages are listed in docs/frontend.md"])
        return self.inline(c, callee, target, args)

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
            decl = _referenced_decl(arg)
            if decl is not None:
                bound = self.lookup_var(decl)
                if bound is not None and bound.ctype is not None:
                    return bound.ctype.kind
            return None
        finally:
            self.const_only -= 1

    def callee_name(self, callee, c):
        """The called function's name, its written namespace path, and its declaration if resolved."""
        decl = callee.referenced if callee is not None else None
        path, name = [], ""
        if callee is not None:
            for ch in callee.walk_preorder():
                if ch.kind.name == "NAMESPACE_REF":
                    path.append(ch.spelling)
                elif ch.kind.name in ("OVERLOADED_DECL_REF",) and not name:
                    name = ch.spelling
                elif ch.kind.name == "TYPE_REF" and not path and not name:
                    pass
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

    def explicit_template_args(self, callee) -> list[str]:
        """The `<...>` after the called name, as argument texts."""
        toks = tokens(callee) if callee is not None else []
        if callee is not None and callee.spelling and callee.spelling not in toks:
            raise error_at(callee, f"'{callee.spelling}' is called inside a macro: its template arguments cannot "
                                   "be read (expand the macro in the source)")
        if "<" not in toks:
            return []
        start = toks.index("<")
        depth, end = 0, len(toks)
        for i in range(start, len(toks)):
            if toks[i] == "<":
                depth += 1
            elif toks[i] == ">":
                depth -= 1
            elif toks[i] == ">>":
                depth -= 2
            if depth <= 0:
                end = i
                break
        return split_template_args(join_tokens(toks[start + 1:end]))

    def template_arg_value(self, text: str, c):
        """A template argument's text as a Const: a type, an enum member, a constexpr name, a type
        trait's value, a bool literal or a number."""
        trait = self.trait_value(text, c)
        if trait is not None:
            return trait
        ctype = self.type_from_text(text)
        if ctype is not None and ctype.kind not in ("enum", "struct"):
            return Const(ctype, None)
        name = text.split("::")[-1].strip()
        for frame in reversed(self.frames):
            if name in frame.targs:
                return frame.targs[name]
            break
        local = self.frame.vars.get(("name", name))
        if isinstance(local, Const):             # a constexpr local (a *SpecificMode struct, a count)
            return local
        member = self.index.enum_constant(text)
        if member is not None:
            return Const(EnumValue(member.semantic_parent.spelling, member.spelling, member.enum_value),
                         CType("enum", name=member.semantic_parent.spelling))
        var = self.index.variable(name)
        if var is not None:
            value = self.outer_variable(c, var)
            if isinstance(value, Const):
                return value
        if text.strip() in ("true", "false"):
            return Const(text.strip() == "true", BOOL)
        try:
            return Const(int(text.rstrip("uUlL"), 0), S64)
        except ValueError:
            pass
        if re.search(r"[-+*/%<>=!&|?()]", text):
            return TextExpression(self, text, c).value()
        raise error_at(c, f"cannot evaluate the template argument '{text}'")

    def trait_value(self, text: str, c):
        """`std::is_same<A, B>::value`, `is_same_v<A, B>`, `IsSameType<A, B>::value` and the
        is_integral/is_floating_point/is_signed/is_unsigned family, on our types."""
        m = _TRAIT.match(text.replace(" ", ""))
        if not m or m.group(1) not in _TRAITS:
            return None
        types = [self.type_from_text(arg) for arg in split_template_args(m.group(2))]
        if any(t is None for t in types):
            raise error_at(c, f"cannot evaluate '{text}': unknown type")
        return Const(bool(_TRAITS[m.group(1)](*types)), BOOL)

    # builtins of the stubs that fold
    def builtin_GetVecLen(self, c, callee, args):
        return Const(VECTOR_BYTES, U32)

    def builtin_CeilDivision(self, c, callee, args):
        a, b = (self.expr(x) for x in args)
        if isinstance(a, Const) and isinstance(b, Const):
            x, y = self.const_number(a), self.const_number(b)
            return Const((x + y - 1) // y, _common(a.ctype, b.ctype))
        ctype = _common(a.ctype, b.ctype)
        total = self.arith(c, "+", a, self.arith(c, "-", b, Const(1, ctype)))
        return self.arith(c, "/", total, b)

    builtin_CeilDiv = builtin_CeilDivision
    builtin_DivCeil = builtin_CeilDivision

    def builtin_min(self, c, callee, args):
        return self.choose(c, args, "<")

    def builtin_max(self, c, callee, args):
        return self.choose(c, args, ">")

    def choose(self, c, args, op):
        a, b = (self.expr(x) for x in args)
        if isinstance(a, Const) and isinstance(b, Const):
            x, y = self.const_number(a), self.const_number(b)
            return Const(x if _fold_compare(op, x, y) else y, _common(a.ctype, b.ctype))
        ctype = _common(a.ctype, b.ctype)
        a, b = self.convert(a, ctype), self.convert(b, ctype)
        result = RV(self.new_reg("s"), ctype)
        done = self.label("pick")
        self.store(result, a)
        a_reg = result
        self.emit(self._BRANCH[op], a_reg.reg, self.operand(b), done)
        self.store(result, b)
        self.place(done)
        return result

    def builtin___builtin_inff(self, c, callee, args):      # INFINITY, HUGE_VALF
        return Const(math.inf, cpptypes.scalar("f32"))

    builtin___builtin_huge_valf = builtin___builtin_inff

    def builtin___builtin_nanf(self, c, callee, args):      # NAN
        return Const(math.nan, cpptypes.scalar("f32"))

    def builtin_SetCtrlSpr(self, c, callee, args):
        targs = self.explicit_template_args(callee)
        values = [self.expr(a) for a in args]
        self.ctrl.setdefault("SetCtrlSpr", []).append(
            (tuple(targs), tuple(self.const_number(v) if isinstance(v, Const) else None for v in values)))
        return Const(0, S32)

    def inline(self, c, callee, decl, args):
        if len(self.frames) > MAX_INLINE_DEPTH:
            raise error_at(c, f"helper calls nested deeper than {MAX_INLINE_DEPTH} (recursion?)")
        decl = decl.get_definition() or decl      # declared before the call, defined after: the body's parameters
        self.check_clang_errors(decl)
        body = _body(decl)
        params = [ch for ch in decl.get_children() if ch.kind.name == "PARM_DECL"]
        frame = Frame(ret_label=self.label("ret"))
        # class template arguments stay visible in methods
        if decl.kind.name == "CXX_METHOD" or decl.semantic_parent.kind.name in ("CLASS_TEMPLATE", "CLASS_DECL",
                                                                                 "STRUCT_DECL"):
            frame.targs.update(self.frames[-1].targs)
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
            result_type = decl.result_type
            frame.ret_type = self.resolve_type(result_type, decl) if result_type.spelling not in ("void",) else None
            for param, value in zip(params, values):
                self.bind_param(param, value, body)
            if len(values) < len(params):
                for param in params[len(values):]:
                    init = _initializer(param)
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
        if not _writes(body, {param.hash}):     # read only: the argument itself, converted
            self.bind(param, self.convert(value, ctype) if ctype.is_scalar else value)
            return
        var = RV(self.new_reg("s", param.spelling, loc_of(param)), ctype)
        self.store(var, value)
        self.bind(param, var)

    def token_value(self, c):
        """An expression libclang leaves unexposed in a template (a dependent name): by its tokens;
        a lone name is first looked for among the variables in scope."""
        text = " ".join(tokens(c))
        if not text:
            raise error_at(c, "unsupported expression")
        if text.isidentifier():
            for frame in reversed(self.frames):
                if ("name", text) in frame.vars:
                    return frame.vars[("name", text)]
                if frame.ret_label is not None:
                    break
            decl = self.outer_decls.get(text)
            if decl is not None:
                bound = self.lookup_var(decl)
                return bound if bound is not None else self.outer_variable(c, decl)
        return self.template_arg_value(text.replace(" :: ", "::"), c)

    def x_cxx_dependent_scope_member_expr(self, c):
        return self.token_value(c)

    def x_array_subscript_expr(self, c):
        """`p[i]` read: one element loaded from the UB into a scalar register (the pages' scalar UB
        reads in a vector function, LocalMemBar's SCALAR_LOAD)."""
        address, ctype = self.element_address(c)
        reg = self.new_reg("s")
        self.emit("ld", ir.view(reg, ctype.etype), ir.Mem(ir.view(address.reg)))
        return RV(reg, ctype)

    def element_address(self, c) -> tuple[RV, CType]:
        """The address of `p[i]` in a register, and the element's type."""
        base, index = list(c.get_children())
        pointer = self.expr(base)
        if pointer.ctype is None or pointer.ctype.kind != "ptr":
            raise error_at(c, "a subscript of something that is not a UB pointer (a local array?) is not supported")
        address = self.materialize(self.pointer_arith(c, "+", pointer, self.expr(index)))
        return address, scalar(pointer.ctype.etype)

    def store_element(self, c, target, value):
        """`p[i] = value`: one element stored from a scalar register (SCALAR_STORE)."""
        address, ctype = self.element_address(target)
        value = self.materialize(self.convert(value, ctype), ctype)
        self.emit("st", ir.Mem(ir.view(address.reg)), ir.view(value.reg, ctype.etype))
        return value


class TextExpression:
    """A constant expression written in a template argument (libclang gives only its tokens):
    numbers, names, sizeof(type), traits, and C's operators, by precedence climbing."""
    _TOKEN = re.compile(r"\s*(sizeof\s*\([^()]*\)|[A-Za-z_][\w:]*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?(?:::value)?"
                        r"|0[xX][0-9a-fA-F]+|\d+\.?\d*[fFuUlL]*|&&|\|\||==|!=|<=|>=|<<|>>|[-+*/%<>!()?:~&|^])")
    _LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
               ("+", "-"), ("*", "/", "%"))

    def __init__(self, lowering, text, cursor):
        self.lowering, self.cursor, self.text = lowering, cursor, text
        self.tokens, pos = [], 0
        while pos < len(text.rstrip()):
            m = self._TOKEN.match(text, pos)
            if not m:
                raise error_at(cursor, f"cannot evaluate the template argument '{text}'")
            self.tokens.append(m.group(1))
            pos = m.end()
        self.pos = 0

    def value(self) -> Const:
        result = self.conditional()
        if self.pos != len(self.tokens):
            raise error_at(self.cursor, f"cannot evaluate the template argument '{self.text}'")
        return result

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self):
        self.pos += 1
        return self.tokens[self.pos - 1] if self.pos <= len(self.tokens) else None

    def conditional(self):
        cond = self.binary(0)
        if self.peek() == "?":
            self.take()
            a = self.conditional()
            self.take()
            b = self.conditional()
            return a if self.lowering.truth(cond) else b
        return cond

    def binary(self, level):
        if level == len(self._LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.peek() in self._LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1)
            if op in ("&&", "||"):
                x, y = self.lowering.truth(left), self.lowering.truth(right)
                left = Const(int(x and y if op == "&&" else x or y), BOOL)
            else:
                left = self.lowering.arith(self.cursor, op, left, right)
        return left

    def unary(self):
        token = self.take()
        if token == "(":
            value = self.conditional()
            self.take()
            return value
        if token in ("!", "-", "~"):
            value = self.unary()
            if token == "!":
                return Const(int(not self.lowering.truth(value)), BOOL)
            n = self.lowering.const_number(value)
            return Const(-n if token == "-" else ~n, value.ctype)
        if token == "&":       # &mode: a *SpecificMode option points to a constant struct, whose value stands for it
            return self.unary()
        if token is None or not re.match(r"[\w.]", token):
            raise error_at(self.cursor, f"cannot evaluate the template argument '{self.text}'")
        if token.startswith("sizeof"):
            ctype = self.lowering.type_from_text(token[token.index("(") + 1:-1])
            if ctype is None:
                raise error_at(self.cursor, f"sizeof of an unknown type in '{self.text}'")
            return Const(VECTOR_BYTES if ctype.kind == "vec" else ctype.width, U64)
        return self.lowering.template_arg_value(token, self.cursor)


_TRAIT = re.compile(r"^(?:[\w:]*::)?(\w+?)(?:_v)?<(.*)>(?:::value)?$")
_TRAITS = {
    "is_same": lambda a, b: a == b, "IsSameType": lambda a, b: a == b,
    "is_integral": lambda t: t.kind in ("int", "bool"), "is_floating_point": lambda t: t.kind == "float",
    "is_signed": lambda t: t.signed or t.kind == "float", "is_unsigned": lambda t: t.kind == "int" and not t.signed,
}

def _float_text(value) -> str:
    value = float(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    return repr(value)


def _fold_compare(op, x, y) -> bool:
    return {"==": x == y, "!=": x != y, "<": x < y, "<=": x <= y, ">": x > y, ">=": x >= y}[op]


def _fold_int(c, op, x, y, ctype):
    if op in ("/", "%"):
        if y == 0:
            raise error_at(c, "division by zero in a constant expression")
        q = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
        value = q if op == "/" else x - q * y
    else:
        value = {"+": x + y, "-": x - y, "*": x * y, "&": x & y, "|": x | y, "^": x ^ y,
                 "<<": x << (y & 63), ">>": x >> (y & 63)}[op]
    return _int_c(value, ctype)


def _union_of(decl):
    """The union declaration of a variable's type, or None."""
    record = decl.type.get_canonical().get_declaration()
    return record if record.kind.name == "UNION_DECL" else None


def _scalar_bytes(value: Const, ctype: CType) -> bytes:
    import numpy as np
    return np.array(value.value, dtypes.BY_SPELLING[ctype.etype].np_dtype).tobytes()


def _scalar_from_bytes(raw: bytes, ctype: CType):
    import numpy as np
    number = np.frombuffer(raw, dtypes.BY_SPELLING[ctype.etype].np_dtype)[0]
    return float(number) if ctype.kind == "float" else int(number)


def _strip(c):
    while c.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR") and len(list(c.get_children())) == 1:
        c = list(c.get_children())[0]
    return c


def _find_call(c):
    c = _strip(c)
    if c.kind.name == "CALL_EXPR":
        callee, args = _callee(c)
        if not callee and len(args) == 1 and c.referenced is not None and c.referenced.kind.name == "CONSTRUCTOR":
            return _find_call(args[0])          # a copy construction around the call
        return c
    if c.kind.name in ("CXX_FUNCTIONAL_CAST_EXPR",):
        children = list(c.get_children())
        return _find_call(children[-1]) if children else None
    return None


def _callee(c):
    children = list(c.get_children())
    if not children:
        return None, []
    first = children[0]
    if first.kind.name in ("DECL_REF_EXPR", "OVERLOADED_DECL_REF", "MEMBER_REF_EXPR", "UNEXPOSED_EXPR") and \
            (c.referenced is None or c.referenced.kind.name != "CONSTRUCTOR" or first.kind.name != "UNEXPOSED_EXPR"):
        inner = _strip(first)
        if inner.kind.name in ("DECL_REF_EXPR", "OVERLOADED_DECL_REF", "MEMBER_REF_EXPR"):
            if c.referenced is not None and c.referenced.kind.name == "CONSTRUCTOR":
                return None, children
            return inner, children[1:]
    return None, children


def _referenced_decl(c):
    c = _strip(c)
    return c.referenced if c.kind.name == "DECL_REF_EXPR" else None


def _initializer(decl):
    """A variable's or parameter's initialiser: its last expression child from its name on (those
    before the name are its type's template arguments: `RegTensor<T, RegTraitNumOne> x;`)."""
    name_at = decl.location.offset
    children = [ch for ch in decl.get_children()
                if ch.kind.name not in ("TYPE_REF", "NAMESPACE_REF", "TEMPLATE_REF", "ANNOTATE_ATTR")
                and not ch.kind.name.endswith("_ATTR") and ch.extent.start.offset >= name_at]
    return children[-1] if children else None


def _is_default_construct(init) -> bool:
    return init.kind.name == "CALL_EXPR" and not list(init.get_children()) and init.referenced is not None \
        and init.referenced.kind.name == "CONSTRUCTOR"


def _has_body(decl) -> bool:
    return _body(decl) is not None


def _body(decl):
    for ch in decl.get_children():
        if ch.kind.name == "COMPOUND_STMT":
            return ch
    definition = decl.get_definition()
    if definition is not None and definition != decl:
        for ch in definition.get_children():
            if ch.kind.name == "COMPOUND_STMT":
                return ch
    return None


def _template_default(tp):
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


def _deduce(param_spelling: str, value, targs: dict, names: set):
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


def _for_parts(c):
    """for (init; cond; inc) body: libclang omits absent parts, so place them by source position."""
    children = list(c.get_children())
    body = children[-1]
    rest = children[:-1]
    toks = itertools.takewhile(lambda t: t.extent.start.offset < body.extent.start.offset, c.get_tokens())
    semis = [t.extent.start.offset for t in toks if t.spelling == ";"][:2]
    init = cond = inc = None
    for ch in rest:
        offset = ch.extent.start.offset
        if len(semis) == 2 and offset < semis[0]:
            init = ch
        elif len(semis) == 2 and offset < semis[1]:
            cond = ch
        else:
            inc = ch
    return init, cond, inc, body


def _counted_shape(c, cond, inc):
    """(counter declaration, bound expression) of `for (... i = 0; i < n; ++i / i++ / i += 1)`."""
    cond = _strip(cond)
    if cond.kind.name != "BINARY_OPERATOR" or operator_of(cond) != "<":
        return None
    left, bound = list(cond.get_children())
    decl = _referenced_decl(left)
    if decl is None:
        return None
    inc = _strip(inc)
    if inc.kind.name == "UNARY_OPERATOR" and operator_of(inc) in ("++", "post++"):
        target = _referenced_decl(list(inc.get_children())[0])
    else:
        return None
    if target is None or target.hash != decl.hash:
        return None
    return decl, bound


def _decl_refs(c) -> set:
    return {ch.referenced.hash for ch in c.walk_preorder() if ch.kind.name == "DECL_REF_EXPR" and ch.referenced
            is not None and ch.referenced.kind.name in ("VAR_DECL", "PARM_DECL")} | \
        {ch.referenced.hash for ch in c.walk_preorder() if ch.kind.name == "MEMBER_REF_EXPR" and ch.referenced
         is not None}


def _writes(body, hashes: set) -> bool:
    """Whether `body` may write a variable in `hashes`: assigns, increments, or passes it to a call
    (a call may take it by reference)."""
    if not hashes:
        return False
    for ch in body.walk_preorder():
        kind = ch.kind.name
        if kind in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR", "UNARY_OPERATOR", "CALL_EXPR"):
            children = list(ch.get_children())
            if not children:
                continue
            if kind == "BINARY_OPERATOR":
                if operator_of(ch) != "=":
                    continue
                targets = children[:1]
            elif kind == "UNARY_OPERATOR":
                if operator_of(ch) not in ("++", "--", "post++", "post--", "&"):
                    continue
                targets = children[:1]
            elif kind == "CALL_EXPR":
                targets = children[1:]
            else:
                targets = children[:1]
            for t in targets:
                d = _referenced_decl(t)
                if d is not None and d.hash in hashes:
                    return True
    return False


def _is_auto(decl) -> bool:
    return decl.type.spelling.replace("const ", "").strip() in ("auto", "auto *", "auto &")


def _captured_type(decl):
    """The clang type of a variable a block captures; for `auto`, its initialiser's: a cast's written type
    (`auto dst = (__ubuf__ T*)local.GetPhyAddr();`), which a template leaves undeduced on the variable."""
    init = _initializer(decl) if _is_auto(decl) else None
    while init is not None and init.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR"):
        init = next(init.get_children(), None)
    return init.type if init is not None else decl.type


def _may_branch(c) -> bool:
    """Whether a statement of a loop body lowers to a branch (checked before trying a hardware loop,
    so that nested loops are not lowered twice at every level): jumps, run-time ifs, while loops,
    `?:`, `&&`, `||`."""
    kind = c.kind.name
    if kind in ("BREAK_STMT", "CONTINUE_STMT", "RETURN_STMT", "GOTO_STMT", "WHILE_STMT", "DO_STMT",
                "CONDITIONAL_OPERATOR"):
        return True
    if kind == "IF_STMT":
        return not _leading_constexpr(c, 3)
    return kind == "BINARY_OPERATOR" and operator_of(c) in ("&&", "||")


def _leading_constexpr(cursor, count=4) -> bool:
    """`constexpr` among the first tokens of a declaration or an `if` (without lexing all of it)."""
    return any(t.spelling == "constexpr" for t in itertools.islice(cursor.get_tokens(), count))


def _in_stubs(path: str) -> bool:
    return path.startswith(_STUBS)


def _never_written(decl) -> bool:
    """A local of the function around a __VEC_SCOPE__ block that nothing assigns after its
    initialisation (so a constant initialiser is its value everywhere)."""
    if decl.kind.name != "VAR_DECL":
        return False
    function = decl.semantic_parent
    body = _body(function) if function is not None and function.kind.name in (
        "FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD") else None
    return decl.kind.name == "VAR_DECL" and body is not None and not _writes(body, {decl.hash})


def _sets_zero(item, reg) -> bool:
    """Whether IR item `item` is `mov REG, 0`."""
    return isinstance(item, ir.Instr) and item.mnemonic == "mov" and len(item.operands) == 2 and \
        isinstance(item.operands[0], ir.Reg) and item.operands[0].vreg is reg and not item.operands[0].view and \
        item.operands[1] == ir.Imm("0")
