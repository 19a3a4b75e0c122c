"""Our own kernels in the public kernels' style (tests/kernels/*.cpp, and the user examples in
programs/kernels/), translated from C++ and run
on both executors, each against an independent numpy model of its instructions' roundings: every
float operation is done in float64 and rounded once to the element type (exact or correctly
rounded for + - * / sqrt; exp as libm's double result rounded once), reductions as the ISA's
pairwise trees with every partial rounded, accumulators lane by lane in loop order."""
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import ascasm

KERNELS = Path(__file__).parent / "kernels"
EXAMPLES = Path(__file__).resolve().parent.parent / "programs" / "kernels"
LANES_F32 = 64


def run(name, entry, engine, **args):
    path = KERNELS / name if (KERNELS / name).exists() else EXAMPLES / name
    return ascasm.run_kernel(path, entry, engine=engine, **args)


def rounded(values, dtype):
    return np.asarray(values, np.float64).astype(dtype)


def pairwise_sum(lanes, dtype=np.float32):
    """The reduction tree: (x0+x1), (x2+x3), ..., then pairs of those, each partial rounded."""
    level = np.asarray(lanes, dtype)
    while level.size > 1:
        level = rounded(level[0::2].astype(np.float64) + level[1::2], dtype)
    return level[0]


def lane_accumulate(values, lanes=LANES_F32, start=0.0):
    """acc[j] += values[j + lanes*k] for k in loop order, each sum rounded to f32; lanes a tail
    chunk does not reach keep their value."""
    acc = np.full(lanes, start, np.float32)
    for k in range(0, values.size, lanes):
        chunk = values[k:k + lanes]
        acc[:chunk.size] = rounded(acc[:chunk.size].astype(np.float64) + chunk, np.float32)
    return acc


def padded(values, multiple):
    size = -(-values.size // multiple) * multiple
    return np.pad(values, (0, size - values.size))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_silu(engine, dtype):
    count = 300
    x = np.linspace(-6, 6, count).astype(dtype)
    lanes = 256 // x.itemsize
    entry = "SiluVF<float>" if dtype == np.float32 else "SiluVF<half>"
    result = run("silu.cpp", entry, engine, dstAddr=np.zeros(padded(x, lanes).size, dtype),
                 srcAddr=padded(x, lanes), count=count)
    negated = rounded(-x.astype(np.float64), dtype)
    exp = rounded(np.exp(negated.astype(np.float64)), dtype)
    denominator = rounded(exp.astype(np.float64) + 1.0, dtype)
    expect = rounded(x.astype(np.float64) / denominator, dtype)
    assert np.array_equal(result["dstAddr"][:count].view(np.uint8), expect.view(np.uint8))
    assert not result["dstAddr"][count:].any()


def test_softmax_row(engine):
    count = 200
    rng = np.random.default_rng(7)
    x = rng.normal(0, 3, count).astype(np.float32)
    result = run("softmax.cpp", "SoftmaxRowVF", engine, dstAddr=np.zeros(256, np.float32),
                 srcAddr=padded(x, LANES_F32), count=count)
    row_max = x.max()
    e = rounded(np.exp(rounded(x.astype(np.float64) - row_max, np.float32).astype(np.float64)), np.float32)
    total = pairwise_sum(lane_accumulate(e))
    expect = rounded(e.astype(np.float64) / total, np.float32)
    assert np.array_equal(result["dstAddr"][:count], expect)
    assert not result["dstAddr"][count:].any()


def test_rmsnorm_row(engine):
    count = 160
    rng = np.random.default_rng(11)
    x = rng.normal(0, 2, count).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, count).astype(np.float32)
    inv_count, epsilon = np.float32(1 / count), np.float32(1e-5)
    result = run("rmsnorm.cpp", "RmsNormVF", engine, yAddr=np.zeros(192, np.float32),
                 xAddr=padded(x, LANES_F32), gammaAddr=padded(gamma, LANES_F32), count=count,
                 invCount=float(inv_count), epsilon=float(epsilon))
    squares = rounded(x.astype(np.float64) * x, np.float32)
    mean = rounded(np.float64(pairwise_sum(lane_accumulate(squares))) * inv_count, np.float32)
    rms = np.sqrt(rounded(np.float64(mean) + epsilon, np.float32))
    expect = rounded(rounded(x.astype(np.float64) / rms, np.float32).astype(np.float64) * gamma, np.float32)
    assert np.array_equal(result["yAddr"][:count], expect)


def test_layernorm_row(engine):
    count = 150
    rng = np.random.default_rng(13)
    x = rng.normal(3, 2, count).astype(np.float32)
    gamma = rng.uniform(0.5, 1.5, count).astype(np.float32)
    beta = rng.uniform(-1, 1, count).astype(np.float32)
    inv_count, epsilon = np.float32(1 / count), np.float32(1e-5)
    result = run("layernorm.cpp", "LayerNormVF<float>", engine, yAddr=np.zeros(192, np.float32),
                 xAddr=padded(x, LANES_F32), gammaAddr=padded(gamma, LANES_F32),
                 betaAddr=padded(beta, LANES_F32), count=count, invCount=float(inv_count),
                 epsilon=float(epsilon))
    f32 = np.float32
    mean = rounded(np.float64(pairwise_sum(lane_accumulate(x))) * inv_count, f32)
    centred = rounded(x.astype(np.float64) - mean, f32)
    squares = rounded(centred.astype(np.float64) * centred, f32)
    var = rounded(np.float64(pairwise_sum(lane_accumulate(squares))) * inv_count, f32)
    denominator = np.sqrt(rounded(np.float64(var) + epsilon, f32))
    y = rounded(centred.astype(np.float64) / denominator, f32)
    y = rounded(y.astype(np.float64) * gamma, f32)
    expect = rounded(y.astype(np.float64) + beta, f32)
    assert np.array_equal(result["yAddr"][:count], expect)
    assert not result["yAddr"][count:].any()


def test_row_sums(engine):
    rows = 5
    x = np.random.default_rng(3).normal(0, 100, (rows, LANES_F32)).astype(np.float32)
    result = run("row_sum.cpp", "RowSumVF", engine, dstAddr=np.full(8, -1, np.float32),
                 srcAddr=x.ravel(), rows=rows)
    expect = np.array([pairwise_sum(row) for row in x] + [-1] * 3, np.float32)
    assert np.array_equal(result["dstAddr"], expect)


def test_quantising_cast(engine):
    count = 100
    x = np.random.default_rng(5).uniform(-3000, 3000, count).astype(np.float32)
    scale = np.float32(0.37)
    result = run("quant_cast.cpp", "QuantCastVF", engine, dstAddr=np.zeros(128, np.float16),
                 srcAddr=padded(x, LANES_F32), scale=float(scale), count=count)
    expect = rounded(x.astype(np.float64) * scale, np.float32).astype(np.float16)
    assert np.array_equal(result["dstAddr"][:count].view(np.uint16), expect.view(np.uint16))
    assert not result["dstAddr"][count:].any()


def test_compaction_with_squeeze(engine):
    x = (np.arange(192) * 7 % 13 - 6).astype(np.float32)
    threshold = 1.5
    result = run("compact.cpp", "CompactAboveVF", engine, dstAddr=np.full(200, -9, np.float32),
                 srcAddr=x, threshold=threshold, repeatTimes=3)
    kept = x[x > threshold]
    expect = np.full(200, -9, np.float32)
    expect[:kept.size] = kept
    assert np.array_equal(result["dstAddr"], expect)


def test_gather(engine):
    count = 100
    table = (np.arange(256, dtype=np.float32) * 1.5 - 7)
    index = np.random.default_rng(9).integers(0, 256, count).astype(np.uint32)
    result = run("gather.cpp", "GatherVF<float>", engine, dstAddr=np.zeros(128, np.float32),
                 tableAddr=table, indexAddr=padded(index, LANES_F32), count=count)
    expect = np.zeros(128, np.float32)
    expect[:count] = table[index]
    assert np.array_equal(result["dstAddr"], expect)


def test_transpose_with_addr_reg(engine):
    rows = 24
    src = np.arange(rows * 8, dtype=np.float32).reshape(rows, 8) * 0.5
    result = run("transpose.cpp", f"TransposeCols8VF<{rows}>", engine, dstAddr=np.zeros(8 * rows, np.float32),
                 srcAddr=src.ravel(), rowStartAddr=np.arange(0, 8 * LANES_F32, 8, dtype=np.uint32))
    assert np.array_equal(result["dstAddr"].reshape(8, rows), src.T)


@pytest.mark.parametrize("entry, dtype", [("AddInt64VF<int64_t>", np.int64), ("AddInt64VF<uint64_t>", np.uint64)])
def test_64_bit_add_with_a_b64_mask(engine, entry, dtype):
    # 40 elements over two repeats of 32 lanes; the sums wrap at 64 bits; sums below the floor become it;
    # the 24 elements after the count keep dst's value
    a = (np.arange(64, dtype=np.uint64) * np.uint64(0x0F0F_0F0F_0F0F_0F0F)).view(dtype)
    b = (np.arange(64, dtype=np.uint64) * np.uint64(0x8000_0000_0000_0001)).view(dtype)
    floor = dtype(-5 if dtype == np.int64 else 1 << 62)
    result = run("add_int64.cpp", entry, engine, dstAddr=np.full(64, 3, dtype), src0Addr=a, src1Addr=b,
                 floor=int(floor), count=40, repeatTimes=2)
    with np.errstate(over="ignore"):
        sums = a[:40] + b[:40]
    expect = np.full(64, 3, dtype)
    expect[:40] = np.where(sums < floor, floor, sums)
    assert np.array_equal(result["dstAddr"], expect)


def test_block_strided_copy(engine):
    # read every other 16-half block (stride 2), advancing 1 block a repeat; write 8 contiguous blocks,
    # advancing 8 blocks a repeat; each value doubled
    src = (np.arange(1024) % 500).astype(np.float16)
    result = run("block_copy.cpp", "BlockCopyVF<half>", engine, dstAddr=np.zeros(1024, np.float16), srcAddr=src,
                 srcStride=2, dstStride=1, srcRepeat=1, dstRepeat=8, repeatTimes=3)
    blocks = src.reshape(64, 16)
    expect = np.zeros(1024, np.float16)
    for r in range(3):
        expect[128 * r:128 * (r + 1)] = (blocks[r:r + 16:2].astype(np.float64) * 2).astype(np.float16).ravel()
    assert np.array_equal(result["dstAddr"], expect)


def test_block_strided_gather_without_post_update(engine):
    src = np.arange(512, dtype=np.int32)
    result = run("block_copy.cpp", "BlockGatherVF<int32_t>", engine, dstAddr=np.zeros(64, np.int32), srcAddr=src,
                 srcStride=7)
    assert np.array_equal(result["dstAddr"], src.reshape(64, 8)[::7][:8].ravel())


@pytest.mark.parametrize("dtype, entry", [(np.float32, "ShiftScaleVF<float>"), (np.float16, "ShiftScaleVF<half>")])
def test_kernel_file_with_host_code_clang_rejects(engine, dtype, entry):
    # the file's host part has errors (undeclared runtime calls, a <<<>>> launch): the vector
    # function and its helper have none and translate; (x + shift) * scale, each step rounded
    count = 200
    x = np.linspace(-3, 3, count).astype(dtype)
    lanes = 256 // x.itemsize
    shift, scale = 0.5, -1.25
    src = padded(x, lanes)
    result = run("with_host_code.cpp", entry, engine, dstAddr=np.full(src.size, 7, dtype), srcAddr=src,
                 shift=shift, scale=scale, count=count)
    expect = np.full(src.size, 7, dtype)
    expect[:count] = rounded(rounded(x.astype(np.float64) + shift, dtype).astype(np.float64) * scale, dtype)
    assert np.array_equal(result["dstAddr"], expect)


@pytest.mark.parametrize("dtype, entry", [(np.int32, "LaneOffset<int32_t>::Process#1"),
                                          (np.int16, "LaneOffset<int16_t>::Process#1")])
def test_block_of_a_class_template_with_auto_pointers_and_a_member_alias(engine, dtype, entry):
    lanes = 256 // np.dtype(dtype).itemsize
    count = 3 * lanes - 5
    info = np.iinfo(dtype)
    src = np.random.default_rng(5).integers(info.min, info.max, 3 * lanes, endpoint=True).astype(dtype)
    result = run("class_scope.cpp", entry, engine, dstAddr=np.full(3 * lanes, 9, dtype), srcAddr=src,
                 count=count, chunks=3)
    expect = np.full(3 * lanes, 9, dtype)
    wide = src[:count].astype(np.int64) + np.arange(count) % lanes
    expect[:count] = ((wide - info.min) % (1 << (8 * src.itemsize)) + info.min).astype(dtype)
    assert np.array_equal(result["dstAddr"], expect)


@pytest.mark.parametrize("dtype, entry", [(np.float32, "Doubler<float>::Compute#1"),
                                          (np.int16, "Doubler<int16_t>::Compute#1")])
def test_block_taking_addresses_from_its_tensors(engine, dtype, entry):
    # GetPhyAddr() inside the block: each LocalTensor is an input named after it
    lanes = 256 // np.dtype(dtype).itemsize
    src = (np.arange(2 * lanes) % 97 - 40).astype(dtype)
    result = run("class_scope.cpp", entry, engine, **{"in": src, "out": np.full(2 * lanes + 16, 3, dtype)},
                 chunks=2)
    expect = np.full(2 * lanes + 16, 3, dtype)
    block = 32 // src.itemsize
    expect[block:block + 2 * lanes] = src * 2
    assert np.array_equal(result["out"], expect)


@pytest.mark.parametrize("dtype, ctype", [(np.float32, "float"), (np.float16, "half")])
def test_address_register_with_a_run_time_stride(engine, dtype, ctype):
    # CreateAddrReg<T>(i, rowStride), rowStride a parameter: row i's first vector (rowStride * i elements
    # in) plus 1, packed densely; the stride counts elements of T (288 bytes between rows for both types)
    lanes, rows = 256 // np.dtype(dtype).itemsize, 3
    stride = 288 // np.dtype(dtype).itemsize
    src = (np.arange((rows - 1) * stride + lanes) % 251 - 100).astype(dtype)
    result = run("strided_rows.cpp", f"PickRowsVF<{ctype}>", engine, dst=np.zeros(rows * lanes, dtype), src=src,
                 rowStride=stride, rows=rows)
    expect = np.concatenate([src[i * stride:i * stride + lanes] for i in range(rows)]) + dtype(1)
    assert np.array_equal(result["dst"], expect)


def test_address_register_run_time_stride_misaligned_faults_at_the_load(engine):
    # 70 floats = 280 bytes: row 1 starts 24 bytes past a 32-byte boundary, so its LoadAlign faults (the
    # page: an AddrReg access keeps its instruction's alignment rule) after row 0 was stored
    src = np.arange(2 * 70 + 64, dtype=np.float32)
    with pytest.raises(ascasm.MachineFault) as caught:
        run("strided_rows.cpp", "PickRowsVF<float>", engine, dst=np.zeros(128, np.float32), src=src,
            rowStride=70, rows=2)
    fault = caught.value
    assert fault.kind == "MISALIGNED" and fault.loc.line == 18
    src_addr = fault.result.kernel.param_buffers["src"].addr
    assert f"misaligned address {src_addr + 280:#x}" in fault.message          # src + 70 * 4 bytes
    dst = fault.result["dst"]
    assert np.array_equal(dst[:64], src[:64] + 1) and not dst[64:].any()


@pytest.mark.parametrize("dtype, ctype", [(np.float32, "float"), (np.float16, "half")])
def test_address_register_pairs_with_run_time_strides(engine, dtype, ctype):
    # CreateAddrReg<T>(r, rowStride, c, colStride) from the parameters, and (r, dstRow, c, lanes) with
    # dstRow = cols * lanes a local computed at run time: block (r, c) of src to block r * cols + c of dst
    lanes, rows, cols = 256 // np.dtype(dtype).itemsize, 2, 3
    col_stride, row_stride = lanes + 32 // np.dtype(dtype).itemsize, 4 * lanes
    src = (np.arange(row_stride * (rows - 1) + col_stride * (cols - 1) + lanes) % 199).astype(dtype)
    result = run("strided_rows.cpp", f"TileVF<{ctype}>", engine, dst=np.zeros(rows * cols * lanes, dtype),
                 src=src, rowStride=row_stride, colStride=col_stride, rows=rows, cols=cols)
    expect = np.concatenate([src[r * row_stride + c * col_stride:][:lanes] for r in range(rows) for c in range(cols)])
    assert np.array_equal(result["dst"], expect)
