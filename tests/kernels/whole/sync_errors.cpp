// Synchronisation bugs planted in a small static-tensor kernel (y = x + 1 over 64 floats), each in its
// own entry, beside the right one: a data move read with no wait, a WaitFlag with no SetFlag.
#include "kernel_operator.h"

__simd_vf__ inline void AddOneVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr)
{
    AscendC::Reg::MaskReg mask = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::LoadAlign(v, xAddr);
    AscendC::Reg::Adds(v, v, 1.0f, mask);
    AscendC::Reg::StoreAlign(yAddr, v, mask);
}

// wait: 0 no wait after the data move in, 1 SetFlag/WaitFlag, 2 WaitFlag alone
template <int wait>
__global__ __aicore__ void add_one(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<float> xLocal = ubAllocator.Alloc<float, 64>();
    AscendC::LocalTensor<float> yLocal = ubAllocator.Alloc<float, 64>();
    AscendC::DataCopy(xLocal, xGm, 64);
    if constexpr (wait == 1) {
        AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    if constexpr (wait >= 1) {
        AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    }
    AddOneVF(reinterpret_cast<__ubuf__ float*>(yLocal.GetPhyAddr()),
             reinterpret_cast<__ubuf__ float*>(xLocal.GetPhyAddr()));
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, yLocal, 64);
}
