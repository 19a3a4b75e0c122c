"""INIT expressions of the element index i: computed exactly whether they run on int64 arrays (when
every intermediate value provably fits) or on Python integers (when one might not), and bounded.
Expected values are Python's own integer arithmetic on each index, element by element."""
from __future__ import annotations

import numpy as np
import pytest

from ascasm import AssemblyFailed, assemble
from ascasm.limits import MAX_WIDE_ELEMENT_OPS


def init_values(tname: str, count: int, init: str) -> list:
    program = assemble(f".ub a {tname}[{count}] = {init}\nhalt\n", "t.s")
    buf = program.buffers["a"]
    return [int(v) for v in buf.view(program.initial_state().ub).astype(object)]


def python_values(tname: str, count: int, function) -> list:
    """function(i) for each index, wrapped into the type's bits as a two's complement integer."""
    bits = int(tname[1:]) if tname[1:].isdigit() else 8
    out = []
    for i in range(count):
        value = function(i) % (1 << bits)
        out.append(value - (1 << bits) if tname.startswith("s") and value >= 1 << (bits - 1) else value)
    return out


@pytest.mark.parametrize("tname, init, function", [
    # the reproducer, shortened: a long sum of i, then a remainder
    ("u8", "(" + "+".join(["i"] * 301) + ") % 256", lambda i: (301 * i) % 256),
    # floor division and remainder of negative values round toward minus infinity, as in Python
    ("s32", "(i - 50) // 7 + (i - 50) % 7 * 1000", lambda i: (i - 50) // 7 + (i - 50) % 7 * 1000),
    ("s32", "(50 - i) // -3", lambda i: (50 - i) // -3),
    # bitwise operations on negative values: two's complement of unbounded width
    ("s16", "(-i) & 0x7ff | (i ^ -3)", lambda i: (-i) & 0x7FF | (i ^ -3)),
    ("s64", "(-i - 1) >> 3", lambda i: (-i - 1) >> 3),
    # intermediate values beyond 64 bits (they leave int64) and back within
    ("u64", "(i * 0x100000000 * 0x100000000 + i) % 0xffffffffffffffff", lambda i: (i << 64 | i) % 0xFFFFFFFFFFFFFFFF),
    ("s64", "-0x8000000000000000 + i", lambda i: -(1 << 63) + i),
    ("u64", "0x7fffffffffffffff + i", lambda i: (1 << 63) - 1 + i),
    ("u64", "((i % 2) << 62) * 4 >> 1", lambda i: ((i % 2) << 62) * 4 >> 1),
    ("s64", "(-0x8000000000000000 + i) // (i % 2 * 2 - 1)", lambda i: (-(1 << 63) + i) // (i % 2 * 2 - 1)),
    ("u64", "(i % 2) << 63 | i", lambda i: (i % 2) << 63 | i),
    ("s32", "-(-0x7fffffffffffffff - i) % 1000", lambda i: -(-(1 << 63) + 1 - i) % 1000),
])
def test_index_expressions_are_exact(tname, init, function):
    assert init_values(tname, 200, init) == python_values(tname, 200, function)


def test_true_division_of_large_integers_is_correctly_rounded():
    # 2^60 + 1 .. has no float64 of its own: Python's int / int rounds the exact quotient once
    count = 40
    program = assemble(f".ub a f32[{count}] = (0x1000000000000001 + i * 0x10000000001) / 3\nhalt\n", "t.s")
    got = program.buffers["a"].view(program.initial_state().ub)
    expected = np.array([((1 << 60) + 1 + i * 0x10000000001) / 3 for i in range(count)], np.float64)
    np.testing.assert_array_equal(got, expected.astype(np.float32))


def test_values_that_do_not_fit_are_still_refused():
    with pytest.raises(AssemblyFailed, match="does not fit in u8"):
        assemble(".ub a u8[300] = i\nhalt\n", "t.s")
    with pytest.raises(AssemblyFailed, match="wider than 256 bits"):
        assemble(".ub a u8[4] = (i + 1) << 120 << 120 << 120\nhalt\n", "t.s")


def test_work_on_integers_beyond_64_bits_is_bounded():
    # each term leaves int64, so every addition runs on Python integers: 200 of them over 253,952
    # elements pass the bound; the message says what to do
    terms = " + ".join(["i * 0x10000000000000000"] * 200)
    with pytest.raises(AssemblyFailed) as failure:
        assemble(f".ub a u8[253952] = ({terms}) % 256\nhalt\n", "t.s")
    message = str(failure.value)
    assert f"{MAX_WIDE_ELEMENT_OPS:,} element operations" in message and "64 bits" in message
