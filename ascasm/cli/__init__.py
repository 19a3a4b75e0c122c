"""Command line: `ascasm COMMAND ...`, one module of this package per command.

A command's module holds HELP (its line in `ascasm --help`), add_options(parser) and command(args), which
returns the exit status (common.py lists them). Only the module of the command given is imported, so
that `--version`, a usage error or a short run start at once (bench/startup.py); `--help` and `help`
import them all.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from .. import __version__
from .. import _startup
from .common import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_OUTPUT, EXIT_USAGE, Parser, UsageError

# The commands, in the order `ascasm --help` lists them; each is the module of its name here.
COMMANDS = ("run", "translate", "explain", "stats", "draw", "debug", "dap", "help")


def command_module(name: str):
    return importlib.import_module(f"{__name__}.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only` (a command's name), the top level and that command alone,
    which parses that command's arguments the same way: argparse makes a help formatter for every option
    it adds, and the other commands' options would be most of a short run's parsing time."""
    parser = Parser(prog="ascasm", description="Assembler and interpreter for the Ascend 950 vector-function ISA.")
    parser.add_argument("--version", action="version", version=f"ascasm {__version__}")
    # with one command, the usage line still names them all ({run,translate,...}, from the choices otherwise)
    shown_commands = {} if only is None else {"metavar": "{" + ",".join(COMMANDS) + "}"}
    commands = parser.add_subparsers(dest="command", required=True, parser_class=Parser, **shown_commands)
    for name in COMMANDS:
        if only in (None, name):
            module = command_module(name)
            command = commands.add_parser(name, help=module.HELP)
            module.add_options(command)
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
        try:
            args = build_parser(argv[0] if argv and argv[0] in COMMANDS and argv[0] != "help" else None).parse_args(argv)
            status = command_module(args.command).command(args)
        except UsageError as usage:         # (inside: a --json report of it may meet a closed pipe too)
            status = _usage_error(usage, json_wanted=argv[:1] == ["run"] and "--json" in argv)
        sys.stdout.flush()
        return status
    except KeyboardInterrupt:                      # (a run reports where it was: run.execute())
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


def _usage_error(usage: UsageError, json_wanted: bool) -> int:
    if json_wanted:
        from .common import print_json
        from .report import RunReport, report_json
        print_json(report_json(RunReport(None, exit=EXIT_USAGE, usage_error=f"{usage.parser.prog}: {usage.message}")))
    else:
        usage.parser.print_usage(sys.stderr)
        print(f"{usage.parser.prog}: error: {usage.message}", file=sys.stderr)
    return EXIT_USAGE
