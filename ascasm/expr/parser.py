"""An expression typed on its own (the debugger's `p`, conditions, watches) -> a tree of
ascasm/expr/tree.py, with a one-line ExprError for anything wrong.

The LALR tables are generated from grammar/expr.lark (ascasm/expr/parse_table.py), and the loop is
the assembler's (ascasm/asm/lalr.py), so neither Lark nor its grammar is loaded at run time. The
lexer is one regular expression made of the grammar's terminals, by priority; like the assembler's,
it refuses a number that runs into a letter or digit (`0x_`, `12ab`).
"""
from __future__ import annotations

import re
from functools import lru_cache

from ..asm import lalr
from ..limits import MAX_NESTING, shown
from .parse_table import END_STATE, IGNORED, RULES, STATES, TERMINALS
from .tree import Call, ExprError, Group, Index, Token, Unary, height, ordered_chain


class _Builder:
    """One method per rule of grammar/expr.lark, called with the rule's children as it is reduced."""

    def start(self, children):
        return children[0]

    def chain(self, children):
        return ordered_chain(children)

    def unary(self, children):
        return Unary(*children)

    def group(self, children):
        return Group(*children)

    def call(self, children):
        function, _open, argument, close = children
        return Call(function, argument, close)

    def index(self, children):
        target, _open, low, _colon, high, close = children
        return Index(target, low, high, close)


@lru_cache(maxsize=1)
def _tables():
    by_priority = sorted(TERMINALS, key=lambda terminal: (-terminal[2], terminal[0]))
    pattern = re.compile("|".join(f"(?P<{name}>{regex})" for name, regex, _priority in by_priority))
    return pattern, lalr.reductions(_Builder(), RULES)


_NUMBER_TAIL = re.compile(r"[\w.]+")


def _tokens(text: str, pattern):
    pos, end = 0, len(text)
    while pos < end:
        m = pattern.match(text, pos)
        if m is None:
            raise ExprError(f"unexpected character {text[pos]!r} in expression")
        kind, stop = m.lastgroup, m.end()
        if kind == "NUMBER" and stop < end and (text[stop].isalnum() or text[stop] in "_."):
            tail = _NUMBER_TAIL.match(text, stop).end()
            raise ExprError(f"malformed number {shown(text[pos:tail])!r}")
        if kind not in IGNORED:
            yield Token(kind, m.group(), 1, pos + 1)
        pos = stop
    yield Token("$END", "", 1, end + 1)


def parse(text: str):
    """The tree of an expression; raises ExprError. The tree is at most MAX_NESTING levels high, so
    the recursive walks over it (ascasm/expr/machine.py: reads, compile_scalar) stay far from
    Python's recursion limit."""
    if not text.strip():
        raise ExprError("empty expression")
    pattern, reductions = _tables()
    try:
        root = lalr.parse(_tokens(text, pattern), STATES, reductions, END_STATE)
    except lalr.UnexpectedToken as exc:
        token = exc.token
        if token.type == "$END":
            raise ExprError("the expression ends too early") from None
        after = " after a complete expression" if "$END" in exc.expected else ""
        raise ExprError(f"unexpected {shown(token.value)!r}{after}") from None
    if height(root) > MAX_NESTING:
        raise ExprError(f"expression deeper than {MAX_NESTING} levels of operators and parentheses")
    return root
