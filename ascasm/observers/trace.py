"""`ascasm run --trace`: one JSON object per executed instruction (schema in docs/debugger.md), from
the executor's write log (ascasm/observers/effects.py)."""
from __future__ import annotations

import json
import math

import numpy as np

from .effects import FILE_OF_KIND, Effects, RegWrite, Span, StepLog
from ..isa import STOP_CODES
from ..program import Program
from ..source import is_cpp
from ..state import MASK_SPR_NAME, MASK_SPR_SET, SPR_NAMES, MachineState, STOP_NAMES

RUNNING, HALTED = STOP_CODES["RUNNING"], STOP_CODES["HALTED"]


TRACE_SCHEMA_VERSION = 1


def json_number(value):
    """A lane value as JSON: ints as ints, finite floats as numbers, NaN/inf as the strings "nan",
    "inf", "-inf" (JSON has no literals for them)."""
    if isinstance(value, (np.integer, int)):
        return int(value)
    number = float(value)
    if math.isnan(number):
        return "nan"
    if math.isinf(number):
        return "inf" if number > 0 else "-inf"
    return number


def register_name(insn, position: int) -> str:
    operand = insn.spec.operands[position]
    return f"{FILE_OF_KIND[operand.kind]}{insn.operands[position]}"


def register_json(state: MachineState, reg: RegWrite) -> dict:
    name = f"{reg.file}{reg.number}"
    if reg.file == "s":
        return {"reg": name, "value": int(state.sreg[reg.number])}
    if reg.file == "a":
        return {"reg": name, "value": int(state.areg[reg.number])}
    if reg.file == "LOOP":
        return {"reg": "LOOP", **loop_json(state)}
    if reg.file == MASK_SPR_NAME:
        low, high = (int(x) for x in state.mask_spr[:MASK_SPR_SET].view(np.uint64))
        return {"reg": reg.file, "mask0": low, "mask1": high}
    if reg.file in SPR_NAMES:
        return {"reg": reg.file, "value": int(state.spr[SPR_NAMES.index(reg.file)])}
    if reg.file == "CTRL":
        return {"reg": "CTRL", "value": int(state.ctrlreg[0])}
    if reg.file == "q":
        return {"reg": name, "position": int(state.qreg_state[reg.number][1]), "hex": state.qreg[reg.number].tobytes().hex()}
    if reg.file == "u":
        pending, at = (int(x) for x in state.ureg_state[reg.number])
        return {"reg": name, "pending": pending, "addr": at, "hex": state.ureg[reg.number, :pending].tobytes().hex()}
    if reg.file == "p":
        raw = state.preg[reg.number]
        bits = np.unpackbits(raw, bitorder="little")[::reg.etype.width][:reg.etype.lanes]
        return {"reg": name, "type": reg.etype.name, "active": np.flatnonzero(bits).tolist(), "hex": raw.tobytes().hex()}
    lanes = state.vreg[reg.number].view(reg.etype.np_dtype)
    values = lanes.tolist() if reg.etype.kind != "float" else [json_number(x) for x in lanes]
    return {"reg": name, "type": reg.etype.name, "lanes": values}


def loop_json(state: MachineState) -> dict:
    """The active hardware loops, innermost first: their indices (lidx0, lidx1, ...) and counts."""
    active = [(int(index), int(count)) for index, count in state.hwloop.tolist() if count]
    return {"index": [index for index, _count in active], "count": [count for _index, count in active]}


def span_json(insn, span: Span) -> dict:
    entry = {"addr": span.addr, "end": span.end, "width": span.width, "count": span.count,
             "pitch": span.pitch or span.width}
    entry["src"] = register_name(insn, span.src) if span.src >= 0 else None
    entry["lane"] = span.lane if span.lane >= 0 else None
    if span.index >= 0:
        entry["index"] = span.index
    return entry


def source_text(loc) -> str:
    """The source line without its comment (in C++, `;` ends a statement, not a line)."""
    text = loc.text.rstrip("\n")
    for marker in ("//",) if is_cpp(loc.file) else (";", "//"):
        if marker in text:
            text = text[:text.index(marker)]
    return text.strip()


def trace_record(program: Program, state: MachineState, pc: int, step: int, effects: Effects | None,
                 fault=None) -> dict:
    """One trace line: the instruction at `pc`, executed as step `step` (or faulting there)."""
    insn = program.insns[pc]
    record = {"step": step, "pc": pc, "line": insn.loc.line, "text": source_text(insn.loc),
              "insn": insn.spec.mnemonic,
              "regs": [register_json(state, r) for r in effects.regs] if effects and not fault else [],
              "ub_writes": [span_json(insn, s) for s in effects.ub_writes or []] if effects and not fault else [],
              "ub_reads": [span_json(insn, s) for s in effects.ub_reads] if effects and not fault else [],
              "status": STOP_NAMES[state.status]}
    if insn.asm is not None:        # a row of a .loc source: which file "line" is in, and the instruction
        record["file"], record["asm"] = insn.loc.file, source_text(insn.asm)
    if fault is not None:
        record["fault"] = fault.message
    return record


def write_trace(program: Program, machine, out) -> None:
    """Run `machine` to its stop, writing one JSON line per executed instruction to the text stream
    `out` (plus a last line for a faulting instruction, with "fault"). The engine executes each step
    (`run(1)`) with its write log on; the caller reports the stop as `ascasm run` does
    (machine.fault(), .expect)."""
    state, log = machine.state, StepLog(program, machine)
    while state.status == RUNNING:
        before = state.steps
        pc, effects, _records = log.step()
        if state.steps > before:
            out.write(json.dumps(trace_record(program, state, pc, state.steps, effects)) + "\n")
        elif state.status != HALTED:
            fault = machine.fault()
            out.write(json.dumps(trace_record(program, state, pc, state.steps + 1, effects, fault)) + "\n")
