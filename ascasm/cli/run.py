"""`ascasm run FILE`: assemble (or translate) and run a program, print its outputs and .expect results,
and optionally dump buffers (--dump), trace each step (--trace) or run several blocks (--blocks)."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from ..limits import TRACE_LIMIT_DEFAULT
from ..outputs import CappedWriter, OutputRefused, TraceLimitReached, check_outputs
from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_OUTPUT, EXIT_STEP_LIMIT, EXIT_EXPECT, EXIT_USAGE, UsageError,
                     byte_size, fault_exit, interrupted_text, kernel_options, machine_options, positive_int,
                     print_json, reject_kernel_options)
from .loading import load
from .report import RunReport, print_report, report_json

HELP = "assemble and run a program"


def add_options(run):
    machine_options(run)
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
    kernel_options(run)
    run.add_argument("--json", action="store_true",
                     help="print a machine-readable report of the run instead of text (docs/cli.md)")


def command(args) -> int:
    reject_kernel_options(args)
    if args.json and args.trace == "-":
        raise UsageError(args.command_parser, "--json and --trace=- both want standard output; give the trace a file")
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


def execute(args) -> RunReport:
    import numpy as np
    from ..vm import run_warnings
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
    from ..blocks import MAX_RUN_BLOCKS, Blocks, run_parallel, synchronising_line
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
    from ..debugger.views import size_text
    from ..observers.trace import write_trace
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
            raise                   # `--trace=- | head`: the dispatcher stops quietly, as for the report itself
        report.exit, report.error = EXIT_OUTPUT, f"cannot write {trace_path or 'standard output'}: {exc.strerror or exc}"
        return False
    return True
