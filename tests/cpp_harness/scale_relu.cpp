// A vector function in the style of the public kernels, for the harness tests: dst = relu(src * scale)
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void ScaleReluVF(__ubuf__ T* dstAddr, __ubuf__ T* srcAddr, T scale, uint32_t count)
{
    Reg::RegTensor<T> x, y;
    Reg::MaskReg mask;
    uint16_t repeats = CeilDivision(count, 64);
    for (uint16_t i = 0; i < repeats; i++) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(x, srcAddr + i * 64);
        Reg::Muls(y, x, scale, mask);
        Reg::Relu(y, y, mask);
        Reg::StoreAlign(dstAddr + i * 64, y, mask);
    }
}
