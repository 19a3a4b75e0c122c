"""`ascasm dap`: the debugger for editors, a Debug Adapter Protocol server on standard input and output
(docs/debugger.md). It takes no options: the editor's launch request names the program and its arguments."""
from __future__ import annotations

HELP = "the debugger for editors: a Debug Adapter Protocol server on stdin/stdout (docs/debugger.md)"


def add_options(dap):
    """(none)"""


def command(args) -> int:
    from ..debugger.dap import serve
    return serve()
