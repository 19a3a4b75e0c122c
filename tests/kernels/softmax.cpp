// Softmax of one row of `count` floats: y = exp(x - max(x)) / sum(exp(x - max(x))).
// Three passes over the row, as the public softmax kernels do: max, exp and sum, divide.
#include "kernel_operator.h"
#include <cmath>
using namespace AscendC;

constexpr uint16_t VL_FLOAT = GetVecLen() / sizeof(float);

__simd_vf__ inline void SoftmaxRowVF(__ubuf__ float* dstAddr, __ubuf__ float* srcAddr, uint32_t count)
{
    uint16_t repeatTimes = CeilDivision(count, VL_FLOAT);
    MicroAPI::RegTensor<float> x, acc, rowMax, rowSum, e;
    MicroAPI::MaskReg mask;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();

    // pass 1: lane-wise running maximum, then across lanes
    uint32_t remaining = count;
    MicroAPI::Duplicate(acc, -INFINITY, all);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<float>(remaining);
        MicroAPI::LoadAlign(x, srcAddr + i * VL_FLOAT);
        MicroAPI::Max<float, MicroAPI::MaskMergeMode::MERGING>(acc, acc, x, mask);
    }
    MicroAPI::Reduce<MicroAPI::ReduceType::MAX>(rowMax, acc, all);
    MicroAPI::Duplicate<float, MicroAPI::HighLowPart::LOWEST>(rowMax, rowMax, all);

    // pass 2: e = exp(x - max), kept in dst, and its lane-wise running sum
    remaining = count;
    MicroAPI::Duplicate(acc, 0.0f, all);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<float>(remaining);
        MicroAPI::LoadAlign(x, srcAddr + i * VL_FLOAT);
        MicroAPI::Sub(e, x, rowMax, mask);
        MicroAPI::Exp(e, e, mask);
        MicroAPI::Add<float, MicroAPI::MaskMergeMode::MERGING>(acc, acc, e, mask);
        MicroAPI::StoreAlign(dstAddr + i * VL_FLOAT, e, mask);
    }
    MicroAPI::Reduce<MicroAPI::ReduceType::SUM>(rowSum, acc, all);
    MicroAPI::Duplicate<float, MicroAPI::HighLowPart::LOWEST>(rowSum, rowSum, all);

    // pass 3: normalise in place
    remaining = count;
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<float>(remaining);
        MicroAPI::LoadAlign(e, dstAddr + i * VL_FLOAT);
        MicroAPI::Div(e, e, rowSum, mask);
        MicroAPI::StoreAlign(dstAddr + i * VL_FLOAT, e, mask);
    }
}
