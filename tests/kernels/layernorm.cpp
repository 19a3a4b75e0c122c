// LayerNorm of one row of `count` elements:
//   y = (x - mean) / sqrt(var + epsilon) * gamma + beta,  mean and var over the row.
#include "kernel_operator.h"
using namespace AscendC;

// Sum of a register's lanes, in lane 0 and then broadcast to every lane.
template <typename T>
__simd_callee__ inline void SumToAllLanes(MicroAPI::RegTensor<T>& dst, MicroAPI::RegTensor<T>& lanes,
                                          MicroAPI::MaskReg& all)
{
    MicroAPI::Reduce<MicroAPI::ReduceType::SUM>(dst, lanes, all);
    MicroAPI::Duplicate<T, MicroAPI::HighLowPart::LOWEST>(dst, dst, all);
}

template <typename T>
__simd_vf__ inline void LayerNormVF(__ubuf__ T* yAddr, __ubuf__ T* xAddr, __ubuf__ T* gammaAddr,
                                    __ubuf__ T* betaAddr, uint32_t count, T invCount, T epsilon)
{
    constexpr uint16_t oneRepeatSize = GetVecLen() / sizeof(T);
    uint16_t repeatTimes = CeilDivision(count, oneRepeatSize);
    MicroAPI::RegTensor<T> x, acc, mean, var, centred, weight;
    MicroAPI::MaskReg mask;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<T>();

    uint32_t remaining = count;
    MicroAPI::Duplicate(acc, (T)0, all);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<T>(remaining);
        MicroAPI::LoadAlign(x, xAddr + i * oneRepeatSize);
        MicroAPI::Add<T, MicroAPI::MaskMergeMode::MERGING>(acc, acc, x, mask);
    }
    SumToAllLanes(mean, acc, all);
    MicroAPI::Muls(mean, mean, invCount, all);

    remaining = count;
    MicroAPI::Duplicate(acc, (T)0, all);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<T>(remaining);
        MicroAPI::LoadAlign(x, xAddr + i * oneRepeatSize);
        MicroAPI::Sub(centred, x, mean, mask);
        MicroAPI::Mul(centred, centred, centred, mask);
        MicroAPI::Add<T, MicroAPI::MaskMergeMode::MERGING>(acc, acc, centred, mask);
    }
    SumToAllLanes(var, acc, all);
    MicroAPI::Muls(var, var, invCount, all);
    MicroAPI::Adds(var, var, epsilon, all);
    MicroAPI::Sqrt(var, var, all);

    remaining = count;
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<T>(remaining);
        MicroAPI::LoadAlign(x, xAddr + i * oneRepeatSize);
        MicroAPI::Sub(centred, x, mean, mask);
        MicroAPI::Div(centred, centred, var, mask);
        MicroAPI::LoadAlign(weight, gammaAddr + i * oneRepeatSize);
        MicroAPI::Mul(centred, centred, weight, mask);
        MicroAPI::LoadAlign(weight, betaAddr + i * oneRepeatSize);
        MicroAPI::Add(centred, centred, weight, mask);
        MicroAPI::StoreAlign(yAddr + i * oneRepeatSize, centred, mask);
    }
}
