// For the buffer-bounds tests: each parameter's buffer is a region the kernel may touch, no more.
// AddOneVF: dst[k] = src[k] + 1 for k < count, 64 floats a repeat, the last repeat masked.
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void AddOneVF(__ubuf__ float* dstAddr, __ubuf__ float* srcAddr, uint32_t count)
{
    Reg::RegTensor<float> x;
    Reg::MaskReg mask;
    uint16_t repeats = CeilDivision(count, 64);
    for (uint16_t i = 0; i < repeats; i++) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(x, srcAddr + i * 64);
        Reg::Adds(x, x, 1.0f, mask);
        Reg::StoreAlign(dstAddr + i * 64, x, mask);
    }
}

// GatherVF: dst[k] = src[index[k]] for the 64 lanes of one repeat.
__simd_vf__ inline void GatherVF(__ubuf__ float* dstAddr, __ubuf__ float* srcAddr, __ubuf__ uint32_t* indexAddr)
{
    Reg::RegTensor<float> x;
    Reg::RegTensor<uint32_t> index;
    Reg::MaskReg mask = Reg::CreateMask<float>();
    Reg::LoadAlign(index, indexAddr);
    Reg::Gather(x, srcAddr, index, mask);
    Reg::StoreAlign(dstAddr, x, mask);
}
