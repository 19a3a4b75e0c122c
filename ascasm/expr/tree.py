"""The tree of an expression, as both parsers build it: the assembler's (ascasm/asm/parser.py, for
constant expressions) and the debugger's (ascasm/expr/parser.py).

Every piece has a `type` (a terminal name such as "NAME" or "NUMBER", or a node kind such as
"binary") and the columns it spans on its line, for diagnostics; `parts` are the sub-expressions the
evaluator (ascasm/expr/evaluate.py) computes before the node itself. The classes use __slots__: a
large program holds its operands until the assembler's second pass.
"""
from __future__ import annotations

# Python's precedence, lowest first. `not` is a prefix operator that binds more loosely than a
# comparison (`not a == b` is `not (a == b)`); the others are binary. The assembler's constant
# expressions use the part from `|` on.
PRECEDENCE = {"or": 1, "and": 2, "not": 3, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "|": 5, "^": 6,
              "&": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "//": 10, "%": 10}
COMPARISONS = frozenset(("==", "!=", "<", "<=", ">", ">="))
SPELLINGS = {"&&": "and", "||": "or", "!": "not"}       # C's spellings of the logical operators


class ExprError(Exception):
    """A one-line message for the user; `node` is where, when the expression came from a source line."""

    def __init__(self, message: str, node=None):
        super().__init__(message)
        self.node = node


class Token:
    """A terminal as the lexer cut it: NAME, NUMBER, STRING, LABEL, COMMA, ... (grammar/*.lark).
    It spans len(value) columns (an end of line's value is "\n"); the end is computed rather than
    stored, since a large program keeps hundreds of thousands of tokens until the second pass."""
    __slots__ = ("type", "value", "line", "column")
    depth = 0                               # nesting depth of an expression that is a single token
    parts = ()

    def __init__(self, type_: str, value: str, line: int, column: int):
        self.type, self.value, self.line, self.column = type_, value, line, column

    @property
    def end_column(self) -> int:
        return self.column + len(self.value)

    def __repr__(self) -> str:
        return f"Token({self.type}, {self.value!r}, {self.line}:{self.column})"


class Node:
    """An expression or operand made of several tokens, from its first token to its last. `depth`
    counts the parentheses and unary operators inside one another (a chain of binary operators adds
    none), which the parsers bound (ascasm/limits.py MAX_NESTING)."""
    __slots__ = ("line", "column", "end_column")
    type = "node"
    depth = 0
    parts = ()

    def span(self, first, last):
        self.line, self.column, self.end_column = first.line, first.column, last.end_column


class Binary(Node):
    """`left op right`, the chain already ordered by precedence; `op` is the operator's text (`and`,
    `or` for `&&`, `||`)."""
    __slots__ = ("op", "left", "right", "depth")
    type = "binary"

    def __init__(self, op: str, left, right):
        self.op, self.left, self.right = op, left, right
        self.depth = max(left.depth, right.depth)
        self.span(left, right)

    @property
    def parts(self):
        return self.left, self.right


class Unary(Node):
    """`-x`, `+x`, `~x` or `not x`; `op` is "-", "+", "~" or "not"."""
    __slots__ = ("op", "operand", "depth")
    type = "unary"

    def __init__(self, op: Token, operand):
        self.op, self.operand, self.depth = SPELLINGS.get(op.value, op.value), operand, operand.depth + 1
        self.span(op, operand)

    @property
    def parts(self):
        return (self.operand,)


class Group(Node):
    """`(expr)`. The evaluator sees through it: its value is the inner expression's."""
    __slots__ = ("inner", "depth")
    type = "group"

    def __init__(self, open_: Token, inner, close: Token):
        self.inner, self.depth = inner, inner.depth + 1
        self.span(open_, close)

    @property
    def parts(self):
        return (self.inner,)


class Call(Node):
    """`NAME(expr)` (the debugger's any, sum, ...) or `NAME("string")` (file("data.npy") in an INIT)."""
    __slots__ = ("function", "argument", "depth")
    type = "call"

    def __init__(self, function: Token, argument, close: Token):
        self.function, self.argument, self.depth = function, argument, argument.depth + 1
        self.span(function, close)

    @property
    def parts(self):
        return (self.argument,)


class Index(Node):
    """`target[low]` or `target[low:high]` (high None for the first)."""
    __slots__ = ("target", "low", "high", "depth")
    type = "index"

    def __init__(self, target, low, high, close: Token):
        self.target, self.low, self.high = target, low, high
        self.depth = max(target.depth, low.depth, high.depth if high is not None else 0) + 1
        self.span(target, close)

    @property
    def parts(self):
        return self.target, self.low, self.high


def ordered_chain(items: list):
    """[term, op, term, op, term ...] -> one tree, by PRECEDENCE, left to right within a level
    (operator-precedence parsing with two stacks). A `not` token may stand before any term; it
    applies to everything up to the next operator of lower precedence than its own."""
    terms, ops = [], []                 # ops: (text, its token, whether prefix)

    def reduce():
        op, token, prefix = ops.pop()
        if prefix:
            terms.append(Unary(token, terms.pop()))
            return
        right, left = terms.pop(), terms.pop()
        if op in COMPARISONS and (_is_comparison(left) or _is_comparison(right)):
            raise ExprError("chained comparisons are not supported; combine them with 'and'", token)
        terms.append(Binary(op, left, right))

    expect_term = True
    for item in items:
        op = SPELLINGS.get(item.value, item.value) if item.type in ("NOT", "AND", "OR", "SIGN", "BINOP") else None
        if expect_term and op == "not":
            if ops and not ops[-1][2] and PRECEDENCE[ops[-1][0]] > PRECEDENCE["not"]:
                raise ExprError(f"unexpected {item.value!r}: write ({item.value} ...)", item)
            ops.append(("not", item, True))
        elif expect_term:
            terms.append(item)
            expect_term = False
        else:
            while ops and PRECEDENCE[ops[-1][0]] >= PRECEDENCE[op]:
                reduce()
            ops.append((op, item, False))
            expect_term = True
    while ops:
        reduce()
    return terms[0]


def _is_comparison(node) -> bool:
    return node.type == "binary" and node.op in COMPARISONS


def height(root) -> int:
    """Levels of nodes from the root to the deepest leaf (a single token is 1), without recursion."""
    deepest, stack = 0, [(root, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((part, level + 1) for part in node.parts if part is not None)
    return deepest
