"""Add and subtract with carry (c-api-reg arithmetic_compute asc_addc.md, asc_subc.md) on both executors:
`vaddc`/`vsubc pD, vD.u32, vA.u32, vB.u32, pC, pM`. Expected values: boundary-values tables 13 and 15
typed in (each row with the carry-in it implies, page-ambiguities 10), the pages' uint64 example, and
64-bit arithmetic on Python integers as an independent model."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble

MAX, MIN = 0xFFFFFFFF, 0x80000000           # u32 MAX; int32 MIN's bits (the tables' int32 rows)
INT32_MAX = 0x7FFFFFFF


def lanes_program(op: str, a: list, b: list, carry_in: list, active: int = 64) -> str:
    """vA, vB from buffers, pC with bit 4i set where carry_in[i], pM the lowest `active` lanes."""
    def words(values):
        return ", ".join(str(v) for v in values)
    carry_bytes = [0] * 32
    for i, c in enumerate(carry_in):
        if c:
            carry_bytes[i // 2] |= 1 << (4 * (i % 2))
    return f"""
        .ub a u32[64] = [{words(a)}]
        .ub b u32[64] = [{words(b)}]
        .ub c u8[32] = [{words(carry_bytes)}]
        vld  v0.u32, [a]
        vld  v1.u32, [b]
        vld  p1, [c]
        mask p0.b32, {"ALL" if active == 64 else f"VL{active}"}
        {op} p2, v2.u32, v0.u32, v1.u32, p1, p0
    """


def carries(machine, p: int) -> list:
    """Bit 4i of mask register p, per lane, and a check that no other bit is set."""
    bits = np.unpackbits(machine.state.preg[p], bitorder="little")
    assert not bits.reshape(64, 4)[:, 1:].any()
    return bits[::4].tolist()


# (src0, src1, carry-in, dst): table 13 (AddC) and table 15 (SubC). The tables give no carry-in; AddC's
# uint32 MAX + MAX = MAX needs 1 and its int32 rows need 0; every SubC row needs 1 (no borrow).
ADDC_TABLE_13 = [(MAX, MAX, 1, MAX), (MIN, MIN, 0, 0), (MIN, INT32_MAX, 0, MAX), (INT32_MAX, INT32_MAX, 0, 0xFFFFFFFE)]
SUBC_TABLE_15 = [(MAX, MAX, 1, 0), (MIN, MIN, 1, 0), (MIN, INT32_MAX, 1, 1), (INT32_MAX, INT32_MAX, 1, 0),
                 (INT32_MAX, MIN, 1, MAX)]


@pytest.mark.parametrize("op, rows", [("vaddc", ADDC_TABLE_13), ("vsubc", SUBC_TABLE_15)])
def test_boundary_tables(engine, op, rows):
    a, b, c, dst = (list(column) for column in zip(*rows))
    m = run_source(lanes_program(op, a, b, c, active=8), engine)
    assert m.state.vreg[2].view(np.uint32)[:len(rows)].tolist() == dst


def test_page_examples_uint64(engine):
    """The pages' uint64 examples: 0xFFFFFFFF_FFFFFFFF + 8 = 0x00000000_00000007 (the carry of the low
    words goes into the high words) and 0xFFFFFFFF_FFFFFFFF - 8 = 0xFFFFFFFF_FFFFFFF7."""
    m = run_source("""
        mask  p0.b32, ALL
        mask  p1.b32, ALLF            ; no carry into the low words of a sum
        mask  p4.b32, ALL             ; no borrow from the low words of a difference
        vdup  v0.u32, 0xFFFFFFFF      ; a: low and high words
        vdup  v1.u32, 8               ; b: low word
        vdup  v2.u32, 0               ; b: high word
        vaddc p2, v3.u32, v0.u32, v1.u32, p1, p0
        vaddc p3, v4.u32, v0.u32, v2.u32, p2, p0
        vsubc p5, v5.u32, v0.u32, v1.u32, p4, p0
        vsubc p6, v6.u32, v0.u32, v2.u32, p5, p0
    """, engine)
    u32 = m.state.vreg.view(np.uint32).reshape(32, 64)
    assert (u32[3] == 7).all() and (u32[4] == 0).all()
    assert (u32[5] == 0xFFFFFFF7).all() and (u32[6] == 0xFFFFFFFF).all()
    assert carries(m, 3) == [1] * 64               # the sum overflows 64 bits
    assert carries(m, 6) == [1] * 64               # no borrow: a >= b


@pytest.mark.parametrize("op", ["vaddc", "vsubc"])
def test_random_lanes_against_python_integers(engine, op):
    rng = np.random.default_rng(5)
    special = [0, 1, MAX, MAX - 1, MIN, INT32_MAX]
    a = special + rng.integers(0, 1 << 32, 58, dtype=np.uint64).tolist()
    b = special[::-1] + rng.integers(0, 1 << 32, 58, dtype=np.uint64).tolist()
    c = rng.integers(0, 2, 64).tolist()
    m = run_source(lanes_program(op, a, b, c, active=32), engine)
    for i in range(64):
        if op == "vaddc":
            total = a[i] + b[i] + c[i]
        else:
            total = a[i] - b[i] - (1 - c[i]) + (1 << 32)    # a - b - borrow; carry 1 when nothing is borrowed
        expected = (total % (1 << 32), total >> 32) if i < 32 else (0, 0)
        assert (int(m.state.vreg[2].view(np.uint32)[i]), carries(m, 2)[i]) == expected, (op, i)


def test_destinations_may_be_sources(engine):
    m = run_source("""
        mask  p0.b32, ALL
        vdup  v0.u32, 0xFFFFFFFF
        vaddc p0, v0.u32, v0.u32, v0.u32, p0, p0     ; carry-in 1 everywhere; pD = pC = pM
    """, engine)
    assert (m.state.vreg[0].view(np.uint32) == 0xFFFFFFFF).all()
    assert carries(m, 0) == [1] * 64


def test_unset_masks_fault_and_write_nothing(engine):
    for masks, unset in (("p1, p0", 1), ("p0, p3", 3)):
        m = run_source(f"""
            mask  p0.b32, ALL
            vdup  v0.u32, 3
            vaddc p2, v0.u32, v0.u32, v0.u32, {masks}
        """, engine)
        assert m.stop_name == "MASK_UNSET" and m.state.ctrl[3] == unset
        assert (m.state.vreg[0].view(np.uint32) == 3).all() and not m.state.preg_set[2]


@pytest.mark.parametrize("bad", ["vaddc p2, v0.s32, v1.s32, v2.s32, p1, p0",
                                 "vsubc p2, v0.u16, v1.u16, v2.u16, p1, p0"])
def test_only_the_pages_type(bad):
    with pytest.raises(AssemblyFailed) as failure:
        assemble(bad + "\n", "t.s")
    assert "u32" in str(failure.value)
