"""`ascasm stats FILE`: run FILE at engine speed and report what it executed (ascasm/observers/stats.py):
instruction counts, lanes, UB traffic and an estimated cycle count. Ctrl-C reports the statistics of the
steps done so far."""
from __future__ import annotations

import sys

from .common import (EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, error, fault_exit, interrupted_text, kernel_options,
                     machine_options, positive_int, print_json)
from .loading import load_or_report

HELP = "instruction counts, lanes, UB traffic and an estimated cycle count"


def add_options(stats):
    machine_options(stats)
    stats.add_argument("--blocks", type=positive_int, default=None, metavar="N",
                       help="run N blocks (as ascasm run --blocks) and report each block's statistics")
    stats.add_argument("--json", action="store_true", help="print the statistics as one JSON document")
    stats.add_argument("--by-line", action="store_true",
                       help="per source line (a C++ kernel's lines): steps, lanes and instructions, the "
                            "translator's own marked")
    kernel_options(stats)


def command(args) -> int:
    loaded = load_or_report(args)
    if isinstance(loaded, int):
        return loaded
    from ..observers import stats
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
    from ..observers import stats
    from ..blocks import HALTED, MAX_RUN_BLOCKS, Blocks
    from ..state import STOP_NAMES
    if args.blocks > MAX_RUN_BLOCKS:
        error(f"--blocks {args.blocks}: at most {MAX_RUN_BLOCKS}")
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
