"""Assembly errors as data: position, message, notes; formatted like a compiler's."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..source import SourceLoc, format_diagnostic


@dataclass
class AsmError:
    loc: SourceLoc
    message: str
    notes: list = field(default_factory=list)

    def __str__(self) -> str:
        return format_diagnostic("error", self.loc, self.message, self.notes)


class AssemblyFailed(Exception):
    """Raised with every error of a file (the first MAX_ERRORS when `truncated`); str() prints them."""

    def __init__(self, errors: list[AsmError], truncated: bool = False):
        self.errors = sorted(errors, key=lambda e: (e.loc.file, e.loc.line, e.loc.col))
        self.truncated = truncated
        super().__init__(str(self))

    def __str__(self) -> str:
        count = len(self.errors)
        summary = f"{count} error{'s' if count != 1 else ''}"
        if self.truncated:
            summary += "; too many errors, stopped here"
        return "\n".join([*(str(e) for e in self.errors), summary])
