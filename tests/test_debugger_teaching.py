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


ZEROED = """\
.ub a f32[64] = i + 1
    vld v0.f32, [a]
    mask p0.b32, H
    vadds v4.f32, v0.f32, 1.0, p0
    halt
"""


def test_why_on_a_lane_zeroed_because_it_was_inactive_says_so():
    # H: the lowest half of the 64 f32 lanes active; vadds zeroes inactive lanes: lane 50 is 0,
    # lane 10 is a[10] + 1 = 12
    text = session(assemble(ZEROED, "zeroed.s"), "s 3\nwhy v4.f32[50]\nwhy v4.f32[10]\n", engine="ref")
    assert after(text, "why v4.f32[50]") == [
        "v4.f32[50] = 0: last written at step 3, line 4 (pc 2): vadds v4.f32, v0.f32, 1.0, p0",
        "  lane 50, inactive under p0: zeroed (inactive lanes of vadds are 0)"]
    assert after(text, "why v4.f32[10]") == [
        "v4.f32[10] = 12: last written at step 3, line 4 (pc 2): vadds v4.f32, v0.f32, 1.0, p0", "  lane 10"]
