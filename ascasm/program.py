"""An assembled program: structured instructions (for the reference executor), bytecode rows (for the
engine), a source map, and the UB buffers with their initial and expected contents."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from .debuginfo import DebugInfo
from .isa import BARRIER_KINDS, PATTERNS, ElemType, InsnSpec, Kind
from .isa.table import keyword_slot
from .source import SourceLoc
from .state import DUP_WARN_FIELDS, HAZARD_WARN_FIELDS, UNWRITTEN_WARN_FIELDS, MachineState


@dataclass(frozen=True)
class SVal:
    """An `X` operand: an immediate, or the number of a scalar register. `raw`: an X.T register written
    with its type suffix (`s3.f32`), which holds T's bits rather than an integer to convert."""
    is_reg: bool
    value: int
    raw: bool = False

    @property
    def flag(self) -> int:
        """The operand's first bytecode slot: 0 immediate, 1 register, 2 register holding T's bits."""
        return 2 if self.raw else int(self.is_reg)


@dataclass(frozen=True)
class Addr:
    """An address operand: constant byte offset plus scalar registers plus address registers."""
    const: int
    sregs: tuple = ()
    aregs: tuple = ()


@dataclass(frozen=True)
class Insn:
    spec: InsnSpec
    types: tuple            # one ElemType per type slot
    operands: tuple         # per spec operand: register number, SVal, Addr, int, pattern/barrier name or None
    loc: SourceLoc
    asm: SourceLoc | None = None   # the assembly line, when a .loc directive made `loc` a C++ position

    def operand(self, name: str):
        """The resolved operand whose syntax name is `name` ("vS", "[addr]", "X")."""
        for spec, value in zip(self.spec.operands, self.operands):
            if spec.name == name:
                return value
        raise KeyError(name)


@dataclass
class Buffer:
    name: str
    etype: ElemType
    count: int
    addr: int
    loc: SourceLoc
    data: np.ndarray | None = None      # initial contents, dtype etype.np_dtype; None = zero
    space: str = "ub"                   # "ub", or "gm" for a .gm buffer (global memory)
    undef: bool = False                 # `= undef`: zero, but its bytes count as never written

    @property
    def nbytes(self) -> int:
        return self.count * self.etype.width

    def view(self, memory) -> np.ndarray:
        """The buffer's elements inside a MachineState (its UB or GM, by the buffer's space) or inside
        a byte array of its space."""
        if isinstance(memory, MachineState):
            memory = memory.gm if self.space == "gm" else memory.ub
        return memory[self.addr:self.addr + self.nbytes].view(self.etype.np_dtype)


@dataclass
class Expectation:
    buffer: Buffer
    values: np.ndarray
    loc: SourceLoc

    def mismatches(self, memory) -> np.ndarray:
        """Indices of the elements whose bits differ from the expected values (NaNs and -0 included);
        `memory` as for Buffer.view."""
        bits = self.buffer.etype.bits
        return np.flatnonzero(self.buffer.view(memory).view(bits) != self.values.view(bits))


@dataclass
class Program:
    filename: str
    source: str
    insns: list[Insn]
    code: np.ndarray                    # int64[n, ROW_WIDTH]
    buffers: dict[str, Buffer]
    labels: dict[str, int]
    outs: list[Buffer] = field(default_factory=list)
    expects: list[Expectation] = field(default_factory=list)
    data_files: tuple = ()              # the files it reads: file("x.npy") INITs, .loc sources (outputs must
                                        # not overwrite them)
    origin_files: dict = field(default_factory=dict)    # {file named by .loc: its text lines}
    bounded: bool = False               # its buffers are bounds even without --strict (a C++ kernel's
                                        # parameters; docs/semantics.md "Buffers as bounds")
    debug: DebugInfo = field(default_factory=DebugInfo)     # a translated C++ kernel's variables and
                                                            # inline frames (.frame, .var, .arg)

    def regions(self, space: str = "ub") -> list[tuple[int, int]]:
        """The byte ranges [lo, hi) of the buffers of a space, sorted, adjacent ones merged: an access may
        touch a byte only inside them when they are bounds (an access over two adjacent buffers is one
        inside both). GM's buffers are always its bounds."""
        merged: list[list[int]] = []
        for lo, hi in sorted((b.addr, b.addr + b.nbytes) for b in self.buffers.values() if b.space == space):
            if merged and lo <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        return [(lo, hi) for lo, hi in merged]

    def source_lines(self, file: str) -> list[str] | None:
        """The text lines of the program's own file or of a file .loc named; None if unknown."""
        return self.source.split("\n") if file == self.filename else self.origin_files.get(file)

    def file_named(self, name: str) -> str | None:
        """The file rows come from that `name` names, by its path or its last components (`k.cpp`)."""
        files = dict.fromkeys(insn.loc.file for insn in self.insns)
        return next((f for f in files if f == name or f.replace(os.sep, "/").endswith("/" + name.lstrip("./"))), None)

    def first_row_at(self, file: str, line: int) -> tuple[int, int] | None:
        """(row, its line): the first row of the first line of `file` at or after `line` that has one."""
        found = min(((insn.loc.line, row) for row, insn in enumerate(self.insns)
                     if insn.loc.file == file and insn.loc.line >= line), default=None)
        return None if found is None else (found[1], found[0])

    @property
    def srcmap(self) -> list[SourceLoc]:
        return [insn.loc for insn in self.insns]

    @property
    def gm_size(self) -> int:
        """Bytes of global memory: up to the end of the last .gm buffer, rounded up to 32."""
        ends = [b.addr + b.nbytes for b in self.buffers.values() if b.space == "gm"]
        return -(-max(ends, default=0) // 32) * 32

    def initial_state(self) -> MachineState:
        rows = len(self.insns)
        state = MachineState(dup_warn=np.zeros((rows, DUP_WARN_FIELDS), np.int64),
                             hazard_warn=np.zeros((rows, HAZARD_WARN_FIELDS), np.int64),
                             unwritten_warn=np.zeros((rows, UNWRITTEN_WARN_FIELDS), np.int64),
                             gm=np.zeros(self.gm_size, np.uint8))
        unwritten = np.zeros(state.ub.size, bool)
        for buf in self.buffers.values():
            if buf.data is not None:
                buf.view(state)[...] = buf.data
            unwritten[buf.addr:buf.addr + buf.nbytes] |= buf.undef
        state.ub_unwritten[:] = np.packbits(unwritten, bitorder="little").view(np.uint32)
        return state


def operand_slots(spec: InsnSpec, operands: tuple) -> list[int]:
    """The bytecode slots of an instruction's operands (docs/bytecode.md)."""
    slots = []
    for op, value in zip(spec.operands, operands):
        if op.kind in (Kind.SVAL, Kind.TVAL):
            slots += [0, 0] if value is None else [value.flag, value.value]   # left out: immediate 0
        elif op.kind is Kind.ADDR:
            sregs = list(value.sregs) + [-1] * (2 - len(value.sregs))
            aregs = list(value.aregs) + [-1] * (1 - len(value.aregs))
            slots += [value.const, *sregs, *aregs]
        elif op.kind is Kind.PAT:
            slots.append(PATTERNS[value])
        elif op.kind is Kind.BARRIER:
            slots.append(-1 if value is None else BARRIER_KINDS.index(value))
        elif op.kind in (Kind.SAT, Kind.PART):
            slots.append(keyword_slot(op.kind, value))
        else:
            slots.append(value)
    return slots
