"""Property tests: whatever text it is given, the assembler either succeeds or raises AssemblyFailed
whose every error points inside the file and prints; it never raises anything else. Lines end at
"\n" only (LANGUAGE.md §3; docs/cli.md "Source text")."""
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ascasm import AssemblyFailed, assemble

PROGRAMS = [p.read_text() for p in sorted((Path(__file__).resolve().parent.parent / "programs").glob("*.s"))]
TOKENS = ["vld", "vsta", "vsct", "vgat", "mask", "mask.upd", "iter", "mov", "add", "div", "ld", "st", "b", "blt",
          "halt", "membar", "vredsum", "vredmax", "vsta.pack", "vld.dintlv", "pand", "v0.u16", "v31.f32", "v1",
          "p0", "p0.b16", "p9", "a0", "a1.b32", "s1", "s40", "[", "]", "[out]", "[out + s1 + a0]", "M4", "VL128",
          "loop", "loop:", "out", "0x1f", "1e999", "99999999999999999999999", "-1", "nan", "inf", ",", "(", ")",
          "1//0", "i", 'file("x.npy")', "1<<70", ".ub", ".equ", ".out", ".expect", "=", "@", "u16[4]", "f16[0]",
          "VV_ALL", "; c", "// c", "\t", "é", "中", "\x00", "\r"]


def assert_assembles_or_fails_cleanly(text: str):
    try:
        assemble(text, "prop.s")
    except AssemblyFailed as failed:
        lines = text.split("\n")
        assert failed.errors
        for error in failed.errors:
            assert 1 <= error.loc.line <= len(lines)
            assert 1 <= error.loc.col <= len(lines[error.loc.line - 1]) + 2
        assert str(failed)


@pytest.mark.slow
@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_arbitrary_text(text):
    assert_assembles_or_fails_cleanly(text)


@pytest.mark.slow
@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(TOKENS), max_size=7).map(" ".join), max_size=8))
def test_token_soup(lines):
    assert_assembles_or_fails_cleanly("\n".join([".ub out u16[128] = i", "loop: halt", *lines]))


@st.composite
def mutated_program(draw):
    text = list(draw(st.sampled_from(PROGRAMS)))
    for _ in range(draw(st.integers(1, 8))):
        position = draw(st.integers(0, max(0, len(text) - 1)))
        action = draw(st.sampled_from(["flip", "delete", "insert", "truncate"]))
        if action == "flip" and text:
            text[position] = chr(ord(text[position]) ^ (1 << draw(st.integers(0, 6))))
        elif action == "delete" and text:
            del text[position]
        elif action == "insert":
            text[position:position] = list(draw(st.sampled_from(list(",[]();.:=@ \n") + ["é", "\x00", "s9", "0x"])))
        elif action == "truncate":
            del text[position:]
    return "".join(text)


@pytest.mark.slow
@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_program())
def test_mutated_programs(text):
    assert_assembles_or_fails_cleanly(text)


def test_very_long_line_and_many_lines():
    assert_assembles_or_fails_cleanly("    mov s0, " + "1 + " * 5000 + "1\n    halt\n")
    many = "\n".join(f"    add s{i % 32}, s{(i + 1) % 32}, {i}" for i in range(100_000))
    program = assemble(many + "\n    halt\n", "long.s")
    assert len(program.insns) == 100_001
