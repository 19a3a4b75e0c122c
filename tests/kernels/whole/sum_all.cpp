// A sum over several blocks: each block adds up its share of x and writes the partial sum to its slot
// of the workspace; after SyncAll, block 0 adds the partial sums and writes y[0].
#include "kernel_operator.h"
using namespace AscendC;

struct SumTiling {
    uint32_t totalLength;   // elements of x, a multiple of the block count
};

constexpr uint16_t VL_FLOAT = GetVecLen() / sizeof(float);

// the sum of `count` floats at src, stored as one float at dst
__simd_vf__ inline void SumVF(__ubuf__ float* dst, __ubuf__ float* src, uint32_t count)
{
    uint16_t repeats = CeilDivision(count, VL_FLOAT);
    Reg::RegTensor<float> v, acc, total;
    Reg::MaskReg mask;
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    Reg::MaskReg first = Reg::CreateMask<float, Reg::MaskPattern::VL1>();
    Reg::Duplicate(acc, 0.0f, all);
    for (uint16_t i = 0; i < repeats; i++) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(v, src + i * VL_FLOAT);
        Reg::Add<float, Reg::MaskMergeMode::MERGING>(acc, acc, v, mask);
    }
    Reg::Reduce<Reg::ReduceType::SUM>(total, acc, all);
    Reg::StoreAlign(dst, total, first);
}

extern "C" __global__ __aicore__ void sum_all(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SumTiling, tilingData, tiling);
    uint32_t share = tilingData.totalLength / GetBlockNum();
    uint32_t blockIdx = GetBlockIdx();
    GlobalTensor<float> xGm, yGm, partGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + blockIdx * share);
    yGm.SetGlobalBuffer((__gm__ float*)y);
    partGm.SetGlobalBuffer((__gm__ float*)workspace);

    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, sumBuf;
    pipe.InitBuffer(inBuf, tilingData.totalLength * sizeof(float));
    pipe.InitBuffer(sumBuf, 32);
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> sum = sumBuf.Get<float>();

    DataCopyPadExtParams<float> noPad{false, 0, 0, 0.0f};
    DataCopyPad(in, xGm, DataCopyExtParams{1, static_cast<uint32_t>(share * sizeof(float)), 0, 0, 0}, noPad);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SumVF((__ubuf__ float*)sum.GetPhyAddr(), (__ubuf__ float*)in.GetPhyAddr(), share);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(partGm[blockIdx], sum, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    SyncAll();

    if (blockIdx == 0) {
        uint32_t blocks = GetBlockNum();
        DataCopyPad(in, partGm, DataCopyExtParams{1, static_cast<uint32_t>(blocks * sizeof(float)), 0, 0, 0}, noPad);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
        SumVF((__ubuf__ float*)sum.GetPhyAddr(), (__ubuf__ float*)in.GetPhyAddr(), blocks);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
        DataCopyPad(yGm, sum, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
    }
}
