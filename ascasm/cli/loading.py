"""FILE, assembly or a C++ kernel, assembled and loaded into a machine as the command's options ask;
what went wrong goes into a RunReport (exit status and message), never a traceback."""
from __future__ import annotations

import sys
from pathlib import Path

from ..asm.errors import AssemblyFailed
from ..source import unreadable
from .common import EXIT_ASM, EXIT_USAGE, is_cpp_file, reject_kernel_options
from .report import RunReport, print_report


def load(args, report: RunReport) -> tuple | None:
    """Assemble args.file and load it into a machine as the machine options ask: (program, machine),
    or None with the failure (unreadable file, assembly errors, no engine) in `report`."""
    from ..asm.assembler import assemble_file
    from ..vm import EngineMissing, Machine, auto_engine
    path = Path(args.file)
    if unreadable(path):
        report.exit, report.usage_error = EXIT_USAGE, unreadable(path)
        return None
    if is_cpp_file(args):
        kernel = load_kernel(args, report)
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


def load_kernel(args, report: RunReport):
    """Translate args.file's entry and build its program from the --arg options: the harness's Kernel,
    or None with the failure in `report` (usage error 64; C++ or translation error 1)."""
    from ..cpp import harness
    path = Path(args.file)
    if unreadable(path):
        report.exit, report.usage_error = EXIT_USAGE, unreadable(path)
        return None
    from ..cpp.tiling import TilingError, parse_option
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


def _or_report(loader, args):
    """loader(args, report)'s result, or the exit status after printing why there is none."""
    report = RunReport(str(args.file))
    loaded = loader(args, report)
    if loaded is None:
        print_report(report, sys.stdout, sys.stderr)
        return report.exit
    return loaded


def load_or_report(args) -> tuple | int:
    """For the tools that run FILE themselves (stats, draw): (program, machine), or the exit status after
    reporting why FILE could not be loaded (a C++ option with an assembly FILE is a usage error, raised)."""
    reject_kernel_options(args)
    return _or_report(load, args)


def kernel_or_report(args):
    """The harness's Kernel for args.file, or the exit status after reporting why there is none."""
    return _or_report(load_kernel, args)
