// An elementwise add over several blocks, in the style of the public ops: each block takes an equal
// share of the elements (the last share shorter), moves it through double-buffered queues in tiles of
// tileLength elements, and the last, shorter tile goes by DataCopyPad.
#include "kernel_operator.h"
using namespace AscendC;

struct AddTiling {
    uint32_t totalLength;   // elements over all blocks
    uint32_t tileLength;    // elements per tile, a multiple of 8 (32 bytes of float)
};

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
__simd_vf__ inline void AddVF(__ubuf__ T* z, __ubuf__ T* x, __ubuf__ T* y, uint32_t count)
{
    constexpr uint32_t perRepeat = GetVecLen() / sizeof(T);
    uint16_t repeats = CeilDivision(count, perRepeat);
    Reg::RegTensor<T> a, b;
    Reg::MaskReg mask;
    for (uint16_t i = 0; i < repeats; ++i) {
        mask = Reg::UpdateMask<T>(count);
        Reg::LoadAlign(a, x + i * perRepeat);
        Reg::LoadAlign(b, y + i * perRepeat);
        Reg::Add(a, a, b, mask);
        Reg::StoreAlign(z + i * perRepeat, a, mask);
    }
}

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddTiling& tiling)
    {
        uint32_t perBlock = CeilDivision(tiling.totalLength, GetBlockNum());
        uint32_t start = perBlock * GetBlockIdx();
        count = 0;
        if (start < tiling.totalLength) {
            count = Std::min(perBlock, tiling.totalLength - start);
        }
        tileLength = tiling.tileLength;
        xGm.SetGlobalBuffer((__gm__ float*)x + start, count);
        yGm.SetGlobalBuffer((__gm__ float*)y + start, count);
        zGm.SetGlobalBuffer((__gm__ float*)z + start, count);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        uint32_t tiles = count / tileLength;
        for (uint32_t t = 0; t < tiles; ++t) {
            CopyIn(t * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(t * tileLength, tileLength);
        }
        uint32_t tail = count % tileLength;
        if (tail > 0) {
            CopyIn(tiles * tileLength, tail);
            Compute(tail);
            CopyOut(tiles * tileLength, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t n)
    {
        LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
        LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0};
        DataCopyPad(xLocal, xGm[offset], params, pad);
        DataCopyPad(yLocal, yGm[offset], params, pad);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<float> xLocal = inQueueX.DeQue<float>();
        LocalTensor<float> yLocal = inQueueY.DeQue<float>();
        LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
        AddVF<float>((__ubuf__ float*)zLocal.GetPhyAddr(), (__ubuf__ float*)xLocal.GetPhyAddr(),
                     (__ubuf__ float*)yLocal.GetPhyAddr(), n);
        outQueueZ.EnQue<float>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t n)
    {
        LocalTensor<float> zLocal = outQueueZ.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        DataCopyPad(zGm[offset], zLocal, params);
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<float> xGm, yGm, zGm;
    uint32_t count;
    uint32_t tileLength;
};

extern "C" __global__ __aicore__ void add_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(AddTiling, tilingData, tiling);
    KernelAdd op;
    op.Init(x, y, z, tilingData);
    op.Process();
}
