"""Assembly errors as data: position, message, notes; formatted like a compiler's."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SourceLoc:
    file: str
    line: int          # 1-based
    col: int           # 1-based
    end_col: int       # one past the last column of the offending token
    text: str          # the whole source line, for the caret display

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass
class AsmError:
    loc: SourceLoc
    message: str
    notes: list = field(default_factory=list)

    def __str__(self) -> str:
        return format_diagnostic("error", self.loc, self.message, self.notes)


def format_diagnostic(severity: str, loc: SourceLoc, message: str, notes=()) -> str:
    """`FILE:LINE:COL: severity: MESSAGE`, the source line, a caret under the token, then notes."""
    line = loc.text.expandtabs(1).rstrip("\n")
    width = max(1, min(loc.end_col, len(line) + 1) - loc.col)
    caret = " " * (loc.col - 1) + "^" + "~" * (width - 1)
    out = [f"{loc}: {severity}: {message}", "    " + line, "    " + caret]
    out += [f"note: {note}" for note in notes]
    return "\n".join(out)


class AssemblyFailed(Exception):
    """Raised with every error of a file; str() prints them all."""

    def __init__(self, errors: list[AsmError]):
        self.errors = sorted(errors, key=lambda e: (e.loc.file, e.loc.line, e.loc.col))
        super().__init__(str(self))

    def __str__(self) -> str:
        count = len(self.errors)
        summary = f"{count} error{'s' if count != 1 else ''}"
        return "\n".join([*(str(e) for e in self.errors), summary])
