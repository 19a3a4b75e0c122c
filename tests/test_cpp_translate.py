"""The C++ front end's translator (ascasm/cpp/translate.py): small vector functions written with the
Reg API are translated, assembled and run on both executors, and compared with numpy computations
written independently here; each kind of bad input gives its located error."""
from __future__ import annotations

import textwrap

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from ascasm.cpp.translate import CppError, translate  # noqa: E402

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def source(tmp_path, text: str, name="k.cpp"):
    path = tmp_path / name
    path.write_text(HEADER + textwrap.dedent(text))
    return path


def tr(tmp_path, text, entry=None, **kw):
    return translate(source(tmp_path, text), entry, **kw)


SCALE_ADD = """
template <typename T>
__simd_vf__ inline void ScaleAddVF(__ubuf__ T* dst, __ubuf__ T* src, T scale, uint32_t count, uint16_t repeat)
{
    Reg::RegTensor<T> x, y;
    Reg::MaskReg mask;
    constexpr uint32_t perRepeat = GetVecLen() / sizeof(T);
    for (uint16_t i = 0; i < repeat; ++i) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(x, src + i * perRepeat);
        Reg::Muls(y, x, scale, mask);
        Reg::Add(y, y, x, mask);
        Reg::StoreAlign(dst + i * perRepeat, y, mask);
    }
}
"""


@pytest.mark.parametrize("ctype, dtype", [("float", np.float32), ("half", np.float16)])
def test_scale_add_runs_bit_exact(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, SCALE_ADD, f"ScaleAddVF<{ctype}>")
    lanes = 256 // np.dtype(dtype).itemsize
    count = 3 * lanes - 5
    x = (np.arange(3 * lanes) % 97 / 4 - 12).astype(dtype)
    result = cpp_run.run(t, engine, dst=np.full(3 * lanes, 7, dtype), src=x, scale=0.75, count=count, repeat=3)
    # independent model: y = x*0.75 (rounded to T) + x (rounded to T) on the first `count` lanes; the
    # stores leave inactive lanes of the UB untouched
    expect = np.full(3 * lanes, 7, dtype)
    expect[:count] = (x[:count] * dtype(0.75)).astype(dtype) + x[:count]
    assert result["dst"].tobytes() == expect.tobytes()


def test_counted_loop_with_known_count_becomes_a_hardware_loop(tmp_path):
    t = tr(tmp_path, SCALE_ADD, "ScaleAddVF<float>")
    texts = [line.text.split()[0] for line in t.lines]
    assert "vloop" in texts and "endloop" in texts
    assert not any(word.startswith("b") and word != "bge" for word in texts)


def test_params_in_declaration_order_with_types(tmp_path):
    t = tr(tmp_path, SCALE_ADD, "ScaleAddVF<half>")
    assert [(p.name, p.kind, p.etype) for p in t.params] == [
        ("dst", "pointer", "f16"), ("src", "pointer", "f16"), ("scale", "scalar", "f16"),
        ("count", "scalar", "u32"), ("repeat", "scalar", "u16")]
    assert len({p.sreg for p in t.params}) == 5
    assert t.lines[-1].text == "halt"
    assert all(line.loc is None or line.loc[0].endswith("k.cpp") for line in t.lines)


def test_scalar_types_wrap_at_their_width(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void Wrap(__ubuf__ uint16_t* out16, __ubuf__ int32_t* out32, uint32_t a, uint32_t b)
    {
        Reg::RegTensor<uint16_t> u;
        Reg::RegTensor<int32_t> s;
        Reg::MaskReg m16 = Reg::CreateMask<uint16_t>();
        Reg::MaskReg m32 = Reg::CreateMask<int32_t>();
        uint16_t product = a * b;            // wraps at 16 bits
        int16_t narrow = a * b;              // wraps and is negative
        uint16_t counter = 65534;
        counter += 3;                        // 65537 -> 1
        Reg::Duplicate(u, product);
        Reg::StoreAlign(out16, u, m16);
        Reg::Duplicate(s, narrow + counter);
        Reg::StoreAlign(out32, s, m32);
    }
    """)
    a, b = 300, 250                      # 75000 = 0x124F8
    result = cpp_run.run(t, engine, out16=np.zeros(128, np.uint16), out32=np.zeros(64, np.int32), a=a, b=b)
    assert (result["out16"] == (a * b) % 65536).all()
    narrow = ((a * b) % 65536) - 65536 if (a * b) % 65536 >= 32768 else (a * b) % 65536
    assert (result["out32"] == narrow + 1).all()


def test_if_constexpr_runtime_if_and_helpers(tmp_path, engine):
    t = tr(tmp_path, """
    template <typename T>
    __simd_callee__ inline void Clamp(Reg::RegTensor<T>& r, T lo, T hi, Reg::MaskReg& m)
    {
        Reg::Maxs(r, r, lo, m);
        Reg::Mins(r, r, hi, m);
    }
    template <typename T, int MODE>
    __simd_vf__ inline void Kernel(__ubuf__ T* dst, __ubuf__ T* src, int32_t flag)
    {
        Reg::RegTensor<T> r;
        Reg::MaskReg m = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
        Reg::LoadAlign(r, src);
        if constexpr (MODE == 1 && sizeof(T) == 4) {
            Clamp(r, (T)-1.0f, (T)2.0f, m);
        } else {
            Reg::Abs(r, r, m);
        }
        if (flag > 3) {
            Reg::Adds(r, r, (T)10, m);
        }
        Reg::StoreAlign(dst, r, m);
    }
    """, "Kernel<float, 1>")
    x = np.linspace(-4, 4, 64).astype(np.float32)
    for flag, extra in ((5, 10), (3, 0)):
        result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=x, flag=flag)
        assert np.array_equal(result["dst"], np.clip(x, -1, 2) + np.float32(extra))


def test_break_and_while_loops(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void Fill(__ubuf__ int32_t* dst, uint32_t n)
    {
        Reg::RegTensor<int32_t> v;
        Reg::MaskReg m = Reg::CreateMask<int32_t>();
        int32_t total = 0;
        uint32_t i = 0;
        while (true) {
            if (i >= n) { break; }
            total += i;
            ++i;
        }
        Reg::Duplicate(v, total);
        Reg::StoreAlign(dst, v, m);
    }
    """)
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.int32), n=10)
    assert (result["dst"] == sum(range(10))).all()


def test_cast_with_trait_and_pack_store(tmp_path, engine):
    t = tr(tmp_path, """
    constexpr Reg::CastTrait widen = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                      RoundMode::UNKNOWN};
    constexpr Reg::CastTrait narrow = {Reg::RegLayout::ZERO, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING,
                                       RoundMode::CAST_RINT};
    __simd_vf__ inline void Bf16Scale(__ubuf__ bfloat16_t* dst, __ubuf__ bfloat16_t* src, float scale, uint32_t count)
    {
        Reg::RegTensor<bfloat16_t> in, out;
        Reg::RegTensor<float> wide;
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        Reg::LoadAlign<bfloat16_t, Reg::LoadDist::DIST_UNPACK_B16>(in, src);
        Reg::Cast<float, bfloat16_t, widen>(wide, in, m);
        Reg::Muls(wide, wide, scale, m);
        Reg::Cast<bfloat16_t, float, narrow>(out, wide, m);
        Reg::StoreAlign<bfloat16_t, Reg::StoreDist::DIST_PACK_B32>(dst, out, m);
    }
    """)
    x = (np.arange(64) * 1.37 - 40).astype(ml_dtypes.bfloat16)
    result = cpp_run.run(t, engine, dst=np.zeros(64, ml_dtypes.bfloat16), src=x, scale=0.3, count=64)
    # model: bf16 -> f32 exactly, times f32(0.3) rounded to f32, then to bf16 to nearest-even
    expect = (x.astype(np.float32) * np.float32(0.3)).astype(ml_dtypes.bfloat16)
    assert result["dst"].tobytes() == expect.tobytes()


def test_reduce_compare_select(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void Stats(__ubuf__ float* sum, __ubuf__ float* sel, __ubuf__ float* a, __ubuf__ float* b)
    {
        Reg::RegTensor<float> x, y, r, s;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg gt;
        Reg::LoadAlign(x, a);
        Reg::LoadAlign(y, b);
        Reg::Reduce<Reg::ReduceType::SUM>(r, x, all);
        Reg::StoreAlign<float, Reg::StoreDist::DIST_FIRST_ELEMENT_B32>(sum, r, all);
        Reg::Compare<float, Reg::CMPMODE::GT>(gt, x, y, all);
        Reg::Select(s, x, y, gt);
        Reg::StoreAlign(sel, s, all);
    }
    """)
    a = (np.arange(64) % 9 - 4).astype(np.float32)
    b = (np.arange(64) % 5 - 2).astype(np.float32)
    result = cpp_run.run(t, engine, sum=np.zeros(8, np.float32), sel=np.zeros(64, np.float32), a=a, b=b)
    assert result["sum"][0] == a.sum()              # small integers: exact in any order
    assert np.array_equal(result["sel"], np.maximum(a, b))


VEC_SCOPE_CLASS = """
template <typename T>
class Scaler {
public:
    __aicore__ inline void Process(uint32_t count)
    {
        __ubuf__ T* in = inAddr_;
        __ubuf__ T* out = outAddr_;
        constexpr uint32_t lanes = GetVecLen() / sizeof(T);
        uint16_t repeat = (count + lanes - 1) / lanes;
        __VEC_SCOPE__
        {
            Reg::RegTensor<T> v;
            Reg::MaskReg m;
            for (uint16_t i = 0; i < repeat; ++i) {
                m = Reg::UpdateMask<T>(count);
                Reg::LoadAlign(v, in + i * lanes);
                Reg::Muls(v, v, factor_, m);
                Reg::StoreAlign(out + i * lanes, v, m);
            }
        }
    }
    __ubuf__ T* inAddr_;
    __ubuf__ T* outAddr_;
    T factor_;
};
"""


def test_vec_scope_block_captures_locals_and_members(tmp_path, engine):
    t = tr(tmp_path, VEC_SCOPE_CLASS, "Scaler<float>::Process#1")
    assert [(p.name, p.kind) for p in t.params] == [("repeat", "scalar"), ("count", "scalar"), ("in", "pointer"),
                                                    ("factor_", "scalar"), ("out", "pointer")]
    x = np.arange(128, dtype=np.float32)
    result = cpp_run.run(t, engine, repeat=2, count=100, out=np.zeros(128, np.float32), factor_=2.0, **{"in": x})
    expect = np.zeros(128, np.float32)
    expect[:100] = x[:100] * 2
    assert np.array_equal(result["out"], expect)


def test_entry_by_line_and_the_only_unit(tmp_path):
    path = source(tmp_path, VEC_SCOPE_CLASS)
    by_line = translate(path, "@20", template_args={"T": "float"})
    only = translate(path, None, template_args={"T": "half"})
    assert [line.text for line in only.lines] != [] and by_line.entry.endswith("#1")


def _error(tmp_path, text, entry=None) -> str:
    with pytest.raises(CppError) as info:
        tr(tmp_path, text, entry)
    return str(info.value)


def test_cpp_syntax_error_is_located(tmp_path):
    message = _error(tmp_path, """
    __simd_vf__ inline void Broken(__ubuf__ float* dst)
    {
        Reg::RegTensor<float> v
        Reg::Duplicate(v, 1.0f);
    }
    """)
    first = message.splitlines()[0]
    assert "k.cpp:6:" in first and "error:" in first and "expected ';'" in first
    assert message.splitlines()[2].strip().startswith("^")


def test_api_without_a_row_names_it_and_its_page(tmp_path):
    message = _error(tmp_path, """
    __simd_vf__ inline void Fused(__ubuf__ float* dst)
    {
        Reg::RegTensor<float> a, b, c;
        Reg::MaskReg m = Reg::CreateMask<float>();
        Reg::MulAddDst(a, b, c, m);
    }
    """)
    first = message.splitlines()[0]
    assert "k.cpp:8:5: error:" in first and "MulAddDst" in first and "no ascasm instruction" in first
    assert "page" in message


def test_host_side_call_is_rejected(tmp_path):
    message = _error(tmp_path, """
    __simd_vf__ inline void Sync(__ubuf__ float* dst)
    {
        AscendC::PipeBarrier<PIPE_V>();
    }
    """)
    assert "k.cpp:6:5: error:" in message and "host-side" in message


def test_too_many_live_vector_registers(tmp_path):
    names = [f"r{i}" for i in range(33)]
    decls = "\n        ".join(f"Reg::RegTensor<float> {n}; Reg::LoadAlign({n}, src + {64 * i});"
                               for i, n in enumerate(names))
    adds = "\n        ".join(f"Reg::Add(r0, r0, {n}, m);" for n in names[1:])
    message = _error(tmp_path, f"""
    __simd_vf__ inline void Wide(__ubuf__ float* dst, __ubuf__ float* src)
    {{
        Reg::MaskReg m = Reg::CreateMask<float>();
        {decls}
        {adds}
        Reg::StoreAlign(dst, r0, m);
    }}
    """)
    first = message.splitlines()[0]
    assert "error: too many live vector" in first and "r32" in first and "32 v registers" in first


def test_missing_template_argument_and_unknown_entry(tmp_path):
    message = _error(tmp_path, SCALE_ADD, "ScaleAddVF")
    assert "template" in message and "ScaleAddVF<T>" in message
    message = _error(tmp_path, SCALE_ADD, "Nope")
    assert "no vector function 'Nope'" in message and "ScaleAddVF (line" in message
