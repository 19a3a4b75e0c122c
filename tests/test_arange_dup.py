"""vci.desc (c-api-reg index_operate asc_arange.md, asc_arange_descend) and vdup.v (data_fill
asc_duplicate.md) on both executors; expected values: the page's example and numpy written here."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_source


def test_page_example(engine):
    # the page: int16, value 10: increasing {10, 11, ..., 137}, decreasing {137, 136, ..., 10}
    m = run_source("vci v0.s16, 10\nvci.desc v1.s16, 10\n", engine)
    assert m.state.vreg[0].view(np.int16).tolist() == list(range(10, 138))
    assert m.state.vreg[1].view(np.int16).tolist() == list(range(137, 9, -1))


@pytest.mark.parametrize("t,start", [("s8", "120"), ("s32", "-5"), ("f16", "-65504"), ("f32", "2.5")])
def test_descending_is_the_ascending_reversed(engine, t, start):
    m = run_source(f"vci v0.{t}, {start}\nvci.desc v1.{t}, {start}\n", engine)
    width = {"s8": 1, "s32": 4, "f16": 2, "f32": 4}[t]
    up, down = (m.state.vreg[v].view(f"u{width}").tolist() for v in (0, 1))
    assert down == up[::-1]


@pytest.mark.parametrize("t", ["u8", "s16", "f16", "bf16", "f32", "e4m3"])
def test_duplicate_lane_zero(engine, t):
    width = {"u8": 1, "s16": 2, "f16": 2, "bf16": 2, "f32": 4, "e4m3": 1}[t]
    n = 256 // width
    m = run_source(f"""
        .ub a u{8 * width}[{n}] = (i * 3 + 7) % {min(1 << (8 * width), 251)}
            mask p0.b{8 * width}, M3
            vld v0.{t}, [a]
            vdup.v v1.{t}, v0.{t}, p0
            vdup.v v0.{t}, v0.{t}, p0
    """, engine)
    for v in (1, 0):
        assert m.state.vreg[v].view(f"u{width}").tolist() == [7 if i % 3 == 0 else 0 for i in range(n)]
