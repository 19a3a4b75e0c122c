"""Source positions and the located message format shared by the assembler, the machine layer and the
tools: `FILE:LINE:COL: severity: MESSAGE`, the line, a caret, notes. Below both the assembler and the
machine, so that neither imports the other for it."""
from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path

from .limits import MAX_SHOWN_TOKEN

SHOWN_LINE = 2 * MAX_SHOWN_TOKEN       # characters of a long source line shown under a message

# Characters a source line may not contain: control characters other than tab, line feed and form
# feed, and the line breaks that only some tools see (U+0085, U+2028, U+2029).
FORBIDDEN_CHARACTERS = re.compile("[\x00-\x08\x0b\x0d-\x1f\x7f-\x9f\u2028\u2029]")

# C++ sources: kernels the front end runs (`.cpp`, Ascend C's `.asc` ...) and the headers their rows
# may come from; assembly is `.s`. A file with another name is told by its first lines (cpp_by_content).
CPP_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".asc", ".h", ".hpp", ".hh", ".hxx", ".inl")
ASM_SUFFIXES = (".s", ".asm")
LANGUAGES = ("cpp", "asm")
# What only C++ has at a line's start: a preprocessor directive (`#` is an error in assembly), the
# kernel qualifiers and macros, a template, a namespace or a using-directive.
_CPP_LINE = re.compile(r"^\s*(?![;/])(#\s*(include|define|if|ifdef|ifndef|pragma)\b|template\s*<|namespace\b|using\s+namespace\b"
                       r"|.*\b(__simd_vf__|__VEC_SCOPE__|__aicore__|__global__)\b)", re.MULTILINE)


def is_cpp(path, lang: str | None = None) -> bool:
    """Whether `path` is a C++ source: `lang` ("cpp"/"asm") when given, else by its suffix, else by
    its content."""
    if lang is not None:
        return lang == "cpp"
    name = str(path).lower()
    if name.endswith(CPP_SUFFIXES):
        return True
    if name.endswith(ASM_SUFFIXES):
        return False
    return cpp_by_content(str(path))


@functools.lru_cache(maxsize=64)
def cpp_by_content(path: str) -> bool:
    """A file of neither suffix is C++ when its first 8 KiB have a line only C++ has."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            head = f.read(8192)
    except OSError:
        return False
    return _CPP_LINE.search(head) is not None


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
    line, col, end_col = _window(line, loc.col, min(loc.end_col, len(line) + 1))
    caret = " " * (col - 1) + "^" + "~" * (max(1, end_col - col) - 1)
    out = [f"{loc}: {severity}: {message}", "    " + line, "    " + caret]
    out += [f"note: {note}" for note in notes]
    return "\n".join(out)


def unreadable(path: Path) -> str:
    """Why a program file cannot be read ("" when it can), in words for an error message."""
    if path.is_dir():
        return f"{path} is a directory, not a program file"
    if not path.exists():
        return f"cannot read {path}: no such file"
    if not path.is_file():
        return f"cannot read {path}: not a regular file"
    if not os.access(path, os.R_OK):
        return f"cannot read {path}: permission denied"
    return ""
def _window(line: str, col: int, end_col: int) -> tuple[str, int, int]:
    """A long line cut to SHOWN_LINE characters around the caret, "..." marking what is left out;
    the columns moved to match."""
    if len(line) <= SHOWN_LINE:
        return line, col, end_col
    start = max(0, min(col - 1 - SHOWN_LINE // 4, len(line) - SHOWN_LINE))
    before = "..." if start else ""
    after = "..." if start + SHOWN_LINE < len(line) else ""
    shift = len(before) - start
    return before + line[start:start + SHOWN_LINE] + after, col + shift, min(end_col, start + SHOWN_LINE + 1) + shift
