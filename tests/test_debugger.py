"""The step debugger (`ascasm debug`): scripted REPL sessions over StringIO with their exact output,
reverse execution checked byte for byte against fresh runs, and `why` answers.

Expected values are worked out from the programs by hand: in programs/scatter.s, v0 = input = i + 1,
v1 = indices = 3i mod 128, p0 = M4 at b16 (lanes 0, 4, 8, ...), and the first vsct (step 6) writes
output[3i mod 128] = i + 1 for the active lanes, so output[4] comes from lane 44 (3 * 44 = 132) and
output[3] (lane 43 * 3 mod 128 = 1, inactive) stays 0xffff.
"""
from __future__ import annotations

import io
import textwrap
import time
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascasm import assemble, assemble_file
from ascasm.expr.machine import Env, ExprError, evaluate_text, parse
from ascasm.formatting import format_value
from ascasm.debugger import Debugger, debug_main
from ascasm.observers.history import Move, Recorder, Segment
from ascasm.vm import Machine
from test_random_programs import programs

ENGINE = "cy"
SCATTER = Path(__file__).resolve().parent.parent / "programs" / "scatter.s"
SETTINGS = settings(max_examples=40, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def session(program, script: str, engine: str = ENGINE, **options) -> str:
    """Run the debugger on `script` (one command per line) and return everything it printed."""
    out = io.StringIO()
    debugger = Debugger(program, engine, stdin=io.StringIO(textwrap.dedent(script).lstrip("\n")), stdout=out,
                        **options)
    debugger.cmdloop()
    return out.getvalue()


def scatter():
    """programs/scatter.s, named as a user in the repository's root directory would name it."""
    return assemble(SCATTER.read_text(), "programs/scatter.s")


def after(text: str, command: str) -> list[str]:
    """The lines a command printed (up to the next prompt)."""
    chunk = text.split(f"(ascasm) {command}\n", 1)[1]
    return chunk.split("(ascasm) ", 1)[0].splitlines()


# ---------------------------------------------------------------------------------------------
# the walkthrough of docs/debugger.md, line for line
# ---------------------------------------------------------------------------------------------

WALKTHROUGH = """\
b loop
c
p p0.b16
p v0.u16 / p0
p v1.u16[0:8] / p0
w output[0:16]
c
why output[0]
why output[4]
back
why output[3]
s
why output[3]
c
rc
q
"""

WALKTHROUGH_OUTPUT = """\
ascasm debugger: programs/scatter.s, 10 instructions, 3 buffers, engine {engine}. Type help for commands, q to quit.
> programs/scatter.s(8) pc=0 steps=0
-> vld      v0.u16, [input]
(ascasm) b loop
Breakpoint 1 at programs/scatter.s:13 (pc 5, label loop)
(ascasm) c
Breakpoint 1, line 13
> programs/scatter.s(13) pc=5 steps=5
-> loop:   vsct     [s1], v0.u16, v1.u16, p0
(ascasm) p p0.b16
p0.b16: 32 of 128 lanes active
  [  0] 1...1... 1...1... 1...1... 1...1... 1...1... 1...1... 1...1... 1...1...
  [ 64] 1...1... 1...1... 1...1... 1...1... 1...1... 1...1... 1...1... 1...1...
(ascasm) p v0.u16 / p0
v0.u16 / p0: u16, 128 lanes, 32 active (inactive shown as .)
  [  0]   1   .   .   .   5   .   .   .   9   .   .   .  13   .   .   .
  [ 16]  17   .   .   .  21   .   .   .  25   .   .   .  29   .   .   .
  [ 32]  33   .   .   .  37   .   .   .  41   .   .   .  45   .   .   .
  [ 48]  49   .   .   .  53   .   .   .  57   .   .   .  61   .   .   .
  [ 64]  65   .   .   .  69   .   .   .  73   .   .   .  77   .   .   .
  [ 80]  81   .   .   .  85   .   .   .  89   .   .   .  93   .   .   .
  [ 96]  97   .   .   . 101   .   .   . 105   .   .   . 109   .   .   .
  [112] 113   .   .   . 117   .   .   . 121   .   .   . 125   .   .   .
(ascasm) p v1.u16[0:8] / p0
v1.u16[0:8] / p0: u16, 8 lanes, 2 active (inactive shown as .)
  [0]  0  .  .  . 12  .  .  .
(ascasm) w output[0:16]
Watch 2: output[0:16]
(ascasm) c
Watch 2: output[0:16] changed at step 6 (line 13)
  [0] 65535 -> 1   [4] 65535 -> 45   [8] 65535 -> 89   [12] 65535 -> 5
> programs/scatter.s(14) pc=6 steps=6
-> add      s1, s1, 256
(ascasm) why output[0]
output[0] = 1 (ub[0x0:0x2]): last written at step 6, line 13 (pc 5): vsct [s1], v0.u16, v1.u16, p0
  by lane 0 of v0, index 0 from v1[0]
(ascasm) why output[4]
output[4] = 45 (ub[0x8:0xa]): last written at step 6, line 13 (pc 5): vsct [s1], v0.u16, v1.u16, p0
  by lane 44 of v0, index 4 from v1[44]
(ascasm) back
> programs/scatter.s(13) pc=5 steps=5
-> loop:   vsct     [s1], v0.u16, v1.u16, p0
(ascasm) why output[3]
output[3] = 65535 (ub[0x6:0x8]): not written by any instruction yet; its initial value from line 3: .ub output  u16[384] = 0xffff
(ascasm) s
  output: 32 elements written: [0] [4] [8] [12] [16] [20] [24] [28] ...
Watch 2: output[0:16] changed at step 6 (line 13)
  [0] 65535 -> 1   [4] 65535 -> 45   [8] 65535 -> 89   [12] 65535 -> 5
> programs/scatter.s(14) pc=6 steps=6
-> add      s1, s1, 256
(ascasm) why output[3]
output[3] = 65535 (ub[0x6:0x8]): not written by any instruction yet; its initial value from line 3: .ub output  u16[384] = 0xffff
(ascasm) c
Breakpoint 1, line 13
> programs/scatter.s(13) pc=5 steps=9
-> loop:   vsct     [s1], v0.u16, v1.u16, p0
(ascasm) rc
Watch 2: output[0:16] was changed by step 6 (line 13); stopped before it
  [0] 65535 -> 1   [4] 65535 -> 45   [8] 65535 -> 89   [12] 65535 -> 5
Breakpoint 1, line 13
> programs/scatter.s(13) pc=5 steps=5
-> loop:   vsct     [s1], v0.u16, v1.u16, p0
(ascasm) q
"""


def test_walkthrough_session(monkeypatch, engine):
    monkeypatch.chdir(SCATTER.parent.parent)
    program = assemble_file("programs/scatter.s")
    assert session(program, WALKTHROUGH, engine) == WALKTHROUGH_OUTPUT.format(engine=engine)


def test_walkthrough_is_the_documented_one():
    docs = (SCATTER.parent.parent / "docs" / "debugger.md").read_text()
    expected = WALKTHROUGH_OUTPUT.format(engine="cy")
    for block in expected.split("(ascasm) ")[1:]:
        assert block.rstrip("\n") in docs, block


# ---------------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------------

def test_help_lists_synopses_and_instructions():
    text = session(scatter(), "help\nhelp vsct\nhelp s\nhelp nonsense\n")
    listing = after(text, "help")
    assert listing[0].startswith("commands")
    for synopsis in ("s(tep) [N]", "c(ontinue)", "u(ntil) [LINE|LABEL]", "b(reak) [[FILE:]LINE|LABEL [if COND]]", "n(ext) [N]",
                     "tbreak", "d(elete)", "w(atch) EXPR", "back [N]", "rc", "p(rint)[/FMT] EXPR", "x/N.T ADDR|NAME",
                     "why", "regs", "l(ist)", "disas", "display", "info", "restart", "q(uit)", "help"):
        assert any(line.strip().startswith(synopsis) for line in listing), synopsis
    assert after(text, "help vsct")[:2] == [
        "vsct [base], vS.T, vI.U, pM",
        "  scatter: for each active lane i, base + vI[i]*W <- vS[i] (indices in elements). b8 data: 128 requests "
        "with u16 indices, request i stores source byte 2i; b64 data with u32 indices uses the first 32 index lanes"]
    assert after(text, "help s")[0] == "s(tep) [N]"
    assert after(text, "help nonsense") == ["no help for 'nonsense'"]


def test_help_for_a_command_that_is_also_an_instruction():
    lines = after(session(scatter(), "help b\n"), "help b")
    assert lines[0] == "b(reak) [[FILE:]LINE|LABEL [if COND]]"
    assert lines[lines.index("") + 1:lines.index("") + 3] == ["b LABEL", "  jump to LABEL"]


def test_tab_completion_words():
    debugger = Debugger(scatter(), ENGINE, stdin=io.StringIO(), stdout=io.StringIO())
    assert debugger.completenames("wa") == ["watch"]
    assert debugger.completedefault("lo", "b lo", 2, 4) == ["loop"]
    assert debugger.completedefault("ou", "p ou", 2, 4) == ["output"]
    assert debugger.completedefault("v1", "p v1", 2, 4) == ["v1"] + [f"v{n}" for n in range(10, 20)]
    assert "vsct" in debugger.complete_help("vs")


def test_bad_commands_and_expressions_keep_the_session_going():
    text = session(scatter(), """
        frobnicate
        p v99
        p (s0 +
        p __import__('os')
        b nowhere
        s two
        x/4.zz output
        why s0 + 1
        p s0
    """)
    assert after(text, "frobnicate") == ["unknown command 'frobnicate' (type help for the list)"]
    assert after(text, "p v99") == ["error: no register v99: v0-v31 exist"]
    assert after(text, "p (s0 +") == ["error: the expression ends too early"]
    assert after(text, "p __import__('os')") == ["error: unexpected character \"'\" in expression"]
    assert after(text, "b nowhere") == ["error: 'nowhere' is neither a line number nor a label (labels: loop)"]
    assert after(text, "s two") == ["usage: step [N] (N a positive number, not 'two')"]
    assert after(text, "x/4.zz output") == ["error: unknown type 'zz'"]
    assert after(text, "why s0 + 1") == [
        "error: why needs a location (ub[ADDR], NAME[I], vN[LANE], sN, ...), not s0 + 1"]
    assert after(text, "p s0") == ["s0 = 0"]
    assert "Traceback" not in text


def test_enter_repeats_stepping_but_not_breakpoints():
    text = session(scatter(), "s\n\n\nb loop\n\ninfo break\n")
    assert "steps=3" in text and "steps=4" not in text
    assert after(text, "info break") == ["  1  break  line 13 (pc 5)  hit 0 times"]


def test_print_forms():
    text = session(scatter(), """
        s 6
        p s1
        p s0 - 1
        p output[0:4]
        p output[4]
        p ub[0x300:4]
        p ub.u16[0x300:2]
        p any(v0.u16 / p0 > 120)
        p all(v0.u16 / p0 > 120)
        p count(p0.b16)
        p v0.f16[1]
        p v1
        x/8.u16 output
        x/20 input
        p p0.b16[4]
        p v0.u16 / p0.b32
    """)
    assert after(text, "p s1") == ["s1 = 0"]
    assert after(text, "p s0 - 1") == ["s0 - 1 = -1"]
    assert after(text, "p output[0:4]") == ["output[0:4]: u16, 4 elements at 0x0", "  [0]     1 65535 65535 65535"]
    assert after(text, "p output[4]") == ["output[4] = 45 (0x2d)"]
    assert after(text, "p ub[0x300:4]") == ["ub[0x300:4]: u8, 4 bytes", "  [0x00300] 1 0 2 0"]
    assert after(text, "p ub.u16[0x300:2]") == ["ub.u16[0x300:2]: u16, 2 elements", "  [0x00300] 1 2"]
    assert after(text, "p any(v0.u16 / p0 > 120)") == ["any(v0.u16 / p0 > 120) = true"]
    assert after(text, "p all(v0.u16 / p0 > 120)") == ["all(v0.u16 / p0 > 120) = false"]
    assert after(text, "p count(p0.b16)") == ["count(p0.b16) = 32"]
    assert after(text, "p v0.f16[1]") == ["v0.f16[1] = 1e-07 (bits 0x0002)"]      # 2 * 2^-24: the shortest
    assert after(text, "p v1")[0] == "v1.u16: u16, 128 lanes"           # the type of the vld that wrote it
    assert after(text, "x/8.u16 output") == ["0x00000:      1 65535 65535 65535    45 65535 65535 65535"]
    assert after(text, "x/20 input") == ["0x00300:  01 00 02 00 03 00 04 00  05 00 06 00 07 00 08 00",
                                         "0x00310:  09 00 0a 00"]
    assert after(text, "p p0.b16[4]") == ["p0.b16[4] = 1"]
    assert after(text, "p v0.u16 / p0.b32") == [
        "error: p0.b32 reads 4-byte lanes but v0.u16 has 2-byte elements; write '/ p0'"]


def test_conditions_and_breakpoint_kinds(engine):
    text = session(scatter(), """
        b loop if s0 == 2
        tbreak 14
        c
        info break
        c
        p s0
        u 17
        b 13 if any(v0.u16 / p0 > 6e4)
        b 11
        d 4
        c
    """, engine)
    assert after(text, "b loop if s0 == 2") == ["Breakpoint 1 at programs/scatter.s:13 (pc 5, label loop) if s0 == 2"]
    assert after(text, "tbreak 14") == ["Temporary breakpoint 2 at programs/scatter.s:14 (pc 6)"]
    runs = text.split("(ascasm) c\n")
    assert runs[1].startswith("Temporary breakpoint 2, line 14\n> programs/scatter.s(14) pc=6 steps=6\n")
    assert after(text, "info break") == ["  1  break  line 13 (pc 5) if s0 == 2  hit 0 times"]
    assert runs[2].startswith("Breakpoint 1, line 13 (condition `s0 == 2` is true)\n"
                              "> programs/scatter.s(13) pc=5 steps=13\n")
    assert after(text, "p s0") == ["s0 = 2"]
    assert after(text, "u 17") == ["> programs/scatter.s(17) pc=9 steps=17", "-> halt"]
    assert after(text, "b 11") == ["Breakpoint 4 at programs/scatter.s:11 (pc 3)"]
    assert after(text, "d 4") == ["deleted breakpoint 4"]
    assert runs[3].splitlines()[:2] == ["the program halted after 18 steps", "expect output: ok (384 elements)"]


def test_condition_must_be_a_single_truth_value(engine):
    text = session(scatter(), "b loop if v0.u16 > 3\nc\n", engine)
    assert "Breakpoint 1: condition `v0.u16 > 3` failed: `v0.u16 > 3` gives 128 values; " \
           "wrap it in any(...) or all(...)" in text


def test_list_disas_regs_display_info():
    text = session(scatter(), """
        b loop
        display s1
        display output[0:2]
        s 5
        l
        disas
        regs
        info display
        undisplay 2
        info buffers
        info labels
    """)
    assert after(text, "display s1") == ["1: s1 = 0"]
    assert after(text, "s 5")[-5:] == ["> programs/scatter.s(13) pc=5 steps=5",
                                       "-> loop:   vsct     [s1], v0.u16, v1.u16, p0",
                                       "1: s1 = 0", "2: output[0:2]: u16, 2 elements at 0x0", "  [0] 65535 65535"]
    listing = after(text, "l")
    assert listing[0] == "   8             vld      v0.u16, [input]"
    assert "  13 B-> loop:   vsct     [s1], v0.u16, v1.u16, p0" in listing
    disas = after(text, "disas")
    assert disas[5] == "B=>    5  line 13   vsct [s1], v0.u16, v1.u16, p0  OP_VSCT 4 4 | 0 1 -1 -1 0 1 0 0 0 0 0 0 0 0 0 0 0"
    regs = after(text, "regs")
    assert regs[0] == "> programs/scatter.s(13) pc=5 steps=5"
    assert regs[1].split() == ["s0", "=", "0", "s1", "=", "0", "s2", "=", "0", "s3", "=", "0"]
    assert "p0 32 bits" in regs[10] and "p1 unset" in regs[10]
    assert regs[11] == "  AR = 0, SQZN = unset, MASK = unset, u0 empty, u1 empty, u2 empty, u3 empty, q0 unset, q1 unset, q2 unset, q3 unset, CTRL = 0x0"
    assert regs[12] == "  loops: none active"
    assert regs[13] == "  v0.u16 = [1 2 3 4 5 6 7 8 ...]"
    assert after(text, "info display") == ["  1  s1", "  2  output[0:2]"]
    assert after(text, "info buffers")[0] == "output: u16[384] at 0x0..0x300 (line 3)"
    assert after(text, "info labels") == ["loop: pc 5, line 13"]


def test_fault_and_back():
    source = """
    .ub out u16[128]
        mov s0, 2
        mask p0.b16, ALL
        vsta [out + s0], v0.u16, p0
        halt
    """
    text = session(assemble(textwrap.dedent(source), "fault.s"), "c\np s0\ns\nback\np pc\ns\nq\n")
    fault = after(text, "c")
    assert fault[0] == "fault.s:5:5: fault: misaligned address 0x2: this access needs 32-byte alignment"
    assert fault[-1] == "note: at step 3"
    assert after(text, "p s0") == ["s0 = 2"]
    assert after(text, "s") == ["the program stopped at a fault (misaligned); back undoes it, restart begins again"]
    assert after(text, "back") == ["> fault.s(5) pc=2 steps=2", "-> vsta [out + s0], v0.u16, p0"]


def test_list_continues_only_when_repeated():
    text = session(scatter(), "l\nl\ns\nl\n\n")
    listings = [chunk.splitlines() for chunk in text.split("(ascasm) l\n")[1:]]
    assert listings[0][0].startswith("   3 ") and listings[1][0].startswith("  14 ")
    assert listings[2][0].startswith("   4 ")          # after a step: around the current line again
    assert text.split("(ascasm) \n")[1].splitlines()[0].startswith("  15 ")   # Enter: the next lines


def test_restart_keeps_breakpoints():
    text = session(scatter(), "b loop\nc\nrestart\nc\n")
    assert after(text, "restart") == ["restarted", "> programs/scatter.s(8) pc=0 steps=0",
                                      "-> vld      v0.u16, [input]"]
    assert text.count("Breakpoint 1, line 13") == 2


def test_watch_scalar_and_registers(engine):
    text = session(scatter(), "w s0\nc\nc\nw p0\nrestart\nc\n", engine)
    assert after(text, "w s0") == ["Watch 1: s0"]
    changes = text.split("Watch 1: s0 changed at step ")
    assert changes[1].startswith("8 (line 15)\n  old: 0\n  new: 1\n")
    assert changes[2].startswith("12 (line 15)\n  old: 1\n  new: 2\n")
    assert "Watch 2: p0 changed at step 3 (line 10)\n  old: p0 is unset: no instruction has written it" in text


def test_why_registers_and_after_a_fast_run():
    text = session(scatter(), """
        c
        why output[0]
        why output[260]
        why v1[3]
        why v0.u16[0:2]
        why s1
        why p0
        why ub[0x301]
    """)
    assert after(text, "why output[0]") == [
        "output[0] = 1 (ub[0x0:0x2]): last written at step 6, line 13 (pc 5): vsct [s1], v0.u16, v1.u16, p0",
        "  by lane 0 of v0, index 0 from v1[0]"]
    assert after(text, "why output[260]") == [   # 260 = 256 + 4: the third vsct (step 14), lane 44
        "output[260] = 45 (ub[0x208:0x20a]): last written at step 14, line 13 (pc 5): vsct [s1], v0.u16, v1.u16, p0",
        "  by lane 44 of v0, index 4 from v1[44]"]
    assert after(text, "why v1[3]") == [
        "v1.u16[3] = 9: last written at step 2, line 9 (pc 1): vld v1.u16, [indices]",
        "  lane 3, loaded from ub[0x406] (indices[3])"]
    assert len(after(text, "why v0.u16[0:2]")) == 4
    assert after(text, "why s1") == ["s1 = 768 (0x300): last written at step 15, line 14 (pc 6): add s1, s1, 256"]
    assert after(text, "why p0") == ["p0: last written at step 3, line 10 (pc 2): mask p0.b16, M4"]
    assert after(text, "why ub[0x301]") == [
        "input[0] byte 1 = 0 (ub[0x301]): not written by any instruction yet; its initial value from line 4: "
        ".ub input   u16[128] = i + 1"]


def test_gather_why_names_the_source_element():
    text = session(assemble_file(SCATTER.parent / "gather.s"), "s 3\nwhy v0[5]\n")
    assert after(text, "why v0[5]") == [
        "v0.u16[5] = 366: last written at step 3, line 14 (pc 2): vgat v0.u16, [x], v1.u16, p0",
        "  lane 5, gathered from ub[0xf4] (x[122]), index 122 from v1[5]"]


def test_duplicate_index_warning_once():
    source = """
    .ub out u16[128]
    .ub idx u16[128] = i % 2
        vld v0.u16, [idx]
        mask p0.b16, VL4
        mov s0, 0
    loop:
        vsct [out], v0.u16, v0.u16, p0
        membar
        add s0, s0, 1
        blt s0, 3, loop
    """
    text = session(assemble(textwrap.dedent(source), "dup.s"), "c\nrestart\nc\n")
    warning = ("warning: line 8: duplicate active indices: lanes 0 and 2 both store to address 0x0 (the hardware "
               "keeps an unspecified one; ascasm keeps the highest lane (in 3 executions))")
    assert text.count(warning) == 1


def test_eof_and_debug_main(tmp_path, capsys):
    assert debug_main(tmp_path / "missing.s", ENGINE, stdin=io.StringIO(""), stdout=io.StringIO()) == 64
    bad = tmp_path / "bad.s"
    bad.write_text("frob v0\n")
    assert debug_main(bad, ENGINE, stdin=io.StringIO(""), stdout=io.StringIO()) == 1
    assert "error" in capsys.readouterr().err
    out = io.StringIO()
    assert debug_main(SCATTER, ENGINE, stdin=io.StringIO("s\n"), stdout=out) == 0
    assert out.getvalue().endswith("(ascasm) s\n  v0.u16 = [1 2 3 4 5 6 7 8 ...] (128 of 128 lanes changed)\n"
                                   "> " + str(SCATTER) + "(9) pc=1 steps=1\n"
                                   "-> vld      v1.u16, [indices]\n(ascasm) \n")


# ---------------------------------------------------------------------------------------------
# reverse execution
# ---------------------------------------------------------------------------------------------

def fresh_states(program, max_steps: int) -> list:
    """The machine state after 0, 1, 2, ... run(1) calls, until it stops: the ground truth."""
    machine = Machine(program, ENGINE, max_steps=max_steps)
    states = [machine.state.copy()]
    while machine.stop_name == "RUNNING":
        machine.run(1)
        states.append(machine.state.copy())
    return states


def same(a, b) -> bool:
    return a.first_difference(b) is None


@SETTINGS
@given(programs(), st.lists(st.tuples(st.sampled_from(("s", "back", "c", "rc", "w")), st.integers(1, 12)),
                            min_size=1, max_size=12))
def test_reverse_then_forward_is_byte_identical(source, commands):
    """Any mix of step N, continue, back N and rc lands on exactly the state a fresh run has after
    that many moves (every register file, the UB and the bookkeeping, byte for byte)."""
    program = assemble(source, "random.s")
    truth = fresh_states(program, 60)
    end = len(truth) - 1
    debugger = Debugger(program, ENGINE, 248 * 1024, 60, stdin=io.StringIO(), stdout=io.StringIO())
    position = 0
    for command, n in commands:
        if command == "s":
            debugger.onecmd(f"s {n}")
            position = min(position + n, end)
        elif command == "back":
            debugger.onecmd(f"back {n}")
            position = max(position - n, 0)
        elif command == "c":
            debugger.onecmd("c")
            position = end
        elif command == "rc":
            debugger.onecmd("rc")
            position = 0
        else:                                          # a fast run of n steps
            debugger.recorder.run_fast(n)
            position = min(position + n, end)
        assert same(debugger.state, truth[position]), (command, n, position,
                                                       debugger.state.first_difference(truth[position]))


@SETTINGS
@given(programs(), st.integers(0, 200))
def test_back_then_step_recorder(source, seed):
    """The undo log alone: record every step, undo k, redo k: identical to the fresh run both ways."""
    program = assemble(source, "random.s")
    truth = fresh_states(program, 60)
    machine = Machine(program, ENGINE, max_steps=60)
    recorder = Recorder(program, machine)
    for k in range(1, len(truth)):
        recorder.step()
        assert same(machine.state, truth[k])
    rng = np.random.default_rng(seed)
    end = len(truth) - 1
    for _ in range(4):
        k = int(rng.integers(0, end + 1))
        assert recorder.back(k) == k
        assert same(machine.state, truth[end - k])
        for _ in range(k):
            recorder.step()
        assert same(machine.state, truth[end])
    assert all(isinstance(entry, Move) for entry in recorder.history)


def test_history_cap_drops_the_oldest_steps():
    program = scatter()
    truth = fresh_states(program, 100)
    cap = 6 * 1024
    text = session(program, "s 18\ninfo history\nback 18\np steps\n", history_cap=cap)
    note = ("note: the reverse-execution history reached its cap of 6 KiB; the oldest steps are dropped from now on "
            "(history SIZE raises the cap)")
    assert text.count(note) == 1
    oldest = int(after(text, "info history")[0].split("to step ")[1].split(";")[0])
    assert 0 < oldest < 18
    assert after(text, "back 18")[0] == (f"back: went back {18 - oldest} steps; reached the oldest recorded state, "
                                         f"step {oldest}: older history was dropped at the 6 KiB cap (history SIZE "
                                         "raises it)")
    assert after(text, "p steps") == [f"steps = {oldest}"]
    debugger = Debugger(program, ENGINE, stdin=io.StringIO(), stdout=io.StringIO(), history_cap=cap)
    debugger.onecmd("s 18")
    debugger.onecmd("back 18")
    assert same(debugger.state, truth[oldest])


def test_history_command_sets_the_cap():
    text = session(scatter(), "history 1M\ns 3\nhistory\nhistory lots\n")
    assert after(text, "history 1M")[0] == "history cap set to 1 MiB"
    assert after(text, "history")[0].startswith("history: back can go 3 steps, to step 0; ")
    assert after(text, "history lots") == ["error: not a size: 'lots' (try 64M)"]


def test_rc_stops_at_watch_and_breakpoint_in_a_fast_run(engine):
    program = scatter()
    text = session(program, "c\nw s0\nrc\nrc\nb 14\nrc\n", engine)
    # s0 changes at steps 4 (mov, unchanged 0 -> 0: no), 8, 12, 16: rc stops before step 16, then 12
    first = after(text, "rc")
    assert first[0] == "Watch 1: s0 was changed by step 16 (line 15); stopped before it"
    assert first[1:3] == ["  old: 2", "  new: 3"]
    assert "> programs/scatter.s(15) pc=7 steps=15" in first
    text_rc = text.split("(ascasm) rc\n")
    assert text_rc[2].startswith("Watch 1: s0 was changed by step 12 (line 15)")
    assert text_rc[3].startswith("Breakpoint 2, line 14\n> programs/scatter.s(14) pc=6 steps=10")


def test_continue_without_breakpoints_runs_at_engine_speed():
    """No breakpoint, no watch: one engine run and one checkpoint, no per-step record."""
    source = """
    .ub out u16[128]
    .ub idx u16[128] = i
        vld v0.u16, [idx]
        mask p0.b16, M4
        mov s0, 0
    loop:
        vsct [out], v0.u16, v0.u16, p0
        membar
        add s0, s0, 1
        blt s0, 200000, loop
        halt
    """
    program = assemble(textwrap.dedent(source), "long.s")
    machine = Machine(program, ENGINE)
    start = time.perf_counter()
    machine.run()
    plain = time.perf_counter() - start
    debugger = Debugger(program, ENGINE, stdin=io.StringIO(), stdout=io.StringIO())
    start = time.perf_counter()
    debugger.onecmd("c")
    debugging = time.perf_counter() - start
    assert same(debugger.state, machine.state)
    assert [type(e) for e in debugger.recorder.history] == [Segment]
    assert debugging < 2 * plain + 0.1, (debugging, plain)
    debugger.onecmd("back 4")                       # back into the run: checkpoint + engine replay
    assert debugger.state.steps == machine.state.steps - 4


LONG_LOOP = """
.ub out  u16[128]
.ub flag u32[8]
    mov s0, 0
loop:
    add s0, s0, 1
    blt s0, {n}, loop
    st [flag], s0.u32
done:
    halt
"""


def test_continue_to_a_breakpoint_runs_at_engine_speed(engine):
    """With a breakpoint, a watch on a buffer or `until`, the engine stops only where a check can
    succeed (stop flags): one engine call for the whole loop, not one per step."""
    n = 100_000 if engine == "cy" else 2_000
    program = assemble(LONG_LOOP.format(n=n), "long.s")
    run = Machine.run
    calls = []

    def counted(machine, budget=None):
        calls.append(budget)
        return run(machine, budget)

    for script, stop, engine_calls in (
            ("b done\nc\n", "Breakpoint 1, line 10", 1),
            ("b done if s0 == 1\nc\n", f"the program halted after {2 * n + 3} steps", 2),   # false: on again
            ("w flag[0]\nc\n", f"Watch 1: flag[0] changed at step {2 * n + 2} (line 8)", 1),
            ("u done\n", f"> long.s(10) pc=4 steps={2 * n + 2}", 1)):
        calls.clear()
        with mock.patch.object(Machine, "run", counted):
            text = session(program, script, engine)
        assert stop in text, text
        assert len(calls) == engine_calls, (script, calls)


def test_back_and_why_after_continue_to_a_breakpoint(engine):
    """The flagged run is one checkpointed segment: back into it and why over it replay it exactly."""
    program = assemble(LONG_LOOP.format(n=300), "long.s")
    debugger = Debugger(program, engine, stdin=io.StringIO(), stdout=io.StringIO())
    debugger.onecmd("b done")
    debugger.onecmd("c")
    assert [type(e) for e in debugger.recorder.history] == [Segment]
    assert debugger.state.steps == 602
    truth = fresh_states(program, 1000)
    debugger.onecmd("why flag[0]")
    assert "last written at step 602, line 8 (pc 3)" in debugger.stdout.getvalue()
    debugger.onecmd("back 5")
    assert same(debugger.state, truth[597])
    debugger.onecmd("c")
    assert same(debugger.state, truth[602])


@pytest.mark.parametrize("source, end", [("    mov s0, 1\n    b end\n    halt\nend:\n", 3),
                                         ("    mov s0, 1\n    mov s0, 2\n", 2)])
def test_until_stops_past_the_last_instruction(engine, source, end):
    """`until` without a line stops when the pc leaves the code (a branch to a label at the end, or
    the last row), still running, before the halt: the engine stops after the rows that lead there."""
    text = session(assemble(source, "end.s"), "u\nu\n", engine)
    second = text.split("(ascasm) u\n")[2]
    assert second.splitlines()[0] == f"> end.s pc={end} (past the last instruction) steps=2"


def every_step():
    """While the debugger runs with stop flags, make the engine return after every instruction as
    well: the debugger's checks then run after each step, as they did when `continue` single-stepped."""
    set_stop_rows = Machine.set_stop_rows

    def after_every_row(machine, before=None, after=None):
        if before is not None or after is not None:
            after = np.ones(len(machine.program.insns), np.uint8)
        set_stop_rows(machine, before, after)

    return mock.patch.object(Machine, "set_stop_rows", after_every_row)


CONDITIONS = ("s0 == 0", "s1 > 64", "s3 != 5", "any(v0.u16 > 100)", "v0.u16 > 3", "steps > 20", "data[0] == 11",
              "pc == L2", "s2 % 3 == 0", "nosuch == 1")
commands = st.one_of(
    st.builds("b L{} if {}".format, st.integers(0, 8), st.sampled_from(CONDITIONS)),
    st.builds("{} L{}".format, st.sampled_from(("b", "tbreak", "u")), st.integers(0, 8)),
    st.sampled_from(("w s0", "w s1", "w v1.u16[0:4]", "w p3", "w data[0:8]", "w ub[0x100:16]", "w tail[250:256]",
                     "w pc", "w data[s3]", "c", "c", "c", "u", "s 2", "s 10001", "back 3", "rc", "d 1", "restart",
                     "why s1", "why data[0:2]")))


@SETTINGS
@given(programs(), st.lists(commands, min_size=1, max_size=12), st.sampled_from(("cy", "ref")))
def test_stop_flags_report_what_checking_every_step_reports(source, script, engine):
    """`continue`, `until` and long `step`s check breakpoints and watches only where the engine stops
    on a flag; the session's output and final state are those of checking after every step."""
    program = assemble(source, "random.s")

    def run():
        out = io.StringIO()
        debugger = Debugger(program, engine, 248 * 1024, 60, stdin=io.StringIO("\n".join(script) + "\n"),
                            stdout=out)
        debugger.cmdloop()
        return out.getvalue(), debugger.state.copy()

    text, state = run()
    with every_step():
        expected_text, expected_state = run()
    assert text == expected_text
    assert same(state, expected_state)


# ---------------------------------------------------------------------------------------------
# expressions
# ---------------------------------------------------------------------------------------------

def test_expression_parser_is_not_python():
    for text in ("__import__('os')", "open('x')", "v0.__class__", "lambda: 1", "1 if 1 else 2", "[1, 2]"):
        with pytest.raises(ExprError):
            program = scatter()
            evaluate_text(text, Env(program, program.initial_state()))


def test_compiled_conditions_agree_with_the_evaluator():
    """Breakpoint conditions over scalars run as compiled closures; they give what evaluate gives."""
    from ascasm.expr.machine import compile_scalar
    program = scatter()
    machine = Machine(program, ENGINE)
    machine.run(7)
    machine.state.sreg[5] = (1 << 63) - 1
    env = Env(program, machine.state)
    texts = ["s0 == 0", "s1 == 256 and pc == 6", "s1 != 256 or steps > 3", "not s1 < 0", "s5 + 1 < 0",
             "-s5 - 2 == s5", "s1 * 2 == 512", "output[0] == 1", "output[3] == 0xffff", "ub[0x300] == 1",
             "loop == 5", "(s1 & 0xff) == 0", "s1 ^ 1 == 257", "a0 == 0", "1.5 < 2", "s1 - 0.5 > 255"]
    for text in texts:
        node = parse(text)
        fast = compile_scalar(node, env)
        assert fast is not None, text
        assert bool(fast()) == bool(evaluate_text(text, env).data), text
    for text in ("any(v0.u16 > 3)", "output[0:2] == 1", "s1 / 2 == 128", "output[s0] == 1"):
        assert compile_scalar(parse(text), env) is None, text


def test_expression_precedence_and_values():
    program = scatter()
    machine = Machine(program, ENGINE)
    machine.run(6)
    env = Env(program, machine.state)

    def value(text):
        v = evaluate_text(text, env)
        return v.data.tolist() if v.data.ndim else v.data.item()

    assert value("1 + 2 * 3") == 7
    assert value("(1 + 2) * 3") == 9
    assert value("7 // 2 + 7 % 2") == 4
    assert value("1 << 4 | 1") == 17
    assert value("-s1 - 1") == -1
    assert value("s0 == 0 and pc == loop + 1") is True
    assert value("not s0 == 0 or false") is False
    assert value("output[0] + output[4]") == 46
    assert value("count(output[0:16] != 0xffff)") == 4
    assert value("sum(v0.u16 / p0)") == sum(i + 1 for i in range(0, 128, 4))
    assert value("max(v1.u16 / p0)") == 124
    assert value("v1.u16[4:6] * 2") == [24, 30]
    assert value("ub[0x300]") == 1
    with pytest.raises(ExprError, match="chained comparisons"):
        parse("1 < 2 < 3")
    with pytest.raises(ExprError, match="outside output"):
        value("output[384]")
    assert format_value(evaluate_text("p0.b16 / p0", env))[0] == "p0.b16 / p0: 32 of 128 lanes active, 32 active " \
                                                                  "(inactive shown as .)"


# ---------------------------------------------------------------------------------------------
# layering
# ---------------------------------------------------------------------------------------------

def test_the_debugger_never_imports_the_reference_executor():
    """Observers read the machine the engine runs; the reference executor is the tests' oracle only."""
    import ast
    package = Path(__file__).resolve().parent.parent / "ascasm" / "debugger"
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                module = "." * node.level + (node.module or "")
                assert module.lstrip(".").split(".")[0] != "ref" and "ascasm.ref" not in module, (path.name, module)
            elif isinstance(node, ast.Import):
                assert not any(alias.name.startswith("ascasm.ref") for alias in node.names), path.name


# ---------------------------------------------------------------------------------------------
# rough edges
# ---------------------------------------------------------------------------------------------

def test_unknown_names_are_refused_when_set():
    """gdb refuses `watch nonsense`; so do watch, display and breakpoint conditions. A mask that is
    merely unset now is a fine thing to watch."""
    text = session(scatter(), "w nonsense\ndisplay bogus\nb loop if nosuch == 1\nw p3\ninfo watch\ninfo break\n")
    refusal = ("error: unknown name '{}' (registers v0-v31 p0-p7 s0-s31 a0-a7, ub, pc, steps; "
               "buffers: indices, input, output)")
    assert after(text, "w nonsense") == [refusal.format("nonsense")]
    assert after(text, "display bogus") == [refusal.format("bogus")]
    assert after(text, "b loop if nosuch == 1") == [refusal.format("nosuch")]
    assert after(text, "w p3") == ["Watch 1: p3"]
    assert after(text, "info watch") == ["  1  watch  p3"]
    assert after(text, "info break") == ["no breakpoints"]


def test_why_after_the_cap_dropped_a_fast_run_says_the_writer_is_unknown():
    """A 1 KiB cap is smaller than one checkpoint, so each `continue` is dropped at once: nothing that
    ran in them is recorded. why must not claim v0 (loaded at step 1, lanes 1..128) was never
    written, and says it once for the whole register."""
    text = session(scatter(), "history 1K\nb 14\nc\nc\nc\nwhy v0\nwhy s1\nwhy output[0:4]\n")
    unknown = ("its writer is unknown: steps up to 14 ran at full speed and their checkpoint was dropped at "
               "the 1 KiB history cap (history SIZE raises it)")
    assert after(text, "why v0") == [f"v0.u16[0:128]: {unknown}"]
    assert after(text, "why s1") == [f"s1 = 512 (0x200): {unknown}"]      # output + 2 * 256 after 3 rounds
    assert after(text, "why output[0:4]") == [f"output[0:4] (ub[0x0:0x8]): {unknown}"]


def test_gdb_step_names_and_what_a_step_changed():
    """n, si, stepi, next are one instruction (there are no calls); a single step lists what it wrote.
    Values: v0 = input = i + 1, v1 = 3i mod 128 (lane 0 stays 0), M4 at b16 selects 32 of 128 lanes,
    the first vsct writes output[3i mod 128] for i = 0, 4, ..., 124: the multiples of 4 below 128."""
    text = session(scatter(), "n\nsi\nstepi\nnext\ns\ns\ns\n")
    assert after(text, "n")[0] == "  v0.u16 = [1 2 3 4 5 6 7 8 ...] (128 of 128 lanes changed)"
    assert after(text, "si")[0] == "  v1.u16 = [0 3 6 9 12 15 18 21 ...] (127 of 128 lanes changed)"
    assert after(text, "stepi")[0] == "  p0.b16: 32 of 128 lanes active"
    assert after(text, "next")[0] == "  s0 = 0 (unchanged)"
    steps = text.split("(ascasm) s\n")[1:]
    assert steps[1].splitlines()[0] == "  output: 32 elements written: [0] [4] [8] [12] [16] [20] [24] [28] ..."
    assert steps[2].splitlines()[0] == "  s1 = 256 (0x100), was 0"


def test_print_and_examine_formats():
    text = session(scatter(), """
        s
        p/x v0.u16[0:4]
        p/x v0.f16[1]
        p/f v0.u16[1]
        p/t s1
        p/d output[0]
        p/u output[0]
        set var s0 = -1
        p/x s0
        p/u s0
        x/4xh output
        x/4dh input
        set var output[0] = 0x3c00
        x/1fh output
        p/q s0
    """)
    assert after(text, "p/x v0.u16[0:4]") == ["v0.u16[0:4]: u16, 4 lanes", "  [0] 0x0001 0x0002 0x0003 0x0004"]
    assert after(text, "p/x v0.f16[1]") == ["v0.f16[1] = 0x0002"]              # lane 1 holds the bits of 2
    assert after(text, "p/f v0.u16[1]") == ["v0.u16[1] = 1e-07"]               # 2 * 2^-24 read as an f16
    assert after(text, "p/t s1") == ["s1 = " + "0" * 64]
    assert after(text, "p/d output[0]") == ["output[0] = -1"]                   # 0xffff as signed 16 bits
    assert after(text, "p/u output[0]") == ["output[0] = 65535"]
    assert after(text, "p/x s0") == ["s0 = 0xffffffffffffffff"]
    assert after(text, "p/u s0") == ["s0 = 18446744073709551615"]
    assert after(text, "x/4xh output") == ["0x00000:  0xffff 0xffff 0xffff 0xffff"]
    assert after(text, "x/4dh input") == ["0x00300:  1 2 3 4"]
    assert after(text, "x/1fh output") == ["0x00000:  1"]                       # f16 0x3c00 is 1.0
    assert after(text, "p/q s0")[0].startswith("error: unknown print format '/q' (/x hex, /t binary")


SETS = ("set var s0 = 5", "set var v0.u16[0:3] = 7", "set var output[1] = 9", "set var p0.b16[1] = 1",
        "set var v2.f16[0] = 0.1", "set var ub[0x300] = 0xff")


def test_set_var_changes_state_and_why_names_it():
    text = session(scatter(), "s 3\n" + "\n".join(SETS) + "\np count(p0.b16)\np/x v2.f16[0]\nwhy output[1]\n")
    assert after(text, "set var s0 = 5") == ["s0 = 5"]
    assert after(text, "set var v0.u16[0:3] = 7") == ["v0.u16[0:3]: u16, 3 lanes", "  [0] 7 7 7"]
    assert after(text, "set var ub[0x300] = 0xff") == ["ub[0x300] = 255 (0xff)"]
    assert after(text, "p count(p0.b16)") == ["count(p0.b16) = 33"]            # M4's 32 lanes and lane 1
    assert after(text, "p/x v2.f16[0]") == ["v2.f16[0] = 0x2e66"]             # the f16 nearest to 0.1
    assert after(text, "why output[1]") == ["output[1] = 9 (ub[0x2:0x4]): set by `set var` after step 3"]


def test_back_undoes_set_var(engine):
    program = scatter()
    truth = fresh_states(program, 100)
    debugger = Debugger(program, engine, stdin=io.StringIO(), stdout=io.StringIO())
    debugger.onecmd("s 3")
    for command in SETS:
        debugger.onecmd(command)
    assert not same(debugger.state, truth[3])
    debugger.onecmd(f"back {len(SETS)}")             # each set is one entry of the history
    assert same(debugger.state, truth[3])
    debugger.onecmd("set var s1 = 64")
    debugger.onecmd("s 3")                           # mov s1, output overwrites it; the vsct follows
    debugger.onecmd("back 4")
    assert same(debugger.state, truth[3])
    debugger.onecmd("back 3")
    assert same(debugger.state, truth[0])


def test_back_says_which_changes_it_undid():
    text = session(scatter(), "s 3\nset var s0 = 5\nset var  p0.b16[1]=1\ns\nback 2\nback\nback\n")
    backs = [reply.split("(ascasm)")[0] for reply in text.split("(ascasm) back")[1:]]
    assert "undid: set var p0.b16[1] = 1" in backs[0] and "s0 = 5" not in backs[0]   # the step, the mask edit
    assert "undid: set var s0 = 5" in backs[1]
    assert "undid:" not in backs[2]                          # an instruction: no edit to name


def test_set_var_refuses_what_does_not_fit():
    text = session(scatter(), """
        set var s0 = 1.5
        set var output[0] = 70000
        set var 3 = 4
        set var output[0:4] = output[0:2]
        set s0 = 2
        set
    """)
    assert after(text, "set var s0 = 1.5") == ["error: s0 holds integers, not 1.5"]
    assert after(text, "set var output[0] = 70000") == ["error: 70000 does not fit output[0] (0..65535)"]
    assert after(text, "set var 3 = 4")[0].startswith("error: set needs a location")
    assert after(text, "set var output[0:4] = output[0:2]") == [
        "error: output[0:4] has 4 elements but the value has 2"]
    assert after(text, "set s0 = 2") == ["s0 = 2"]
    assert after(text, "set")[0].startswith("usage: set var LOCATION = EXPR")


def test_finish_leaves_the_loop_and_where_names_the_label():
    text = session(scatter(), "where\nfinish\nb loop\nc\ns\nwhere\nd\nfinish\n")
    assert after(text, "where") == ["#0  pc 0, at programs/scatter.s:8", "    vld v0.u16, [input]"]
    assert after(text, "finish") == ["finish: line 8 is not inside a loop (no backward branch spans it); "
                                     "c runs to the end"]
    wheres = text.split("(ascasm) where\n")
    assert wheres[2].splitlines()[:2] == ["#0  loop+1, pc 6, at programs/scatter.s:14", "    add s1, s1, 256"]
    # the loop is rows 5..8 (loop: .. blt); leaving it after 3 rounds: 5 + 3 * 4 = 17 steps, at the halt
    assert text.split("(ascasm) finish\n")[2].splitlines()[0] == "> programs/scatter.s(17) pc=9 steps=17"


def test_info_registers_is_regs():
    text = session(scatter(), "s 5\nregs\ninfo registers\ni r s1 v0.u16[0:2]\n")
    assert after(text, "info registers") == after(text, "regs")
    assert after(text, "i r s1 v0.u16[0:2]") == ["s1 = 0", "v0.u16[0:2]: u16, 2 lanes", "  [0] 1 2"]


def test_ctrl_c_at_the_prompt_gives_a_fresh_prompt():
    class Interrupting(io.StringIO):
        """Standard input whose second line is a Ctrl-C."""
        calls = 0

        def readline(self, *args):
            self.calls += 1
            if self.calls == 2:
                raise KeyboardInterrupt
            return super().readline(*args)

    out = io.StringIO()
    Debugger(scatter(), ENGINE, stdin=Interrupting("s\np steps\n"), stdout=out).cmdloop()
    text = out.getvalue()
    assert "(Ctrl-C: the line is dropped; q leaves)" in text
    assert after(text, "p steps") == ["steps = 1"]


def test_next_at_halt_says_it_has_halted_once():
    """`n` after the program halted printed the refusal and then the halt report as if it had run
    (`s` printed only the refusal); now both say it once. `n 5` from the halt instruction runs it."""
    text = session(scatter(), "c\nn\ns\nn 3\nback\nn 5\n")
    refusal = ["the program has halted; use back, rc or restart"]
    assert after(text, "n") == after(text, "s") == after(text, "n 3") == refusal
    assert after(text, "n 5") == ["the program halted after 18 steps", "expect output: ok (384 elements)"]


def test_x_takes_gdbs_address_of_a_place_in_the_ub():
    """gdb habit: x/8xw &output, x/4xh &output[4]. The '&' was a parse error. output (at 0) holds
    0xffff before any store; input (at 0x300, after output's 768 bytes) holds i + 1, so &input[1] is
    0x302 and holds 2, 3. Without the '&', output[4] is a value, and x says which address it meant;
    a register has no UB address."""
    text = session(scatter(), "x/8xw &output\nx/2xh & input\nx/2.u16 &input[1]\nx/4xh output[4]\nx/2xh &s0\n")
    assert after(text, "x/8xw &output") == ["0x00000:  " + " ".join(["0xffffffff"] * 8)]
    assert after(text, "x/2xh & input") == ["0x00300:  0x0001 0x0002"]
    assert after(text, "x/2.u16 &input[1]") == ["0x00302:  2 3"]
    assert after(text, "x/4xh output[4]") == ["error: x takes an address: output[4]'s is &output[4]"]
    assert after(text, "x/2xh &s0") == ["error: & takes a place in the UB or GM (output, output[4], gm[0x40]), not s0"]
