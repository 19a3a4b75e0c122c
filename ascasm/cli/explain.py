"""`ascasm explain [MNEMONIC]`: what an instruction (or C-API or Reg API function) does, from the ISA
table; with no name, the list of every instruction."""
from __future__ import annotations

import sys

from .common import EXIT_OK, EXIT_USAGE

HELP = "what an instruction does, from the ISA table"


def add_options(explain):
    explain.add_argument("mnemonic", nargs="?",
                         help="e.g. vsct, vld.brc, asc_and (a C-API name), Reg::Add (a Reg API function; Reg:: lists them); "
                              "none: list every instruction")


def command(args) -> int:
    return explain(args.mnemonic)


def explain(name: str | None) -> int:
    """Print what `name` is (every instruction when None); EXIT_USAGE, with the closest names, when unknown."""
    from ..asm.assembler import closest
    from ..explain import explain_lines, instruction_list, mnemonics_of
    from ..isa import BY_MNEMONIC, regapi
    from ..isa.table import BY_CAPI
    if name is None:
        print("\n".join(instruction_list()))
        return EXIT_OK
    if not mnemonics_of(name):
        close = closest(name, list(BY_MNEMONIC) + list(BY_CAPI) + ["Reg::" + api.name for api in regapi.APIS])
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        print(f"ascasm: error: no instruction or C-API function '{name}'{hint} (docs/isa.md lists them all)",
              file=sys.stderr)
        return EXIT_USAGE
    print("\n".join(explain_lines(name)))
    return EXIT_OK
