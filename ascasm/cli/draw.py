"""`ascasm draw FILE --step N -o OUT.svg`: one step as SVG (ascasm/observers/draw.py): lanes, masks, which
lane went to which UB address. -o follows run's output rules."""
from __future__ import annotations

import sys
from pathlib import Path

from ..outputs import OutputRefused, check_outputs
from .common import EXIT_OK, EXIT_USAGE, error, fault_exit, kernel_options, machine_options, positive_int, write_output
from .loading import load_or_report

HELP = "picture one step as SVG: lanes, masks, which lane went to which UB address"


def add_options(draw):
    machine_options(draw)
    draw.add_argument("--step", type=positive_int, required=True, metavar="N",
                      help="the step to draw (1 is the first instruction executed)")
    kernel_options(draw)
    draw.add_argument("-o", "--output", default="-", metavar="FILE.svg",
                      help="where to write the SVG (default -: standard output)")
    draw.add_argument("--force", action="store_true",
                      help="let -o replace an existing file (never the program's own inputs)")


def command(args) -> int:
    loaded = load_or_report(args)
    if isinstance(loaded, int):
        return loaded
    from ..observers import draw
    program, machine = loaded
    target = None if args.output == "-" else Path(args.output)
    try:
        if target is not None:
            check_outputs([target], [Path(args.file), *program.data_files], args.force)
        svg = draw.draw_step(program, machine, args.step)
    except (OutputRefused, ValueError) as exc:
        error(str(exc))
        return EXIT_USAGE
    written = write_output(target, svg)
    if written != EXIT_OK:
        return written
    fault = machine.fault()
    if fault is not None:
        print(fault, file=sys.stderr)
    return EXIT_OK if fault is None else fault_exit(fault)
