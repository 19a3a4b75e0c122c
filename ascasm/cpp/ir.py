"""The translator's intermediate form: what lowering (lower.py, forms.py) emits and the later passes
(register allocation, regalloc.py; the debug information, debugvars.py; the text of `translate -o`)
read. A program is a list of items: instructions with typed operands on virtual registers, label
definitions, and the debug directives of inlined calls and variables. Each item carries the C++
position it comes from; an instruction also the mark it was emitted with (a loop's start or end,
the translator's own instructions).

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


@dataclass(eq=False)
class Directive:
    """A debug directive: `.frame push "f" "file" L C`, `.frame pop`, `.var`, `.arg`."""
    text: str
    loc: tuple | None = None
    tag: object = None

    def regs(self):
        return iter(())

    def render(self, assignment=None) -> str:
        return self.text

    @property
    def frame_push(self) -> bool:
        return self.text.startswith(".frame push")

    @property
    def frame_pop(self) -> bool:
        return self.text.startswith(".frame pop")


_OPERAND_SPLIT = re.compile(r",\s(?![^\[]*\])")
_REG = re.compile(r"%([svpauq])(\d+)(?:\.(\w+))?$")
_MEM = re.compile(r"\[(%\w+)(?: \+ (%\w+))?\]$")
_NUMBER = re.compile(r"-?(\d|inf$|nan$)")


def view(vreg: VReg, etype: str = "") -> Reg:
    """A virtual register as an operand, read as `etype` (`%v3.f32`) or as it is."""
    return Reg(vreg, etype, vreg.file)


def instruction(mnemonic: str, operands, regs: list, loc=None, tag=None) -> Instr:
    """An instruction from lowering's operands: IR operands as they are, a VReg as itself, an int as an
    immediate, a branch's last operand as its label, other text as an operand's assembly spelling."""
    def typed(op, last):
        if isinstance(op, (Reg, Mem, Imm, Label, Word)):
            return op
        if isinstance(op, VReg):
            return view(op)
        if isinstance(op, int):
            return Imm(str(op))
        return Label(op) if last and mnemonic in BRANCHES else _operand(op, regs)
    return Instr(mnemonic, tuple(typed(op, i == len(operands) - 1) for i, op in enumerate(operands)), loc, tag)


def parse(text: str, regs: list, loc=None, tag=None):
    """An emitted line (virtual registers `%v3` numbered in `regs`) as an IR item."""
    if text.endswith(":") and " " not in text:
        return LabelDef(text[:-1], loc, tag)
    mnemonic, _, rest = text.partition(" ")
    texts = _OPERAND_SPLIT.split(rest) if rest else []
    branch = mnemonic in BRANCHES
    operands = tuple(Label(t) if branch and i == len(texts) - 1 else _operand(t, regs) for i, t in enumerate(texts))
    return Instr(mnemonic, operands, loc, tag)


def _operand(text: str, regs: list):
    m = _REG.match(text)
    if m:
        return Reg(regs[int(m.group(2))], m.group(3) or "", m.group(1))
    m = _MEM.match(text)
    if m:
        return Mem(_operand(m.group(1), regs), _operand(m.group(2), regs) if m.group(2) else None)
    if _NUMBER.match(text):
        return Imm(text)
    return Word(text)
