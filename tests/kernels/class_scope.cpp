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

// The block takes its UB addresses from the tensors themselves: GetPhyAddr() inside the block, of
// LocalTensors the method holds (the offset form: one 32-byte block in). out[32 / sizeof(T) + k] = 2 * in[k].
template <typename T>
class Doubler {
public:
    __aicore__ inline void Compute(uint16_t chunks)
    {
        LocalTensor<T> in = inQueue_.template DeQue<T>();
        LocalTensor<T> out = outQueue_.template AllocTensor<T>();
        __VEC_SCOPE__
        {
            auto src = (__ubuf__ T*)in.GetPhyAddr();
            __ubuf__ T* dst = (__ubuf__ T*)out.GetPhyAddr(32 / sizeof(T));
            constexpr uint32_t lanes = GetVecLen() / sizeof(T);
            Reg::RegTensor<T> x;
            Reg::MaskReg all = Reg::CreateMask<T>();
            for (uint16_t i = 0; i < chunks; ++i) {
                Reg::LoadAlign(x, src + i * lanes);
                Reg::Add(x, x, x, all);
                Reg::StoreAlign(dst + i * lanes, x, all);
            }
        }
    }

private:
    TQue<TPosition::VECIN, 1> inQueue_;
    TQue<TPosition::VECOUT, 1> outQueue_;
};
