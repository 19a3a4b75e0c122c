"""Operand kinds: how each is written in the table's syntax strings and how many bytecode slots it takes.

An instruction's operands are declared by its syntax string (e.g. ``vsct [base], vS.T, vI.U, pM``),
so the syntax shown to users and the operand list the assembler checks cannot disagree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    VREG = "vector register"
    PREG = "mask register"
    AREG = "address register"
    SREG = "scalar register"
    UREG = "unaligned store register"
    QREG = "unaligned load register"
    BASE = "post-update base [sN]"     # a scalar register holding the address, advanced after the access
    SVAL = "immediate or scalar register"
    TVAL = "typed immediate or scalar register"
    ADDR = "address [base + offset]"
    LABEL = "label"
    PAT = "mask pattern"
    BARRIER = "barrier kind"
    SAT = "saturation keyword"
    PART = "layout part keyword"

    @property
    def slots(self) -> int:
        """Bytecode slots the operand occupies (see docs/bytecode.md)."""
        # (identity tests: an Enum member's hash is a Python-level call, and the table sums these at import)
        return 4 if self is Kind.ADDR else 2 if self is Kind.SVAL or self is Kind.TVAL else 1


REGISTER_FILES = {"v": (Kind.VREG, 32), "p": (Kind.PREG, 8), "a": (Kind.AREG, 8), "s": (Kind.SREG, 32),
                  "u": (Kind.UREG, 4),     # u, q: the alignment buffers of unaligned store and load streams
                  "q": (Kind.QREG, 4)}

# Placeholders used in syntax strings for the non-register kinds.
_PLACEHOLDERS = {"X": Kind.SVAL, "LABEL": Kind.LABEL, "PAT": Kind.PAT, "KIND": Kind.BARRIER,
                 "SAT": Kind.SAT, "PART": Kind.PART,
                 "X0": Kind.SVAL, "X1": Kind.SVAL, "X2": Kind.SVAL, "X3": Kind.SVAL,   # vag's strides
                 "BLOCK": Kind.SVAL}                                                     # movvp's block


@dataclass(frozen=True)
class OperandSpec:
    name: str            # as written in the syntax string: "vD", "[addr]", "X"
    kind: Kind
    type_slot: int | None  # 0 for ".T"/".bW", 1 for ".U"; None when the operand carries no type
    writes: bool         # the instruction writes this register
    reads: bool
    optional: bool = False
    type_text: str = ""  # the suffix as written in the syntax string: "T", "U", "bW"

    @property
    def text(self) -> str:
        """The operand as shown in help and error notes."""
        return self.name + ("." + self.type_text if self.type_text else "")


_REG_RE = re.compile(r"^([vpasuq])([A-Z][A-Za-z0-9]*)(?:\.(T|U|bW))?$")


def parse_operand_syntax(token: str, rw: tuple = ()) -> OperandSpec:
    """Turn one operand of a table syntax string into an OperandSpec.

    Registers are a file letter plus a role: role D (D, D0, D1) is written, every other role is read;
    names listed in `rw` are both read and written. "[addr]"/"[base]" is an address, "[KIND]" an
    optional operand.
    """
    optional = token.startswith("[") and token[1:-1] in _PLACEHOLDERS
    if optional:
        token = token[1:-1]
    if token == "[sB]":
        return OperandSpec(token, Kind.BASE, None, writes=True, reads=True)
    if token.startswith("["):
        return OperandSpec(token, Kind.ADDR, None, writes=False, reads=True)
    if token in ("X.T", "X.U"):   # a value of the instruction's element type T (type slot 0) or U (slot 1)
        return OperandSpec("X", Kind.TVAL, 0 if token == "X.T" else 1, writes=False, reads=True, type_text=token[2:])
    if token in _PLACEHOLDERS:
        return OperandSpec(token, _PLACEHOLDERS[token], None, writes=False, reads=True, optional=optional)
    m = _REG_RE.match(token)
    if not m:
        raise ValueError(f"bad operand in table syntax: {token!r}")
    letter, role, type_suffix = m.groups()
    kind = REGISTER_FILES[letter][0]
    name = letter + role
    type_slot = {None: None, "T": 0, "bW": 0, "U": 1}[type_suffix]
    is_dest = role.startswith("D")
    return OperandSpec(name, kind, type_slot, writes=is_dest or name in rw,
                       reads=not is_dest or name in rw, type_text=type_suffix or "")
