// Transpose of a ROWS x 8 float matrix (ROWS a multiple of 8, at most 64): column c of src is
// gathered (indices 8k + c) and stored as row c of dst through an AddrReg that advances by ROWS
// elements per iteration of the column loop.
#include "kernel_operator.h"
using namespace AscendC;

template <uint16_t ROWS>
__simd_vf__ inline void TransposeCols8VF(__ubuf__ float* dstAddr, __ubuf__ float* srcAddr,
                                         __ubuf__ uint32_t* rowStartAddr)
{
    MicroAPI::RegTensor<uint32_t> rowStart, index;
    MicroAPI::RegTensor<float> column;
    uint32_t count = ROWS;
    MicroAPI::MaskReg mask = MicroAPI::UpdateMask<float>(count);
    MicroAPI::LoadAlign(rowStart, rowStartAddr);   // 0, 8, 16, ...: each row's first element
    for (uint16_t c = 0; c < 8; c++) {
        MicroAPI::AddrReg rowOffset = MicroAPI::CreateAddrReg<float>(c, ROWS);
        MicroAPI::Adds(index, rowStart, (uint32_t)c, mask);
        MicroAPI::Gather(column, srcAddr, index, mask);
        MicroAPI::StoreAlign(dstAddr, column, rowOffset, mask);
    }
}
