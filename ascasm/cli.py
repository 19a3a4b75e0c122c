"""Command line: `ascasm run FILE ...` (more subcommands come with the debugger).

Exit statuses (docs/language.md §9): 0 ok, 1 assembly error, 2 runtime fault, 3 step limit (or trace
limit), 4 .expect mismatch, 64 bad command-line usage, 74 an output could not be written, 130 Ctrl-C.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

# Only light modules here: numpy, the assembler and the executors are imported by the functions that
# use them, so that `--version`, `--help` and a usage error answer at once (bench/startup.py).
from . import __version__
from .asm.errors import AssemblyFailed
from . import _startup
from .defaults import ENGINES, MAX_STEPS_DEFAULT, STORE_INACTIVE, UB_SIZE, UB_USABLE_DEFAULT
from .limits import MAX_NUMBER_DIGITS, MAX_STEPS_LIMIT, TRACE_LIMIT_DEFAULT, parse_size, shown, whole_number
from .outputs import CappedWriter, OutputRefused, TraceLimitReached, check_outputs
from .source import LANGUAGES, format_diagnostic, is_cpp, unreadable

if TYPE_CHECKING:                                      # (annotations only)
    import numpy as np
    from .program import Buffer
    from .vm import MachineFault

EXIT_OK, EXIT_ASM, EXIT_FAULT, EXIT_STEP_LIMIT, EXIT_EXPECT, EXIT_USAGE = 0, 1, 2, 3, 4, 64
EXIT_OUTPUT = 74                # sysexits' EX_IOERR: standard output, a --dump or the trace failed
EXIT_BROKEN_PIPE = 128 + 13     # what a shell reports for a process killed by SIGPIPE
EXIT_INTERRUPTED = _startup.EXIT_INTERRUPTED     # ... and by SIGINT (Ctrl-C)
SHOWN_MISMATCHES = 10


class _UsageError(Exception):
    def __init__(self, parser: argparse.ArgumentParser, message: str):
        super().__init__(message)
        self.parser, self.message = parser, message


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _UsageError(self, message)


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


def _machine_options(command):
    """Options shared by `run` and `debug`: what machine the program runs on."""
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


def _kernel_options(command):
    """Options of `run`, `debug` and `translate` for a C++ kernel (docs/frontend.md)."""
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


def _run_options(run):
    _machine_options(run)
    run.add_argument("--dump", action="append", default=[], metavar="NAME[=PATH]",
                     help="save a buffer's final contents in .npy format to PATH as written (default NAME.npy); "
                          "repeatable")
    run.add_argument("--block-idx", type=int, default=0, metavar="K",
                     help="the block index blkidx gives (asc_get_block_idx; default 0)")
    run.add_argument("--block-num", type=int, default=1, metavar="N",
                     help="the block count blknum gives (asc_get_block_num; default 1)")
    run.add_argument("--blocks", type=positive_int, default=None, metavar="N",
                     help="run N blocks, block index 0..N-1, each with its own UB and registers, all sharing GM "
                          "(docs/semantics.md \"Several cores\")")
    run.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                     help="with --blocks: run blocks that never synchronise across cores in J processes")
    run.add_argument("--trace", default=None, metavar="FILE",
                     help="--trace[=FILE]: write one JSON line per executed instruction to FILE (default "
                          "NAME.trace.jsonl; - is standard output, the report then goes to standard error)")
    run.add_argument("--trace-limit", type=byte_size, default=TRACE_LIMIT_DEFAULT, metavar="SIZE",
                     help=f"stop the run when the trace would pass SIZE bytes, e.g. 1G (default "
                          f"{TRACE_LIMIT_DEFAULT >> 20}M)")
    run.add_argument("--force", action="store_true",
                     help="let --dump and --trace replace existing files (never the program's own inputs)")
    _kernel_options(run)
    run.add_argument("--json", action="store_true",
                     help="print a machine-readable report of the run instead of text (docs/cli.md)")


def _translate_options(translate):
    translate.add_argument("file", help="the C++ kernel (.cpp, .asc, .h, ...)")
    _kernel_options(translate)
    translate.add_argument("-o", "--output", default="-", metavar="FILE.s",
                           help="where to write the assembly (default -: standard output)")
    translate.add_argument("--ub-usable", type=ub_size, default=UB_USABLE_DEFAULT, metavar="SIZE",
                           help="usable UB bytes the buffers must fit in, e.g. 256K (default 248K)")
    translate.add_argument("--force", action="store_true", help="let -o replace an existing file")


def _explain_options(explain):
    explain.add_argument("mnemonic", nargs="?",
                         help="e.g. vsct, vld.brc, asc_and (a C-API name), Reg::Add (a Reg API function; Reg:: lists them); "
                              "none: list every instruction")


def _stats_options(stats):
    _machine_options(stats)
    stats.add_argument("--blocks", type=positive_int, default=None, metavar="N",
                       help="run N blocks (as ascasm run --blocks) and report each block's statistics")
    stats.add_argument("--json", action="store_true", help="print the statistics as one JSON document")
    stats.add_argument("--by-line", action="store_true",
                       help="per source line (a C++ kernel's lines): steps, lanes and instructions, the "
                            "translator's own marked")
    _kernel_options(stats)


def _draw_options(draw):
    _machine_options(draw)
    draw.add_argument("--step", type=positive_int, required=True, metavar="N",
                      help="the step to draw (1 is the first instruction executed)")
    _kernel_options(draw)
    draw.add_argument("-o", "--output", default="-", metavar="FILE.svg",
                      help="where to write the SVG (default -: standard output)")
    draw.add_argument("--force", action="store_true",
                      help="let -o replace an existing file (never the program's own inputs)")


def _debug_options(debug):
    _machine_options(debug)
    debug.add_argument("--history", type=byte_size, default=None, metavar="SIZE",
                       help="memory for reverse execution, e.g. 256M (default 64M)")
    debug.add_argument("--blocks", type=positive_int, default=1, metavar="N",
                       help="N blocks, each with its own machine and history, sharing GM; `block K` selects one")
    _kernel_options(debug)


def _dap_options(dap):
    """(none: the editor's launch request gives the program and its arguments)"""


def _help_options(help_command):
    help_command.add_argument("topic", nargs="?", help="a command (run, debug, ...) or anything explain takes")


# Each command: its help line and what adds its arguments, in the order `ascasm --help` lists them.
COMMANDS = {
    "run": ("assemble and run a program", _run_options),
    "translate": ("write a C++ kernel's vector function as ascasm assembly", _translate_options),
    "explain": ("what an instruction does, from the ISA table", _explain_options),
    "stats": ("instruction counts, lanes, UB traffic and an estimated cycle count", _stats_options),
    "draw": ("picture one step as SVG: lanes, masks, which lane went to which UB address", _draw_options),
    "debug": ("step through a program in the debugger (docs/debugger.md)", _debug_options),
    "dap": ("the debugger for editors: a Debug Adapter Protocol server on stdin/stdout (docs/debugger.md)",
            _dap_options),
    "help": ("this list; help COMMAND: its options; help MNEMONIC: explain it", _help_options),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only` (a command's name), the top level and that command alone,
    which parses that command's arguments the same way: argparse makes a help formatter for every option
    it adds, and the other commands' options would be most of a short run's parsing time."""
    parser = _Parser(prog="ascasm", description="Assembler and interpreter for the Ascend 950 vector-function ISA.")
    parser.add_argument("--version", action="version", version=f"ascasm {__version__}")
    # with one command, the usage line still names them all ({run,translate,...}, from the choices otherwise)
    shown_commands = {} if only is None else {"metavar": "{" + ",".join(COMMANDS) + "}"}
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, **shown_commands)
    for name, (help_text, add_options) in COMMANDS.items():
        if only in (None, name):
            command = commands.add_parser(name, help=help_text)
            add_options(command)
            command.set_defaults(command_parser=command)    # for usage errors found after parsing
    if "help" in commands.choices:          # help prints the other commands' help: it is built with all of them
        commands.choices["help"].set_defaults(main_parser=parser, commands=commands.choices)
    return parser


def main(argv: list[str] | None = None) -> int:
    _startup.end_guard()            # from here on a Ctrl-C is a KeyboardInterrupt, reported below
    argv = sys.argv[1:] if argv is None else list(argv)
    # `--trace` takes its file only as `--trace=FILE`: alone it must not swallow the program's name
    argv = ["--trace=" if arg == "--trace" else arg for arg in argv]
    if sys.stdout is None:          # started with standard output closed: the results would be lost
        print("ascasm: error: standard output is closed", file=sys.stderr)
        return EXIT_OUTPUT
    try:
        status = _dispatch(build_parser(argv[0] if argv and argv[0] in COMMANDS and argv[0] != "help" else None).parse_args(argv))
        sys.stdout.flush()
        return status
    except _UsageError as usage:
        return _usage_error(usage, json_wanted=argv[:1] == ["run"] and "--json" in argv)
    except KeyboardInterrupt:                      # (a run reports where it was: execute())
        print("ascasm: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader went away (`ascasm run x.s | head`): stop quietly, as Unix tools do
        _discard_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:          # a full disk, /dev/full
        _discard_stdout()
        print(f"ascasm: error: cannot write standard output: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_OUTPUT


def _discard_stdout():
    """Point standard output at /dev/null, so that Python's last flush at exit has nowhere to fail."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def _usage_error(usage: _UsageError, json_wanted: bool) -> int:
    if json_wanted:
        report = RunReport(None, exit=EXIT_USAGE, usage_error=f"{usage.parser.prog}: {usage.message}")
        print_json(report_json(report))
    else:
        usage.parser.print_usage(sys.stderr)
        print(f"{usage.parser.prog}: error: {usage.message}", file=sys.stderr)
    return EXIT_USAGE


def _dispatch(args) -> int:
    if args.command == "explain":
        return explain_command(args.mnemonic)
    if args.command == "help":                 # as the debugger's help: a command, else an instruction
        if args.topic is None or args.topic in args.commands:
            (args.commands[args.topic] if args.topic else args.main_parser).print_help()
            return 0
        return explain_command(args.topic)
    if args.command == "dap":
        from .debugger.dap import serve
        return serve()
    if args.command != "explain":
        _reject_kernel_options(args)
    if args.command == "translate":
        return translate_command(args)
    if args.command == "debug":
        if _is_cpp(args):
            return _debug_kernel(args)
        from .debugger import debug_main
        from .blocks import MAX_RUN_BLOCKS
        if args.blocks > MAX_RUN_BLOCKS:
            print(f"ascasm: error: --blocks {args.blocks}: at most {MAX_RUN_BLOCKS}", file=sys.stderr)
            return EXIT_USAGE
        return debug_main(args.file, args.engine, args.ub_usable, args.max_steps, history_cap=args.history,
                          store_inactive=args.store_inactive, strict=args.strict, source_dirs=args.source_dirs,
                          blocks=args.blocks)
    if args.command == "stats":
        return stats_command(args)
    if args.command == "draw":
        return draw_command(args)
    return run_command(args)


def _is_cpp(args) -> bool:
    return is_cpp(args.file, getattr(args, "lang", None))


def _reject_kernel_options(args):
    """--entry, --arg, -D and -I belong to a C++ kernel; with an assembly file they are a usage error."""
    if _is_cpp(args):
        return
    if args.command == "translate":
        raise _UsageError(args.command_parser, f"translate takes a C++ kernel (.cpp, .asc, .h, ...), not {args.file}")
    given = [option for option, value in (("--entry", args.entry), ("--arg", args.arg), ("-D", args.defines),
                                          ("--tiling", getattr(args, "tiling", None)),
                                          ("--tiling-key", getattr(args, "tiling_key", None)),
                                          ("-I", args.include_dirs)) if value]
    if given:
        raise _UsageError(args.command_parser, f"{given[0]} is for C++ kernels; {args.file} is assembly")


def _kernel(args, report: RunReport):
    """Translate args.file's entry and build its program from the --arg options: the harness's Kernel,
    or None with the failure in `report` (usage error 64; C++ or translation error 1)."""
    from .cpp import harness
    path = Path(args.file)
    if unreadable(path):
        report.exit, report.usage_error = EXIT_USAGE, unreadable(path)
        return None
    from .cpp.tiling import TilingError, parse_option
    try:
        given = harness.parse_arg_options(args.arg)
        whole = {} if args.tiling is None and args.tiling_key is None else {    # a whole kernel's tiling
            "tiling": parse_option(args.tiling) if args.tiling is not None else None, "tiling_key": args.tiling_key}
        translation = harness.translate_kernel(path, args.entry, args.defines, args.include_dirs, **whole)
        return harness.build(translation, given, Path("."), args.ub_usable)
    except (harness.KernelArgError, TilingError) as exc:
        report.exit, report.usage_error = EXIT_USAGE, str(exc)
    except harness.CppFailed as exc:
        report.exit, report.errors, report.error = EXIT_ASM, exc.errors, exc.summary
    except harness.LibclangMissing as exc:
        report.exit, report.error = EXIT_ASM, exc.message
    return None


def translate_command(args) -> int:
    """`ascasm translate KERNEL.cpp --entry E --arg ... -o k.s`: the program `ascasm run k.cpp` runs, as
    assembly that `ascasm run k.s` runs the same way (buffers from the same .npy files)."""
    from .cpp import harness
    kernel = _kernel_or_report(args)
    if isinstance(kernel, int):
        return kernel
    target = None if args.output == "-" else Path(args.output)
    try:
        text = harness.program_text(kernel.translation, kernel.bindings, (target or Path("-")).parent,
                                    file_inits=True)
        if target is not None:
            check_outputs([target], [Path(args.file), *kernel.program.data_files], args.force)
    except harness.KernelArgError as exc:
        print(f"ascasm: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OutputRefused as exc:
        print(f"ascasm: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except harness.CppFailed as exc:              # a name the .s cannot hold, seen from -o's directory
        print(f"ascasm: error: {exc}", file=sys.stderr)
        return EXIT_ASM
    if target is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        target.write_text(text)
    except OSError as exc:
        print(f"ascasm: error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_OUTPUT
    return EXIT_OK


def _kernel_or_report(args):
    """The harness's Kernel for args.file, or the exit status after reporting why there is none."""
    report = RunReport(str(args.file))
    kernel = _kernel(args, report)
    if kernel is None:
        print_report(report, sys.stdout, sys.stderr)
        return report.exit
    return kernel


def _debug_kernel(args) -> int:
    from .debugger import debug_program
    kernel = _kernel_or_report(args)
    if isinstance(kernel, int):
        return kernel
    return debug_program(kernel.program, args.engine, args.ub_usable, args.max_steps, history_cap=args.history,
                         store_inactive=args.store_inactive, strict=args.strict)


def load_or_report(args) -> tuple | int:
    """For the tools that run FILE themselves (stats, draw): (program, machine), or the exit status after
    reporting why FILE could not be loaded."""
    report = RunReport(str(args.file))
    loaded = load(args, report)
    if loaded is None:
        print_report(report, sys.stdout, sys.stderr)
        return report.exit
    return loaded


def fault_exit(fault: MachineFault) -> int:
    return EXIT_STEP_LIMIT if fault.kind == "STEP_LIMIT" else EXIT_FAULT


def stats_command(args) -> int:
    """`ascasm stats FILE`: run FILE at engine speed and report what it executed (ascasm/observers/stats.py);
    Ctrl-C reports the statistics of the steps done so far."""
    from .observers import stats
    loaded = load_or_report(args)
    if isinstance(loaded, int):
        return loaded
    program, machine = loaded
    progress = _progress_line if sys.stderr.isatty() else None
    if args.blocks is not None:
        return _stats_of_blocks(args, program, machine.engine, progress)
    collected, interrupted = stats.collect(program, machine, progress)
    if progress is not None:
        sys.stderr.write("\r\033[K")                      # clear the progress line
    fault = None if interrupted else machine.fault()
    if interrupted:
        stop = interrupted_text(program, machine.state)
        print(f"ascasm: {stop}", file=sys.stderr)
    elif fault is None:
        stop = "halted"
    else:
        stop = f"stopped by {fault.kind.lower().replace('_', ' ')} at step {fault.step}"
        print(fault, file=sys.stderr)
    if args.json:
        report = stats.stats_json(program, collected, stop, args.file)
        if args.by_line:
            report["lines"] = stats.by_line_json(program, collected)
        print_json(report)
    elif args.by_line:
        print("\n".join(stats.by_line_lines(program, collected, stop, args.file)))
    else:
        print("\n".join(stats.report_lines(program, collected, stop, args.file)))
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_OK if fault is None else fault_exit(fault)


def _stats_of_blocks(args, program, engine: str, progress) -> int:
    """`ascasm stats --blocks N`: each block's statistics, run in the schedule of `run --blocks`."""
    from .observers import stats
    from .blocks import HALTED, MAX_RUN_BLOCKS, Blocks
    from .state import STOP_NAMES
    if args.blocks > MAX_RUN_BLOCKS:
        print(f"ascasm: error: --blocks {args.blocks}: at most {MAX_RUN_BLOCKS}", file=sys.stderr)
        return EXIT_USAGE
    blocks = Blocks(program, args.blocks, engine, args.ub_usable, args.max_steps, args.store_inactive, args.strict)
    collected, interrupted = stats.collect_blocks(program, blocks, progress)
    if progress is not None:
        sys.stderr.write("\r\033[K")
    fault = None if interrupted else blocks.fault()
    if interrupted:
        print(f"ascasm: {interrupted_text(program, blocks.state)}", file=sys.stderr)
    elif fault is not None:
        print(fault, file=sys.stderr)
    stops = [("interrupted" if interrupted else "halted" if state.status == HALTED
              else f"stopped ({STOP_NAMES[state.status].lower().replace('_', ' ')})") for state in blocks.states]
    name = f"{args.file}"
    if args.json:
        print_json({"file": name, "blocks": [stats.stats_json(program, one, stop, f"{name} block {k}")
                                             for k, (one, stop) in enumerate(zip(collected, stops))]})
    else:
        print("\n\n".join("\n".join(stats.report_lines(program, one, stop, f"{name} block {k}"))
                          for k, (one, stop) in enumerate(zip(collected, stops))))
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_OK if fault is None else fault_exit(fault)


def _progress_line(steps: int):
    sys.stderr.write(f"\r\033[Kascasm: {steps:,} steps so far (Ctrl-C stops and reports them)")
    sys.stderr.flush()


def draw_command(args) -> int:
    """`ascasm draw FILE --step N -o OUT.svg` (ascasm/observers/draw.py); -o follows run's output rules."""
    from .observers import draw
    loaded = load_or_report(args)
    if isinstance(loaded, int):
        return loaded
    program, machine = loaded
    target = None if args.output == "-" else Path(args.output)
    try:
        if target is not None:
            check_outputs([target], [Path(args.file), *program.data_files], args.force)
        svg = draw.draw_step(program, machine, args.step)
    except (OutputRefused, ValueError) as exc:
        print(f"ascasm: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if target is None:
        sys.stdout.write(svg)
    else:
        try:
            target.write_text(svg)
        except OSError as exc:
            print(f"ascasm: error: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_OUTPUT
    fault = machine.fault()
    if fault is not None:
        print(fault, file=sys.stderr)
    return EXIT_OK if fault is None else fault_exit(fault)


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


def explain_command(name: str | None) -> int:
    from .asm.assembler import closest
    from .explain import explain_lines, instruction_list, mnemonics_of
    from .isa import BY_MNEMONIC, regapi
    from .isa.table import BY_CAPI
    if name is None:
        print("\n".join(instruction_list()))
        return EXIT_OK
    if not mnemonics_of(name):
        close = closest(name, list(BY_MNEMONIC) + list(BY_CAPI) + ["Reg::" + api.name for api in regapi.APIS])
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        print(f"ascasm: error: no instruction or C-API function '{name}'{hint} (docs/isa.md lists them all)",
              file=sys.stderr)
        return EXIT_USAGE
    print("\n".join(explain_lines(name)))
    return EXIT_OK


def run_command(args) -> int:
    if args.json and args.trace == "-":
        raise _UsageError(args.command_parser, "--json and --trace=- both want standard output; give the trace a file")
    report = execute(args)
    if args.json:
        print_json(report_json(report))
    else:                                  # (--trace=-: standard output carries the trace alone)
        print_report(report, sys.stderr if args.trace == "-" else sys.stdout, sys.stderr)
        if report.exit == EXIT_OK and not report.outputs and not report.expects and args.trace != "-":
            print(success_line(report))    # a run that prints nothing else says it ran
    return report.exit


def success_line(report: RunReport) -> str:
    warned = len(report.warnings)
    return (f"{Path(report.file).name}: halted after {report.steps:,} instruction{'s' * (report.steps != 1)}"
            + (f" ({warned} warning{'s' * (warned != 1)} above)" if warned else ""))


def load(args, report: RunReport) -> tuple | None:
    """Assemble args.file and load it into a machine as the machine options ask: (program, machine),
    or None with the failure (unreadable file, assembly errors, no engine) in `report`."""
    from .asm.assembler import assemble_file
    from .vm import EngineMissing, Machine, auto_engine
    path = Path(args.file)
    if unreadable(path):
        report.exit, report.usage_error = EXIT_USAGE, unreadable(path)
        return None
    if _is_cpp(args):
        kernel = _kernel(args, report)
        if kernel is None:
            return None
        program, report.dumpable = kernel.program, kernel.param_buffers
    else:
        try:
            program = assemble_file(path, ub_usable=args.ub_usable, source_dirs=args.source_dirs)
        except AssemblyFailed as failed:
            report.exit, report.errors, report.errors_truncated = EXIT_ASM, failed.errors, failed.truncated
            return None
    try:
        return program, Machine(program, args.engine or auto_engine(), args.ub_usable, args.max_steps,
                                args.store_inactive, args.strict)
    except EngineMissing as exc:
        report.exit, report.usage_error = EXIT_USAGE, str(exc)
        return None


def execute(args) -> RunReport:
    import numpy as np
    from .vm import run_warnings
    report = RunReport(str(args.file))
    loaded = load(args, report)
    if loaded is None:
        return report
    program, machine = loaded
    try:
        machine.set_block(args.block_idx, args.block_num)
    except ValueError as exc:
        report.exit, report.usage_error = EXIT_USAGE, f"--block-idx/--block-num: {exc}"
        return report
    if args.blocks is not None or args.jobs > 1:
        machine = _blocks(args, report, program, machine.engine)
        if machine is None:
            return report
    path = Path(args.file)
    dumps = []
    buffers = program.buffers if report.dumpable is None else report.dumpable
    for spec in args.dump:
        name, _, target = spec.partition("=")
        if name not in buffers:
            what = "pointer parameter" if report.dumpable else "buffer"
            report.exit, report.usage_error = EXIT_USAGE, (f"--dump {spec}: no {what} named '{name}' "
                                                           f"({', '.join(buffers) or 'none'})")
            return report
        dumps.append((buffers[name], Path(target or f"{name}.npy")))
    trace_path = None if args.trace in (None, "-") else Path(args.trace or f"{path.stem}.trace.jsonl")
    try:
        check_outputs([target for _buf, target in dumps] + ([trace_path] if trace_path else []),
                      [path, *program.data_files], args.force)
    except OutputRefused as exc:
        report.exit, report.usage_error = EXIT_USAGE, str(exc)
        return report
    try:
        if args.trace is None:
            machine.run()
        elif not _run_traced(report, program, machine, trace_path, args.trace_limit) and not report.trace_limited:
            return report                                    # the trace could not be written
    except KeyboardInterrupt:
        report.exit, report.interrupted = EXIT_INTERRUPTED, interrupted_text(program, machine.state)
    report.steps, report.state = getattr(machine, "steps", machine.state.steps), machine.state
    report.warnings = (machine.warnings() if hasattr(machine, "warnings") else run_warnings(program, machine.state))
    for buf, target in dumps:
        try:
            with target.open("wb") as dump_file:
                np.save(dump_file, buf.view(machine.state))
        except OSError as exc:
            report.exit, report.error = EXIT_OUTPUT, f"cannot write {target}: {exc.strerror or exc}"
            return report
    if report.interrupted or report.trace_limited:
        return report
    report.fault = machine.fault()
    if report.fault is not None:
        report.exit = fault_exit(report.fault)
        return report
    report.outputs = program.outs
    for expectation in program.expects:
        report.expects.append((expectation, expectation.buffer.view(machine.state),
                               expectation.mismatches(machine.state)))
    if any(wrong.size for _e, _a, wrong in report.expects):
        report.exit = EXIT_EXPECT
    return report


def _blocks(args, report: RunReport, program, engine: str):
    """The Blocks of --blocks (run in --jobs processes when they never synchronise), or None with the
    report's usage error."""
    from .blocks import MAX_RUN_BLOCKS, Blocks, run_parallel, synchronising_line
    count = args.blocks or 1
    if args.block_idx != 0 or args.block_num != 1 or args.trace is not None or count > MAX_RUN_BLOCKS:
        report.exit = EXIT_USAGE
        report.usage_error = (f"--blocks {count}: at most {MAX_RUN_BLOCKS}" if count > MAX_RUN_BLOCKS else
                              "--blocks sets each block's index and count: not with --block-idx, --block-num or "
                              "--trace")
        return None
    options = dict(engine=engine, ub_usable=args.ub_usable, max_steps=args.max_steps,
                   store_inactive=args.store_inactive, strict=args.strict)
    line = synchronising_line(program)
    if args.jobs > 1 and line is None:
        return _Finished(run_parallel(program, count, args.jobs, **options))
    if args.jobs > 1:
        print(f"ascasm: note: --jobs {args.jobs}: the blocks synchronise across cores (line {line}), so they "
              "run in one process", file=sys.stderr)
    return Blocks(program, count, **options)


class _Finished:
    """A Blocks run already finished (by run_parallel): run() does nothing more."""

    def __init__(self, blocks):
        self.blocks = blocks

    def run(self):
        pass

    def __getattr__(self, name):
        return getattr(self.blocks, name)


def _run_traced(report: RunReport, program, machine, trace_path: Path | None, limit: int) -> bool:
    """Run `machine` writing its trace (to standard output when trace_path is None); False (with the
    report filled in) when writing failed or the trace limit stopped the run."""
    from .debugger.views import size_text
    from .observers.trace import write_trace
    try:
        with (open(os.dup(sys.stdout.fileno()), "w") if trace_path is None else trace_path.open("w")) as trace_file:
            writer = CappedWriter(trace_file, limit)
            try:
                write_trace(program, machine, writer)
            except TraceLimitReached:
                report.exit, report.trace_limited = EXIT_STEP_LIMIT, True
                report.error = (f"the trace reached --trace-limit ({size_text(limit)}): "
                                f"{trace_path or 'standard output'} holds the first {writer.lines:,} steps and "
                                f"the run was stopped there")
                return False
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) and trace_path is None:
            raise                   # `--trace=- | head`: main() stops quietly, as for the report itself
        report.exit, report.error = EXIT_OUTPUT, f"cannot write {trace_path or 'standard output'}: {exc.strerror or exc}"
        return False
    return True


def interrupted_text(program, state) -> str:
    """Where Ctrl-C stopped a run: the steps done and the line of the next instruction."""
    pc = min(state.pc, len(program.insns) - 1)
    line = f", line {program.insns[pc].loc.line}" if pc >= 0 else ""
    return f"interrupted at step {state.steps}{line}"


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
            print(f"  {buf.name}[{i}]: got {_element_text(actual[i])}, expected "
                  f"{_element_text(expectation.values[i])}", file=out)
        if wrong.size > SHOWN_MISMATCHES:
            print(f"  ... and {wrong.size - SHOWN_MISMATCHES} more", file=out)


def print_json(document):
    """Print a --json document (json is imported here: a run without --json does without it)."""
    import json
    print(json.dumps(document, indent=1))


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
                     "first": [{"index": int(i), "got": _element_text(actual[i]),
                                "expected": _element_text(e.values[i])} for i in wrong[:SHOWN_MISMATCHES]]}
                    for e, actual, wrong in report.expects],
        "outputs": {buf.name: [_element_text(v) for v in buf.view(report.state)] for buf in report.outputs},
    }


def format_buffer(buf: Buffer, memory, per_line: int = 16) -> str:
    values = buf.view(memory)
    cells = [_element_text(v) for v in values]
    width = max(len(c) for c in cells)
    lines = [f"{buf.name}: {buf.etype.name}[{buf.count}] @ {'GM ' if buf.space == 'gm' else ''}{buf.addr:#x}"]
    for start in range(0, len(cells), per_line):
        row = " ".join(c.rjust(width) for c in cells[start:start + per_line])
        lines.append(f"  [{start:>5}] {row}")
    return "\n".join(lines)


def _element_text(value) -> str:
    """An element as text: integers exactly, floats as the shortest decimal that reads back to the same
    value of their type (f16 2050 prints as 2050, not numpy's 2.05e+03)."""
    if value.dtype.kind in "iu":
        return str(value.item())
    from .formatting import float_text          # (an integer run does without it)
    return float_text(value, value.dtype)


if __name__ == "__main__":
    sys.exit(main())
