"""`ascasm translate KERNEL.cpp --entry E --arg ... -o k.s`: the program `ascasm run k.cpp` runs, as
assembly that `ascasm run k.s` runs the same way (buffers from the same .npy files)."""
from __future__ import annotations

from pathlib import Path

from ..defaults import UB_USABLE_DEFAULT
from ..outputs import OutputRefused, check_outputs
from .common import (EXIT_ASM, EXIT_USAGE, UsageError, error, is_cpp_file, kernel_options, ub_size,
                     write_output)
from .loading import kernel_or_report

HELP = "write a C++ kernel's vector function as ascasm assembly"


def add_options(translate):
    translate.add_argument("file", help="the C++ kernel (.cpp, .asc, .h, ...)")
    kernel_options(translate)
    translate.add_argument("-o", "--output", default="-", metavar="FILE.s",
                           help="where to write the assembly (default -: standard output)")
    translate.add_argument("--ub-usable", type=ub_size, default=UB_USABLE_DEFAULT, metavar="SIZE",
                           help="usable UB bytes the buffers must fit in, e.g. 256K (default 248K)")
    translate.add_argument("--force", action="store_true", help="let -o replace an existing file")


def command(args) -> int:
    if not is_cpp_file(args):
        raise UsageError(args.command_parser, f"translate takes a C++ kernel (.cpp, .asc, .h, ...), not {args.file}")
    from ..cpp import harness
    kernel = kernel_or_report(args)
    if isinstance(kernel, int):
        return kernel
    target = None if args.output == "-" else Path(args.output)
    try:
        text = harness.program_text(kernel.translation, kernel.bindings, (target or Path("-")).parent,
                                    file_inits=True)
        if target is not None:
            check_outputs([target], [Path(args.file), *kernel.program.data_files], args.force)
    except (harness.KernelArgError, OutputRefused) as exc:
        error(str(exc))
        return EXIT_USAGE
    except harness.CppFailed as exc:              # a name the .s cannot hold, seen from -o's directory
        error(str(exc))
        return EXIT_ASM
    return write_output(target, text)
