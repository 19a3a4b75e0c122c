"""A Pygments lexer for ascasm assembly (`pygmentize -l ascasm prog.s`), registered as the entry point
`pygments.lexers: ascasm`. Pygments is an optional dependency (`pip install "ascasm[highlight]"`);
nothing else in ascasm imports this module."""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

from . import syntax

_END = r"(?![\w.])"
# Tokens of every line; `//` is a comment except on .ub/.gm/.equ/.expect lines, where it is floor division.
_OPERANDS = [
    (syntax.COMMENT, Comment.Single),
    (rf"({syntax.REGISTER})(\.)((?i:{syntax.TYPES})){_END}", bygroups(Name.Builtin, Punctuation, Keyword.Type)),
    (rf"{syntax.REGISTER}{_END}", Name.Builtin),
    (rf"(?i:{syntax.TYPES})(?=\[)", Keyword.Type),                       # .ub NAME TYPE[COUNT]
    (rf"(?i:{syntax.CONSTANTS}){_END}", Name.Constant),
    (rf"(?:{syntax.NUMBER}){_END}", Number),
    (r"[A-Za-z_][A-Za-z0-9_]*", Name.Variable),
    (r'"[^"\n]*"', String),
    (r"<<|>>|[-+*/%&|^~@=]", Operator),
    (r"[\[\](),:.]", Punctuation),
]


class AscasmLexer(RegexLexer):
    name = "ascasm"
    aliases = ["ascasm"]
    filenames = ["*.s"]
    mimetypes = ["text/x-ascasm"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"(\.ub|\.gm|\.equ|\.expect)" + _END, Keyword.Declaration, "expression_line"),
            (rf"(?:{syntax.DIRECTIVE_WORDS}){_END}", Keyword.Declaration),
            (rf"({syntax.LABEL})(\s*)(:)", bygroups(Name.Label, Whitespace, Punctuation)),
            (rf"(?i:{syntax.MNEMONICS}){_END}", Keyword),
            (r"//.*$", Comment.Single),
            *_OPERANDS,
        ],
        "expression_line": [
            (r"\n", Whitespace, "#pop"),
            (r"[ \t]+", Whitespace),
            (r"//", Operator),
            (r"\(|\)", Punctuation),
            *_OPERANDS,
        ],
    }
