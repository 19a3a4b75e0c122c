"""The templates of the Reg API's forms (ascasm/isa/regapi.py), compiled once at import: a form's
arguments as typed Args (ROLE:KIND, KIND an operand kind of the ISA table) and each instruction it
becomes as a Template, both the text as written and the instruction's shape: its mnemonic, Cast's
round-mode suffix slot, one pattern per operand (an argument's register or value, an address, a
template option, a keyword) and Cast's trailing keywords slot. The C++ front end (ascasm/cpp/forms.py)
fills a template's patterns in with a call's values to build the instruction's IR."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from .operands import Kind

# a form's argument kinds as written in `args`: (the operand kind of the ISA table, the call writes it back)
ARG_KINDS = {"v": (Kind.VREG, False), "p": (Kind.PREG, False), "a": (Kind.AREG, False),
             "u": (Kind.UREG, False), "q": (Kind.QREG, False), "ub": (Kind.ADDR, False), "ub&": (Kind.BASE, True),
             "s": (Kind.TVAL, False), "n": (Kind.SVAL, False), "s&": (Kind.SREG, True)}
_LETTERS = {kind: letter for letter, kind in ARG_KINDS.items()}


@dataclass(frozen=True)
class Arg:
    """One argument of a form (or its returned register): its role and operand kind."""
    role: str
    kind: Kind
    written: bool = False          # a variable the call writes back (`ub&`, `s&`)

    @property
    def text(self) -> str:
        return f"{self.role}:{_LETTERS[(self.kind, self.written)]}"


def parse_arg(text: str) -> Arg:
    role, _, letter = text.partition(":")
    if letter not in ARG_KINDS:
        raise ValueError(f"bad argument kind in a Reg form: {text!r}")
    return Arg(role, *ARG_KINDS[letter])


@dataclass(frozen=True)
class OperandSlot:
    """`{ROLE}`, `{ROLE/TYPE}`, `{ROLE.b}`: an argument's operand, viewed as TYPE or sized by T."""
    arg: Arg
    view: str = ""                 # "b16": a vector register viewed as that type; "T": the call's type
    sized: bool = False            # `.b`: the register with T's width (p0.b32)


@dataclass(frozen=True)
class TypeSlot:
    """`{T}`: the call's element type."""


@dataclass(frozen=True)
class OptionSlot:
    """`{opt:NAME}`: a template option's value."""
    name: str


@dataclass(frozen=True)
class CastSlot:
    """`{cast}` (the round-mode suffix) or `{cast_options}` (sat, the layout part) of Cast's trait."""
    options: bool


@dataclass(frozen=True)
class AddressSlot:
    """`[{ROLE}]` or `[{ROLE} + {OFF}]`: an address operand, a pointer plus an address register."""
    base: OperandSlot
    offset: OperandSlot | None = None


@dataclass(frozen=True)
class Template:
    """One instruction of a form: its text, the text's literal pieces and slots in order, and the same
    as an instruction: the mnemonic (with Cast's round-mode suffix slot), one pattern per operand
    (OperandSlot, AddressSlot or OptionSlot) and Cast's trailing keywords slot."""
    text: str
    pieces: tuple                  # str | OperandSlot | TypeSlot | OptionSlot | CastSlot
    head: str = ""                 # the mnemonic as written, without the suffix slot (`vcvt`, `vld.us.pu`)
    suffix: CastSlot | None = None     # `{cast}` after the mnemonic
    operands: tuple = ()           # OperandSlot | AddressSlot | OptionSlot | a keyword (str) per operand
    keywords: CastSlot | None = None   # `{cast_options}` after the last operand

    @property
    def mnemonic(self) -> str:
        """The mnemonic as written (`vcvt` for `vcvt{cast}`)."""
        return self.head

    @property
    def post_update(self) -> bool:
        return ".pu" in self.text

    def first_vector(self) -> OperandSlot | None:
        return next((p for p in self.pieces if isinstance(p, OperandSlot) and p.arg.kind is Kind.VREG
                     and not p.sized), None)

    def without_post_update(self) -> Template | None:
        """A load's or store's post-update template as the plain access (the stride left out), or None
        when it has no such form."""
        before, stride = self.pieces[-2:]
        if not self.text.startswith(("vld", "vsta")) or not isinstance(before, str) or not before.endswith(", ") \
                or not isinstance(stride, OperandSlot) or stride.arg.kind is not Kind.SVAL:
            return None
        return compile_template(self.text.replace(".pu", "", 1).removesuffix(", {%s}" % stride.arg.role),
                                 {p.arg.role: p.arg for p in self.pieces if isinstance(p, OperandSlot)})


_SLOT = re.compile(r"\{([^}]*)\}")
_TYPED = re.compile(r"(\{[^}]*\})\.\{T\}")      # `{src}.{T}`: the register viewed as the call's type


def compile_template(text: str, args: dict) -> Template:
    pieces, at = [], 0
    for m in _SLOT.finditer(text):
        if m.start() > at:
            pieces.append(text[at:m.start()])
        pieces.append(_compile_slot(m.group(1), args, text))
        at = m.end()
    if at < len(text):
        pieces.append(text[at:])
    head, _, rest = text.partition(" ")
    suffix = CastSlot(False) if head.endswith("{cast}") else None
    keywords = CastSlot(True) if rest.endswith("{cast_options}") else None
    rest = rest.removesuffix("{cast_options}")
    operands = tuple(_compile_operand(part, args, text) for part in rest.split(", ")) if rest else ()
    return Template(text, tuple(pieces), head.removesuffix("{cast}"), suffix, operands, keywords)


def _compile_operand(part: str, args: dict, text: str):
    """One operand of a template: `{ROLE...}`, `{ROLE}.{T}`, `[{ROLE}]`, `[{ROLE} + {OFF}]`, `{opt:NAME}`, a
    keyword."""
    if part.startswith("[") and part.endswith("]"):
        base, _, offset = part[1:-1].partition(" + ")
        return AddressSlot(_compile_operand(base, args, text), _compile_operand(offset, args, text) if offset else None)
    typed = _TYPED.fullmatch(part)
    if typed:
        return replace(_compile_operand(typed.group(1), args, text), view="T")
    if part.isidentifier():
        return part                  # a keyword operand as it is (`odd`)
    m = _SLOT.fullmatch(part)
    slot = _compile_slot(m.group(1), args, text) if m else None
    if not isinstance(slot, (OperandSlot, OptionSlot)):
        raise ValueError(f"bad operand {part!r} in the Reg form template {text!r}")
    return slot


def _compile_slot(field_: str, args: dict, text: str):
    if field_ == "T":
        return TypeSlot()
    if field_.startswith("opt:"):
        return OptionSlot(field_[4:])
    if field_ in ("cast", "cast_options"):
        return CastSlot(field_ == "cast_options")
    role, _, size = field_.partition(".")
    role, _, view = role.partition("/")
    if role not in args or size not in ("", "b"):
        raise ValueError(f"bad slot {{{field_}}} in the Reg form template {text!r}")
    return OperandSlot(args[role], view, size == "b")
