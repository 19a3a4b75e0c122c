"""Command line: `ascasm run FILE ...` (more subcommands come with the debugger).

Exit statuses (LANGUAGE.md §5): 0 ok, 1 assembly error, 2 runtime fault, 3 step limit,
4 .expect mismatch, 64 bad command-line usage.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

from .asm.assembler import assemble_file
from .asm.errors import AssemblyFailed
from .program import Buffer, Program
from .state import MAX_STEPS_DEFAULT, UB_SIZE, UB_USABLE_DEFAULT
from .vm import ENGINES, EngineMissing, Machine, auto_engine

EXIT_OK, EXIT_ASM, EXIT_FAULT, EXIT_STEP_LIMIT, EXIT_EXPECT, EXIT_USAGE = 0, 1, 2, 3, 4, 64
SHOWN_MISMATCHES = 10


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def ub_size(text: str) -> int:
    """'248K', '256k', '253952' or '0x3e000' -> bytes, at most 256 KiB."""
    m = re.fullmatch(r"\s*(0x[0-9a-f]+|\d+)\s*(k|kib)?\s*", text.lower())
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 248K or 253952)")
    size = int(m.group(1), 0) * (1024 if m.group(2) else 1)
    if not 0 < size <= UB_SIZE:
        raise argparse.ArgumentTypeError(f"UB size must be 1..{UB_SIZE} bytes, got {size}")
    return size


def positive_int(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="ascasm", description="Assembler and interpreter for the Ascend 950 vector-function ISA.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    run = commands.add_parser("run", help="assemble and run a program")
    run.add_argument("file", help="assembly source (.s)")
    run.add_argument("--engine", choices=ENGINES, default=None,
                     help="cy: the compiled engine (default); ref: the numpy reference executor")
    run.add_argument("--max-steps", type=positive_int, default=MAX_STEPS_DEFAULT, metavar="N",
                     help=f"stop with exit status 3 after N instructions (default {MAX_STEPS_DEFAULT:,})")
    run.add_argument("--dump", action="append", default=[], metavar="NAME[=PATH.npy]",
                     help="save a buffer's final contents as .npy (default NAME.npy); repeatable")
    run.add_argument("--ub-usable", type=ub_size, default=UB_USABLE_DEFAULT, metavar="SIZE",
                     help="usable UB bytes, e.g. 256K (default 248K)")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return run_command(args)


def run_command(args) -> int:
    out, err = sys.stdout, sys.stderr
    path = Path(args.file)
    if not path.is_file():
        print(f"ascasm: error: cannot read {path}: no such file", file=err)
        return EXIT_USAGE
    try:
        program = assemble_file(path, ub_usable=args.ub_usable)
    except AssemblyFailed as failed:
        print(failed, file=err)
        return EXIT_ASM
    dumps = []
    for spec in args.dump:
        name, _, target = spec.partition("=")
        if name not in program.buffers:
            print(f"ascasm: error: --dump {spec}: no buffer named '{name}'", file=err)
            return EXIT_USAGE
        dumps.append((program.buffers[name], Path(target or f"{name}.npy")))
    try:
        machine = Machine(program, args.engine or auto_engine(), args.ub_usable, args.max_steps)
    except EngineMissing as exc:
        print(f"ascasm: error: {exc}", file=err)
        return EXIT_USAGE
    machine.run()
    for buf, target in dumps:
        np.save(target, buf.view(machine.state.ub))
    fault = machine.fault()
    if fault is not None:
        print(fault, file=err)
        return EXIT_STEP_LIMIT if fault.kind == "STEP_LIMIT" else EXIT_FAULT
    for buf in program.outs:
        print(format_buffer(buf, machine.state.ub), file=out)
    return EXIT_EXPECT if report_expectations(program, machine.state.ub, out) else EXIT_OK


def format_buffer(buf: Buffer, ub: np.ndarray, per_line: int = 16) -> str:
    values = buf.view(ub)
    cells = [_element_text(v) for v in values]
    width = max(len(c) for c in cells)
    lines = [f"{buf.name}: {buf.etype.name}[{buf.count}] @ {buf.addr:#x}"]
    for start in range(0, len(cells), per_line):
        row = " ".join(c.rjust(width) for c in cells[start:start + per_line])
        lines.append(f"  [{start:>5}] {row}")
    return "\n".join(lines)


def _element_text(value) -> str:
    return str(value.item()) if value.dtype.kind in "iu" else str(value)


def report_expectations(program: Program, ub: np.ndarray, out) -> int:
    """Compare each .expect bit for bit; print the result; return how many buffers mismatch."""
    failures = 0
    for expectation in program.expects:
        buf = expectation.buffer
        actual = buf.view(ub)
        wrong = np.flatnonzero(actual.view(buf.etype.bits) != expectation.values.view(buf.etype.bits))
        if wrong.size == 0:
            print(f"expect {buf.name}: ok ({buf.count} elements)", file=out)
            continue
        failures += 1
        print(f"expect {buf.name}: {wrong.size} of {buf.count} elements differ ({expectation.loc})", file=out)
        for i in wrong[:SHOWN_MISMATCHES]:
            print(f"  {buf.name}[{i}]: got {_element_text(actual[i])}, expected "
                  f"{_element_text(expectation.values[i])}", file=out)
        if wrong.size > SHOWN_MISMATCHES:
            print(f"  ... and {wrong.size - SHOWN_MISMATCHES} more", file=out)
    return failures


if __name__ == "__main__":
    sys.exit(main())
