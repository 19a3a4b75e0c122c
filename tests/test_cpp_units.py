"""Units of the C++ front end's addresses: the Reg pages count a vector load's or store's
postUpdateStride in elements of the pointer's type T (`dstAddr += postUpdateStride`), whatever width the
distribution mode works on. Each kernel here is run on both executors and compared with numpy."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from test_cpp_translate import tr  # noqa: E402

NARROWING_STORE = """
constexpr Reg::CastTrait narrow = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING,
                                   RoundMode::CAST_RINT};
__simd_vf__ inline void ToHalf(__ubuf__ half* y, __ubuf__ float* x, uint32_t count, uint16_t repeat, int32_t step)
{
    Reg::RegTensor<float> xReg;
    Reg::RegTensor<half> yReg;
    Reg::MaskReg mask;
    for (uint16_t i = 0; i < repeat; ++i) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(xReg, x + i * 64);
        Reg::Cast<half, float, narrow>(yReg, xReg, mask);
        Reg::StoreAlign<half, Reg::PostLiteral::POST_MODE_UPDATE, Reg::StoreDist::DIST_PACK_B32>(y, yReg, STEP, mask);
    }
}
"""


@pytest.mark.parametrize("step", ["64", "step"], ids=["constant", "run-time"])
def test_pack_b32_store_advances_by_elements_of_the_pointer_type(tmp_path, engine, step):
    # the case: 200 floats in 4 blocks of 64; each block's 64 halves (128 bytes) follow the last
    t = tr(tmp_path, NARROWING_STORE.replace("STEP", step))
    x = (np.arange(256, dtype=np.float32) * 0.75 - 90).astype(np.float32)
    result = cpp_run.run(t, engine, y=np.zeros(256, np.float16), x=x, count=200, repeat=4, step=64)
    expect = np.zeros(256, np.float16)
    expect[:200] = x[:200].astype(np.float16)
    assert result["y"].tobytes() == expect.tobytes()


PACK_B16 = """
__simd_vf__ inline void LowBytes(__ubuf__ uint8_t* dst, __ubuf__ uint16_t* src, uint16_t repeat, int32_t step)
{
    Reg::RegTensor<uint16_t> v;
    Reg::MaskReg all = Reg::CreateMask<uint16_t>();
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign(v, src + i * 128);
        Reg::StoreAlign<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE, Reg::StoreDist::DIST_PACK_B16>(dst, v, STEP, all);
    }
}
"""


@pytest.mark.parametrize("step", ["128", "step"], ids=["constant", "run-time"])
def test_pack_b16_store_advances_by_bytes_of_uint8(tmp_path, engine, step):
    t = tr(tmp_path, PACK_B16.replace("STEP", step))
    src = (np.arange(384, dtype=np.uint32) * 37 + 5).astype(np.uint16)
    result = cpp_run.run(t, engine, dst=np.zeros(384, np.uint8), src=src, repeat=3, step=128)
    assert result["dst"].tobytes() == (src & 0xFF).astype(np.uint8).tobytes()


UNPACK_LOAD = """
__simd_vf__ inline void Widen(__ubuf__ uint16_t* dst, __ubuf__ uint8_t* src, uint16_t repeat)
{
    Reg::RegTensor<uint16_t> v;
    Reg::MaskReg all = Reg::CreateMask<uint16_t>();
    for (uint16_t i = 0; i < repeat; ++i) {
        Reg::LoadAlign<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::DIST_UNPACK_B8>(v, src, 128);
        Reg::StoreAlign(dst + i * 128, v, all);
    }
}
"""


def test_unpack_b8_load_advances_by_elements_of_uint8(tmp_path, engine):
    # DIST_UNPACK_B8 reads 128 bytes into the low bytes of 128 16-bit lanes; the view is b8, as T is
    t = tr(tmp_path, UNPACK_LOAD)
    src = (np.arange(256) * 7 % 256).astype(np.uint8)
    result = cpp_run.run(t, engine, dst=np.zeros(256, np.uint16), src=src, repeat=2)
    assert result["dst"].tobytes() == src.astype(np.uint16).tobytes()


EARLY_RETURN = """
__simd_callee__ inline void AddUnlessZero(Reg::RegTensor<int32_t>& v, Reg::MaskReg& m, int32_t s)
{
    if (s == 0) {
        return;
    }
    BODY
}
__simd_vf__ inline void EarlyReturn(__ubuf__ int32_t* dst, __ubuf__ int32_t* src, int32_t s)
{
    Reg::RegTensor<int32_t> v;
    Reg::MaskReg m = Reg::CreateMask<int32_t>();
    Reg::LoadAlign(v, src);
    AddUnlessZero(v, m, s);
    Reg::StoreAlign(dst, v, m);
}
"""


@pytest.mark.parametrize("adds", [1, 62, 63, 200])
def test_helper_with_an_early_return_before_many_instructions(tmp_path, engine, adds):
    # the return label used to be placed only when a branch to it was among the last 64 lines
    t = tr(tmp_path, EARLY_RETURN.replace("BODY", "Reg::Adds(v, v, 1, m);\n    " * adds))
    x = np.arange(64, dtype=np.int32)
    kept = cpp_run.run(t, engine, dst=np.zeros(64, np.int32), src=x, s=0)
    assert np.array_equal(kept["dst"], x)                     # returned early
    added = cpp_run.run(t, engine, dst=np.zeros(64, np.int32), src=x, s=2)
    assert np.array_equal(added["dst"], x + adds)
