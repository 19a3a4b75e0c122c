// RMSNorm of one row: y = x / sqrt(mean(x^2) + eps) * gamma, for `count` floats.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_callee__ inline void BroadcastLane0(MicroAPI::RegTensor<T>& reg, MicroAPI::MaskReg& all)
{
    MicroAPI::Duplicate<T, MicroAPI::HighLowPart::LOWEST>(reg, reg, all);
}

__simd_vf__ inline void RmsNormVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr, __ubuf__ float* gammaAddr,
                                  uint32_t count, float invCount, float epsilon)
{
    constexpr uint16_t oneRepeatSize = GetVecLen() / sizeof(float);
    uint16_t repeatTimes = CeilDivision(count, oneRepeatSize);
    MicroAPI::RegTensor<float> x, square, acc, rms, gamma, y;
    MicroAPI::MaskReg mask;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();

    uint32_t remaining = count;
    MicroAPI::Duplicate(acc, 0.0f, all);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<float>(remaining);
        MicroAPI::LoadAlign(x, xAddr + i * oneRepeatSize);
        MicroAPI::Mul(square, x, x, mask);      // zeroing: the tail's lanes add 0
        MicroAPI::Add(acc, acc, square, all);
    }
    MicroAPI::Reduce<MicroAPI::ReduceType::SUM>(rms, acc, all);
    MicroAPI::Muls(rms, rms, invCount, all);
    MicroAPI::Adds(rms, rms, epsilon, all);
    MicroAPI::Sqrt(rms, rms, all);
    BroadcastLane0(rms, all);

    remaining = count;
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<float>(remaining);
        MicroAPI::LoadAlign(x, xAddr + i * oneRepeatSize);
        MicroAPI::LoadAlign(gamma, gammaAddr + i * oneRepeatSize);
        MicroAPI::Div(y, x, rms, mask);
        MicroAPI::Mul(y, y, gamma, mask);
        MicroAPI::StoreAlign(yAddr + i * oneRepeatSize, y, mask);
    }
}
