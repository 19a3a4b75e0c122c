"""The translator's intermediate form: what lowering (lower.py, forms.py) emits and the later passes
(register allocation, regalloc.py; the debug information, debugvars.py; the text of `translate -o`)
read. A program is a list of items: instructions with typed operands on virtual registers, label
definitions, and the debug directives of inlined calls and variables (FramePush, FramePop, Var,
VarEnd, Artificial). Each item carries the C++ position it comes from; an instruction also the mark it
was emitted with (a loop's start or end, the translator's own instructions). The lowering checks each
instruction against the ISA table as it emits it (rowcheck.py).

Operands: Reg (a virtual register, possibly viewed as a type: `%v3.f32`, `%p0.b16`), Mem (`[%s1]`,
`[%s1 + %a2]`), Imm (a number as the assembler reads it), Label (a branch target), Word (a keyword
operand: a mask pattern, `sat`, `odd`, a barrier kind)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .cpptypes import CType

BRANCHES = ("b", "beq", "bne", "blt", "ble", "bgt", "bge")

# The tag of an instruction that only implements a C++ rule (a wrap to the type's width, a copy's
# all-true mask): the debug information marks it (`.artificial`), `stats --by-line` counts it apart
ARTIFICIAL = "artificial"


@dataclass(eq=False)
class VReg:
    """A virtual register: its file ("s", "v", "p", "a", "u", "q"), the C++ name it holds and where."""
    file: str
    number: int
    name: str
    loc: tuple | None
    decl_line: int = 0      # index of the line before which it was declared (for loop liveness)

    def __str__(self):
        return f"%{self.file}{self.number}"


@dataclass
class RV:
    """A run-time value: a virtual register and its C type."""
    reg: VReg
    ctype: CType


@dataclass(frozen=True)
class Reg:
    vreg: VReg
    view: str = ""              # the type it is read as ("f32", "b16"), or none
    file: str = ""              # the register file it is used as (an UnalignReg's serves either stream)

    def render(self, assignment=None) -> str:
        file = self.file or self.vreg.file
        name = f"%{file}{self.vreg.number}" if assignment is None else f"{file}{assignment[self.vreg.number]}"
        return f"{name}.{self.view}" if self.view else name


@dataclass(frozen=True)
class Mem:
    base: Reg
    offset: Reg | None = None

    def render(self, assignment=None) -> str:
        if self.offset is None:
            return f"[{self.base.render(assignment)}]"
        return f"[{self.base.render(assignment)} + {self.offset.render(assignment)}]"


@dataclass(frozen=True)
class Imm:
    text: str                   # as written: "3", "-1", "0.5", "inf"

    def render(self, assignment=None) -> str:
        return self.text


@dataclass(frozen=True)
class Label:
    name: str

    def render(self, assignment=None) -> str:
        return self.name


@dataclass(frozen=True)
class Word:
    text: str

    def render(self, assignment=None) -> str:
        return self.text


@dataclass(eq=False)
class Instr:
    mnemonic: str               # with its suffixes: "vld.us.pu", "vcvt.rint"
    operands: tuple
    loc: tuple | None
    tag: object = None          # a loop's start or end marker, or the translator's own mark

    def regs(self):
        """The virtual registers the instruction names, in order."""
        for op in self.operands:
            if isinstance(op, Reg):
                yield op.vreg
            elif isinstance(op, Mem):
                yield op.base.vreg
                if op.offset is not None:
                    yield op.offset.vreg

    @property
    def is_branch(self) -> bool:
        return self.mnemonic in BRANCHES

    def target(self) -> str | None:
        return self.operands[-1].name if self.is_branch else None

    def render(self, assignment=None) -> str:
        if not self.operands:
            return self.mnemonic
        return f"{self.mnemonic} " + ", ".join(op.render(assignment) for op in self.operands)


@dataclass(eq=False)
class LabelDef:
    name: str
    loc: tuple | None
    tag: object = None

    def regs(self):
        return iter(())

    def render(self, assignment=None) -> str:
        return f"{self.name}:"


class Directive:
    """A debug directive (ascasm/debuginfo.py): an inlined call's start or end, where a variable lives,
    the translator's own instruction. No instruction, no registers; rendered as its assembly line."""
    loc = None
    tag = None
    frame_push = frame_pop = False

    def regs(self):
        return iter(())


@dataclass(eq=False)
class FramePush(Directive):
    """`.frame push "FUNCTION" "FILE" LINE COL`: the next instructions are an inlined call of FUNCTION."""
    function: str
    file: str
    line: int
    col: int
    frame_push = True

    def render(self, assignment=None) -> str:
        return f'.frame push "{self.function}" "{self.file}" {self.line} {self.col}'


@dataclass(eq=False)
class FramePop(Directive):
    """`.frame pop`: the innermost inlined call has returned."""
    frame_pop = True

    def render(self, assignment=None) -> str:
        return ".frame pop"


@dataclass(eq=False)
class Var(Directive):
    """`.var NAME "CTYPE" LOCATION [-> BUFFER]` (`.arg`: a parameter): LOCATION a machine register (`s7`)
    or `=VALUE`."""
    name: str
    ctype: str
    location: str
    buffer: str | None = None
    arg: bool = False

    def render(self, assignment=None) -> str:
        keyword = ".arg" if self.arg else ".var"
        where = self.location + (f" -> {self.buffer}" if self.buffer else "")
        return f'{keyword} {directive_name(self.name)} "{self.ctype}" {where}'


@dataclass(eq=False)
class VarEnd(Directive):
    """`.var NAME -`: the variable lives nowhere from here on."""
    name: str

    def render(self, assignment=None) -> str:
        return f".var {directive_name(self.name)} -"


class Artificial(Directive):
    """`.artificial`: the next instruction is the translator's own."""

    def render(self, assignment=None) -> str:
        return ".artificial"


def directive_name(name: str) -> str:
    """A name as a .var directive writes it: quoted unless an ASCII identifier (C++ allows more)."""
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*", name) else f'"{name}"'


_REG = re.compile(r"%([svpauq])(\d+)(?:\.(\w+))?$")
_NUMBER = re.compile(r"-?(\d|inf$|nan$)")


def view(vreg: VReg, etype: str = "") -> Reg:
    """A virtual register as an operand, read as `etype` (`%v3.f32`) or as it is."""
    return Reg(vreg, etype, vreg.file)


def instruction(mnemonic: str, operands, regs: list, loc=None, tag=None) -> Instr:
    """An instruction from lowering's operands: IR operands as they are, a VReg as itself, an int as an
    immediate, a branch's last operand as its label, other text as a scalar operand's spelling (scalar)."""
    def typed(op, last):
        if isinstance(op, (Reg, Mem, Imm, Label, Word)):
            return op
        if isinstance(op, VReg):
            return view(op)
        if isinstance(op, int):
            return Imm(str(op))
        return Label(op) if last and mnemonic in BRANCHES else scalar(op, regs)
    return Instr(mnemonic, tuple(typed(op, i == len(operands) - 1) for i, op in enumerate(operands)), loc, tag)


def scalar(text: str, regs: list):
    """A scalar operand as the lowering's conversions spell it (`%s3`, `%s3.f32`, `5`, `-inf`): a
    register (numbered in `regs`) or an immediate."""
    m = _REG.match(text)
    if m:
        return Reg(regs[int(m.group(2))], m.group(3) or "", m.group(1))
    return literal(text)


def literal(text: str):
    """A template option's value as an operand: a number is an immediate, a word a keyword (`ALL`)."""
    return Imm(text) if _NUMBER.match(text) else Word(text)
