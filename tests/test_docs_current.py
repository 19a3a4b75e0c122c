"""Hand-written reference docs that must follow the code: docs/bytecode.md's machine-state table names
every part of MachineState (the parts the executors compare byte for byte), and its status list names
every stop code with its number."""
from __future__ import annotations

import re
from pathlib import Path

from ascasm.isa.table import STOP_CODES
from ascasm.state import MachineState

BYTECODE_DOC = (Path(__file__).resolve().parents[1] / "docs" / "bytecode.md").read_text()


def test_the_state_table_lists_every_state_part():
    listed = re.findall(r"^\| `(\w+)` \| \w+\[", BYTECODE_DOC, flags=re.MULTILINE)
    assert sorted(listed) == sorted(MachineState.PARTS)


def test_the_status_list_numbers_every_stop_code():
    status_text = BYTECODE_DOC.split("Status codes (`STOP_CODES`):")[1].split("Fault arguments")[0]
    numbered = [int(n) for n in re.findall(r"(\d+) [A-Za-z`]", " ".join(status_text.split()))]
    assert numbered == sorted(STOP_CODES.values())
