"""The words of the language, for syntax highlighters (the Pygments lexer, the TextMate grammar that
tools/gen_reference.py writes): all taken from the ISA table, so a new instruction or type is
highlighted without touching them."""
from __future__ import annotations

from .isa import BARRIER_KINDS, BY_MNEMONIC, DIRECTIVES, PATTERNS, dtypes
from .isa.table import KEYWORDS


def _alternatives(words) -> str:
    """A regex alternation, longest first (so `vsta.pack` wins over `vsta`), dots escaped."""
    return "|".join(w.replace(".", r"\.") for w in sorted(set(words), key=lambda w: (-len(w), w)))


MNEMONICS = _alternatives(BY_MNEMONIC)
DIRECTIVE_WORDS = _alternatives(name for name, _syntax, _text in DIRECTIVES)
TYPES = _alternatives(spelling for t in dtypes.TYPES for spelling in (t.name, *t.aliases))
CONSTANTS = _alternatives([*PATTERNS, *BARRIER_KINDS, *(w for words in KEYWORDS.values() for w in words)])
REGISTER = r"[vVpPsSaAuUqQ][0-9]+"
NUMBER = r"0[xX][0-9a-fA-F_]+|0[bB][01_]+|(?:\d[\d_]*\.\d*|\.\d+|\d[\d_]*)(?:[eE][+-]?\d+)?|inf|nan"
LABEL = r"[A-Za-z_][A-Za-z0-9_]*(?=\s*:)"
COMMENT = r";.*$"
