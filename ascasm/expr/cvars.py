"""C++ variables by name in the debugger's expressions (`p acc`, `b 19 if left < 64`, `watch y[3]`):
the debug information a translated kernel carries (ascasm/debuginfo.py) says where each lives at a
row; its value is read from the machine state there, as the register or UB expression it names
would be, and shown as its C++ type (RegTensor<float>'s lanes as float, uint16_t as 16 bits)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from ..cpp.cpptypes import parse_spelling
from .machine import ExprError, Value, Where, _scalar
from ..isa import Kind, dtypes
from ..limits import shown


def ctype_of(text: str):
    """The CType a .var's C++ type names (None for one the debugger shows as its register)."""
    return parse_spelling(text, lambda *_args, **_kw: None)


def user_frames(program, row: int) -> tuple:
    """The inline frames (outermost first) the C++ user is in at `row`: those of the debug
    information, less an innermost call whose own call site the row is at (the instructions that
    pass its arguments belong to the caller's line)."""
    frames = program.debug.frames_at(row)
    if frames and row < len(program.insns):
        loc = program.insns[row].loc
        if (loc.file, loc.line) == (frames[-1].call_file, frames[-1].call_line):
            return frames[:-1]
    return frames


@dataclass
class Scope:
    """The variables visible at `row` in inline frame `depth` (None: the innermost there)."""
    program: object
    row: int
    depth: int | None = None

    def visible(self) -> dict:
        return self.program.debug.visible_at(self.row, self.depth)

    def own(self, args: bool) -> list[str]:
        """The names of the selected frame's own parameters (`args`) or locals, sorted."""
        return [name for name, var in sorted(self.visible().items()) if var.arg == args and var.depth == self.depth]

    def knows(self, name: str) -> bool:
        return self.program.debug.known(name)

    def value(self, name: str, evaluator, addresses: bool = False) -> Value | None:
        """Variable `name`'s Value; None when the program has no variable of that name."""
        var = self.visible().get(name)
        if var is None:
            if self.knows(name):
                raise ExprError(f"'{shown(name)}' is optimised out here (its register holds another value, "
                                "or none yet)")
            return None
        ctype = ctype_of(var.ctype)
        etype = dtypes.lookup(ctype.etype) if ctype is not None and ctype.etype else None
        if var.location.startswith("="):                    # a compile-time constant
            text = var.location[1:]
            number = int(text) if re.fullmatch(r"-?\d+", text) and etype is not None and etype.kind != "float" \
                else float(text)
            return _scalar(np.asarray(number, etype.np_dtype) if etype else number, f"{name} ({var.ctype})", etype)
        file, number = var.location[0], int(var.location[1:])
        if file == "s" and ctype is not None and ctype.kind == "ptr":
            return self._pointer(var, int(evaluator.env.state.sreg[number]), etype, evaluator.env.state, addresses)
        if file == "s":
            value = evaluator._reg("s", number, etype if ctype is not None and ctype.is_scalar else None)
        elif file == "v":
            value = evaluator._reg("v", number, etype if ctype is not None and ctype.kind == "vec" else None)
        elif file == "p":
            value = evaluator._reg("p", number, self._mask_width(var, number))
        elif file == "a":
            value = evaluator._reg("a", number, None)
        else:                                                # u0-u3, q0-q3
            value = evaluator._special(var.location)
        return replace(value, label=f"{name} ({var.ctype} in {var.location})")

    def _mask_width(self, var, number: int):
        """A MaskReg's lanes are as wide as the lanes of the instruction that writes its register
        (UpdateMask<float>, a float Compare: b32): the first such writer in the variable's range, else
        the last one before it; None (b8) when no writer has typed lanes (a mask load, mask logic)."""
        insns = self.program.insns
        for row in [*range(var.start, min(var.end, len(insns))), *reversed(range(min(var.start, len(insns))))]:
            insn = insns[row]
            for operand, value in zip(insn.spec.operands, insn.operands):
                if operand.writes and operand.kind is Kind.PREG and value == number and insn.types:
                    return dtypes.lookup(f"b{8 * insn.types[0].width}")
        return None

    def _pointer(self, var, addr: int, etype, state, addresses: bool) -> Value:
        """A pointer: its elements from its address to the end of its buffer (so NAME[3] is *(NAME + 3))."""
        label = f"{var.name} ({var.ctype} in {var.location}"
        if addresses:
            return _scalar(addr, label + ")")
        buffers = self.program.buffers
        buf = buffers.get(var.buffer) if var.buffer else None
        if buf is None or not buf.addr <= addr < buf.addr + buf.nbytes:
            buf = next((b for b in buffers.values() if b.addr <= addr < b.addr + b.nbytes), None)
        if buf is None:
            raise ExprError(f"{label}) = {addr:#x}, outside every buffer")
        count = (buf.addr + buf.nbytes - addr) // etype.width
        data = state.ub[addr:addr + count * etype.width].view(etype.np_dtype)
        into = f"{buf.name}[{(addr - buf.addr) // buf.etype.width}] at {addr:#x}" if addr != buf.addr else buf.name
        return Value(data, f"{label} = {into})", etype, None, 0, "value", "elements",
                     where=Where("ub", addr, etype.width, var.name))
