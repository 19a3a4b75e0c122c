"""The debugger's expressions are bounded like the assembler's (ascasm/limits.py): a deeply nested or
very long expression and a huge or malformed number are one clear error line, and the session goes on."""
import io

import pytest

from ascasm import assemble
from ascasm.debugger import Debugger
from ascasm.limits import MAX_INT_BITS, MAX_NESTING, MAX_SHOWN_TOKEN

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


NINES, LETTERS = "9" * 5000, "q" * 5000


@pytest.mark.parametrize("command, message", [
    (f"x/{NINES}xh 0", "error: x: the count 999"),
    (f"history {NINES}", "error: not a size: '999"),
    (f"s {NINES}", "usage: step [N] (N a positive number, not '999"),
    (f"back {NINES}", "usage: back [N] (N a positive number, not '999"),
    (f"b {NINES}", "error: '999"),
    (f"d {NINES}", "no breakpoint or watch number 999"),
    (f"undisplay {NINES}", "no display number 999"),
    (f"p {LETTERS}", "error: unknown name 'qqq"),
    (f"p s0.{LETTERS}", "error: unknown type 'qqq"),
    (f"x/4.{LETTERS} 0", "error: unknown type 'qqq"),
    (f"p 1 {LETTERS}", "error: unexpected 'qqq"),
    (f"help {LETTERS}", "no help for 'qqq"),
    (LETTERS, "unknown command 'qqq"),
])
def test_long_arguments_are_echoed_short(command, message):
    # Python's own "Exceeds the limit (4300 digits)" must not leak, nor a 5,000-character echo
    (line,) = printed(command)
    assert line.startswith(message) and "... (5,000 characters)" in line, line[:300]
    assert len(line) < MAX_SHOWN_TOKEN + 200 and "ValueError" not in line


def test_counts_within_reason_still_work():
    assert printed("x/2xh out") == ["0x00000:  0x0000 0x0000"]
    assert printed("history 1G")[0] == "history cap set to 1 GiB"
