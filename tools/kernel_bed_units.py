"""The correctness bed's units (tools/kernel_bed.py): public kernels named by repository, commit, file
and entry, never copied here.  Each unit's arguments are those the kernel's host code passes (the
comment beside them says where each value comes from), its inputs are seeded numpy draws, and its
expectation is the operation's mathematical definition written in numpy here, with the tolerance
the kernel's arithmetic needs.  A vendor example whose data script writes golden output is checked
against that golden file as well (`Golden`: the script runs from the mirror, in a scratch directory).

The vector length is 256 bytes: 64 float, 128 half or bfloat16 lanes.
"""
import numpy as np

from kernel_bed import At, Golden, Unit

DEVKIT = "mirror-cann/asc-devkit"
DEVKIT_AT = "82b89a15f26329511fc7fbc807d5132a1f9b4ba7"
OPS_NN = "hicann/ops-nn"
OPS_NN_AT = "e5c3fa9327ea95ba26d06227e746923580d10921"
OPS_MATH = "hicann/ops-math"
OPS_MATH_AT = "c41933244c31e44fd496e3bb3212164f8c48c214"

OPBASE = (("hicann/opbase", "aa3cd74b7f6d772acd64ff48292a7e65a9bc8142", "include/op_common", "pkg_inc/op_common"),)

REG = "examples/01_simd_cpp_api/03_basic_api/02_reg_vector_compute"
CAPI = "examples/02_simd_c_api/03_c_api/02_reg_vector_compute"
F32_LANES, F16_LANES = 64, 128


def ceil_div(a, b):
    return -(-a // b)


def f32(n):
    return np.zeros(n, np.float32)


def uniform(rng, lo, hi, n, dtype=np.float32):
    return rng.uniform(lo, hi, n).astype(dtype)


def x_bin(dtype, name="input/input_x.bin"):
    return (name, dtype)


def example(name, directory, entry, op, dtype, args, expect, golden=None, rtol=0.0, atol=0.0, path=None,
            golden_argv=(), defines=()):
    """A unit of the asc-devkit examples: `directory` under REG unless absolute, the file named after it."""
    base = directory if directory.startswith("examples/") else f"{REG}/{directory}"
    leaf = base.rsplit("/", 1)[1]
    if golden is not None:
        golden = Golden(f"{base}/scripts/gen_data.py", *golden, argv=golden_argv)
    return Unit(name, DEVKIT, DEVKIT_AT, path or f"{base}/{leaf}.asc", entry, op, dtype, args, expect,
                rtol, atol, golden, defines)


def block_argmax_bits(x, lanes):
    """The largest over the vector-sized blocks of x of each block's first argmax, as float32 bits."""
    index = max(int(np.argmax(block)) for block in x.reshape(-1, lanes))
    return np.array([index], np.uint32).view(np.float32)


def flushed(x):
    """x as float32 with its subnormals read as the zero of their sign (the pages' flush to zero)."""
    x = np.asarray(x, np.float64).astype(np.float32)
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(x) < np.finfo(np.float32).tiny, np.copysign(np.float32(0), x), x)


def flushed_quotient(x, y):
    """x / y with subnormal inputs and results flushed (0 / 0 is NaN, x / 0 infinite, as IEEE says)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return flushed(flushed(x).astype(np.float64) / flushed(y))


def scattered(values, index, size):
    out = np.zeros(size, values.dtype)
    out[index] = values
    return out


def log_softmax_out_unit(dtype, ctype, count=1000):
    """log_softmax_v2's last pass over a row of ubFactor = `count` (a tail): y = x - max - ln(sum),
    given the row's max and sum of e^(x - max) that its earlier passes leave in xMax[0] and
    xSum[0] (here computed from the row); y is log_softmax(x) = x - log sum e^x."""
    t = DTYPES[dtype]

    def args(rng):
        x = uniform(rng, -6, 6, 1024).astype(t)
        row = x[:count].astype(np.float64)
        return dict(ubFactor=count, xMaxPtr=np.r_[row.max(), np.zeros(63)].astype(np.float32),
                    xSumPtr=np.r_[np.exp(row - row.max()).sum(), np.zeros(63)].astype(np.float32),
                    xPtr=x, yPtr=np.zeros(1024, t))

    def expect(a):
        row = a["xPtr"][:count].astype(np.float64)
        out = row - row.max() - np.log(np.exp(row - row.max()).sum())
        return {"yPtr": np.r_[out, np.zeros(1024 - count)].astype(t)}

    return Unit(f"ops-nn log_softmax_v2 output {dtype}", OPS_NN, OPS_NN_AT,
                "activation/log_softmax_v2/op_kernel/arch35/log_softmax_v2_ar_recompute.h",
                f"LogSoftmaxV2Ops::LogSoftmaxV2ArRecompute<{ctype}, {ctype}>::CalculateOutVF#1", "softmax", dtype,
                args, expect, ROUNDED[dtype], 1e-5 if dtype == "float" else 4e-3, headers=OPBASE)


def softmax_rows(x):
    """Softmax along each row: e^(x - max) / sum e^(x - max)."""
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def softmax_case(case):
    """05_best_practices softmax.asc, Case `case` (-DSCENARIO_NUM): the host's tiling for its 128 x 128
    float input on one core: aDim = 128 rows, rDim = rDimAlign = 128; exp and sum work buffers of
    singleCoreAlignLength floats (Cases 3-5 allocate the sum buffer 8 floats long). Case 2 never
    touches its sum buffer: 8 floats here too, as the four 64 KiB buffers with the bed's gaps between
    them would not fit the usable UB. Cases 4 and 5 take the split CustomSoftmax computes: tail =
    rDim % 64, repeatTimesMain = rDim / 64, hasTail = (tail != 0). Case 1's four 64 KiB buffers are the
    whole 256 KiB UB, which the bed's gaps exceed: it runs on the first 120 rows (a row's softmax reads
    only that row), checked against the reference only."""
    cols = 128
    rows = 120 if case == 1 else 128
    split = dict(tail=cols % 64, repeatTimesMain=cols // 64, hasTail=int(cols % 64 != 0)) if case >= 4 else {}

    def args(rng):
        return dict(dstAddr=f32(rows * cols), srcAddr=uniform(rng, -5, 5, rows * cols), expAddr=f32(rows * cols),
                    sumAddr=f32(rows * cols if case == 1 else 8), aDim=rows, rDim=cols, rDimAlign=cols, **split)

    return example(f"devkit softmax case {case} f32", "examples/01_simd_cpp_api/05_best_practices/02_reg_compute/"
                   "softmax_high_performance", "CustomSoftmaxVF<float>", "softmax", "float", args,
                   lambda a: {"dstAddr": softmax_rows(a["srcAddr"][:rows * cols].astype(np.float64).reshape(rows, cols))},
                   golden=None if case == 1 else ({"srcAddr": x_bin(np.float32)},
                                                  {"dstAddr": ("output/golden.bin", np.float32)}),
                   path="examples/01_simd_cpp_api/05_best_practices/02_reg_compute/softmax_high_performance/"
                        "softmax.asc", defines=(f"SCENARIO_NUM={case}",), rtol=1e-5, atol=1e-8)


def gelu_tanh(x):
    """GELU's tanh form: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))."""
    x = x.astype(np.float64)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


try:
    from ml_dtypes import bfloat16
except ImportError:  # without ml_dtypes the bf16 units cannot make their inputs
    bfloat16 = None

DTYPES = {"float": np.float32, "half": np.float16, "bfloat16": bfloat16}


def sigmoid(x):
    return 1 / (1 + np.exp(-x.astype(np.float64)))


def elementwise_block(name, repo, commit, path, entry, op, dtype, fn, inputs, count=1000, rtol=0.0, atol=0.0,
                      length="i0Extent", target="bufferOut0_"):
    """A generated elementwise kernel's `__VEC_SCOPE__` block: its inputs are the element count of this
    UB pass (`length`: the tiling's ubFormer, or the last pass's tail: `count`, not a multiple of the
    vector width) and the LocalTensors, which the host allocates ubFormer elements long (here `count`
    rounded up to whole vectors, so the full-vector loads stay inside).  `inputs`: (name, low, high)
    of each input tensor, drawn uniformly; `fn` takes them in that order.  Past `count` the output
    must stay as it was (zeros)."""
    numpy_type = DTYPES[dtype]
    size = ceil_div(count, 256) * 256

    def args(rng):
        drawn = {source: uniform(rng, lo, hi, size).astype(numpy_type) for source, lo, hi in inputs}
        return {length: count, **drawn, target: np.zeros(size, numpy_type)}

    def expect(a):
        xs = [a[source][:count].astype(np.float64) for source, _, _ in inputs]
        return {target: np.r_[fn(*xs).astype(numpy_type), np.zeros(size - count, numpy_type)]}

    return Unit(name, repo, commit, path, entry, op, dtype, args, expect, rtol, atol)


X_IN = (("bufferIn0_", -8, 8),)


def foreach_block(name, path, entry, dtype, fn, inputs, scalars, count=1000, rtol=0.0, atol=0.0):
    """A foreach kernel's `__VEC_SCOPE__` block over one tensor of the list: dataCount elements
    (`count`, a tail), sreg = dataCount, dataCountPerLoop = VL / sizeof(float) = 64 (computed in float),
    repeatTimes = its ceiling; the tensors as `elementwise_block`'s; `scalars`: the values the host
    code computes before the block."""
    numpy_type = DTYPES[dtype]
    size = ceil_div(count, 256) * 256

    def args(rng):
        drawn = {source: uniform(rng, lo, hi, size).astype(numpy_type) for source, lo, hi in inputs}
        return {"repeatTimes": ceil_div(count, F32_LANES), "sreg": count, "dataCountPerLoop": F32_LANES,
                **scalars, **drawn, "outUbAddr": np.zeros(size, numpy_type)}

    def expect(a):
        xs = [a[source][:count].astype(np.float64) for source, _, _ in inputs]
        return {"outUbAddr": np.r_[fn(*xs).astype(numpy_type), np.zeros(size - count, numpy_type)]}

    return Unit(name, OPS_NN, OPS_NN_AT, path, entry, "elementwise", dtype, args, expect, rtol, atol)


def counted_block(name, repo, path, entry, op, dtype, fn, inputs, target, lanes, count=1000, out_dtype=None,
                  rtol=0.0, atol=0.0, in_size=None, with_vl=True):
    """A `__VEC_SCOPE__` block of the common shape: `count` elements (a tail), loopNum = ceil(count /
    lanes), vlSize = lanes (the host code's VL / sizeof), tensors as `elementwise_block`'s (`in_size`:
    the inputs' length when they are not `count` rounded up), the output in `out_dtype`; `with_vl`:
    whether the block reads vlSize."""
    numpy_type, out_type = DTYPES[dtype], DTYPES[out_dtype or dtype]
    size = ceil_div(count, 256) * 256

    def args(rng):
        drawn = {source: uniform(rng, lo, hi, in_size or size).astype(numpy_type) for source, lo, hi in inputs}
        return {"count": count, "loopNum": ceil_div(count, lanes), **({"vlSize": lanes} if with_vl else {}),
                **drawn, target: np.zeros(size, out_type)}

    def expect(a):
        xs = [a[source].astype(np.float64) for source, _, _ in inputs]
        return {target: np.r_[fn(*xs)[:count].astype(out_type), np.zeros(size - count, out_type)]}

    return Unit(name, repo, OPS_NN_AT if repo == OPS_NN else OPS_MATH_AT, path, entry, op, dtype, args, expect,
                rtol, atol, headers=OPBASE)


RMS_MX = "norm/add_rms_norm_dynamic_mx_quant/op_kernel/arch35/add_rms_norm_dynamic_mx_quant_common.h"


def add_rms_norm_unit(kind, dtype, ctype, count=1000):
    """add_rms_norm_dynamic_mx_quant's split-R helpers over one tile of `count` elements (a tail):
    "square" writes (x1 + x2)^2 in float; "fold" adds (x1 + x2)^2 to that float buffer (the main
    block's squares, here drawn); "add" writes x = x1 + x2 in T_X and in float.  Their loop counts
    are ceil(count / 64) as the host code computes them, computed in float."""
    t = DTYPES[dtype]
    size = ceil_div(count, 256) * 256
    names = {"square": ("MainBlockSquareVF", "loops", "sreg", "x1InUb", "x2InUb"),
             "fold": ("FoldBlockSquareAddVF", "tailLoops", "sregTail", "x1FoldInUb", "x2FoldInUb"),
             "add": ("CalculateXAdd", "loopCount", "sreg", "x1InUb", "x2InUb")}[kind]
    function, loops, sreg, a, b = names

    def args(rng):
        drawn = {loops: ceil_div(count, F32_LANES), sreg: count, a: uniform(rng, -3, 3, size).astype(t),
                 b: uniform(rng, -3, 3, size).astype(t)}
        if kind == "add":
            return {**drawn, "xOutInUb": np.zeros(size, t), "xFp32Tmp": f32(size)}
        return {**drawn, "xFp32TmpBuf": uniform(rng, 0, 9, size) if kind == "fold" else f32(size)}

    def expect(a_):
        total = a_[a].astype(np.float64) + a_[b].astype(np.float64)
        keep = np.arange(size) >= count
        if kind == "add":
            return {"xOutInUb": np.where(keep, 0, total).astype(t), "xFp32Tmp": np.where(keep, 0, total)}
        before = a_["xFp32TmpBuf"].astype(np.float64)
        after = before + total ** 2 if kind == "fold" else total ** 2
        return {"xFp32TmpBuf": np.where(keep, before, after)}

    return Unit(f"ops-nn add_rms_norm {kind} {dtype}", OPS_NN, OPS_NN_AT, RMS_MX,
                f"AddRmsNormDynamicMxQuant::{function}<{ctype}>#1", "norm", dtype, args, expect,
                ROUNDED[dtype] if kind == "add" else 1e-6, 1e-6, headers=OPBASE)


TRANSPOSE = "conversion/transpose/op_kernel/arch35/transpose_with_gather.h"


def transpose_index_unit(dtype, ctype, two_dims):
    """ops-math transpose's gather indices (TransposeWithGather<T>, indices int16 for 2-byte T, else
    int32; idxVLSize_ = VL / that size).  Two dims: the output's last two axes a = 7 (input stride
    30) and b = 30 (input stride 1), so output element k reads input (k % a) 30 + k / a; the first
    register is stored whole, then the host's loopCnt = ceil((a b - VL) / VL) more, masked to the
    leftDimSize = a b - VL elements left; lastDimInc = VL % a, last2ndDimInc = VL / a.  One dim:
    k * 30 for k < lastDimSize = 200, loopCnt = ceil(200 / VL)."""
    index = np.int16 if dtype in ("half", "bfloat16") else np.int32
    lanes = 256 // np.dtype(index).itemsize
    a, b, a_stride, b_stride = 7, 30, 30, 1

    if two_dims:
        total = a * b

        def args(rng):
            return dict(lastDimSize=a, lastDimInOffset=a_stride, last2ndDimInOffset=b_stride,
                        idxAddr=np.zeros(256, index), loopCnt=ceil_div(total - lanes, lanes),
                        leftDimSize=total - lanes, lastDimInc=lanes % a, last2ndDimInc=lanes // a, idxVLSize_=lanes)
        written = max(total, lanes)
        k = np.arange(written)
        want = (k % a) * a_stride + (k // a) * b_stride
    else:
        total = 200

        def args(rng):
            return dict(loopCnt=ceil_div(total, lanes), lastDimSize=total, lastDimInOffset=a_stride,
                        idxAddr=np.zeros(256, index), idxVLSize_=lanes)
        written = total
        want = np.arange(total) * a_stride

    method = "GenIndex4TwoDim" if two_dims else "GenIndex4OneDim"
    return Unit(f"ops-math transpose {method} {np.dtype(index).name}", OPS_MATH, OPS_MATH_AT, TRANSPOSE,
                f"Transpose::TransposeWithGather<{ctype}>::{method}#1", "transpose/relayout", np.dtype(index).name,
                args, lambda _: {"idxAddr": np.r_[want, np.zeros(256 - written)].astype(index)}, headers=OPBASE)


def cast_in_place(x, count, t):
    """A float buffer after each 64-lane repeat of its first `count` values is cast to the 2-byte type t
    and stored packed at the start of that repeat's own 256 bytes; as elements of t."""
    out = x.copy().view(t)
    for i in range(ceil_div(count, F32_LANES)):
        n = min(F32_LANES, count - i * F32_LANES)
        out[i * F16_LANES:i * F16_LANES + n] = x[i * F32_LANES:i * F32_LANES + n].astype(t)
    return out


def refined_reciprocal(s):
    """foreach_div_scalar's host code: 1/s in float, then one Newton step inv (2 - s inv), in float."""
    s = np.float32(s)
    inv = np.float32(1) / s
    return float(inv * (np.float32(2) - s * inv))


def subword_unit(name, entry, dtype, widen, count=1000):
    """scatter_reduce's int8/uint8 <-> int32 conversions (UNPACK4_B8 loads, PACK4_B32 stores through
    AddrRegs counted in elements): n elements (`count`, a tail), loopTimes = ceil(n / 64). The widening
    zero-extends each byte, int8 too (the LoadAlign page: loaded as u8, three zero bytes after each): the
    operator's callers rely on no more, folding sums and products that agree modulo 256 once narrowed
    and max/min directly in int8, as its scalar path's comment says (docs/semantics.md)."""
    small = {"int8": np.int8, "uint8": np.uint8}[dtype]
    size = ceil_div(count, 256) * 256
    info = np.iinfo(small)

    def args(rng):
        if widen:
            src, dst = rng.integers(info.min, info.max + 1, size).astype(small), np.zeros(size, np.int32)
        else:
            src, dst = rng.integers(-2 ** 31, 2 ** 31, size).astype(np.int32), np.zeros(size, small)
        return dict(n=count, loopTimes=ceil_div(count, F32_LANES), srcAddr=src, dstAddr=dst)

    def expect(a):
        # widening: the byte zero-extended; narrowing: the low byte (wrapping)
        src = a["srcAddr"][:count]
        out = src.view(np.uint8).astype(np.int32) if widen else src.astype(small)
        return {"dstAddr": np.r_[out, np.zeros(size - count, out.dtype)]}

    return Unit(name, OPS_NN, OPS_NN_AT, "index/scatter_reduce_common/op_kernel/arch35/scatter_reduce_common_simt.h",
                entry, "cast", dtype, args, expect)


def floor_keeping_sign(x):
    return np.copysign(np.floor(x), x)


# The rounding a result gets when stored in each type (relative), beyond float32's own arithmetic.
ROUNDED = {"float": 1e-5, "half": 1e-3, "bfloat16": 8e-3}
ACT = "activation/{0}/op_kernel/arch35/{0}_{1}.h"

UNITS = [
    # abs.asc: host Kernel<float>, totalLength 256, oneRepeatSize = VecLen / 4, repeatTimes = ceil(256/64).
    example("devkit abs f32", "abs", "AbsVF<float>", "elementwise", "float",
            lambda rng: dict(xAddr=uniform(rng, -2, 2, 256), yAddr=f32(256), totalCount=256,
                             repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"yAddr": np.abs(a["xAddr"])},
            golden=({"xAddr": x_bin(np.float32)}, {"yAddr": ("output/golden.bin", np.float32)})),
    # cast.asc scenario 1 (-DSCENARIO_NUM=1): Kernel<half, int32_t, 256>, oneRepeatSize = VecLen / 4
    # (the wider type), repeatTimes = 4; CAST_FLOOR.
    example("devkit cast f16->s32 floor", "cast", "CastVFF162S32", "cast", "half",
            lambda rng: dict(xAddr=uniform(rng, -100, 100, 256, np.float16), yAddr=np.zeros(256, np.int32),
                             repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"yAddr": np.floor(a["xAddr"].astype(np.float64)).astype(np.int32)},
            golden=({"xAddr": x_bin(np.float16)}, {"yAddr": ("output/golden.bin", np.int32)}),
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),
    # cast.asc scenario 2: Kernel<float, int16_t, 256>, oneRepeatSize = VecLen / 4, repeatTimes = 4;
    # CAST_ROUND (half away from zero) with saturation to int16.
    example("devkit cast f32->s16 round sat", "cast", "CastVFF322S16", "cast", "float",
            lambda rng: dict(xAddr=uniform(rng, -100, 100, 256), yAddr=np.zeros(256, np.int16),
                             repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"yAddr": np.clip(np.sign(a["xAddr"]) * np.floor(np.abs(a["xAddr"]) + 0.5),
                                        -32768, 32767).astype(np.int16)},
            golden=({"xAddr": x_bin(np.float32)}, {"yAddr": ("output/golden.bin", np.int16)}),
            defines=("SCENARIO_NUM=2",), golden_argv=("-scenarioNum", "2")),
    # compare.asc scenario 1: Kernel<float, 256>, repeatTimes 4: z = x > y ? x : y.
    example("devkit compare+select max f32", "compare", "CompareVF<float>", "compare/select", "float",
            lambda rng: dict(xAddr=uniform(rng, -2, 2, 256), yAddr=uniform(rng, -2, 2, 256), zAddr=f32(256),
                             repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"zAddr": np.where(a["xAddr"] > a["yAddr"], a["xAddr"], a["yAddr"])},
            golden=({"xAddr": x_bin(np.float32), "yAddr": x_bin(np.float32, "input/input_y.bin")},
                    {"zAddr": ("output/golden.bin", np.float32)}),
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),
    # compare.asc scenario 2: the host's scalar is 0: z = x > 0 ? x : y.
    example("devkit compares+select f32", "compare", "ComparesVF<float>", "compare/select", "float",
            lambda rng: dict(xAddr=uniform(rng, -2, 2, 256), yAddr=uniform(rng, -2, 2, 256), zAddr=f32(256),
                             scalar=0.0, repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"zAddr": np.where(a["xAddr"] > 0, a["xAddr"], a["yAddr"])},
            golden=({"xAddr": x_bin(np.float32), "yAddr": x_bin(np.float32, "input/input_y.bin")},
                    {"zAddr": ("output/golden.bin", np.float32)}),
            defines=("SCENARIO_NUM=2",), golden_argv=("-scenarioNum", "2")),
    # select.asc: Kernel<float, 256, 128>; maskRepeatSize = VecLen / 8 = 32 bytes of mask per repeat.
    # A b32 lane i of a mask loaded from memory is bit 4*i of the 256 bits (every fourth bit).
    example("devkit select by loaded mask f32", "select", "SelectVF<float>", "compare/select", "float",
            lambda rng: dict(xAddr=uniform(rng, 0, 2, 256), yAddr=uniform(rng, 0, 2, 256),
                             maskAddr=rng.integers(0, 255, 128).astype(np.uint8), zAddr=f32(256),
                             repeatTimes=4, oneRepeatSize=F32_LANES, maskRepeatSize=32),
            lambda a: {"zAddr": np.where(np.unpackbits(a["maskAddr"], bitorder="little")[::4] == 1,
                                         a["xAddr"], a["yAddr"])},
            golden=({"xAddr": x_bin(np.float32), "yAddr": x_bin(np.float32, "input/input_y.bin"),
                     "maskAddr": x_bin(np.uint8, "input/input_mask.bin")},
                    {"zAddr": ("output/golden.bin", np.float32)})),
    # mul.asc: KernelMul<float, singleCoreLength>; the host's total 1024 on one core; repeatTimes 16.
    example("devkit mul f32", "mul", "MulVF<float>", "elementwise", "float",
            lambda rng: dict(xAddr=uniform(rng, 1, 2, 1024), yAddr=uniform(rng, 1, 2, 1024), zAddr=f32(1024),
                             repeatTimes=16, oneRepeatSize=F32_LANES),
            lambda a: {"zAddr": a["xAddr"] * a["yAddr"]},
            golden=({"xAddr": x_bin(np.float32), "yAddr": x_bin(np.float32, "input/input_y.bin")},
                    {"zAddr": ("output/golden.bin", np.float32)})),
    # muls.asc: totalLength 256, scalar 2.0f.
    example("devkit muls f32", "muls", "MulsVF<float>", "elementwise", "float",
            lambda rng: dict(xAddr=uniform(rng, 1, 2, 256), zAddr=f32(256), scalar=2.0, totalCount=256,
                             repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"zAddr": a["xAddr"] * np.float32(2)},
            golden=({"xAddr": x_bin(np.float32)}, {"zAddr": ("output/golden.bin", np.float32)})),
    # duplicate.asc: totalLength 256, fillValue static_cast<float>(3.14).
    example("devkit duplicate f32", "duplicate", "DuplicateScalarVF<float>", "elementwise", "float",
            lambda rng: dict(dstAddr=f32(256), scalarValue=3.14, repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"dstAddr": np.full(256, 3.14, np.float32)},
            golden=({}, {"dstAddr": ("output/golden.bin", np.float32)})),
    # arange.asc: one call per repeat; the first with startValue 0 (the host loop adds 64 each time).
    example("devkit arange f32", "arange", "ArangeVF<float>", "elementwise", "float",
            lambda rng: dict(dstAddr=f32(64), scalarValue=0.0, oneRepeatSize=F32_LANES),
            lambda a: {"dstAddr": np.arange(64, dtype=np.float32)}),
    # reduce.asc: totalLength 256; the sum lands in lane 0 of the first 8 floats the host copies out.
    example("devkit reduce sum f32", "reduce", "ReduceSumVF<float>", "reduction", "float",
            lambda rng: dict(dstAddr=f32(64), srcAddr=uniform(rng, 1, 2, 256), totalCount=256,
                             repeatTimes=4, oneRepeatSize=F32_LANES),
            lambda a: {"dstAddr": np.r_[a["srcAddr"].astype(np.float64).sum(), np.zeros(7)]},
            rtol=1e-5),
    # truncate.asc: totalLength 256, CAST_FLOOR.
    example("devkit truncate floor f32", "truncate", "TruncateVF<float>", "elementwise", "float",
            lambda rng: dict(xAddr=uniform(rng, -100, 100, 256), yAddr=f32(256), repeatTimes=4,
                             oneRepeatSize=F32_LANES),
            lambda a: {"yAddr": np.floor(a["xAddr"])},
            golden=({"xAddr": x_bin(np.float32)}, {"yAddr": ("output/golden.bin", np.float32)})),
    # squeeze.asc: Kernel<float, 256, 64>, mask pattern M4 (every fourth lane), stored unaligned.
    example("devkit squeeze M4 f32", "squeeze", "SqueezeVF<float>", "squeeze/compaction", "float",
            lambda rng: dict(xAddr=uniform(rng, -2, 2, 256), yAddr=f32(64), repeatTimes=4,
                             oneRepeatSize=F32_LANES),
            lambda a: {"yAddr": a["xAddr"][::4]},
            golden=({"xAddr": x_bin(np.float32)}, {"yAddr": ("output/golden.bin", np.float32)})),
    # gather.asc: KernelGather<half, uint16_t, 128>: dst[i] = src[index[i]] within one register.
    example("devkit gather f16 by u16", "gather", "GatherVF<half, uint16_t>", "gather/scatter", "half",
            lambda rng: dict(dstAddr=np.zeros(128, np.float16), srcAddr=uniform(rng, 0, 1, 128, np.float16),
                             indexAddr=rng.integers(0, 128, 128).astype(np.uint16), count=128,
                             oneRepeatSize=F16_LANES),
            lambda a: {"dstAddr": a["srcAddr"][a["indexAddr"]]},
            golden=({"srcAddr": x_bin(np.float16), "indexAddr": x_bin(np.uint16, "input/input_y.bin")},
                    {"dstAddr": ("output/golden.bin", np.float16)})),
    # 00_introduction gelu.asc: gelu_custom<256 * 32>: count 8192, loopNum ceil(8192 / 64) = 128.  The
    # kernel's coefficients are GELU's tanh form rounded (-2 sqrt(2/pi) and its product with 0.044715).
    example("devkit gelu f32", "examples/01_simd_cpp_api/00_introduction/04_reg_compute/gelu", "GeluVfMethod2",
            "activation", "float",
            lambda rng: dict(xAddr=uniform(rng, -10, 10, 8192), yAddr=f32(8192), count=8192, loopNum=128),
            lambda a: {"yAddr": gelu_tanh(a["xAddr"])},
            golden=({"xAddr": x_bin(np.float32)}, {"yAddr": ("output/golden.bin", np.float32)}),
            rtol=2e-3, atol=1e-4),

    # ops-nn's generated activations and ops-math's floor: one __VEC_SCOPE__ block each, fp16 and bf16
    # computed in float (UNPACK_B16 loads, PACK_B32 stores).
    *[elementwise_block(f"ops-nn sigmoid {dtype}", OPS_NN, OPS_NN_AT, ACT.format("sigmoid", suffix),
                        f"{cls}::Compute1#1", "activation", dtype, sigmoid, X_IN, rtol=ROUNDED[dtype], atol=1e-7)
      for dtype, suffix, cls in (("float", "f32", "SigmoidF32"), ("half", "f16", "SigmoidF16"),
                                 ("bfloat16", "bf16", "SigmoidBf16"))],
    # Swish: y = x sigmoid(scale x); the scale is the tiling's (tilingDataPtr_->scale, a struct these
    # headers never declare), the op's default 1.
    *[elementwise_block(f"ops-nn swish {dtype}", OPS_NN, OPS_NN_AT, ACT.format("swish", suffix + "_attr_comb_0"),
                        f"{cls}::Compute1#1", "activation", dtype, lambda x: x * sigmoid(x), X_IN,
                        rtol=ROUNDED[dtype], atol=1e-6)
      for dtype, suffix, cls in (("float", "f32", "SwishF32AttrComb0"), ("half", "f16", "SwishF16AttrComb0"),
                                 ("bfloat16", "bf16", "SwishBf16AttrComb0"))],
    # floor, the sign of x kept (floor(-0.0) is -0.0).
    *[elementwise_block(f"ops-math floor {dtype}", OPS_MATH, OPS_MATH_AT, f"math/floor/op_kernel/arch35/floor_{suffix}.h",
                        f"{cls}::Compute1#1", "elementwise", dtype, floor_keeping_sign,
                        (("bufferIn0_", -300, 300),))
      for dtype, suffix, cls in (("float", "f32", "FloorF32"), ("half", "f16", "FloorF16"),
                                 ("bfloat16", "bf16", "FloorBf16"))],

    # The C-API examples (02_simd_c_api): TOTAL_LENGTH 256 (div: 1024) on NUM_BLOCKS 1 core, so data_len
    # is the whole length; one_rep_size = asc_get_vf_len() / sizeof(the wider type), repeat_time its ceil.
    example("devkit c-api abs f32", f"{CAPI}/abs", "abs_vf", "elementwise", "float",
            lambda rng: dict(x_local=uniform(rng, -2, 2, 256), y_local=f32(256), data_len=256, one_rep_size=64,
                             repeat_time=4),
            lambda a: {"y_local": np.abs(a["x_local"])},
            golden=({"x_local": x_bin(np.float32)}, {"y_local": ("output/golden.bin", np.float32)})),
    example("devkit c-api cast f16->s32 rd", f"{CAPI}/cast", "cast_vf_s1", "cast", "half",
            lambda rng: dict(x_local=uniform(rng, -100, 100, 256, np.float16), y_local=np.zeros(256, np.int32),
                             data_len=256, one_rep_size=64, repeat_time=4),
            lambda a: {"y_local": np.floor(a["x_local"].astype(np.float64)).astype(np.int32)},
            golden=({"x_local": x_bin(np.float16)}, {"y_local": ("output/golden.bin", np.int32)}),
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),
    # rna: round half away from zero, saturated to int16; stored packed (the low halves of b32 lanes).
    example("devkit c-api cast f32->s16 rna sat", f"{CAPI}/cast", "cast_vf_s2", "cast", "float",
            lambda rng: dict(x_local=uniform(rng, -100, 100, 256), y_local=np.zeros(256, np.int16),
                             data_len=256, one_rep_size=64, repeat_time=4),
            lambda a: {"y_local": np.clip(np.sign(a["x_local"]) * np.floor(np.abs(a["x_local"]) + 0.5),
                                          -32768, 32767).astype(np.int16)},
            golden=({"x_local": x_bin(np.float32)}, {"y_local": ("output/golden.bin", np.int16)}),
            defines=("SCENARIO_NUM=2",), golden_argv=("-scenarioNum", "2")),
    example("devkit c-api compare max f32", f"{CAPI}/compare", "compare_vf", "compare/select", "float",
            lambda rng: dict(x_local=uniform(rng, -2, 2, 256), y_local=uniform(rng, -2, 2, 256), z_local=f32(256),
                             data_len=256, one_rep_size=64, repeat_time=4),
            lambda a: {"z_local": np.where(a["x_local"] > a["y_local"], a["x_local"], a["y_local"])},
            golden=({"x_local": x_bin(np.float32), "y_local": x_bin(np.float32, "input/input_y.bin")},
                    {"z_local": ("output/golden.bin", np.float32)}),
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),
    # compare_custom_s2 passes the scalar 0.0f.
    example("devkit c-api compares f32", f"{CAPI}/compare", "compares_vf", "compare/select", "float",
            lambda rng: dict(x_local=uniform(rng, -2, 2, 256), y_local=uniform(rng, -2, 2, 256), z_local=f32(256),
                             scalar=0.0, data_len=256, one_rep_size=64, repeat_time=4),
            lambda a: {"z_local": np.where(a["x_local"] > 0, a["x_local"], a["y_local"])},
            golden=({"x_local": x_bin(np.float32), "y_local": x_bin(np.float32, "input/input_y.bin")},
                    {"z_local": ("output/golden.bin", np.float32)}),
            defines=("SCENARIO_NUM=2",), golden_argv=("-scenarioNum", "2")),
    # div: the example's main() makes its own data (x = i/2 + 1, y = (i % 50 + 1) / 10 + 1/2 in float) and
    # checks x / y within 1 ulp; its gen_data.py writes a subnormal set the program never reads. That set
    # is a second unit, expected as the pages define vdiv: subnormal inputs and results flushed to zero.
    example("devkit c-api div f32", f"{CAPI}/div", "div_vf", "elementwise", "float",
            lambda rng: dict(x_local=np.arange(1024, dtype=np.float32) * np.float32(0.5) + np.float32(1),
                             y_local=(np.arange(1024) % 50 + 1).astype(np.float32) * np.float32(0.1) + np.float32(0.5),
                             z_local=f32(1024), data_len=1024, one_rep_size=64, repeat_time=16),
            lambda a: {"z_local": a["x_local"] / a["y_local"]}, rtol=1.2e-7),
    example("devkit c-api div subnormal set flushed f32", f"{CAPI}/div", "div_vf", "elementwise", "float",
            lambda rng: dict(x_local=f32(1024), y_local=f32(1024), z_local=f32(1024),
                             data_len=1024, one_rep_size=64, repeat_time=16),
            lambda a: {"z_local": flushed_quotient(a["x_local"], a["y_local"])},
            golden=({"x_local": x_bin(np.float32), "y_local": x_bin(np.float32, "input/input_y.bin")}, {})),
    # select: mask_rep_size = asc_get_vf_len() / 8 = 32 bytes of mask a repeat, post-updated.
    example("devkit c-api select by loaded mask f32", f"{CAPI}/select", "select_vf", "compare/select", "float",
            lambda rng: dict(x_local=uniform(rng, 0, 2, 256), y_local=uniform(rng, 0, 2, 256),
                             mask_local=rng.integers(0, 255, 128).astype(np.uint8).view(np.uint32), z_local=f32(256),
                             data_len=256, one_rep_size=64, mask_rep_size=32, repeat_time=4),
            lambda a: {"z_local": np.where(np.unpackbits(a["mask_local"].view(np.uint8), bitorder="little")[::4] == 1,
                                           a["x_local"], a["y_local"])},
            golden=({"x_local": x_bin(np.float32), "y_local": x_bin(np.float32, "input/input_y.bin"),
                     "mask_local": x_bin(np.uint32, "input/input_mask.bin")},
                    {"z_local": ("output/golden.bin", np.float32)})),
    # layer_norm_v4: the batch mean and rstd of currentANum = 1000 rows cast to the output type (RINT)
    # in place, as CopyOutBatchMeanRstd calls it (the M pointers are the float buffers'); castLoops =
    # ceil(1000 / 64).  Each repeat's packed store leaves its 64 values at the start of that repeat's
    # 256 bytes ("each repeat has only half values", the caller's comment), the rest as it was.
    *[Unit(f"ops-nn layer_norm_v4 mean/rstd cast {dtype}", OPS_NN, OPS_NN_AT,
           "norm/layer_norm_v4/op_kernel/arch35/layer_norm_v4_regbase_common.h",
           f"CastBatchMeanRstdToDtype<{ctype}>#1", "norm", dtype,
           lambda rng: dict(castLoops=ceil_div(1000, F32_LANES), castCount=1000,
                            batchMeanInAddr=uniform(rng, -3, 3, 1024), batchRstdInAddr=uniform(rng, 0.1, 9, 1024),
                            batchMeanOutAddr="@batchMeanInAddr", batchRstdOutAddr="@batchRstdInAddr"),
           lambda a, t=DTYPES[dtype]: {"batchMeanOutAddr": cast_in_place(a["batchMeanInAddr"], 1000, t),
                                       "batchRstdOutAddr": cast_in_place(a["batchRstdInAddr"], 1000, t)})
      for dtype, ctype in (("half", "half"), ("bfloat16", "bfloat16_t"))],
    # foreach_mul_scalar_list: y = x * scalars[tensorIndex] over dataCount elements (1000: a tail); the
    # block captures what Compute computes from it: dataCountPerLoop = VL / 4 = 64, repeatTimes =
    # ceil(1000 / 64), sreg = 1000, and the scalar read from the list (ScalarT float: a float).
    Unit("ops-nn foreach_mul_scalar_list f32", OPS_NN, OPS_NN_AT,
         "foreach/foreach_mul_scalar_list/op_kernel/arch35/foreach_mul_scalar_list_regbase.h",
         "ForeachMulScalarList::ForeachMulScalarListRegbase<float, float, int>::Compute#1", "elementwise", "float",
         lambda rng: dict(inUbAddr=uniform(rng, -4, 4, 1024), outUbAddr=f32(1024), repeatTimes=ceil_div(1000, 64),
                          sreg=1000, dataCountPerLoop=64, scaleVal=1.75),
         lambda a: {"outUbAddr": np.r_[a["inUbAddr"][:1000] * np.float32(1.75), np.zeros(24, np.float32)]}),

    # data_relayout.asc scenario 1: KernelInterleave<uint16_t, 128>, one repeat of 128 lanes.
    example("devkit interleave u16", "data_relayout", "InterleaveVF<uint16_t>", "transpose/relayout", "uint16",
            lambda rng: dict(dst0Addr=np.zeros(128, np.uint16), dst1Addr=np.zeros(128, np.uint16),
                             src0Addr=rng.integers(0, 65535, 128).astype(np.uint16),
                             src1Addr=rng.integers(0, 65535, 128).astype(np.uint16), repeatTimes=1,
                             oneRepeatSize=F16_LANES),
            lambda a: {"dst0Addr": np.stack([a["src0Addr"][:64], a["src1Addr"][:64]], 1).reshape(-1),
                       "dst1Addr": np.stack([a["src0Addr"][64:], a["src1Addr"][64:]], 1).reshape(-1)},
            golden=({"src0Addr": x_bin(np.uint16), "src1Addr": x_bin(np.uint16, "input/input_y.bin")},
                    {"dst0Addr": ("output/golden_dst0.bin", np.uint16),
                     "dst1Addr": ("output/golden_dst1.bin", np.uint16)}),
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),
    # subnormal.asc scenario 1: Div with DivAlgo PRECISION_1ULP_FTZ_FALSE over 1024 floats: subnormal
    # inputs and results kept, so the IEEE quotient (the script's data are subnormal cases).
    example("devkit div ftz-false subnormal f32", "subnormal", "SubnormalFTZFalseVF<float>", "elementwise", "float",
            lambda rng: dict(xAddr=uniform(rng, 1, 2, 1024), yAddr=uniform(rng, 1, 2, 1024), zAddr=f32(1024),
                             repeatTimes=16, oneRepeatSize=F32_LANES),
            lambda a: {"zAddr": (a["xAddr"].astype(np.float64) / a["yAddr"]).astype(np.float32)},
            golden=({"xAddr": x_bin(np.float32), "yAddr": x_bin(np.float32, "input/input_y.bin")},
                    {"zAddr": ("output/golden.bin", np.float32)}),
            defines=("SCENARIO_NUM=1",), rtol=1.2e-7),
    # mergemode.asc, first call: totalLength 200 of paddedLength 256, src0 and src1 the same buffer
    # (the host passes xAddr twice); dst was filled with 2 and Max MERGING keeps it past the count.
    example("devkit max merging tail f32", "mergemode", "MaxMergeModeVF<float>", "compare/select", "float",
            lambda rng: dict(dstAddr=f32(256), src0Addr=uniform(rng, -100, -1, 256), src1Addr="@src0Addr",
                             count=200, oneRepeatSize=F32_LANES),
            lambda a: {"dstAddr": np.r_[a["src0Addr"][:200], np.full(56, 2, np.float32)]}),
    # mergemode.asc, second call: ReduceMaxVF(yAddr, yAddr, paddedLength 256), in place.  Reduce MAX
    # gives [max, index of its first occurrence as T's bits, 0...]; the kernel folds the 4 blocks'
    # results lane by lane with Max, so lane 1 ends as the largest of the per-block indices.
    example("devkit reduce max in place f32", "mergemode", "ReduceMaxVF<float>", "reduction", "float",
            lambda rng: dict(dstAddr="@srcAddr", srcAddr=np.r_[uniform(rng, -100, -1, 200), np.full(56, 2, np.float32)],
                             count=256, oneRepeatSize=F32_LANES),
            lambda a: {"srcAddr": np.r_[a["srcAddr"].max(), block_argmax_bits(a["srcAddr"], F32_LANES), np.zeros(62),
                                        a["srcAddr"][64:]]}),

    # ops-math pow(x, exponent) for the exponents its tensor-scalar kernel special-cases, one
    # __VEC_SCOPE__ block each (PowTensorScalarFloat<T1 data, T2 exponent>); dataLength is the pass's
    # element count (1000: a tail); fp16 and bf16 go through float and back with RINT.
    *[elementwise_block(f"ops-math pow {label} {dtype}", OPS_MATH, OPS_MATH_AT,
                        "math/pow/op_kernel/arch35/pow_tensor_scalar_float.h",
                        f"Pow::PowTensorScalarFloat<{ctype}, float>::{method}#1", "elementwise", dtype,
                        lambda x, e=exponent: x ** e, (("srcTensor", 0.25, 4),), rtol=ROUNDED[dtype],
                        length="dataLength", target="dstTensor")
      for method, label, exponent in (("ComputeSqrt", "x^0.5", 0.5), ("ComputeRsqrt", "x^-0.5", -0.5),
                                      ("ComputeSquare", "x^2", 2), ("ComputeCube", "x^3", 3),
                                      ("ComputeRec", "x^-1", -1), ("ComputeSquareRec", "x^-2", -2))
      for dtype, ctype in (("float", "float"), ("half", "half"), ("bfloat16", "bfloat16_t"))],

    # sigmoid_grad: z = dy y (1 - y), y (bufferIn0_, from the forward output) in (0, 1), dy in (-2, 2).
    *[elementwise_block(f"ops-nn sigmoid_grad {dtype}", OPS_NN, OPS_NN_AT, ACT.format("sigmoid_grad", suffix),
                        f"{cls}::Compute2#1", "activation", dtype, lambda y, dy: dy * y * (1 - y),
                        (("bufferIn0_", 0, 1), ("bufferIn1_", -2, 2)), rtol=ROUNDED[dtype], atol=1e-6)
      for dtype, suffix, cls in (("float", "f32", "SigmoidGradF32"), ("half", "f16", "SigmoidGradF16"),
                                 ("bfloat16", "bf16", "SigmoidGradBf16"))],

    # foreach_div_scalar: y = x / s, s = 3.7 (the list's scalar, read by the host code), computed as
    # x * invScalarVal with the host's refined reciprocal.
    *[foreach_block(f"ops-nn foreach_div_scalar {dtype}",
                    "foreach/foreach_div_scalar/op_kernel/arch35/foreach_div_scalar_regbase.h",
                    f"ForeachDivScalar::ForeachDivScalarRegbase<{ctype}, float, int>::Compute#1", dtype,
                    lambda x: x / 3.7, (("tensorOneUbAddr", -50, 50),), {"invScalarVal": refined_reciprocal(3.7)},
                    rtol=max(ROUNDED[dtype], 3e-7))
      for dtype, ctype in (("float", "float"), ("half", "half"), ("bfloat16", "bfloat16_t"))],
    # foreach_lerp_scalar: y = t1 + w (t2 - t1).  Compute picks DoCompute<true> for a small weight
    # (w = 0.3, passed as weightVal_) and DoCompute<false> otherwise (w = 0.8: the host passes w - 1).
    *[foreach_block(f"ops-nn foreach_lerp_scalar w={w} {dtype}",
                    "foreach/foreach_lerp_scalar/op_kernel/arch35/foreach_lerp_scalar_regbase.h",
                    f"ForeachLerpScalar::ForeachLerpScalarRegbase<{ctype}, int>::DoCompute<{exchange}>#1", dtype,
                    lambda t1, t2, w=w: t1 + w * (t2 - t1), (("tensorOneUbAddr", -4, 4), ("tensorTwoUbAddr", -4, 4)),
                    {"weightVal_": w} if exchange == "true" else {"weightVal": float(np.float32(w) - np.float32(1))},
                    rtol=ROUNDED[dtype], atol=1e-5 if dtype == "float" else 4 * ROUNDED[dtype])
      for w, exchange in ((0.3, "true"), (0.8, "false"))
      for dtype, ctype in (("float", "float"), ("half", "half"))],
    subword_unit("ops-nn scatter_reduce widen int8->int32", "ScatterReduceCommon::SubwordWidenToI32<int8_t>#1",
                 "int8", True),
    subword_unit("ops-nn scatter_reduce widen uint8->int32", "ScatterReduceCommon::SubwordWidenToI32<uint8_t>#1",
                 "uint8", True),
    subword_unit("ops-nn scatter_reduce narrow int32->int8", "ScatterReduceCommon::SubwordNarrowFromI32<int8_t>#1",
                 "int8", False),
    subword_unit("ops-nn scatter_reduce narrow int32->uint8", "ScatterReduceCommon::SubwordNarrowFromI32<uint8_t>#1",
                 "uint8", False),

    *[softmax_case(case) for case in range(1, 6)],

    # reg_load_gather scenario 1: KernelGather<half, uint16_t, 128>, a 1024-element source; Gather
    # from UB by element index, count 128, oneRepeatSize 128.
    example("devkit gather from UB f16", "examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_gather",
            "GatherVF<half, uint16_t>", "gather/scatter", "half",
            lambda rng: dict(dstAddr=np.zeros(128, np.float16), srcAddr=uniform(rng, 0, 1, 1024, np.float16),
                             indexAddr=rng.integers(0, 1024, 128).astype(np.uint16), count=128,
                             oneRepeatSize=F16_LANES),
            lambda a: {"dstAddr": a["srcAddr"][a["indexAddr"]]},
            golden=({"srcAddr": x_bin(np.float16), "indexAddr": x_bin(np.uint16, "input/input_y.bin")},
                    {"dstAddr": ("output/golden.bin", np.float16)}),
            path="examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_gather/gather_ld_reg.asc",
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),
    # reg_store_scatter: KernelScatterReg<half, uint16_t, 128>: dst[index[i]] = src[i] (the host zeroes
    # dst first); a permutation as index.
    example("devkit scatter to UB f16", "examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_store_scatter",
            "ScatterVF<half, uint16_t>", "gather/scatter", "half",
            lambda rng: dict(dstAddr=np.zeros(128, np.float16), srcAddr=uniform(rng, 0, 1, 128, np.float16),
                             indexAddr=rng.permutation(128).astype(np.uint16), count=128, oneRepeatSize=F16_LANES),
            lambda a: {"dstAddr": scattered(a["srcAddr"], a["indexAddr"], 128)},
            golden=({"srcAddr": x_bin(np.float16), "indexAddr": x_bin(np.uint16, "input/input_y.bin")},
                    {"dstAddr": ("output/golden.bin", np.float16)}),
            path="examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_store_scatter/scatter_st_reg.asc"),
    # reg_load_store_unalign scenario 1: KernelScenario1<float, 1024>: CopyVF(dstAddr + 1, srcAddr + 1,
    # 64) copies 128 floats through the unaligned load and store streams; dst was zeroed.
    example("devkit unaligned copy f32", "examples/01_simd_cpp_api/03_basic_api/00_data_movement/"
            "reg_load_store_unalign", "KernelScenario1<float, 1024>::CopyVF", "transpose/relayout", "float",
            lambda rng: dict(dstAddr=At(f32(1024), 4), srcAddr=At(rng.standard_normal(1024).astype(np.float32), 4),
                             oneRepeatSize=F32_LANES),
            lambda a: {"dstAddr": np.r_[0, a["srcAddr"][1:129], np.zeros(1024 - 129)]},
            golden=({"srcAddr": x_bin(np.float32)}, {"dstAddr": ("output/golden.bin", np.float32)}),
            path="examples/01_simd_cpp_api/03_basic_api/00_data_movement/reg_load_store_unalign/ld_st_reg_unalign.asc",
            defines=("SCENARIO_NUM=1",), golden_argv=("-scenarioNum", "1")),

    # gelu_quant's GELU (tanh form) into a float buffer, from float, half or bf16 (the second block:
    # the first is the float branch of an `if constexpr`); loopNum = ceil(count / 64).
    *[counted_block(f"ops-nn gelu_quant gelu-tanh {dtype}", OPS_NN,
                    "activation/gelu_quant/op_kernel/arch35/gelu_quant_base_regbase.h",
                    f"GeluQuantALL::GeluQuantBase::ComputeGeluTanh<{ctype}>#{block}", "activation", dtype,
                    gelu_tanh, (("srcAddr", -6, 6),), "dstAddr", F32_LANES, out_dtype="float", with_vl=False,
                    rtol=1e-5 if dtype == "float" else 2e-5, atol=1e-7)
      for dtype, ctype, block in (("float", "float", 1), ("half", "half", 2), ("bfloat16", "bfloat16_t", 2))],
    # gelu_quant's erf-GELU epilogue: y = x/2 (1 + erf(x / sqrt 2)), src1 = x, src2 = that erf.
    counted_block("ops-nn gelu_quant erf epilogue f32", OPS_NN,
                  "activation/gelu_quant/op_kernel/arch35/gelu_quant_base_regbase.h",
                  "GeluQuantALL::GeluQuantBase::GeluV2ErfPost#1", "activation", "float",
                  lambda x, e: 0.5 * x * (1 + e), (("src1Addr", -4, 4), ("src2Addr", -1, 1)), "dstAddr", F32_LANES,
                  rtol=1e-6, atol=1e-7),
    # glu: y = a sigmoid(b), the halves given as two tensors (vl = VL / sizeof(T)).
    *[counted_block(f"ops-nn glu {dtype}", OPS_NN, "activation/glu/op_kernel/arch35/glu_common.h",
                    f"Glu::Common::ComputeSigmoidAndMulImpl<{ctype}>#1", "activation", dtype,
                    lambda a, b: a * sigmoid(b), (("x1LocalPtr", -6, 6), ("x2LocalPtr", -6, 6)), "outLocalPtr",
                    lanes, rtol=ROUNDED[dtype], atol=1e-6)
      for dtype, ctype, lanes in (("float", "float", F32_LANES), ("half", "half", F16_LANES))],
    # glu over interleaved pairs: each row of two elements (a, b) gives a sigmoid(b); the kernel
    # de-interleaves two registers at a time (xLocalPtr holds 2 count elements).
    counted_block("ops-nn glu de-interleaved f32", OPS_NN, "activation/glu/op_kernel/arch35/glu_common.h",
                  "Glu::Common::ComputeSigmoidAndMulWithDeInterleave<float>#1", "transpose/relayout", "float",
                  lambda x: x[0::2] * sigmoid(x[1::2]), (("xLocalPtr", -6, 6),), "outLocalPtr", F32_LANES,
                  in_size=2 * 1024, rtol=1e-5, atol=1e-6),

    *[add_rms_norm_unit(kind, dtype, ctype) for kind in ("square", "fold", "add")
      for dtype, ctype in (("float", "float"), ("half", "half"), ("bfloat16", "bfloat16_t"))],

    # ascend_quant per tensor, int8 out, TPL_ROUND_MODE_ROUND (1), a non-zero offset (OffsetZero 0):
    # y = rint(x scale + offset) (float -> int16 RINT, then int16 -> half -> int8, exact here), the
    # scale and offset being the tiling's (50 and 3: |y| < 128, so no saturation is involved).
    *[Unit(f"ops-nn ascend_quant int8 {dtype}", OPS_NN, OPS_NN_AT,
           "quant/ascend_quant/op_kernel/arch35/ascend_quant_regbase.h",
           f"AscendQuantOp::AscendQuantPerTensorRegbase<{ctype}, int8_t, 1, 0>::Compute#1", "quantisation", dtype,
           lambda rng, t=DTYPES[dtype]: dict(dataCount=1000, VL=F32_LANES, ATTR_SCALE=50.0, ATTR_OFFSET=3.0,
                                             xLocalAddr=uniform(rng, -2, 2, 1024).astype(t),
                                             outLocalAddr=np.zeros(1024, np.int8)),
           lambda a: {"outLocalAddr": np.r_[np.rint(a["xLocalAddr"][:1000].astype(np.float32) * np.float32(50)
                                                + np.float32(3)).astype(np.int8), np.zeros(24, np.int8)]},
           headers=OPBASE)
      for dtype, ctype in (("float", "float"), ("half", "half"))],

    transpose_index_unit("float", "float", True),
    transpose_index_unit("half", "half", True),
    transpose_index_unit("float", "float", False),

    # 00_introduction reg add: vector_add<16384> (256 x 256 over 4 cores): AddVF<float, 16384>(dstAddr,
    # 16384) adds the tile to itself in place.  (The script's golden covers all four cores' tiles.)
    example("devkit add in place f32", "examples/01_simd_cpp_api/00_introduction/04_reg_compute/add",
            "AddVF<float, 16384>", "elementwise", "float",
            lambda rng: dict(dstAddr=uniform(rng, -4, 4, 16384), count=16384),
            lambda a: {"dstAddr": a["dstAddr"] * 2}),
    # 05_best_practices gelu (Case 1): KernelGelu<8192, 8192, 256, 4096, 8192>::GeluVfBasic over one
    # tile, n = copyRows (2) * singleCoreN (4096), loopNum = n / 64; the coefficients are the tanh
    # form's, rounded to 7 digits.  (The script's golden is 8192 x 8192: not used.)
    example("devkit gelu best-practice f32", "examples/01_simd_cpp_api/05_best_practices/02_reg_compute/"
            "gelu_high_performance", "KernelGelu<8192, 8192, 256, 4096, 8192>::GeluVfBasic", "activation", "float",
            lambda rng: dict(xAddr=uniform(rng, -10, 10, 8192), yAddr=f32(8192), n=8192, loopNum=128),
            lambda a: {"yAddr": gelu_tanh(a["xAddr"])},
            path="examples/01_simd_cpp_api/05_best_practices/02_reg_compute/gelu_high_performance/gelu.asc",
            defines=("SCENARIO_NUM=1",), rtol=1e-5, atol=1e-4),

    # histogram.asc: KernelHistogram<uint8_t, uint16_t, 256>: one repeat of 256 bytes (oneRepeatSize =
    # VL), BIN0 counts the values 0..127 and BIN1 128..255 (FREQUENCY: added to the zeroed registers),
    # the two 128-bin halves stored one after the other.
    example("devkit histogram u8", "histogram", "HistogramsVF<uint8_t, uint16_t>", "integer/bitwise", "uint8",
            lambda rng: dict(dstAddr=np.zeros(256, np.uint16), srcAddr=rng.integers(0, 256, 256).astype(np.uint8),
                             count=256, oneRepeatSize=256),
            lambda a: {"dstAddr": np.bincount(a["srcAddr"], minlength=256).astype(np.uint16)},
            golden=({"srcAddr": x_bin(np.uint8)}, {"dstAddr": ("output/golden.bin", np.uint16)})),

    # log_softmax_v2 (recompute path): the running row maximum, xMax[0] = max(xMax[0], x[0..ubFactor))
    # over a row of ubFactor = 1000 (the tiling's split of R: a tail); the buffer's 24 elements past
    # the row hold 100, which the tail mask must leave out; xMax[0] starts at -1, its other lanes stay.
    *[Unit(f"ops-nn log_softmax_v2 row max {dtype}", OPS_NN, OPS_NN_AT,
           "activation/log_softmax_v2/op_kernel/arch35/log_softmax_v2_ar_recompute.h",
           f"LogSoftmaxV2Ops::LogSoftmaxV2ArRecompute<{ctype}, {ctype}>::CalculateMaxVF#1", "reduction", dtype,
           lambda rng, t=DTYPES[dtype]: dict(ubFactor=1000, xPtr=np.r_[uniform(rng, -5, 5, 1000), np.full(24, 100)]
                                             .astype(t), xMaxPtr=np.r_[-1, uniform(rng, 0, 1, 63)].astype(np.float32)),
           lambda a: {"xMaxPtr": np.r_[max(-1.0, float(a["xPtr"][:1000].astype(np.float64).max())), a["xMaxPtr"][1:]]},
           headers=OPBASE)
      for dtype, ctype in (("float", "float"), ("half", "half"))],

    log_softmax_out_unit("float", "float"),
    log_softmax_out_unit("half", "half"),

    # More C-API examples (TOTAL_LENGTH 256, 128 for gather; NUM_BLOCKS 1; one_rep_size = VL / sizeof).
    # squeeze: PAT_M4 keeps every fourth lane; each repeat's 16 are stored at y + 16 i with a full
    # mask.  The host's y_local holds 64 floats, so the last store's 48 lanes past them fall outside
    # that array (the kernel's own out-of-bounds write: harmless here, nothing follows it).
    example("devkit c-api squeeze M4 f32", f"{CAPI}/squeeze", "squeeze_vf", "squeeze/compaction", "float",
            lambda rng: dict(x_local=uniform(rng, -2, 2, 256), y_local=f32(64), data_len=256, one_rep_size=64,
                             repeat_time=4),
            lambda a: {"y_local": a["x_local"][::4]},
            golden=({"x_local": x_bin(np.float32)}, {"y_local": ("output/golden.bin", np.float32)})),
    example("devkit c-api gather f16 by u16", f"{CAPI}/gather", "gather_vf", "gather/scatter", "half",
            lambda rng: dict(src_local=uniform(rng, 0, 1, 128, np.float16),
                             index_local=rng.integers(0, 128, 128).astype(np.uint16),
                             dst_local=np.zeros(128, np.float16), data_len=128, one_rep_size=128, repeat_time=1),
            lambda a: {"dst_local": a["src_local"][a["index_local"]]},
            golden=({"src_local": x_bin(np.float16), "index_local": x_bin(np.uint16, "input/input_y.bin")},
                    {"dst_local": ("output/golden.bin", np.float16)})),
    # reduce: the sum in lane 0 of y_local[OUT_ALIGN_SIZE = 8] (the final store is a full register:
    # 56 floats past that array, as in squeeze).
    example("devkit c-api reduce sum f32", f"{CAPI}/reduce", "reduce_sum_vf", "reduction", "float",
            lambda rng: dict(x_local=uniform(rng, 1, 2, 256), y_local=f32(8), data_len=256, one_rep_size=64,
                             repeat_time=4),
            lambda a: {"y_local": np.r_[a["x_local"].astype(np.float64).sum(), np.zeros(7)]},
            golden=({"x_local": x_bin(np.float32)}, {"y_local": ("output/golden.bin", np.float32)}), rtol=1e-5),
    example("devkit c-api floor f32", f"{CAPI}/truncate", "truncate_vf", "elementwise", "float",
            lambda rng: dict(x_local=uniform(rng, -100, 100, 256), y_local=f32(256), data_len=256, one_rep_size=64,
                             repeat_time=4),
            lambda a: {"y_local": np.floor(a["x_local"])},
            golden=({"x_local": x_bin(np.float32)}, {"y_local": ("output/golden.bin", np.float32)})),
    example("devkit c-api histogram u8", f"{CAPI}/histogram", "histogram_vf", "integer/bitwise", "uint8",
            lambda rng: dict(x_local=rng.integers(0, 256, 256).astype(np.uint8), y_local=np.zeros(256, np.uint16),
                             data_len=256, one_rep_size=256, repeat_time=1),
            lambda a: {"y_local": np.bincount(a["x_local"], minlength=256).astype(np.uint16)},
            golden=({"x_local": x_bin(np.uint8)}, {"y_local": ("output/golden.bin", np.uint16)})),

    # cross_entropy_loss (big C): the running row maximum over onceC = 1000 classes, vfLen = VL /
    # sizeof(T1), repeatTimes1 = onceC / vfLen whole registers through AddrRegs of stride vfLen (a
    # run-time value), the tailNum = onceC % vfLen rest masked (the buffer's elements past the row
    # hold 100, which must stay out); minValue: the host's MIN_FP32, -65504 for half.
    *[Unit(f"ops-nn cross_entropy_loss row max {dtype}", OPS_NN, OPS_NN_AT,
           "loss/cross_entropy_loss/op_kernel/arch35/cross_entropy_loss_ar_big_c.h",
           f"CrossEntropyLoss::GetRowMax<{ctype}>#1", "reduction", dtype,
           lambda rng, t=DTYPES[dtype], lanes=lanes, low=low: dict(
               vfLen=lanes, repeatTimes1=1000 // lanes, tailNum=1000 % lanes, minValue=low,
               inputUbAddr=np.r_[uniform(rng, -5, 5, 1000), np.full(24, 100)].astype(t),
               maxUbAddr=np.r_[-1, uniform(rng, 0, 1, 63)].astype(np.float32)),
           lambda a: {"maxUbAddr": np.r_[max(-1.0, float(a["inputUbAddr"][:1000].astype(np.float64).max())),
                                         a["maxUbAddr"][1:]]},
           headers=OPBASE)
      for dtype, ctype, lanes, low in (("float", "float", F32_LANES, -3.402823466e+38),
                                       ("half", "half", F16_LANES, -65504.0))],
]
