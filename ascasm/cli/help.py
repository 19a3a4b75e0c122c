"""`ascasm help [TOPIC]`: as the debugger's help, a command's options, else what explain says of TOPIC."""
from __future__ import annotations

from .common import EXIT_OK

HELP = "this list; help COMMAND: its options; help MNEMONIC: explain it"


def add_options(help_command):
    help_command.add_argument("topic", nargs="?", help="a command (run, debug, ...) or anything explain takes")


def command(args) -> int:
    # (build_parser gives this command the whole parser and every command's, to print their help)
    if args.topic is None or args.topic in args.commands:
        (args.commands[args.topic] if args.topic else args.main_parser).print_help()
        return EXIT_OK
    from .explain import explain
    return explain(args.topic)
