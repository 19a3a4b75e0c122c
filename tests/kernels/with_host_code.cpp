// A kernel file as the vendor's examples lay them out: the vector function, then host code that
// names a runtime ascasm's stubs do not declare (and a launch in the <<<...>>> syntax).  clang
// reports errors there; the translator takes the vector function, which has none, and the helper
// it inlines.
#include "kernel_operator.h"

template <typename T>
__simd_callee__ inline void ShiftScale(AscendC::Reg::RegTensor<T>& y, AscendC::Reg::RegTensor<T>& x,
                                       T shift, T scale, AscendC::Reg::MaskReg& mask)
{
    AscendC::Reg::Adds(y, x, shift, mask);
    AscendC::Reg::Muls(y, y, scale, mask);
}

template <typename T>
__simd_vf__ inline void ShiftScaleVF(__ubuf__ T* dstAddr, __ubuf__ T* srcAddr, T shift, T scale, uint32_t count)
{
    constexpr uint32_t lanes = AscendC::GetVecLen() / sizeof(T);
    uint16_t chunks = (count + lanes - 1) / lanes;
    AscendC::Reg::RegTensor<T> x, y;
    for (uint16_t i = 0; i < chunks; ++i) {
        AscendC::Reg::MaskReg mask = AscendC::Reg::UpdateMask<T>(count);
        AscendC::Reg::LoadAlign(x, srcAddr + i * lanes);
        ShiftScale(y, x, shift, scale, mask);
        AscendC::Reg::StoreAlign(dstAddr + i * lanes, y, mask);
    }
}

__global__ __aicore__ void shift_scale(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    // the kernel's GM <-> UB side is left out here
}

int32_t main()
{
    uint8_t* device = nullptr;
    aclrtMalloc((void**)&device, 1024, ACL_MEM_MALLOC_HUGE_FIRST);
    shift_scale<<<1, nullptr, nullptr>>>(device, device);
    return 0;
}
