"""`ascasm debug FILE`: step through a program (or a C++ kernel's vector function) in the debugger
(docs/debugger.md)."""
from __future__ import annotations

from .common import (EXIT_USAGE, byte_size, error, is_cpp_file, kernel_options, machine_options, positive_int,
                     reject_kernel_options)
from .loading import kernel_or_report

HELP = "step through a program in the debugger (docs/debugger.md)"


def add_options(debug):
    machine_options(debug)
    debug.add_argument("--history", type=byte_size, default=None, metavar="SIZE",
                       help="memory for reverse execution, e.g. 256M (default 64M)")
    debug.add_argument("--blocks", type=positive_int, default=1, metavar="N",
                       help="N blocks, each with its own machine and history, sharing GM; `block K` selects one")
    kernel_options(debug)


def command(args) -> int:
    reject_kernel_options(args)
    if is_cpp_file(args):
        return _debug_kernel(args)
    from ..debugger import debug_main
    from ..blocks import MAX_RUN_BLOCKS
    if args.blocks > MAX_RUN_BLOCKS:
        error(f"--blocks {args.blocks}: at most {MAX_RUN_BLOCKS}")
        return EXIT_USAGE
    return debug_main(args.file, args.engine, args.ub_usable, args.max_steps, history_cap=args.history,
                      store_inactive=args.store_inactive, strict=args.strict, source_dirs=args.source_dirs,
                      blocks=args.blocks)


def _debug_kernel(args) -> int:
    from ..debugger import debug_program
    kernel = kernel_or_report(args)
    if isinstance(kernel, int):
        return kernel
    return debug_program(kernel.program, args.engine, args.ub_usable, args.max_steps, history_cap=args.history,
                         store_inactive=args.store_inactive, strict=args.strict)
