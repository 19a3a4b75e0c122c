"""Every test kernel's C++ variables at three breakpoints, against a numpy model of the kernel written
from its C++ and the Reg API's rules (zeroing masks, UpdateMask counting down, merging where the
kernel asks for it), never from ascasm's output; on both executors. The kernels the debugger tests
walk through in full (scale_sum, clamp_count, rmsnorm) are in tests/test_debugger_cpp.py.

A breakpoint stops before the first instruction of its line, each time the run gets there
(`run_kernel(breakpoints=...)`, the same lookup and the same variable reader as the debugger's `b`
and `p`); `crossing(result, LINE, k)` is the k-th of those stops."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import ascasm
from test_cpp_kernels import LANES_F32, lane_accumulate, padded, pairwise_sum, rounded

KERNELS = Path(__file__).parent / "kernels"


def run(name, entry, engine, breakpoints, **args):
    return ascasm.run_kernel(KERNELS / name, entry, engine=engine, breakpoints=breakpoints, **args)


def crossing(result, line: int, k: int):
    stops = [stop for stop in result.stops if stop.line == line]
    assert len(stops) > k, f"line {line} was reached {len(stops)} times"
    return stops[k]


def same(got, want):
    """Equal values of the same dtype (floats bit for bit)."""
    got, want = np.ascontiguousarray(got), np.ascontiguousarray(want)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    assert got.shape == want.shape and np.array_equal(got.view(np.uint8), want.view(np.uint8)), (got, want)


def active(count_left: int, lanes: int) -> np.ndarray:
    """UpdateMask's lanes: those below the count still to do."""
    return np.arange(lanes) < count_left


def test_add_int64(engine):
    # 32 lanes of 64 bits; 40 elements over two blocks; floor -5
    a = (np.arange(64, dtype=np.uint64) * np.uint64(0x0F0F_0F0F_0F0F_0F0F)).view(np.int64)
    b = (np.arange(64, dtype=np.uint64) * np.uint64(0x8000_0000_0000_0001)).view(np.int64)
    floor, count = np.int64(-5), 40
    result = run("add_int64.cpp", "AddInt64VF<int64_t>", engine, [17, 21, 23], dstAddr=np.full(64, 3, np.int64),
                 src0Addr=a, src1Addr=b, floor=int(floor), count=count, repeatTimes=2)
    with np.errstate(over="ignore"):
        sums = [np.where(active(count - 32 * i, 32), a[32 * i:32 * (i + 1)] + b[32 * i:32 * (i + 1)], 0)
                for i in range(2)]
    for i in range(2):
        added, chosen = crossing(result, 21, i), crossing(result, 23, i)
        same(added.var("dstReg"), sums[i])
        assert added.var("count") == max(count - 32 * (i + 1), 0) and added.var("i") == i
        same(chosen.var("low"), sums[i] < floor)
        same(chosen.var("dstReg"), np.where(sums[i] < floor, floor, sums[i]))
    second = crossing(result, 17, 1)            # block 1's UpdateMask: block 0 stored
    same(second.var("floorReg"), np.full(32, floor))
    same(second.var("dstAddr")[:32], np.where(sums[0] < floor, floor, sums[0]))
    assert second.var("oneRepeatSize") == 32 and second.var("count") == 8


def test_block_copy(engine):
    # every other 16-half block from src, one block further each repeat (the load's post-update moves
    # srcAddr); 8 blocks to dst, 8 blocks further each repeat; doubled
    src = (np.arange(1024) % 500).astype(np.float16)
    blocks = src.reshape(64, 16)
    result = run("block_copy.cpp", "BlockCopyVF<half>", engine, [14, 16, 17], dstAddr=np.zeros(1024, np.float16),
                 srcAddr=src, srcStride=2, dstStride=1, srcRepeat=1, dstRepeat=8, repeatTimes=3)
    for r in range(3):
        loading, adding, storing = crossing(result, 14, r), crossing(result, 16, r), crossing(result, 17, r)
        same(loading.var("srcAddr"), src[16 * r:])
        assert loading.var("dstAddr").size == 1024 - 128 * r            # moved on by the stores before
        same(adding.var("reg"), blocks[r:r + 16:2].ravel())
        same(adding.var("srcAddr"), src[16 * (r + 1):])
        same(storing.var("reg"), (blocks[r:r + 16:2].astype(np.float64) * 2).astype(np.float16).ravel())
        assert storing.var("i") == r


def test_bounds_add_one(engine):
    count = 100
    src = (np.arange(128, dtype=np.float32) - 30) * 0.25
    result = run("bounds.cpp", "AddOneVF", engine, [12, 14, 15], dstAddr=np.zeros(128, np.float32), srcAddr=src,
                 count=count)
    adding = crossing(result, 14, 0)
    same(adding.var("x"), src[:64])
    assert adding.var("count") == 36 and adding.var("repeats") == 2
    storing = crossing(result, 15, 1)
    same(storing.var("x"), np.where(active(36, 64), src[64:] + np.float32(1), np.float32(0)))
    same(storing.var("mask"), active(36, 64))
    second = crossing(result, 12, 1)
    same(second.var("dstAddr")[:64], src[:64] + np.float32(1))
    assert second.var("i") == 1 and second.var("count") == 36


def test_compact(engine):
    x = (np.arange(192) * 7 % 13 - 6).astype(np.float32)
    threshold = np.float32(1.5)
    result = run("compact.cpp", "CompactAboveVF", engine, [18, 19, 21], dstAddr=np.full(200, -9, np.float32),
                 srcAddr=x, threshold=float(threshold), repeatTimes=3)
    for i in range(3):
        chunk = x[64 * i:64 * (i + 1)]
        squeezing, storing = crossing(result, 18, i), crossing(result, 19, i)
        same(squeezing.var("x"), chunk)
        same(squeezing.var("above"), chunk > threshold)
        kept = chunk[chunk > threshold]
        same(storing.var("kept")[:kept.size], kept)
        assert squeezing.var("i") == i and squeezing.var("threshold") == threshold
    post = crossing(result, 21, 0)
    same(post.var("x"), x[128:])
    same(post.var("above"), x[128:] > threshold)


def test_quant_cast(engine):
    count = 100
    x = np.random.default_rng(5).uniform(-3000, 3000, count).astype(np.float32)
    scale = np.float32(0.37)
    result = run("quant_cast.cpp", "QuantCastVF", engine, [18, 20, 21], dstAddr=np.zeros(128, np.float16),
                 srcAddr=padded(x, LANES_F32), scale=float(scale), count=count)
    src = padded(x, LANES_F32)
    scaled = rounded(src.astype(np.float64) * scale, np.float32)
    for i in range(2):
        mask = active(count - 64 * i, 64)
        multiplying, casting = crossing(result, 20, i), crossing(result, 21, i)
        same(multiplying.var("x"), src[64 * i:64 * (i + 1)])
        assert multiplying.var("count") == max(count - 64 * (i + 1), 0) and multiplying.var("i") == i
        same(casting.var("x"), np.where(mask, scaled[64 * i:64 * (i + 1)], np.float32(0)))
        same(casting.var("mask"), mask)
    second = crossing(result, 18, 1)             # block 0 stored, packed to halves
    same(second.var("dstAddr")[:64], scaled[:64].astype(np.float16))
    assert second.var("repeatTimes") == 2 and second.var("oneRepeatSize") == 64


def test_row_sum(engine):
    rows = 5
    x = np.random.default_rng(3).normal(0, 100, (rows, LANES_F32)).astype(np.float32)
    sums = np.array([pairwise_sum(row) for row in x], np.float32)
    result = run("row_sum.cpp", "RowSumVF", engine, [12, 13, 14], dstAddr=np.full(8, -1, np.float32),
                 srcAddr=x.ravel(), rows=rows)
    for r in range(rows):
        reducing, storing = crossing(result, 13, r), crossing(result, 14, r)
        same(reducing.var("row"), x[r])
        same(storing.var("sum")[:1], sums[r:r + 1])
        assert storing.var("r") == r and storing.var("rowLength") == 64
    fourth = crossing(result, 12, 3)
    same(fourth.var("dstAddr"), np.concatenate([sums[:3], np.full(5, -1, np.float32)]))


def test_class_scope_block(engine):
    # LaneOffset<int16_t>: 128 lanes; x + lane index, wrapping at 16 bits, on the lanes UpdateMask leaves
    lanes, info = 128, np.iinfo(np.int16)
    count = 3 * lanes - 5
    src = np.random.default_rng(5).integers(info.min, info.max, 3 * lanes, endpoint=True).astype(np.int16)
    result = run("class_scope.cpp", "LaneOffset<int16_t>::Process#1", engine, [26, 27, 28],
                 dstAddr=np.full(3 * lanes, 9, np.int16), srcAddr=src, count=count, chunks=3)
    index = np.arange(lanes).astype(np.int16)
    for i in range(3):
        chunk, mask = src[lanes * i:lanes * (i + 1)], active(count - lanes * i, lanes)
        loading, adding, storing = crossing(result, 26, i), crossing(result, 27, i), crossing(result, 28, i)
        same(loading.var("index"), index)
        same(loading.var("mask"), mask)
        assert loading.var("count") == max(count - lanes * (i + 1), 0) and loading.var("i") == i
        same(adding.var("x"), chunk)
        wrapped = ((chunk.astype(np.int64) + index - info.min) % (1 << 16) + info.min).astype(np.int16)
        same(storing.var("x"), np.where(mask, wrapped, np.int16(0)))


def test_layernorm(engine):
    count, f32 = 150, np.float32
    rng = np.random.default_rng(13)
    x = rng.normal(3, 2, count).astype(f32)
    gamma = rng.uniform(0.5, 1.5, count).astype(f32)
    beta = rng.uniform(-1, 1, count).astype(f32)
    inv_count, epsilon = f32(1 / count), f32(1e-5)
    result = run("layernorm.cpp", "LayerNormVF<float>", engine, [33, 45, 59], yAddr=np.zeros(192, f32),
                 xAddr=padded(x, LANES_F32), gammaAddr=padded(gamma, LANES_F32), betaAddr=padded(beta, LANES_F32),
                 count=count, invCount=float(inv_count), epsilon=float(epsilon))
    acc = lane_accumulate(x)
    mean = rounded(np.float64(pairwise_sum(acc)) * inv_count, f32)
    centred = rounded(x.astype(np.float64) - mean, f32)
    squares = rounded(centred.astype(np.float64) * centred, f32)
    variance = pairwise_sum(lane_accumulate(squares))
    denominator = np.sqrt(rounded(rounded(np.float64(variance) * inv_count, f32).astype(np.float64) + epsilon, f32))
    y = rounded(rounded(rounded(centred.astype(np.float64) / denominator, f32).astype(np.float64) * gamma,
                        f32).astype(np.float64) + beta, f32)
    after_first_loop = crossing(result, 33, 0)          # the lanes' sums, and their sum in every lane
    same(after_first_loop.var("acc"), acc)
    same(after_first_loop.var("mean"), np.full(64, pairwise_sum(acc), f32))
    assert after_first_loop.var("remaining") == 0 and after_first_loop.var("repeatTimes") == 3
    scaling_var = crossing(result, 45, 0)               # SumToAllLanes broadcast the sum to every lane
    same(scaling_var.var("var"), np.full(64, variance, f32))
    same(scaling_var.var("mean"), np.full(64, mean, f32))
    same(scaling_var.var("acc"), lane_accumulate(squares))
    last_store = crossing(result, 59, 2)                # the last block: 22 lanes
    same(last_store.var("centred")[:22], y[128:])
    same(last_store.var("var"), np.full(64, denominator, f32))
    same(last_store.var("yAddr")[:128], y[:128])


def test_softmax(engine):
    count = 200
    x = np.random.default_rng(7).normal(0, 3, count).astype(np.float32)
    result = run("softmax.cpp", "SoftmaxRowVF", engine, [24, 38, 47], dstAddr=np.zeros(256, np.float32),
                 srcAddr=padded(x, LANES_F32), count=count)
    lane_max = np.max(np.pad(x, (0, 56), constant_values=-np.inf).reshape(4, 64), axis=0).astype(np.float32)
    e = rounded(np.exp(rounded(x.astype(np.float64) - x.max(), np.float32).astype(np.float64)), np.float32)
    total = pairwise_sum(lane_accumulate(e))
    maxima = crossing(result, 24, 0)
    same(maxima.var("acc"), lane_max)
    assert maxima.var("remaining") == 0 and maxima.var("repeatTimes") == 4
    sums = crossing(result, 38, 0)
    same(sums.var("acc"), lane_accumulate(e))
    same(sums.var("rowMax"), np.full(64, x.max(), np.float32))
    same(sums.var("dstAddr")[:count], e)
    last = crossing(result, 47, 3)                      # the last block: 8 lanes divided
    same(last.var("e")[:8], rounded(e[192:].astype(np.float64) / total, np.float32))
    same(last.var("rowSum"), np.full(64, total, np.float32))
    assert last.var("i") == 3


def test_strided_rows(engine):
    lanes, rows, stride = 64, 3, 72                     # 288 bytes between rows
    src = (np.arange((rows - 1) * stride + lanes) % 251 - 100).astype(np.float32)
    result = run("strided_rows.cpp", "PickRowsVF<float>", engine, [16, 19, 20], dst=np.zeros(rows * lanes, np.float32),
                 src=src, rowStride=stride, rows=rows)
    for i in range(rows):
        adding, storing = crossing(result, 19, i), crossing(result, 20, i)
        same(adding.var("v"), src[i * stride:i * stride + lanes])
        same(storing.var("v"), src[i * stride:i * stride + lanes] + np.float32(1))
        assert adding.var("i") == i and adding.var("rowStride") == stride
    third = crossing(result, 16, 2)
    same(third.var("dst")[:128], np.concatenate([src[:lanes], src[stride:stride + lanes]]) + np.float32(1))


def test_threshold_bitmap(engine):
    lanes, chunks, threshold = 64, 5, np.float32(0.25)
    x = np.random.default_rng(3).normal(size=chunks * lanes).astype(np.float32)
    bits = np.full(256, 0x77, np.uint8).view(np.uint32)
    result = run("threshold_bitmap.cpp", "ThresholdBitmapVF<float, uint32_t>", engine, [18, 19, 21], bitsAddr=bits,
                 srcAddr=x, threshold=float(threshold), chunks=chunks)
    for i in range(chunks):
        comparing, storing = crossing(result, 18, i), crossing(result, 19, i)
        same(comparing.var("x"), x[lanes * i:lanes * (i + 1)])
        same(storing.var("above"), x[lanes * i:lanes * (i + 1)] > threshold)
        assert comparing.var("i") == i and comparing.var("lanes") == lanes
    post = crossing(result, 21, 0)
    same(post.var("x"), x[4 * lanes:])
    same(post.var("above"), x[4 * lanes:] > threshold)


def test_transpose(engine):
    rows = 24
    src = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8) * 0.5
    row_start = np.arange(0, 8 * LANES_F32, 8, dtype=np.uint32)
    result = run("transpose.cpp", f"TransposeCols8VF<{rows}>", engine, [18, 19, 20],
                 dstAddr=np.zeros(8 * rows, np.float32), srcAddr=src.ravel(), rowStartAddr=row_start)
    mask = active(rows, 64)
    for c in range(8):
        offsetting, gathering, storing = crossing(result, 18, c), crossing(result, 19, c), crossing(result, 20, c)
        same(offsetting.var("rowStart"), row_start)
        same(offsetting.var("mask"), mask)
        assert offsetting.var("count") == 0 and offsetting.var("c") == c
        same(gathering.var("index"), np.where(mask, row_start + np.uint32(c), np.uint32(0)))
        same(storing.var("column")[:rows], src[:, c])


def test_with_host_code(engine):
    count, lanes = 200, 64
    x = padded(np.linspace(-3, 3, count).astype(np.float32), lanes)
    shift, scale = np.float32(0.5), np.float32(-1.25)
    result = run("with_host_code.cpp", "ShiftScaleVF<float>", engine, [11, 12, 25], dstAddr=np.full(x.size, 7, np.float32),
                 srcAddr=x, shift=float(shift), scale=float(scale), count=count)
    shifted = rounded(x.astype(np.float64) + shift, np.float32)
    scaled = rounded(shifted.astype(np.float64) * scale, np.float32)
    for i in range(4):
        block, mask = slice(lanes * i, lanes * (i + 1)), active(count - lanes * i, lanes)
        in_helper, after_adds, storing = crossing(result, 11, i), crossing(result, 12, i), crossing(result, 25, i)
        same(in_helper.var("x"), x[block])                      # the helper's own name for the caller's x
        assert in_helper.var("shift") == shift and in_helper.var("scale") == scale
        same(after_adds.var("y"), np.where(mask, shifted[block], np.float32(0)))
        same(storing.var("y"), np.where(mask, scaled[block], np.float32(0)))
        assert storing.var("i") == i
