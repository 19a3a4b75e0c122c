"""Source text -> one Line record per statement (syntax only), with syntax errors as AsmError.

The whole file is parsed in one pass of an LALR parser whose tables tools/gen_parser.py made from
grammar/ascasm.lark with Lark (ascasm/asm/parse_table.py): building them, and importing Lark, cost
more CPU than the rest of a short run, so neither happens at run time. The parser calls the builder's
method for each rule as it reduces it, so no parse tree is ever built: each makes a small record
(ascasm/asm/statements.py). The lexer is one regular expression made of the grammar's terminals; it
knows the one context rule of the language (`//` is floor division only on .ub/.equ/.expect lines),
and it can start at any line, which is how parsing resumes after a syntax error. Nothing is cached
on disk (a cache file in a shared directory is a way to run code as another user).

Before parsing, the text is checked: a UTF-8 byte-order mark is dropped, lines end at "\\n" (a "\\r"
before it is dropped too), and every other control character is an error (tab and form feed are
white space): a line break that only some tools see would let a comment hide code.
"""
from __future__ import annotations

import itertools
import re
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from ..isa import DIRECTIVES
from ..limits import MAX_ERRORS, MAX_LINE_CHARS, MAX_LINES, MAX_NESTING, MAX_SOURCE_BYTES, MAX_TOKENS, shown
from ..source import FORBIDDEN_CHARACTERS
from . import lalr
from .errors import AsmError, SourceLoc
from ..expr.tree import Call, Group, Token, Unary, ordered_chain
from .parse_table import END_STATE, IGNORED, RULES, STATES, TERMINALS
from .statements import (Address, Artificial, BufferDecl, Constant, Equ, Expect, FrameDirective, Instruction, Line, ListInit, Loc,
                     Out, VarDirective)

# What the parser expected, in words a learner knows.
_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": 'a "string"', "COMMA": "','", "LSQB": "'['",
    "RSQB": "']'", "LPAR": "'('", "RPAR": "')'", "EQUAL": "'='", "AT": "'@'", "NL": "end of line",
    "SIGN": "an operator", "BINOP": "an operator", "LABEL": "a label", "UB": "a directive", "EQU": "a directive",
    "OUT": "a directive", "EXPECT": "a directive", "LOC": "a directive", "FRAME": "a directive",
    "VAR": "a directive", "ARG": "a directive", "ARTIFICIAL": "a directive", "ARROW": "'->'", "$END": "end of line",
}
_DIRECTIVE_NAMES = [name for name, _syntax, _summary in DIRECTIVES]
_CHARACTER_NAMES = {0x00: "NUL", 0x0b: "vertical tab", 0x0d: "carriage return not followed by a line feed",
                    0x1b: "escape", 0x7f: "delete", 0x85: "next line", 0x2028: "line separator",
                    0x2029: "paragraph separator"}
# A .ub/.equ line (or a misspelt directive) whose syntax is broken still names what it declares:
# later uses of that name are not reported again as unknown.
_DECLARED_NAME = re.compile(r"^\s*(?:[A-Za-z_][\w.]*\s*:\s*)?\.(?!out\b|expect\b|frame\b|var\b|arg\b)[A-Za-z_]\w*\s+([A-Za-z_]\w*)")
# Terminals in order of frequency in real sources; the others follow.
_FREQUENCY_RANK = {name: rank for rank, name in enumerate(("NAME", "COMMA", "NL", "NUMBER", "LSQB", "RSQB", "SIGN"))}
# A directive line on which `//` is floor division rather than a comment.
_EXPRESSION_DIRECTIVES = {"UB", "EQU", "EXPECT"}

@dataclass
class Parsed:
    lines: list[Line]                 # lines holding a label or a statement, in source order
    errors: list[AsmError]
    text_lines: list[str]             # the source, split at "\n": the text of line N is text_lines[N - 1]
    broken_names: set[str]            # names of .ub/.equ lines that have a syntax error


class _Source:
    """What the lexer scans: `text` from offset `pos`, which is the start of line `line`. The lexer
    keeps `pos` at the token it handed out last, where a syntax error is found, and `budget`, the
    tokens the source may still have, at the end of the last line parsed; `interned` holds one string
    per name, shared by its tokens. After a syntax error, parsing resumes with `pos` and `line` moved
    to the next line."""
    __slots__ = ("text", "pos", "line", "budget", "interned")

    def __init__(self, text: str):
        self.text, self.pos, self.line, self.budget, self.interned = text, 0, 1, MAX_TOKENS, {}


class _LexError(Exception):
    """A syntax error; parsing resumes on the next line unless it is `fatal` (a source limit)."""

    def __init__(self, message: str, line: int, column: int, end_column: int, pos: int, notes=(), fatal=False):
        super().__init__(message)
        self.message, self.line, self.column, self.end_column, self.pos = message, line, column, end_column, pos
        self.notes, self.fatal = list(notes), fatal


class _Lexer:
    """One regular expression made of the grammar's terminals, by priority and then the common ones
    first (a regular expression tries its alternatives in order), with the white space before a
    token (terminal WS) skipped by the same match."""

    def __init__(self):
        by_name = {name: (pattern, priority) for name, pattern, priority in TERMINALS}
        white_space, _priority = by_name.pop("WS")
        names = sorted(by_name, key=lambda name: (-by_name[name][1], _FREQUENCY_RANK.get(name, 99), name))
        alternatives = "|".join(f"(?P<{name}>{by_name[name][0]})" for name in names)
        self.pattern = re.compile(f"(?:{white_space})?(?:{alternatives})")
        self.ignored = frozenset(IGNORED)
        self.special = self.ignored | {"NL", "BINOP", "NUMBER", "LABEL"} | _EXPRESSION_DIRECTIVES
        self.number_tail = re.compile(r"[\w.]+")

    def lex(self, source: _Source):
        """The tokens from source.pos on, then the end of input ($END)."""
        text, pos, line = source.text, source.pos, source.line
        line_start = pos
        match, special, ignored, interned = self.pattern.match, self.special, self.ignored, source.interned
        budget = source.budget          # tokens the source may still have (MAX_TOKENS)
        floor_division = False          # on this line, `//` is an operator (a .ub/.equ/.expect line)
        end = len(text)
        while pos < end:
            m = match(text, pos)
            if m is None:
                raise self._no_token(text, pos, line, line_start)
            kind = m.lastgroup
            start, stop = m.span(kind)
            source.pos = start
            value = m.group(kind)
            if kind in special:         # the common tokens (NAME, COMMA, ...) skip these tests
                if kind == "NL":
                    yield Token("NL", "\n", line, start - line_start + 1)
                    source.budget = budget      # (the tokens of a line with an error are not kept)
                    line += value.count("\n")
                    line_start = start + value.rindex("\n") + 1
                    pos, floor_division = stop, False
                    continue
                if kind in ignored:
                    pos = stop
                    continue
                if kind == "BINOP" and value == "//" and not floor_division:
                    pos = text.find("\n", start)    # a comment; the text always ends with "\n"
                    continue
                if kind == "NUMBER" and (text[stop].isalnum() or text[stop] in "_."):
                    tail = self.number_tail.match(text, stop).end()
                    raise _LexError(f"malformed number {shown(text[start:tail])!r}", line, start - line_start + 1,
                                    tail - line_start + 1, start)
                if kind == "LABEL":
                    value = value.rstrip(":\t \f")
                elif kind in _EXPRESSION_DIRECTIVES:
                    floor_division = True
            budget -= 1
            if budget < 0:
                column = start - line_start + 1
                raise _LexError(f"the source has more than {MAX_TOKENS:,} tokens; the limit is {MAX_TOKENS:,}",
                                line, column, column + len(value), start, fatal=True,
                                notes=["a token is a name, a number, an operator or a punctuation mark; "
                                       'long data belongs in a file: INIT takes file("data.npy")'])
            value = interned.setdefault(value, value)    # repeated names share one string
            yield Token(kind, value, line, start - line_start + 1)
            pos = stop
        yield Token("$END", "", line, pos - line_start + 1)

    def _no_token(self, text: str, pos: int, line: int, line_start: int) -> _LexError:
        while text[pos] in "\t \f":
            pos += 1
        column = pos - line_start + 1
        directive = re.match(r"\.[A-Za-z_]\w*", text[pos:pos + MAX_LINE_CHARS])
        if directive:
            word = directive.group()
            import difflib                  # (only a mistake needs it)
            close = difflib.get_close_matches(word, _DIRECTIVE_NAMES, n=1, cutoff=0.5)
            notes = [f"did you mean '{close[0]}'?"] if close else [f"directives: {', '.join(_DIRECTIVE_NAMES)}"]
            return _LexError(f"unknown directive {shown(word)!r}", line, column, column + len(word), pos, notes)
        notes = ["comments start with ';' ('//' also works, except on .ub, .equ and .expect lines)"] \
            if text[pos] == "#" else []
        return _LexError(f"unexpected character {text[pos]!r}", line, column, column + 1, pos, notes)


class _Builder:
    """One method per rule of the grammar, called with the rule's children as the parser reduces it."""

    def __init__(self):
        self.records: list[Line] = []

    def start(self, children):
        return None

    def lines(self, children):
        return None

    def line(self, children):
        label, statement = children
        if label is not None:
            self.records.append(Line(label.line, label, statement))
        elif statement is not None:
            self.records.append(Line(_first_token(statement).line, None, statement))

    def instruction(self, children):
        # [NAME, operand, COMMA, operand, ...], or NAME and placeholders (None) when it has no operand;
        # a tuple is one allocation, a list two
        return Instruction(children[0], tuple(children[1::2]) if children[1] is not None else ())

    def address(self, children):
        return Address(*children)

    def ub(self, children):
        keyword, name, type_name, _open, count, _close, _eq, init, _at, at = children
        return BufferDecl(keyword, name, type_name, count, init, at)

    def equ(self, children):
        return Equ(children[1], children[2])

    def out(self, children):
        return Out(children[1::2])

    def expect(self, children):
        return Expect(children[0], children[1], children[3])

    def loc(self, children):
        return Loc(*children)

    def frame(self, children):
        return FrameDirective(*children)

    def artificial(self, children):
        return Artificial(children[0])

    def var(self, children):
        keyword, name, ctype, location, _arrow, buffer = children
        if name.type == "STRING":           # a quoted C++ name (Unicode letters): the name without its quotes
            name = Token("NAME", name.value[1:-1], name.line, name.column + 1)
        return VarDirective(keyword, name, ctype, location, buffer)

    def constant(self, children):
        return Constant(*children)

    def list(self, children):
        return ListInit(children[0], [c for c in children[1:-1:2] if c is not None], children[-1])

    def binary(self, children):
        return _nesting_checked(ordered_chain(children))

    def signed(self, children):
        return _nesting_checked(Unary(*children))

    def group(self, children):
        return _nesting_checked(Group(*children))

    def call(self, children):
        function, _open, argument, close = children
        return Call(function, argument, close)


class _TooDeep(Exception):
    def __init__(self, node):
        self.node = node


def _nesting_checked(node):
    if node.depth > MAX_NESTING:
        raise _TooDeep(node)
    return node


def _first_token(statement) -> Token:
    if isinstance(statement, Instruction):
        return statement.mnemonic
    if isinstance(statement, Out):
        return statement.names[0]
    return statement.keyword if isinstance(statement, (Expect, Loc, FrameDirective, VarDirective, Artificial)) else statement.name


_lock = threading.Lock()        # one parser and one builder, shared by every parse


class _Parser:
    """The lexer and the LALR loop (ascasm/asm/lalr.py) over the generated tables; reducing a rule
    calls the builder's method for it."""

    def __init__(self, builder: _Builder):
        self.lexer = _Lexer()
        self.reductions = lalr.reductions(builder, RULES)

    def parse(self, source: _Source):
        lalr.parse(self.lexer.lex(source), STATES, self.reductions, END_STATE)


@lru_cache(maxsize=1)
def _parser() -> tuple[_Parser, _Builder]:
    builder = _Builder()
    return _Parser(builder), builder


def parse_source(text: str, filename: str) -> Parsed:
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    text_lines = text.split("\n")
    errors: list[AsmError] = []

    def error(line: int, column: int, end_column: int, message: str, notes=()):
        errors.append(AsmError(SourceLoc(filename, line, column, end_column, text_lines[line - 1]), message,
                               list(notes)))

    if len(text) > MAX_SOURCE_BYTES:
        error(1, 1, 2, f"the source is {len(text):,} characters long; the limit is {MAX_SOURCE_BYTES:,}")
        return Parsed([], errors, text_lines, set())
    line_count = len(text_lines) - (text_lines[-1] == "")       # a final "\n" ends a line, starts none
    if line_count > MAX_LINES:
        error(MAX_LINES + 1, 1, 2, f"the source has {line_count:,} lines; the limit is {MAX_LINES:,}")
        return Parsed([], errors, text_lines, set())
    text = _checked_text(text, text_lines, error)
    broken: set[str] = set()
    parser, builder = _parser()
    with _lock:
        builder.records = []
        source = _Source(text)
        while source.pos < len(text) and len(errors) < MAX_ERRORS:
            try:
                parser.parse(source)
                break
            except lalr.UnexpectedToken as exc:
                failed = _unexpected_token(exc.token, exc.expected, text_lines, source.pos)
            except _LexError as exc:
                failed = exc
            except _TooDeep as exc:
                node = exc.node
                failed = _LexError(f"expression nested deeper than {MAX_NESTING} levels", node.line, node.column,
                                   node.end_column, source.pos)
            error(failed.line, failed.column, failed.end_column, failed.message, failed.notes)
            if failed.fatal:            # a source limit: the lines parsed so far are not the program
                builder.records = []
                break
            declared = _DECLARED_NAME.match(text_lines[failed.line - 1])
            if declared:
                broken.add(declared.group(1))
            # resume on the next line (the text ends with "\n", so there is one)
            source.pos, source.line = text.find("\n", failed.pos) + 1, failed.line + 1
        lines, builder.records = builder.records, []
    return Parsed(lines, errors, text_lines, broken)


def _unexpected_token(token: Token, expected, text_lines: list[str], pos: int) -> _LexError:
    words = {_TERMINAL_WORDS.get(name, name) for name in expected}
    notes = ["expected " + ", ".join(sorted(words))] if words else []
    if token.type == "NL":
        end = len(text_lines[token.line - 1].rstrip()) + 1
        return _LexError("unexpected end of line", token.line, end, end + 1, pos, notes)
    line = text_lines[token.line - 1]
    if "COMMA" in expected and token.type in ("NAME", "NUMBER", "LSQB", "LPAR"):
        # `mov s0 1`, `vadd v1.f32 v0.f32, ...`: the operand before this one ended without its comma
        return _LexError(f"missing ',' before {shown(token.value)!r}", token.line, token.column, token.end_column,
                         pos, ["operands and list items are separated by commas"])
    if token.type == "COMMA" and re.match(r"\s*\.(ub|expect)\b", line) and "[" not in line.split("=", 1)[-1]:
        notes.append("a list of values is written in brackets: .ub a u8[4] = [1, 2, 3, 4]")
    return _LexError(f"unexpected {shown(token.value)!r}", token.line, token.column, token.end_column, pos, notes)


def _checked_text(text: str, text_lines: list[str], error) -> str:
    """The text to parse: control characters reported and blanked, over-long lines reported and
    emptied, and a final "\\n" so that every line ends with one."""
    if FORBIDDEN_CHARACTERS.search(text):
        line, line_start = 1, 0
        for m in itertools.islice(FORBIDDEN_CHARACTERS.finditer(text), MAX_ERRORS):
            line += text.count("\n", line_start, m.start())
            line_start = text.rfind("\n", 0, m.start()) + 1
            code = ord(m.group())
            column = m.start() - line_start + 1
            error(line, column, column + 1, f"character U+{code:04X} "
                  f"({_CHARACTER_NAMES.get(code, 'a control character')}) is not allowed",
                  ["lines end with \\n; tab and form feed are the only other white space"])
        text = FORBIDDEN_CHARACTERS.sub(" ", text)
    if len(text) > MAX_LINE_CHARS and any(len(t) > MAX_LINE_CHARS for t in text_lines):
        kept = []
        for number, line_text in enumerate(text_lines, start=1):
            if len(line_text) > MAX_LINE_CHARS:
                error(number, MAX_LINE_CHARS + 1, MAX_LINE_CHARS + 2,
                      f"the line is {len(line_text):,} characters long; the limit is {MAX_LINE_CHARS:,}",
                      ['long data belongs in a file: INIT takes file("data.npy")'])
                line_text = ""
            kept.append(line_text)
        text = "\n".join(kept)
    return text + "\n"
