// Block-strided copy (DataCopyMode::DATA_BLOCK_COPY): each repeat reads 8 blocks of 32 bytes `srcStride`
// blocks apart and writes them `dstStride` blocks apart; the pointers advance by `srcRepeat` and
// `dstRepeat` blocks a repeat (the post-update form). Each value is doubled on the way.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void BlockCopyVF(__ubuf__ T* dstAddr, __ubuf__ T* srcAddr, uint32_t srcStride, uint32_t dstStride,
                                    uint32_t srcRepeat, uint32_t dstRepeat, uint16_t repeatTimes)
{
    Reg::RegTensor<T> reg;
    Reg::MaskReg mask = Reg::CreateMask<T>();
    for (uint16_t i = 0; i < repeatTimes; i++) {
        Reg::LoadAlign<T, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_UPDATE>(
            reg, srcAddr, srcStride, srcRepeat, mask);
        Reg::Add(reg, reg, reg, mask);
        Reg::StoreAlign<T, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_UPDATE>(
            dstAddr, reg, dstStride, dstRepeat, mask);
    }
}

// The form without post-update: one 8-block transfer at fixed addresses.
template <typename T>
__simd_vf__ inline void BlockGatherVF(__ubuf__ T* dstAddr, __ubuf__ T* srcAddr, uint32_t srcStride)
{
    Reg::RegTensor<T> reg;
    Reg::MaskReg mask = Reg::CreateMask<T>();
    Reg::LoadAlign<T, Reg::DataCopyMode::DATA_BLOCK_COPY>(reg, srcAddr, srcStride, mask);
    Reg::StoreAlign<T, Reg::DataCopyMode::DATA_BLOCK_COPY>(dstAddr, reg, 1, mask);
}
