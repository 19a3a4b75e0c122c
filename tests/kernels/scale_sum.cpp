// A running sum of scaled blocks, the debugger's C++ kernel: block i of x, times scale plus 1 (an
// inlined helper), is added to acc, and acc is stored as block i of y; `left` counts the elements
// still to do, so the last block is partial.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_callee__ inline void ScaleBias(MicroAPI::RegTensor<T>& dst, MicroAPI::RegTensor<T>& src, T scale,
                                      MicroAPI::MaskReg& mask)
{
    MicroAPI::RegTensor<T> scaled;
    MicroAPI::Muls(scaled, src, scale, mask);
    MicroAPI::Adds(dst, scaled, (T)1.0f, mask);
}

__simd_vf__ inline void ScaleSumVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr, uint32_t count, float scale)
{
    constexpr uint16_t lanes = GetVecLen() / sizeof(float);
    uint16_t blocks = CeilDivision(count, lanes);
    MicroAPI::RegTensor<float> x, t, acc;
    MicroAPI::MaskReg mask;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
    uint32_t left = count;
    MicroAPI::Duplicate(acc, 0.0f, all);
    for (uint16_t i = 0; i < blocks; i++) {
        mask = MicroAPI::UpdateMask<float>(left);
        MicroAPI::LoadAlign(x, xAddr + i * lanes);
        ScaleBias(t, x, scale, mask);
        MicroAPI::Add(acc, acc, t, all);
        MicroAPI::StoreAlign(yAddr + i * lanes, acc, mask);
    }
}
