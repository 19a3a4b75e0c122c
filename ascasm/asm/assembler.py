"""Two-pass assembler: pass 1 lays out labels, buffers and constants; pass 2 checks every instruction
against the ISA table and resolves its operands. The result is a Program with both the structured
instruction list (for the reference executor) and the bytecode rows (for the engine)."""
from __future__ import annotations

import difflib
import math
import re
from pathlib import Path

import ml_dtypes
import numpy as np
from lark import Token, Tree

from .. import floats, isa
from ..isa import BARRIER_KINDS, BY_MNEMONIC, PATTERNS, ROW_WIDTH, ElemType, Kind
from ..isa.operands import REGISTER_FILES
from ..program import Addr, Buffer, Expectation, Insn, Program, SVal, operand_slots
from ..state import UB_USABLE_DEFAULT
from .errors import AsmError, AssemblyFailed, SourceLoc
from .expr import ExprError, evaluate
from .parser import parse_source

_REGISTER = re.compile(r"^([vpasVPAS])(\d+)(?:\.(.*))?$")
_SPECIAL_FLOATS = {"inf": float("inf"), "nan": float("nan")}
INT64_MIN, UINT64_LIMIT = -(1 << 63), 1 << 64

# Which spec operand kinds an operand written in the source can fill.
_FITS = {
    "vreg": {Kind.VREG}, "preg": {Kind.PREG}, "areg": {Kind.AREG}, "sreg": {Kind.SREG, Kind.SVAL, Kind.TVAL},
    "addr": {Kind.ADDR}, "value": {Kind.SVAL, Kind.TVAL, Kind.IMM, Kind.LABEL, Kind.PAT, Kind.BARRIER},
}
_SHAPE_WORDS = {"vreg": "a vector register", "preg": "a mask register", "areg": "an address register",
                "sreg": "a scalar register", "addr": "an address", "value": "a value"}


class _Failed(Exception):
    """One error found; the statement is skipped and assembly goes on with the next."""

    def __init__(self, error: AsmError):
        self.error = error


def assemble(text: str, filename: str = "<input>", ub_usable: int = UB_USABLE_DEFAULT) -> Program:
    """Assemble source text, raising AssemblyFailed with every error found."""
    return _Assembler(text, filename, ub_usable).run()


def assemble_file(path: str | Path, ub_usable: int = UB_USABLE_DEFAULT) -> Program:
    path = Path(path)
    return assemble(path.read_text(encoding="utf-8", errors="replace"), str(path), ub_usable)


class _Assembler:
    def __init__(self, text: str, filename: str, ub_usable: int):
        self.text, self.filename, self.ub_usable = text, filename, ub_usable
        self.errors: list[AsmError] = []
        self.labels: dict[str, int] = {}
        self.equs: dict[str, int | float] = {}
        self.buffers: dict[str, Buffer] = {}
        self.name_locs: dict[str, SourceLoc] = {}
        self.line_text = ""
        self.lineno = 0

    # ---- positions and errors ----
    def loc(self, node) -> SourceLoc:
        if isinstance(node, Token):
            col, end = node.column or 1, node.end_column or (node.column or 1) + 1
        elif isinstance(node, Tree) and not node.meta.empty:
            col, end = node.meta.column, node.meta.end_column
        else:
            col, end = 1, len(self.line_text) + 1
        return SourceLoc(self.filename, self.lineno, col, end, self.line_text)

    def fail(self, node, message: str, notes=()):
        raise _Failed(AsmError(self.loc(node), message, list(notes)))

    def guarded(self, action, *args):
        try:
            return action(*args)
        except _Failed as failure:
            self.errors.append(failure.error)
        except ExprError as exc:
            self.errors.append(AsmError(self.loc(exc.node), str(exc)))
        return None

    def at_line(self, line):
        self.lineno, self.line_text = line.lineno, line.text

    # ---- the two passes ----
    def run(self) -> Program:
        lines, self.errors = parse_source(self.text, self.filename)
        statements = []
        pc = 0
        for line in lines:                                   # pass 1
            if line.tree is None:
                continue
            self.at_line(line)
            label, statement = line.tree.children
            if label is not None:
                self.guarded(self.define_name, label.children[0], "label", pc)
            if statement is None:
                continue
            statements.append((line, statement))
            if statement.data == "instruction":
                pc += 1
            elif statement.data == "ub":
                self.guarded(self.declare_buffer, statement)
            elif statement.data == "equ":
                self.guarded(self.declare_equ, statement)
        self.guarded_overlaps()
        insns, outs, expects = [], [], []
        for line, statement in statements:                   # pass 2
            self.at_line(line)
            if statement.data == "instruction":
                insns.append(self.guarded(self.instruction, statement))
            elif statement.data == "ub":
                self.guarded(self.initialise_buffer, statement)
            elif statement.data == "out":
                outs += [b for b in (self.guarded(self.buffer_named, t) for t in statement.children) if b]
            elif statement.data == "expect":
                expects.append(self.guarded(self.expectation, statement))
        if self.errors:
            raise AssemblyFailed(self.errors)
        code = np.zeros((len(insns), ROW_WIDTH), np.int64)
        for row, insn in enumerate(insns):
            encoded = [isa.opcode(insn.spec), *(t.code for t in insn.types)]
            encoded += [0] * (isa.ROW_HEADER - len(encoded)) + operand_slots(insn.spec, insn.operands)
            code[row, :len(encoded)] = encoded
        return Program(self.filename, self.text, insns, code, self.buffers, self.labels, outs,
                       [e for e in expects if e is not None])

    # ---- names ----
    def define_name(self, token: Token, what: str, value):
        name = str(token)
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
        name = str(token)
        if name in self.equs:
            return self.equs[name]
        if name in self.buffers:
            return self.buffers[name].addr
        if name.lower() in _SPECIAL_FLOATS:
            return _SPECIAL_FLOATS[name.lower()]
        if name in self.labels:
            self.fail(token, f"'{name}' is a label; only branches take labels")
        if _is_register_name(name):
            self.fail(token, f"register '{name}' cannot be used in a constant expression")
        self.fail(token, f"unknown name '{name}'", _did_you_mean(name, [*self.equs, *self.buffers]))

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
    def declare_equ(self, statement: Tree):
        name, value = statement.children
        self.define_name(name, "constant", self.constant(value, integer=False))

    def declare_buffer(self, statement: Tree):
        name, type_token, count_node, _init, at_node = statement.children
        etype = self.element_type(type_token)
        count = self.constant(count_node)
        if count <= 0:
            self.fail(count_node, f"a buffer needs at least one element, got {count}")
        if at_node is not None:
            addr = self.constant(at_node)
            if addr % 32:
                self.fail(at_node, f"buffer address {addr:#x} is not 32-byte aligned")
        else:                                   # after the previous buffer (in source order)
            previous = list(self.buffers.values())[-1] if self.buffers else None
            addr = 0 if previous is None else -(-(previous.addr + previous.nbytes) // 32) * 32
        buf = Buffer(str(name), etype, count, addr, self.loc(name))
        if addr < 0 or addr + buf.nbytes > self.ub_usable:
            self.fail(name, f"buffer '{name}' ({addr:#x}..{addr + buf.nbytes:#x}) does not fit in the "
                            f"usable UB of {self.ub_usable} bytes")
        self.define_name(name, "buffer", buf)
        self.buffers[str(name)] = buf

    def guarded_overlaps(self):
        placed = sorted(self.buffers.values(), key=lambda b: b.addr)
        for before, after in zip(placed, placed[1:]):
            if before.addr + before.nbytes > after.addr:
                self.errors.append(AsmError(after.loc, f"buffer '{after.name}' overlaps buffer '{before.name}'",
                                            [f"'{before.name}' occupies {before.addr:#x}..{before.addr + before.nbytes:#x}"
                                             f", '{after.name}' starts at {after.addr:#x}"]))

    def element_type(self, token) -> ElemType:
        etype = isa.lookup(str(token))
        if etype is None:
            spellings = [s for t in isa.TYPES for s in (t.name, *t.aliases)]
            self.fail(token, f"unknown type '{token}'", _did_you_mean(str(token).lower(), spellings))
        return etype

    def buffer_named(self, token) -> Buffer:
        if str(token) not in self.buffers:
            self.fail(token, f"unknown buffer '{token}'", _did_you_mean(str(token), list(self.buffers)))
        return self.buffers[str(token)]

    def initialise_buffer(self, statement: Tree):
        name, _type, _count, init, _at = statement.children
        buf = self.buffers.get(str(name))
        if buf is not None and init is not None:
            buf.data = self.init_values(init, buf)

    def expectation(self, statement: Tree) -> Expectation:
        name, init = statement.children
        buf = self.buffer_named(name)
        return Expectation(buf, self.init_values(init, buf), self.loc(statement))

    def init_values(self, init, buf: Buffer) -> np.ndarray:
        """A buffer's contents from INIT: scalar, list, expression of i, or file("x.npy")."""
        if isinstance(init, Tree) and init.data == "list":
            items = [c for c in init.children if c is not None]
            if len(items) > buf.count:
                self.fail(init, f"{len(items)} values for '{buf.name}', which holds {buf.count}")
            values = [self.constant(item, integer=False) for item in items]
            values = np.array(values + [0] * (buf.count - len(values)), dtype=object)
        elif isinstance(init, Tree) and init.data == "call":
            values = self.file_values(init, buf)
        else:
            index = np.arange(buf.count).astype(object)      # Python integers: exact, never wrapping

            def resolve(token):
                return index if str(token) == "i" else self.value_of_name(token)
            values = np.broadcast_to(np.asarray(evaluate(init, resolve)), (buf.count,))
        return self.to_elements(values, buf.etype, init)

    def file_values(self, call: Tree, buf: Buffer) -> np.ndarray:
        func, string = call.children
        if str(func) != "file":
            self.fail(func, f"unknown function '{func}'", ["INIT takes file(\"data.npy\")"])
        path = Path(self.filename).parent / str(string)[1:-1]
        try:
            data = np.load(path, allow_pickle=False).reshape(-1)
        except (OSError, ValueError) as exc:
            self.fail(string, f"cannot load {path}: {exc}")
        if data.dtype.kind not in "biuf":
            self.fail(string, f"{path} holds {data.dtype} values; a buffer takes integers or floats")
        if data.size > buf.count:
            self.fail(string, f"{path} holds {data.size} values, '{buf.name}' holds {buf.count}")
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
            return self.float_elements(values.tolist(), etype, node)
        bits = 8 * etype.width
        wrapped = np.empty(values.size, etype.bits)
        for k, v in enumerate(values.tolist()):
            if isinstance(v, float):
                if not v.is_integer():
                    self.fail(node, f"{etype.name} buffer needs integer values, got {v!r}")
                v = int(v)
            if not isinstance(v, int) or not -(1 << (bits - 1)) <= v < (1 << bits):
                self.fail(node, f"value {v!r} does not fit in {etype.name}")
            wrapped[k] = v % (1 << bits)
        return wrapped.view(etype.np_dtype)

    def float_elements(self, numbers: list, etype: ElemType, node) -> np.ndarray:
        """Numbers rounded once to float type T (docs/semantics.md "Floating point"); a finite number
        beyond T's range is an error."""
        if not all(isinstance(v, (int, float)) for v in numbers):
            self.fail(node, f"{etype.name} buffer needs numbers")
        wide = np.array([floats.exact_float64(v) for v in numbers], dtype=np.float64)
        if etype.name in floats.CANONICAL_NAN_BITS:
            converted = floats.round_to_type(wide, etype)
        else:           # e8m0, a scale type never computed on: ml_dtypes' own rounding
            with np.errstate(all="ignore"):
                converted = wide.astype(etype.np_dtype)
        finite = np.array([isinstance(v, int) or math.isfinite(v) for v in numbers], dtype=bool)
        lost = np.flatnonzero(finite & ~np.isfinite(converted.astype(np.float64)))
        if lost.size:
            v = numbers[lost[0]]
            shown = repr(float(wide[lost[0]])) if np.isfinite(wide[lost[0]]) else f"(an integer of {v.bit_length()} bits)"
            largest = float(ml_dtypes.finfo(etype.np_dtype).max)
            self.fail(node, f"value {shown} does not fit in {etype.name}",
                      [f"the largest finite {etype.name} is {largest!r}; write inf or nan explicitly"])
        return converted

    # ---- instructions ----
    def instruction(self, statement: Tree) -> Insn:
        mnemonic_token, *operand_nodes = statement.children
        operand_nodes = [n for n in operand_nodes if n is not None]
        mnemonic = str(mnemonic_token).lower()
        forms = BY_MNEMONIC.get(mnemonic)
        if not forms:
            self.fail(mnemonic_token, f"unknown mnemonic '{mnemonic_token}'", _did_you_mean(mnemonic, list(BY_MNEMONIC)))
        shapes = [self.shape(node) for node in operand_nodes]
        spec = self.choose_form(mnemonic_token, forms, operand_nodes, shapes)
        slot_types: list[tuple] = [None] * spec.type_slots
        operands = []
        for op, node in zip(spec.operands, operand_nodes + [None] * (len(spec.operands) - len(operand_nodes))):
            operands.append(self.operand(op, node, slot_types))
        types = tuple(t for t, _node in slot_types)
        if spec.types and types not in spec.types:
            first_typed = next(node for t, node in slot_types)
            self.fail(first_typed, f"'{spec.mnemonic}' does not accept {'/'.join(t.name for t in types)}",
                      [f"accepted: {isa.accepted_types_text(spec)}", f"syntax: {spec.text}"])
        return Insn(spec, types, tuple(operands), self.loc(statement))

    def shape(self, node) -> str:
        if node.data == "address":
            return "addr"
        if node.data == "name":
            m = _REGISTER.match(str(node.children[0]))
            if m and _is_register_name(str(node.children[0])):
                return REGISTER_FILES[m.group(1).lower()][0].name.lower()
        return "value"

    def choose_form(self, mnemonic_token, forms, nodes, shapes):
        def fits(spec):
            required = sum(not op.optional for op in spec.operands)
            return (required <= len(shapes) <= len(spec.operands)
                    and all(op.kind in _FITS[s] for op, s in zip(spec.operands, shapes)))
        for spec in forms:
            if fits(spec):
                return spec
        syntax_notes = [f"syntax: {spec.text}" for spec in forms]
        same_count = [s for s in forms if len(s.operands) == len(shapes)]
        if len(same_count) == 1:
            for op, shape, node in zip(same_count[0].operands, shapes, nodes):
                if op.kind not in _FITS[shape]:
                    self.fail(node, f"operand {op.text} of '{same_count[0].mnemonic}' must be "
                                    f"{_kind_words(op.kind)}, not {_SHAPE_WORDS[shape]}",
                              self.register_suggestion(op, node) + syntax_notes)
        self.fail(mnemonic_token, f"'{mnemonic_token}' takes {_operand_counts(forms)}, got {len(shapes)}",
                  syntax_notes)

    def register_suggestion(self, op, node) -> list[str]:
        """'did you mean v0.u16?' for a misspelt register where a register is expected."""
        if op.kind not in (Kind.VREG, Kind.PREG, Kind.AREG, Kind.SREG) or node.data != "name":
            return []
        name, _, suffix = str(node.children[0]).partition(".")
        letter = {Kind.VREG: "v", Kind.PREG: "p", Kind.AREG: "a", Kind.SREG: "s"}[op.kind]
        names = [f"{letter}{n}" for n in range(REGISTER_FILES[letter][1])]
        close = difflib.get_close_matches(name.lower(), names, n=1, cutoff=0.6)
        return [f"did you mean '{close[0]}{'.' + suffix if suffix else ''}'?"] if close else []

    def operand(self, op, node, slot_types):
        if node is None:                      # an optional operand left out
            return None
        if op.kind in (Kind.VREG, Kind.PREG, Kind.AREG, Kind.SREG):
            return self.register(op, node, slot_types)
        if op.kind is Kind.SVAL:
            if self.shape(node) == "sreg":
                return SVal(True, self.register(op, node, slot_types))
            return SVal(False, _to_int64(self.constant(node)))
        if op.kind is Kind.TVAL:
            return self.typed_value(op, node, slot_types)
        if op.kind is Kind.IMM:
            return _to_int64(self.constant(node))
        if op.kind is Kind.ADDR:
            return self.address(node)
        name = self.bare_name(op, node)
        if op.kind is Kind.LABEL:
            if name not in self.labels:
                self.fail(node, f"undefined label '{name}'", _did_you_mean(name, list(self.labels)))
            return self.labels[name]
        choices = PATTERNS if op.kind is Kind.PAT else BARRIER_KINDS
        if name.upper() not in choices:
            self.fail(node, f"unknown {op.kind.value} '{name}'",
                      _did_you_mean(name.upper(), list(choices)) or [f"one of: {', '.join(choices)}"])
        return name.upper()

    def typed_value(self, op, node, slot_types) -> SVal:
        """An X.T operand: a scalar register (converted at run time; a type suffix, if written, must be
        T), or an immediate converted now to T's bit pattern (docs/semantics.md "Vector compute")."""
        if self.shape(node) == "sreg":
            token = node.children[0]
            if "." in str(token):
                return SVal(True, self.register(op, node, slot_types))
            return SVal(True, self.register_number(token))
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
        if node.data != "name":
            self.fail(node, f"operand {op.text} must be {_kind_words(op.kind)}")
        return str(node.children[0])

    def register(self, op, node, slot_types) -> int:
        token = node.children[0]
        letter, number, suffix = _REGISTER.match(str(token)).groups()
        kind, count = REGISTER_FILES[letter.lower()]
        index = int(number)
        if index >= count:
            self.fail(token, f"there is no register {letter.lower()}{index}: {kind.value}s are "
                             f"{letter.lower()}0-{letter.lower()}{count - 1}")
        if op.type_slot is None:
            if suffix is not None:
                self.fail(token, f"{op.name} takes no type suffix here", [f"write {letter.lower()}{index}"])
            return index
        if suffix is None:
            self.fail(token, f"{letter.lower()}{index} needs a type suffix here: {op.text}")
        etype = self.element_type(Token("NAME", suffix, column=token.column + len(str(token)) - len(suffix),
                                        end_column=token.end_column))
        earlier = slot_types[op.type_slot]
        if earlier is not None and earlier[0] != etype:
            self.fail(token, f"type {etype.name} does not match {earlier[0].name} given earlier for .{op.type_text}")
        slot_types[op.type_slot] = (etype, token)
        return index

    def address(self, node: Tree) -> Addr:
        """Flatten `[base + off + ...]` into constant + scalar registers + address registers."""
        const, sregs, aregs = 0, [], []
        for sign, term in _sum_terms(node.children[0], 1):
            shape = self.shape(term)
            if shape in ("sreg", "areg"):
                token = term.children[0]
                if sign < 0:
                    self.fail(term, f"register '{token}' can only be added to an address, not subtracted")
                if "." in str(token):
                    self.fail(term, f"a register in an address takes no type suffix: '{token}'")
                number = self.register_number(token)
                (sregs if shape == "sreg" else aregs).append(number)
            elif shape != "value":
                self.fail(term, f"{_SHAPE_WORDS[shape]} cannot be part of an address")
            else:
                const += sign * self.constant(term)
        if len(sregs) > 2 or len(aregs) > 1:
            self.fail(node, "an address takes at most two scalar registers and one address register")
        return Addr(_to_int64(const), tuple(sregs), tuple(aregs))

    def register_number(self, token) -> int:
        letter, number, _ = _REGISTER.match(str(token)).groups()
        kind, count = REGISTER_FILES[letter.lower()]
        if int(number) >= count:
            self.fail(token, f"there is no register {letter.lower()}{number}: {kind.value}s are "
                             f"{letter.lower()}0-{letter.lower()}{count - 1}")
        return int(number)


def _sum_terms(root, sign):
    """(sign, term) pairs of a +/- chain, left to right; other operators make a single constant term."""
    terms, stack = [], [(root, sign)]
    while stack:
        node, node_sign = stack.pop()
        if isinstance(node, Tree) and node.data in ("add", "sub"):
            left, right = node.children
            stack.append((right, node_sign if node.data == "add" else -node_sign))
            stack.append((left, node_sign))
        else:
            terms.append((node_sign, node))
    return terms


def _is_register_name(name: str) -> bool:
    m = _REGISTER.match(name)
    return bool(m) and str(int(m.group(2))) == m.group(2)


def _to_int64(value: int) -> int:
    """Constants from 2^63 to 2^64-1 are read as unsigned and stored in two's complement."""
    return value - (1 << 64) if value >= (1 << 63) else value


def _did_you_mean(word: str, choices) -> list[str]:
    """A note naming up to three close choices; case is ignored when comparing ('LOOP' finds 'loop')."""
    by_lower = {}
    for choice in choices:
        by_lower.setdefault(choice.lower(), choice)
    close = difflib.get_close_matches(word.lower(), list(by_lower), n=3, cutoff=0.6)
    return [f"did you mean {' or '.join(repr(by_lower[c]) for c in close)}?"] if close else []


def _kind_words(kind: Kind) -> str:
    article = "an" if kind.value[0] in "aeiou" else "a"
    return f"{article} {kind.value}"


def _operand_counts(forms) -> str:
    counts = sorted({len(s.operands) for s in forms})
    return " or ".join(str(c) for c in counts) + " operand" + ("" if counts == [1] else "s")
