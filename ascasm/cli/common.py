"""What the commands share: exit statuses, the argument parser and its usage error, option value types,
the machine and C++ kernel option groups, and one-line error messages.

Exit statuses (docs/language.md §9): 0 ok, 1 assembly error, 2 runtime fault, 3 step limit (or trace
limit), 4 .expect mismatch, 64 bad command-line usage, 74 an output could not be written, 130 Ctrl-C.
Only light modules here: every command's start-up imports this one.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .. import _startup
from ..defaults import ENGINES, MAX_STEPS_DEFAULT, STORE_INACTIVE, UB_SIZE, UB_USABLE_DEFAULT
from ..limits import MAX_NUMBER_DIGITS, MAX_STEPS_LIMIT, parse_size, shown, whole_number
from ..source import LANGUAGES, is_cpp

if TYPE_CHECKING:                                      # (annotations only)
    from ..vm import MachineFault

EXIT_OK, EXIT_ASM, EXIT_FAULT, EXIT_STEP_LIMIT, EXIT_EXPECT, EXIT_USAGE = 0, 1, 2, 3, 4, 64
EXIT_OUTPUT = 74                # sysexits' EX_IOERR: standard output, a --dump or the trace failed
EXIT_BROKEN_PIPE = 128 + 13     # what a shell reports for a process killed by SIGPIPE
EXIT_INTERRUPTED = _startup.EXIT_INTERRUPTED     # ... and by SIGINT (Ctrl-C)


class UsageError(Exception):
    def __init__(self, parser: argparse.ArgumentParser, message: str):
        super().__init__(message)
        self.parser, self.message = parser, message


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(self, message)


def error(message: str):
    """An error the command reports itself (its exit status says which kind)."""
    print(f"ascasm: error: {message}", file=sys.stderr)


def ub_size(text: str) -> int:
    """'248K', '256k', '253952' or '0x3e000' -> bytes, at most 256 KiB."""
    m = re.fullmatch(r"\s*(0x[0-9a-f]+|\d+)\s*(k|kib)?\s*", text.lower())
    size = whole_number(m.group(1), 0) if m else None
    if size is None:
        raise argparse.ArgumentTypeError(f"not a size: {shown(text)!r} (try 248K or 253952)")
    size *= 1024 if m.group(2) else 1
    if not 0 < size <= UB_SIZE:
        raise argparse.ArgumentTypeError(f"UB size must be 1..{UB_SIZE} bytes, got {size}")
    return size


def positive_int(text: str) -> int:
    value = whole_number(text, 0)
    if value is None:
        why = f"longer than {MAX_NUMBER_DIGITS} characters" if len(text) > MAX_NUMBER_DIGITS else "not an integer"
        raise argparse.ArgumentTypeError(f"{why}: {shown(text)!r}")
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {value}")
    return value


def step_limit(text: str) -> int:
    value = positive_int(text)
    if value > MAX_STEPS_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {MAX_STEPS_LIMIT} (2^63 - 1)")
    return value


def byte_size(text: str) -> int:
    """'256M', '1G', '4096' -> bytes (--history, --trace-limit)."""
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def machine_options(command):
    """Options of the commands that run FILE: what machine the program runs on."""
    command.add_argument("file", help="assembly source (.s), or a C++ kernel (.cpp, .asc, .h, ...: docs/frontend.md)")
    command.add_argument("--lang", choices=LANGUAGES, default=None,
                         help="read the file as C++ or assembly (default: by its suffix, else by its content)")
    command.add_argument("--engine", choices=ENGINES, default=None,
                         help="cy: the compiled engine (default); ref: the numpy reference executor")
    command.add_argument("--max-steps", type=step_limit, default=MAX_STEPS_DEFAULT, metavar="N",
                         help=f"stop with exit status 3 after N instructions (default {MAX_STEPS_DEFAULT:,})")
    command.add_argument("--ub-usable", type=ub_size, default=UB_USABLE_DEFAULT, metavar="SIZE",
                         help="usable UB bytes, e.g. 256K (default 248K)")
    command.add_argument("--store-inactive", choices=STORE_INACTIVE, default="keep",
                         help="keep: inactive lanes of masked stores write nothing (default); zero: they write 0")
    command.add_argument("--strict", action="store_true",
                         help="treat warnings (duplicate scatter indices, missing membar) as runtime faults")
    command.add_argument("--source-dir", dest="source_dirs", action="append", default=[], metavar="DIR",
                         help="a directory whose files .loc lines may show (besides the program's own); repeatable")


def kernel_options(command):
    """Options for a C++ kernel (docs/frontend.md), of the commands that take one."""
    command.add_argument("--entry", default=None, metavar="E",
                         help="C++ only: the vector function (Name, Name<float, 4>), Name#K (K-th __VEC_SCOPE__ "
                              "in Name) or @LINE; default: the file's only one")
    command.add_argument("--arg", action="append", default=[], metavar="NAME=SPEC",
                         help="C++ only: a parameter's argument: FILE.npy, TYPE[COUNT], @OTHER (in place), each "
                              "optionally @+BYTES (@OTHER+BYTES); a number for a scalar. Repeat per parameter")
    command.add_argument("--tiling", default=None, metavar="FILE.json|F=V,...",
                         help="C++ whole kernels only: the tiling struct's field values by name (GET_TILING_DATA)")
    command.add_argument("--tiling-key", dest="tiling_key", type=int, default=None, metavar="K",
                         help="C++ whole kernels only: the tiling key TILING_KEY_IS compares with")
    command.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                         help="C++ only: a preprocessor macro")
    command.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                         help="C++ only: a directory of included headers")


def is_cpp_file(args) -> bool:
    return is_cpp(args.file, getattr(args, "lang", None))


def reject_kernel_options(args):
    """--entry, --arg, -D and -I belong to a C++ kernel; with an assembly file they are a usage error."""
    if is_cpp_file(args):
        return
    given = [option for option, value in (("--entry", args.entry), ("--arg", args.arg), ("-D", args.defines),
                                          ("--tiling", getattr(args, "tiling", None)),
                                          ("--tiling-key", getattr(args, "tiling_key", None)),
                                          ("-I", args.include_dirs)) if value]
    if given:
        raise UsageError(args.command_parser, f"{given[0]} is for C++ kernels; {args.file} is assembly")


def write_output(target: Path | None, text: str) -> int:
    """`text` to standard output (target None) or to the file -o named: EXIT_OK, or EXIT_OUTPUT reported."""
    if target is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        target.write_text(text)
    except OSError as exc:
        error(f"cannot write {target}: {exc.strerror or exc}")
        return EXIT_OUTPUT
    return EXIT_OK


def fault_exit(fault: MachineFault) -> int:
    return EXIT_STEP_LIMIT if fault.kind == "STEP_LIMIT" else EXIT_FAULT


def interrupted_text(program, state) -> str:
    """Where Ctrl-C stopped a run: the steps done and the line of the next instruction."""
    pc = min(state.pc, len(program.insns) - 1)
    line = f", line {program.insns[pc].loc.line}" if pc >= 0 else ""
    return f"interrupted at step {state.steps}{line}"


def print_json(document):
    """Print a --json document (json is imported here: a run without --json does without it)."""
    import json
    print(json.dumps(document, indent=1))
