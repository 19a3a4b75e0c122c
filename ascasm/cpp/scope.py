"""Scopes of the lowering: a frame per inlined call (its variables, its template arguments, where its
`return` goes), the variables bound in them (recorded for the debug information, debugvars.py), the
`.frame push`/`.frame pop` lines of inlined calls, and the parameters' slots."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import ir
from .clang import loc_of
from .values import Const
from .cpptypes import CType
from .ir import RV, VReg
from .cursors import in_stubs


def buffer_name(name: str, sreg: int) -> str:
    """The assembly name of pointer parameter `name`'s buffer (arriving in s`sreg`): assembly names are
    ASCII and not register names; C++ names need not be either."""
    if re.fullmatch(r"[vpasuqVPASUQ]\d+", name):
        return name + "_buf"
    return name if name.isascii() else f"param{sreg}_buf"


@dataclass
class ParamSlot:
    """A parameter (or a block's captured variable) and the virtual register it arrives in."""
    name: str
    kind: str               # "pointer" or "scalar"
    etype: str
    cpp_type: str
    reg: VReg


@dataclass
class Frame:
    """One inlined function: its variables (by declaration hash), its template arguments by name,
    where `return` goes."""
    vars: dict = field(default_factory=dict)
    targs: dict = field(default_factory=dict)
    ret_label: str | None = None
    returns_early: bool = False  # a run-time `return` branched to ret_label: the label must be placed
    ret_reg: RV | None = None
    ret_type: CType | None = None
    runtime_depth: int = 0      # run-time ifs/loops entered in this function
    const_return: Const | None = None
    cls: object = None          # the class of a method: where `this->member` is looked for


class Scope:
    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def bind(self, decl, value):
        self.frame.vars[decl.hash] = value
        self.frame.vars[("name", decl.spelling)] = value    # for references libclang leaves unresolved
        if not self.const_only and decl.location.file and not in_stubs(str(decl.location.file)):
            self.bindings.append((decl.spelling, value, len(self.lines), len(self.open_frames),
                                  decl.kind.name == "PARM_DECL"))

    def push_frame(self, decl, c):
        """A `.frame push` line for an inlined call of a kernel's own helper (not a stub's)."""
        loc = loc_of(c)
        if self.const_only or loc is None or in_stubs(str(decl.location.file)):
            return None
        line = ir.FramePush(decl.spelling, loc[0], loc[1], max(1, loc[2]))
        self.lines.append(line)
        self.open_frames.append(line)
        return line

    def pop_frame(self, push):
        if push is None:
            return
        self.open_frames.pop()
        if self.lines[-1] is push:          # no instruction came of the call
            self.lines.pop()
        else:
            self.lines.append(ir.FramePop())

    def lookup_var(self, decl):
        for frame in reversed(self.frames):
            if decl.hash in frame.vars:
                return frame.vars[decl.hash]
            if frame.ret_label is not None or frame is self.frames[0]:
                break
        return self.captures.get(decl.hash)
