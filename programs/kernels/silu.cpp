// SiLU, y = x / (1 + exp(-x)), over a UB buffer of `count` elements (float or half).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void SiluVF(__ubuf__ T* dstAddr, __ubuf__ T* srcAddr, uint32_t count)
{
    constexpr uint16_t oneRepeatSize = GetVecLen() / sizeof(T);
    uint16_t repeatTimes = CeilDivision(count, oneRepeatSize);
    MicroAPI::RegTensor<T> x, negExp, denom, y;
    MicroAPI::MaskReg mask;
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<T>(count);
        MicroAPI::LoadAlign(x, srcAddr + i * oneRepeatSize);
        MicroAPI::Muls(negExp, x, (T)-1.0f, mask);
        MicroAPI::Exp(negExp, negExp, mask);
        MicroAPI::Adds(denom, negExp, (T)1.0f, mask);
        MicroAPI::Div(y, x, denom, mask);
        MicroAPI::StoreAlign(dstAddr + i * oneRepeatSize, y, mask);
    }
}
