"""Running a C++ kernel's vector function: its arguments become UB buffers and parameter registers,
the translated program (ascasm/cpp/translate.py) is assembled with `.loc` lines so that every row
carries its C++ position, and the pointer parameters' buffers are read back as arrays.

An argument is given per parameter, on the command line as `--arg NAME=SPEC` or to `run_kernel` as
a keyword:
- a `__ubuf__ T*` parameter: `FILE.npy` (the buffer's initial contents, of exactly T's type;
  `run_kernel` takes the array itself), `TYPE[COUNT]` (COUNT zeros of TYPE, which must be T),
  `@OTHER` (the same buffer as pointer parameter OTHER: in place); each may end in `@+BYTES`
  (`x.npy@+32`, `@src+64`): the pointer is that many bytes into the buffer. Each buffer is placed in
  the UB 32-byte aligned, in the order of the parameters, GUARD bytes after the previous one's end:
  the buffers are bounds (docs/semantics.md "Buffers as bounds"), and an access that runs past one
  then meets no other buffer for a whole vector.
- a scalar parameter: a number in its type's range (an integer for integer types).
A missing, unknown or repeated argument, a value that does not fit and buffers that do not fit in the
UB are KernelArgError (the command line's usage error, exit status 64).
"""
from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import floats
from ..api import Result
from ..asm.assembler import assemble
from ..asm.errors import AsmError, AssemblyFailed
from ..asm.files import InputFileError, load_npy
from ..isa import dtypes
from ..limits import shown
from ..program import Buffer, Program
from ..source import SourceLoc
from ..state import GM_MAX, MAX_STEPS_DEFAULT, UB_USABLE_DEFAULT
from ..vm import Machine, auto_engine
from .clang import CppError, LibclangMissing

ALIGN = 32                                 # every buffer starts on a 32-byte boundary
GUARD = 256                                # unallocated bytes between buffers: one vector register
# (numbers of at most 12 digits: anything longer is beyond the UB, and Python's int() refuses thousands)
_POINTER_SPEC = re.compile(r"^(?P<what>.*?)(?:@\+(?P<offset>\d{1,12}))?$", re.DOTALL)
_OTHER_SPEC = re.compile(r"^@(?P<other>[A-Za-z_]\w*)(?:\+(?P<offset>\d{1,12}))?$")
_TYPE_SPEC = re.compile(r"^(?P<type>[A-Za-z_]\w*)\[(?P<count>\d{1,12})\]$")


class KernelArgError(ValueError):
    """An argument that does not fit the kernel's parameters (the command line's usage error)."""


@dataclass
class Storage:
    """One UB buffer: declared by the parameter that gives its contents or size."""
    name: str                      # its .ub name
    etype: dtypes.ElemType
    count: int
    data: np.ndarray | None        # initial contents (None: zeros)
    source: Path | None = None     # the .npy file they come from
    space: str = "ub"              # "gm": a whole kernel's global-memory buffer


@dataclass
class Binding:
    """A parameter and what it is given: a buffer and a byte offset into it, or a scalar's bits."""
    param: object                  # translate.Param
    storage: Storage | None = None
    offset: int = 0
    value: int = 0                 # a scalar: the integer, or a float's bits (what its s register holds)
    text: str = ""                 # a scalar as given, for the comment in `translate -o`


class CppFailed(Exception):
    """The kernel cannot be run: C++ errors located in its source (the translator's; `summary` alone
    when one has no position), or a translation that did not assemble (`summary` says so). Exit
    status 1, as assembly errors."""

    def __init__(self, errors: list[AsmError], summary: str = ""):
        self.errors, self.summary = errors, summary
        super().__init__("\n".join(filter(None, [summary, str(AssemblyFailed(errors)) if errors else ""])))


def translate_kernel(path, entry=None, defines=(), include_dirs=(), tiling=None, tiling_key=None):
    """ascasm.cpp.translate.translate, in a child process with limits (ascasm/cpp/sandbox.py). Its
    CppError becomes CppFailed; LibclangMissing (a CppError too) passes as it is: the message says how
    to install it."""
    from . import sandbox
    try:
        whole = {"tiling": tiling, "tiling_key": tiling_key} if tiling is not None or tiling_key is not None else {}
        return sandbox.call(str(path), entry, defines=tuple(defines), include_dirs=tuple(include_dirs), **whole)
    except LibclangMissing:
        raise
    except CppError as error:
        if not error.file:
            raise CppFailed([], error.message + "".join(f"\nnote: {note}" for note in error.notes)) from None
        raise CppFailed([as_asm_error(error)]) from None


# ------------------------------------------------------------------ arguments

def parse_arg_options(options) -> dict[str, str]:
    """`--arg NAME=SPEC` options -> {NAME: SPEC}; a malformed or repeated one is a KernelArgError."""
    given: dict[str, str] = {}
    for option in options:
        name, equals, spec = option.partition("=")
        name = name.strip()
        if not equals or not name.isidentifier():          # C++ names may be Unicode
            raise KernelArgError(f"--arg {shown(option)!r}: write NAME=VALUE (e.g. --arg count=1000)")
        if name in given:
            raise KernelArgError(f"--arg {name} is given twice")
        given[name] = spec.strip()
    return given


def bind(params, given: dict, base: Path = Path("."), ub_usable: int = UB_USABLE_DEFAULT,
         tiling: tuple | None = None) -> list[Binding]:
    """One Binding per parameter, in declaration order, from `given` {name: spec or value}: specs
    (str) as on the command line, with .npy files relative to `base`; for run_kernel also arrays
    (pointer parameters) and numbers (scalars). A whole kernel's `tiling` (parameter, bytes) is that
    parameter's buffer unless an argument gives it."""
    if tiling is not None and tiling[0] not in given:
        given = {**given, tiling[0]: np.frombuffer(tiling[1], np.uint8).copy()}
    names = [p.name for p in params]
    unknown = [name for name in given if name not in names]
    if unknown:
        raise KernelArgError(f"the kernel has no parameter {unknown[0]!r} (parameters: {_signature(params)})")
    missing = [p for p in params if p.name not in given]
    if missing:
        raise KernelArgError("no argument for " + ", ".join(f"{p.name} ({_kind_text(p)})" for p in missing)
                             + f"; give each with --arg NAME=VALUE (parameters: {_signature(params)})")
    bindings = {p.name: Binding(p) for p in params}
    for p in params:
        if p.kind == "scalar":
            bindings[p.name].value, bindings[p.name].text = _scalar(p, given[p.name])
    others = {}                                             # parameter -> (the parameter it points into, offset)
    for p in params:
        if p.kind == "gm":
            bindings[p.name].storage = _gm_storage(p, given[p.name], base)
        if p.kind != "pointer":
            continue
        value, binding = given[p.name], bindings[p.name]
        if isinstance(value, str) and value.startswith("@"):
            m = _OTHER_SPEC.match(value)
            if not m:
                raise KernelArgError(f"{p.name}={shown(value)}: write @NAME or @NAME+BYTES (the same buffer as "
                                     "pointer parameter NAME)")
            others[p.name] = (m.group("other"), int(m.group("offset") or 0))
        else:
            binding.storage, binding.offset = _storage(p, value, base, ub_usable)
    for name, (other, offset) in others.items():
        root, total, seen = other, offset, {name}
        while root in others:                               # @a where a is @b: b's buffer
            if root in seen:
                raise KernelArgError(f"{name}=@{other}: the @ references go round in a circle")
            seen.add(root)
            root, more = others[root]
            total += more
        if root not in bindings or bindings[root].param.kind != "pointer":
            pointers = ", ".join(p.name for p in params if p.kind == "pointer")
            raise KernelArgError(f"{name}=@{other}: {other!r} is not a pointer parameter (pointers: {pointers})")
        bindings[name].storage, bindings[name].offset = bindings[root].storage, bindings[root].offset + total
    for binding in bindings.values():
        if binding.storage is not None:
            _check_offset(binding)
    _check_fits([b.storage for b in bindings.values()], ub_usable)
    return list(bindings.values())


def _storage(param, value, base: Path, ub_usable: int) -> tuple[Storage, int]:
    """The buffer a pointer parameter declares: from an array, a .npy file or TYPE[COUNT]."""
    etype = _etype(param)
    name = param.buffer_name
    if isinstance(value, np.ndarray):
        return Storage(name, etype, *_array_contents(param, etype, value, "the array")), 0
    if not isinstance(value, str):
        raise KernelArgError(f"{param.name} is a pointer ({param.cpp_type}): give an array, FILE.npy, "
                             f"{etype.name}[COUNT] or @OTHER, not {type(value).__name__}")
    m = _POINTER_SPEC.match(value)
    what, offset = m.group("what"), int(m.group("offset") or 0)
    typed = _TYPE_SPEC.match(what)
    if typed:
        given_type = dtypes.lookup(typed.group("type"))
        count = int(typed.group("count"))
        if given_type is None:
            raise KernelArgError(f"{param.name}={shown(value)}: unknown type {typed.group('type')!r}")
        if given_type != etype:
            raise KernelArgError(f"{param.name} points to {etype.name} ({param.cpp_type}), not "
                                 f"{given_type.name}: write {etype.name}[{count}]")
        if not 0 < count * etype.width <= ub_usable:
            raise KernelArgError(f"{param.name}={shown(value)}: a buffer holds 1 to {ub_usable // etype.width:,} "
                                 f"{etype.name} elements (the usable UB is {ub_usable:,} bytes)")
        return Storage(name, etype, count, None), offset
    if not what.endswith(".npy"):
        raise KernelArgError(f"{param.name}={shown(value)}: a pointer takes FILE.npy, {etype.name}[COUNT] or "
                             "@OTHER, optionally followed by @+BYTES")
    path = base / what
    try:
        data = load_npy(path, ub_usable // etype.width, raw_as=etype.np_dtype)
    except InputFileError as exc:
        raise KernelArgError(f"{param.name}: {exc}") from None
    count, contents = _array_contents(param, etype, data, str(path))
    return Storage(name, etype, count, contents, path), offset


def _array_contents(param, etype, array: np.ndarray, what: str) -> tuple[int, np.ndarray]:
    if array.dtype != etype.np_dtype:
        raise KernelArgError(f"{param.name} points to {etype.name} ({param.cpp_type}) but {what} holds "
                             f"{array.dtype} values: convert them first (e.g. .astype({_dtype_spelling(etype)}))")
    if array.size == 0:
        raise KernelArgError(f"{param.name}: {what} holds no values")
    return array.size, np.ascontiguousarray(array).reshape(-1).copy()


def _check_offset(binding: Binding):
    storage, offset, etype = binding.storage, binding.offset, _etype(binding.param)
    nbytes = storage.count * storage.etype.width
    if offset >= nbytes:
        raise KernelArgError(f"{binding.param.name}: {offset} bytes into {storage.name}'s buffer is past its end "
                             f"({nbytes} bytes)")
    if offset % etype.width:
        raise KernelArgError(f"{binding.param.name}: {offset} bytes in is not a whole {etype.name} element "
                             f"({etype.width} bytes)")


def _gm_storage(param, value, base: Path) -> Storage:
    """A whole kernel's GM buffer: a `__gm__` pointer (GM_ADDR is a byte pointer) takes an array, a .npy
    file or TYPE[COUNT] of any element type, which its buffer then has."""
    name = param.buffer_name
    if isinstance(value, np.ndarray):
        etype = _etype_of_array(value)
        if value.size == 0:
            raise KernelArgError(f"{param.name}: the array holds no values")
        return Storage(name, etype, value.size, np.ascontiguousarray(value).reshape(-1).copy(), space="gm")
    if not isinstance(value, str):
        raise KernelArgError(f"{param.name} is a global-memory pointer: give an array, FILE.npy or TYPE[COUNT]")
    typed = _TYPE_SPEC.match(value)
    if typed:
        etype = dtypes.lookup(typed.group("type"))
        if etype is None:
            raise KernelArgError(f"{param.name}={shown(value)}: unknown type {typed.group('type')!r}")
        count = int(typed.group("count"))
        if not 0 < count * etype.width <= GM_MAX:
            raise KernelArgError(f"{param.name}={shown(value)}: a GM buffer holds 1 to {GM_MAX:,} bytes")
        return Storage(name, etype, count, None, space="gm")
    if not value.endswith(".npy"):
        raise KernelArgError(f"{param.name}={shown(value)}: a global-memory pointer takes FILE.npy or TYPE[COUNT]")
    try:
        data = load_npy(base / value, GM_MAX)
    except InputFileError as exc:
        raise KernelArgError(f"{param.name}: {exc}") from None
    return Storage(name, _etype_of_array(data), data.size, np.ascontiguousarray(data).reshape(-1).copy(),
                   base / value, space="gm")


def _etype_of_array(array: np.ndarray) -> dtypes.ElemType:
    """The first ascasm type (in the table's order) whose numpy dtype the array has."""
    for etype in dtypes.TYPES:
        if etype.np_dtype == array.dtype:
            return etype
    raise KernelArgError(f"arrays of {array.dtype} have no ascasm element type")


def _check_fits(storages, ub_usable: int):
    distinct = list({id(s): s for s in storages if s is not None and s.space == "ub"}.values())
    needed = sum(_aligned(s.count * s.etype.width) for s in distinct) + GUARD * max(0, len(distinct) - 1)
    if needed > ub_usable:
        sizes = ", ".join(f"{s.name} {s.count * s.etype.width:,}" for s in distinct)
        raise KernelArgError(f"the buffers need {needed:,} bytes of UB (32-byte aligned, {GUARD} between each two: "
                             f"{sizes}); the usable UB is {ub_usable:,} bytes (--ub-usable)")


def _scalar(param, value) -> tuple[int, str]:
    """(what the parameter's s register holds, the value as text) for a scalar argument."""
    etype = _etype(param)
    text = value if isinstance(value, str) else repr(value)
    if isinstance(value, np.generic):
        value = value.item()
    if etype.kind == "float":
        number = _float_value(param, value, text)
        narrow = floats.round_to_type(np.array([number]), etype) if etype.name in floats.CANONICAL_NAN_BITS \
            else np.array([number]).astype(etype.np_dtype)
        beyond_double = math.isinf(number) and isinstance(value, str) and "inf" not in value.lower()   # 1e400
        if beyond_double or math.isfinite(number) and not np.isfinite(narrow.astype(np.float64)[0]):
            largest = float(dtypes.finfo(etype).max)
            raise KernelArgError(f"{param.name}={shown(text)} does not fit in {etype.name} (largest {largest!r})")
        return int(narrow.view(etype.bits)[0]), text
    number = _int_value(param, value, text)
    bits = 8 * etype.width
    low, high = (-(1 << (bits - 1)), 1 << (bits - 1)) if etype.kind == "int" else (0, 1 << bits)
    if not low <= number < high:
        raise KernelArgError(f"{param.name}={shown(text)} is outside {etype.name}'s range {low}..{high - 1}")
    return number, text


def _float_value(param, value, text: str) -> float:
    if isinstance(value, str):
        try:
            value = float(value) if len(value) <= 64 and value.isascii() else None     # not Unicode digits
        except ValueError:
            value = None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise KernelArgError(f"{param.name} ({param.cpp_type}) takes a number, not {shown(text)!r}")
    return floats.exact_float64(value)


def _int_value(param, value, text: str) -> int:
    if isinstance(value, str):
        try:
            value = int(value, 0) if len(value) <= 64 and value.isascii() else None
        except ValueError:
            value = None
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise KernelArgError(f"{param.name} ({param.cpp_type}) takes an integer, not {shown(text)!r}")
    return value


def _etype(param) -> dtypes.ElemType:
    etype = dtypes.lookup(param.etype)
    if etype is None:                        # the translator names only ascasm's types
        raise KernelArgError(f"{param.name}: unknown element type {param.etype!r}")
    return etype


def _aligned(nbytes: int) -> int:
    return -(-nbytes // ALIGN) * ALIGN


def _kind_text(param) -> str:
    return f"{param.cpp_type}" if param.cpp_type else param.etype


def _signature(params) -> str:
    return ", ".join(f"{p.cpp_type} {p.name}".strip() for p in params) or "none"


def _dtype_spelling(etype) -> str:
    """How numpy code names the element type: ml_dtypes' types are numpy's "V" (raw) kind."""
    return f"{'ml_dtypes' if etype.np_dtype.kind == 'V' else 'np'}.{etype.np_dtype.name}"


# ------------------------------------------------------------------ the program

def _buffer_line(storage: Storage, address: int, directory: Path, file_inits: bool) -> str:
    init = ""
    if file_inits and storage.data is not None:
        if storage.source is not None:
            init = f' = file("{_relative(storage.source, directory)}")'
        elif storage.etype.kind in ("int", "uint"):      # the tiling's bytes: written out as a list
            init = " = [" + ", ".join(str(int(v)) for v in storage.data) + "]"
        else:
            raise KernelArgError(f"{storage.name}: a written program takes contents only from .npy files")
    placed = f" @ {address}" if address else ""
    return f".{storage.space} {storage.name} {storage.etype.name}[{storage.count}]{init}{placed}"


def program_text(translation, bindings: list[Binding], directory: Path, file_inits: bool = False) -> str:
    """The whole program: a .ub per buffer, the prologue that sets each parameter's s register, then
    the translated lines, with a .loc line wherever the C++ position changes. With `file_inits` (a .s
    file to write) a buffer's contents are its .npy file's, `= file("x.npy")`; otherwise the caller
    sets them. Paths are relative to `directory`, the program's. Every instruction is commented with
    its C++ line."""
    out = [f"; {translation.path}: {translation.entry}, translated by ascasm"]
    declared, address, gm_address = set(), 0, 0
    for name, at, nbytes in translation.ub_regions:       # TPipe::InitBuffer's blocks: garbage until written
        out.append(f".ub {name} u8[{nbytes}] = undef @ {at}")
    for binding in bindings:
        storage = binding.storage
        if storage is None or id(storage) in declared:
            continue
        declared.add(id(storage))
        if storage.space == "gm":
            out.append(_buffer_line(storage, gm_address, directory, file_inits))
            gm_address += _aligned(storage.count * storage.etype.width) + GUARD
            continue
        init = ""
        if file_inits and storage.data is not None:
            if storage.source is None:
                raise KernelArgError(f"{storage.name}: a written program takes contents only from .npy files")
            init = f' = file("{_relative(storage.source, directory)}")'
        placed = f" @ {address}" if address else ""
        out.append(f".ub {storage.name} {storage.etype.name}[{storage.count}]{init}{placed}")
        address += _aligned(storage.count * storage.etype.width) + GUARD
    # the prologue's position: the kernel's first line among the translation's (not that of a helper
    # inlined from a header), so that the debugger starts in the kernel's own file
    located = [line.loc for line in translation.lines if line.loc]
    first = next((loc for loc in located if _same_path(loc[0], translation.path)), located[0] if located else None)
    position = None
    if first is not None:
        position = first
        out.append(_loc_line(first, directory))
    for binding in bindings:
        p = binding.param
        if binding.storage is not None:
            target = binding.storage.name + (f" + {binding.offset}" if binding.offset else "")
            out.append(_commented(f"mov s{p.sreg}, {target}", p.name))
        else:
            shown_value = "" if str(binding.value) == binding.text else f" = {binding.text}"
            out.append(_commented(f"mov s{p.sreg}, {binding.value}", p.name + shown_value))
    ctrl = ctrl_setting(translation)
    if ctrl is not None:
        out.append(_commented(f"sprset.ctrl {ctrl:#x}", "SetCtrlSpr before the call"))
    source_lines, commented = {}, None
    storage_of = {b.param.name: b.storage.name for b in bindings if b.storage is not None}
    for line, directives in translation.with_directives():
        out += [_debug_directive(text, storage_of, directory) for text in directives]
        if line is None:
            break
        text = line.text.rstrip()
        if line.loc is not None and line.loc != position:
            position = line.loc
            out.append(_loc_line(line.loc, directory))
        if line.loc is not None and _is_instruction(text):
            file, number, _col = line.loc
            where = number if _same_path(file, translation.path) else f"{Path(file).name}:{number}"
            comment = f"{where}"
            if (file, number) != commented:         # the C++ text once, on the line's first instruction
                if file not in source_lines:        # each file read once (setdefault would read it per line)
                    source_lines[file] = _read_lines(file)
                lines = source_lines[file]
                cpp = lines[number - 1].strip() if 0 < number <= len(lines) else ""
                comment += f": {shown(cpp)}" if cpp else ""
                commented = (file, number)
            text = _commented(text.strip(), comment)
        elif _is_instruction(text):
            text = "        " + text.strip()
        out.append(text)
    return "\n".join(out) + "\n"


_FRAME_PUSH = re.compile(r'^(\.frame push "[^"]*") "([^"]*)"')
_POINTS_INTO = re.compile(r"^(\.(?:var|arg) .* -> )(\w+)$")


def _debug_directive(text: str, storage_of: dict, directory: Path) -> str:
    """A debug directive of the translation as the program says it: a call site's file relative to
    the program's directory (as .loc's), a pointer's parameter as the .ub buffer it was given."""
    push = _FRAME_PUSH.match(text)
    if push:
        return f'{push.group(1)} "{_relative(push.group(2), directory)}"{text[push.end():]}'
    points = _POINTS_INTO.match(text)
    if points and points.group(2) in storage_of:
        return points.group(1) + storage_of[points.group(2)]
    return text


def ctrl_setting(translation) -> int | None:
    """The CTRL register as the SetCtrlSpr<START, END>(VALUE) calls the translator found leave it:
    bits START..END of a CTRL that starts at 0 set to VALUE, call after call; None without such calls."""
    calls = translation.ctrl.get("SetCtrlSpr", [])
    if not calls:
        return None
    ctrl = 0
    for bits, values in calls:
        try:
            start, end = (int(text, 0) for text in bits)
        except (TypeError, ValueError):
            start = end = None
        value = values[0] if len(values) == 1 else None
        if start is None or value is None or not 0 <= start <= end <= 63:
            raise CppFailed([], f"SetCtrlSpr<{', '.join(map(str, bits))}>: the bits (0 to 63) and the value must "
                                "be constants for ascasm to set CTRL before the vector function runs")
        field = (1 << (end - start + 1)) - 1
        ctrl = (ctrl & ~(field << start)) | ((int(value) & field) << start)
    return ctrl


def _commented(instruction: str, comment: str) -> str:
    return f"        {instruction:<40}; {comment}"


def _is_instruction(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith((".", ";")) and not stripped.endswith(":")


def _same_path(a, b) -> bool:
    return os.path.abspath(a) == os.path.abspath(b)


def _loc_line(loc, directory: Path) -> str:
    file, line, col = loc
    name = _relative(file, directory)
    if '"' in name or "\n" in name:        # an assembly string holds neither
        raise CppFailed([], f"{name!r}: ascasm cannot name a C++ file whose name holds a double quote or a line "
                            "feed in the assembly it translates to (rename it)")
    return f'.loc "{name}" {line} {max(1, col or 1)}'


def _relative(path, directory: Path) -> str:
    """`path` relative to `directory`, or absolute when they share no directory but the root."""
    path, directory = os.path.abspath(path), os.path.abspath(directory)
    if os.path.dirname(os.path.commonpath([path, directory])) == os.path.commonpath([path, directory]):
        return path.replace(os.sep, "/")
    return os.path.relpath(path, directory).replace(os.sep, "/")


def _read_lines(file) -> list[str]:
    try:
        return Path(file).read_text(encoding="utf-8", errors="replace").split("\n")
    except OSError:
        return []


@dataclass
class Kernel:
    """A translated kernel ready to run: the Program, its parameters' bindings, and per pointer
    parameter the whole buffer it points into, as a Buffer of the parameter's element type."""
    translation: object
    program: Program
    bindings: list[Binding]
    param_buffers: dict[str, Buffer]

    @property
    def input_files(self) -> list[Path]:
        return [b.storage.source for b in self.bindings if b.storage is not None and b.storage.source]


def build(translation, given: dict, base: Path = Path("."), ub_usable: int = UB_USABLE_DEFAULT) -> Kernel:
    """Bind the arguments, write and assemble the program (in memory, as if it were the file
    KERNEL.cpp.s beside the kernel) and set the buffers' initial contents."""
    bindings = bind(translation.params, given, base, ub_usable, getattr(translation, "tiling", None))
    cpp = Path(translation.path)
    text = program_text(translation, bindings, cpp.parent)
    try:
        # the files the translator read (the kernel, its headers) are shown wherever they are
        program = assemble(text, str(cpp.with_name(cpp.name + ".s")), ub_usable,
                           {os.path.dirname(line.loc[0]) or "." for line in translation.lines if line.loc})
    except AssemblyFailed as failed:
        raise CppFailed(failed.errors, "the translated program did not assemble (a bug in ascasm's C++ front "
                                       "end; `ascasm translate` shows it)") from None
    params = {}
    for binding in bindings:
        if binding.storage is None:
            continue
        buf = program.buffers[binding.storage.name]
        buf.data = binding.storage.data
        if binding.storage.space == "gm":         # a GM buffer of the given array's type
            params[binding.param.name] = buf
            continue
        etype = _etype(binding.param)
        params[binding.param.name] = Buffer(binding.param.name, etype, buf.nbytes // etype.width, buf.addr, buf.loc)
    program.bounded = True                     # a write past a parameter's buffer is a fault
    program.data_files += tuple(b.storage.source for b in bindings if b.storage is not None and b.storage.source)
    program.data_files += tuple(map(Path, translation.sources))      # no output replaces a header it includes
    return Kernel(translation, program, bindings, params)


# ------------------------------------------------------------------ the Python API

class KernelResult(Result):
    """`run_kernel`'s result: `result[NAME]` is pointer parameter NAME's whole buffer as an array of
    the parameter's element type (and, as for `ascasm.run`, a .ub buffer's contents by its name)."""

    def __init__(self, kernel: Kernel, state, stops: list | None = None):
        super().__init__(kernel.program, state, stops=stops)
        self.kernel = kernel

    def __getitem__(self, name: str) -> np.ndarray:
        if name in self.kernel.param_buffers:
            return self.kernel.param_buffers[name].view(self.state).copy()
        return super().__getitem__(name)

    def __contains__(self, name) -> bool:
        return name in self.kernel.param_buffers or super().__contains__(name)


def start(kernel: Kernel, engine: str | None = None, max_steps: int = MAX_STEPS_DEFAULT,
          ub_usable: int = UB_USABLE_DEFAULT, store_inactive: str = "keep", strict: bool = False) -> Machine:
    """A machine loaded with the kernel's program, ready to run (run_kernel and CompiledKernel.run in
    ascasm/cpp/compiled.py, which translate once and check runs against expectations)."""
    return Machine(kernel.program, engine or auto_engine(), ub_usable, max_steps, store_inactive, strict)


def as_asm_error(error: CppError) -> AsmError:
    """A located CppError as an assembly error record (the run report's text and JSON)."""
    lines = _read_lines(error.file)
    text = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
    return AsmError(SourceLoc(error.file, error.line, max(1, error.col), max(error.col + 1, error.end_col), text),
                    error.message, list(error.notes))
