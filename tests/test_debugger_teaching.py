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


# A loop of three rounds: s0 counts them (line 3 is the loop's first instruction, pc 1).
LOOP = """\
    mov s0, 0
top: add s0, s0, 1
    add s1, s1, 10
    blt s0, 3, top
    halt
"""


def loop_session(script: str) -> str:
    return session(assemble(LOOP, "loop.s"), script, engine="ref")


def test_dollar_registers_as_in_gdb():
    text = loop_session("s 2\np $pc\np $s0 + 1\np/x $s1\n")
    assert after(text, "p $pc") == ["pc = 2"]
    assert after(text, "p $s0 + 1") == ["s0 + 1 = 2"]
    assert after(text, "p/x $s1") == ["s1 = 0x0000000000000000"]


def test_continue_n_ignores_this_breakpoint_n_minus_1_more_times():
    text = loop_session("b top\nc\nc 2\np s0\n")
    assert after(text, "c 2")[0] == "Will ignore next 1 crossings of breakpoint 1. Continuing."
    assert after(text, "p s0") == ["s0 = 2"]      # stopped before round 3: rounds 1 and 2 done


def test_clear_deletes_the_breakpoints_at_a_line():
    text = loop_session("b 2\nb top\nclear 2\nc\n")
    assert after(text, "clear 2") == ["Deleted breakpoints 1 2"]
    assert "the program halted after 11 steps" in after(text, "c")


def test_jump_resumes_at_a_line_and_back_undoes_it():
    # jump to line 5 (halt) from the start: s0 is never set, and back undoes the halt, then the jump
    text = loop_session("jump 5\np s0\nback 2\np $pc\n")
    assert "the program halted after 1 steps" in after(text, "jump 5")
    assert after(text, "p s0") == ["s0 = 0"]
    assert "undid: jump 5" in after(text, "back 2")
    assert after(text, "p $pc") == ["pc = 0"]


def test_info_line():
    text = loop_session("info line top\ninfo line 1\ninfo line\n")
    assert after(text, "info line top") == ["Line 2 of loop.s is pc 1: top: add s0, s0, 1"]
    assert after(text, "info line 1") == ["Line 1 of loop.s is pc 0: mov s0, 0"]
    assert after(text, "info line") == ["Line 1 of loop.s is pc 0: mov s0, 0"]


def test_display_with_a_format():
    text = loop_session("display/x s0\ns\n")
    assert after(text, "display/x s0") == ["1: s0 = 0x0000000000000000"]
    assert "1: s0 = 0x0000000000000000" in after(text, "s")


def test_run_and_start_begin_again():
    text = loop_session("s 4\nstart\nr\n")
    assert after(text, "start")[-2:] == ["> loop.s(1) pc=0 steps=0", "-> mov s0, 0"]
    assert "the program halted after 11 steps" in after(text, "r")


LESSON4 = """\
.ub x s32[256] = i
.ub y s32[256]
        mask    p0.b32, ALL
        mov     s0, 0
loop:   vld     v0.s32, [x + s0]
        vadds   v1.s32, v0.s32, 100, p0
        vsta    [y + s0], v1.s32, p0
        add     s0, s0, 256
        blt     s0, 1024, loop
        halt
"""


def test_finish_stops_at_a_breakpoint_in_the_loop_first_as_the_tutorial_says():
    # lesson 4's habits: b loop, c (round 1: s0 = 0), finish stops at round 2's breakpoint (s0 = 256);
    # after clear loop, finish leaves the loop: the pc at halt (line 10), s0 = 4 * 256 = 1024
    text = session(assemble(LESSON4, "lesson.s"), "b loop\nc\nfinish\np s0\nclear loop\nfinish\np s0\n", engine="ref")
    assert after(text, "finish")[0] == "Breakpoint 1, line 5"
    assert after(text, "p s0") == ["s0 = 256 (0x100)"]
    rest = text.split("(ascasm) clear loop\n", 1)[1]
    assert "> lesson.s(10) pc=7" in rest and after(rest, "p s0") == ["s0 = 1024 (0x400)"]


OUT_OF_RANGE_WHEN_ACTIVE = """\
.ub out u32[64] = 0
.ub idx u32[64] = i * 100000
.ub src u32[64] = i + 1
        vld v1.u32, [idx]
        vld v0.u32, [src]
        mask p0.b32, VL1
        vsct [out], v0.u32, v1.u32, p0
        membar
        mask p1.b32, VL2
        vsct [out], v0.u32, v1.u32, p1
        halt
"""


def test_help_vsct_says_what_it_does_not_check_of_inactive_lanes():
    # 'inactive lanes are never checked' did not say for what. Lane 1's index 100000 is the element at
    # 4 * 100000 = 0x61a80, past the UB: under VL1 (step 5) it is inactive and no fault; under VL2
    # (step 7) it is active and faults
    for engine in ("ref", "cy"):
        text = session(assemble(OUT_OF_RANGE_WHEN_ACTIVE, "oob.s"), "help vsct\nc\n", engine=engine)
        mask = next(line for line in after(text, "help vsct") if line.startswith("  mask:"))
        assert "the indices of inactive lanes are never checked (out of range there is no fault)" in mask
        stop = after(text, "c")
        assert stop[0].startswith("oob.s:10:9: fault: UB access out of range: 4 bytes at address 0x61a80 "
                                  "(lane 1, index 100000)")
        assert "note: at step 7" in stop


def test_tab_completes_the_type_after_a_register():
    # `p v0.u1<Tab>` completed nothing: the word was matched whole against register and type names
    from ascasm.debugger import Debugger
    debugger = Debugger(assemble(MOVES, "moves.s"), "ref")
    assert debugger.completedefault("v0.u1", "p v0.u1", 2, 7) == ["v0.u16"]
    assert set(debugger.completedefault("p3.b", "p p3.b", 2, 6)) == {"p3.bf16", "p3.b8", "p3.b16", "p3.b32", "p3.b64"}
    assert "s1" in debugger.completedefault("s", "p s", 2, 3)
