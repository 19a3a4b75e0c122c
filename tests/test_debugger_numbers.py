"""The debugger's numbers: what `p` prints is the shortest text that reads back as the same value
(so 3.5 prints as 3.5, 100/3 with all 16 digits a float64 needs), 64-bit integer edges are exact or
refused, and the commands that take numbers never end in a Python error. Expected texts are the
decimal values worked out by hand (-1.9375 = -31/16, 4.125 = 33/8, -5.8125 = -93/16 are exact in
f32)."""
from __future__ import annotations

import warnings

import pytest

from ascasm import assemble
from test_debugger import after, session

FLOATS = """\
.ub src f32[8] = [-8, -1.9375, 4.125, -5.8125, 1, 2, 3, 4]
    vld v0.f32, [src]
    halt
"""


def printed(command: str, *before: str) -> list[str]:
    text = session(assemble(FLOATS, "floats.s"), "\n".join([*before, command, ""]), engine="ref")
    return after(text, command)


@pytest.mark.parametrize("command, expected", [
    ("p 3.5", "3.5 = 3.5"),
    ("p 100/3", "100 / 3 = 33.333333333333336"),         # the float64 nearest 100/3, as Python's repr
    ("p 1/3.0", "1 / 3.0 = 0.3333333333333333"),
    ("p 2.5e-8", "2.5e-08 = 2.5e-08"),
    ("p 0.1 + 0.2", "0.1 + 0.2 = 0.30000000000000004"),
])
def test_a_float_prints_as_the_shortest_text_that_reads_back(command, expected):
    assert printed(command) == [expected]


def test_float_lanes_in_arithmetic_print_exactly():
    assert printed("p v0.f32[0:4] + 0", "s") == ["v0.f32[0:4] + 0: 4 lanes", "  [0]      -8 -1.9375   4.125 -5.8125"]


def test_the_int64_edges_are_exact_or_refused():
    assert printed("p -9223372036854775808") == ["-9223372036854775808 = -9223372036854775808"]
    assert printed("p 18446744073709551615") == ["18446744073709551615 = 18446744073709551615"]
    assert printed("set var s0 = -9223372036854775809") == [
        "error: -9223372036854775809 does not fit in 64 bits (-9223372036854775808..18446744073709551615)"]
    assert printed("set var s0 = -9223372036854775808") == ["s0 = -9223372036854775808 (0x8000000000000000)"]
    assert printed("p 0x10000000000000000")[0].startswith("error: 18446744073709551616 does not fit in 64 bits")


def test_x_without_a_count_is_a_hexdump_of_64_bytes():
    lines = printed("x src")
    assert len(lines) == 4 and lines[0].startswith("0x00000:  00 00 00 c1")    # -8.0f = 0xc1000000


def test_an_unaligned_store_register_with_nothing_pending_prints():
    assert printed("p u0") == ["u0 (nothing pending): u8, 0 bytes"]


def test_setting_a_float_lane_beyond_its_range_rounds_without_a_numpy_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")                   # a RuntimeWarning would fail the test
        lines = printed("set var v0.f16[0] = 1e10")
    assert lines == ["v0.f16[0] = inf (bits 0x7c00)"]                # f16's largest is 65504
