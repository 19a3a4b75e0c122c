"""What the parser hands the assembler: tokens, expression nodes and one record per source line.

Every piece has a `type` (a terminal name such as "NAME" or "NUMBER", or a node kind such as
"binary") and the columns it spans on its line, for diagnostics. The classes use __slots__: a large
program holds one Line per statement until the second pass.
"""
from __future__ import annotations

from dataclasses import dataclass


class Token:
    """A terminal as the lexer cut it: NAME, NUMBER, STRING, LABEL, COMMA, ... (grammar/ascasm.lark).
    It spans len(value) columns (an end of line's value is "\n"); the end is computed rather than
    stored, since a large program keeps hundreds of thousands of tokens until the second pass."""
    __slots__ = ("type", "value", "line", "column")
    depth = 0                               # nesting depth of an expression that is a single token

    def __init__(self, type_: str, value: str, line: int, column: int):
        self.type, self.value, self.line, self.column = type_, value, line, column

    @property
    def end_column(self) -> int:
        return self.column + len(self.value)

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.value!r}, {self.line}:{self.column})"


class Node:
    """An expression or operand made of several tokens, from its first token to its last."""
    __slots__ = ("line", "column", "end_column")
    type = "node"

    def span(self, first, last):
        self.line, self.column, self.end_column = first.line, first.column, last.end_column


class Binary(Node):
    """`left op right`, the chain already ordered by precedence; `op` is the operator's text."""
    __slots__ = ("op", "left", "right", "depth")
    type = "binary"

    def __init__(self, op: str, left, right):
        self.op, self.left, self.right = op, left, right
        self.depth = max(left.depth, right.depth)
        self.span(left, right)


class Signed(Node):
    """`-x` or `+x`; `sign` is "-" or "+"."""
    __slots__ = ("sign", "operand", "depth")
    type = "signed"

    def __init__(self, sign: Token, operand):
        self.sign, self.operand, self.depth = sign.value, operand, operand.depth + 1
        self.span(sign, operand)


class Group(Node):
    """`(expr)`."""
    __slots__ = ("inner", "depth")
    type = "group"

    def __init__(self, open_: Token, inner, close: Token):
        self.inner, self.depth = inner, inner.depth + 1
        self.span(open_, close)


class Call(Node):
    """`NAME("string")`: file("data.npy") in an INIT."""
    __slots__ = ("function", "argument")
    type = "call"
    depth = 0

    def __init__(self, function: Token, argument: Token, close: Token):
        self.function, self.argument = function, argument
        self.span(function, close)


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
