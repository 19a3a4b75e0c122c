// Reads of UB bytes nothing wrote, planted in a small static-tensor kernel (y = x + 1 over the first
// `lanes` of 64 floats), each case in its own entry beside the right one.
#include "kernel_operator.h"

__simd_vf__ inline void AddOneVF(__ubuf__ float* yAddr, __ubuf__ float* xAddr, uint32_t lanes)
{
    uint32_t count = lanes;
    AscendC::Reg::MaskReg mask = AscendC::Reg::UpdateMask<float>(count);
    AscendC::Reg::RegTensor<float> v;
    AscendC::Reg::LoadAlign(v, xAddr);
    AscendC::Reg::Adds(v, v, 1.0f, mask);
    AscendC::Reg::StoreAlign(yAddr, v, mask);
}

// copied: how many floats DataCopy brings into xLocal first (0: none); lanes: the mask's active lanes
template <int copied, int lanes>
__global__ __aicore__ void add_one(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<float> xLocal = ubAllocator.Alloc<float, 64>();
    AscendC::LocalTensor<float> yLocal = ubAllocator.Alloc<float, 64>();
    if constexpr (copied > 0) {
        AscendC::DataCopy(xLocal, xGm, copied);
    }
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
    AddOneVF(reinterpret_cast<__ubuf__ float*>(yLocal.GetPhyAddr()),
             reinterpret_cast<__ubuf__ float*>(xLocal.GetPhyAddr()), lanes);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(yGm, yLocal, 64);
}

// A scalar read of a tensor element nothing wrote (GetValue), after `copied` floats came in.
template <int copied>
__global__ __aicore__ void first_value(__gm__ uint8_t* x, __gm__ uint8_t* y)
{
    AscendC::GlobalTensor<float> xGm;
    AscendC::GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x));
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y));
    AscendC::LocalMemAllocator<AscendC::Hardware::UB> ubAllocator;
    AscendC::LocalTensor<float> xLocal = ubAllocator.Alloc<float, 64>();
    if constexpr (copied > 0) {
        AscendC::DataCopy(xLocal, xGm, copied);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    float first = xLocal.GetValue(40);
    yGm.SetValue(0, first);
}
