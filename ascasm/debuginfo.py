"""Source-level debug information: what the C++ front end knows about a translated program that the
instructions alone do not say. The translator fills it; the assembler reads it back from directives,
so a translated `.s` file carries it too; the debugger, `stats --by-line` and the DAP server read it.

Rows are instruction indices (program order, the same numbers as `Program.insns`).

In assembly text the information is two directives, each applying from the next instruction on:

    .frame push "NAME" "FILE" LINE COL   ; the next instructions are inside an inlined call of NAME,
                                         ; made at FILE:LINE:COL (nested pushes nest)
    .frame pop                           ; the innermost inlined call has returned
    .var NAME "CTYPE" LOCATION           ; C++ variable NAME, of type CTYPE, lives in LOCATION
    .var NAME -                          ; NAME no longer lives anywhere (gdb: "optimised out")
    .arg NAME "CTYPE" LOCATION           ; as .var, for a parameter (of the function or the inlined call)
    .artificial                          ; the next instruction is the translator's own: it implements a
                                         ; C++ rule (a wrap to the type's width, a copy's all-true mask)
                                         ; and stands for no call of its line (`stats --by-line` marks it)

LOCATION is a register (`v3`, `p1`, `a0`, `u2`, `q0`, `s7`) or, for a compile-time constant, `=VALUE`
(a number). A pointer's `.var` may end with `-> BUFFER`, the parameter buffer it points into.
A variable of one name may be declared again in another frame (an inlined helper's locals): names are
looked up innermost frame first.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class InlineFrame:
    """One inlined call: the helper's name and where it was called from."""
    function: str
    call_file: str
    call_line: int
    call_col: int


@dataclass(frozen=True)
class VarRange:
    """C++ variable `name` (type `ctype`) lives in `location` for rows start <= row < end.
    `depth`: the number of inline frames around its declaration (0: the translated function itself)."""
    name: str
    ctype: str
    location: str               # "v3", "s7", or "=42" for a constant
    start: int
    end: int
    depth: int = 0
    buffer: str | None = None   # for a pointer: the parameter buffer it points into
    arg: bool = False           # a parameter (`info args`), not a local (`info locals`)


@dataclass
class DebugInfo:
    """Per row, its stack of inline frames (outermost first); every variable's live ranges; the rows
    that are the translator's own."""
    frames: list[tuple[InlineFrame, ...]] = field(default_factory=list)
    variables: list[VarRange] = field(default_factory=list)
    artificial: frozenset[int] = frozenset()

    def frames_at(self, row: int) -> tuple[InlineFrame, ...]:
        return self.frames[row] if 0 <= row < len(self.frames) else ()

    def visible_at(self, row: int, depth: int | None = None) -> dict[str, VarRange]:
        """The variables live at `row`, by name; an inner frame's variable hides an outer one's. With
        `depth`, only those of that frame and the frames around it (the debugger's `up`)."""
        live = sorted((v for v in self.variables if v.start <= row < v.end and (depth is None or v.depth <= depth)),
                      key=lambda v: v.depth)
        return {v.name: v for v in live}

    def known(self, name: str) -> bool:
        """Whether the program has a variable `name` anywhere (not live here: "optimised out")."""
        return any(v.name == name for v in self.variables)
