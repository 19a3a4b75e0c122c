"""A Pygments lexer for ascasm assembly (`pygmentize -l ascasm prog.s`), registered as the entry point
`pygments.lexers: ascasm`. Pygments is an optional dependency (`pip install "ascasm[highlight]"`);
nothing else in ascasm imports this module."""
from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups
from pygments.token import Comment, Keyword, Name, Number, Operator, Punctuation, String, Whitespace

from . import highlighting

_END = r"(?![\w.])"
# Tokens of every line; `//` is a comment except on .ub/.gm/.equ/.expect lines, where it is floor division.
_OPERANDS = [
    (highlighting.COMMENT, Comment.Single),
    (rf"({highlighting.REGISTER})(\.)((?i:{highlighting.TYPES})){_END}", bygroups(Name.Builtin, Punctuation, Keyword.Type)),
    (rf"{highlighting.REGISTER}{_END}", Name.Builtin),
    (rf"(?i:{highlighting.TYPES})(?=\[)", Keyword.Type),                       # .ub NAME TYPE[COUNT]
    (rf"(?i:{highlighting.CONSTANTS}){_END}", Name.Constant),
    (rf"(?:{highlighting.NUMBER}){_END}", Number),
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
            (rf"(?:{highlighting.DIRECTIVE_WORDS}){_END}", Keyword.Declaration),
            (rf"({highlighting.LABEL})(\s*)(:)", bygroups(Name.Label, Whitespace, Punctuation)),
            (rf"(?i:{highlighting.MNEMONICS}){_END}", Keyword),
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
