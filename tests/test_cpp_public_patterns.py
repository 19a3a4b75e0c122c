"""Patterns public kernels use that the front end once refused, each in a small kernel of our own:
the old name DataCopy called unqualified in a template, ... Expected values are numpy computations
written here or the C++ rules worked by hand."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from ascasm.cpp.translate import list_units, translate  # noqa: E402
from test_cpp_translate import source, tr  # noqa: E402


# --- DataCopy unqualified in a template -------------------------------------------------------
# Its arguments depend on T, so clang resolves no overload: the front end takes the Reg form when a
# register or a UB pointer is among the first two arguments (the host forms take tensors only), the
# load when a register (vector or mask) comes first.
UNQUALIFIED_DATACOPY = """
    using AscendC::MicroAPI::RegTensor;
    using AscendC::MicroAPI::MaskReg;
    using AscendC::MicroAPI::AddrReg;

    template <typename T>
    __aicore__ inline void Positive(__ubuf__ T* dst, __ubuf__ T* src, __ubuf__ uint32_t* bits,
                                    uint32_t count, uint16_t repeat)
    {
        constexpr uint32_t lanes = 256 / sizeof(T);
        __VEC_SCOPE__ {
            RegTensor<T> x, one, zero, y;
            MaskReg m, gt, back;
            AscendC::MicroAPI::Duplicate(one, (T)1);
            AscendC::MicroAPI::Duplicate(zero, (T)0);
            for (uint16_t i = 0; i < repeat; ++i) {
                m = AscendC::MicroAPI::UpdateMask<T>(count);
                AddrReg at = AscendC::MicroAPI::CreateAddrReg<T>(i, lanes);
                DataCopy(x, src, at);                  // LoadAlign with an AddrReg
                AscendC::MicroAPI::CompareScalar<T, CMPMODE::GT>(gt, x, (T)0, m);
                DataCopy(bits, gt);                    // a mask store ...
                DataCopy(back, bits);                  // ... and its load
                AscendC::MicroAPI::Select(y, one, zero, back);
                DataCopy(dst, y, at, m);               // StoreAlign with an AddrReg
            }
        }
    }
    """


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_unqualified_datacopy_in_a_template_is_the_reg_form(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, UNQUALIFIED_DATACOPY, f"Positive<{ctype}>#1")
    lanes = 256 // np.dtype(dtype).itemsize
    count = 2 * lanes + 5                           # a tail: the third repeat has 5 lanes
    x = (np.arange(3 * lanes) % 7 - 3).astype(dtype)
    dst = np.full(3 * lanes, 9, dtype)
    result = cpp_run.run(t, engine, dst=dst, src=x, bits=np.zeros(64, np.uint32), count=count, repeat=3)
    expected = dst.copy()
    expected[:count] = (x[:count] > 0).astype(dtype)  # lanes past count keep their 9
    assert np.array_equal(result["dst"], expected)


# --- helpers taking an untyped UB address --------------------------------------------------------
# `const __ubuf__ void*` carries a UB address; the helper casts it to the type it moves.
UNTYPED_ADDRESS = """
    using namespace AscendC::MicroAPI;

    template <typename T>
    __aicore__ inline void LoadAsFloat(const __ubuf__ void* input, RegTensor<float>& dst, MaskReg& m,
                                       uint32_t offset)
    {
        if constexpr (IsSameType<T, half>::value) {
            RegTensor<half> h;
            LoadAlign<half, LoadDist::DIST_UNPACK_B16>(h, (__ubuf__ half*)(input) + offset);
            Cast<float, half>(dst, h, m);
        } else {
            LoadAlign(dst, (__ubuf__ float*)input + offset);
        }
    }

    __aicore__ inline void StoreFloat(__ubuf__ void* output, RegTensor<float>& src, MaskReg& m, uint32_t offset)
    {
        StoreAlign((__ubuf__ float*)output + offset, src, m);
    }

    template <typename T>
    __aicore__ inline void Twice(__ubuf__ float* dst, __ubuf__ T* src, uint32_t count, uint32_t at)
    {
        __VEC_SCOPE__ {
            RegTensor<float> x;
            MaskReg m = UpdateMask<float>(count);
            LoadAsFloat<T>(src, x, m, at);
            Add(x, x, x, m);
            StoreFloat(dst, x, m, 64);
        }
    }
    """


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_helpers_take_an_untyped_ub_address(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, UNTYPED_ADDRESS, f"Twice<{ctype}>#1")
    src = (np.arange(256) * 0.25 - 20).astype(dtype)
    at = 256 // np.dtype(dtype).itemsize // 2       # half a vector of T: a 128-byte offset
    result = cpp_run.run(t, engine, dst=np.zeros(128, np.float32), src=src, count=60, at=at)
    expected = np.zeros(128, np.float32)
    expected[64:124] = 2 * src[at:at + 60].astype(np.float32)
    assert np.array_equal(result["dst"], expected)


# --- Mula, MulAddDst's older name ------------------------------------------------------------------
MULA = """
    using namespace AscendC::MicroAPI;

    template <typename T>
    __simd_vf__ inline void Accumulate(__ubuf__ T* acc, __ubuf__ T* a, __ubuf__ T* b, uint32_t count)
    {
        RegTensor<T> d, x, y;
        MaskReg m = UpdateMask<T>(count);
        LoadAlign(d, acc);
        LoadAlign(x, a);
        LoadAlign(y, b);
        Mula(d, x, y, m);                  // d = d + x * y on the active lanes, 0 on the others
        AscendC::MicroAPI::Mula(d, x, y, m);
        StoreAlign(acc, d, CreateMask<T>());
    }
    """


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("int32_t", np.int32), ("half", np.float16)])
def test_mula_is_muladddst(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, MULA, f"Accumulate<{ctype}>")
    lanes = 256 // np.dtype(dtype).itemsize
    d = (np.arange(lanes) % 11 - 5).astype(dtype)
    a = (np.arange(lanes) % 5 - 2).astype(dtype)
    b = (np.arange(lanes) % 3 + 1).astype(dtype)    # small integers: every sum and product exact
    result = cpp_run.run(t, engine, acc=d.copy(), a=a, b=b, count=lanes - 9)
    expected = d + 2 * a * b
    expected[lanes - 9:] = 0
    assert np.array_equal(result["acc"], expected)


# --- a block in a constructor ----------------------------------------------------------------------
# Element-wise custom ops do their work in a struct's constructor; the block is named on the class.
CONSTRUCTOR_BLOCK = """
    template <class T>
    struct Offset {
        __aicore__ inline Offset(LocalTensor<T>& dst, LocalTensor<T>& src, T delta, uint32_t count)
        {
            __ubuf__ T* from = (__ubuf__ T*)(src.GetPhyAddr());
            __ubuf__ T* to = (__ubuf__ T*)(dst.GetPhyAddr());
            __VEC_SCOPE__
            {
                Reg::RegTensor<T> v;
                Reg::MaskReg m = Reg::UpdateMask<T>(count);
                Reg::LoadAlign(v, from);
                Reg::Adds(v, v, delta, m);
                Reg::StoreAlign(to, v, m);
            }
        }
    };
    """


@pytest.mark.parametrize("entry, dtype", [("Offset<float>#1", np.float32), ("Offset<half>::Offset#1", np.float16)])
def test_a_block_in_a_constructor(tmp_path, engine, entry, dtype):
    path = source(tmp_path, CONSTRUCTOR_BLOCK)
    assert [name for name, _ in list_units(path)] == ["Offset::Offset#1"]
    t = translate(path, entry)
    lanes = 256 // np.dtype(dtype).itemsize
    x = (np.arange(lanes) - 40).astype(dtype)
    result = cpp_run.run(t, engine, to=np.zeros(lanes, dtype), **{"from": x}, delta=2.5, count=lanes - 1)
    expected = np.zeros(lanes, dtype)
    expected[:lanes - 1] = x[:lanes - 1] + dtype(2.5)
    assert np.array_equal(result["to"], expected)


# --- scalar reads and writes of the UB -------------------------------------------------------------
# A vector function reads and writes single UB elements through pointers (LocalMemBar's SCALAR_LOAD and
# SCALAR_STORE pipes): `p[i]` is `ld`, `p[i] = v` and `p[i] op= v` are `st` of the element's type.
SCALAR_UB = """
    __simd_vf__ inline void Scaled(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ int16_t* meta,
                                   __ubuf__ float* res, uint32_t count)
    {
        float scale = src[1];
        int16_t k = meta[count - 1];
        meta[0] = k * 2;
        meta[1] += k;                       // wraps at 16 bits
        res[0] = scale * 2.0f;
        res[1] = meta[2] * scale;           // meta[2] sign-extended, converted to float
        Reg::RegTensor<float> v;
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(v, src);
        Reg::Muls(v, v, scale, m);
        Reg::StoreAlign(dst, v, m);
    }
    """


def test_scalar_reads_and_writes_of_the_ub(tmp_path, engine):
    t = tr(tmp_path, SCALAR_UB, "Scaled")
    src = (np.arange(64) * 0.5).astype(np.float32)
    meta = np.zeros(16, np.int16)
    meta[1], meta[2], meta[9] = 32000, -6, 1000
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=src, meta=meta.copy(),
                         res=np.zeros(8, np.float32), count=10)
    scale = src[1]
    expected_meta = meta.copy()
    expected_meta[0] = 2000
    expected_meta[1] = np.int16(32000 + 1000 - 65536)
    assert np.array_equal(result["meta"], expected_meta)
    assert np.array_equal(result["res"][:2], np.array([2 * scale, -6 * scale], np.float32))
    expected = np.zeros(64, np.float32)
    expected[:10] = src[:10] * scale
    assert np.array_equal(result["dst"], expected)


def test_incrementing_a_ub_element_is_refused(tmp_path):
    from ascasm.cpp.translate import CppError
    with pytest.raises(CppError, match=r"'\+\+' on an element of the UB"):
        tr(tmp_path, """
            __simd_vf__ inline void Count(__ubuf__ int32_t* n) { n[0]++; }
            """, "Count")


# --- members of a struct declared around a block -----------------------------------------------------
# A block reads scalar members of a struct parameter or class member (tiling parameters): each member
# read is an input of the block, a scalar named `struct.member`.
CAPTURED_MEMBERS = """
    struct Shape { uint32_t rows; uint32_t cols; float bias; };

    template <typename T>
    class Biased {
    public:
        __aicore__ inline void Run(__ubuf__ T* dst, __ubuf__ T* src, const Shape& shape)
        {
            __VEC_SCOPE__ {
                Reg::RegTensor<T> v;
                uint32_t n = shape.rows * shape.cols;
                Reg::MaskReg m = Reg::UpdateMask<T>(n);
                Reg::LoadAlign(v, src);
                Reg::Adds(v, v, (T)shape.bias, m);
                Reg::Adds(v, v, (T)extra_.bias, m);
                Reg::StoreAlign(dst, v, m);
            }
        }
        Shape extra_;
    };
    """


def test_a_block_reads_members_of_a_struct_around_it(tmp_path, engine):
    t = tr(tmp_path, CAPTURED_MEMBERS, "Biased<float>::Run#1")
    assert [p.name for p in t.params] == ["shape.rows", "shape.cols", "src", "shape.bias", "extra_.bias", "dst"]
    x = np.arange(64, dtype=np.float32)
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=x,
                         **{"shape.rows": 3, "shape.cols": 7, "shape.bias": 0.5, "extra_.bias": -2.0})
    expected = np.zeros(64, np.float32)
    expected[:21] = x[:21] + np.float32(0.5) - np.float32(2.0)
    assert np.array_equal(result["dst"], expected)


# --- integer literals a macro writes ---------------------------------------------------------------
MACRO_LITERALS = """
    #define SCALE_BY(v, k) Reg::Muls(v, v, (float)k, m)
    #define FOUR 4
    __simd_vf__ inline void Lit(__ubuf__ float* dst, uint32_t count)
    {
        Reg::RegTensor<float> v;
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        Reg::Duplicate(v, 1.0f);
        uint32_t n = FOUR;
        Reg::Adds(v, v, (float)n, m);
        SCALE_BY(v, 3);
        Reg::StoreAlign(dst, v, m);
    }
    """


def test_integer_literals_a_macro_writes(tmp_path, engine):
    result = cpp_run.run(tr(tmp_path, MACRO_LITERALS, "Lit"), engine, dst=np.zeros(64, np.float32), count=10)
    expected = np.zeros(64, np.float32)
    expected[:10] = (1 + 4) * 3
    assert np.array_equal(result["dst"], expected)


# --- names the stubs once lacked ---------------------------------------------------------------------
# float32_t / float16_t (the device compiler's names for float and half), AscendC::DivCeil (unsigned
# 32-bit, rounding up), and GetUintDivMagicAndShift called on the scalar side of the function around
# the block (its results are the block's inputs like any other local).
STUB_NAMES = """
    using namespace AscendC::MicroAPI;

    template <typename T>
    __aicore__ inline void Halve(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count, uint32_t divisor)
    {
        uint32_t magic = 0, shift = 0;
        GetUintDivMagicAndShift(magic, shift, divisor);
        constexpr uint32_t lanes = 256 / sizeof(T);
        uint16_t repeat = DivCeil(count, lanes);
        using Wide = typename std::conditional<std::is_same<T, float32_t>::value, float32_t, float16_t>::type;
        static_assert(std::is_same<Wide, T>::value, "float32_t is float, float16_t is half");
        __VEC_SCOPE__ {
            RegTensor<T> x;
            MaskReg m;
            for (uint16_t i = 0; i < repeat; ++i) {
                m = UpdateMask<T>(count);
                LoadAlign(x, src + i * lanes);
                Muls(x, x, (Wide)0.5, m);
                StoreAlign(dst + i * lanes, x, m);
            }
        }
    }
    """


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_stub_names_float32_t_and_divceil(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, STUB_NAMES, f"Halve<{ctype}>#1")
    lanes = 256 // np.dtype(dtype).itemsize
    count = 2 * lanes + 3                           # 3 repeats, the last of 3 lanes
    assert [p.name for p in t.params] == ["repeat", "count", "src", "dst"]   # in the order the block uses them
    x = (np.arange(3 * lanes) % 13 - 6).astype(dtype)
    result = cpp_run.run(t, engine, dst=np.full(3 * lanes, 7, dtype), src=x, count=count, repeat=3)
    expected = np.full(3 * lanes, 7, dtype)
    expected[:count] = x[:count] / 2
    assert np.array_equal(result["dst"], expected)


TRAIT_COMBINATORS = """
    template <typename T>
    __simd_vf__ inline void ScaleByKind(__ubuf__ T* dst, __ubuf__ T* src)
    {
        Reg::RegTensor<T> x;
        Reg::MaskReg all = Reg::CreateMask<T>();
        Reg::LoadAlign(x, src);
        if constexpr (std::negation<std::is_same<T, half>>::value) {
            Reg::Muls(x, x, (T)2, all);                 // not half: doubled
        }
        if constexpr (std::conjunction_v<std::is_floating_point<T>, std::is_signed<T>>) {
            Reg::Adds(x, x, (T)1, all);                 // float and half: plus one
        }
        if constexpr (!std::disjunction<std::is_integral<T>, std::is_unsigned<T>>::value) {
            Reg::Muls(x, x, (T)3, all);                 // float and half: tripled
        }
        Reg::StoreAlign(dst, x, all);
    }
    """


@pytest.mark.parametrize("ctype, dtype, expected", [
    ("float", np.float32, lambda x: (x * 2 + 1) * 3), ("half", np.float16, lambda x: (x + 1) * 3),
    ("int32_t", np.int32, lambda x: x * 2)])
def test_std_negation_conjunction_disjunction_fold(tmp_path, engine, ctype, dtype, expected):
    t = tr(tmp_path, TRAIT_COMBINATORS, f"ScaleByKind<{ctype}>")
    lanes = 256 // np.dtype(dtype).itemsize
    x = (np.arange(lanes) % 9 - 4).astype(dtype)
    result = cpp_run.run(t, engine, dst=np.zeros(lanes, dtype), src=x)
    assert np.array_equal(result["dst"], expected(x).astype(dtype))


# --- one unaligned register type for both streams ---------------------------------------------------
# The vendor's UnalignRegForLoad and UnalignRegForStore are one type: kernels declare either and store
# through it. Each variable's first use decides its stream.
UNALIGN_NAMES = """
    using namespace AscendC::MicroAPI;

    template <typename T>
    __simd_vf__ inline void CopyShifted(__ubuf__ T* dst, __ubuf__ T* src, uint32_t count)
    {
        RegTensor<T> x;
        UnalignRegForLoad in;
        UnalignRegForLoad out;              // declared as the load's type, used to store
        __ubuf__ T* from = src + 3;
        __ubuf__ T* to = dst + 5;
        LoadUnAlignPre(in, from);
        LoadUnAlign(x, in, from);
        StoreUnAlign(to, x, out, count);
        StoreUnAlignPost(to, out, 0);
    }
    """


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_unalign_register_names_are_one_type(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, UNALIGN_NAMES, f"CopyShifted<{ctype}>")
    assert "vstus.pu" in t.text() and "vstas.pu" in t.text()
    lanes = 256 // np.dtype(dtype).itemsize
    src = (np.arange(2 * lanes) + 1).astype(dtype)
    dst = np.full(2 * lanes, -1, dtype)
    result = cpp_run.run(t, engine, dst=dst, src=src, count=lanes - 9)
    expected = dst.copy()
    expected[5:5 + lanes - 9] = src[3:3 + lanes - 9]     # the stream writes exactly the count it is given
    assert np.array_equal(result["dst"], expected)


# --- run-time float scalars: conversion to integers and comparisons ---------------------------------
# C converts a float to an integer by truncating toward zero; a float comparison with a NaN is false
# (but `!=`), so `!(x < 1)` is not `x >= 1`; a double constant compares as a double (0.1f < 0.1 is false).
FLOAT_SCALARS = """
    __simd_vf__ inline void FloatScalars(__ubuf__ int32_t* out, float x, half h, int32_t n)
    {
        int32_t k = (int32_t)x;
        int16_t s = x;
        bool nonzero = x;
        out[0] = k;
        out[1] = s;
        out[2] = nonzero;
        out[3] = x < 1.0f;
        out[4] = x <= 0.1;
        out[5] = x > 0.1;
        out[6] = x == 0.1;
        out[7] = x != 0.1;
        out[8] = h >= (half)2.0;
        out[9] = (float)n < x;
        out[10] = x == n;
        if (!(x < 1.0f)) { out[11] = 1; } else { out[11] = 0; }
        if (x) { out[12] = 1; } else { out[12] = 0; }
        float halfX = x * 0.5;                      // double arithmetic converted at once: float's value
        out[13] = halfX > 1.0;
    }
    """


def float_scalars_expected(x: np.float32, h: np.float16, n: int) -> list[int]:
    wide = float(x)                                # C compares a float with a double constant as doubles
    return [int(np.trunc(wide)), int(np.trunc(wide)), int(wide != 0), int(wide < 1.0), int(wide <= 0.1),
            int(wide > 0.1), int(wide == 0.1), int(wide != 0.1), int(float(h) >= 2.0),
            int(float(np.float32(n)) < wide), int(wide == float(np.float32(n))), int(not wide < 1.0),
            int(wide != 0), int(float(np.float32(wide * 0.5)) > 1.0)]


@pytest.mark.parametrize("x, h, n", [(2.75, 2.0, 3), (-2.75, 1.5, -3), (np.float32(0.1), 2.5, 0), (0.0, -0.0, 0),
                                     (-0.0, 7.0, 0), (float("nan"), float("nan"), 1), (3.0, 2.0, 3)])
def test_float_scalars_convert_and_compare_as_c(tmp_path, engine, x, h, n):
    t = tr(tmp_path, FLOAT_SCALARS, "FloatScalars")
    x, h = np.float32(x), np.float16(h)
    result = cpp_run.run(t, engine, out=np.full(16, -7, np.int32), x=x, h=h, n=n)
    expected = float_scalars_expected(x, h, n) if not np.isnan(x) else \
        [0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0]    # NaN: fcvt.trunc gives 0 (docs/semantics.md), true, false but !=
    assert result["out"][:14].tolist() == expected
    assert result["out"][14:].tolist() == [-7, -7]


def test_float_to_integer_saturates_where_c_is_undefined(tmp_path, engine):
    # C leaves a float outside the integer's range undefined; ascasm saturates (docs/semantics.md)
    t = tr(tmp_path, FLOAT_SCALARS, "FloatScalars")
    result = cpp_run.run(t, engine, out=np.zeros(16, np.int32), x=np.float32(1e10), h=np.float16(0), n=0)
    assert result["out"][:2].tolist() == [2**31 - 1, 2**15 - 1]


@pytest.mark.parametrize("statement, message", [
    ("out[0] = x * 0.1;", r"double constant 0.1: C computes it in double, ascasm only in float"),
    ("out[0] = x * 0.5 + 1.0;", r"'\*' of a float with a double: C computes it in double and uses the double"),
    ("out[0] = x * 3.0 > 8.5;", r"'\*' of a float with a double: C computes it in double and uses the double"),
    ("out[0] = n * 0.5;", r"C converts the int32_t to double exactly, ascasm to float"),
])
def test_double_arithmetic_that_float_cannot_give_is_refused(tmp_path, statement, message):
    # C computes these in double; computed in float the result can differ in the last bit
    from ascasm.cpp.clang import CppError
    with pytest.raises(CppError, match=message):
        tr(tmp_path, """
            __simd_vf__ inline void Scale(__ubuf__ float* out, float x, int32_t n)
            {
                %s
            }
            """ % statement, "Scale")


def test_double_arithmetic_converted_at_once_is_computed_in_float(tmp_path, engine):
    t = tr(tmp_path, """
        __simd_vf__ inline void Scale(__ubuf__ float* out, float x, int16_t n)
        {
            out[0] = x * 3.0;
            out[1] = (float)(x / 3.0);
            out[2] = (float)n * 0.25;
        }
        """, "Scale")
    x, n = np.float32(1.1), -1234
    result = cpp_run.run(t, engine, out=np.zeros(4, np.float32), x=x, n=n)
    expected = [np.float32(float(x) * 3.0), np.float32(float(x) / 3.0), np.float32(n * 0.25), 0]
    assert result["out"].tolist() == [float(v) for v in expected]


def test_a_float_scalar_with_integer_lanes_converts_as_c(tmp_path, engine):
    # Duplicate's scalar has the lane type: C converts the float argument by truncation
    t = tr(tmp_path, """
        __simd_vf__ inline void Fill(__ubuf__ int32_t* out, float x)
        {
            Reg::RegTensor<int32_t> r;
            Reg::MaskReg all = Reg::CreateMask<int32_t>();
            Reg::Duplicate(r, x, all);
            Reg::StoreAlign(out, r, all);
        }
        """, "Fill")
    result = cpp_run.run(t, engine, out=np.zeros(64, np.int32), x=np.float32(-7.9))
    assert result["out"].tolist() == [-7] * 64
