// Static tensor programming in the style of the vendor's basic examples: a class template, a
// LocalMemAllocator instead of queues, a vector function called with asc_vf_call, y = x * scale + 1.
#include "kernel_operator.h"

template <typename T>
__simd_vf__ inline void ScaleAddVF(__ubuf__ T* yAddr, __ubuf__ T* xAddr, T scale, uint16_t repeats)
{
    constexpr uint32_t perRepeat = AscendC::GetVecLen() / sizeof(T);
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<T, AscendC::Reg::MaskPattern::ALL>();
    AscendC::Reg::RegTensor<T> v;
    for (uint16_t i = 0; i < repeats; ++i) {
        AscendC::Reg::LoadAlign(v, xAddr + i * perRepeat);
        AscendC::Reg::Muls(v, v, scale, mask);
        AscendC::Reg::Adds(v, v, (T)1, mask);
        AscendC::Reg::StoreAlign(yAddr + i * perRepeat, v, mask);
    }
}

template <typename T, uint32_t perBlock>
class Kernel {
public:
    __aicore__ inline void Init(__gm__ uint8_t* x, __gm__ uint8_t* y, T scale)
    {
        this->scale = scale;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + AscendC::GetBlockIdx() * perBlock);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + AscendC::GetBlockIdx() * perBlock);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
        AscendC::LocalTensor<T> xLocal = ubAllocator.Alloc<T, perBlock>();
        AscendC::LocalTensor<T> yLocal = ubAllocator.Alloc<T, perBlock>();
        AscendC::DataCopy(xLocal, xGm, perBlock);
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
        constexpr uint16_t repeats = perBlock * sizeof(T) / AscendC::GetVecLen();
        asc_vf_call<ScaleAddVF<T>>(reinterpret_cast<__ubuf__ T*>(yLocal.GetPhyAddr()),
                                   reinterpret_cast<__ubuf__ T*>(xLocal.GetPhyAddr()), scale, repeats);
        AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
        AscendC::DataCopy(yGm, yLocal, perBlock);
    }

private:
    T scale;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
};

template <uint32_t perBlock>
__global__ __vector__ void scale_add(__gm__ uint8_t* x, __gm__ uint8_t* y, float scale)
{
    AscendC::InitSocState();
    Kernel<float, perBlock> kernel;
    kernel.Init(x, y, scale);
    kernel.Process();
    AscendC::PipeBarrier<PIPE_ALL>();
}
