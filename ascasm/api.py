"""The Python API (docs/api.md): assemble a program from text or a file, run it on numpy inputs, read
its buffers back as numpy arrays of their own types (ml_dtypes for bf16 and the fp8 formats).

    program = ascasm.assemble("prog.s")                   # or the source text itself
    result = ascasm.run(program, inputs={"x": x})         # MachineFault on a fault, located
    y = result["y"]                                       # a numpy array of y's .ub type
"""
from __future__ import annotations

import html
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .asm.assembler import assemble as _assemble_text
from .asm.assembler import assemble_file
from .expr.cvars import Scope
from .expr.machine import Env, ExprError, evaluate_name
from .formatting import cell_text
from .isa import dtypes
from .program import Program
from .source import SourceLoc, format_diagnostic
from .state import MAX_STEPS_DEFAULT, UB_USABLE_DEFAULT, VL, MachineState
from .vm import RUNNING, Machine, auto_engine, run_warnings

HTML_ELEMENTS = 256          # elements of a buffer a notebook shows before "... and N more"


def assemble(source, filename: str | None = None, ub_usable: int = UB_USABLE_DEFAULT, source_dirs=()) -> Program:
    """Assemble a program: `source` is its text, or the path of a file (a `pathlib.Path`, or a string
    of one line that ends in `.s` or names an existing file). `filename` names text in messages.
    `.loc` lines show the text of files under the program's directory and `source_dirs`.
    Raises AssemblyFailed (str(): every error, located) or FileNotFoundError."""
    if filename is None and _is_path(source):
        path = Path(source)
        if not path.is_file():
            raise FileNotFoundError(f"no such program file: {path}")
        return assemble_file(path, ub_usable, source_dirs)
    return _assemble_text(str(source), filename or "<string>", ub_usable, source_dirs)


def _is_path(source) -> bool:
    if isinstance(source, os.PathLike):
        return True
    return isinstance(source, str) and "\n" not in source and (source.endswith(".s") or os.path.isfile(source))


@dataclass
class RunWarning:
    """A run-time warning (duplicate scatter indices, a missing membar), once per source line."""
    loc: SourceLoc
    message: str
    notes: list = field(default_factory=list)

    def __str__(self) -> str:
        return format_diagnostic("warning", self.loc, self.message, self.notes)


class Result:
    """A finished run: `result[NAME]` is buffer NAME's final contents (a numpy array copy of its type);
    `steps`, `warnings` (RunWarning), `mismatches` ({buffer: indices differing from its .expect}),
    `ok` (every .expect held), `state` (the whole MachineState), `vreg(n, type, mask)` (lanes),
    `var(NAME)` (a translated C++ kernel's variable by its name), `stops` (a Stop per breakpoint
    reached, when the run was given breakpoints)."""

    def __init__(self, program: Program, state: MachineState, blocks=None, stops: list | None = None):
        self.program, self.state = program, state
        self.stops = stops or []
        self.steps = state.steps
        self.warnings = [RunWarning(*w) for w in run_warnings(program, state)]
        self.mismatches = {e.buffer.name: e.mismatches(state) for e in program.expects}
        # a run of several blocks: one Result per block (its UB; GM is every block's); self is block 0's
        self.blocks = [self] if blocks is None else blocks

    @property
    def ok(self) -> bool:
        return not any(wrong.size for block in self.blocks for wrong in block.mismatches.values())

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self.program.buffers:
            raise KeyError(f"no buffer named {name!r} (buffers: {', '.join(self.program.buffers)})")
        return self.program.buffers[name].view(self.state).copy()

    def __contains__(self, name) -> bool:
        return name in self.program.buffers

    def __iter__(self):
        return iter(self.program.buffers)

    def __len__(self) -> int:
        return len(self.program.buffers)

    def keys(self):
        return self.program.buffers.keys()

    def var(self, name: str):
        """A translated C++ kernel's variable `name` as the run left it (at the halt, or at a fault):
        a RegTensor's lanes or a pointer's elements as an array, a scalar as a numpy scalar, each of
        its C++ type. KeyError when the kernel has no variable of that name; ValueError when it is
        optimised out there (its register was given to another variable)."""
        value = _variable(self.program, self.state, name)
        if isinstance(value, ValueError):
            raise value
        return value

    def vreg(self, number: int, type: str = "u8", mask: int | str | None = None) -> "Lanes":
        """Vector register `number` as lanes of `type`; with `mask` (a mask register number or "p0"),
        the lanes that mask leaves inactive (read at the type's width) are marked so."""
        etype = dtypes.lookup(type)
        if etype is None:
            raise ValueError(f"unknown type {type!r}")
        values = self.state.vreg[number].view(etype.np_dtype).copy()
        active = None
        label = f"v{number}.{etype.name}"
        if mask is not None:
            m = int(str(mask).lstrip("pP"))
            if not self.state.preg_set[m]:
                raise ValueError(f"p{m} is unset: no instruction has written it")
            bits = np.unpackbits(self.state.preg[m], bitorder="little").astype(bool)
            active = bits[::etype.width][:VL // etype.width]
            label += f" / p{m}"
        return Lanes(label, etype, values, active)

    def __repr__(self) -> str:
        status = "ok" if self.ok else "mismatches in " + ", ".join(n for n, w in self.mismatches.items() if w.size)
        return (f"<ascasm Result of {self.program.filename}: {self.steps} steps, {len(self.warnings)} warnings, "
                f"{status}; buffers {', '.join(self.program.buffers)}>")

    def _repr_html_(self) -> str:
        """Jupyter: a summary line and each buffer as a table of its elements."""
        parts = [f"<p><b>{html.escape(self.program.filename)}</b>: {self.steps} steps"
                 + ("" if self.ok else ", <b>.expect mismatches</b>") + "</p>"]
        parts += [f"<pre>{html.escape(str(w))}</pre>" for w in self.warnings]
        for buf in self.program.buffers.values():
            wrong = self.mismatches.get(buf.name)
            where = f"GM {buf.addr:#x}" if buf.space == "gm" else f"{buf.addr:#x}"
            parts.append(_lane_table(f"{buf.name}: {buf.etype.name}[{buf.count}] @ {where}", buf.etype,
                                     self[buf.name], None, marked=None if wrong is None else wrong))
        return "\n".join(parts)


def _variable(program: Program, state: MachineState, name: str):
    """C++ variable `name` as the state holds it before its next instruction (after the last one at
    the end): its value, or a ValueError saying why it has none there; KeyError if no such variable."""
    if not program.debug.known(name):
        names = sorted({v.name for v in program.debug.variables})
        raise KeyError(f"no C++ variable named {name!r} (variables: {', '.join(names) or 'none'})")
    row = min(state.pc, len(program.insns) - 1)
    try:
        value = evaluate_name(name, Env(program, state, None, Scope(program, row)))
    except ExprError as exc:
        return ValueError(str(exc))
    return np.array(value.data, copy=True) if value.is_array else value.data[()]


@dataclass(frozen=True)
class Stop:
    """A breakpoint reached: the source position of the instruction about to run, the steps done
    before it, and the C++ variables there (`var(NAME)`, as Result.var gives them at the halt; each
    copied when the run got there)."""
    file: str
    line: int
    step: int
    values: dict = field(repr=False)            # name -> value, or the ValueError `var` raises

    def var(self, name: str):
        if name not in self.values:
            names = sorted(self.values)
            raise KeyError(f"no C++ variable named {name!r} (variables: {', '.join(names) or 'none'})")
        value = self.values[name]
        if isinstance(value, ValueError):
            raise value
        return value


def breakpoint_rows(program: Program, breakpoints) -> list[int]:
    """The rows of breakpoints given as LINE (of the file of the program's first instruction, a
    translated kernel's own file) or "FILE:LINE" (a header's line; FILE by its path or last
    components): each line's first row, or that of the next line below that has one."""
    rows = []
    for where in breakpoints:
        name, _colon, line = str(where).rpartition(":")
        file = program.file_named(name) if name else program.insns[0].loc.file if program.insns else None
        if file is None:
            raise ValueError(f"breakpoint {where!r}: no instruction comes from a file {name!r}")
        if not (line.strip().isascii() and line.strip().isdigit()):
            raise ValueError(f"breakpoint {where!r}: write a line number or FILE:LINE")
        found = program.first_row_at(file, int(line))
        if found is None:
            raise ValueError(f"breakpoint {where!r}: no instruction at or after line {line} of {file}")
        rows.append(found[0])
    return rows


def run_stopping(machine: Machine, program: Program, rows) -> list[Stop]:
    """Run `machine` to its end, noting a Stop each time the instruction of one of `rows` is next
    (the engine's stop flags return before them: docs/bytecode.md "Stop flags")."""
    before = np.zeros(len(program.insns), np.uint8)
    before[list(rows)] = 1
    names = sorted({v.name for v in program.debug.variables})
    stops, state = [], machine.state
    machine.set_stop_rows(before, None)
    try:
        while True:
            if state.status == RUNNING and state.pc < len(before) and before[state.pc]:
                loc = program.insns[state.pc].loc
                stops.append(Stop(loc.file, loc.line, state.steps,
                                  {name: _variable(program, state, name) for name in names}))
            if machine.run() != RUNNING:
                return stops
    finally:
        machine.set_stop_rows(None, None)


@dataclass
class Lanes:
    """The lanes of a register view: `values`, and `active` (None: all) for a masked view. A notebook
    shows a lane table with the inactive lanes greyed."""
    label: str
    etype: object
    values: np.ndarray
    active: np.ndarray | None = None

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)

    def __repr__(self) -> str:
        cells = [cell_text(x, self.etype) if self.active is None or self.active[k] else "."
                 for k, x in enumerate(self.values)]
        return f"{self.label}: [{' '.join(cells)}]"

    def _repr_html_(self) -> str:
        return _lane_table(self.label, self.etype, self.values, self.active)


def _lane_table(title: str, etype, values: np.ndarray, active, per_row: int = 16, marked=None) -> str:
    """An HTML table of lanes, 16 per row with the first lane's number; inactive lanes greyed, `marked`
    elements (.expect mismatches) red."""
    shown = min(values.size, HTML_ELEMENTS)
    marked = set() if marked is None else set(np.asarray(marked).tolist())
    rows = []
    for start in range(0, shown, per_row):
        cells = []
        for k in range(start, min(start + per_row, shown)):
            text = html.escape(cell_text(values[k], etype))
            if active is not None and not active[k]:
                cells.append(f'<td style="color:#aaa;background:#eee" title="lane {k}: inactive">{text}</td>')
            elif k in marked:
                cells.append(f'<td style="color:#c00;font-weight:bold" title="{k}: differs from .expect">{text}</td>')
            else:
                cells.append(f'<td title="{k}">{text}</td>')
        rows.append(f'<tr><th style="color:#888">{start}</th>{"".join(cells)}</tr>')
    more = f"<p>... and {values.size - shown} more</p>" if values.size > shown else ""
    return (f'<div><b>{html.escape(title)}</b><table style="font-family:monospace;text-align:right">'
            f'{"".join(rows)}</table>{more}</div>')


def run(program, inputs: dict | None = None, engine: str | None = None, max_steps: int = MAX_STEPS_DEFAULT,
        ub_usable: int = UB_USABLE_DEFAULT, store_inactive: str = "keep", strict: bool = False,
        block: tuple[int, int] = (0, 1), blocks: int = 1, jobs: int = 1) -> Result:
    """Run `program` (a Program, or its text or path for `assemble`) to its end and return a Result.
    `inputs` replaces buffers' initial contents, UB or GM: {name: array}, each array holding exactly the
    buffer's element count, converted to its type (floats round to it; integers must fit). `engine`
    "cy" (default when built) or "ref". `block`: the block index and count `blkidx` and `blknum` read.
    A fault (or the step limit) raises MachineFault, located, with the Result so far as its `result`
    attribute."""
    if not isinstance(program, Program):
        program = assemble(program, ub_usable=ub_usable)
    if blocks != 1 or jobs != 1:
        return _run_blocks(program, inputs, engine or auto_engine(), blocks, jobs, dict(
            ub_usable=ub_usable, max_steps=max_steps, store_inactive=store_inactive, strict=strict))
    machine = Machine(program, engine or auto_engine(), ub_usable, max_steps, store_inactive, strict)
    machine.set_block(*block)
    for name, array in (inputs or {}).items():
        buf = program.buffers.get(name)
        if buf is None:
            raise KeyError(f"no buffer named {name!r} to take an input (buffers: {', '.join(program.buffers)})")
        buf.view(machine.state)[...] = _input_values(name, buf, array)
    machine.run()
    return result_or_fault(machine, Result(program, machine.state))


def _run_blocks(program: Program, inputs, engine: str, count: int, jobs: int, options: dict) -> Result:
    """run() of `count` blocks (docs/api.md "Several blocks"): a GM input is the GM every block shares,
    a UB input is given to every block; the Result is block 0's, `blocks` holds every block's."""
    from .blocks import Blocks, run_parallel, synchronising_line
    if jobs < 1:
        raise ValueError(f"jobs {jobs}: at least 1")
    values = {}
    for name, array in (inputs or {}).items():
        buf = program.buffers.get(name)
        if buf is None:
            raise KeyError(f"no buffer named {name!r} to take an input (buffers: {', '.join(program.buffers)})")
        values[name] = _input_values(name, buf, array)
    if values or jobs == 1 or synchronising_line(program) is not None:
        runner = Blocks(program, count, engine, **options)
        for machine in runner.machines:
            for name, data in values.items():
                program.buffers[name].view(machine.state)[...] = data
        runner.run()
    else:
        runner = run_parallel(program, count, jobs, engine=engine, **options)
    results = [Result(program, state) for state in runner.states]
    result = Result(program, runner.state, results)
    result.steps = runner.steps
    result.warnings = [RunWarning(*w) for w in runner.warnings()]
    result.blocks[0] = result
    fault = runner.fault()
    if fault is not None:
        fault.result = result
        raise fault
    return result


def result_or_fault(machine: Machine, result: Result) -> Result:
    """`result` of the run `machine` has finished; if it stopped at a fault (or the step limit), the
    MachineFault is raised instead, with `result` as its `.result`."""
    fault = machine.fault()
    if fault is not None:
        fault.result = result
        raise fault
    return result


def _input_values(name: str, buf, array) -> np.ndarray:
    values = np.asarray(array).reshape(-1)
    if values.size != buf.count:
        raise ValueError(f"input {name!r}: buffer {name} holds {buf.count} {buf.etype.name} elements, "
                         f"the array has {values.size}")
    target = np.dtype(buf.etype.np_dtype)
    if values.dtype == target:
        return values
    if target.kind in "iu":
        if values.dtype.kind not in "iub":
            raise ValueError(f"input {name!r}: {values.dtype} values for the integer buffer {name} "
                             f"({buf.etype.name}); convert them first")
        info = np.iinfo(target)
        if values.size and (values.min() < info.min or values.max() > info.max):
            raise ValueError(f"input {name!r}: values outside {buf.etype.name}'s {info.min}..{info.max}")
    return values.astype(target)
