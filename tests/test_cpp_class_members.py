"""Class templates as public kernels write them, each in a small kernel of our own: a trait the kernel
defines itself (`IsSame<Tp, Tp>` deriving from an alias of its own integral constant), members of a
base class that depends on the template's parameters read through `this->`. Expected values are
numpy computations written here."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from test_cpp_translate import tr  # noqa: E402

# The kernel's own traits: a primary template deriving from `falseType`, a partial specialisation
# from `trueType` (aliases of the kernel's integral constant), and one whose base's argument is an
# expression of the parameter. `this->` reads members of Base<T>, a dependent base: clang leaves those
# accesses unresolved in the template.
OWN_TRAITS = """
template <typename Tp, Tp v>
struct Constant {
    static constexpr Tp value = v;
};
using trueType = Constant<bool, true>;
using falseType = Constant<bool, false>;
template <typename, typename>
struct IsSame : public falseType {};
template <typename Tp>
struct IsSame<Tp, Tp> : public trueType {};
template <typename T>
struct IsTwoBytes : public Constant<bool, sizeof(T) == 2> {};

template <typename T>
class Base {
protected:
    static constexpr uint32_t LANES = 256 / sizeof(T);
    float factor_ = 1.0f;
    uint32_t count_ = 0;
};

template <typename T>
class Scale : public Base<T> {
public:
    __aicore__ inline void Compute(__ubuf__ T* out, __ubuf__ T* in, uint16_t repeat)
    {
        uint32_t count = this->count_;
        __VEC_SCOPE__ {
            Reg::RegTensor<T> v;
            for (uint16_t i = 0; i < repeat; i++) {
                Reg::MaskReg m = Reg::UpdateMask<T>(count);
                Reg::LoadAlign(v, in + i * this->LANES);
                if constexpr (IsSame<T, float>::value) {
                    Reg::Muls(v, v, this->factor_, m);
                } else if constexpr (IsTwoBytes<T>::value && !IsSame<T, bfloat16_t>::value) {
                    Reg::Adds(v, v, (T)1, m);
                }
                Reg::StoreAlign(out + i * this->LANES, v, m);
            }
        }
    }
};
"""


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16), ("int32_t", np.int32)])
def test_kernel_s_own_trait_and_members_of_a_dependent_base(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, OWN_TRAITS, f"Scale<{ctype}>::Compute#1")
    lanes = 256 // np.dtype(dtype).itemsize
    x = (np.arange(2 * lanes) % 16 - 5).astype(dtype)
    count = lanes + 7                                   # a tail in the second repeat
    result = cpp_run.run(t, engine, out=np.full(2 * lanes, 9, dtype), **{"in": x}, repeat=2, count=count,
                         factor_=2.5)     # a member the block reads is an input, named after the member
    expect = np.full(2 * lanes, 9, dtype)
    if ctype == "float":
        expect[:count] = x[:count] * np.float32(2.5)
    elif ctype == "half":
        expect[:count] = x[:count] + np.float16(1)
    else:
        expect[:count] = x[:count]                      # neither branch: copied
    assert result["out"].tobytes() == expect.tobytes()


# `auto` pointers declared around a block in a class template: clang leaves `(__ubuf__ T*)... + n` and
# what is computed from it undeduced; the block takes them as pointers of the cast's type
AUTO_POINTERS = """
struct RowTiling {
    uint32_t rowLen;
};
template <typename T>
class Rows {
public:
    __aicore__ inline void Compute(LocalTensor<T>& outLocal, uint32_t row)
    {
        auto rowAddr = (__ubuf__ T*)outLocal.GetPhyAddr() + row * tiling_->rowLen;
        auto dstAddr = rowAddr + 2 * this->LANES;
        __VEC_SCOPE__ {
            Reg::RegTensor<T> v;
            Reg::MaskReg m = Reg::CreateMask<T>();
            Reg::Duplicate(v, (T)7);
            Reg::StoreAlign(dstAddr, v, m);
        }
    }
    static constexpr uint32_t LANES = 256 / sizeof(T);
    const RowTiling* tiling_;
};
"""


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_auto_pointers_around_a_block_take_the_cast_s_type(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, AUTO_POINTERS, f"Rows<{ctype}>::Compute#1")
    assert [(p.name, p.kind, p.cpp_type) for p in t.params] == [("dstAddr", "pointer", f"__ubuf__ {ctype}*")]
    lanes = 256 // np.dtype(dtype).itemsize
    result = cpp_run.run(t, engine, dstAddr=np.zeros(lanes + 3, dtype))
    assert result["dstAddr"].tolist() == [7] * lanes + [0] * 3


# Conditions macros of another header write whole, on the class's parameters (`#define HAS_BIAS
# ((KEY % 10) == 2)`), also as the condition of an `if constexpr` another macro writes: libclang gives
# no tokens for operators written there, clang's own operator kinds say which they are
OPTION_MACROS = """
#define BIAS_CODE 0x4
#define HAS_BIAS ((OPT & BIAS_CODE) > 0)
#define DOUBLED (((KEY / 10) % 10) == 1)
#define WHEN(_cond, _stmt) \\
    if constexpr (_cond) {  \\
        _stmt;              \\
    }
"""
MACRO_CONDITIONS = """
#include "options.h"
template <typename T, int KEY, int OPT>
class Bias {
public:
    __aicore__ inline void Compute(__ubuf__ T* out, __ubuf__ T* in, uint32_t n)
    {
        __VEC_SCOPE__ {
            Reg::RegTensor<T> v;
            Reg::MaskReg m = Reg::UpdateMask<T>(n);
            Reg::LoadAlign(v, in);
            if constexpr (DOUBLED || KEY == 7) {
                Reg::Add(v, v, v, m);
            }
            WHEN(HAS_BIAS, Reg::Adds(v, v, (T)3, m));
            Reg::StoreAlign(out, v, m);
        }
    }
};
"""


@pytest.mark.parametrize("key, opt, scale, bias", [(10, 4, 2, 3), (20, 4, 1, 3), (7, 3, 2, 0), (111, 0, 2, 0)])
def test_conditions_macros_of_another_header_write(tmp_path, engine, key, opt, scale, bias):
    (tmp_path / "options.h").write_text(OPTION_MACROS)
    t = tr(tmp_path, MACRO_CONDITIONS, f"Bias<float, {key}, {opt}>::Compute#1")
    x = np.arange(64, dtype=np.float32) - 20
    result = cpp_run.run(t, engine, out=np.zeros(64, np.float32), **{"in": x}, n=60)
    expect = np.zeros(64, np.float32)
    expect[:60] = x[:60] * scale + bias
    assert result["out"].tolist() == expect.tolist()


# A Cast trait a function computes by an immediately invoked lambda before its block, the rounding
# chosen by `if constexpr` on the function's parameter (a cast kernel's pattern)
LOCAL_LAMBDA_TRAIT = """
template <int Mode>
__aicore__ inline void ToInt(__ubuf__ int32_t* out, __ubuf__ float* in, uint32_t n)
{
    static constexpr Reg::CastTrait trait = []() {
        if constexpr (Mode == 1) {
            return Reg::CastTrait{Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                  RoundMode::CAST_FLOOR};
        } else {
            return Reg::CastTrait{Reg::RegLayout::UNKNOWN, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                  RoundMode::CAST_CEIL};
        }
    }();
    __VEC_SCOPE__ {
        Reg::RegTensor<float> x;
        Reg::RegTensor<int32_t> y;
        Reg::MaskReg m = Reg::UpdateMask<float>(n);
        Reg::LoadAlign(x, in);
        Reg::Cast<int32_t, float, trait>(y, x, m);
        Reg::StoreAlign(out, y, m);
    }
}
"""


@pytest.mark.parametrize("mode, rounding", [(1, np.floor), (2, np.ceil)])
def test_cast_trait_from_a_lambda_in_the_function(tmp_path, engine, mode, rounding):
    t = tr(tmp_path, LOCAL_LAMBDA_TRAIT, f"ToInt<{mode}>#1")
    x = (np.arange(64, dtype=np.float32) - 32) * np.float32(0.75)
    result = cpp_run.run(t, engine, out=np.full(64, 99, np.int32), **{"in": x}, n=64)
    assert result["out"].tolist() == rounding(x).astype(np.int32).tolist()


# Calls a macro's body writes: libclang's range of the first callee runs on to where the macro is
# used, over the next call's template arguments; those are not the first call's
MACRO_BODY_CALLS = """
#define ABS_AND_SIGN(x, y, m, neg) \\
    Reg::Abs(y, x, m); \\
    Reg::Compare<float, CMPMODE::NE>(neg, y, x, m);

__simd_vf__ inline void AbsSign(__ubuf__ float* out, __ubuf__ float* sign, __ubuf__ float* in)
{
    Reg::RegTensor<float> x, y, one, zero, s;
    Reg::MaskReg m = Reg::CreateMask<float>();
    Reg::MaskReg neg;
    Reg::LoadAlign(x, in);
    ABS_AND_SIGN(x, y, m, neg);
    Reg::Duplicate(one, 1.0f);
    Reg::Duplicate(zero, 0.0f);
    Reg::Select(s, one, zero, neg);
    Reg::StoreAlign(out, y, m);
    Reg::StoreAlign(sign, s, m);
}
"""


def test_template_arguments_of_calls_in_a_macro_body(tmp_path, engine):
    t = tr(tmp_path, MACRO_BODY_CALLS, "AbsSign")
    x = np.arange(64, dtype=np.float32) - 30
    result = cpp_run.run(t, engine, out=np.zeros(64, np.float32), sign=np.zeros(64, np.float32), **{"in": x})
    assert result["out"].tolist() == np.abs(x).tolist()
    assert result["sign"].tolist() == (x < 0).astype(np.float32).tolist()


# `IsSameType<T, double>` with T a vector element type: false (ascasm has no double type, and no
# element type is one)
DOUBLE_TRAIT = """
template <typename T>
__simd_vf__ inline void Copy(__ubuf__ T* out, __ubuf__ T* in)
{
    constexpr bool isDouble = AscendC::IsSameType<T, double>::value;
    Reg::RegTensor<T> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::LoadAlign(v, in);
    if constexpr (isDouble || std::is_same<double, T>::value) {
        Reg::Adds(v, v, (T)1, m);
    }
    Reg::StoreAlign(out, v, m);
}
"""


def test_is_same_with_double_is_false(tmp_path, engine):
    t = tr(tmp_path, DOUBLE_TRAIT, "Copy<float>")
    x = np.arange(64, dtype=np.float32)
    result = cpp_run.run(t, engine, out=np.zeros(64, np.float32), **{"in": x})
    assert result["out"].tolist() == x.tolist()
