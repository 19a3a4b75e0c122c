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


def test_entry_by_the_vec_scope_line(tmp_path):
    # line 13 holds the __VEC_SCOPE__ word itself; its block opens on line 14
    path = source(tmp_path, VEC_SCOPE_CLASS)
    assert path.read_text().splitlines()[12].strip() == "__VEC_SCOPE__"
    assert translate(path, "@13", template_args={"T": "float"}).entry.endswith("#1")


BOOL_ARGUMENT = """
template <typename T, bool twice>
__simd_callee__ inline void Scale(Reg::RegTensor<T>& v, Reg::MaskReg& m)
{
    if constexpr (twice) {
        Reg::Muls(v, v, 2, m);
    } else {
        Reg::Adds(v, v, 1, m);
    }
}

template <typename T, bool negate>
__simd_vf__ inline void BoolVF(__ubuf__ T* dst, __ubuf__ T* src)
{
    Reg::RegTensor<T> v;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::LoadAlign(v, src);
    Scale<T, !negate>(v, m);
    Scale<T, true>(v, m);
    Reg::StoreAlign(dst, v, m);
}
"""


@pytest.mark.parametrize("entry, kw", [("BoolVF<float, true>", {}), ("BoolVF<float, 'false'>", None),
                                       ("BoolVF", {"template_args": {"T": "float", "negate": "false"}})])
def test_bool_template_arguments(tmp_path, engine, entry, kw):
    if kw is None:      # a quoted bool is a bad entry, with its located error
        with pytest.raises(CppError, match="cannot evaluate the template argument"):
            tr(tmp_path, BOOL_ARGUMENT, entry)
        return
    t = tr(tmp_path, BOOL_ARGUMENT, entry, **kw)
    x = np.arange(64, dtype=np.float32) - 20
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=x)
    negate = "true" in entry
    # !negate picks twice (x*2) or not (x+1); then the second call always doubles
    expect = ((x + 1) if negate else (x * 2)) * 2
    assert np.array_equal(result["dst"], expect)


MEMBER_TYPES = """
template <typename T> struct IndexOf;
template <> struct IndexOf<uint32_t> { using T = int32_t; };
template <> struct IndexOf<uint16_t> { typedef int16_t T; };

template <typename T>
struct Widen {
    using type = typename std::conditional<std::is_same<T, uint16_t>::value, float, T>::type;
};

template <typename U>
__simd_vf__ inline void TraitVF(__ubuf__ typename IndexOf<U>::T* idx, __ubuf__ typename Widen<U>::type* wide)
{
    using IndexType = typename IndexOf<U>::T;
    Reg::RegTensor<IndexType> i;
    Reg::RegTensor<typename Widen<U>::type> w;
    Reg::Duplicate(i, -5);
    Reg::Duplicate(w, 3);
    Reg::StoreAlign(idx, i, Reg::CreateMask<IndexType>());
    Reg::StoreAlign(wide, w, Reg::CreateMask<typename Widen<U>::type>());
}
"""


@pytest.mark.parametrize("u, index_dtype, wide_dtype", [("uint16_t", np.int16, np.float32),
                                                        ("uint32_t", np.int32, np.uint32)])
def test_member_types_of_trait_specialisations(tmp_path, engine, u, index_dtype, wide_dtype):
    # the explicit specialisation U picks gives the index type; the primary template Widen<U> binds
    # its T to U and folds its conditional
    t = tr(tmp_path, MEMBER_TYPES, f"TraitVF<{u}>")
    idx_lanes, wide_lanes = 256 // np.dtype(index_dtype).itemsize, 256 // np.dtype(wide_dtype).itemsize
    result = cpp_run.run(t, engine, idx=np.zeros(idx_lanes, index_dtype), wide=np.zeros(wide_lanes, wide_dtype))
    assert result["idx"].tobytes() == np.full(idx_lanes, -5, index_dtype).tobytes()
    assert result["wide"].tobytes() == np.full(wide_lanes, 3, wide_dtype).tobytes()


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


def test_register_declared_with_an_explicit_trait(tmp_path, engine):
    # the trait is a template argument of the type, not the variables' initialiser
    t = tr(tmp_path, """
    __simd_vf__ inline void Twice(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::MaskReg m = Reg::CreateMask<float, Reg::MaskPattern::ALL, Reg::RegTraitNumOne>();
        Reg::RegTensor<float, Reg::RegTraitNumOne> x, y;
        Reg::LoadAlign(x, src);
        Reg::Add(y, x, x, m);
        Reg::StoreAlign(dst, y, m);
    }
    """)
    x = np.linspace(-4, 4, 64).astype(np.float32)
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=x)
    assert np.array_equal(result["dst"], x * np.float32(2))


def test_clang_errors_outside_the_unit_do_not_stop_it(tmp_path):
    t = tr(tmp_path, """
    __simd_vf__ inline void Fill(__ubuf__ float* dst)
    {
        Reg::RegTensor<float> v;
        Reg::MaskReg m = Reg::CreateMask<float>();
        Reg::Duplicate(v, 2.0f);
        Reg::StoreAlign(dst, v, m);
    }
    void HostSide() { undeclaredRuntimeCall(1); }
    """)
    assert any(line.text.startswith("vdup") for line in t.lines)


def test_clang_error_in_an_inlined_helper_is_reported_there(tmp_path):
    message = _error(tmp_path, """
    __simd_callee__ inline void Helper(Reg::RegTensor<float>& v)
    {
        Reg::Duplicate(v, notDeclared);
    }
    __simd_vf__ inline void Fill(__ubuf__ float* dst)
    {
        Reg::RegTensor<float> v;
        Helper(v);
    }
    """)
    first = message.splitlines()[0]
    assert "k.cpp:6:23: error:" in first and "notDeclared" in first


def test_clang_error_in_the_function_around_a_block_is_reported(tmp_path):
    # the block reads the locals declared before it, so an error there stops it
    message = _error(tmp_path, """
    __aicore__ inline void Compute(__ubuf__ float* dst)
    {
        float scale = notDeclared;
        __VEC_SCOPE__ {
            Reg::RegTensor<float> v;
            Reg::Duplicate(v, 1.0f);
        }
    }
    """)
    assert "k.cpp:6:19: error:" in message.splitlines()[0]


def test_translation_error_notes_clang_errors_elsewhere(tmp_path):
    message = _error(tmp_path, """
    __simd_vf__ inline void Fused(__ubuf__ float* dst)
    {
        Reg::RegTensor<float> a, b, c;
        Reg::MaskReg m = Reg::CreateMask<float>();
        Reg::FusedMulDstAdd(a, b, c, m);
    }
    void HostSide() { undeclaredRuntimeCall(1); }
    """)
    assert "FusedMulDstAdd" in message.splitlines()[0]
    assert "note: clang reported 1 error(s) outside the translated code" in message
    assert "k.cpp:10:19: use of undeclared identifier 'undeclaredRuntimeCall'" in message


def test_api_without_a_row_names_it_and_its_page(tmp_path):
    message = _error(tmp_path, """
    __simd_vf__ inline void Fused(__ubuf__ float* dst)
    {
        Reg::RegTensor<float> a, b, c;
        Reg::MaskReg m = Reg::CreateMask<float>();
        Reg::FusedMulDstAdd(a, b, c, m);
    }
    """)
    first = message.splitlines()[0]
    assert "k.cpp:8:5: error:" in first and "FusedMulDstAdd" in first and "no ascasm instruction" in first
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


def test_type_traits_and_defaults_written_as_expressions(tmp_path, engine):
    text = """
    #include <type_traits>
    template <typename T, typename W = std::conditional_t<sizeof(T) == 2, float, T>>
    __simd_vf__ inline void Pick(__ubuf__ T* dst, __ubuf__ W* wide, T v)
    {
        Reg::RegTensor<T> r;
        Reg::RegTensor<W> w;
        Reg::MaskReg m = Reg::CreateMask<T>();
        Reg::MaskReg mw = Reg::CreateMask<W>();
        if constexpr (std::is_same<T, half>::value) {
            Reg::Duplicate(r, (T)1.5f);
        } else if constexpr (std::is_same_v<T, float> && std::is_floating_point_v<W>) {
            Reg::Duplicate(r, v);
        }
        Reg::Duplicate(w, (W)sizeof(W));
        Reg::StoreAlign(dst, r, m);
        Reg::StoreAlign(wide, w, mw);
    }
    """
    half = tr(tmp_path, text, "Pick<half>")
    assert [p.etype for p in half.params] == ["f16", "f32", "f16"]
    result = cpp_run.run(half, engine, dst=np.zeros(128, np.float16), wide=np.zeros(64, np.float32), v=9)
    assert (result["dst"] == 1.5).all() and (result["wide"] == 4).all()
    single = tr(tmp_path, text, "Pick<float>")
    result = cpp_run.run(single, engine, dst=np.zeros(64, np.float32), wide=np.zeros(64, np.float32), v=-2.25)
    assert (result["dst"] == -2.25).all() and (result["wide"] == 4).all()


def test_post_update_and_address_register_forms(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void Copy(__ubuf__ int32_t* dst, __ubuf__ int32_t* src, uint16_t repeat)
    {
        Reg::RegTensor<int32_t> v;
        Reg::MaskReg m = Reg::CreateMask<int32_t>();
        for (uint16_t i = 0; i < repeat; ++i) {
            Reg::LoadAlign<int32_t, Reg::PostLiteral::POST_MODE_UPDATE>(v, src, 64);
            Reg::Adds(v, v, 1, m);
            Reg::AddrReg offset = Reg::CreateAddrReg<int32_t>(i, 64);
            Reg::StoreAlign(dst, v, offset, m);
        }
    }
    """)
    texts = [line.text for line in t.lines]
    assert any(x.startswith("vld.pu") for x in texts) and any(x.startswith("iter a") for x in texts)
    x = np.arange(192, dtype=np.int32) * 3
    result = cpp_run.run(t, engine, dst=np.zeros(192, np.int32), src=x, repeat=3)
    assert np.array_equal(result["dst"], x + 1)


def test_squeeze_compaction_through_an_unaligned_store_stream(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void KeepPositive(__ubuf__ float* dst, __ubuf__ float* src, uint16_t repeat)
    {
        Reg::RegTensor<float> v, kept;
        Reg::UnalignRegForStore ureg;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg positive;
        Reg::ClearSpr<SpecialPurposeReg::AR>();
        for (uint16_t i = 0; i < repeat; ++i) {
            Reg::LoadAlign(v, src + i * 64);
            Reg::Compares<float, CMPMODE::GT>(positive, v, 0.0f, all);
            Reg::Squeeze<float, GatherMaskMode::STORE_REG>(kept, v, positive);
            Reg::StoreUnAlign(dst + 1, kept, ureg);
        }
        Reg::StoreUnAlignPost(dst + 1, ureg);
    }
    """)
    x = (np.arange(192) * 7 % 11 - 5).astype(np.float32)
    result = cpp_run.run(t, engine, dst=np.full(200, -9, np.float32), src=x, repeat=3)
    kept = x[x > 0]
    expect = np.full(200, -9, np.float32)
    expect[1:1 + kept.size] = kept
    assert np.array_equal(result["dst"], expect)


def test_c_api_calls_map_to_the_rows_citing_their_pages(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void CApi(__ubuf__ float* dst, __ubuf__ float* src, float s, uint32_t n)
    {
        vector_float a, b;
        vector_bool m = asc_update_mask_b32(n);
        vector_bool all = asc_create_mask_b32(PAT_ALL);
        asc_loadalign(a, src);
        asc_mul_scalar(b, a, s, m);
        asc_add(b, b, a, all);
        asc_storealign(dst, b, m);
    }
    """)
    assert [line.text.split()[0] for line in t.lines] == ["mask.upd", "mask", "vld", "vmuls", "vadd", "vsta", "halt"]
    x = np.arange(64, dtype=np.float32) - 20
    result = cpp_run.run(t, engine, dst=np.full(64, 5, np.float32), src=x, s=-1.5, n=40)
    expect = np.full(64, 5, np.float32)
    expect[:40] = x[:40] * np.float32(-1.5) + x[:40]
    assert np.array_equal(result["dst"], expect)


@pytest.mark.parametrize("part", [0, 9, 15])
def test_c_api_vector_to_mask_copy_with_a_run_time_part(tmp_path, engine, part):
    # asc_copy(vector_bool&, vector_uint16_t, int16_t part): part is a run-time argument; block `part` of
    # the vector (16 bytes for u16) has each bit repeated twice to make the 32 mask bytes, stored as is
    t = tr(tmp_path, """
    __simd_vf__ inline void MaskOfPart(__ubuf__ uint32_t* dst, __ubuf__ uint16_t* src, int16_t part)
    {
        vector_uint16_t v;
        vector_bool m;
        asc_loadalign(v, src);
        asc_copy(m, v, part);
        asc_storealign(dst, m);
    }
    """)
    assert any(line.text.startswith("movvp p") and line.text.endswith(", s2") for line in t.lines)
    x = (np.arange(128, dtype=np.uint32) * 40503 % 65536).astype(np.uint16)
    result = cpp_run.run(t, engine, dst=np.zeros(8, np.uint32), src=x, part=part)
    bits = np.unpackbits(x.view(np.uint8)[16 * part:16 * part + 16], bitorder="little")
    expect = np.packbits(np.repeat(bits, 2), bitorder="little").view(np.uint32)
    assert np.array_equal(result["dst"], expect)


def test_benchmark_kernel_translates_and_runs(engine):
    """bench/kernels/softmax_rows.cpp (helpers with reference parameters, nested loops, reductions
    broadcast back): compared with a float64 numpy softmax to 1e-6, because the reductions add in the
    hardware's tree order and the model does not."""
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "bench" / "kernels" / "softmax_rows.cpp"
    t = translate(path, "bench_softmax::SoftmaxRowsVF<float>")
    x = (np.arange(4 * 128) % 37 / 7 - 2).astype(np.float32)
    result = cpp_run.run(t, engine, dst=np.zeros(512, np.float32), src=x, rows=4, cols=128)
    rows = x.reshape(4, 128).astype(np.float64)
    e = np.exp(rows - rows.max(axis=1, keepdims=True))
    assert np.allclose(result["dst"].reshape(4, 128), e / e.sum(axis=1, keepdims=True), rtol=1e-6, atol=0)


def test_loops_with_break_or_branches_stay_branch_loops(tmp_path, engine):
    t = tr(tmp_path, """
    __simd_vf__ inline void Until(__ubuf__ int32_t* dst, uint16_t n, int32_t stop)
    {
        Reg::RegTensor<int32_t> v;
        Reg::MaskReg m = Reg::CreateMask<int32_t>();
        int32_t last = 0;
        for (uint16_t i = 0; i < n; ++i) {
            if (i == stop) {
                break;
            }
            last = i;
        }
        Reg::Duplicate(v, last);
        Reg::StoreAlign(dst, v, m);
    }
    """)
    assert "vloop" not in [line.text.split()[0] for line in t.lines]
    assert (cpp_run.run(t, engine, dst=np.zeros(64, np.int32), n=10, stop=4)["dst"] == 3).all()
    assert (cpp_run.run(t, engine, dst=np.zeros(64, np.int32), n=10, stop=99)["dst"] == 9).all()


def test_block_folds_locals_that_nothing_writes(tmp_path):
    t = tr(tmp_path, """
    __aicore__ inline void Process(__ubuf__ float* out, uint32_t n)
    {
        uint32_t lanes = GetVecLen() / sizeof(float);       // not const, but never written again
        uint32_t left = n;                                   // a run-time value: an input
        __VEC_SCOPE__
        {
            Reg::RegTensor<float> v;
            Reg::MaskReg m = Reg::UpdateMask<float>(left);
            Reg::Duplicate(v, 1.0f, m);
            Reg::StoreAlign(out + lanes, v, m);
        }
    }
    """, "Process#1")
    assert [p.name for p in t.params] == ["left", "out"]


def test_missing_libclang_says_how_to_install_it(tmp_path, monkeypatch):
    import sys

    from ascasm.cpp.clang import LibclangMissing
    monkeypatch.setitem(sys.modules, "clang.cindex", None)      # import clang.cindex now fails
    with pytest.raises(LibclangMissing) as info:
        tr(tmp_path, SCALE_ADD, "ScaleAddVF<float>")
    assert 'pip install "ascasm[cpp]"' in str(info.value) and isinstance(info.value, ImportError)


def test_block_uses_registers_declared_before_it(tmp_path, engine):
    t = tr(tmp_path, """
    __aicore__ inline void Fill(__ubuf__ float* out)
    {
        Reg::RegTensor<float> v;
        Reg::MaskReg all = Reg::CreateMask<float>();
        __VEC_SCOPE__
        {
            Reg::Duplicate(v, 2.5f, all);
            Reg::StoreAlign(out, v, all);
        }
    }
    """, "Fill#1")
    assert [p.name for p in t.params] == ["out"]
    assert (cpp_run.run(t, engine, out=np.zeros(64, np.float32))["out"] == 2.5).all()


def test_auto_conditional_type_and_two_index_address_register(tmp_path, engine):
    t = tr(tmp_path, """
    #include <type_traits>
    template <typename T>
    class Tile {
    public:
        using Index = typename std::conditional<sizeof(T) == 2, int16_t, int32_t>::type;
        __aicore__ inline void Run(__ubuf__ T* dst, __ubuf__ T* src)
        {
            __VEC_SCOPE__
            {
                Reg::RegTensor<T> v;
                Reg::RegTensor<Index> lanes;
                Reg::MaskReg all = Reg::CreateMask<T>();
                for (uint16_t row = 0; row < 2; ++row) {
                    for (uint16_t col = 0; col < 2; ++col) {
                        auto offset = Reg::CreateAddrReg<T>(row, 128, col, 64);
                        auto base = src + 0;
                        Reg::LoadAlign(v, base, offset);
                        Reg::Arange(lanes, (Index)0);
                        Reg::StoreAlign(dst, v, offset, all);
                    }
                }
            }
        }
    };
    """, "Tile<float>::Run#1")
    x = np.arange(256, dtype=np.float32)
    assert np.array_equal(cpp_run.run(t, engine, dst=np.zeros(256, np.float32), src=x)["dst"], x)


def test_a_type_the_row_refuses_is_reported_at_the_call(tmp_path):
    message = _error(tmp_path, """
    __simd_vf__ inline void Index(__ubuf__ uint32_t* dst)
    {
        Reg::RegTensor<uint32_t> v;
        Reg::MaskReg m = Reg::CreateMask<uint32_t>();
        Reg::Arange(v, 0u);
        Reg::StoreAlign(dst, v, m);
    }
    """)
    first = message.splitlines()[0]
    assert "k.cpp:8:5: error:" in first and "'vci' does not accept u32" in first
    assert "s8, s16, f16, s32, f32" in message


REG_FUNCTIONS = """
__simd_vf__ inline void RegFunctionsVF(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ uint32_t* idx,
                                       __ubuf__ uint32_t* bits)
{
    static constexpr Reg::LogSpecificMode precise = {Reg::MaskMergeMode::ZEROING, LogAlgo::PRECISION_1ULP_FTZ_FALSE};
    static constexpr Reg::DivSpecificMode plain = {Reg::MaskMergeMode::ZEROING, true};
    Reg::RegTensor<float> x, y, z;
    Reg::RegTensor<uint32_t> i;
    Reg::MaskReg mask = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::MaskReg loaded;
    Reg::LoadAlign(x, src);
    Reg::LoadAlign(i, idx);
    Reg::LoadAlign(loaded, bits);
    Reg::Log<float, &precise>(y, x, mask);
    Reg::Log10(z, x, mask);
    Reg::Div<float, &plain>(z, z, y, mask);
    Reg::MulAddDst(z, x, y, loaded);
    Reg::Gather(y, z, i);
    Reg::StoreAlign(bits, loaded);
    Reg::Store(dst, y, 5);
}
"""


def test_reg_functions_of_every_page_translate(tmp_path):
    """A *SpecificMode struct passed by address selects the row by its algo (FTZ_FALSE: .nftz; a struct
    without algo: the default row); MaskReg loads/stores, MulAddDst, the register Gather and Store with a
    count become their rows."""
    t = tr(tmp_path, REG_FUNCTIONS, "RegFunctionsVF")
    texts = [line.text.split(";")[0].split() for line in t.lines]
    mnemonics = [words[0] for words in texts]
    for expected in ("vln.nftz", "vlog10", "vdiv", "vmla", "vgatr", "vstu"):
        assert expected in mnemonics, expected
    assert ["vld", "p1,"] in [words[:2] for words in texts]          # the MaskReg LoadAlign
    assert [words for words in texts if words[0] == "vsta"] == [["vsta", "[s3],", "p1"]]
    assert texts[mnemonics.index("vstu")][-1] == "5"                 # the count, a plain operand


FUSED_CONVERSIONS = """
__simd_vf__ inline void FusedVF(__ubuf__ float* dst, __ubuf__ half* a, __ubuf__ half* b, __ubuf__ half* out,
                                float scale)
{
    Reg::RegTensor<half> x, y, h;
    Reg::RegTensor<float> e;
    Reg::MaskReg mask = Reg::CreateMask<half, Reg::MaskPattern::ALL>();
    Reg::LoadAlign(x, a);
    Reg::LoadAlign(y, b);
    Reg::ExpSub<float, half, Reg::RegLayout::ONE>(e, x, y, mask);
    Reg::MulsCast<half, float, float, Reg::RegLayout::ZERO>(h, e, scale, mask);
    Reg::StoreAlign(out, h, mask);
}
"""


def test_expsub_and_mulscast_translate(tmp_path):
    t = tr(tmp_path, FUSED_CONVERSIONS, "FusedVF")
    texts = [line.text.split(";")[0].strip() for line in t.lines]
    expsub = next(text for text in texts if text.startswith("vexpsub"))
    mulscast = next(text for text in texts if text.startswith("vmulscvt"))
    assert expsub.endswith(", odd") and ".f32," in expsub and ".f16," in expsub
    words = mulscast.replace(",", " ").split()
    assert words[1].endswith(".f16") and words[2].endswith(".f32") and words[3].endswith(".f32"), mulscast


def test_a_register_pair_of_64_bit_lanes_is_an_error_not_a_mistranslation(tmp_path):
    # RegTraitNumTwo holds 64 elements in two registers; ascasm's rows hold 32 in one
    message = _error(tmp_path, """
    __simd_vf__ inline void Pair(__ubuf__ int64_t* dst)
    {
        Reg::RegTensor<int64_t, Reg::RegTraitNumTwo> v;
        Reg::Duplicate(v, 1);
    }
    """)
    assert "k.cpp:6:5:" in message and "RegTraitNumTwo" in message and "64-bit lanes" in message
    message = _error(tmp_path, """
    __simd_vf__ inline void PairMask(__ubuf__ int64_t* dst, uint32_t count)
    {
        Reg::MaskReg m = Reg::UpdateMask<int64_t, Reg::RegTraitNumTwo>(count);
    }
    """)
    assert "k.cpp:6:" in message and "regTrait=RegTraitNumTwo" in message


def test_reading_ar_back_is_an_error_naming_getspr(tmp_path):
    # no Reg page defines GetSpr and no row copies AR to a scalar (docs/semantics.md "Reading AR back")
    message = _error(tmp_path, """
    __simd_vf__ inline void Kept(__ubuf__ float* dst)
    {
        int64_t bytes = Reg::GetSpr<SpecialPurposeReg::AR>();
    }
    """)
    assert "k.cpp:6:21: error: Reg::GetSpr has no ascasm instruction" in message.splitlines()[0]


def test_unmasked_move_and_a_copied_register_take_every_lane(tmp_path, engine):
    # Reg::Move(dst, src) without a mask and RegTensor b = a copy all lanes; the masked Move merges
    t = tr(tmp_path, """
    __simd_vf__ inline void Copies(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::MaskReg low = Reg::CreateMask<float, Reg::MaskPattern::VL16>();
        Reg::RegTensor<float> x, y;
        Reg::LoadAlign(x, src);
        Reg::Duplicate(y, 5.0f);
        Reg::RegTensor<float> z = y;
        Reg::Move(y, x);
        Reg::Muls(x, x, 2.0f, low);
        Reg::Move(z, x, low);
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::StoreAlign(dst, y, all);
        Reg::StoreAlign(dst + 64, z, all);
    }
    """)
    x = np.arange(64, dtype=np.float32) - 20
    result = cpp_run.run(t, engine, dst=np.zeros(128, np.float32), src=x)
    z = np.full(64, 5, np.float32)
    z[:16] = x[:16] * 2
    assert np.array_equal(result["dst"], np.concatenate([x, z]))


STD_HELPERS = """
template <typename T>
__simd_vf__ inline void Span(__ubuf__ T* dst, __ubuf__ T* src, int32_t a, int32_t b, uint32_t count)
{
    static_assert(Std::is_same_v<T, float> || Std::is_same<T, half>::value, "a float type");
    constexpr uint32_t lanes = Std::min(GetVecLen() / static_cast<uint32_t>(sizeof(T)), 64u);
    int32_t span = Std::max(a, b) - Std::min(a, b);
    Reg::RegTensor<T> x;
    Reg::MaskReg m = Reg::UpdateMask<T>(count);
    Reg::LoadAlign(x, src + lanes);
    Reg::Adds(x, x, (T)span, m);
    Reg::StoreAlign(dst, x, m);
}
"""


@pytest.mark.parametrize("a, b", [(3, 10), (10, 3), (-4, -4)])
def test_std_helpers_and_static_assert(tmp_path, engine, a, b):
    # AscendC::Std's min/max at run time and in a constant, is_same in a static_assert
    t = tr(tmp_path, STD_HELPERS, "Span<float>")
    x = np.arange(128, dtype=np.float32)
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=x, a=a, b=b, count=50)
    expect = np.zeros(64, np.float32)
    expect[:50] = x[64:114] + abs(a - b)
    assert np.array_equal(result["dst"], expect)


def test_failing_static_assert_is_located(tmp_path):
    message = _error(tmp_path, STD_HELPERS, "Span<int32_t>")
    assert 'k.cpp:7:5: error: static_assert failed with these template arguments: "a float type"' in message


C_API_OFFSETS = """
__simd_vf__ inline void Sums(__ubuf__ half* dst, __ubuf__ half* src0, __ubuf__ half* src1, uint32_t step,
                             uint16_t repeat, uint32_t count)
{
    vector_half a, b, sum;
    vector_bool mask;
    for (uint16_t i = 0; i < repeat; ++i) {
        mask = asc_update_mask_b16(count);
        asc_loadalign_postupdate(a, src0, step);
        asc_loadalign_postupdate(b, src1, step);
        asc_add(sum, a, b, mask);
        asc_storealign_postupdate(dst, sum, step, mask);
    }
}

__simd_vf__ inline void Differences(__ubuf__ half* dst, __ubuf__ half* src0, __ubuf__ half* src1, uint32_t step,
                                    uint16_t repeat, uint32_t count)
{
    vector_half a, b, difference;
    vector_bool mask;
    addr_reg offset;
    for (uint16_t i = 0; i < repeat; ++i) {
        offset = asc_update_addr_reg_b16(step);
        mask = asc_update_mask_b16(count);
        asc_loadalign(a, src0, offset);
        asc_loadalign(b, src1, offset);
        asc_sub(difference, a, b, mask);
        asc_storealign(dst, difference, offset, mask);
    }
}
"""


@pytest.mark.parametrize("entry, op, old_name", [("Sums", np.add, False), ("Differences", np.subtract, False),
                                                 ("Differences", np.subtract, True)])
def test_c_api_post_update_and_address_register_offsets(tmp_path, engine, entry, op, old_name):
    # the C-API pages' argument orders: (dst, src, offset, mask) for the post-update store, and an
    # addr_reg offset after the pointer it moves (loads and stores); asc_create_iter_reg_bW is the
    # deprecated name of asc_update_addr_reg_bW (its page and asc_update_addr_reg's say so)
    text = C_API_OFFSETS.replace("asc_update_addr_reg_b16", "asc_create_iter_reg_b16") if old_name else C_API_OFFSETS
    t = tr(tmp_path, text, entry)
    x = (np.arange(384) % 50).astype(np.float16)
    y = (np.arange(384) % 7).astype(np.float16)
    result = cpp_run.run(t, engine, dst=np.full(384, -1, np.float16), src0=x, src1=y, step=128, repeat=3,
                         count=300)
    expect = np.full(384, -1, np.float16)
    expect[:300] = op(x[:300].astype(np.float64), y[:300]).astype(np.float16)
    assert np.array_equal(result["dst"], expect)


C_API_ELEMENT_OFFSETS = """
__simd_vf__ inline void Twice(__ubuf__ float* dst, __ubuf__ float* src, int32_t in, int32_t out)
{
    vector_float v;
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    asc_loadalign(v, src, in);
    asc_add(v, v, v, all);
    asc_storealign(dst, v, out, all);
}

__simd_vf__ inline void Spread(__ubuf__ half* dst, __ubuf__ half* src, int32_t at)
{
    vector_half v;
    vector_bool all = asc_create_mask_b16(PAT_ALL);
    asc_loadalign_brc_elem(v, src, at);
    asc_storealign(dst, v, 128, all);
}
"""


@pytest.mark.parametrize("src_at, dst_at", [(0, 0), (8, 64), (72, 24)])
def test_c_api_int32_offsets_count_elements_of_the_pointer(tmp_path, engine, src_at, dst_at):
    # asc_loadalign(dst, src, offset) and asc_storealign(dst, src, offset, mask) with run-time int32_t
    # offsets: src + offset elements (offset * 4 bytes here). The store is the offset form, not the
    # block-stride one of the same arity (whose stride parameters are named block_stride, repeat_stride)
    t = tr(tmp_path, C_API_ELEMENT_OFFSETS, "Twice")
    assert not any(line.text.startswith("vsta.bs") for line in t.lines)
    x = (np.arange(160) % 23 - 11).astype(np.float32)
    result = cpp_run.run(t, engine, dst=np.full(160, 7, np.float32), src=x, **{"in": src_at, "out": dst_at})
    expect = np.full(160, 7, np.float32)
    expect[dst_at:dst_at + 64] = 2 * x[src_at:src_at + 64]
    assert np.array_equal(result["dst"], expect)


@pytest.mark.parametrize("at", [0, 5, 130])
def test_c_api_broadcast_load_at_a_run_time_element(tmp_path, engine, at):
    # asc_loadalign_brc_elem(dst, src, offset): element `at` of src in every lane (element alignment only);
    # the constant store offset 128 is 256 bytes of half
    t = tr(tmp_path, C_API_ELEMENT_OFFSETS, "Spread")
    x = (np.arange(256) * 3 % 101).astype(np.float16)
    result = cpp_run.run(t, engine, dst=np.zeros(256, np.float16), src=x, at=at)
    expect = np.zeros(256, np.float16)
    expect[128:] = x[at]
    assert np.array_equal(result["dst"], expect)


FUNCTIONAL_CASTS = """
template <typename T>
__simd_vf__ inline void Fill(__ubuf__ T* dst, int32_t n)
{
    Reg::RegTensor<T> a, b;
    Reg::MaskReg all = Reg::CreateMask<T>();
    Reg::Duplicate(a, T(2.75));
    Reg::Duplicate(b, T(n));
    Reg::StoreAlign(dst, a, all);
    Reg::StoreAlign(dst + GetVecLen() / sizeof(T), b, all);
}
"""


@pytest.mark.parametrize("entry, dtype, first, second", [("Fill<float>", np.float32, 2.75, 70000.0),
                                                         ("Fill<int16_t>", np.int16, 2, 70000 - 65536)])
def test_functional_cast_to_a_template_parameter(tmp_path, engine, entry, dtype, first, second):
    # T(x) in a template: C's conversion to T (a constant folded, a run-time value converted)
    t = tr(tmp_path, FUNCTIONAL_CASTS, entry)
    lanes = 256 // np.dtype(dtype).itemsize
    result = cpp_run.run(t, engine, dst=np.zeros(2 * lanes, dtype), n=70000)
    assert result["dst"].tolist() == [first] * lanes + [second] * lanes


def test_a_struct_holds_copies_of_the_values_it_was_made_from(tmp_path, engine):
    # C++ copies `count` into `tile.count`: UpdateMask(tile.count) lowers tile.count (10 - 64 lanes -> 0)
    # and leaves `count` at 10
    t = tr(tmp_path, """
    struct Tile {
        uint32_t count;
        float scale;
    };
    __simd_vf__ inline void CopyVF(__ubuf__ uint32_t* out, uint32_t count, float scale)
    {
        Tile tile{count, scale};
        Tile again = tile;
        Reg::MaskReg mask = Reg::UpdateMask<float>(tile.count);
        Reg::RegTensor<uint32_t> c, d, e;
        Reg::MaskReg all = Reg::CreateMask<uint32_t>();
        Reg::Duplicate(c, count);
        Reg::Duplicate(d, tile.count);
        Reg::Duplicate(e, again.count);
        Reg::StoreAlign(out, c, all);
        Reg::StoreAlign(out + 64, d, all);
        Reg::StoreAlign(out + 128, e, all);
    }
    """)
    result = cpp_run.run(t, engine, out=np.zeros(192, np.uint32), count=10, scale=2.5)
    assert result["out"].tolist() == [10] * 64 + [0] * 64 + [10] * 64


def test_literals_a_macro_expands_to(tmp_path, engine):
    # a literal inside a macro expansion has no tokens of its own: its value comes from clang
    t = tr(tmp_path, """
    #define OFFSET_NONE 0
    #define SCALE 2.5f
    template <uint64_t Offset>
    __simd_vf__ inline void MacroVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::RegTensor<float> x;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::LoadAlign(x, src);
        if constexpr (Offset != OFFSET_NONE) {
            Reg::Adds(x, x, 1.0f, all);
        }
        Reg::Muls(x, x, SCALE, all);
        Reg::StoreAlign(dst, x, all);
    }
    """, "MacroVF<1>")
    x = np.arange(64, dtype=np.float32)
    result = cpp_run.run(t, engine, dst=np.zeros(64, np.float32), src=x)
    assert np.array_equal(result["dst"], (x + 1) * np.float32(2.5))


def test_a_header_alone_is_parsed_after_kernel_operator_h(tmp_path, engine):
    # kernel headers rely on their op's .cpp to include kernel_operator.h first
    path = tmp_path / "scale.h"
    path.write_text(textwrap.dedent("""
    __simd_vf__ inline void ScaleVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        AscendC::Reg::RegTensor<float> x;
        AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float>();
        AscendC::Reg::LoadAlign(x, src);
        AscendC::Reg::Muls(x, x, 3.0f, all);
        AscendC::Reg::StoreAlign(dst, x, all);
    }
    """))
    x = np.arange(64, dtype=np.float32)
    result = cpp_run.run(translate(path, "ScaleVF"), engine, dst=np.zeros(64, np.float32), src=x)
    assert np.array_equal(result["dst"], x * 3)
