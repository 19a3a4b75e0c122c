"""What a run found (RunReport), as text for people or as the --json document (schema in docs/cli.md);
the commands that load a program report its failures through it too."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..asm.errors import AssemblyFailed
from ..source import format_diagnostic
from .common import (EXIT_ASM, EXIT_EXPECT, EXIT_FAULT, EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT, EXIT_STEP_LIMIT,
                     EXIT_USAGE)

if TYPE_CHECKING:                                      # (annotations only)
    from ..program import Buffer
    from ..vm import MachineFault

SHOWN_MISMATCHES = 10


@dataclass
class RunReport:
    """What `ascasm run` found, rendered as text for people or as JSON (--json) for graders and editors."""
    file: str | None                                 # None: the command line could not be parsed
    exit: int = EXIT_OK
    steps: int = 0
    errors: list = field(default_factory=list)        # AsmError
    errors_truncated: bool = False                    # the assembler stopped at MAX_ERRORS
    fault: MachineFault | None = None
    warnings: list = field(default_factory=list)      # (SourceLoc, message, notes)
    outputs: list = field(default_factory=list)       # Buffer
    expects: list = field(default_factory=list)       # (Expectation, actual values, indices that differ)
    usage_error: str = ""
    error: str = ""                                   # an output that failed, or the trace limit
    trace_limited: bool = False
    interrupted: str = ""                             # where Ctrl-C stopped the run
    state: object = None            # the MachineState at the end (its UB and GM)
    dumpable: dict | None = None                      # a C++ kernel: {pointer parameter: its Buffer}

    STATUS = {EXIT_OK: "ok", EXIT_ASM: "assembly_error", EXIT_FAULT: "fault", EXIT_STEP_LIMIT: "step_limit",
              EXIT_EXPECT: "expect_mismatch", EXIT_USAGE: "usage_error", EXIT_OUTPUT: "output_error",
              EXIT_INTERRUPTED: "interrupted"}

    @property
    def status(self) -> str:
        return "trace_limit" if self.trace_limited else self.STATUS[self.exit]


def print_report(report: RunReport, out, err):
    if report.usage_error:
        print(f"ascasm: error: {report.usage_error}", file=err)
    if report.error:
        print(f"ascasm: error: {report.error}", file=err)
    if report.interrupted:
        print(f"ascasm: {report.interrupted}", file=err)
    if report.errors:
        print(AssemblyFailed(report.errors, report.errors_truncated), file=err)
    for loc, message, notes in report.warnings:
        print(format_diagnostic("warning", loc, message, notes), file=err)
    if report.fault is not None:
        print(report.fault, file=err)
    for buf in report.outputs:
        print(format_buffer(buf, report.state), file=out)
    for expectation, actual, wrong in report.expects:
        buf = expectation.buffer
        if wrong.size == 0:
            print(f"expect {buf.name}: ok ({buf.count} elements)", file=out)
            continue
        print(f"expect {buf.name}: {wrong.size} of {buf.count} elements differ ({expectation.loc})", file=out)
        for i in wrong[:SHOWN_MISMATCHES]:
            print(f"  {buf.name}[{i}]: got {element_text(actual[i])}, expected "
                  f"{element_text(expectation.values[i])}", file=out)
        if wrong.size > SHOWN_MISMATCHES:
            print(f"  ... and {wrong.size - SHOWN_MISMATCHES} more", file=out)


def _loc_json(loc) -> dict:
    return {"file": loc.file, "line": loc.line, "col": loc.col}


def report_json(report: RunReport) -> dict:
    """The --json document (schema in docs/cli.md)."""
    fault = report.fault
    return {
        "file": report.file,
        "status": report.status,
        "exit": report.exit,
        "steps": report.steps,
        "usage_error": report.usage_error or None,
        "error": report.error or None,
        "interrupted": report.interrupted or None,
        "errors": [{**_loc_json(e.loc), "message": e.message, "notes": e.notes} for e in report.errors],
        "errors_truncated": report.errors_truncated,
        "fault": None if fault is None else {**(_loc_json(fault.loc) if fault.loc else {}), "kind": fault.kind,
                                             "message": fault.message, "step": fault.step},
        "warnings": [{**_loc_json(loc), "message": message, "notes": notes} for loc, message, notes in report.warnings],
        "expects": [{"buffer": e.buffer.name, **_loc_json(e.loc), "ok": wrong.size == 0,
                     "mismatches": int(wrong.size),
                     "first": [{"index": int(i), "got": element_text(actual[i]),
                                "expected": element_text(e.values[i])} for i in wrong[:SHOWN_MISMATCHES]]}
                    for e, actual, wrong in report.expects],
        "outputs": {buf.name: [element_text(v) for v in buf.view(report.state)] for buf in report.outputs},
    }


def format_buffer(buf: Buffer, memory, per_line: int = 16) -> str:
    values = buf.view(memory)
    cells = [element_text(v) for v in values]
    width = max(len(c) for c in cells)
    lines = [f"{buf.name}: {buf.etype.name}[{buf.count}] @ {'GM ' if buf.space == 'gm' else ''}{buf.addr:#x}"]
    for start in range(0, len(cells), per_line):
        row = " ".join(c.rjust(width) for c in cells[start:start + per_line])
        lines.append(f"  [{start:>5}] {row}")
    return "\n".join(lines)


def element_text(value) -> str:
    """An element as text: integers exactly, floats as the shortest decimal that reads back to the same
    value of their type (f16 2050 prints as 2050, not numpy's 2.05e+03)."""
    if value.dtype.kind in "iu":
        return str(value.item())
    from ..formatting import float_text          # (an integer run does without it)
    return float_text(value, value.dtype)
