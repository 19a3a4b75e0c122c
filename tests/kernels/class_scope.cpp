// A __VEC_SCOPE__ block in a method of a class template, as vendor kernels write them: the block's
// pointers come from `auto` locals initialised by casts of GetPhyAddr(), and its index register's
// type is a member alias chosen by a comparison (std::conditional_t<sizeof(T) <= 2, ...>).
// dst[k] = src[k] + k % lanes for k < count, wrapping in T.
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class LaneOffset {
public:
    using IndexType = std::conditional_t<sizeof(T) <= sizeof(int16_t), int16_t, int32_t>;

    __aicore__ inline void Process(LocalTensor<T>& dst, LocalTensor<T>& src, uint32_t count)
    {
        auto dstAddr = (__ubuf__ T*)dst.GetPhyAddr();
        auto srcAddr = reinterpret_cast<__ubuf__ T*>(src.GetPhyAddr());
        constexpr uint32_t lanes = GetVecLen() / sizeof(T);
        uint16_t chunks = (count + lanes - 1) / lanes;
        __VEC_SCOPE__
        {
            Reg::RegTensor<IndexType> index;
            Reg::RegTensor<T> x;
            Reg::Arange(index, 0);
            for (uint16_t i = 0; i < chunks; ++i) {
                Reg::MaskReg mask = Reg::UpdateMask<T>(count);
                Reg::LoadAlign(x, srcAddr + i * lanes);
                Reg::Add(x, x, index, mask);
                Reg::StoreAlign(dstAddr + i * lanes, x, mask);
            }
        }
    }
};
