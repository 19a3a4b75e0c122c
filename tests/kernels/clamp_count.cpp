// Clamps halves to [lo, hi] block by block with an inlined helper, and counts the int16 lanes of
// each block that the clamp changed: the debugger's second C++ kernel (half lanes, int16 lanes,
// scalar parameters of both types, a helper with a local of its own).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_callee__ inline void Clamp(MicroAPI::RegTensor<T>& v, T lo, T hi, MicroAPI::MaskReg& mask)
{
    MicroAPI::RegTensor<T> low;
    MicroAPI::Maxs(low, v, lo, mask);
    MicroAPI::Mins(v, low, hi, mask);
}

__simd_vf__ inline void ClampVF(__ubuf__ half* dst, __ubuf__ int16_t* changed, __ubuf__ half* src, uint32_t n,
                                half lo, half hi)
{
    constexpr uint32_t lanes = GetVecLen() / sizeof(half);
    uint16_t blocks = CeilDivision(n, lanes);
    MicroAPI::RegTensor<half> v, before;
    MicroAPI::RegTensor<int16_t> diff;
    MicroAPI::MaskReg mask;
    MicroAPI::MaskReg moved;
    for (uint16_t b = 0; b < blocks; b++) {
        mask = MicroAPI::UpdateMask<half>(n);
        MicroAPI::LoadAlign(v, src + b * lanes);
        MicroAPI::LoadAlign(before, src + b * lanes);
        Clamp(v, lo, hi, mask);
        MicroAPI::Compare<half, CMPMODE::NE>(moved, v, before, mask);
        MicroAPI::Duplicate(diff, (int16_t)0, mask);
        MicroAPI::Adds(diff, diff, (int16_t)1, moved);
        MicroAPI::StoreAlign(dst + b * lanes, v, mask);
        MicroAPI::StoreAlign(changed + b * lanes, diff, mask);
    }
}
