"""vhist.bin0/.bin1 and vchist.bin0/.bin1 (c-api-reg histogram_compute asc_frequency_histogram.md,
asc_cumulative_histogram.md) on both executors, against numpy counting written here."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_source


def program(values, start, mask, body):
    return f"""
        .ub x u8[256] = [{', '.join(map(str, values))}]
        .ub h u16[128] = [{', '.join(map(str, start))}]
            mask p0.b8, {mask}
            vld v0.u8, [x]
            vld v1.u16, [h]
    """ + body


@pytest.mark.parametrize("mask", ["ALL", "M3", "H"])
def test_histograms_add_to_the_destination(engine, mask):
    rng = np.random.default_rng(3)
    values = rng.integers(0, 256, 256)
    values[:6] = [0, 127, 128, 255, 255, 7]
    start = rng.integers(0, 65536, 128)
    start[5] = 65535                                          # a count that wraps
    values[6 * 3] = 5                                          # ... by one (lane 18 is active under M3 and H)
    body = "".join(f"vld v{2 + k}.u16, [h]\n{m} v{2 + k}.u16, v0.u8, p0\n"
                   for k, m in enumerate(["vhist.bin0", "vhist.bin1", "vchist.bin0", "vchist.bin1"]))
    m = run_source(program(values, start, mask, body), engine)
    active = {"ALL": np.ones(256, bool), "M3": np.arange(256) % 3 == 0, "H": np.arange(256) < 128}[mask]
    for k, (base, cumulative) in enumerate([(0, False), (128, False), (0, True), (128, True)]):
        counts = np.zeros(128, np.int64)
        for v, on in zip(values, active):
            if on and base <= v < base + 128:
                counts[v - base] += 1
        if cumulative:
            counts = np.cumsum(counts)
        expected = (start + counts) % 65536
        assert m.state.vreg[2 + k].view(np.uint16).tolist() == expected.tolist(), (base, cumulative)


def test_histogram_by_hand(engine):
    # values 0..255 once each, histogram starting at 0: every bin count 1; cumulative: n + 1
    m = run_source(program(list(range(256)), [0] * 128, "ALL", """
            vhist.bin1 v1.u16, v0.u8, p0
            vdup v2.u16, 0
            vchist.bin0 v2.u16, v0.u8, p0
    """), engine)
    assert m.state.vreg[1].view(np.uint16).tolist() == [1] * 128
    assert m.state.vreg[2].view(np.uint16).tolist() == list(range(1, 129))


def test_histogram_program_expectations_match_numpy():
    """programs/histogram.s: its .expect values are np.bincount (and its cumulative sums) of its input
    formula, computed here; test_programs runs it on both executors against them."""
    from pathlib import Path

    from ascasm import assemble_file
    program = assemble_file(Path(__file__).resolve().parent.parent / "programs" / "histogram.s")
    i = np.arange(1024)
    counts = np.bincount((i * i) % 251 + i % 5, minlength=256)
    cumulative = np.concatenate([np.cumsum(counts[:128]), np.cumsum(counts[128:])])
    expects = {e.buffer.name: e for e in program.expects}
    assert expects["freq"].values.tolist() == counts.tolist()
    assert expects["cum"].values.tolist() == cumulative.tolist()
