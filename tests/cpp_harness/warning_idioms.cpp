// Page idioms that must run without a warning, and a helper whose hazard is one warning however often it
// is inlined (tests/test_warnings.py).
#include "kernel_operator.h"
using namespace AscendC;

// half -> int32 with a mask made for int32 and the ZERO layout (the Cast page's widening idiom): the
// mask is read at the source's 16-bit lanes and the ZERO layout converts only the even ones
__simd_vf__ inline void WidenFloor(__ubuf__ half* src, __ubuf__ int32_t* dst, uint32_t blocks)
{
    Reg::MaskReg all = Reg::CreateMask<int32_t, Reg::MaskPattern::ALL>();
    Reg::RegTensor<half> x;
    Reg::RegTensor<int32_t> y;
    static constexpr Reg::CastTrait floorTrait = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN,
                                                  Reg::MaskMergeMode::ZEROING, RoundMode::CAST_FLOOR};
    for (uint16_t b = 0; b < blocks; ++b) {
        Reg::LoadAlign<half, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::DIST_UNPACK_B16>(x, src, 64);
        Reg::Cast<int32_t, half, floorTrait>(y, x, all);
        Reg::StoreAlign<int32_t, Reg::PostLiteral::POST_MODE_UPDATE>(dst, y, 64, all);
    }
}

__simd_callee__ inline void ReadBack(__ubuf__ uint32_t* from, Reg::RegTensor<uint32_t>& into)
{
    Reg::LoadAlign(into, from);
}

// the first 4 lanes stored, then read back with no barrier, twice: the helper's load has two copies
__simd_vf__ inline void HeadTwice(__ubuf__ uint32_t* src, __ubuf__ uint32_t* dst)
{
    Reg::RegTensor<uint32_t> x, y;
    Reg::MaskReg head = Reg::CreateMask<uint32_t, Reg::MaskPattern::VL4>();
    Reg::LoadAlign(x, src);
    Reg::StoreAlign(dst, x, head);
    ReadBack(dst, y);
    Reg::StoreAlign(dst + 64, x, head);
    ReadBack(dst + 64, y);
}
