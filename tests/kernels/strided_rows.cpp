// Address registers with run-time strides (Reg::CreateAddrReg's stride0 is a uint32_t parameter).
// PickRowsVF: the first vector of each of `rows` rows of src, rows `rowStride` elements apart, packed
// densely into dst, plus 1. TileVF: a grid of `rows` x `cols` vectors whose source strides come from
// the parameters and whose destination row stride is a local computed at run time (two index pairs).
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
__simd_vf__ inline void PickRowsVF(__ubuf__ T* dst, __ubuf__ T* src, uint32_t rowStride, uint16_t rows)
{
    constexpr uint32_t lanes = GetVecLen() / sizeof(T);
    Reg::RegTensor<T> v;
    Reg::MaskReg all = Reg::CreateMask<T>();
    Reg::AddrReg in, out;
    for (uint16_t i = 0; i < rows; ++i) {
        in = Reg::CreateAddrReg<T>(i, rowStride);
        out = Reg::CreateAddrReg<T>(i, lanes);
        Reg::LoadAlign(v, src, in);
        Reg::Adds(v, v, (T)1, all);
        Reg::StoreAlign(dst, v, out, all);
    }
}

template <typename T>
__simd_vf__ inline void TileVF(__ubuf__ T* dst, __ubuf__ T* src, uint32_t rowStride, uint32_t colStride,
                               uint16_t rows, uint16_t cols)
{
    constexpr uint32_t lanes = GetVecLen() / sizeof(T);
    uint32_t dstRow = cols * lanes;
    Reg::RegTensor<T> v;
    Reg::MaskReg all = Reg::CreateMask<T>();
    for (uint16_t r = 0; r < rows; ++r) {
        for (uint16_t c = 0; c < cols; ++c) {
            Reg::AddrReg in = Reg::CreateAddrReg<T>(r, rowStride, c, colStride);
            Reg::AddrReg out = Reg::CreateAddrReg<T>(r, dstRow, c, lanes);
            Reg::LoadAlign(v, src, in);
            Reg::StoreAlign(dst, v, out, all);
        }
    }
}
