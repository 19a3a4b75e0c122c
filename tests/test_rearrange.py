"""vintlv / vdintlv (c-api-reg data_rearrange asc_intlv.md, asc_deintlv.md) and vunpack.lo / .hi
(data_compress asc_unpack.md) on both executors. Expected values from numpy indexing written here."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble

WIDTHS = {"s8": 1, "u8": 1, "e4m3": 1, "hif8": 1, "s16": 2, "f16": 2, "bf16": 2, "u32": 4, "f32": 4}


def source(t, body):
    w = WIDTHS[t]
    n = 256 // w
    return f"""
        .ub a u{8 * w}[{n}] = (i + 1) % {1 << (8 * w)}
        .ub b u{8 * w}[{n}] = (i + {n + 1}) % {1 << (8 * w)}
            vld v0.{t}, [a]
            vld v1.{t}, [b]
    """ + body


def lanes(m, v, t):
    return m.state.vreg[v].view(f"u{WIDTHS[t]}").tolist()


@pytest.mark.parametrize("t", list(WIDTHS))
def test_interleave_and_back(engine, t):
    n = 256 // WIDTHS[t]
    a, b = np.arange(1, n + 1) % (1 << (8 * WIDTHS[t])), np.arange(n + 1, 2 * n + 1) % (1 << (8 * WIDTHS[t]))
    m = run_source(source(t, f"""
            vintlv v2.{t}, v3.{t}, v0.{t}, v1.{t}
            vdintlv v4.{t}, v5.{t}, v2.{t}, v3.{t}
            vintlv v0.{t}, v1.{t}, v0.{t}, v1.{t}
    """), engine)
    both = np.empty(2 * n, int)
    both[0::2], both[1::2] = a, b
    assert lanes(m, 2, t) == both[:n].tolist() and lanes(m, 3, t) == both[n:].tolist()
    assert lanes(m, 4, t) == a.tolist() and lanes(m, 5, t) == b.tolist()      # deinterleave undoes it
    assert lanes(m, 0, t) == both[:n].tolist() and lanes(m, 1, t) == both[n:].tolist()   # in place


def test_deinterleave_by_hand(engine):
    # u32: a = 1..64, b = 65..128; even elements of a then b: 1, 3, ..., 63, 65, ..., 127
    m = run_source(source("u32", "vdintlv v2.u32, v3.u32, v0.u32, v1.u32\n"), engine)
    assert lanes(m, 2, "u32") == list(range(1, 129, 2)) and lanes(m, 3, "u32") == list(range(2, 129, 2))


def test_same_destination_twice_keeps_vd1(engine):
    m = run_source(source("u32", "vintlv v2.u32, v2.u32, v0.u32, v1.u32\n"), engine)
    assert lanes(m, 2, "u32")[:2] == [33, 97]          # vD1 (the high halves) is written last


@pytest.mark.parametrize("dest,src", [("u16", "u8"), ("s16", "s8"), ("u32", "u16"), ("s32", "s16")])
def test_unpack(engine, dest, src):
    ws = {"u8": 1, "s8": 1, "u16": 2, "s16": 2}[src]
    n = 256 // ws
    values = np.arange(n, dtype=np.int64) * 3 - 40            # negative and positive
    m = run_source(f"""
        .ub a u{8 * ws}[{n}] = [{', '.join(str(int(v) % (1 << (8 * ws))) for v in values)}]
            vld v0.{src}, [a]
            vunpack.lo v1.{dest}, v0.{src}
            vunpack.hi v2.{dest}, v0.{src}
            vunpack.hi v0.{dest}, v0.{src}
    """, engine)
    as_src = values.astype({"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "s16": np.int16}[src])
    wide = as_src.astype(np.int64)                    # zero- or sign-extended as the source type says
    dtype = {"u16": np.uint16, "s16": np.int16, "u32": np.uint32, "s32": np.int32}[dest]
    assert m.state.vreg[1].view(dtype).tolist() == wide[:n // 2].tolist()
    assert m.state.vreg[2].view(dtype).tolist() == wide[n // 2:].tolist()
    assert m.state.vreg[0].view(dtype).tolist() == wide[n // 2:].tolist()


@pytest.mark.parametrize("line", ["vunpack.lo v0.u32, v1.u8", "vunpack.hi v0.s16, v1.u8", "vintlv v0.s64, v1.s64, v2.s64, v3.s64"])
def test_types_are_the_pages(line):
    with pytest.raises(AssemblyFailed):
        assemble(line + "\n")
