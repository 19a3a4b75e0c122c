"""Regenerate every file derived from the ISA table or the grammar, or check that each is current.

    python tools/regen.py          rewrite them all
    python tools/regen.py --check  exit 1 if any is stale, naming each (the tests run this)

Each generator keeps its own list of the files it writes and is run through its `main`:
tools/gen_tables.py (the engine's decode layer, docs/isa.md), tools/gen_reference.py
(docs/cheatsheet.md, the editors' TextMate grammar, README.md's instruction list),
tools/gen_frontend_table.py (docs/frontend.md's Reg API mapping table), tools/gen_form_cases.py
(docs/frontend.md's ledger of form cases; it also fails when a form or an asc_* function has neither a
case in tests/ nor a reason for having none) and tools/gen_parser.py (the assembler's LALR tables, from
grammar/ascasm.lark). A new generator joins by its path in GENERATORS.
"""
from __future__ import annotations

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GENERATORS = ("tools/gen_tables.py", "tools/gen_reference.py", "tools/gen_frontend_table.py", "tools/gen_form_cases.py",
              "tools/gen_parser.py")


def main(argv: list[str]) -> int:
    mode = ["--check"] if "--check" in argv else []
    failed = [path for path in GENERATORS
              if runpy.run_path(str(ROOT / path), run_name="regen")["main"](mode) != 0]
    if failed:
        print(f"stale: run python tools/regen.py (the check of {', '.join(failed)} failed)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
