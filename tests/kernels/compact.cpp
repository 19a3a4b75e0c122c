// Compaction: copy the elements of src above `threshold`, in order, to the start of dst; Squeeze
// packs each register's kept lanes and the unaligned store stream appends them.
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void CompactAboveVF(__ubuf__ float* dstAddr, __ubuf__ float* srcAddr, float threshold,
                                       uint16_t repeatTimes)
{
    constexpr uint32_t oneRepeatSize = GetVecLen() / sizeof(float);
    MicroAPI::RegTensor<float> x, kept;
    MicroAPI::UnalignRegForStore ureg;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
    MicroAPI::MaskReg above;
    MicroAPI::ClearSpr<SpecialPurposeReg::AR>();
    for (uint16_t i = 0; i < repeatTimes; i++) {
        MicroAPI::LoadAlign(x, srcAddr + i * oneRepeatSize);
        MicroAPI::Compares<float, CMPMODE::GT>(above, x, threshold, all);
        MicroAPI::Squeeze<float, MicroAPI::GatherMaskMode::STORE_REG>(kept, x, above);
        MicroAPI::StoreUnAlign(dstAddr, kept, ureg);
    }
    MicroAPI::StoreUnAlignPost(dstAddr, ureg);
}
