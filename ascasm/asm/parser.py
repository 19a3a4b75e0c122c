"""Source text -> one Lark tree per line (syntax only), with syntax errors as AsmError."""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import AsmError, SourceLoc

# Lines where `//` is the floor-division operator rather than a comment.
_EXPRESSION_DIRECTIVE = re.compile(r"^\s*(?:[A-Za-z_][\w.]*\s*:\s*)?\.(ub|equ|expect)\b")

# What the parser expected, in words a learner knows.
_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": 'a "string"', "COMMA": "','", "COLON": "':'",
    "LSQB": "'['", "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "EQUAL": "'='", "AT": "'@'",
    "$END": "end of line",
}


@dataclass
class ParsedLine:
    lineno: int
    text: str
    tree: Tree | None      # None for blank/comment-only lines and lines with a syntax error


# grammar/ascasm.lark of a source checkout, relative to this file (ascasm/asm/parser.py)
_CHECKOUT_GRAMMAR = Path(__file__).resolve().parents[2] / "grammar" / "ascasm.lark"


def grammar_text() -> str:
    """The grammar: package data `ascasm.grammar` when installed; grammar/ascasm.lark when ascasm is
    imported from a source checkout that was never installed in place (`python -m ascasm` from the
    repository root), where that package does not exist."""
    try:
        return resources.files("ascasm.grammar").joinpath("ascasm.lark").read_text(encoding="utf-8")
    except ModuleNotFoundError:
        return _CHECKOUT_GRAMMAR.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", propagate_positions=True, cache=True)


def strip_slash_comment(line: str) -> str:
    """Remove a `//` comment, except on .ub/.equ/.expect lines (floor division there; use `;`)."""
    if _EXPRESSION_DIRECTIVE.match(line):
        return line
    cut = line.find("//")
    quote = line.find('"')
    if cut >= 0 and not (0 <= quote < cut):
        return line[:cut]
    return line


def parse_source(text: str, filename: str) -> tuple[list[ParsedLine], list[AsmError]]:
    parser = _parser()
    lines, errors = [], []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        code = strip_slash_comment(raw)
        tree = None
        if code.strip() and not code.lstrip().startswith(";"):
            try:
                tree = parser.parse(code)
            except UnexpectedInput as exc:
                errors.append(_syntax_error(exc, filename, lineno, raw))
        lines.append(ParsedLine(lineno, raw, tree))
    return lines, errors


def _syntax_error(exc: UnexpectedInput, filename: str, lineno: int, raw: str) -> AsmError:
    col = getattr(exc, "column", None)
    if isinstance(exc, UnexpectedCharacters):
        char = raw[exc.column - 1] if 0 < exc.column <= len(raw) else "?"
        return AsmError(SourceLoc(filename, lineno, exc.column, exc.column + 1, raw),
                        f"unexpected character {char!r}")
    expected = _expected_words(exc)
    if isinstance(exc, UnexpectedEOF) or (isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        end = len(raw.rstrip()) + 1
        return AsmError(SourceLoc(filename, lineno, end, end + 1, raw), "unexpected end of line", expected)
    token: Token = exc.token
    col = token.column if isinstance(col, int) and col > 0 else 1
    return AsmError(SourceLoc(filename, lineno, col, col + max(1, len(str(token))), raw),
                    f"unexpected {str(token)!r}", expected)


def _expected_words(exc: UnexpectedInput) -> list[str]:
    """The tokens the parser would have accepted, operators folded into one word."""
    names = getattr(exc, "accepts", None) or getattr(exc, "expected", None) or ()
    words = {_TERMINAL_WORDS.get(name, "an operator" if _is_operator(name) else _terminal_text(name))
             for name in names}
    return ["expected " + ", ".join(sorted(words))] if words else []


def _terminal_text(name: str) -> str:
    try:
        return repr(_parser().get_terminal(name).pattern.value)
    except KeyError:
        return name


def _is_operator(name: str) -> bool:
    return _terminal_text(name).strip("'") in {"+", "-", "*", "/", "//", "%", "&", "|", "^", "<<", ">>"}
