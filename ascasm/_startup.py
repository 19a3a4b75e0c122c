"""Ctrl-C while the command-line tool is still starting (importing its modules) ends it as a Ctrl-C
during a run does: one line on standard error and exit status 130, never an import traceback.
Installed first thing by the package when the process is the `ascasm` command (or `python -m ascasm`);
cli.main puts Python's own handler back once it is running and can report the interrupt itself."""
from __future__ import annotations

import os
import signal
import sys

EXIT_INTERRUPTED = 128 + 2      # what a shell reports for a process killed by SIGINT


def _interrupted_while_starting(signum, frame):
    print("ascasm: interrupted", file=sys.stderr)
    raise SystemExit(EXIT_INTERRUPTED)


def guard_start():
    """Install the handler if this process is the tool (argv[0] is the `ascasm` script, or "-m" while
    `python -m ascasm` imports the package); a program that imports ascasm keeps its own handler."""
    if os.path.basename(sys.argv[0] if sys.argv else "") in ("ascasm", "-m") and \
            signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted_while_starting)


def end_guard():
    """Python's handler again (KeyboardInterrupt), if the start guard is still installed."""
    if signal.getsignal(signal.SIGINT) is _interrupted_while_starting:
        signal.signal(signal.SIGINT, signal.default_int_handler)
