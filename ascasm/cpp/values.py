"""Compile-time values of the C++ front end: constants (Const), enum members (EnumValue). Run-time
values (RV: a virtual register and its C type) are the IR's (ir.py)."""
from __future__ import annotations

from dataclasses import dataclass

from .cpptypes import CType


@dataclass(frozen=True)
class EnumValue:
    enum: str
    member: str
    value: int

    def __str__(self):
        return self.member


@dataclass
class Const:
    value: object          # int, float, bool, EnumValue, dict (a trait struct), CType (a type argument)
    ctype: CType | None
