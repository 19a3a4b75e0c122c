// 64-bit lanes: dst = src0 + src1 for `count` int64_t (or uint64_t) elements, 32 lanes a repeat; the
// b64 mask from UpdateMask leaves the elements after `count` unstored. Lanes whose sum is below
// `floor` are replaced by it (Compares, Select, Duplicate on 64-bit lanes).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void AddInt64VF(__ubuf__ T* dstAddr, __ubuf__ T* src0Addr, __ubuf__ T* src1Addr, T floor,
                                   uint32_t count, uint16_t repeatTimes)
{
    constexpr uint32_t oneRepeatSize = GetVecLen() / sizeof(T);
    Reg::RegTensor<T> srcReg0, srcReg1, dstReg, floorReg;
    Reg::MaskReg mask, low;
    Reg::MaskReg all = Reg::CreateMask<T>();
    Reg::Duplicate(floorReg, floor);
    for (uint16_t i = 0; i < repeatTimes; i++) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(srcReg0, src0Addr + i * oneRepeatSize);
        Reg::LoadAlign(srcReg1, src1Addr + i * oneRepeatSize);
        Reg::Add(dstReg, srcReg0, srcReg1, mask);
        Reg::Compares<T, CMPMODE::LT>(low, dstReg, floor, all);
        Reg::Select(dstReg, floorReg, dstReg, low);
        Reg::StoreAlign(dstAddr + i * oneRepeatSize, dstReg, mask);
    }
}
