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

from ..isa import dtypes, regapi
from . import calls, cpptypes, ir, templates
from .consteval import _BUILTIN_TRAITS, ConstantEvaluation
from .builtin_calls import BUILTINS, VECTOR_BYTES
from .calls import CallKind
from .clang import (CppError, body_of as _body, callee_and_args as _callee, check_recovered, diagnostics_error, error_at,
                    errors_inside, evaluated_number, loc_of, operator_of, skipped_text, strip_parens as _strip, tokens)
from .forms import REGISTER_CTYPE, FormCalls
from .stubs import INCLUDE_DIR
from .templates import deduce as _deduce, template_default as _template_default
from .values import (Const, ConstReturn, EnumValue, NotConstant, common_type as _common, fold_compare as _fold_compare,
                     round_to as _in_type, wrap_int as _int_c)
from .cpptypes import BOOL, S32, S64, U64, CType, parse_spelling, scalar, split_template_args, strip_qualifiers
from .ir import RV, VReg

MAX_INLINE_DEPTH = 16
_NAME_DECLS = ("USING_DIRECTIVE", "USING_DECLARATION", "NAMESPACE_ALIAS")
_STUBS = str(INCLUDE_DIR.resolve())
MAX_HW_LOOPS = 4
HW_LOOP_MAX = 65535
_REG_FILE = {"vec": "v", "mask": "p", "addr": "a", "ustore": "u", "uload": "q", "unalign": "u"}

# The tag of an instruction that only implements a C++ rule (a wrap to the type's width, a copy's
# all-true mask): the debug information marks it (`.artificial`), `stats --by-line` counts it apart
ARTIFICIAL = "artificial"


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


class Lowering(ConstantEvaluation, FormCalls):
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
        """`Name<args>::member`: the member typedef of the explicit specialisation of class template
        Name the arguments choose, else of the primary template with its parameters bound to them."""
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
        first = next(c.get_tokens(), None)
        if first is not None and first.spelling in _BUILTIN_TRAITS and \
                all(ch.kind.name == "TYPE_REF" for ch in children):        # __is_signed(T), not an expression in it
            return self.builtin_trait(c, first.spelling)
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
            self.emit("mask", ir.view(every, "b8"), ir.Word("ALL"), tag=ARTIFICIAL)
            self.emit("vmov", ir.view(var.reg, var.ctype.etype), ir.view(value.reg, var.ctype.etype), every)
        else:
            raise error_at(c, f"copying a {var.ctype} is not supported: use the value's own variable")

    # --- calls ------------------------------------------------------------------------------
    def x_call_expr(self, c):
        return self.call(c)

    def call(self, c, dest: RV | None = None):
        call = calls.classify(self, c)
        kind, args = call.kind, call.args
        if kind is CallKind.ASSIGNMENT:
            return self.assign(c, args[0], args[-1])
        if kind is CallKind.CONVERSION:
            return self.conversion(c, args, dest)
        if kind is CallKind.BUILTIN:
            return BUILTINS[call.short](self, c, call.callee, args)
        if kind is CallKind.REG:
            return self.reg_call(c, call.callee, call.short, args, dest)
        if kind is CallKind.TENSOR_ADDRESS:
            return self.tensor_address(c, call.callee, args)
        if kind is CallKind.HOST_SIDE:
            raise error_at(c, f"'{call.short}' is a host-side call: it belongs outside the vector function "
                              "(data movement between GM and UB, synchronisation and queues run on the scalar side)")
        if kind is CallKind.CAPI:
            return self.capi_call(c, call.short, args, dest)
        if kind is CallKind.STATIC_MEMBER:
            self.frames.append(Frame(targs=call.class_args))      # inline() gives a method its class's arguments
            try:
                return self.inline(c, None, call.decl, args)
            finally:
                self.frames.pop()
        return self.inline(c, call.callee, call.decl, args)

    def conversion(self, c, args, dest):
        """A constructor call (T(x)) or a conversion; in a template T(x) names its type first."""
        args = [a for a in args if a.kind.name not in ("TYPE_REF", "TEMPLATE_REF", "NAMESPACE_REF")]
        if args and "dependent" not in c.type.spelling:
            target = self.try_resolve(c.type, c)
            value = self.expr(args[0])
            return self.convert(value, target) if target is not None and target.is_scalar else value
        if not args and dest is None:
            return Const(0, self.try_resolve(c.type, c))
        raise error_at(c, "unsupported call")

    explicit_template_args = staticmethod(templates.explicit_template_args)

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



def _float_text(value) -> str:
    value = float(value)
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "nan"
    return repr(value)


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
