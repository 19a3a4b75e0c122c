// Gather: dst[i] = table[index[i]] for `count` elements, indices in elements.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void GatherVF(__ubuf__ T* dstAddr, __ubuf__ T* tableAddr, __ubuf__ uint32_t* indexAddr,
                                 uint32_t count)
{
    constexpr uint16_t oneRepeatSize = GetVecLen() / sizeof(T);
    uint16_t repeatTimes = CeilDivision(count, oneRepeatSize);
    MicroAPI::RegTensor<uint32_t> index;
    MicroAPI::RegTensor<T> value;
    MicroAPI::MaskReg mask;
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = MicroAPI::UpdateMask<T>(count);
        MicroAPI::LoadAlign(index, indexAddr + i * oneRepeatSize);
        MicroAPI::Gather(value, tableAddr, index, mask);
        MicroAPI::StoreAlign(dstAddr + i * oneRepeatSize, value, mask);
    }
}
