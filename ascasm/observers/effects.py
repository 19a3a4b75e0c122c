"""What one executed instruction did, as facts: the UB bytes it read and wrote lane by lane, from the
executor's write log (docs/bytecode.md "Write log"), and the registers its row writes (from the ISA
table). Nothing here predicts or re-implements an instruction; the trace, the debugger's history and
provenance, `ascasm stats` and `ascasm draw` all read these records.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..isa import Kind
from ..isa import dtypes
from ..program import Program
from ..state import LOG_FIELDS, LOG_GM_READ, LOG_GM_WRITE, LOG_READ, LOG_RESERVE, LOG_WRITE

FILE_OF_KIND = {Kind.VREG: "v", Kind.PREG: "p", Kind.AREG: "a", Kind.SREG: "s", Kind.UREG: "u",
                Kind.QREG: "q", Kind.BASE: "s"}
LOG_CAPACITY = 4 * LOG_RESERVE          # records per log buffer: room for any one instruction, twice


@dataclass(frozen=True)
class Span:
    """`count` lanes from `lane` on (of the register operand at position `src`) each move `width` bytes
    at `addr + k*pitch` (pitch 0: `width`). lane and index are -1 when the access has no lanes (a
    scalar or mask access, most loads), src -1 when no register is known."""
    addr: int
    width: int
    count: int = 1
    pitch: int = 0
    lane: int = -1
    src: int = -1
    index: int = -1

    @property
    def end(self) -> int:
        """One past the last byte (pitch 0 means `width`: contiguous lanes)."""
        return self.addr + (self.count - 1) * (self.pitch or self.width) + self.width


@dataclass(frozen=True)
class RegWrite:
    file: str            # "v", "p", "a", "s", "u"; or a special register: "AR", "SQZN", "LOOP" (number 0)
    number: int
    operand: int         # position of the operand in the ISA row's syntax
    etype: object        # ElemType of the lanes (None for s/a registers)


@dataclass
class Effects:
    regs: list = field(default_factory=list)       # RegWrite
    ub_writes: list = field(default_factory=list)  # Span
    ub_reads: list = field(default_factory=list)   # Span (lanes are the destination register's)
    gm_writes: list = field(default_factory=list)  # Span of global memory (the data moves)
    gm_reads: list = field(default_factory=list)


def lane_type(insn, operand) -> object:
    """The element type a written register is best viewed as."""
    family = insn.spec.family
    if operand.kind is Kind.PREG:
        return insn.types[0] if operand.type_slot is not None else dtypes.lookup("b8")
    if operand.kind is not Kind.VREG:
        return None
    etype = insn.types[operand.type_slot] if operand.type_slot is not None else dtypes.lookup("u8")
    if family in ("vld_unpk4", "vld_unpk4_pu"):       # bytes zero-extended into 32-bit lanes
        return dtypes.lookup("u32")
    if family == "vld_unpk":                           # lanes twice the source width, zero-extended
        return dtypes.lookup(f"u{16 * etype.width}")
    if family == "vgat" and insn.types[1].width > etype.width:  # b8 data in 16-bit lanes
        return dtypes.lookup(f"u{8 * insn.types[1].width}")
    return etype


def register_writes(insn) -> list[RegWrite]:
    """The registers an instruction writes when it completes, from its ISA row (special registers last,
    with operand -1)."""
    return [RegWrite(FILE_OF_KIND[operand.kind], int(value), position, lane_type(insn, operand))
            for position, (operand, value) in enumerate(zip(insn.spec.operands, insn.operands))
            if operand.writes and operand.kind in FILE_OF_KIND] \
        + [RegWrite(name, 0, -1, None) for name in insn.spec.specials]


def spans(records: np.ndarray) -> list[Span]:
    """Log records as Spans, runs of consecutive lanes merged (a masked store logs its lanes one by one)."""
    out: list[Span] = []
    for _step, _row, _kind, addr, width, count, pitch, lane, operand, index in records.tolist():
        last = out[-1] if out else None
        if (last is not None and lane >= 0 and last.lane >= 0 and index == last.index == -1
                and (width, pitch, operand) == (last.width, last.pitch, last.src)
                and lane == last.lane + last.count and addr == last.addr + last.count * pitch):
            out[-1] = Span(last.addr, width, last.count + count, pitch, last.lane, operand)
        else:
            out.append(Span(addr, width, count, pitch, lane, operand, index))
    return out


def effects_of(program: Program, pc: int, records: np.ndarray) -> Effects:
    """What the instruction at `pc` did, from the log records of the step that executed it."""
    kinds = records[:, 2]
    return Effects(register_writes(program.insns[pc]), spans(records[kinds == LOG_WRITE]),
                   spans(records[kinds == LOG_READ]), spans(records[kinds == LOG_GM_WRITE]),
                   spans(records[kinds == LOG_GM_READ]))


class StepLog:
    """Runs a Machine one instruction at a time with its write log on, and reads the log."""

    def __init__(self, program: Program, machine):
        self.program, self.machine = program, machine
        self.buffer = np.zeros((LOG_CAPACITY, len(LOG_FIELDS)), np.int64)

    def step(self) -> tuple[int, Effects | None, np.ndarray]:
        """Execute one instruction (`run(1)`): its pc, what it did (None if it did not complete: a
        fault, the step limit, past the end; a `halt` did) and the raw log records."""
        machine, state = self.machine, self.machine.state
        pc, steps = state.pc, state.steps
        machine.set_log(self.buffer)
        try:
            machine.run(1)
            records = self.buffer[:machine.log_length].copy()
        finally:
            machine.set_log(None)
        if state.steps == steps:
            return pc, None, records
        return pc, effects_of(self.program, pc, records), records



def written_bytes(records: np.ndarray, kind: int = LOG_WRITE) -> np.ndarray:
    """The UB addresses (kind LOG_GM_WRITE: the GM ones) a step's write records cover, each once, in order."""
    writes = records[records[:, 2] == kind]
    if writes.size == 0:
        return np.zeros(0, np.int64)
    return np.unique(np.concatenate([_bytes_of(*record[3:7]) for record in writes.tolist()]))


def _bytes_of(addr: int, width: int, count: int, pitch: int) -> np.ndarray:
    return (addr + np.arange(count)[:, None] * pitch + np.arange(width)[None, :]).reshape(-1)
