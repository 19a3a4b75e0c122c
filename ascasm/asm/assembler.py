"""Two-pass assembler: pass 1 lays out labels, buffers and constants; pass 2 checks every instruction
against the ISA table and resolves its operands. The result is a Program with both the structured
instruction list (for the reference executor) and the bytecode rows (for the engine)."""
from __future__ import annotations

import gc
import itertools
import math
import os
import re
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import floats, isa
from ..isa import BARRIER_KINDS, BY_MNEMONIC, PATTERNS, ROW_WIDTH, ElemType, Kind
from ..isa.table import CONVERSIONS, KEYWORDS, keyword_choices
from ..isa.operands import REGISTER_FILES
from ..debuginfo import DebugInfo, InlineFrame, VarRange
from ..expr.constant import evaluate, index_array
from ..expr.tree import ExprError
from ..limits import MAX_ERRORS, MAX_SOURCE_BYTES, shown, whole_number
from ..program import Addr, Buffer, Expectation, Insn, Program, SVal, operand_slots
from ..state import GM_MAX, MAX_LOOP_COUNT, NUM_LOOPS, PIPES, UB_USABLE_DEFAULT
from .errors import AsmError, AssemblyFailed, SourceLoc
from .files import InputFileError, load_npy, read_regular_file
from .parser import parse_source
from .statements import (Artificial, BufferDecl, Constant, Equ, Expect, FrameDirective, Instruction, ListInit, Loc, Out,
                         Token, VarDirective)

_REGISTER = re.compile(r"^([vpasuqVPASUQ])(\d+)(?:\.(.*))?$")
_SPECIAL_FLOATS = {"inf": float("inf"), "nan": float("nan")}
UNDEF = "undef"          # INIT of a .ub buffer whose bytes count as never written (docs/language.md §4)
_PIPE_NAMES = {name.lower(): number for name, number in PIPES.items()}   # setflag/waitflag/pipebar operands
INT64_MIN, UINT64_LIMIT = -(1 << 63), 1 << 64
MAX_POSITION = (1 << 31) - 1         # a .loc line or column
MAX_LOC_BYTES = 32 * 1024 * 1024     # the text of every file .loc lines name, in all

# Which spec operand kinds an operand written in the source can fill.
_FITS = {
    "vreg": {Kind.VREG}, "preg": {Kind.PREG}, "areg": {Kind.AREG}, "sreg": {Kind.SREG, Kind.SVAL, Kind.TVAL},
    "ureg": {Kind.UREG}, "qreg": {Kind.QREG},
    "addr": {Kind.ADDR, Kind.BASE}, "value": {Kind.SVAL, Kind.TVAL, Kind.LABEL, Kind.PAT, Kind.BARRIER,
                                              Kind.SAT, Kind.PART},
}
_SHAPE_WORDS = {"vreg": "a vector register", "preg": "a mask register", "areg": "an address register",
                "sreg": "a scalar register", "ureg": "an unaligned store register", "qreg": "an unaligned load register", "addr": "an address", "value": "a value"}


def _scalar_form_hint(spec, position: int, shape: str) -> list[str]:
    """For `vadd v1.f32, v0.f32, 1.0, p0`: the mnemonic's scalar form (vadds), which takes a value where
    this one takes a vector register."""
    if shape not in ("value", "sreg"):
        return []
    for other in BY_MNEMONIC.get(spec.mnemonic + "s", []):
        if position < len(other.operands) and other.operands[position].kind in (Kind.SVAL, Kind.TVAL):
            return [f"'{other.mnemonic}' takes a scalar there: {other.text}"]
    return []


class _Failed(Exception):
    """One error found; the statement is skipped and assembly goes on with the next."""

    def __init__(self, error: AsmError):
        self.error = error


class _Skipped(Exception):
    """The statement uses a name whose declaration failed: its error is already reported."""


class _Form:
    """An ISA table row prepared for matching source operands against it quickly."""

    def __init__(self, spec: isa.InsnSpec):
        self.spec = spec
        self.required = sum(not op.optional for op in spec.operands)
        # per operand: the shapes written in the source (_shape) that can fill it
        self.fits = tuple(frozenset(shape for shape, kinds in _FITS.items() if op.kind in kinds)
                          for op in spec.operands)
        self.accepted = frozenset(tuple(t.code for t in combo) for combo in spec.types)
        self.keyword_at = tuple(k for k, op in enumerate(spec.operands) if op.kind in KEYWORDS)

    def first_misfit(self, shapes: list[str]) -> int:
        """Index of the first operand of a kind this form cannot take; len(shapes) when all fit;
        -1 for the wrong operand count."""
        if not self.required <= len(shapes) <= len(self.fits):
            return -1
        return next((k for k, shape in enumerate(shapes) if shape not in self.fits[k]), len(shapes))


_FORMS: dict[str, list[_Form]] = {}       # filled by _forms


def _forms(mnemonic: str) -> list[_Form] | None:
    """A mnemonic's rows prepared for matching, on its first use (a program uses few of the table's)."""
    if mnemonic not in BY_MNEMONIC:
        return None
    if mnemonic not in _FORMS:
        _FORMS[mnemonic] = [_Form(spec) for spec in BY_MNEMONIC[mnemonic]]
    return _FORMS[mnemonic]


def assemble(text: str, filename: str = "<input>", ub_usable: int = UB_USABLE_DEFAULT, source_dirs=()) -> Program:
    """Assemble source text, raising AssemblyFailed with every error found. The text of a file a `.loc`
    names is read when the file lies under the program's directory or one of `source_dirs`."""
    # The assembler makes millions of small objects and no reference cycles: the cyclic garbage
    # collector would only rescan the growing heap (a third of the time on large files).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _Assembler(text, filename, ub_usable, source_dirs).run()
    finally:
        if collecting:
            gc.enable()


def assemble_file(path: str | Path, ub_usable: int = UB_USABLE_DEFAULT, source_dirs=()) -> Program:
    """Assemble a source file (a regular file of at most MAX_SOURCE_BYTES), raising AssemblyFailed."""
    path = Path(path)
    try:
        raw = read_regular_file(path, MAX_SOURCE_BYTES)
    except InputFileError as exc:
        raise AssemblyFailed([AsmError(SourceLoc(str(path), 1, 1, 2, ""), str(exc))]) from None
    return assemble(raw.decode("utf-8", errors="replace"), str(path), ub_usable, source_dirs)


class _Assembler:
    def __init__(self, text: str, filename: str, ub_usable: int, source_dirs=()):
        self.text, self.filename, self.ub_usable = text, filename, ub_usable
        self.errors: list[AsmError] = []
        self.labels: dict[str, int] = {}
        self.equs: dict[str, int | float] = {}
        self.buffers: dict[str, Buffer] = {}
        self.name_locs: dict[str, SourceLoc] = {}
        self.broken_names: set[str] = set()       # declarations that failed: their uses are not errors
        self.data_files: list[Path] = []          # read by file("x.npy")
        self.text_lines: list[str] = []
        self.line_text = ""
        self.lineno = 0
        # hardware loops (docs/semantics.md "Hardware loops"): the vloops open at the statement being
        # assembled (row, location), per row the vloop row of the innermost loop it is in (-1: none),
        # the line of each vloop row, and the branches to check once every row is known
        self.open_loops: list[tuple[int, SourceLoc]] = []
        self.loop_of_row: list[int] = []
        self.loop_line: dict[int, int] = {}
        self.branches: list[tuple[int, int, SourceLoc]] = []
        # .loc: the position (file, line, column) the next instructions come from, and the text lines
        # of each file named (None: unreadable; its rows then show no text)
        self.origin: tuple[str, int, int] | None = None
        self.origin_files: dict[str, list[str] | None] = {}
        # .frame/.var/.arg (ascasm/debuginfo.py): the inline frames open (with their pushes' locations),
        # each row's frames, the variables whose range is still open, and those closed
        self.frame_stack: list[tuple[InlineFrame, SourceLoc]] = []
        self.row_frames: list[tuple[InlineFrame, ...]] = []
        self.open_vars: list[VarRange] = []
        self.closed_vars: list[VarRange] = []
        self.artificial: set[int] = set()        # the rows a .artificial directive marks
        # each file's text once, by its real path (one file named 200 ways is read once), at most
        # MAX_LOC_BYTES in all, and only from the directories .loc may read (docs/language.md ".loc")
        self.origin_texts: dict[str, list[str] | None] = {}
        self.origin_bytes = 0
        self.source_dirs = [os.path.realpath(d) for d in (Path(filename).parent, *source_dirs)]

    # ---- positions and errors ----
    def loc(self, node) -> SourceLoc:
        return SourceLoc(self.filename, self.lineno, node.column, node.end_column, self.line_text)

    def fail(self, node, message: str, notes=()):
        raise _Failed(AsmError(self.loc(node), message, list(notes)))

    def guarded(self, action, *args):
        """action(*args), or None after recording its error; stops at MAX_ERRORS errors."""
        try:
            return action(*args)
        except _Failed as failure:
            self.errors.append(failure.error)
        except ExprError as exc:
            self.errors.append(AsmError(self.loc(exc.node), str(exc)))
        except _Skipped:
            return None
        if len(self.errors) >= MAX_ERRORS:
            raise AssemblyFailed(self.errors, truncated=True)
        return None

    def at_line(self, line):
        self.lineno, self.line_text = line.number, self.text_lines[line.number - 1]

    # ---- the two passes ----
    def run(self) -> Program:
        parsed = parse_source(self.text, self.filename)
        self.errors, self.text_lines, self.broken_names = parsed.errors, parsed.text_lines, parsed.broken_names
        if len(self.errors) >= MAX_ERRORS:
            raise AssemblyFailed(self.errors, truncated=True)
        statements = []
        pc = 0
        for line in parsed.lines:                            # pass 1
            self.at_line(line)
            if line.label is not None:
                self.guarded(self.define_name, line.label, "label", pc)
            statement = line.statement
            if statement is None:
                continue
            statements.append(line)
            if type(statement) is Instruction:
                pc += 1
            elif type(statement) is BufferDecl:
                if self.guarded(self.declare_buffer, statement) is None:
                    self.broken_names.add(statement.name.value)
            elif type(statement) is Equ:
                if self.guarded(self.declare_equ, statement) is None:
                    self.broken_names.add(statement.name.value)
        self.guarded_overlaps()
        parsed.lines.clear()
        insns, outs, expects = [], [], []
        for k, line in enumerate(statements):                # pass 2
            statements[k] = None                             # done with its tokens: free them as we go
            self.at_line(line)
            statement = line.statement
            if type(statement) is Instruction:
                insns.append(self.guarded(self.instruction, statement))
                self.guarded(self.nest_loops, statement, len(insns) - 1)
                self.row_frames.append(tuple(frame for frame, _loc in self.frame_stack))
            elif type(statement) is BufferDecl:
                self.guarded(self.initialise_buffer, statement)
            elif type(statement) is Out:
                outs += [b for b in (self.guarded(self.buffer_named, t) for t in statement.names) if b]
            elif type(statement) is Expect:
                expects.append(self.guarded(self.expectation, statement))
            elif type(statement) is Loc:
                self.guarded(self.set_origin, statement)
            elif type(statement) is FrameDirective:
                self.guarded(self.frame_directive, statement, len(insns))
            elif type(statement) is VarDirective:
                self.guarded(self.var_directive, statement, len(insns))
            elif type(statement) is Artificial:
                self.artificial.add(len(insns))
        self.check_loops_closed_and_branches(len(insns))
        debug = self.debug_info(len(insns))
        if self.errors:
            raise AssemblyFailed(self.errors)
        origin_files = {name: lines for name, lines in self.origin_files.items() if lines is not None}
        return Program(self.filename, self.text, insns, _bytecode(insns), self.buffers, self.labels, outs,
                       [e for e in expects if e is not None], tuple(self.data_files) + tuple(map(Path, origin_files)),
                       origin_files, debug=debug)

    # ---- names ----
    def define_name(self, token: Token, what: str, value):
        name = token.value
        if _is_register_name(name):
            self.fail(token, f"'{name}' is a register name and cannot be a {what}")
        if "." in name:
            self.fail(token, f"a {what} name cannot contain '.': '{name}'")
        if name in self.name_locs:
            first = self.name_locs[name]
            self.fail(token, f"'{name}' is already defined", [f"first defined at {first}"])
        self.name_locs[name] = self.loc(token)
        if what == "label":
            self.labels[name] = value
        elif what == "constant":
            self.equs[name] = value

    def value_of_name(self, token: Token):
        name = token.value
        if name in self.equs:
            return self.equs[name]
        if name in self.buffers:
            return self.buffers[name].addr
        if name.lower() in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[name.lower()]
        if name.lower() in _PIPE_NAMES:
            return _PIPE_NAMES[name.lower()]
        if name in self.labels:
            self.fail(token, f"'{name}' is a label; only branches take labels")
        if _is_register_name(name):
            self.fail(token, f"register '{name}' cannot be used in a constant expression")
        if name in self.broken_names:
            raise _Skipped()
        self.fail(token, f"unknown name '{shown(name)}'", _did_you_mean(name, [*self.equs, *self.buffers]))

    def constant(self, node, integer=True, resolve=None):
        value = evaluate(node, resolve or self.value_of_name)
        if integer:
            if isinstance(value, float):
                if not value.is_integer():
                    self.fail(node, f"expected an integer, got {value!r}")
                value = int(value)
            if not INT64_MIN <= value < UINT64_LIMIT:
                self.fail(node, f"value {value} does not fit in 64 bits")
        return value

    # ---- directives ----
    def declare_equ(self, statement: Equ):
        self.define_name(statement.name, "constant", self.constant(statement.value, integer=False))
        return statement

    def declare_buffer(self, statement: BufferDecl) -> Buffer:
        name, count_node, at_node = statement.name, statement.count, statement.at
        space = statement.keyword.value[1:].lower()
        etype = self.element_type(statement.type_name)
        count = self.constant(count_node)
        if count <= 0:
            self.fail(count_node, f"a buffer needs at least one element, got {count}")
        if at_node is not None:
            addr = self.constant(at_node)
            if addr % 32:
                self.fail(at_node, f"buffer address {addr:#x} is not 32-byte aligned")
        else:                                   # after the previous buffer of its space (in source order)
            previous = [b for b in self.buffers.values() if b.space == space]
            addr = 0 if not previous else -(-(previous[-1].addr + previous[-1].nbytes) // 32) * 32
        buf = Buffer(name.value, etype, count, addr, self.loc(name), space=space)
        limit, what = (GM_MAX, "global memory's cap") if space == "gm" else (self.ub_usable, "usable UB")
        if addr < 0 or addr + buf.nbytes > limit:
            self.fail(name, f"buffer '{name.value}' ({addr:#x}..{addr + buf.nbytes:#x}) does not fit in the "
                            f"{what} of {limit} bytes")
        self.define_name(name, "buffer", buf)
        self.buffers[name.value] = buf
        return buf

    def guarded_overlaps(self):
        placed = sorted(self.buffers.values(), key=lambda b: (b.space, b.addr))
        for before, after in zip(placed, placed[1:]):
            if before.space != after.space:
                continue
            if before.addr + before.nbytes > after.addr:
                self.errors.append(AsmError(after.loc, f"buffer '{after.name}' overlaps buffer '{before.name}'",
                                            [f"'{before.name}' occupies {before.addr:#x}..{before.addr + before.nbytes:#x}"
                                             f", '{after.name}' starts at {after.addr:#x}"]))

    def element_type(self, token) -> ElemType:
        etype = isa.lookup(token.value)
        if etype is None:
            spellings = [s for t in isa.TYPES for s in (t.name, *t.aliases)]
            self.fail(token, f"unknown type '{shown(token.value)}'", _did_you_mean(token.value.lower(), spellings))
        return etype

    def buffer_named(self, token) -> Buffer:
        name = token.value
        if name not in self.buffers:
            if name in self.broken_names:
                raise _Skipped()
            self.fail(token, f"unknown buffer '{shown(name)}'", _did_you_mean(name, list(self.buffers)))
        return self.buffers[name]

    def initialise_buffer(self, statement: BufferDecl):
        buf = self.buffers.get(statement.name.value)
        if buf is None or buf.loc.line != self.lineno or statement.init is None:
            return
        init = statement.init
        if type(init) is Token and init.type == "NAME" and init.value == UNDEF:
            if buf.space != "ub":
                self.fail(init, "INIT undef is for .ub buffers: global memory's bytes are not tracked")
            buf.undef = True
        else:
            buf.data = self.init_values(init, buf)

    def expectation(self, statement: Expect) -> Expectation:
        buf = self.buffer_named(statement.name)
        loc = SourceLoc(self.filename, self.lineno, statement.keyword.column, statement.init.end_column,
                        self.line_text)
        return Expectation(buf, self.init_values(statement.init, buf), loc)

    def init_values(self, init, buf: Buffer) -> np.ndarray:
        """A buffer's contents from INIT: scalar, list, expression of i, or file("x.npy")."""
        if type(init) is ListInit:
            if len(init.items) > buf.count:
                self.fail(init, f"{len(init.items)} values for '{buf.name}', which holds {buf.count}")
            values = [self.constant(item, integer=False) for item in init.items]
            values = np.array(values + [0] * (buf.count - len(values)), dtype=object)
        elif init.type == "call":
            values = self.file_values(init, buf)
        else:
            index = index_array(buf.count)

            def resolve(token):
                return index if token.value == "i" else self.value_of_name(token)
            values = np.broadcast_to(np.asarray(evaluate(init, resolve)), (buf.count,))
        return self.to_elements(values, buf.etype, init)

    def file_values(self, call, buf: Buffer) -> np.ndarray:
        if call.function.value != "file":
            self.fail(call.function, f"unknown function '{shown(call.function.value)}'",
                      ["INIT takes file(\"data.npy\")"])
        path = Path(self.filename).parent / call.argument.value[1:-1]
        self.data_files.append(path)
        try:
            data = load_npy(path, buf.count, raw_as=buf.etype.np_dtype)
        except InputFileError as exc:
            self.fail(call.argument, str(exc))
        if data.dtype == buf.etype.np_dtype:
            return np.concatenate([data, np.zeros(buf.count - data.size, data.dtype)])
        padded = np.zeros(buf.count, dtype=object)
        padded[:data.size] = [v.item() if isinstance(v, np.generic) else v for v in data.tolist()]
        return padded

    def to_elements(self, values: np.ndarray, etype: ElemType, node) -> np.ndarray:
        """Convert INIT values to the buffer's type. Floats round to nearest even and must not overflow
        (inf and nan may be written as such); integers must fit in the type, signed or unsigned."""
        if values.dtype == etype.np_dtype:
            return values.copy()
        if etype.kind == "float":
            return self.float_elements(values, etype, node)
        numbers = values.tolist()
        if not all(type(v) is int for v in numbers):
            numbers = [self.integer_element(v, etype, node) for v in numbers]
        bits = 8 * etype.width
        low, high = -(1 << (bits - 1)), 1 << bits
        if min(numbers) < low or max(numbers) >= high:
            self.fail(node, f"value {next(v for v in numbers if not low <= v < high)!r} does not fit in {etype.name}")
        wrapped = np.array(numbers, dtype=object) % (1 << bits)
        return wrapped.astype(np.uint64).astype(etype.bits).view(etype.np_dtype)

    def integer_element(self, value, etype: ElemType, node) -> int:
        if isinstance(value, float):
            if not value.is_integer():
                self.fail(node, f"{etype.name} buffer needs integer values, got {value!r}")
            return int(value)
        if not isinstance(value, int):
            self.fail(node, f"value {value!r} does not fit in {etype.name}")
        return value

    def float_elements(self, values: np.ndarray, etype: ElemType, node) -> np.ndarray:
        """Numbers rounded once to float type T (docs/semantics.md "Floating point"); a finite number
        beyond T's range is an error."""
        if values.dtype == np.float64:
            wide, finite = values, np.isfinite(values)
        else:
            numbers = values.tolist()
            if not all(isinstance(v, (int, float)) for v in numbers):
                self.fail(node, f"{etype.name} buffer needs numbers")
            wide = np.array([floats.exact_float64(v) for v in numbers], dtype=np.float64)
            finite = np.array([isinstance(v, int) or math.isfinite(v) for v in numbers], dtype=bool)
        if etype.name in floats.CANONICAL_NAN_BITS:
            converted = floats.round_to_type(wide, etype)
        else:           # e8m0, a scale type never computed on: ml_dtypes' own rounding
            with np.errstate(all="ignore"):
                converted = wide.astype(etype.np_dtype)
        lost = np.flatnonzero(finite & ~np.isfinite(converted.astype(np.float64)))
        if lost.size:              # (integers are at most MAX_INT_BITS wide: finite as doubles)
            largest = float(isa.dtypes.finfo(etype).max)
            self.fail(node, f"value {float(wide[lost[0]])!r} does not fit in {etype.name}",
                      [f"the largest finite {etype.name} is {largest!r}; write inf or nan explicitly"])
        return converted

    # ---- source positions of another file (.loc) ----
    def set_origin(self, statement: Loc):
        name = statement.file.value[1:-1]
        if not name:
            self.fail(statement.file, ".loc needs a file name")
        line = self.position_number(statement.line, "line")
        column = 1 if statement.column is None else self.position_number(statement.column, "column")
        path = os.path.normpath(Path(self.filename).parent / name)
        if path not in self.origin_files:
            self.origin_files[path] = self.origin_text(path)
        self.origin = (path, line, column)

    def origin_text(self, path: str) -> list[str] | None:
        """The lines of a .loc file, or None (the rows still run; they show the position without its
        text): unreadable, outside the readable directories, or past MAX_LOC_BYTES."""
        try:
            real = os.path.realpath(path)
        except (OSError, ValueError):
            return None
        if real not in self.origin_texts:
            allowed = any(os.path.commonpath([real, d]) == d for d in self.source_dirs)
            limit = min(MAX_SOURCE_BYTES, MAX_LOC_BYTES - self.origin_bytes)
            lines = None
            if allowed and limit > 0:
                try:
                    raw = read_regular_file(Path(real), limit)
                    self.origin_bytes += len(raw)
                    text = raw.decode("utf-8", errors="replace")
                    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
                except InputFileError:
                    pass
            self.origin_texts[real] = lines
        return self.origin_texts[real]

    def position_number(self, token: Token, what: str, directive: str = ".loc") -> int:
        number = whole_number(token.value)
        if number is None or not 1 <= number <= MAX_POSITION:
            self.fail(token, f"{directive} {what} must be a whole number from 1 to {MAX_POSITION:,}, "
                             f"not {shown(token.value)}")
        return number

    def origin_loc(self) -> SourceLoc:
        """The position .loc gave, with its source line's text when the file could be read."""
        path, line, column = self.origin
        lines = self.origin_files[path]
        text = lines[line - 1] if lines is not None and line <= len(lines) else ""
        return SourceLoc(path, line, column, column + 1, text)

    # ---- debug information (.frame, .var, .arg: ascasm/debuginfo.py) ----
    def frame_directive(self, statement: FrameDirective, row: int):
        action = statement.action.value
        parts = (statement.function, statement.file, statement.line, statement.column)
        if action == "pop":
            if statement.function is not None:
                self.fail(statement.function, ".frame pop takes nothing after it")
            if not self.frame_stack:
                self.fail(statement.action, ".frame pop without a .frame push")
            self.close_vars(row, lambda var: var.depth == len(self.frame_stack))
            self.frame_stack.pop()
        elif action == "push":
            if statement.function is None:
                self.fail(statement.action, '.frame push needs "NAME" "FILE" LINE COL')
            name, file = (token.value[1:-1] for token in parts[:2])
            if not name:
                self.fail(statement.function, ".frame push needs a function name")
            line = self.position_number(statement.line, "line", ".frame push")
            column = self.position_number(statement.column, "column", ".frame push")
            file = os.path.normpath(Path(self.filename).parent / file)     # as .loc's: the debugger compares them
            self.frame_stack.append((InlineFrame(name, file, line, column), self.loc(statement.keyword)))
        else:
            self.fail(statement.action, f"unknown .frame action '{shown(action)}'", ["write .frame push or .frame pop"])

    def var_directive(self, statement: VarDirective, row: int):
        name, location, depth = statement.name.value, statement.location, len(self.frame_stack)
        if type(location) is Token and location.type == "SIGN":
            if location.value != "-" or statement.ctype is not None or statement.buffer is not None:
                self.fail(location, f"write {statement.keyword.value} {name} - (it lives nowhere from here on)")
            live = [var for var in self.open_vars if var.name == name]
            if not live:
                self.fail(statement.name, f"no variable '{shown(name)}' lives here to end")
            self.close_vars(row, lambda var: var is max(live, key=lambda v: v.depth))
            return
        if statement.ctype is None or not statement.ctype.value[1:-1].strip():
            self.fail(statement.name, f'{statement.keyword.value} {name} needs its C++ type: "CTYPE"')
        if type(location) is Constant:
            value = self.constant(location.value, integer=False)
            where = f"={value!r}"
        else:
            parts = _register_parts(location.value)
            if parts is None or parts[2] is not None:
                self.fail(location, f"a variable lives in a register (v3, p0, a1, s7, u0, q0) or is a constant "
                                    f"(=VALUE), not '{shown(location.value)}'")
            where = f"{parts[0]}{self.register_number(location)}"
        buffer = statement.buffer.value if statement.buffer is not None else None
        if buffer is not None and buffer not in self.buffers:
            self.fail(statement.buffer, f"unknown buffer '{shown(buffer)}'", _did_you_mean(buffer, list(self.buffers)))
        self.close_vars(row, lambda var: var.name == name and var.depth == depth)
        self.open_vars.append(VarRange(name, statement.ctype.value[1:-1].strip(), where, row, row, depth, buffer,
                                       statement.keyword.value == ".arg"))

    def close_vars(self, row: int, which):
        """End the ranges of the open variables `which` picks at `row` (an empty range is dropped)."""
        for var in [var for var in self.open_vars if which(var)]:
            self.open_vars.remove(var)
            if row > var.start:
                self.closed_vars.append(replace(var, end=row))

    def debug_info(self, rows: int) -> DebugInfo:
        for _frame, loc in self.frame_stack:
            self.errors.append(AsmError(loc, ".frame push without its .frame pop"))
        self.close_vars(rows, lambda var: True)
        return DebugInfo(self.row_frames, sorted(self.closed_vars, key=lambda var: (var.start, var.depth)),
                         frozenset(row for row in self.artificial if row < rows))

    # ---- instructions ----
    def instruction(self, statement: Instruction) -> Insn:
        mnemonic_token, operand_nodes = statement.mnemonic, statement.operands
        mnemonic = mnemonic_token.value.lower()
        forms = _forms(mnemonic)
        if not forms:
            self.fail(mnemonic_token, f"unknown mnemonic '{shown(mnemonic_token.value)}'",
                      _did_you_mean(mnemonic, list(BY_MNEMONIC)))
        shapes = [_shape(node) for node in operand_nodes]
        form = self.choose_form(mnemonic_token, forms, operand_nodes, shapes)
        spec = form.spec
        operand_nodes = self.place_keywords(form, operand_nodes)
        slot_types: list[tuple] = [None] * spec.type_slots
        operands = [self.operand(op, node, slot_types) for op, node in zip(spec.operands, operand_nodes)]
        operands += [None] * (len(spec.operands) - len(operands))      # optional operands left out
        types = tuple([t for t, _node in slot_types])
        if form.accepted and tuple([t.code for t in types]) not in form.accepted:
            first_typed = next(node for t, node in slot_types)
            self.fail(first_typed, f"'{spec.mnemonic}' does not accept {'/'.join(t.name for t in types)}",
                      [f"accepted{isa.types_source_text(spec)}: {isa.accepted_types_text(spec)}",
                       f"syntax: {spec.text}"])
        if form.keyword_at:
            self.check_keywords(spec, types, operands, operand_nodes)
        self.check_loop_operands(spec, operands, operand_nodes, mnemonic_token)
        if spec.family == "mask_from_vector" and not operands[2].is_reg:     # a register's is checked when it runs
            self.check_block(operands[2].value, operand_nodes[2], types[0])
        last = statement.operands[-1] if statement.operands else mnemonic_token
        loc = SourceLoc(self.filename, self.lineno, mnemonic_token.column, last.end_column, self.line_text)
        if self.origin is not None:
            return Insn(spec, types, tuple(operands), self.origin_loc(), asm=loc)
        return Insn(spec, types, tuple(operands), loc)

    # ---- hardware loops (docs/semantics.md "Hardware loops") ----
    def nest_loops(self, statement: Instruction, row: int):
        """Pair vloop with endloop like brackets, by the mnemonic alone (so that a vloop whose operand is
        wrong still pairs, and its endloop is not reported too), and note the loop each row is in: a
        vloop row is outside its own loop, an endloop row inside."""
        word = statement.mnemonic.value.lower()
        self.loop_of_row.append(self.open_loops[-1][0] if self.open_loops else -1)
        if word == "vloop":
            self.open_loops.append((row, self.loc(statement.mnemonic)))
            self.loop_line[row] = self.lineno
            if len(self.open_loops) > NUM_LOOPS:
                outer = ", ".join(str(loc.line) for _row, loc in self.open_loops[:-1])
                self.fail(statement.mnemonic, f"hardware loops nest at most {NUM_LOOPS} deep",
                          [f"the enclosing loops start at lines {outer}", "the pages' HardwareLoop allows 4 levels"])
        elif word == "endloop":
            if not self.open_loops:
                self.fail(statement.mnemonic, "endloop without a vloop", ["each endloop closes the latest open vloop"])
            self.open_loops.pop()

    def check_loop_operands(self, spec, operands, nodes, mnemonic_token):
        """A vloop count written as a number must be one the hardware counts (0..65535); vag needs as many
        enclosing loops as it gives strides, since stride k binds the k-th loop counted from the innermost."""
        if spec.family == "loop" and not operands[0].is_reg and not 0 <= operands[0].value <= MAX_LOOP_COUNT:
            self.fail(nodes[0], f"loop count {operands[0].value} out of range 0..{MAX_LOOP_COUNT}",
                      ["the loop index is a uint16 (docs/semantics.md \"Hardware loops\")"])
        if spec.family != "iter_loops":
            return
        depth = min(len(self.open_loops), NUM_LOOPS)
        if depth == 0:
            self.fail(mnemonic_token, "vag outside a hardware loop: its offset is built from the enclosing "
                                      "loops' indices", ["write it inside vloop ... endloop (asc_update_addr_reg: "
                                                         "assigned inside the loop body)"])
        given = sum(value is not None for value in operands[1:])
        if given > depth:
            self.fail(nodes[1 + depth], f"vag gives {given} strides but only {depth} hardware "
                                        f"loop{'s' if depth > 1 else ''} enclose{'s' if depth == 1 else ''} it",
                      ["stride k multiplies the index of the k-th enclosing loop, counted from the innermost"])

    def check_loops_closed_and_branches(self, n_rows: int):
        """After the last row: every vloop has its endloop, and no branch enters or leaves a loop (the
        hardware's loops run a fixed count with no branches in or out)."""
        for _row, loc in self.open_loops:
            self.errors.append(AsmError(loc, "vloop without an endloop", ["each vloop ends at an endloop"]))
        region = self.loop_of_row + [-1]                  # a branch past the last row lands outside every loop

        def where(loop_row):
            return "outside every loop" if loop_row < 0 else f"in the loop of line {self.loop_line[loop_row]}"
        for row, target, loc in self.branches:
            if row < len(region) and target < len(region) and region[row] != region[target]:
                self.errors.append(AsmError(loc, f"a branch may not enter or leave a hardware loop: it is "
                                                 f"{where(region[row])}, its target {where(region[target])}",
                                            ["a loop runs its count with no branch in or out; "
                                             "branch within one loop body, or around the whole loop"]))

    def check_block(self, block: int, node, etype):
        """movvp's block: one of the 256 / (32 / W) blocks of MASK_BYTES / W bytes a vector register holds."""
        blocks = 8 * etype.width
        if not 0 <= block < blocks:
            self.fail(node, f"block {block} out of range 0..{blocks - 1}",
                      [f"a vector register holds {blocks} blocks of {32 // etype.width} bytes for {etype.name} "
                       "(asc_copy: part)"])

    def place_keywords(self, form: _Form, nodes) -> list:
        """Trailing keyword operands (`sat`, `even`...) may be written in any order and each may be
        left out: every keyword goes to the operand of its kind (None where none is written)."""
        spec, keyword_at = form.spec, form.keyword_at
        if not keyword_at or len(nodes) <= keyword_at[0]:
            return nodes
        first = keyword_at[0]
        placed = list(nodes[:first]) + [None] * (len(spec.operands) - first)
        every = [word for k in keyword_at for word in KEYWORDS[spec.operands[k].kind]]
        for node in nodes[first:]:
            word = node.value.lower() if node.type == "NAME" else None
            k = next((k for k in keyword_at if word in KEYWORDS[spec.operands[k].kind]), None)
            if k is None:
                self.fail(node, f"unknown option '{shown(node.value)}' of '{spec.mnemonic}'",
                          _did_you_mean(str(word), every) or [f"options: {', '.join(every)}"])
            if placed[k] is not None:
                self.fail(node, f"'{spec.mnemonic}' takes one {spec.operands[k].kind.value}")
            placed[k] = node
        return placed

    def check_keywords(self, spec, types, operands, nodes):
        """A keyword the row accepts in general but not for these types (sat on a page without
        `_sat` forms, a layout part of a same-width conversion)."""
        for op, value, node in zip(spec.operands, operands, nodes):
            if op.kind in KEYWORDS and value is not None and value not in keyword_choices(spec, op.kind, types):
                allowed = keyword_choices(spec, op.kind, types)
                self.fail(node, f"'{spec.mnemonic}' {'/'.join(t.name for t in types)} does not take '{value}'",
                          [f"accepted here: {', '.join(allowed)}" if allowed else
                           f"this conversion has no {op.kind.value}", f"source: {CONVERSIONS[tuple(t.name for t in types)].page}"])

    def choose_form(self, mnemonic_token, forms, nodes, shapes) -> _Form:
        """The first form whose operand count and kinds fit; otherwise an error about the form that
        fits best: the first operand of the wrong kind, or the operand count."""
        for form in forms:
            if form.first_misfit(shapes) == len(shapes):
                return form
        misfits = [(form.first_misfit(shapes), form) for form in forms]
        syntax_notes = [f"syntax: {form.spec.text}" for form in forms]
        misfit, form = max(misfits, key=lambda pair: pair[0])
        if misfit < 0:
            counts = sorted({len(form.spec.operands) for form in forms})
            self.fail(mnemonic_token, f"'{mnemonic_token.value}' takes {' or '.join(map(str, counts))} "
                                      f"operand{'' if counts == [1] else 's'}, got {len(shapes)}", syntax_notes)
        op, shape, node = form.spec.operands[misfit], shapes[misfit], nodes[misfit]
        self.fail(node, f"operand {op.text} of '{form.spec.mnemonic}' must be {_kind_words(op.kind)}, not "
                        f"{_SHAPE_WORDS[shape]}",
                  self.operand_hint(op, node) + _scalar_form_hint(form.spec, misfit, shape) + syntax_notes)

    def operand_hint(self, op, node) -> list[str]:
        """'did you mean v0.u16?' for a misspelt register, '[input]' for an address without brackets."""
        if op.kind in (Kind.ADDR, Kind.BASE) and node.type == "NAME":
            return [f"an address is written in brackets: [{shown(node.value)}]"]
        if op.kind not in _REGISTER_KINDS or node.type != "NAME":
            return []
        name, _, suffix = node.value.partition(".")
        letter = {Kind.VREG: "v", Kind.PREG: "p", Kind.AREG: "a", Kind.SREG: "s", Kind.UREG: "u", Kind.QREG: "q"}[op.kind]
        names = [f"{letter}{n}" for n in range(REGISTER_FILES[letter][1])]
        import difflib                  # (only a mistake needs it)
        close = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
        return [f"did you mean '{close[0]}{'.' + suffix if suffix else ''}'?"] if close else []

    def operand(self, op, node, slot_types):
        if node is None:                      # an optional operand left out
            return None
        kind = op.kind
        if kind in _REGISTER_KINDS:
            return self.register(op, node, slot_types)
        if kind is Kind.SVAL:
            if _shape(node) == "sreg":
                return SVal(True, self.register(op, node, slot_types))
            return SVal(False, _to_int64(self.constant(node)))
        if kind is Kind.TVAL:
            return self.typed_value(op, node, slot_types)
        if kind is Kind.ADDR:
            return self.address(node)
        if kind is Kind.BASE:
            return self.post_update_base(node)
        name = self.bare_name(op, node)
        if kind is Kind.LABEL:
            if name not in self.labels:
                self.fail(node, f"undefined label '{shown(name)}'", _did_you_mean(name, list(self.labels)))
            self.branches.append((len(self.loop_of_row), self.labels[name], self.loc(node)))
            return self.labels[name]
        if kind in KEYWORDS:
            return name.lower()                  # known (place_keywords); checked against the types later
        choices = PATTERNS if kind is Kind.PAT else BARRIER_KINDS
        if name.upper() not in choices:
            self.fail(node, f"unknown {kind.value} '{shown(name)}'",
                      _did_you_mean(name.upper(), list(choices)) or [f"one of: {', '.join(choices)}"])
        return name.upper()

    def typed_value(self, op, node, slot_types) -> SVal:
        """An X.T operand: a scalar register, or an immediate converted now to T's bit pattern
        (docs/semantics.md "Scalar registers holding floats"). A register without a suffix holds an
        integer converted at run time; with T's suffix (`s3.f32`) it holds T's bits, read as they are."""
        if _shape(node) == "sreg":
            if "." in node.value:
                return SVal(True, self.register(op, node, slot_types), raw=True)
            etype = (slot_types[op.type_slot] or (None,))[0]
            if etype is not None and etype.name == "e8m0":      # no integer converts to it at run time
                self.fail(node, "an e8m0 operand in a scalar register is held as its bits",
                          [f"write {node.value}.e8m0"])
            return SVal(True, self.register_number(node))
        earlier = slot_types[op.type_slot]
        if earlier is None:
            self.fail(node, f"the type of {op.text} is not known yet")
        etype = earlier[0]
        value = self.constant(node, integer=False)
        if etype.kind == "float":
            narrow = self.to_elements(np.array([value], dtype=object), etype, node)
            return SVal(False, int(narrow.view(etype.bits)[0]))
        if isinstance(value, float):
            if not value.is_integer():
                self.fail(node, f"{etype.name} operand needs an integer, got {value!r}")
            value = int(value)
        bits = 8 * etype.width
        if not -(1 << (bits - 1)) <= value < (1 << bits):
            self.fail(node, f"value {value} does not fit in {etype.name}")
        return SVal(False, _to_int64(value % (1 << bits)))

    def bare_name(self, op, node) -> str:
        if node.type != "NAME":
            self.fail(node, f"operand {op.text} must be {_kind_words(op.kind)}")
        return node.value

    def register(self, op, token, slot_types) -> int:
        letter, _index, suffix = _register_parts(token.value)
        index = self.register_number(token)
        if op.type_slot is None:
            if suffix is not None:
                self.fail(token, f"{op.name} takes no type suffix here", [f"write {letter}{index}"])
            return index
        if suffix is None:
            self.fail(token, f"{letter}{index} needs a type suffix here: {op.text}")
        etype = isa.lookup(suffix)
        if etype is None:
            suffix_column = token.end_column - len(suffix)
            suffix_token = Token("NAME", suffix, token.line, suffix_column)
            self.element_type(suffix_token)
        earlier = slot_types[op.type_slot]
        if earlier is not None and earlier[0] != etype:
            self.fail(token, f"type {etype.name} does not match {earlier[0].name} given earlier for .{op.type_text}")
        slot_types[op.type_slot] = (etype, token)
        return index

    def address(self, node) -> Addr:
        """Flatten `[base + off + ...]` into constant + scalar registers + address registers."""
        const, sregs, aregs = 0, [], []
        for sign, term in _sum_terms(node.expr, 1):
            shape = _shape(term)
            if shape in ("sreg", "areg"):
                if sign < 0:
                    self.fail(term, f"register '{term.value}' can only be added to an address, not subtracted")
                if "." in term.value:
                    self.fail(term, f"a register in an address takes no type suffix: '{term.value}'")
                number = self.register_number(term)
                (sregs if shape == "sreg" else aregs).append(number)
            elif shape != "value":
                self.fail(term, f"{_SHAPE_WORDS[shape]} cannot be part of an address")
            else:
                const += sign * self.constant(term)
        if len(sregs) > 2 or len(aregs) > 1:
            self.fail(node, "an address takes at most two scalar registers and one address register")
        return Addr(_to_int64(const), tuple(sregs), tuple(aregs))

    def post_update_base(self, node) -> int:
        """[sN] of a post-update form: one scalar register and nothing else, since the instruction writes
        the advanced address back into it."""
        addr = self.address(node)
        if addr.const != 0 or len(addr.sregs) != 1 or addr.aregs:
            self.fail(node, "a post-update address is one scalar register in brackets, e.g. [s1]: "
                            "the instruction advances that register after the access")
        return addr.sregs[0]

    def register_number(self, token) -> int:
        letter, index, _suffix = _register_parts(token.value)
        kind, count = REGISTER_FILES[letter]
        if index >= count:
            self.fail(token, f"there is no register {letter}{index}: {kind.value}s are {letter}0-{letter}{count - 1}")
        return index


_REGISTER_KINDS = (Kind.VREG, Kind.PREG, Kind.AREG, Kind.SREG, Kind.UREG, Kind.QREG)
_OPCODES = {id(spec): isa.opcode(spec) for spec in isa.INSNS}


def _bytecode(insns: list[Insn]) -> np.ndarray:
    """The bytecode rows (docs/bytecode.md): [opcode, type slot 0, type slot 1, operand slots...],
    written straight into the array: a list of rows first would take twice the array's memory."""
    values = itertools.chain.from_iterable(map(_row, insns))
    return np.fromiter(values, np.int64, len(insns) * ROW_WIDTH).reshape(len(insns), ROW_WIDTH)


def _row(insn: Insn) -> list[int]:
    row = [_OPCODES[id(insn.spec)], *[t.code for t in insn.types]]
    row += [0] * (isa.ROW_HEADER - len(row)) + operand_slots(insn.spec, insn.operands)
    return row + [0] * (ROW_WIDTH - len(row))


def _shape(node) -> str:
    """What an operand is written as: a register of some file, an address [...], or a value."""
    if node.type == "NAME":
        parts = _register_parts(node.value)
        if parts is not None:
            return _FILE_SHAPES[parts[0]]
    elif node.type == "address":
        return "addr"
    return "value"


_FILE_SHAPES = {letter: kind.name.lower() for letter, (kind, _count) in REGISTER_FILES.items()}


@lru_cache(maxsize=4096)
def _register_parts(name: str):
    """('v', 3, 'f16') for "v3.f16", ('s', 1, None) for "S1"; None for a name that is not a register
    (a register number is written without leading zeros)."""
    m = _REGISTER.match(name)
    if not m or str(int(m.group(2))) != m.group(2):
        return None
    return m.group(1).lower(), int(m.group(2)), m.group(3)


def _sum_terms(root, sign):
    """(sign, term) pairs of a +/- chain, parentheses included, left to right; other operators make a
    single constant term."""
    terms, stack = [], [(root, sign)]
    while stack:
        node, node_sign = stack.pop()
        if node.type == "group":
            stack.append((node.inner, node_sign))
        elif node.type == "binary" and node.op in ("+", "-"):
            stack.append((node.right, node_sign if node.op == "+" else -node_sign))
            stack.append((node.left, node_sign))
        else:
            terms.append((node_sign, node))
    return terms


def _is_register_name(name: str) -> bool:
    return _register_parts(name) is not None


def _to_int64(value: int) -> int:
    """Constants from 2^63 to 2^64-1 are read as unsigned and stored in two's complement."""
    return value - (1 << 64) if value >= (1 << 63) else value


def closest(word: str, choices, n: int = 3, cutoff: float = 0.6) -> list[str]:
    """Up to n choices close to word, case ignored ('LOOP' finds 'loop'), a transposition of its letters
    first ('vsat' -> 'vsta' before 'vstu')."""
    by_lower = {}
    for choice in choices:
        by_lower.setdefault(choice.lower(), choice)
    import difflib                  # (only a mistake needs it)
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=n, cutoff=cutoff)
    close.sort(key=lambda c: sorted(c) != sorted(word.lower()))
    return [by_lower[c] for c in close]


def _did_you_mean(word: str, choices) -> list[str]:
    """A note naming up to three close choices."""
    close = closest(word, choices)
    return [f"did you mean {' or '.join(repr(c) for c in close)}?"] if close else []


def _kind_words(kind: Kind) -> str:
    article = "an" if kind.value[0] in "aeiou" else "a"
    return f"{article} {kind.value}"
