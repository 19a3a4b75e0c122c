// Quantising cast: y = half(x * scale), round to nearest even, for `count` floats.  The float -> half
// Cast leaves each result in the low half of its 32-bit lane (RegLayout::ZERO); the packing store
// writes those halves contiguously.
#include "kernel_operator.h"
using namespace AscendC;

static constexpr MicroAPI::CastTrait FLOAT_TO_HALF = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::UNKNOWN,
                                                      MicroAPI::MaskMergeMode::ZEROING, MicroAPI::RoundMode::CAST_RINT};

__simd_vf__ inline void QuantCastVF(__ubuf__ half* dstAddr, __ubuf__ float* srcAddr, float scale, uint32_t count)
{
    constexpr uint16_t oneRepeatSize = GetVecLen() / sizeof(float);
    uint16_t repeatTimes = CeilDivision(count, oneRepeatSize);
    MicroAPI::RegTensor<float> x;
    MicroAPI::RegTensor<half> y;
    MicroAPI::MaskReg mask;
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<float>(count);
        MicroAPI::LoadAlign(x, srcAddr + i * oneRepeatSize);
        MicroAPI::Muls(x, x, scale, mask);
        MicroAPI::Cast<half, float, FLOAT_TO_HALF>(y, x, mask);
        MicroAPI::StoreAlign<half, MicroAPI::StoreDist::DIST_PACK_B32>(dstAddr + i * oneRepeatSize, y, mask);
    }
}
