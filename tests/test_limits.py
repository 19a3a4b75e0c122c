"""Bounded work on any input (ascasm/limits.py, docs/cli.md "Limits"): a small source cannot make the
assembler compute huge numbers, echo huge tokens or report errors without end; every bound is a
located error, never a traceback, a hang or a numpy warning."""
import re
import time
import tracemalloc
import warnings

import pytest

from ascasm import AssemblyFailed, assemble, assemble_file
from ascasm.asm import parser
from ascasm.limits import (MAX_ERRORS, MAX_INT_BITS, MAX_LINE_CHARS, MAX_LINES, MAX_NESTING, MAX_SHOWN_TOKEN,
                           MAX_SOURCE_BYTES)


def errors_of(text: str):
    with pytest.raises(AssemblyFailed) as failed:
        assemble(text, "t.s")
    return failed.value.errors


def single_error(text: str):
    (error,) = errors_of(text)
    return error


def test_squaring_constants_stops_at_the_integer_width_limit():
    # each line squares the last: without a bound, 24 such lines take gigabytes
    lines = [".equ K0 1 << 128"] + [f".equ K{n} K{n - 1} * K{n - 1}" for n in range(1, 24)]
    start = time.monotonic()
    errors = errors_of("\n".join(lines))
    assert time.monotonic() - start < 5
    assert (errors[0].loc.line, errors[0].message) == (2, f"an intermediate value is wider than {MAX_INT_BITS} bits")
    assert len(errors) == 1       # later constants use K1, whose declaration failed: no cascade


def test_the_integer_width_limit_is_inclusive():
    # 2^255 is 256 bits wide, 2^256 is 257
    assert assemble(".equ K ((1 << 128) << 127) >> 127 >> 123\nmov s0, K", "t.s").code[0][5] == 32
    error = single_error(".equ K (1 << 128) * (1 << 128)\n")
    assert error.message == f"an intermediate value is wider than {MAX_INT_BITS} bits"


@pytest.mark.parametrize("digits", ["9" * 5000, "0x" + "f" * 5000, "0b" + "1" * 300])
def test_huge_literals_are_located_errors_with_a_short_echo(digits):
    error = single_error(f"mov s0, {digits}\n")
    assert (error.loc.line, error.loc.col) == (1, 9)
    assert error.message.startswith(f"number {digits[:MAX_SHOWN_TOKEN]}... ")
    assert error.message.endswith(f"is wider than {MAX_INT_BITS} bits")
    assert len(error.message) < MAX_SHOWN_TOKEN + 80


def test_leading_zeros_do_not_count():
    assert assemble("mov s0, " + "0" * 1000 + "42", "t.s").code[0][5] == 42


@pytest.mark.parametrize("literal", ["0x_", "0b_", "0x", "0b2", "12ab", "1e", "0x1_", "1__0"])
def test_malformed_numbers(literal):
    error = single_error(f"mov s0, {literal}\n")
    assert error.message == f"malformed number {literal!r}"
    assert (error.loc.col, error.loc.end_col) == (9, 9 + len(literal))


def test_grouped_digits():
    program = assemble("mov s0, 0xff_ff\nmov s1, 1_000\nmov s2, 0b1_0", "t.s")
    assert [row[5] for row in program.code] == [0xffff, 1000, 2]


@pytest.mark.parametrize("line, col", [
    (".ub a f32[4] = 1e400", 16),
    (".ub a f32[4] = 1e308 * 10", 16),
    (".ub a f32[4] = 1e300 * (i + 1) * 1e10", 16),
    ("mov s0, -1e308 - 1e308", 9),
])
def test_float_overflow_is_an_error(line, col):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        error = single_error(line)
    assert error.loc.col == col
    assert "overflow" in error.message


def test_explicit_infinity_is_not_an_overflow():
    program = assemble(".ub a f32[2] = inf * (i + 1)\n.ub b f16[2] = [-inf, nan]", "t.s")
    assert program.buffers["a"].data.tolist() == [float("inf")] * 2


@pytest.mark.parametrize("init", ["i / 0.0", "i // 0", "i % (i - i)", "1 / (i * 0.0)"])
def test_division_by_zero_in_init_is_an_error_without_numpy_warnings(init):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        error = single_error(f".ub a f32[4] = {init}")
    assert error.message == "division by zero"


@pytest.mark.parametrize("depth, ok", [(MAX_NESTING, True), (MAX_NESTING + 1, False)])
def test_nesting_depth(depth, ok):
    parenthesised = "mov s0, " + "(" * depth + "1" + ")" * depth
    negated = "mov s0, " + "-" * depth + "1"
    for text in (parenthesised, negated):
        if ok:
            assert assemble(text, "t.s").code[0][5] == (1 if text is parenthesised else (-1) ** depth)
        else:
            error = single_error(text)
            assert error.message == f"expression nested deeper than {MAX_NESTING} levels"
            assert error.loc.col == 9


def test_line_length():
    long_line = "mov s0, 1" + " " * MAX_LINE_CHARS
    errors = errors_of(f"halt\n{long_line}\nb nowhere\n")
    assert [(e.loc.line, e.loc.col) for e in errors] == [(2, MAX_LINE_CHARS + 1), (3, 3)]
    assert errors[0].message == f"the line is {len(long_line):,} characters long; the limit is {MAX_LINE_CHARS:,}"


def test_line_count():
    # tiny statements cost memory and time per line: a few bytes each must not add up to gigabytes
    start = time.monotonic()
    error = single_error("halt\n" * MAX_LINES + "halt")
    assert time.monotonic() - start < 5
    assert (error.loc.line, error.loc.col) == (MAX_LINES + 1, 1)
    assert error.message == f"the source has {MAX_LINES + 1:,} lines; the limit is {MAX_LINES:,}"
    # the limit itself is allowed, with or without a final "\n" (which ends a line and starts none)
    for text in ("\n" * (MAX_LINES - 1) + "halt\n", "\n" * (MAX_LINES - 1) + "halt"):
        assert assemble(text, "t.s").insns[0].loc.line == MAX_LINES


def test_token_count(monkeypatch):
    # every token of a statement is kept until the second pass: a source within the size limits,
    # made of short tokens (1+1+1...), must not add up to gigabytes; the limit stops the parse there
    monkeypatch.setattr(parser, "MAX_TOKENS", 1000)
    assert len(assemble("halt\n" * 1000, "t.s").insns) == 1000
    errors = errors_of("mov s0,, 1\n" + "halt\n" * 1000 + "mov s0, 1\nb nowhere\n")
    assert [(e.loc.line, e.loc.col) for e in errors] == [(1, 8), (1002, 1)]    # nothing reported after it
    assert errors[1].message == "the source has more than 1,000 tokens; the limit is 1,000"


@pytest.mark.parametrize("source", [
    ("mov s0, " + "+".join(["1"] * 8000) + "\n") * 2,          # 32,004 tokens
    ".ub a u8[8000] = [" + ",".join(["1"] * 8000) + "]\n",    # 16,000 tokens
])
def test_memory_per_token(source):
    # what MAX_TOKENS bounds (docs/cli.md "Limits"): under 160 bytes per token kept to the second pass
    # (the peak of the whole assembly), so that a source at the limit stays near 300 MB
    tokens = len(re.findall(r"[\w.]+|[^\w\s]", source))
    tracemalloc.start()
    try:
        assemble(source, "t.s")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak / tokens < 160


def test_source_size(tmp_path):
    error = single_error(";" * MAX_SOURCE_BYTES + "\nhalt")
    assert (error.loc.line, error.loc.col) == (1, 1)
    assert "the limit is" in error.message
    path = tmp_path / "big.s"
    path.write_bytes(b";" * (MAX_SOURCE_BYTES + 1))
    with pytest.raises(AssemblyFailed) as failed:
        assemble_file(path)
    assert failed.value.errors[0].message == f"{path} is {MAX_SOURCE_BYTES + 1:,} bytes; the limit is {MAX_SOURCE_BYTES:,}"


@pytest.mark.parametrize("line", [
    "vldd{} v0.u16, [0]",           # unknown mnemonic
    "mov s0, x{}",                  # unknown name
    "b x{}",                        # undefined label
    "mask p0.b16, X{}",             # unknown pattern
    ".ub a u{}[4]",                 # unknown type
])
def test_a_long_bad_token_is_echoed_short(line):
    token_tail = "q" * 60_000
    error = single_error(line.format(token_tail))
    assert len(error.message) < MAX_SHOWN_TOKEN + 80
    assert "(60,00" in error.message                    # the echo says how long the token is


def test_error_count_is_bounded():
    failed_text = "\n".join(["mov s0,, 1"] * (MAX_ERRORS + 50))
    with pytest.raises(AssemblyFailed) as failed:
        assemble(failed_text, "t.s")
    assert len(failed.value.errors) == MAX_ERRORS
    assert str(failed.value).endswith(f"{MAX_ERRORS} errors; too many errors, stopped here")
    semantic = "\n".join(["b nowhere"] * (MAX_ERRORS + 50))
    with pytest.raises(AssemblyFailed) as failed:
        assemble(semantic, "t.s")
    assert len(failed.value.errors) == MAX_ERRORS and failed.value.truncated


def test_a_long_line_is_shown_around_the_caret():
    line = "mov s0, 1 + " + "2 + " * 3000 + "nowhere"
    text = str(single_error(line))
    shown_line, caret = text.splitlines()[1:3]
    assert shown_line.startswith("    ...") and shown_line.endswith("nowhere")
    assert len(shown_line) < 2 * MAX_SHOWN_TOKEN + 10
    assert shown_line[caret.index("^"):].startswith("nowhere")
