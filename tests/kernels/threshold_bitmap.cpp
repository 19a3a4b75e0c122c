// A bitmap of the elements above a threshold: bit i of the output is set when x[i] > threshold.
// Each chunk's comparison mask goes to the UB through the MaskReg form of StoreUnAlign, one bit per
// element (8 bytes for 64 float lanes, 16 for 128 half lanes), the stream flushed once after the loop.
// B is the unsigned type of T's width: the store reads the mask at B's width.
#include "kernel_operator.h"

template <typename T, typename B>
__simd_vf__ inline void ThresholdBitmapVF(__ubuf__ B* bitsAddr, __ubuf__ T* srcAddr, T threshold,
                                          uint16_t chunks)
{
    constexpr uint32_t lanes = AscendC::GetVecLen() / sizeof(T);
    AscendC::Reg::RegTensor<T> x;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<T>();
    AscendC::Reg::MaskReg above;
    AscendC::Reg::UnalignRegForStore ureg;
    for (uint16_t i = 0; i < chunks; ++i) {
        AscendC::Reg::LoadAlign(x, srcAddr + i * lanes);
        AscendC::Reg::Compares<T, AscendC::Reg::CMPMODE::GT>(above, x, threshold, all);
        AscendC::Reg::StoreUnAlign(bitsAddr, above, ureg);
    }
    AscendC::Reg::StoreUnAlignPost(bitsAddr, ureg, 0);
}
