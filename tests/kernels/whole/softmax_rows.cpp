// Row softmax over several blocks: each block takes a run of whole rows and moves them one at a time
// through double-buffered queues (DataCopyPad in, a __VEC_SCOPE__ block computing
// y = exp(x - max(x)) / sum(exp(x - max(x))), DataCopyPad out).
#include "kernel_operator.h"
#include <cmath>
using namespace AscendC;

struct SoftmaxTiling {
    uint32_t rows;
    uint32_t cols;          // at most 8 KiB of floats per row
};

constexpr int32_t BUFFER_NUM = 2;
constexpr uint16_t VL_FLOAT = GetVecLen() / sizeof(float);

class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling& tiling)
    {
        cols = tiling.cols;
        uint32_t perBlock = CeilDivision(tiling.rows, GetBlockNum());
        firstRow = perBlock * GetBlockIdx();
        rowCount = 0;
        if (firstRow < tiling.rows) {
            rowCount = Std::min(perBlock, tiling.rows - firstRow);
        }
        xGm.SetGlobalBuffer((__gm__ float*)x);
        yGm.SetGlobalBuffer((__gm__ float*)y);
        pipe.InitBuffer(inQueue, BUFFER_NUM, cols * sizeof(float));
        pipe.InitBuffer(outQueue, BUFFER_NUM, cols * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount; ++r) {
            CopyIn(firstRow + r);
            Compute();
            CopyOut(firstRow + r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row)
    {
        LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(xLocal, xGm[row * cols], params, pad);
        inQueue.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> xLocal = inQueue.DeQue<float>();
        LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
        __ubuf__ float* srcAddr = (__ubuf__ float*)xLocal.GetPhyAddr();
        __ubuf__ float* dstAddr = (__ubuf__ float*)yLocal.GetPhyAddr();
        uint32_t count = cols;
        __VEC_SCOPE__
        {
            uint16_t repeatTimes = CeilDivision(count, VL_FLOAT);
            Reg::RegTensor<float> v, acc, rowMax, rowSum;
            Reg::MaskReg mask;
            Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
            uint32_t remaining = count;
            Reg::Duplicate(acc, -INFINITY, all);
            for (uint16_t i = 0; i < repeatTimes; i++) {
                mask = Reg::UpdateMask<float>(remaining);
                Reg::LoadAlign(v, srcAddr + i * VL_FLOAT);
                Reg::Max<float, Reg::MaskMergeMode::MERGING>(acc, acc, v, mask);
            }
            Reg::Reduce<Reg::ReduceType::MAX>(rowMax, acc, all);
            Reg::Duplicate<float, Reg::HighLowPart::LOWEST>(rowMax, rowMax, all);
            remaining = count;
            Reg::Duplicate(acc, 0.0f, all);
            for (uint16_t i = 0; i < repeatTimes; i++) {
                mask = Reg::UpdateMask<float>(remaining);
                Reg::LoadAlign(v, srcAddr + i * VL_FLOAT);
                Reg::Sub(v, v, rowMax, mask);
                Reg::Exp(v, v, mask);
                Reg::Add<float, Reg::MaskMergeMode::MERGING>(acc, acc, v, mask);
                Reg::StoreAlign(dstAddr + i * VL_FLOAT, v, mask);
            }
            Reg::Reduce<Reg::ReduceType::SUM>(rowSum, acc, all);
            Reg::Duplicate<float, Reg::HighLowPart::LOWEST>(rowSum, rowSum, all);
            Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();
            remaining = count;
            for (uint16_t i = 0; i < repeatTimes; i++) {
                mask = Reg::UpdateMask<float>(remaining);
                Reg::LoadAlign(v, dstAddr + i * VL_FLOAT);
                Reg::Div(v, v, rowSum, mask);
                Reg::StoreAlign(dstAddr + i * VL_FLOAT, v, mask);
            }
        }
        outQueue.EnQue<float>(yLocal);
        inQueue.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(uint32_t row)
    {
        LocalTensor<float> yLocal = outQueue.DeQue<float>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(float)), 0, 0, 0};
        DataCopyPad(yGm[row * cols], yLocal, params);
        outQueue.FreeTensor(yLocal);
    }

    TPipe pipe;
    TQue<TPosition::VECIN, BUFFER_NUM> inQueue;
    TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t cols;
    uint32_t firstRow;
    uint32_t rowCount;
};

extern "C" __global__ __aicore__ void softmax_rows(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SoftmaxTiling, tilingData, tiling);
    KernelSoftmax op;
    op.Init(x, y, tilingData);
    op.Process();
}
