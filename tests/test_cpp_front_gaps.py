"""Gaps of the C++ front end closed: what clang drops or recovers from is an error,
traits fold on a class template's parameters, function-scope using-declarations, constexpr union and
struct members, forward-declared vector functions, file kinds, host-only headers. Expected values are
numpy computations written here or the C++ rules worked by hand."""
from __future__ import annotations


import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from ascasm.cpp.translate import CppError, translate  # noqa: E402
from test_cpp_translate import HEADER, source, tr  # noqa: E402,F401


def _error(tmp_path, text, entry=None, **kw) -> str:
    with pytest.raises(CppError) as info:
        tr(tmp_path, text, entry, **kw)
    return str(info.value)


# --- 1. what clang dropped or recovered from is a located error ----------------------------------

# each: (kernel, entry, the error's location, words it must say)
RECOVERED = {
    # a member read through a pointer whose pointee type the file never declares: clang drops the call
    "undeclared-pointee": ("""
        template <typename T>
        class Scaler {
        public:
            __aicore__ inline void Process(__ubuf__ T* out, __ubuf__ T* in, uint32_t count)
            {
                __VEC_SCOPE__ {
                    Reg::RegTensor<T> x, y;
                    Reg::MaskReg m = Reg::UpdateMask<T>(count);
                    Reg::LoadAlign(x, in);
                    Reg::Muls(y, x, tiling_->scale, m);
                    Reg::Exp(y, y, m);
                    Reg::StoreAlign(out, y, m);
                }
            }
            const ScalerTiling* tiling_;
        };
        """, "Scaler<float>::Process#1", "k.cpp:13:13:", ["dropped this statement", "'tiling_'",
                                                      "unknown type name 'ScalerTiling'"]),
    # the pointee declared but never defined: clang's own error at the member access
    "incomplete-pointee": ("""
        struct Tiling;
        __simd_vf__ inline void Scale(__ubuf__ float* out, const Tiling* p)
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            Reg::Duplicate(v, p->scale);
            Reg::StoreAlign(out, v, m);
        }
        """, None, "k.cpp:9:24:", ["incomplete type 'const Tiling'"]),
    # a call of a function clang could not declare (an unknown return type): the statement is dropped
    "unresolved-call": ("""
        UnknownScalar GetScale();
        __simd_vf__ inline void Fill(__ubuf__ float* out)
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            Reg::Duplicate(v, 1.0f);
            Reg::Duplicate(v, GetScale());
            Reg::StoreAlign(out, v, m);
        }
        """, None, "k.cpp:10:5:", ["dropped this statement", "'GetScale'", "unknown type name 'UnknownScalar'"]),
    # a constant whose initialiser clang could not resolve: the use compiles, with no value
    "broken-constant": ("""
        constexpr float kScale = undeclaredValue;
        __simd_vf__ inline void Fill(__ubuf__ float* out)
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            Reg::Duplicate(v, kScale);
            Reg::StoreAlign(out, v, m);
        }
        """, None, "k.cpp:9:23:", ["could not resolve the declaration of 'kScale'",
                                  "undeclared identifier 'undeclaredValue'"]),
    # a local of a struct clang found invalid (a field of an unknown type)
    "invalid-declaration": ("""
        struct Params { UnknownField a; float b; };
        __simd_vf__ inline void Fill(__ubuf__ float* out)
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            Params p{};
            Reg::Duplicate(v, p.b);
            Reg::StoreAlign(out, v, m);
        }
        """, None, "k.cpp:9:5:", ["'Params'", "unknown type name 'UnknownField'"]),
    # the same drop inside a helper the unit inlines
    "in-an-inlined-helper": ("""
        UnknownScalar GetScale();
        __simd_callee__ inline void Scale(Reg::RegTensor<float>& v, Reg::MaskReg& m)
        {
            Reg::Muls(v, v, GetScale(), m);
        }
        __simd_vf__ inline void Fill(__ubuf__ float* out)
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            Reg::Duplicate(v, 1.0f);
            Scale(v, m);
            Reg::StoreAlign(out, v, m);
        }
        """, "Fill", "k.cpp:7:5:", ["dropped this statement", "'GetScale'"]),
}


@pytest.mark.parametrize("case", sorted(RECOVERED))
def test_what_clang_dropped_or_recovered_from_is_a_located_error(tmp_path, case):
    text, entry, where, words = RECOVERED[case]
    message = _error(tmp_path, text, entry)
    first = message.splitlines()[0]
    assert where in first and "error:" in first, message
    for word in words:
        assert word in message, message
    assert message.splitlines()[2].strip().startswith("^")


def test_host_code_errors_and_empty_macros_do_not_count_as_dropped(tmp_path, engine):
    # an empty macro statement, a #pragma and an #if 0 region are no dropped statements, even with
    # clang errors elsewhere in the file (host code)
    t = tr(tmp_path, """
        #define TRACE_POINT(x)
        void HostSide() { undeclaredRuntimeCall(1); }
        __simd_vf__ inline void Fill(__ubuf__ float* out)
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::CreateMask<float>();
            TRACE_POINT(1);
        #if 0
            Reg::Duplicate(v, 9.0f);
        #endif
            Reg::Duplicate(v, 2.5f);
            Reg::StoreAlign(out, v, m);
        }
        """, "Fill")
    result = cpp_run.run(t, engine, out=np.zeros(64, np.float32))
    assert np.array_equal(result["out"], np.full(64, 2.5, np.float32))


# --- 2. traits fold on a class template's parameters inside its methods ----------------------------

CLASS_TRAITS = """
template <typename T>
class Shift {
public:
    using Acc = typename std::conditional<std::is_same<T, half>::value, float, T>::type;
    static constexpr bool kHalf = IsSameType<T, half>::value;
    __aicore__ inline void Process(__ubuf__ T* out, __ubuf__ T* in, uint32_t count)
    {
        __VEC_SCOPE__ {
            using V = Reg::RegTensor<T>;
            static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "float types only");
            V x;
            Reg::MaskReg m = Reg::UpdateMask<T>(count);
            Reg::LoadAlign(x, in);
            if constexpr (std::is_same<T, half>::value && kHalf && std::is_same_v<Acc, float>) {
                Reg::Adds(x, x, (T)1.0f, m);
            } else if constexpr (!IsSameType<T, half>::value) {
                Reg::Adds(x, x, (T)2.0f, m);
            }
            Reg::StoreAlign(out, x, m);
        }
    }
    __simd_vf__ inline void Run(__ubuf__ T* out, __ubuf__ T* in, uint32_t count)
    {
        Reg::RegTensor<T> x;
        Reg::MaskReg m = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(x, in);
        if constexpr (IsSameType<T, half>::value) {
            Reg::Adds(x, x, (T)1.0f, m);
        } else {
            Reg::Adds(x, x, (T)2.0f, m);
        }
        Reg::StoreAlign(out, x, m);
    }
};
template <typename T, int N> class Part;
template <typename T>
class Part<T, 2> {
public:
    __aicore__ inline void Process(__ubuf__ T* out, __ubuf__ T* in, uint32_t count)
    {
        __VEC_SCOPE__ {
            Reg::RegTensor<T> x;
            Reg::MaskReg m = Reg::UpdateMask<T>(count);
            Reg::LoadAlign(x, in);
            if constexpr (std::is_same<T, half>::value) {
                Reg::Adds(x, x, (T)1.0f, m);
            } else {
                Reg::Adds(x, x, (T)2.0f, m);
            }
            Reg::StoreAlign(out, x, m);
        }
    }
};
"""


@pytest.mark.parametrize("entry", ["Shift<{}>::Process#1", "Shift<{}>::Run", "Part<{}, 2>::Process#1"])
@pytest.mark.parametrize("ctype, dtype, delta", [("half", np.float16, 1), ("float", np.float32, 2)])
def test_traits_fold_on_a_class_template_parameter(tmp_path, engine, entry, ctype, dtype, delta):
    t = tr(tmp_path, CLASS_TRAITS, entry.format(ctype))
    lanes = 256 // np.dtype(dtype).itemsize
    x = (np.arange(lanes) / 8 - 3).astype(dtype)
    result = cpp_run.run(t, engine, out=np.zeros(lanes, dtype), **{"in": x}, count=lanes - 3)
    expect = np.zeros(lanes, dtype)
    expect[:lanes - 3] = x[:lanes - 3] + dtype(delta)      # exact: small multiples of 1/8
    assert result["out"].tobytes() == expect.tobytes()


def test_class_static_assert_fails_on_its_parameter_and_a_pattern_that_does_not_fit(tmp_path):
    message = _error(tmp_path, CLASS_TRAITS, "Shift<int32_t>::Process#1")
    assert "k.cpp:13:" in message.splitlines()[0] and "float types only" in message
    message = _error(tmp_path, CLASS_TRAITS, "Part<half, 3>::Process#1")
    assert "do not fit the partial specialisation Part<T, 2>" in message


OUT_OF_CLASS = """
template <typename T>
class Negate {
public:
    __aicore__ inline void Process(__ubuf__ float* out, __ubuf__ T* in, uint32_t count);
private:
    __aicore__ inline void LoadAsFloat(__ubuf__ T* src, Reg::RegTensor<float>& dst, Reg::MaskReg& m);
};
template <typename T>
__aicore__ inline void Negate<T>::Process(__ubuf__ float* out, __ubuf__ T* in, uint32_t count)
{
    __ubuf__ float* dst = out;          // the same name as the helper's register parameter
    __VEC_SCOPE__ {
        Reg::RegTensor<float> x;
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        LoadAsFloat(in, x, m);
        Reg::Muls(x, x, -1.0f, m);
        Reg::StoreAlign(dst, x, m);
    }
}
template <typename T>
__aicore__ inline void Negate<T>::LoadAsFloat(__ubuf__ T* src, Reg::RegTensor<float>& dst, Reg::MaskReg& m)
{
    if constexpr (IsSameType<T, float>::value) {
        Reg::LoadAlign(dst, src);
    } else {
        Reg::RegTensor<T> narrow;
        Reg::LoadAlign<T, Reg::LoadDist::DIST_UNPACK_B16>(narrow, src);
        Reg::Cast<float, T, Reg::castTrait>(dst, narrow, m);
    }
}
"""


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_a_method_defined_outside_its_class_binds_its_definition_s_parameters(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, OUT_OF_CLASS, f"Negate<{ctype}>::Process#1")
    x = (np.arange(64) / 4 - 5).astype(dtype)
    source_buffer = np.zeros(128, dtype)      # an unpacking load reads a whole register's bytes
    source_buffer[:64] = x
    assert [p.name for p in t.params] == ["count", "in", "dst"]       # the block's inputs
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), **{"in": source_buffer[:256 // x.itemsize]},
                         count=60)
    expect = np.zeros(64, np.float32)
    expect[:60] = -x[:60].astype(np.float32)
    assert result["dst"].tobytes() == expect.tobytes()


# --- 3. using-declarations in functions; constexpr union and struct members -----------------------

USING_AND_UNIONS = """
#include "kernel_operator.h"
struct Custom {
    union Bits { uint32_t i; float f; };
    static constexpr Bits fp32MinValue = {0xff7fffff};      // -FLT_MAX by its bits
};
struct Config { float scale; uint32_t unused; };
struct Defaults { static constexpr Config config = {0.25f, 7}; };
template <typename T>
__simd_vf__ inline void Clamp(__ubuf__ T* out, __ubuf__ T* in)
{
    using namespace AscendC;
    using AscendC::Reg::RegTensor;
    namespace R = AscendC::Reg;
    constexpr union { uint32_t i; float f; } offset = {0x3fc00000};   // 1.5
    RegTensor<T> v;
    R::MaskReg m = R::CreateMask<T>();
    R::LoadAlign(v, in);
    R::Maxs(v, v, Custom::fp32MinValue.f, m);
    R::Adds(v, v, offset.f, m);
    R::Muls(v, v, Defaults::config.scale, m);
    R::StoreAlign(out, v, m);
}
__simd_vf__ inline void HalfOne(__ubuf__ half* out)
{
    using namespace AscendC::Reg;
    constexpr union { uint16_t bits; half value; } one = {0x3c00};
    RegTensor<half> v;
    MaskReg m = CreateMask<half>();
    Duplicate(v, one.value);
    StoreAlign(out, v, m);
}
"""


def test_using_in_functions_and_constexpr_union_and_struct_members(tmp_path, engine):
    path = tmp_path / "k.cpp"
    path.write_text(USING_AND_UNIONS)
    t = translate(path, "Clamp<float>")
    x = np.array([-np.inf, -3.0, 0.0, 2.5] * 16, np.float32)
    result = cpp_run.run(t, engine, out=np.zeros(64, np.float32), **{"in": x})
    lowest = np.array([0xff7fffff], np.uint32).view(np.float32)[0]
    assert lowest == -np.finfo(np.float32).max
    expect = (np.maximum(x, lowest) + np.float32(1.5)) * np.float32(0.25)
    assert result["out"].tobytes() == expect.astype(np.float32).tobytes()
    t = translate(path, "HalfOne")
    result = cpp_run.run(t, engine, out=np.zeros(128, np.float16))
    assert result["out"].tobytes() == np.ones(128, np.float16).tobytes()


# a union written through a constructor: the member its initialiser list names holds the bytes (the
# vendor's softmax example writes FLT_MIN as `DataUnion(0x00800000u)` with `: i(val)`, then reads .f)
UNION_CONSTRUCTORS = """
#include "kernel_operator.h"
union DataUnion {
    constexpr DataUnion() : i(0x3f800000u) {}
    constexpr DataUnion(uint32_t val) : i(val) {}
    float f;
    uint32_t i;
};
constexpr DataUnion smallest(0x00800000u);
constexpr DataUnion one;
__simd_vf__ inline void Fill(__ubuf__ float* out)
{
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::Duplicate(v, smallest.f);
    AscendC::Reg::Adds(v, v, one.f, m);
    AscendC::Reg::StoreAlign(out, v, m);
    AscendC::Reg::Duplicate(v, smallest.f);
    AscendC::Reg::StoreAlign(out + 64, v, m);
}
"""


def test_union_constructor_writes_the_member_it_names(tmp_path, engine):
    path = tmp_path / "k.cpp"
    path.write_text(UNION_CONSTRUCTORS)
    result = cpp_run.run(translate(path, "Fill"), engine, out=np.zeros(128, np.float32))
    smallest = np.array([0x00800000], np.uint32).view(np.float32)[0]          # FLT_MIN, by its bits
    assert smallest == np.finfo(np.float32).tiny
    assert result["out"][:64].tolist() == [np.float32(smallest) + np.float32(1.0)] * 64
    assert result["out"][64:].view(np.uint32).tolist() == [0x00800000] * 64


# the Cast traits the vendor's library names in AscendC (layoutZMrgZ, LayoutZMrgZRndRSatNS, MrgZRnd*),
# passed by name as its examples do; MrgZRndF rounds up there, and MrgZRndC down
NAMED_CAST_TRAITS = """
#include "kernel_operator.h"
__simd_vf__ inline void Casts(__ubuf__ half* halves, __ubuf__ float* floats, __ubuf__ int32_t* up,
                              __ubuf__ int32_t* down, __ubuf__ half* back)
{
    AscendC::Reg::RegTensor<half> h;
    AscendC::Reg::RegTensor<float> f;
    AscendC::Reg::RegTensor<int32_t> i;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::LoadAlign<half, AscendC::Reg::LoadDist::DIST_UNPACK_B16>(h, halves);
    AscendC::Reg::Cast<float, half, AscendC::layoutZMrgZ>(f, h, m);
    AscendC::Reg::StoreAlign(floats, f, m);
    AscendC::Reg::Cast<int32_t, float, AscendC::MrgZRndF>(i, f, m);
    AscendC::Reg::StoreAlign(up, i, m);
    AscendC::Reg::Cast<int32_t, float, AscendC::MrgZRndC>(i, f, m);
    AscendC::Reg::StoreAlign(down, i, m);
    AscendC::Reg::Muls(f, f, 3.0f, m);
    AscendC::Reg::Cast<half, float, AscendC::LayoutZMrgZRndRSatNS>(h, f, m);
    AscendC::Reg::StoreAlign<half, AscendC::Reg::StoreDist::DIST_PACK_B32>(back, h, m);
}
"""


def test_named_cast_traits(tmp_path, engine):
    path = tmp_path / "k.cpp"
    path.write_text(NAMED_CAST_TRAITS)
    x = (np.arange(64, dtype=np.float32) / 4 - 8).astype(np.float16)          # quarters: ceil and floor differ
    result = cpp_run.run(translate(path, "Casts"), engine, halves=x, floats=np.zeros(64, np.float32),
                         up=np.zeros(64, np.int32), down=np.zeros(64, np.int32), back=np.zeros(64, np.float16))
    assert result["floats"].tolist() == x.astype(np.float32).tolist()
    assert result["up"].tolist() == np.ceil(x.astype(np.float64)).astype(np.int32).tolist()
    assert result["down"].tolist() == np.floor(x.astype(np.float64)).astype(np.int32).tolist()
    assert result["back"].tolist() == (x.astype(np.float32) * 3).astype(np.float16).tolist()


# AscendC::Conditional, the library's std::conditional, picks by its condition (it took the first type)
LIBRARY_CONDITIONAL = """
#include "kernel_operator.h"
template <typename S>
__simd_vf__ inline void Fill(__ubuf__ float* out, S s)
{
    using Calc = typename AscendC::Conditional<AscendC::IsSameType<S, int32_t>::value, int32_t, float>::type;
    Calc c = Calc(s) / Calc(2);
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::Duplicate(v, (float)c);
    AscendC::Reg::StoreAlign(out, v, m);
}
"""


@pytest.mark.parametrize("stype, value, expect", [("float", 3.0, 1.5), ("int32_t", 3, 1.0)])
def test_library_conditional_picks_by_its_condition(tmp_path, engine, stype, value, expect):
    path = tmp_path / "k.cpp"
    path.write_text(LIBRARY_CONDITIONAL)
    result = cpp_run.run(translate(path, f"Fill<{stype}>"), engine, out=np.zeros(64, np.float32), s=value)
    assert result["out"].tolist() == [expect] * 64          # float: 3 / 2; int32_t: 3 / 2 truncated


PARTIAL_SPECIALISATION = """
#include "kernel_operator.h"
template <typename T, bool Wide> struct Acc { using type = T; };
template <typename T> struct Acc<T, true> { using type = float; };
template <typename T>
__simd_vf__ inline void Fill(__ubuf__ float* out, T s)
{
    using A = typename Acc<T, sizeof(T) == 2>::type;
    A a = A(s) / A(2);
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::MaskReg m = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::Duplicate(v, (float)a);
    AscendC::Reg::StoreAlign(out, v, m);
}
"""


def test_member_type_of_a_partial_specialisation(tmp_path, engine):
    path = tmp_path / "k.cpp"
    path.write_text(PARTIAL_SPECIALISATION)
    result = cpp_run.run(translate(path, "Fill<int16_t>"), engine, out=np.zeros(64, np.float32), s=3)
    assert result["out"].tolist() == [1.5] * 64             # Acc<int16_t, true>: float, 3 / 2


# a comparison whose right operand a macro of another header writes (ascend_quant's `OffsetZero !=
# TPL_OFFSET_ZERO`): the operator is found, and the condition folds
MACRO_OPERAND = """
template <typename T, uint64_t OffsetZero>
class Quant {
public:
    __aicore__ inline void Compute(__ubuf__ T* out, uint32_t n)
    {
        float scale = 2.0f;
        __VEC_SCOPE__ {
            Reg::RegTensor<T> v;
            Reg::MaskReg m = Reg::UpdateMask<T>(n);
            Reg::LoadAlign(v, out);
            if constexpr (OffsetZero != TPL_OFFSET_ZERO) {
                Reg::Muls(v, v, scale, m);
            }
            Reg::StoreAlign(out, v, m);
        }
    }
};
"""


@pytest.mark.parametrize("offset_zero, factor", [(0, 2.0), (1, 1.0)])
def test_operator_with_a_macro_operand_from_another_header(tmp_path, engine, offset_zero, factor):
    (tmp_path / "tpl.h").write_text("#define TPL_OFFSET_ZERO 1\n")
    path = source(tmp_path, '#include "tpl.h"\n' + MACRO_OPERAND)
    x = np.arange(64, dtype=np.float32)
    t = translate(path, f"Quant<float, {offset_zero}>::Compute#1")
    result = cpp_run.run(t, engine, out=x.copy(), n=64, scale=2.0)
    assert result["out"].tolist() == (x * factor).tolist()


# a Cast trait made by an immediately invoked lambda in a static constexpr member (ascend_quant's
# CAST_TRAIT_FP32_TO_INT16, picking the rounding by a template parameter)
LAMBDA_TRAIT = """
template <int Mode>
struct Traits {
    static constexpr Reg::CastTrait TO_INT = []() {
        if constexpr (Mode == 1) {
            return Reg::CastTrait{Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                  RoundMode::CAST_FLOOR};
        } else {
            return Reg::CastTrait{Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                  RoundMode::CAST_CEIL};
        }
    }();
};
template <int Mode>
__simd_vf__ inline void ToInt(__ubuf__ int32_t* out, __ubuf__ float* in)
{
    Reg::RegTensor<float> x;
    Reg::RegTensor<int32_t> y;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::LoadAlign(x, in);
    Reg::Cast<int32_t, float, Traits<Mode>::TO_INT>(y, x, m);
    Reg::StoreAlign(out, y, m);
}
"""


def test_cast_trait_from_an_invoked_lambda(tmp_path, engine):
    x = np.arange(-32, 32, dtype=np.float32) + np.float32(0.5)
    t = tr(tmp_path, LAMBDA_TRAIT, "ToInt<1>")
    result = cpp_run.run(t, engine, out=np.zeros(64, np.int32), **{"in": x})
    assert result["out"].tolist() == np.floor(x).astype(np.int32).tolist()


# Gather from a base one element past each diagonal step (a depthwise kernel's `srcPtr + i * 17`): the
# base need only be element-aligned (docs/semantics.md), so every row is read from its own offset
DIAGONAL_GATHER = """
__simd_vf__ inline void Diagonal(__ubuf__ float* out, __ubuf__ float* src, __ubuf__ uint32_t* index, uint16_t rows)
{
    Reg::RegTensor<float> v;
    Reg::RegTensor<uint32_t> idx;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::LoadAlign(idx, index);
    for (uint16_t i = 0; i < rows; i++) {
        Reg::Gather(v, src + i * 17, idx, m);
        Reg::StoreAlign(out + i * 64, v, m);
    }
}
"""


def test_gather_from_an_element_aligned_base(tmp_path, engine):
    src = np.arange(2048, dtype=np.float32) * np.float32(0.5)
    index = (np.arange(64, dtype=np.uint32) * 3) % 512
    result = cpp_run.run(tr(tmp_path, DIAGONAL_GATHER, "Diagonal"), engine, out=np.zeros(4 * 64, np.float32),
                         src=src, index=index, rows=4)
    expect = np.concatenate([src[i * 17 + index] for i in range(4)])
    assert result["out"].tolist() == expect.tolist()


# --entry finds a unit in a header the file includes (the op's .cpp including its kernel header, which
# relies on the .cpp's kernel_operator.h); the error lists where each unit lives
OP_HEADER = """
template <typename T>
class Doubler {
public:
    __aicore__ inline void Run(__ubuf__ T* out, uint32_t n)
    {
        __VEC_SCOPE__ {
            AscendC::Reg::RegTensor<T> v;
            AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<T>(n);
            AscendC::Reg::LoadAlign(v, out);
            AscendC::Reg::Add(v, v, v, m);
            AscendC::Reg::StoreAlign(out, v, m);
        }
    }
};
"""
OP_SOURCE = """
#include "kernel_operator.h"
#include "doubler.h"
__simd_vf__ inline void Own(__ubuf__ float* out) {}
"""


def test_entry_found_in_an_included_header(tmp_path, engine):
    (tmp_path / "doubler.h").write_text(OP_HEADER)
    path = tmp_path / "op.cpp"
    path.write_text(OP_SOURCE)
    t = translate(path, "Doubler<float>::Run#1")
    x = np.arange(64, dtype=np.float32)
    result = cpp_run.run(t, engine, out=x.copy(), n=10)
    assert result["out"].tolist() == (x * np.r_[np.full(10, 2), np.ones(54)]).tolist()
    with pytest.raises(CppError) as info:
        translate(path, "Missing")
    assert "Own (line 4)" in str(info.value) and "Doubler::Run#1 (doubler.h:7, an included header)" in str(info.value)


# --- 4. forward-declared vector functions ----------------------------------------------------------

FORWARD = """
template <typename T>
__simd_vf__ inline void Later(__ubuf__ T* out);
template <typename T>
__simd_vf__ inline void Never(__ubuf__ T* out);
__aicore__ inline void Host(__ubuf__ float* out)
{
    Later<float>(out);
}
template <typename T>
class Filler {
public:
    __simd_vf__ inline static void Fill(__ubuf__ T* out);
};
template <typename T>
inline void Later(__ubuf__ T* out)
{
    Reg::RegTensor<T> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::Duplicate(v, (T)3.0f);
    Reg::StoreAlign(out, v, m);
}
template <typename T>
__simd_vf__ inline void Filler<T>::Fill(__ubuf__ T* out)
{
    Reg::RegTensor<T> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::Duplicate(v, (T)-2.0f);
    Reg::StoreAlign(out, v, m);
}
"""


def test_forward_declared_vector_functions_list_only_their_definitions(tmp_path, engine):
    from ascasm.cpp.translate import list_units
    path = source(tmp_path, FORWARD)
    # the lines of the definitions (their `template` lines), not of the declarations or Host
    assert list_units(path) == [("Later", 17), ("Filler::Fill", 25)]
    result = cpp_run.run(translate(path, "Later<float>"), engine, out=np.zeros(64, np.float32))
    assert np.array_equal(result["out"], np.full(64, 3.0, np.float32))
    result = cpp_run.run(translate(path, "Filler<half>::Fill"), engine, out=np.zeros(128, np.float16))
    assert np.array_equal(result["out"], np.full(128, -2.0, np.float16))
    with pytest.raises(CppError) as info:
        translate(path, "Never<float>")
    assert "'Never<float>' is declared at line 7" in str(info.value) and "never defined" in str(info.value)
    with pytest.raises(CppError) as info:
        translate(path)
    assert "Host" not in str(info.value)


# --- 5. kernel files by suffix, by content, or as --lang says ---------------------------------------

FILL_KERNEL = HEADER + """
__simd_vf__ inline void Fill(__ubuf__ float* out, float value)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::Duplicate(v, value);
    Reg::StoreAlign(out, v, m);
}
"""


def _cli(monkeypatch, cwd, *argv) -> int:
    from ascasm import cli
    monkeypatch.chdir(cwd)
    return cli.main([str(a) for a in argv])


@pytest.mark.parametrize("name, lang", [("fill.asc", None), ("fill.h", None), ("fill.hpp", None),
                                        ("fill.kernel", None), ("fill", None), ("fill.s", "cpp")])
def test_kernel_files_by_suffix_content_or_lang(tmp_path, monkeypatch, engine, name, lang):
    (tmp_path / name).write_text(FILL_KERNEL)
    options = ["--lang", lang] if lang else []
    assert _cli(monkeypatch, tmp_path, "run", name, *options, "--arg", "out=f32[64]", "--arg", "value=1.25",
                "--engine", engine, "--dump", "out=out.npy") == 0
    assert np.array_equal(np.load(tmp_path / "out.npy"), np.full(64, 1.25, np.float32))


def test_assembly_by_content_and_lang_asm(tmp_path, monkeypatch, capsys):
    # assembly whose comment names a kernel qualifier stays assembly; --lang asm reads a .cpp as assembly
    program = "; from a __simd_vf__ function\n.ub out u32[64]\n.out out\nmov s0, 7\nhalt\n"
    (tmp_path / "prog.txt").write_text(program)
    assert _cli(monkeypatch, tmp_path, "run", "prog.txt") == 0
    (tmp_path / "prog.cpp").write_text(program)
    assert _cli(monkeypatch, tmp_path, "run", "prog.cpp", "--lang", "asm") == 0
    capsys.readouterr()
    (tmp_path / "fill.asc").write_text(FILL_KERNEL)
    assert _cli(monkeypatch, tmp_path, "run", "fill.asc", "--lang", "asm") == 1     # C++ is no assembly
    assert "fill.asc:1:" in capsys.readouterr().err


# --- 6. host-only headers resolve to the package's empty stand-ins ----------------------------------

HOST_FILE = """
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>
#include <iostream>
#include <vector>
#include "acl/acl.h"
#include "securec.h"
#include "kernel_operator.h"
using namespace AscendC;
__simd_vf__ inline void Fill(__ubuf__ float* out, float value)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::Duplicate(v, value);
    Reg::StoreAlign(out, v, m);
}
int main()
{
    std::vector<float> host(64);          // host code: errors against the empty stand-ins, outside the unit
    aclInit(nullptr);
    int fd = open("x.bin", O_RDONLY);
    return fd;
}
"""


def test_host_only_headers_are_empty_stand_ins_for_run(tmp_path, monkeypatch, engine):
    (tmp_path / "main.cpp").write_text(HOST_FILE)
    assert _cli(monkeypatch, tmp_path, "run", "main.cpp", "--arg", "out=f32[64]", "--arg", "value=-0.5",
                "--engine", engine, "--dump", "out=out.npy") == 0
    assert np.array_equal(np.load(tmp_path / "out.npy"), np.full(64, -0.5, np.float32))


def test_a_kernel_s_own_header_wins_over_a_stand_in(tmp_path, engine):
    # the stand-ins are searched last: a securec.h beside the kernel is the one included
    (tmp_path / "securec.h").write_text("#pragma once\nconstexpr float kOwnValue = 4.5f;\n")
    path = tmp_path / "k.cpp"
    path.write_text('#include "securec.h"\n' + FILL_KERNEL.replace("Reg::Duplicate(v, value);",
                                                                   "Reg::Duplicate(v, value + kOwnValue);"))
    result = cpp_run.run(translate(path, "Fill"), engine, out=np.zeros(64, np.float32), value=1.0)
    assert np.array_equal(result["out"], np.full(64, 5.5, np.float32))
