"""Datablock reductions (c-api-reg reduce_compute asc_reduce_sum/max/min_datablock.md) on both
executors, against a numpy model written here: per 32-byte block, a pairwise tree in the type (f16 and
f32 numpy arithmetic round each partial), integer sums wrapping, max/min with -0 below +0 and the first
NaN winning; inactive lanes as the identity; lanes 8.. of the result 0."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_source

NP = {"f16": np.float16, "f32": np.float32, "u16": np.uint16, "s16": np.int16, "u32": np.uint32,
      "s32": np.int32}


def pairwise(values):
    while len(values) > 1:
        values = [a + b for a, b in zip(values[0::2], values[1::2])]
    return values[0]


def model_sum(dest, source, x, active):
    per_block = 32 // np.dtype(NP[source]).itemsize
    out = np.zeros(256 // np.dtype(NP[dest]).itemsize, NP[dest])
    with np.errstate(all="ignore"):
        for k in range(8):
            block = [x[i] if active[i] else NP[source](0) for i in range(k * per_block, (k + 1) * per_block)]
            if dest.startswith("f"):
                out[k] = pairwise(block)                         # numpy scalars: each sum rounded to T
            else:
                wrapped = sum(int(v) for v in block) % (1 << (8 * np.dtype(NP[dest]).itemsize))
                out.view(f"u{np.dtype(NP[dest]).itemsize}")[k] = wrapped
    return out


def model_best(t, x, active, want_max):
    per_block = 32 // np.dtype(NP[t]).itemsize
    out = np.zeros(len(x), NP[t])
    is_float = t.startswith("f")
    for k in range(8):
        best, best_rank = None, None
        for i in range(k * per_block, (k + 1) * per_block):
            if not active[i]:
                continue
            v = x[i]
            if is_float and np.isnan(v):
                best = v
                break
            # order: value, then (floats) +0 above -0
            rank = (float(v), 0 if is_float and np.signbit(v) else 1) if is_float else int(v)
            if best is None or (rank > best_rank if want_max else rank < best_rank):
                best, best_rank = v, rank
        if best is None:
            best = (NP[t](-np.inf if want_max else np.inf) if is_float else
                    (np.iinfo(NP[t]).min if want_max else np.iinfo(NP[t]).max))
        out[k] = best
    return out


def operands(t, seed):
    n = 256 // np.dtype(NP[t]).itemsize
    rng = np.random.default_rng(seed)
    if t.startswith("f"):
        x = rng.normal(0, 100, n).astype(NP[t])
        x[3], x[4], x[9], x[17] = -0.0, 0.0, np.inf, -np.inf
        x[40], x[41] = np.nan, 5.0                               # a NaN in a later block
        return x
    info = np.iinfo(NP[t])
    return rng.integers(info.min, info.max, n, endpoint=True).astype(NP[t])


def buffer(t, x):
    bits = x.view(f"u{np.dtype(NP[t]).itemsize}")
    return f".ub x u{8 * np.dtype(NP[t]).itemsize}[{len(bits)}] = [{', '.join(map(str, bits.tolist()))}]\n"


@pytest.mark.parametrize("mask", ["ALL", "M3", "VL4"])
@pytest.mark.parametrize("dest,source", [("f16", "f16"), ("f32", "f32"), ("u32", "u16"), ("s32", "s16"),
                                         ("u32", "u32"), ("s32", "s32")])
def test_sum_per_block(engine, dest, source, mask):
    x = operands(source, 1)
    width = 8 * np.dtype(NP[source]).itemsize
    m = run_source(buffer(source, x) + f"""
        mask p0.b{width}, {mask}
        vld v0.{source}, [x]
        vredsum.blk v1.{dest}, v0.{source}, p0
        vredsum.blk v0.{dest}, v0.{source}, p0
    """, engine)
    n = len(x)
    active = {"ALL": [True] * n, "M3": [i % 3 == 0 for i in range(n)], "VL4": [i < 4 for i in range(n)]}[mask]
    expected = model_sum(dest, source, x, active).view(f"u{np.dtype(NP[dest]).itemsize}")
    nan_bits = {"f16": 0x7FFF, "f32": 0x7FFFFFFF}.get(dest)
    if nan_bits:                                                  # the hardware NaN
        expected = np.where(np.isnan(model_sum(dest, source, x, active)), nan_bits, expected)
    for v in (1, 0):
        assert m.state.vreg[v].view(expected.dtype).tolist() == expected.tolist(), (dest, source, mask, v)


@pytest.mark.parametrize("mask", ["ALL", "M3", "VL4"])
@pytest.mark.parametrize("t", ["f16", "f32", "u16", "s16", "u32", "s32"])
def test_max_min_per_block(engine, t, mask):
    x = operands(t, 2)
    width = 8 * np.dtype(NP[t]).itemsize
    m = run_source(buffer(t, x) + f"""
        mask p0.b{width}, {mask}
        vld v0.{t}, [x]
        vredmax.blk v1.{t}, v0.{t}, p0
        vredmin.blk v2.{t}, v0.{t}, p0
    """, engine)
    n = len(x)
    active = {"ALL": [True] * n, "M3": [i % 3 == 0 for i in range(n)], "VL4": [i < 4 for i in range(n)]}[mask]
    bits = f"u{width // 8}"
    for v, want_max in ((1, True), (2, False)):
        assert m.state.vreg[v].view(bits).tolist() == model_best(t, x, active, want_max).view(bits).tolist()


def test_block_sum_by_hand(engine):
    # u32 <- u16: block k holds 16 lanes i = 16k .. 16k+15 with value i: sum = 256k + 120
    m = run_source("""
        .ub x u16[128] = i
            mask p0.b16, ALL
            vld v0.u16, [x]
            vredsum.blk v1.u32, v0.u16, p0
    """, engine)
    assert m.state.vreg[1].view(np.uint32).tolist() == [256 * k + 120 for k in range(8)] + [0] * 56
