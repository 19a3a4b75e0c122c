"""`ascasm debug FILE`: a gdb/pdb-like step debugger over the engine's own dispatch loop.

- `commands`: the command shell (cmd.Cmd), argument parsing, help; `debug_main`.
- `control`: run control: the machine and its Recorder, step/continue/until, back/rc, breakpoints
  and watches.
- `views`: what is printed: locations, registers, listings, disassembly, `why` answers.
Docs: docs/debugger.md.
"""
from .commands import Debugger, debug_main, debug_program, parse_size

__all__ = ["Debugger", "debug_main", "debug_program", "parse_size"]
