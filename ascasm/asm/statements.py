"""What the parser hands the assembler: one record per source line, with its operands: tokens and
expression trees (ascasm/expr/tree.py), address operands and list INITs.

Every piece has a `type` (a terminal name such as "NAME" or "NUMBER", or a node kind such as
"address") and the columns it spans on its line, for diagnostics. The classes use __slots__: a large
program holds one Line per statement until the second pass.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..expr.tree import Node, Token


class Address(Node):
    """`[expr]`: an address operand."""
    __slots__ = ("expr",)
    type = "address"
    depth = 0

    def __init__(self, open_: Token, expr, close: Token):
        self.expr = expr
        self.span(open_, close)


class ListInit(Node):
    """`[a, b, c]`: a list INIT."""
    __slots__ = ("items",)
    type = "list"
    depth = 0

    def __init__(self, open_: Token, items: list, close: Token):
        self.items = items
        self.span(open_, close)


@dataclass(slots=True)
class Instruction:
    mnemonic: Token
    operands: tuple


@dataclass(slots=True)
class BufferDecl:
    """`.ub NAME TYPE[COUNT] [= INIT] [@ ADDR]`, or `.gm ...` (a buffer in global memory)"""
    keyword: Token
    name: Token
    type_name: Token
    count: object
    init: object
    at: object


@dataclass(slots=True)
class Equ:
    name: Token
    value: object


@dataclass(slots=True)
class Out:
    names: list


@dataclass(slots=True)
class Expect:
    keyword: Token
    name: Token
    init: object


@dataclass(slots=True)
class Loc:
    """`.loc "FILE" LINE [COL]`: the rows that follow come from FILE's LINE (a translated C++ kernel)."""
    keyword: Token
    file: Token
    line: Token
    column: Token | None


@dataclass(slots=True)
class FrameDirective:
    """`.frame push "NAME" "FILE" LINE COL` or `.frame pop` (ascasm/debuginfo.py)."""
    keyword: Token
    action: Token
    function: Token | None
    file: Token | None
    line: Token | None
    column: Token | None


@dataclass(slots=True)
class Artificial:
    """`.artificial`: the next row is the translator's own (ascasm/debuginfo.py)."""
    keyword: Token


@dataclass(slots=True)
class VarDirective:
    """`.var NAME "CTYPE" LOCATION [-> BUFFER]`, `.arg ...` (a parameter), `.var NAME -`."""
    keyword: Token
    name: Token
    ctype: Token | None
    location: object            # a NAME token (a register), the SIGN token `-`, or a Constant
    buffer: Token | None


@dataclass(slots=True)
class Constant:
    """`=VALUE` of a .var: a compile-time constant."""
    equal: Token
    value: object


@dataclass(slots=True)
class Line:
    """One source line that holds a label, a statement or both."""
    number: int
    label: Token | None
    statement: Instruction | BufferDecl | Equ | Out | Expect | Loc | FrameDirective | VarDirective | None
