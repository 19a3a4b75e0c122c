"""The header stubs parse a kernel in the public kernels' style without errors, and expose the
markers the translator looks for (annotate attributes, the __VEC_SCOPE__ if-statement)."""
import pytest

ci = pytest.importorskip("clang.cindex")

from ascasm.cpp.stubs import clang_args

KERNEL = r'''
#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include <cmath>
using namespace AscendC;

template <typename T>
__simd_vf__ inline void ScaleVF(__ubuf__ T* dst, __ubuf__ T* src, T scale, uint32_t count, uint16_t repeat)
{
    MicroAPI::RegTensor<T> x;
    MicroAPI::MaskReg mask;
    static constexpr MicroAPI::CastTrait toHalf = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::UNKNOWN,
                                                   MicroAPI::MaskMergeMode::ZEROING, MicroAPI::RoundMode::CAST_RINT};
    for (uint16_t i = 0; i < repeat; i++) {
        mask = MicroAPI::UpdateMask<T>(count);
        MicroAPI::LoadAlign<T, MicroAPI::PostLiteral::POST_MODE_UPDATE>(x, src, GetVecLen() / sizeof(T));
        AscendC::Reg::Muls(x, x, scale, mask);
        MicroAPI::RegTensor<half> h;
        MicroAPI::Cast<half, T, toHalf>(h, x, mask);
        MicroAPI::StoreAlign<half, MicroAPI::StoreDist::DIST_PACK_B32>((__ubuf__ half*)dst + i * 64, h, mask);
    }
    vector_float v;
    vector_bool all = asc_create_mask_b32(PAT_ALL);
    asc_add(v, v, v, all);
}

template <typename T>
class Kernel {
public:
    __aicore__ inline void Process(uint32_t n)
    {
        LocalTensor<T> x = inQueue.template AllocTensor<T>();
        __ubuf__ T* p = (__ubuf__ T*)x.GetPhyAddr();
        uint16_t repeat = CeilDivision(n, GetVecLen() / sizeof(T));
        __VEC_SCOPE__
        {
            MicroAPI::RegTensor<T> r;
            MicroAPI::MaskReg m = MicroAPI::CreateMask<T, MicroAPI::MaskPattern::ALL>();
            for (uint16_t i = 0; i < repeat; i++) {
                MicroAPI::LoadAlign(r, p + i * 64);
                MicroAPI::Exp(r, r, m);
                MicroAPI::StoreAlign(p + i * 64, r, m);
            }
        }
        asc_vf_call<ScaleVF<T>>(p, p, (T)2, n, repeat);
        SetFlag<HardEvent::V_MTE3>(0);
        PipeBarrier<PIPE_V>();
        SetVectorMask<float, MaskMode::COUNTER>(VECTOR_REG_WIDTH_2XVL / sizeof(T));
    }
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
};
template class Kernel<float>;
'''


def parse(tmp_path, text):
    path = tmp_path / "k.cpp"
    path.write_text(text)
    return ci.Index.create().parse(str(path), args=clang_args(include_dirs=[str(tmp_path)]))


def walk(cursor):
    yield cursor
    for child in cursor.get_children():
        yield from walk(child)


def test_kernel_parses_without_errors(tmp_path):
    tu = parse(tmp_path, KERNEL)
    errors = [str(d) for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    assert errors == []


def test_markers_visible_to_the_translator(tmp_path):
    tu = parse(tmp_path, KERNEL)
    annotated = {(c.spelling, a.spelling) for c in walk(tu.cursor)
                 for a in c.get_children() if a.kind == ci.CursorKind.ANNOTATE_ATTR}
    assert ("ScaleVF", "simd_vf") in annotated
    assert ("Process", "aicore") in annotated
    # the condition of the if-statement __VEC_SCOPE__ expands to is a call to the marker
    scopes = [c for c in walk(tu.cursor) if c.kind == ci.CursorKind.IF_STMT
              and any(e.kind == ci.CursorKind.CALL_EXPR and e.spelling == "__ascasm_vec_scope"
                      for e in walk(next(c.get_children())))]
    assert len(scopes) == 1


def test_unknown_api_is_a_parse_error(tmp_path):
    tu = parse(tmp_path, KERNEL.replace("MicroAPI::Exp(r, r, m)", "MicroAPI::NoSuchOp(r, r, m)"))
    errors = [d.spelling for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    assert any("NoSuchOp" in e for e in errors)


OVERLOADS = r'''
#include "kernel_operator.h"
using namespace AscendC;
using namespace AscendC::MicroAPI;

__simd_vf__ inline void VF(__ubuf__ float* dst, __ubuf__ float* src)
{
    RegTensor<float> a, b;
    MaskReg all = CreateMask<float>();
    DataCopy(a, src);                                    // the older name of LoadAlign
    Add(b, a, a, all);
    Muls(b, b, 2.0f, all);
    DataCopy(dst, b, all);                               // ... and of StoreAlign
}

__aicore__ inline void Host(LocalTensor<float>& x, LocalTensor<half>& h, uint32_t n)
{
    Add(x, x, x, n);                                     // the tensor-level operation
    Cast<half, float>(h, x, RoundMode::CAST_RINT, n);
}
'''


def called_namespaces(tu, function_name):
    """{callee name: namespace of the declaration the call resolves to} inside one function."""
    function = next(c for c in walk(tu.cursor) if c.spelling == function_name and c.is_definition())
    out = {}
    for call in walk(function):
        if call.kind == ci.CursorKind.CALL_EXPR and call.referenced is not None:
            parent = call.referenced.semantic_parent
            out.setdefault(call.spelling, set()).add(parent.spelling if parent is not None else "")
    return out


def test_vector_calls_resolve_to_reg_and_tensor_calls_to_the_host_side(tmp_path):
    tu = parse(tmp_path, OVERLOADS)
    assert [str(d) for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error] == []
    in_vf = called_namespaces(tu, "VF")
    assert in_vf["Add"] == {"Reg"} and in_vf["Muls"] == {"Reg"} and in_vf["DataCopy"] == {"Reg"}
    on_host = called_namespaces(tu, "Host")
    assert on_host["Add"] == {"AscendC"} and on_host["Cast"] == {"AscendC"}
