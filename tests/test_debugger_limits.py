"""The debugger's expressions are bounded like the assembler's (ascasm/limits.py): a deeply nested or
very long expression and a huge or malformed number are one clear error line, and the session goes on."""
import io

import pytest

from ascasm import assemble
from ascasm.debugger import Debugger
from ascasm.limits import MAX_INT_BITS, MAX_NESTING

PROGRAM = ".ub out u16[16]\n    mov s0, 5\n    halt\n"


def printed(command: str) -> list[str]:
    """What `command` printed, between its prompt and the next one."""
    out = io.StringIO()
    debugger = Debugger(assemble(PROGRAM, "t.s"), "cy", stdin=io.StringIO(f"{command}\np s0\n"), stdout=out)
    debugger.cmdloop()
    chunk = out.getvalue().split(f"(ascasm) {command}\n", 1)[1]
    lines = chunk.split("(ascasm) ", 1)[0].splitlines()
    assert "(ascasm) p s0\ns0 = 0" in out.getvalue()       # the session goes on
    return lines


@pytest.mark.parametrize("expression", [
    "(" * 200 + "1" + ")" * 200,
    "-" * 2000 + "1",
    "1" + " + 1" * 3000,
    "not " * 2000 + "1",
])
def test_deep_expressions(expression):
    assert printed(f"p {expression}") == [
        f"error: expression deeper than {MAX_NESTING} levels of operators and parentheses"]


@pytest.mark.parametrize("number, message", [
    ("9" * 5000, f"is wider than {MAX_INT_BITS} bits"),
    ("0x" + "f" * 5000, f"is wider than {MAX_INT_BITS} bits"),
    ("0x_", "malformed number '0x_'"),
    ("1e400", "overflows"),
])
def test_numbers(number, message):
    (line,) = printed(f"p {number}")
    assert line.startswith("error: ") and message in line and len(line) < 300


def test_moderate_expressions_still_work():
    assert printed("p " + "(" * 30 + "2 * 3" + ")" * 30) == ["2 * 3 = 6"]
