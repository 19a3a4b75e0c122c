"""Debugger details a student meets in a first session: rc names a `set var` as the change it went
back over, `why` says when a lane was zeroed because its mask left it inactive, and the gdb habits
(r/run/start, $pc and $s0, display/FMT, clear, jump, info line, c N). Expected values are worked out
from the small programs by hand."""
from __future__ import annotations

from ascasm import assemble
from test_debugger import after, session

MOVES = """\
    mov s0, 1
    mov s1, 2
    mov s2, 3
    halt
"""


def test_rc_names_the_set_var_that_changed_a_watch():
    text = session(assemble(MOVES, "moves.s"), "s\ns\nw s0\nset var s0 = 7\ns\nrc\np s0\n", engine="ref")
    assert after(text, "rc")[:3] == ["Watch 1: s0 was changed by set var s0 = 7 (at step 2); stopped before it",
                                     "  old: 1", "  new: 7"]
    assert after(text, "p s0") == ["s0 = 1"]
