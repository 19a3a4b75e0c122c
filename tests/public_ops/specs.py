"""Public arch35 operators run whole (tests/test_public_ops.py): each names its kernel in a public
repository (read from a bare mirror at run time, never copied here), the build's type macros, the
tiling field values and block count worked out by hand from the operator's host tiling code for one
shape, and the operator's math in numpy.

The platform the tiling is worked out for: 64 vector cores (`GetCoreNumAiv()`, the CORE_NUM of the
vendor's Ascend 950 tiling tests) and a UB of 253952 bytes (`GetCoreMemSize(UB)`: 248 KB, what the
kernel API's GetUBSizeInBytes page gives for the Ascend 950 and ascasm's usable UB). The arithmetic
for each field is in the comment beside it; `CeilDiv(a, b)` is a / b rounded up, `CeilAlign(a, b)`
that times b.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

import ml_dtypes
import numpy as np

OPS_NN = ("hicann/ops-nn", "e5c3fa9327ea95ba26d06227e746923580d10921")
OPS_MATH = ("hicann/ops-math", "c41933244c31e44fd496e3bb3212164f8c48c214")
# the shared headers the vendor's build adds (op_common/...)
OPBASE = (("hicann/opbase", "aa3cd74b7f6d772acd64ff48292a7e65a9bc8142", "include/op_common", "pkg_inc/op_common"),)

CORE_NUM = 64
UB_SIZE = 253952

BF16 = np.dtype(ml_dtypes.bfloat16)
C_TYPES = {np.dtype(np.float32): "float", np.dtype(np.float16): "half", BF16: "bfloat16_t",
           np.dtype(np.int32): "int32_t"}
# Half an ulp of the type, relative: the one rounding a result computed wider and stored in it makes
ROUNDING = {np.dtype(np.float32): 2.0 ** -24, np.dtype(np.float16): 2.0 ** -11, BF16: 2.0 ** -8}


@dataclasses.dataclass
class PublicOp:
    name: str
    source: tuple            # (OWNER/NAME, commit)
    path: str                # the kernel entry's file in the repository
    entry: str               # as --entry names it
    dtype: np.dtype          # the data's element type
    count: int               # elements of each tensor (the shape flattened)
    tiling: dict             # the tiling struct's fields, worked out by hand
    blocks: int              # the block count the host code launches (SetBlockDim)
    inputs: dict             # GM parameter -> (low, high[, elements]) of its seeded uniform draw
    output: str | tuple      # the GM parameter the result is written to, or several
    math: Callable           # {input: float64 array} -> the expected result (float64), {output: it} for several
    rtol: float = 0.0        # |got - want| <= atol + rtol * |want|
    atol: float = 0.0
    defines: tuple = ()      # the build's -D macros (DTYPE_X=float, ...)
    key: int | None = None   # --tiling-key
    extra: dict = dataclasses.field(default_factory=dict)   # other GM parameters: spec strings
    slow: bool = False       # many elements: the reference executor runs it under `pytest -m slow`
    tiling_header: str | None = None   # the host header defining the tiling struct (BEGIN_TILING_DATA_DEF)
    dtypes: dict = dataclasses.field(default_factory=dict)      # GM parameter -> its type, where not `dtype`
    tolerances: dict = dataclasses.field(default_factory=dict)  # output -> (rtol, atol), where not rtol, atol
    counts: dict = dataclasses.field(default_factory=dict)      # output -> its elements, where not `count`

    def count_of(self, name) -> int:
        return self.counts.get(name, self.count)

    def dtype_of(self, name) -> np.dtype:
        return np.dtype(self.dtypes.get(name, self.dtype))

    @property
    def outputs(self) -> tuple:
        return self.output if isinstance(self.output, tuple) else (self.output,)

    @property
    def repo(self):
        return self.source[0]

    @property
    def commit(self):
        return self.source[1]


WORKSPACE = {"workspace": "u8[32]"}      # the workspace every entry takes (these ops use none of it)


# --- relu6_d (ops-nn activation/relu6_d): y = min(max(x, 0), 6 * scale) ---------------------------
# op_host/arch35/relu6_d_tiling_arch35.cpp, ComputeTilingParams: elemBytes = sizeof(T);
# coreNum = min(CeilDiv(dim0 * 8 * elemBytes, 32768), 64); blockFormer = CeilAlign(CeilDiv(dim0, coreNum),
# 512); blockNum = CeilDiv(dim0, blockFormer) (the block count); ubFormer = floor((UB_SIZE - 256) /
# (4 * elemBytes) / (256 / elemBytes)) * (256 / elemBytes); each block's loop count and tail from
# blockFormer and the last block's share blockTail = dim0 - (blockNum - 1) * blockFormer.
# upperThreshold = 6 * scale (the attribute, default 1). The kernel takes T from DTYPE_X.

def relu6_d(dtype, count, tiling, blocks, scale=1.0, low=-3.0, high=9.0):
    return PublicOp(f"relu6_d {C_TYPES[np.dtype(dtype)]}", OPS_NN, "activation/relu6_d/op_kernel/relu6_d.cpp",
                    "relu6_d", np.dtype(dtype), count, {**tiling, "dim0": count, "upperThreshold": 6.0 * scale},
                    blocks, {"x": (low, high)}, "y", lambda a: np.minimum(np.maximum(a["x"], 0), int(6 * scale)
                                                                             if np.dtype(dtype).kind == "i" else 6 * scale),
                    defines=(f"DTYPE_X={C_TYPES[np.dtype(dtype)]}",), extra=WORKSPACE)


RELU6_D = [
    # float, dim0 5000: coreNum = CeilDiv(5000 * 32, 32768) = 5; blockFormer = CeilAlign(1000, 512) = 1024;
    # blockNum = CeilDiv(5000, 1024) = 5, the last block 5000 - 4 * 1024 = 904; ubFormer = floor(253696 / 16
    # = 15856 / 64) * 64 = 15808, so one UB loop per block
    relu6_d(np.float32, 5000, {"coreNum": 5, "blockFormer": 1024, "blockNum": 5, "ubFormer": 15808,
                               "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1024,
                               "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 904}, 5),
    # half, dim0 3000: coreNum = CeilDiv(3000 * 16, 32768) = 2; blockFormer = CeilAlign(1500, 512) = 1536;
    # blockNum = 2, the last 3000 - 1536 = 1464; ubFormer = floor(253696 / 8 = 31712 / 128) * 128 = 31616
    relu6_d(np.float16, 3000, {"coreNum": 2, "blockFormer": 1536, "blockNum": 2, "ubFormer": 31616,
                               "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1536,
                               "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 1464}, 2),
    # int32_t, dim0 2500: coreNum = CeilDiv(80000, 32768) = 3; blockFormer = CeilAlign(834, 512) = 1024;
    # blockNum = 3, the last 2500 - 2048 = 452; ubFormer 15808 as for float; the threshold static_cast<int32_t>(6.0)
    relu6_d(np.int32, 2500, {"coreNum": 3, "blockFormer": 1024, "blockNum": 3, "ubFormer": 15808,
                             "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1024,
                             "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 452}, 3, low=-20, high=20),
    # bfloat16_t, dim0 777, scale 0.5 (upperThreshold 3): coreNum = CeilDiv(12432, 32768) = 1; blockFormer =
    # CeilAlign(777, 512) = 1024; blockNum = 1, its share 777; ubFormer 31616 as for half. The kernel widens
    # to float, clamps and narrows (CAST_RINT): the clamp of a bf16 value is a bf16 value, exactly.
    relu6_d(BF16, 777, {"coreNum": 1, "blockFormer": 1024, "blockNum": 1, "ubFormer": 31616,
                        "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1024,
                        "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 777}, 1, scale=0.5),
]


# --- smooth_l1_loss_grad (ops-nn loss/smooth_l1_loss_grad) ----------------------------------------
# gradient = clamp((predict - label) / sigma, -1, 1) * dout. op_host/arch35/smooth_l1_loss_grad_tiling_arch35.cpp,
# ComputeTilingParams: coreNum, blockFormer and blockNum as relu6_d's; blockTail = totalLength -
# (blockNum - 1) * blockFormer; ubFormer = floor((UB_SIZE - 256) / (8 * elemBytes) / (256 / elemBytes)) *
# (256 / elemBytes) (eight buffers: three inputs and the output, double-buffered); sigma the attribute
# (default 1), negSigma = -sigma, recipSigma = 1 / sigma. The kernel clamps to [-sigma, sigma], multiplies
# by 1/sigma, then by dout: each step one rounding in T.

def smooth_l1_loss_grad_math(sigma):
    def math(a):
        return np.clip(a["predict"] - a["label"], -sigma, sigma) * (1 / sigma) * a["dout"]
    return math


SMOOTH_L1_LOSS_GRAD = [
    # float, 600000 elements, sigma 0.5: coreNum = min(CeilDiv(600000 * 32, 32768) = 586, 64) = 64;
    # blockFormer = CeilAlign(CeilDiv(600000, 64) = 9375, 512) = 9728; blockNum = CeilDiv(600000, 9728) = 62,
    # blockTail = 600000 - 61 * 9728 = 6592; ubFormer = floor(253696 / 32 = 7928 / 64) * 64 = 7872, so a
    # block of 9728 runs two UB loops (7872 and a tail of 1856)
    PublicOp("smooth_l1_loss_grad float", OPS_NN, "loss/smooth_l1_loss_grad/op_kernel/smooth_l1_loss_grad.cpp",
             "smooth_l1_loss_grad", np.dtype(np.float32), 600000,
             {"totalLength": 600000, "coreNum": 64, "blockFormer": 9728, "blockNum": 62, "blockTail": 6592,
              "ubFormer": 7872, "sigma": 0.5, "negSigma": -0.5, "recipSigma": 2.0}, 62,
             {"predict": (-2, 2), "label": (-2, 2), "dout": (-3, 3)}, "gradient", smooth_l1_loss_grad_math(0.5),
             rtol=3 * 2.0 ** -24, defines=("DTYPE_PREDICT=float",), extra=WORKSPACE, slow=True),
    # half, 1000 elements, sigma 1: coreNum = CeilDiv(16000, 32768) = 1; blockFormer = CeilAlign(1000, 512)
    # = 1024; blockNum = 1, blockTail = 1000; ubFormer = floor(253696 / 16 = 15856 / 128) * 128 = 15744
    PublicOp("smooth_l1_loss_grad half", OPS_NN, "loss/smooth_l1_loss_grad/op_kernel/smooth_l1_loss_grad.cpp",
             "smooth_l1_loss_grad", np.dtype(np.float16), 1000,
             {"totalLength": 1000, "coreNum": 1, "blockFormer": 1024, "blockNum": 1, "blockTail": 1000,
              "ubFormer": 15744, "sigma": 1.0, "negSigma": -1.0, "recipSigma": 1.0}, 1,
             {"predict": (-2, 2), "label": (-2, 2), "dout": (-3, 3)}, "gradient", smooth_l1_loss_grad_math(1.0),
             rtol=3 * 2.0 ** -11, atol=2.0 ** -24, defines=("DTYPE_PREDICT=half",), extra=WORKSPACE),
]


# --- inv (ops-math math/inv): the integer reciprocal truncated toward zero --------------------------
# For int32_t the kernel maps +1 to +1, -1 to -1 and every other value (0 too) to 0 (its header's
# definition), with integer compares and selects. op_host/arch35/inv_tiling_arch35.cpp, CalcTilingParams:
# typeSize 4, ubBlockSize = 32 / 4 = 8; blockFactor = CeilDiv(totalElements, 64) rounded up to a multiple of
# 8; the block count CeilDiv(totalElements, blockFactor); ubFactor = FloorAlign(UB_SIZE / (2 * 2 * 4), 8).
# The template argument MODE is 0 (ASCENDC_TPL_SEL_PARAM(context, 0)).
INV = [
    # 1000 elements: blockFactor = CeilDiv(1000, 64) = 16; 63 blocks (62 * 16 = 992, the last 8);
    # ubFactor = FloorAlign(253952 / 16 = 15872, 8) = 15872
    PublicOp("inv int32_t", OPS_MATH, "math/inv/op_kernel/inv_apt.cpp", "inv<0>", np.dtype(np.int32), 1000,
             {"totalElements": 1000, "blockFactor": 16, "ubFactor": 15872}, 63, {"self": (-3, 3)}, "out",
             lambda a: np.where(a["self"] == 1, 1, np.where(a["self"] == -1, -1, 0)),
             defines=("DTYPE_X=int32_t",), extra=WORKSPACE),
]


# --- spence (ops-math math/spence): the dilogarithm, scipy's convention -----------------------------
# spence(x) = integral from 1 to x of ln(t) / (1 - t) dt = Li2(1 - x) for x >= 0, NaN for x < 0.
# op_host/arch35/spence_tiling_arch35.cpp: calcCoreNum = min(CeilDiv(dim0 * 32, 32768), 64); blockFormer
# = CeilAlign(CeilDiv(dim0, calcCoreNum), 32) (GetUbBlockSize: 32); blockNum = coreNum = CeilDiv(dim0,
# blockFormer) (the block count); ubFormer = FloorAlign(UB_SIZE * 8 / 8, 64) (the kernel moves chunks of 256
# elements of its own, whatever ubFormer says); the loop fields from blockFormer and the last block's share;
# dtype = ge::DT_FLOAT = 0. The entry's template argument is the data type.

def dilogarithm(z):
    """Li2(z) for real z <= 1 in float64, from its power series where |z| <= 1/2 and the textbook
    identities elsewhere: reflection Li2(z) = pi^2/6 - ln(z) ln(1 - z) - Li2(1 - z) for z in (1/2, 1],
    Landen Li2(z) = -Li2(z / (z - 1)) - ln(1 - z)^2 / 2 for z in [-1, -1/2), inversion Li2(z) = -pi^2/6 -
    ln(-z)^2 / 2 - Li2(1 / z) for z < -1."""
    z = np.asarray(z, np.float64)

    def series(w):
        k = np.arange(1, 80)[:, None]
        return np.sum(w[None, :] ** k / k.astype(np.float64) ** 2, axis=0)

    def small(w):                      # |w| <= 1
        out = np.empty_like(w)
        near = np.abs(w) <= 0.5
        out[near] = series(w[near])
        high = w > 0.5
        with np.errstate(divide="ignore", invalid="ignore"):
            reflected = np.pi ** 2 / 6 - np.log(w[high]) * np.nan_to_num(np.log1p(-w[high]), neginf=0.0)
        out[high] = reflected - series(1 - w[high])
        low = w < -0.5
        out[low] = -series(w[low] / (w[low] - 1)) - np.log1p(-w[low]) ** 2 / 2
        return out

    out = np.empty_like(z)
    inside = z >= -1
    out[inside] = small(z[inside])
    far = ~inside
    out[far] = -np.pi ** 2 / 6 - np.log(-z[far]) ** 2 / 2 - small(1 / z[far])
    return out


def spence(a):
    x = a["x"]
    return np.where(x < 0, np.nan, dilogarithm(1 - np.maximum(x, 0)))


SPENCE = [
    # float, dim0 3000: calcCoreNum = CeilDiv(96000, 32768) = 3; blockFormer = CeilAlign(1000, 32) = 1024;
    # 3 blocks, the last 3000 - 2048 = 952; ubFormer = FloorAlign(253952, 64) = 253952
    PublicOp("spence float", OPS_MATH, "math/spence/op_kernel/spence_apt.cpp", "spence<float>", np.dtype(np.float32),
             3000, {"dim0": 3000, "coreNum": 3, "blockFormer": 1024, "blockNum": 3, "ubFormer": 253952,
                    "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1024, "ubLoopOfTailBlock": 1,
                    "ubTailOfTailBlock": 952, "dtype": 0}, 3,
             {"x": (-0.5, 8.0)}, "y", spence, rtol=1e-5, atol=1e-6, extra=WORKSPACE),
]


# --- the generated elementwise operators: sigmoid, sigmoid_grad (ops-nn), floor, fused_mul_add_n (ops-math) --
# Their tiling struct is defined in the host header (BEGIN_TILING_DATA_DEF: dim0, blockFormer, ubFormer,
# the loop counts and tails, elemNum), which the build turns into the kernel's (`tiling_header`), and their
# host code calls opbase's ElewiseTiling (src/op_common/atvoss/elewise/elewise_tiling.cpp) with the
# op's minDtypeBits and bufferDivisor (bits of UB per element, over all its buffers) for the data type:
# coreNum = min(CeilDiv(dim0 * minDtypeBits, 32768), 64); blockFormer = CeilAlign(CeilDiv(dim0, coreNum), 512);
# blockNum = CeilDiv(dim0, blockFormer) (the block count); elemNum = ubFormer = floor(floor(UB_SIZE * 8 /
# bufferDivisor) / a) * a with a = 256 * 8 / minDtypeBits; the loop counts and tails from blockFormer and
# the last block's share. The tiling key is opKey * 10^14 + 100 (the schedule key), opKey the op's number
# for the data type (GetOpKey), as the kernel's TILING_KEY_IS constants say.

def elementwise(name, source, path, entry, dtype, dim0, core_num, block_former, elem_num, key, inputs, output,
                math, header, rtol=0.0, atol=0.0):
    blocks = -(-dim0 // block_former)
    tail = dim0 - (blocks - 1) * block_former
    tiling = {"dim0": dim0, "blockFormer": block_former, "ubFormer": elem_num,
              "ubLoopOfFormerBlock": -(-block_former // elem_num), "ubLoopOfTailBlock": -(-tail // elem_num),
              "ubTailOfFormerBlock": block_former - (-(-block_former // elem_num) - 1) * elem_num,
              "ubTailOfTailBlock": tail - (-(-tail // elem_num) - 1) * elem_num, "elemNum": elem_num}
    assert core_num == min(-(-dim0 * 8 * np.dtype(dtype).itemsize // 32768), CORE_NUM)   # the hand value
    return PublicOp(name, source, path, entry, np.dtype(dtype), dim0, tiling, blocks, inputs, output, math,
                    rtol, atol, key=key, extra=WORKSPACE, tiling_header=header)


def sigmoid(a):
    return 1 / (1 + np.exp(-a["x"]))


SIGMOID_HOST = "activation/sigmoid/op_host/arch35/sigmoid_tiling_arch35.h"
SIGMOID_GRAD_HOST = "activation/sigmoid_grad/op_host/arch35/sigmoid_grad_tiling_arch35.h"
FLOOR_HOST = "math/floor/op_host/arch35/floor_tiling_arch35.h"
FUSED_MUL_ADD_N_HOST = "math/fused_mul_add_n/op_host/arch35/fused_mul_add_n_tiling_arch35.h"

ELEMENTWISE = [
    # sigmoid float (opKey 3: minDtypeBits 32, bufferDivisor 128), dim0 5000: coreNum = CeilDiv(160000,
    # 32768) = 5; blockFormer = CeilAlign(1000, 512) = 1024; 5 blocks, the last 904; elemNum =
    # floor(2031616 / 128 = 15872 / 64) * 64 = 15872. The kernel: exp(-x), + 1, 1 / that, in float: three
    # roundings and the exponential's error, a few ulp.
    elementwise("sigmoid float", OPS_NN, "activation/sigmoid/op_kernel/sigmoid_apt.cpp", "sigmoid", np.float32,
                5000, 5, 1024, 15872, 300000000000100, {"x": (-10, 10)}, "y", sigmoid, SIGMOID_HOST,
                rtol=2.0 ** -21),
    # sigmoid half (opKey 1: minDtypeBits 16, bufferDivisor 64), dim0 3000: coreNum = CeilDiv(48000, 32768)
    # = 2; blockFormer = CeilAlign(1500, 512) = 1536; 2 blocks, the last 1464; elemNum = floor(2031616 / 64
    # = 31744 / 128) * 128 = 31744. Computed in float, rounded once to half (below 2^-14 half is subnormal,
    # its ulp 2^-24: half of that is the absolute tolerance).
    elementwise("sigmoid half", OPS_NN, "activation/sigmoid/op_kernel/sigmoid_apt.cpp", "sigmoid", np.float16,
                3000, 2, 1536, 31744, 100000000000100, {"x": (-10, 10)}, "y", sigmoid, SIGMOID_HOST,
                rtol=2.0 ** -11 + 2.0 ** -20, atol=2.0 ** -25),
    # sigmoid_grad float, z = dy * (1 - y) * y (opKey 3: minDtypeBits 32, bufferDivisor 192), dim0 5000:
    # coreNum 5, blockFormer 1024, 5 blocks, the last 904; elemNum = floor(floor(2031616 / 192) = 10581 /
    # 64) * 64 = 10560. Three roundings in float.
    elementwise("sigmoid_grad float", OPS_NN, "activation/sigmoid_grad/op_kernel/sigmoid_grad_apt.cpp",
                "sigmoid_grad", np.float32, 5000, 5, 1024, 10560, 300000000000100,
                {"y": (0, 1), "dy": (-2, 2)}, "z", lambda a: a["dy"] * (1 - a["y"]) * a["y"], SIGMOID_GRAD_HOST,
                rtol=3 * 2.0 ** -24),
    # floor float (opKey 3: minDtypeBits 32, bufferDivisor 128), dim0 2000: coreNum = CeilDiv(64000, 32768)
    # = 2; blockFormer = CeilAlign(1000, 512) = 1024; 2 blocks, the last 976; elemNum 15872
    elementwise("floor float", OPS_MATH, "math/floor/op_kernel/floor_apt.cpp", "floor", np.float32, 2000, 2, 1024,
                15872, 300000000000100, {"x": (-300, 300)}, "y", lambda a: np.floor(a["x"]), FLOOR_HOST),
    # floor half (opKey 2: minDtypeBits 16, bufferDivisor 64), dim0 1000: coreNum = CeilDiv(16000, 32768) = 1;
    # blockFormer = CeilAlign(1000, 512) = 1024; 1 block of 1000; elemNum 31744
    elementwise("floor half", OPS_MATH, "math/floor/op_kernel/floor_apt.cpp", "floor", np.float16, 1000, 1, 1024,
                31744, 200000000000100, {"x": (-300, 300)}, "y", lambda a: np.floor(a["x"]), FLOOR_HOST),
    # fused_mul_add_n float, y = x1 * x3[0] + x2 (x3 one element, read with GetValue) (opKey 1: minDtypeBits
    # 32, bufferDivisor 192), dim0 5000: coreNum 5, blockFormer 1024, 5 blocks, the last 904; elemNum 10560.
    # Two roundings in float.
    elementwise("fused_mul_add_n float", OPS_MATH, "math/fused_mul_add_n/op_kernel/fused_mul_add_n_apt.cpp",
                "fused_mul_add_n", np.float32, 5000, 5, 1024, 10560, 100000000000100,
                {"inputX1": (-4, 4), "inputX2": (-4, 4), "inputX3": (-2, 2, 1)}, "outputY",
                lambda a: a["inputX1"] * a["inputX3"][0] + a["inputX2"], FUSED_MUL_ADD_N_HOST,
                rtol=2 * 2.0 ** -24, atol=2.0 ** -22),
]


# --- inplace_apply_centered_rms_prop (ops-nn optim/inplace_apply_centered_rms_prop) -----------------
# mg' = rho mg + (1 - rho) grad; ms' = rho ms + (1 - rho) grad^2; mom' = momentum mom + lr grad /
# sqrt(ms' - mg'^2 + epsilon); var' = var - mom' (four outputs; on the device each aliases its input, here
# each is its own buffer). op_host/arch35/inplace_apply_centered_rms_prop_tiling_arch35.cpp, for float:
# coreNum = min(CeilDiv(dim0 * 32, 32768), 64); blockFormer = CeilAlign(CeilDiv(dim0, coreNum), 512); blockNum
# = CeilDiv(dim0, blockFormer) (the block count, and the coreNum field); bufferDivisor = 18 * 4 = 72 (nine
# double-buffered queues); ubFormer = FloorAlign(UB_SIZE / 72 = 3527, 64) = 3520; the loop fields from
# blockFormer and blockTail = dim0 - (blockNum - 1) * blockFormer. The scalars lr, rho, momentum, epsilon are
# in the tiling with scalarsValid 1 when the host could read them, else scalarsValid 0 and the kernel reads
# them from GM (GlobalTensor::GetValue). The kernel computes in float; the half path uses the tensor-level
# Cast (not implemented), so float only.
RMS_PROP_SCALARS = {"lr": 0.01, "rho": 0.9, "momentum": 0.5, "epsilon": 1e-6}


def centered_rms_prop_math(a):
    lr, rho, momentum, epsilon = (float(np.float32(RMS_PROP_SCALARS[k])) for k in ("lr", "rho", "momentum", "epsilon"))
    mg = rho * a["mg"] + (1 - rho) * a["grad"]
    ms = rho * a["ms"] + (1 - rho) * a["grad"] ** 2
    mom = momentum * a["mom"] + lr * a["grad"] / np.sqrt(ms - mg ** 2 + epsilon)
    return {"var_out": a["var"] - mom, "mg_out": mg, "ms_out": ms, "mom_out": mom}


def centered_rms_prop(count, tiling, blocks, from_gm=False, slow=False):
    scalars = {k: 0.0 for k in RMS_PROP_SCALARS} if from_gm else RMS_PROP_SCALARS
    # ms' - mg'^2 stays above 0.4 on these ranges: the quotient is well conditioned; each output is a
    # few float roundings of values near 1 (var' may cancel: the absolute tolerance)
    inputs = {"var": (-1, 1), "mg": (-0.1, 0.1), "ms": (0.5, 1), "mom": (-1, 1), "grad": (-1, 1)}
    if from_gm:
        inputs.update({k: (v, v, 1) for k, v in RMS_PROP_SCALARS.items()})
    extra = {**WORKSPACE, **({} if from_gm else {k: "f32[1]" for k in RMS_PROP_SCALARS})}
    return PublicOp(f"inplace_apply_centered_rms_prop float {count}{' gm scalars' if from_gm else ''}", OPS_NN,
                    "optim/inplace_apply_centered_rms_prop/op_kernel/inplace_apply_centered_rms_prop.cpp",
                    "inplace_apply_centered_rms_prop", np.dtype(np.float32), count,
                    {"dim0": count, "coreNum": blocks, **tiling, "ubFormer": 3520, **scalars,
                     "scalarsValid": 0 if from_gm else 1}, blocks, inputs,
                    ("var_out", "mg_out", "ms_out", "mom_out"), centered_rms_prop_math, rtol=1e-5, atol=1e-6,
                    defines=("DTYPE_VAR=float",), extra=extra, slow=slow)


CENTERED_RMS_PROP = [
    # dim0 5000: coreNum = CeilDiv(160000, 32768) = 5; blockFormer = CeilAlign(1000, 512) = 1024; blockNum =
    # CeilDiv(5000, 1024) = 5, blockTail = 5000 - 4 * 1024 = 904; one UB loop in every block
    centered_rms_prop(5000, {"blockFormer": 1024, "blockNum": 5, "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1024,
                             "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 904}, 5),
    # dim0 300000: coreNum = min(CeilDiv(9600000, 32768) = 293, 64) = 64; blockFormer = CeilAlign(CeilDiv(300000,
    # 64) = 4688, 512) = 5120; blockNum = CeilDiv(300000, 5120) = 59, blockTail = 300000 - 58 * 5120 = 3040;
    # ubLoopOfFormerBlock = CeilDiv(5120, 3520) = 2, ubTailOfFormerBlock = 5120 - 3520 = 1600; the last
    # block one loop of 3040
    centered_rms_prop(300000, {"blockFormer": 5120, "blockNum": 59, "ubLoopOfFormerBlock": 2,
                               "ubTailOfFormerBlock": 1600, "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 3040}, 59,
                      slow=True),
    # dim0 1000, the scalars not readable on the host (scalarsValid 0, the tiling's scalars 0): coreNum =
    # CeilDiv(32000, 32768) = 1; blockFormer = CeilAlign(1000, 512) = 1024; one block of 1000
    centered_rms_prop(1000, {"blockFormer": 1024, "blockNum": 1, "ubLoopOfFormerBlock": 1, "ubTailOfFormerBlock": 1024,
                             "ubLoopOfTailBlock": 1, "ubTailOfTailBlock": 1000}, 1, from_gm=True),
]


# --- fused_mul_apply_momentum_extern (ops-nn optim/fused_mul_apply_momentum_extern) -----------------
# grad = x1 * x2; accum' = accum * momentum + grad; the step d = accum' * lr, or with Nesterov (the entry's
# template argument USE_NESTEROV 1) grad * lr + accum' * momentum * lr; var' = var - d (var is float
# whatever the others are); var_copy' = var_copy - d with d rounded to var_copy's half first (the kernel casts
# it), rounded to half; accum' out in accum's type. lr, momentum and x2 are one element each, read from GM
# through a UB block (DataCopyPad, then a MTE2_S flag with TPipe::FetchEventID's id). The build's types here
# are the source's defaults: DTYPE_ACCUM float, DTYPE_VAR_COPY half.
# op_host/arch35/fused_mul_apply_momentum_extern_tiling_arch35.cpp: usedCore = min(CeilDiv(dim0 * 32, 32768),
# 64); blockFormer = CeilAlign(CeilDiv(dim0, usedCore), 512); blockNum = CeilDiv(dim0, blockFormer) (the block
# count, and coreNum); ubFormer = FloorAlign((UB_SIZE - 1024) / (7 * 4) = 9033, 64) = 9024; the loop fields
# from blockFormer and blockTail = dim0 - (blockNum - 1) * blockFormer (the kernel works its loops out from
# dim0, blockFormer and ubFormer itself).
MOMENTUM_SCALARS = {"lr": 0.1, "momentum": 0.9, "x2": 0.5}


def momentum_extern_math(nesterov, copy):
    def math(a):
        lr, momentum, x2 = (a[k][0] for k in ("lr", "momentum", "x2"))
        grad = a["x1"] * x2
        accum = a["accum"] * momentum + grad
        step = grad * lr + accum * momentum * lr if nesterov else accum * lr
        return {"var_out": a["var"] - step, "accum_out": accum,
                "var_copy_out": a["var_copy"] - step.astype(copy).astype(np.float64)}
    return math


def momentum_extern(count, blocks, block_former, tail, nesterov=False, slow=False, accum=np.float32):
    loops = -(-block_former // 9024)
    halves = np.dtype(accum) != np.float32
    copy = BF16 if np.dtype(accum) == BF16 else np.dtype(np.float16)     # var_copy: bfloat16 with a bfloat16 accum
    half_ulp = ROUNDING[copy]
    # accum' computed in float, rounded once to accum's type when that is narrower
    accum_tolerance = {"accum_out": (half_ulp + 2.0 ** -20, 2.0 ** -25)} if halves else {}
    name = C_TYPES[np.dtype(accum)]
    return PublicOp(f"fused_mul_apply_momentum_extern {name} {count}{' nesterov' if nesterov else ''}", OPS_NN,
                    "optim/fused_mul_apply_momentum_extern/op_kernel/fused_mul_apply_momentum_extern_arch35.cpp",
                    f"fused_mul_apply_momentum_extern<{int(nesterov)}>", np.dtype(accum), count,
                    {"dim0": count, "coreNum": blocks, "blockFormer": block_former, "blockNum": blocks,
                     "ubFormer": 9024, "ubLoopOfFormerBlock": loops,
                     "ubTailOfFormerBlock": block_former - (loops - 1) * 9024,
                     "ubLoopOfTailBlock": -(-tail // 9024), "ubTailOfTailBlock": tail - (-(-tail // 9024) - 1) * 9024},
                    blocks, {"var": (-1, 1), "accum": (-1, 1), "x1": (-1, 1), "var_copy": (-1, 1),
                             **{k: (v, v, 1) for k, v in MOMENTUM_SCALARS.items()}},
                    ("var_out", "accum_out", "var_copy_out"), momentum_extern_math(nesterov, copy),
                    # a few float roundings of values below 2; var_copy' one half rounding of the result (2^-11
                    # relative) after d's (|accum'| <= 0.9 + 0.5 = 1.4, |d| <= 0.05 + 1.4 * 0.9 * 0.1 = 0.176:
                    # 2^-11 of 0.18 absolute)
                    rtol=1e-6, atol=1e-6,
                    tolerances={"var_copy_out": (half_ulp, 0.18 * half_ulp), **accum_tolerance},
                    dtypes={"var": np.float32, "var_out": np.float32, "var_copy": copy, "var_copy_out": copy},
                    defines=(f"DTYPE_ACCUM={name}", f"DTYPE_VAR_COPY={C_TYPES[copy]}") if halves else (),
                    extra=WORKSPACE, slow=slow)


MOMENTUM_EXTERN = [
    # dim0 5000: usedCore = CeilDiv(160000, 32768) = 5; blockFormer = CeilAlign(1000, 512) = 1024; 5 blocks, the
    # last 5000 - 4 * 1024 = 904; one UB loop each
    momentum_extern(5000, 5, 1024, 904),
    # Nesterov, dim0 3000: usedCore = CeilDiv(96000, 32768) = 3; blockFormer = CeilAlign(1000, 512) = 1024; 3
    # blocks, the last 3000 - 2048 = 952
    momentum_extern(3000, 3, 1024, 952, nesterov=True),
    # dim0 600000: usedCore = min(CeilDiv(19200000, 32768) = 586, 64) = 64; blockFormer = CeilAlign(9375, 512) =
    # 9728; blockNum = CeilDiv(600000, 9728) = 62, the last 600000 - 61 * 9728 = 6592; a block of 9728 runs
    # two UB loops (9024 and 704)
    momentum_extern(600000, 62, 9728, 6592, slow=True),
    # accum, x1 and the scalars half (DTYPE_ACCUM=half; the tiling is the same, the host sizes the buffers
    # for float whatever the types), dim0 3000 as above: 3 blocks, the last 952. The kernel widens the halves
    # to float (exactly), computes in float and rounds accum' to half once.
    momentum_extern(3000, 3, 1024, 952, accum=np.float16),
    # accum, x1, the scalars and var_copy bfloat16 (the host requires var_copy bfloat16 then), as above
    momentum_extern(3000, 3, 1024, 952, accum=BF16),
]


# --- in_infer_v2 (ops-nn norm/in_infer_v2): instance norm at inference from given statistics --------
# x is (N, C, inner...); plane p = n * C + c: y = (x - mean[p]) * gamma[p] / sqrt(variance[p] + epsilon) +
# beta[p], or without gamma and beta (x - mean[p]) / sqrt(variance[p] + epsilon); batch_mean and
# batch_variance are copies of mean and variance. op_host/arch35/in_infer_v2_tiling_arch35.cpp, CalcCoreSplit:
# units = N * C; unitCores = min(units, 64); innerCores = min(64 / unitCores, innerSize / 64) when unitCores
# < 64 and innerSize >= 64, else 1; innerPerCore = CeilDiv(innerSize, innerCores); formerCoreNum = units %
# unitCores, formerUnits = units / unitCores (+ 1 when that remainder is not 0), latterUnits = units /
# unitCores; for float perElemBytes = 16 and the reserve 8512 + 4 * 64 * 4 + 64 * 4 + 2048 = 11840, so
# ubTileSize = FloorAlign((UB_SIZE - 11840) / 16 = 15132, 64) = 15104; the block count unitCores * innerCores.
# The kernel computes gamma / sqrt(variance + epsilon) once per plane, then (x - mean) * that + beta: a few
# float roundings of values below 10.

def instance_norm(gamma_beta):
    def math(a):
        planes = a["mean"].size
        x = a["x"].reshape(planes, -1)
        scale = 1 / np.sqrt(a["variance"] + float(np.float32(1e-5)))
        if gamma_beta:
            y = (x - a["mean"][:, None]) * (a["gamma"] * scale)[:, None] + a["beta"][:, None]
        else:
            y = (x - a["mean"][:, None]) * scale[:, None]
        return {"y": y.reshape(-1), "batch_mean": a["mean"], "batch_variance": a["variance"]}
    return math


def in_infer_v2(n, c, inner, split, blocks, gamma_beta):
    units = n * c
    stats = {"mean": (-1, 1, units), "variance": (0.5, 2, units)}
    if gamma_beta:
        stats.update({"gamma": (0.5, 2, units), "beta": (-1, 1, units)})
    return PublicOp(f"in_infer_v2 float {n}x{c}x{inner}{' gamma beta' if gamma_beta else ''}", OPS_NN,
                    "norm/in_infer_v2/op_kernel/in_infer_v2_apt.cpp", "in_infer_v2", np.dtype(np.float32),
                    n * c * inner, {"numN": n, "numC": c, "innerSize": inner, "units": units, **split,
                                    "ubTileSize": 15104, "epsilon": 1e-5, "hasGammaBeta": int(gamma_beta),
                                    "hasBatchMean": 1, "hasBatchVar": 1},
                    blocks, {"x": (-2, 2), **stats}, ("y", "batch_mean", "batch_variance"), instance_norm(gamma_beta),
                    rtol=1e-6, atol=4e-6, tolerances={"batch_mean": (0, 0), "batch_variance": (0, 0)},
                    counts={"batch_mean": units, "batch_variance": units}, defines=("DTYPE_X=float",),
                    extra={**WORKSPACE, **({} if gamma_beta else {"gamma": "f32[8]", "beta": "f32[8]"})})


IN_INFER_V2 = [
    # (2, 3, 10, 10): units 6, unitCores 6; innerSize 100: innerCores = min(64 / 6 = 10, 100 / 64 = 1) = 1,
    # innerPerCore 100; units / unitCores = 1, no remainder: formerCoreNum 0, formerUnits = latterUnits = 1;
    # 6 blocks
    in_infer_v2(2, 3, 100, {"unitCores": 6, "formerCoreNum": 0, "formerUnits": 1, "latterUnits": 1,
                            "innerCores": 1, "innerPerCore": 100}, 6, gamma_beta=True),
    # (1, 2, 1000) without gamma and beta: units 2, unitCores 2; innerCores = min(64 / 2 = 32, 1000 / 64 = 15)
    # = 15, innerPerCore = CeilDiv(1000, 15) = 67 (the last of a plane's 15 blocks 1000 - 14 * 67 = 62, and
    # the GM offsets not 32-byte aligned); formerCoreNum 0, formerUnits = latterUnits = 1; 2 * 15 = 30 blocks
    in_infer_v2(1, 2, 1000, {"unitCores": 2, "formerCoreNum": 0, "formerUnits": 1, "latterUnits": 1,
                             "innerCores": 15, "innerPerCore": 67}, 30, gamma_beta=False),
    # (4, 40, 4, 4): units 160, unitCores 64; innerSize 16 < 64: innerCores 1, innerPerCore 16; 160 / 64 = 2
    # remainder 32: formerCoreNum 32 blocks of formerUnits 3 planes, the other 32 of latterUnits 2; 64 blocks
    in_infer_v2(4, 40, 16, {"unitCores": 64, "formerCoreNum": 32, "formerUnits": 3, "latterUnits": 2,
                            "innerCores": 1, "innerPerCore": 16}, 64, gamma_beta=True),
]


OPS = [*RELU6_D, *SMOOTH_L1_LOSS_GRAD, *INV, *SPENCE, *ELEMENTWISE, *CENTERED_RMS_PROP, *MOMENTUM_EXTERN,
       *IN_INFER_V2]
