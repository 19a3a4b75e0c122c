// A kernel class whose constructor sets its members in an initialiser list: a tile length that sizes the
// queue (a constant there), a scale, and each block's offset (a run-time value). y = x * scale, one tile
// of `length` floats per block.
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void ScaleVF(__ubuf__ float* y, __ubuf__ float* x, float scale, uint32_t count)
{
    constexpr uint32_t perRepeat = GetVecLen() / sizeof(float);
    uint16_t repeats = CeilDivision(count, perRepeat);
    Reg::RegTensor<float> v;
    Reg::MaskReg mask;
    for (uint16_t i = 0; i < repeats; ++i) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(v, x + i * perRepeat);
        Reg::Muls(v, v, scale, mask);
        Reg::StoreAlign(y + i * perRepeat, v, mask);
    }
}

class KernelScale {
public:
    __aicore__ inline KernelScale(uint32_t length, float scale)
        : length(length), scale(scale * 2), offset(GetBlockIdx() * length)
    {
        pipe.InitBuffer(inQueue, 1, this->length * sizeof(float));
        pipe.InitBuffer(outQueue, 1, this->length * sizeof(float));
    }
    __aicore__ inline void Process(GM_ADDR x, GM_ADDR y)
    {
        xGm.SetGlobalBuffer((__gm__ float*)x + offset);
        yGm.SetGlobalBuffer((__gm__ float*)y + offset);
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopy(xLocal, xGm, length);
        inQueue.EnQue(xLocal);
        xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        ScaleVF((__ubuf__ float*)yLocal.GetPhyAddr(), (__ubuf__ float*)xLocal.GetPhyAddr(), scale, length);
        outQueue.EnQue(yLocal);
        inQueue.FreeTensor(xLocal);
        yLocal = outQueue.DeQue<float>();
        DataCopy(yGm, yLocal, length);
        outQueue.FreeTensor(yLocal);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t length;
    float scale;
    uint32_t offset;
};

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR y, float scale)
{
    KernelScale op(128, scale);         // 128 floats: two vectors
    op.Process(x, y);
}
