"""Source positions and the located message format shared by the assembler, the machine layer and the
tools: `FILE:LINE:COL: severity: MESSAGE`, the line, a caret, notes. Below both the assembler and the
machine, so that neither imports the other for it."""
from __future__ import annotations

import re
from dataclasses import dataclass

# Characters a source line may not contain: control characters other than tab, line feed and form
# feed, and the line breaks that only some tools see (U+0085, U+2028, U+2029).
FORBIDDEN_CHARACTERS = re.compile("[\x00-\x08\x0b\x0d-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True, slots=True)
class SourceLoc:
    file: str
    line: int          # 1-based
    col: int           # 1-based
    end_col: int       # one past the last column of the offending token
    text: str          # the whole source line, for the caret display

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


def format_diagnostic(severity: str, loc: SourceLoc, message: str, notes=()) -> str:
    """`FILE:LINE:COL: severity: MESSAGE`, the source line, a caret under the token, then notes."""
    # one column per character, and nothing a terminal would act on (escape sequences)
    line = FORBIDDEN_CHARACTERS.sub("\ufffd", loc.text.expandtabs(1).replace("\f", " "))
    width = max(1, min(loc.end_col, len(line) + 1) - loc.col)
    caret = " " * (loc.col - 1) + "^" + "~" * (width - 1)
    out = [f"{loc}: {severity}: {message}", "    " + line, "    " + caret]
    out += [f"note: {note}" for note in notes]
    return "\n".join(out)
