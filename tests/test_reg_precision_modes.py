"""The Reg layer's precision options and 64-bit arithmetic through the C++ front end: each value of
Div's DivAlgo and Sqrt's SqrtAlgo selects the row the page's Subnormal rule asks for, the pages'
Subnormal examples come out of the translated kernels on both executors, and Div, MulAddDst, Axpy and
Arange on int64_t lanes run as whole kernels. Expected values are the pages' (typed in) or computed here
with Python integers."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from ascasm.cpp.translate import CppError, translate  # noqa: E402

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def translated(tmp_path, text: str, entry: str):
    path = tmp_path / "k.cpp"
    path.write_text(HEADER + textwrap.dedent(text))
    return translate(path, entry)


def mode_kernel(function: str, struct: str, flag: str, algo: str) -> str:
    """A kernel applying Div (x / x) or Sqrt (of x) with a *SpecificMode {ZEROING, flag, algo} to 64 floats."""
    call = "Reg::Div<float, &mode>(y, x, z, mask)" if function == "Div" else "Reg::Sqrt<float, &mode>(y, x, mask)"
    return f"""
    __simd_vf__ inline void ModeVF(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ float* den)
    {{
        static constexpr Reg::{struct} mode = {{Reg::MaskMergeMode::ZEROING, {flag}, {algo}}};
        Reg::RegTensor<float> x, y, z;
        Reg::MaskReg mask = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
        Reg::LoadAlign(x, src);
        Reg::LoadAlign(z, den);
        {call};
        Reg::StoreAlign(dst, y, mask);
    }}
    """


# The pages: only the algorithms that keep subnormals (Div: PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE;
# Sqrt: FAST_INVERSE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE) give the .nftz row; every other
# algorithm flushes them (the default row), whatever precisionMode says
ALGOS = [("Div", "DivSpecificMode", "DivAlgo::INTRINSIC", "vdiv"),
         ("Div", "DivSpecificMode", "DivAlgo::DIFF_COMPENSATION", "vdiv"),
         ("Div", "DivSpecificMode", "DivAlgo::PRECISION_1ULP_FTZ_TRUE", "vdiv"),
         ("Div", "DivSpecificMode", "DivAlgo::PRECISION_0ULP_FTZ_TRUE", "vdiv"),
         ("Div", "DivSpecificMode", "DivAlgo::PRECISION_0ULP_FTZ_FALSE", "vdiv.nftz"),
         ("Div", "DivSpecificMode", "DivAlgo::PRECISION_1ULP_FTZ_FALSE", "vdiv.nftz"),
         ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::INTRINSIC", "vsqrt"),
         ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::FAST_INVERSE", "vsqrt.nftz"),
         ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::PRECISION_1ULP_FTZ_TRUE", "vsqrt"),
         ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::PRECISION_0ULP_FTZ_FALSE", "vsqrt.nftz"),
         ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::PRECISION_1ULP_FTZ_FALSE", "vsqrt.nftz")]


@pytest.mark.parametrize("flag", ["true", "false"])
@pytest.mark.parametrize("function, struct, algo, row", ALGOS)
def test_each_algo_selects_the_row_of_its_subnormal_rule(tmp_path, function, struct, algo, row, flag):
    t = translated(tmp_path, mode_kernel(function, struct, flag, algo), "ModeVF")
    computed = [line.text.split()[0] for line in t.lines if line.text.split()[0].startswith(("vdiv", "vsqrt"))]
    assert computed == [row]


def bits(values):
    return np.array(values, np.uint32).view(np.float32)


# Sqrt page table 3: 1.0965174496326337e-38 (0x00776672, subnormal) -> 0x1FF7402B under FAST_INVERSE and
# PRECISION_0ULP_FTZ_FALSE, 0x1FF7402C under PRECISION_1ULP_FTZ_FALSE (1 ulp above: ascasm's row is correctly
# rounded, within the page's 1 ulp); a flushing algorithm reads the input as +0 -> +0
SQRT_TABLE_3 = [("SqrtAlgo::FAST_INVERSE", 0x1FF7402B, 0), ("SqrtAlgo::PRECISION_0ULP_FTZ_FALSE", 0x1FF7402B, 0),
                ("SqrtAlgo::PRECISION_1ULP_FTZ_FALSE", 0x1FF7402C, 1), ("SqrtAlgo::INTRINSIC", 0, 0),
                ("SqrtAlgo::PRECISION_1ULP_FTZ_TRUE", 0, 0)]


@pytest.mark.parametrize("algo, page_bits, ulps", SQRT_TABLE_3)
def test_sqrt_subnormal_example_of_the_page(tmp_path, engine, algo, page_bits, ulps):
    t = translated(tmp_path, mode_kernel("Sqrt", "SqrtSpecificMode", "false", algo), "ModeVF")
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=bits([0x00776672] * 64),
                         den=np.ones(64, np.float32))
    got = result["dst"].view(np.uint32)
    assert (np.abs(got.astype(np.int64) - page_bits) <= ulps).all()
    assert (got == (0x1FF7402B if page_bits else 0)).all()


# Div page table 8 under DIFF_COMPENSATION, which flushes subnormals as INTRINSIC does (the page's column
# "without the Subnormal mode"): 1 / -5.019e-39 -> -inf, 1.861e-39 / 7.704e-39 -> NaN (0x7FFFFFFF)
def test_div_diff_compensation_flushes_as_the_page_table_8_shows(tmp_path, engine):
    t = translated(tmp_path, mode_kernel("Div", "DivSpecificMode", "true", "DivAlgo::DIFF_COMPENSATION"), "ModeVF")
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=bits([0x3F800000, 0x0014440B] * 32),
                         den=bits([0x8036A794, 0x0053E3CF] * 32))
    assert result["dst"].view(np.uint32).tolist() == [0xFF800000, 0x7FFFFFFF] * 32


INT64_KERNEL = """
__simd_vf__ inline void Int64VF(__ubuf__ int64_t* quot, __ubuf__ int64_t* acc, __ubuf__ int64_t* idx,
                                __ubuf__ int64_t* src0, __ubuf__ int64_t* src1, int64_t start)
{
    Reg::RegTensor<int64_t> a, b, q, d, r;
    Reg::MaskReg mask = Reg::CreateMask<int64_t, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(a, src0);
    Reg::LoadAlign(b, src1);
    Reg::Div(q, a, b, mask);
    Reg::StoreAlign(quot, q, mask);
    Reg::LoadAlign(d, acc);
    Reg::MulAddDst(d, a, b, mask);
    Reg::Axpy(d, b, start, mask);
    Reg::StoreAlign(acc, d, mask);
    Reg::Arange<int64_t, Reg::IndexOrder::DECREASE_ORDER>(r, start);
    Reg::StoreAlign(idx, r, mask);
}
"""


def test_int64_div_mul_add_dst_axpy_and_arange_kernel(tmp_path, engine):
    minimum = -(1 << 63)
    a = np.array([minimum, 100, -100, 5, minimum, 1 << 40, -(1 << 62), 3] * 4, np.int64)
    b = np.array([-1, 7, 7, 0, 3, -(1 << 20), 1 << 31, -4] * 4, np.int64)
    acc = np.arange(32, dtype=np.int64) * 1000 - 7
    t = translated(tmp_path, INT64_KERNEL, "Int64VF")
    result = cpp_run.run(t, engine, quot=np.zeros(32, np.int64), acc=acc.copy(), idx=np.zeros(32, np.int64),
                         src0=a, src1=b, start=minimum + 10)

    def wrap(v):
        return (v + (1 << 63)) % (1 << 64) - (1 << 63)

    def toward_zero(x, y):
        if y == 0:
            return -1                                        # vdiv's x / 0: all ones
        q = abs(x) // abs(y)
        return wrap(q if (x < 0) == (y < 0) else -q)         # min / -1 wraps to min
    assert result["quot"].tolist() == [toward_zero(int(x), int(y)) for x, y in zip(a, b)]
    start = minimum + 10                                     # MulAddDst, then Axpy: start * b + dst
    assert result["acc"].tolist() == [wrap(start * int(y) + int(x) * int(y) + int(z)) for x, y, z in zip(a, b, acc)]
    # DECREASE_ORDER: scalarValue is the last lane's value, lane i = start + (31 - i)
    assert result["idx"].tolist() == [minimum + 10 + 31 - i for i in range(32)]


def half_kernel(function: str, struct: str, algo: str) -> str:
    call = "Reg::Div<half, &mode>(y, x, x, mask)" if function == "Div" else "Reg::Sqrt<half, &mode>(y, x, mask)"
    return f"""
    __simd_vf__ inline void HalfVF(__ubuf__ half* dst, __ubuf__ half* src)
    {{
        static constexpr Reg::{struct} mode = {{Reg::MaskMergeMode::ZEROING, false, {algo}}};
        Reg::RegTensor<half> x, y;
        Reg::MaskReg mask = Reg::CreateMask<half, Reg::MaskPattern::ALL>();
        Reg::LoadAlign(x, src);
        {call};
        Reg::StoreAlign(dst, y, mask);
    }}
    """


# the pages give these algorithms float alone: a half call is a located error naming T
@pytest.mark.parametrize("function, struct, algo", [
    ("Div", "DivSpecificMode", "DivAlgo::DIFF_COMPENSATION"), ("Div", "DivSpecificMode", "DivAlgo::PRECISION_0ULP_FTZ_TRUE"),
    ("Div", "DivSpecificMode", "DivAlgo::PRECISION_0ULP_FTZ_FALSE"), ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::FAST_INVERSE"),
    ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::PRECISION_0ULP_FTZ_FALSE")])
def test_float_only_algorithms_reject_half(tmp_path, function, struct, algo):
    with pytest.raises(CppError) as failure:
        translated(tmp_path, half_kernel(function, struct, algo), "HalfVF")
    message = str(failure.value)
    assert "k.cpp:10:5: error:" in message and f"Reg::{function} with these template options" in message
    assert "T=half (the nearest form needs float)" in message


@pytest.mark.parametrize("function, struct, algo, row", [
    ("Div", "DivSpecificMode", "DivAlgo::PRECISION_1ULP_FTZ_FALSE", "vdiv.nftz"),
    ("Div", "DivSpecificMode", "DivAlgo::PRECISION_1ULP_FTZ_TRUE", "vdiv"),
    ("Sqrt", "SqrtSpecificMode", "SqrtAlgo::PRECISION_1ULP_FTZ_FALSE", "vsqrt.nftz")])
def test_half_algorithms_translate(tmp_path, function, struct, algo, row):
    t = translated(tmp_path, half_kernel(function, struct, algo), "HalfVF")
    assert f"{row} v1.f16, v0.f16" in "\n".join(line.text for line in t.lines)
