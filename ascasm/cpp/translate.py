"""The C++ front end's translator: a `__simd_vf__` function or a `__VEC_SCOPE__` block of a kernel
source, with its template arguments, becomes ascasm assembly lines (docs/frontend.md).

    t = translate("kernel.cpp", "ScaleVF<float>")
    t.params   # [Param(name, kind, etype, sreg, cpp_type)], the s register each arrives in
    t.lines    # [AsmLine(text, (file, line, col))], ending in halt
    t.debug    # the DebugInfo (variables, inline frames) of its rows; t.directives, the same as lines

Entries: `Name` or `Name<float, 4>` (possibly qualified, `ns::Cls<half>::Name`), `Name#K` (the K-th
__VEC_SCOPE__ block of function or method Name), `@LINE` (the function or block at or around LINE).
"""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..debuginfo import DebugInfo
from ..limits import shown, whole_number
from . import debugvars, ir, regalloc, rowcheck
from .kernel import KernelLowering, find_entry
from .clang import CppError, LibclangMissing, error_at, parse, qualified_name, tokens
from .cpptypes import split_template_args
from .clang import body_of as _body
from .ir import RV, VReg
from .lower import Lowering
from .scope import Frame, ParamSlot, buffer_name
from .values import Const, ConstReturn
from .templates import bind_template, pattern_binding, template_params
from .stubs import INCLUDE_DIR

__all__ = ["translate", "list_units", "Translation", "Param", "AsmLine", "CppError", "LibclangMissing"]


@dataclass(frozen=True)
class AsmLine:
    text: str
    loc: tuple | None          # (file, line, col) of the C++ construct, or None


@dataclass(frozen=True)
class Param:
    name: str
    kind: str                  # "pointer" (a __ubuf__ T*: its UB byte address) or "scalar"
    etype: str                 # the pointee's or the scalar's ascasm type ("f32", "u16")
    sreg: int                  # the s register holding it on entry (a float: its bits)
    cpp_type: str

    @property
    def buffer_name(self) -> str:
        return buffer_name(self.name, self.sreg)


@dataclass
class Translation:
    entry: str
    path: str
    params: list
    lines: list
    ctrl: dict = field(default_factory=dict)
    debug: DebugInfo = field(default_factory=DebugInfo)     # rows: the lines' instructions, from 0
    directives: list = field(default_factory=list)  # (k, text): debug directive `text` goes before lines[k]
    sources: tuple = ()        # the files libclang read: the kernel and the headers it includes (not our stubs)
    ub_regions: tuple = ()     # a whole kernel's UB buffers from TPipe::InitBuffer: (name, address, bytes)
    tiling: tuple | None = None  # a whole kernel's (tiling parameter, the tiling struct's bytes)

    def with_directives(self):
        """(line, directive texts before it) for each line, then (None, the directives after the last)."""
        before: dict = {}
        for k, text in self.directives:
            before.setdefault(k, []).append(text)
        return [(line, before.get(k, [])) for k, line in enumerate(self.lines)] + \
            [(None, before.get(len(self.lines), []))]

    def text(self) -> str:
        """The lines as assembly text (without buffers or the parameter prologue)."""
        return "\n".join(line.text if line.text.endswith(":") else "        " + line.text for line in self.lines)


_FUNCTION_KINDS = ("FUNCTION_DECL", "FUNCTION_TEMPLATE", "CXX_METHOD", "CONSTRUCTOR")
_SCOPE_KINDS = ("NAMESPACE", "CLASS_DECL", "STRUCT_DECL", "CLASS_TEMPLATE", "LINKAGE_SPEC",
                "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION", "UNEXPOSED_DECL")


class TUIndex:
    """Declarations of the translation unit by name, for what the AST of a template leaves unresolved."""

    def __init__(self, tu, main_file: str):
        self.tu = tu
        self.main_file = main_file
        self.by_kind: dict = {}
        self.functions: list = []
        self.declarations: list = []    # of functions, without a body
        self.undefined: list = []       # (name, line) of __simd_vf__ functions declared, never defined (find_units)
        self.macros: list = []
        self.header_macros: list = []   # those of the headers the file includes (not the package's stubs)
        self._walk(tu.cursor)

    def _walk(self, cursor):
        for c in cursor.get_children():
            kind = c.kind.name
            if kind == "MACRO_INSTANTIATION":
                if c.spelling in ("__simd_vf__", "__VEC_SCOPE__") and c.location.file:
                    if _same_file(c.location.file.name, self.main_file):
                        self.macros.append(c)
                    elif not Path(c.location.file.name).resolve().is_relative_to(INCLUDE_DIR.resolve()):
                        self.header_macros.append(c)
                continue
            if kind in ("MACRO_DEFINITION", "INCLUSION_DIRECTIVE"):
                continue
            if kind in _FUNCTION_KINDS:
                (self.functions if c.is_definition() else self.declarations).append(c)
                continue
            if kind in ("TYPEDEF_DECL", "TYPE_ALIAS_DECL", "ENUM_DECL", "VAR_DECL", "STRUCT_DECL", "CLASS_DECL",
                        "TYPE_ALIAS_TEMPLATE_DECL", "CLASS_TEMPLATE", "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION"):
                self.by_kind.setdefault(kind, {}).setdefault(c.spelling, []).append(c)
            if kind == "ENUM_DECL":
                for member in c.get_children():
                    self.by_kind.setdefault("ENUM_CONSTANT_DECL", {}).setdefault(member.spelling, []).append(member)
            if kind in _SCOPE_KINDS:
                self._walk(c)

    def _first(self, kind, name):
        found = self.by_kind.get(kind, {}).get(name)
        return found[-1] if found else None

    def typedef(self, name):
        return self._first("TYPEDEF_DECL", name) or self._first("TYPE_ALIAS_DECL", name)

    def enum(self, name):
        return self._first("ENUM_DECL", name)

    def struct(self, name):
        for kind in ("STRUCT_DECL", "CLASS_DECL"):
            for c in reversed(self.by_kind.get(kind, {}).get(name, [])):
                if c.is_definition():
                    return c
        return None

    def class_template(self, name):
        """The definition of class template `name` (a forward declaration has no members)."""
        return next((c for c in reversed(self.by_kind.get("CLASS_TEMPLATE", {}).get(name, [])) if c.is_definition()),
                    None)

    def specialisations(self, name):
        """The explicit (full) specialisations of class template `name`, e.g. `Trait<uint16_t>`."""
        return [c for kind in ("STRUCT_DECL", "CLASS_DECL") for c in self.by_kind.get(kind, {}).get(name, [])
                if c.is_definition() and c.displayname.endswith(">")]

    def partial_specialisations(self, name):
        """The partial specialisations of class template `name`, e.g. `IsSame<Tp, Tp>`."""
        return [c for c in self.by_kind.get("CLASS_TEMPLATE_PARTIAL_SPECIALIZATION", {}).get(name, [])
                if c.is_definition()]

    def variable(self, name):
        return self._first("VAR_DECL", name)

    def enum_constant(self, text):
        parts = [p.strip() for p in text.split("::") if p.strip()]
        if not parts or not parts[-1].isidentifier():
            return None
        for member in self.by_kind.get("ENUM_CONSTANT_DECL", {}).get(parts[-1], []):
            if len(parts) < 2 or member.semantic_parent.spelling == parts[-2] or \
                    parts[-2] in qualified_name(member.semantic_parent).split("::"):
                return member
        return None

    def function(self, name, nargs, path):
        best = None
        for f in self.functions:
            if f.spelling != name:
                continue
            params = [ch for ch in f.get_children() if ch.kind.name == "PARM_DECL"]
            required = sum(1 for p in params if not any(t == "=" for t in tokens(p)))
            if required <= nargs <= len(params):
                best = f
        return best

    def eval_text(self, text, lowering):
        return None


def _same_file(a: str, b: str) -> bool:
    here = os.getcwd()        # a relative name resolves against the directory of the moment
    return _real_path(here, a) == _real_path(here, b)


@functools.lru_cache(maxsize=4096)
def _real_path(here: str, name: str) -> str:
    """Resolved once per name: units are matched to files over every function the headers declare
    (tens of thousands of comparisons per translation, each a realpath otherwise)."""
    try:
        return str((Path(here) / name).resolve())
    except OSError:
        return name


@dataclass
class Unit:
    """A translatable unit: a vector function, or a __VEC_SCOPE__ block inside a function."""
    function: object           # the FUNCTION_DECL/FUNCTION_TEMPLATE/CXX_METHOD/CONSTRUCTOR cursor
    block: object = None       # the block's COMPOUND_STMT for a __VEC_SCOPE__
    number: int = 0            # the block's number in its function (1-based)
    first_line: int = 0        # the line of the __simd_vf__ or __VEC_SCOPE__ word, which may precede the extent

    @property
    def name(self) -> str:
        base = _function_name(self.function)
        return f"{base}#{self.number}" if self.block is not None else base

    @property
    def line(self) -> int:
        return (self.block or self.function).extent.start.line

    @property
    def file(self) -> str:
        return str((self.block or self.function).extent.start.file)


def _function_name(function) -> str:
    """The qualified name; a class template's constructor without the `<T>` clang spells it with."""
    name = qualified_name(function)
    return re.sub(r"<.*>$", "", name) if function.kind.name == "CONSTRUCTOR" else name


def find_units(index: TUIndex, in_headers: bool = False) -> list[Unit]:
    """The units of the file, or (`in_headers`) of the headers it includes, each found in its own file."""
    units = []
    by_function: dict = {}
    by_file: dict = {}

    def of_file(functions, name):
        return [f for f in functions if _same_file(str(f.extent.start.file), name)]
    vector_functions = set()
    seen = set()
    for macro in (index.header_macros if in_headers else index.macros):
        name = str(macro.extent.start.file)
        if name not in by_file:
            by_file[name] = (of_file(index.functions, name), of_file(index.declarations, name))
        in_file, declared = by_file[name]
        offset = macro.extent.start.offset
        where = (str(macro.extent.start.file), offset)
        if where in seen:            # a file that includes itself holds its macros again
            continue
        seen.add(where)
        if macro.spelling == "__simd_vf__":
            # the qualifier stands among the declaration's first words, which an empty macro may leave
            # outside the declaration's extent: the function is the one around it or the next one
            following = [f for f in in_file + declared if _contains(f, offset) or f.extent.start.offset >= offset]
            function = min(following, key=lambda f: f.extent.start.offset, default=None)
            first_line = macro.extent.start.line
            if function is not None and not function.is_definition():
                # a forward declaration: the unit is its definition, if the file has one
                declaration, function = function, function.get_definition()
                if function is None or not _same_file(str(function.extent.start.file), name):
                    if not in_headers:
                        index.undefined.append((qualified_name(declaration), macro.extent.start.line))
                    continue
                offset, first_line = function.extent.start.offset, function.extent.start.line
            body = _body(function) if function is not None else None
            if body is not None and offset < body.extent.start.offset and function.hash not in vector_functions:
                vector_functions.add(function.hash)
                units.append(Unit(function, first_line=first_line))
            continue
        function = next((f for f in in_file if _contains(f, offset)), None)
        if function is None:
            continue
        body = _body(function)
        block = _block_after(body, macro.extent.end.offset) if body is not None else None
        if block is not None:
            count = by_function.setdefault(function.hash, [])
            count.append(block)
            units.append(Unit(function, block, len(count), macro.extent.start.line))
    return units


def _contains(cursor, offset) -> bool:
    return cursor.extent.start.offset <= offset < cursor.extent.end.offset


def _block_after(body, offset):
    best = None
    for c in body.walk_preorder():
        if c.kind.name == "COMPOUND_STMT" and c.extent.start.offset >= offset:
            if best is None or c.extent.start.offset < best.extent.start.offset:
                best = c
    return best


_ENTRY = re.compile(r"^(?P<name>[^#@]+?)(?:#(?P<block>\d+))?$")


def _split_qualified(name: str) -> list[tuple[str, list[str]]]:
    """`ns::Cls<half>::Run<float, 4>` -> [("ns", []), ("Cls", ["half"]), ("Run", ["float", "4"])]."""
    parts, depth, start = [], 0, 0
    i = 0
    while i < len(name):
        ch = name[i]
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif name.startswith("::", i) and depth == 0:
            parts.append(name[start:i])
            start = i + 2
            i += 1
        i += 1
    parts.append(name[start:])
    out = []
    for part in parts:
        part = part.strip()
        if part.endswith(">") and "<" in part:
            cut = part.index("<")
            out.append((part[:cut].strip(), split_template_args(part[cut + 1:-1])))
        else:
            out.append((part, []))
    return out


def select_unit(units: list[Unit], entry: str | None, path: str, undefined=(), in_headers=()):
    """The unit `entry` names and the template arguments written in it:
    (unit, function args, class args). `undefined`: (name, line) of vector functions the file
    declares and never defines, for the error. `in_headers`: the units of the headers the file
    includes, where a name the file itself lacks is looked for."""
    def listing():
        return [f"{u.name} (line {u.line})" for u in units] + \
            [f"{u.name} ({Path(u.file).name}:{u.line}, an included header)" for u in in_headers] or \
            ["the file has no __simd_vf__ function and no __VEC_SCOPE__ block"]
    if entry is None or entry.strip() == "":
        if len(units) == 1:
            return units[0], [], []
        raise CppError(f"{path}: {'several' if units else 'no'} vector functions or blocks: choose one with an "
                       f"entry", notes=listing())
    entry = entry.strip()
    if entry.startswith("@"):
        line = whole_number(entry[1:])
        if line is None:
            raise CppError(f"bad entry {shown(entry)!r}: @ takes a line number")
        around = [u for u in units if min(u.first_line, (u.block or u.function).extent.start.line) <= line <=
                  (u.block or u.function).extent.end.line]
        if not around:
            raise CppError(f"no vector function or __VEC_SCOPE__ block at line {line} of {path}", notes=listing())
        return min(around, key=lambda u: (u.block or u.function).extent.end.offset -
                   (u.block or u.function).extent.start.offset), [], []
    m = _ENTRY.match(entry)
    if not m:
        raise CppError(f"bad entry {shown(entry)!r}: expected Name, Name<args>, Name#K or @LINE")
    parts = _split_qualified(m.group("name"))
    names = [p[0] for p in parts]
    block = int(m.group("block")) if m.group("block") else 0
    def named(candidates):
        return [u for u in candidates if (u.number == block) and
                _function_name(u.function).split("::")[-len(names):] == names]
    matches = named(units) or named(in_headers)
    if not matches:
        declared = [line for name, line in undefined if name.split("::")[-len(names):] == names]
        if declared and not block:
            raise CppError(f"vector function '{shown(m.group('name'))}' is declared at line {declared[0]} of {path} but "
                           "never defined there", notes=listing())
        raise CppError(f"no {'block #%d of ' % block if block else ''}vector function '{shown(m.group('name'))}' in "
                       f"{path}",
                       notes=listing())
    function_args = parts[-1][1]
    class_args = parts[-2][1] if len(parts) > 1 else []
    if len(parts) == 1 and matches[0].function.kind.name == "CONSTRUCTOR":
        function_args, class_args = [], function_args       # `Cls<half>#1`: a block of Cls's constructor
    if class_args:      # of several partial specialisations, the one the class's arguments fit
        fitting = [u for u in matches if _class_of(u.function) is None or pattern_binding(_class_of(u.function),
                                                                                         class_args) is not None]
        matches = fitting or matches
    if len(matches) > 1:             # namespaces or overloads: never silently the first
        raise CppError(f"the entry '{shown(m.group('name'))}' names {len(matches)} vector functions in {path}: "
                       "qualify it (ns::Name) or give its line (@LINE)",
                       notes=[f"{u.name} (line {u.line})" for u in matches])
    return matches[0], function_args, class_args


def _class_of(function):
    parent = function.semantic_parent
    return parent if parent is not None and parent.kind.name in ("CLASS_TEMPLATE", "CLASS_DECL", "STRUCT_DECL",
                                                                 "CLASS_TEMPLATE_PARTIAL_SPECIALIZATION") else None


def list_units(path, *, defines=(), include_dirs=()) -> list[tuple[str, int]]:
    """(entry name, line) of every vector function and __VEC_SCOPE__ block of the file."""
    tu, _ = parse(str(path), defines, include_dirs)
    return [(u.name, u.line) for u in find_units(TUIndex(tu, str(path)))]


def translate(path, entry: str | None = None, *, template_args=None, defines=(), include_dirs=(),
              tiling=None, tiling_key=None) -> Translation:
    """Translate the vector function or __VEC_SCOPE__ block `entry` of the C++ file `path`, or the
    whole kernel `entry` names (a `__global__` function: the kernel package) with its tiling values."""
    path = str(path)
    if not Path(path).is_file():
        raise CppError(f"cannot read {path}: no such file")
    tu, clang_errors = parse(path, defines, include_dirs)
    index = TUIndex(tu, path)
    whole = find_entry(index, entry)
    if whole is not None:
        unit, function_args, class_args = Unit(whole[0]), whole[1], []
    elif tiling is not None or tiling_key is not None:
        raise CppError(f"--tiling and --tiling-key are for whole kernels: '{entry}' is not a __global__ function "
                       f"of {path}")
    else:
        units = find_units(index)
        unit, function_args, class_args = select_unit(units, entry, path, index.undefined, find_units(index, True))
    try:
        kernel = {"tiling": tiling, "tiling_key": tiling_key} if whole is not None else None
        translation = _translate_unit(index, path, unit, function_args, class_args, template_args, clang_errors,
                                      kernel)
        translation.sources = _included(tu, path)
        return translation
    except CppError as error:
        if clang_errors and not error.from_clang:     # they may explain this one: a name clang could not resolve, a broken type
            first = clang_errors[0].location
            error.notes += (f"clang reported {len(clang_errors)} error(s) outside the translated code, the "
                            f"first at {first.file}:{first.line}:{first.column}: {clang_errors[0].spelling}",)
        raise


def _translate_unit(index, path, unit, function_args, class_args, template_args, clang_errors,
                    kernel=None) -> Translation:
    named = template_args if isinstance(template_args, dict) else None
    if isinstance(template_args, (list, tuple)):
        function_args = list(template_args)
    lowering = KernelLowering(index, path, clang_errors, **kernel) if kernel is not None \
        else Lowering(index, path, clang_errors)
    # the whole function, also around a block: the block reads the locals declared before it
    lowering.check_clang_errors(unit.function)
    lowering.frames.append(Frame())
    cls = lowering.frame.cls = _class_of(unit.function)
    if cls is not None and template_params(cls):
        bind_template(lowering, cls, class_args, qualified_name(cls), named)
    if unit.function.kind.name == "FUNCTION_TEMPLATE":
        bind_template(lowering, unit.function, function_args, unit.function.spelling, named)
    if unit.block is None:
        _bind_parameters(lowering, unit.function)
        body = _body(unit.function)
    else:
        lowering.capturing = True
        body = unit.block
        lowering.outer_decls = _names_before(unit.function, body)
        _declare_outer_registers(lowering, body)
    try:
        lowering.stmt(body)
    except ConstReturn:
        pass
    if kernel is not None:
        lowering.finish()
    lowering.cur_loc = None
    lowering.place("__end")
    lowering.emit("halt")
    lines = lowering.lines
    fixed = [p.reg for p in lowering.params]
    ranges, constants = {}, {}
    lines, assignment, moved = regalloc.fit(lines, lowering.loops, lowering.regs, fixed, ranges, constants)
    if moved is not None:           # constants were rematerialised: the recorded line positions move too
        lowering.lines = lines
        lowering.bindings = [(name, value, moved[min(at, len(moved) - 1)], *rest)
                             for name, value, at, *rest in lowering.bindings]
    params = [Param(p.name, p.kind, p.etype, assignment[p.reg.number], p.cpp_type) for p in lowering.params]
    for item in lines:        # those the lowering placed without emit (a hardware loop's vloop and endloop)
        if isinstance(item, ir.Instr):
            rowcheck.check(item, path)
    lines = _drop_unused_end(debugvars.annotate(lines, lowering, assignment, ranges, constants))
    debug = debugvars.debug_info(lines)
    out, directives = debugvars.split([AsmLine(item.render(assignment), item.loc) for item in lines])
    translation = Translation(_printable(unit, lowering), path, params, out, dict(lowering.ctrl), debug, directives)
    if kernel is not None:
        translation.ub_regions = tuple((r.name, r.addr, r.nbytes) for r in lowering.ub_regions)
        translation.tiling = lowering.tiling_bytes
    return translation


def _included(tu, path: str) -> tuple:
    stubs = str(INCLUDE_DIR.resolve())
    files = {str(Path(path))} | {str(i.include.name) for i in tu.get_includes()}
    return tuple(sorted(f for f in files if not os.path.realpath(f).startswith(stubs + os.sep)))


def _names_before(function, block) -> dict:
    """The parameters and locals of `function` declared before `block`, by name (the block's
    references that libclang leaves unresolved are looked up here)."""
    names = {}
    for c in function.walk_preorder():
        if c.kind.name in ("PARM_DECL", "VAR_DECL") and c.extent.start.offset < block.extent.start.offset:
            names[c.spelling] = c
    return names


def _declare_outer_registers(lowering, block):
    """Register variables (RegTensor, MaskReg, ...) a block uses but its function declares before it:
    declared (and initialised) at the block's start, since registers hold nothing across the block's
    boundary."""
    start, end = block.extent.start.offset, block.extent.end.offset
    seen = set()
    for c in block.walk_preorder():
        if c.kind.name != "DECL_REF_EXPR":
            continue
        decl = c.referenced or lowering.outer_decls.get(c.spelling)
        if decl is None or decl.kind.name != "VAR_DECL" or decl.hash in seen:
            continue
        if start <= decl.extent.start.offset < end or not _same_file(str(decl.location.file), str(block.location.file)):
            continue
        seen.add(decl.hash)
        ctype = lowering.try_resolve(decl.type, decl)
        if ctype is not None and ctype.kind in ("vec", "mask", "addr", "ustore", "uload", "unalign"):
            lowering.var_decl(decl)


def _bind_parameters(lowering, function):
    for param in [c for c in function.get_children() if c.kind.name == "PARM_DECL"]:
        ctype = lowering.resolve_type(param.type, param)
        if ctype.kind not in ("ptr", "int", "float", "bool"):
            raise error_at(param, f"parameter '{param.spelling}' of type {ctype}: a vector function's parameters "
                                  "are UB pointers and scalars")
        reg = VReg("s", len(lowering.regs), param.spelling, (str(param.location.file), param.location.line,
                                                              param.location.column), 0)
        lowering.regs.append(reg)
        lowering.bind(param, RV(reg, ctype))
        gm = getattr(lowering, "whole_kernel", False) and ctype.kind == "ptr"     # a kernel's are GM addresses
        lowering.params.append(ParamSlot(param.spelling, "gm" if gm else "pointer" if ctype.kind == "ptr" else "scalar",
                                         ctype.etype, str(ctype).replace("__ubuf__", "__gm__") if gm else str(ctype),
                                         reg))


def _printable(unit, lowering) -> str:
    args = ", ".join(str(v.value) if isinstance(v, Const) else str(v) for v in lowering.frames[0].targs.values())
    name = _function_name(unit.function)
    return f"{name}<{args}>" + (f"#{unit.number}" if unit.block is not None else "") if args else unit.name


def _drop_unused_end(items):
    """`__end:` stays only when a return branches to it."""
    if any(isinstance(item, ir.Instr) and item.target() == "__end" for item in items):
        return items
    return [item for item in items if not (isinstance(item, ir.LabelDef) and item.name == "__end")]
