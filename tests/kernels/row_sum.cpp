// Row sums: dst[r] = sum of row r of a rows x 64 float matrix, one Reduce per row, the result
// stored as a single element (DIST_FIRST_ELEMENT_B32).
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void RowSumVF(__ubuf__ float* dstAddr, __ubuf__ float* srcAddr, uint16_t rows)
{
    constexpr uint32_t rowLength = GetVecLen() / sizeof(float);
    MicroAPI::RegTensor<float> row, sum;
    MicroAPI::MaskReg all = MicroAPI::CreateMask<float>();
    for (uint16_t r = 0; r < rows; r++) {
        MicroAPI::LoadAlign(row, srcAddr + r * rowLength);
        MicroAPI::Reduce<MicroAPI::ReduceType::SUM>(sum, row, all);
        MicroAPI::StoreAlign<float, MicroAPI::StoreDist::DIST_FIRST_ELEMENT_B32>(dstAddr + r, sum, all);
    }
}
