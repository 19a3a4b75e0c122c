// An elementwise op in the shape of the public generated operators: y = min(max(x, 0), limit) * scale,
// over blocks of blockLen elements (the last one shorter), each block in tiles of tileLen.
// What it exercises: the tiling struct passed by address (`&tiling`, read through `->`), a pipe passed
// by pointer to the constructor, a class template's methods defined outside the class, members with an
// initialiser assigned once from the tiling and a local never written after its initialiser (constants,
// so they size the buffers), `IsSameType<T, ...>::value` in `if constexpr`, a run-time condition with a
// comparison of two constants in it, tensors passed by reference and assigned in the callee, and a
// `__simd_vf__` function loading with MicroAPI::DataCopy (a register load, not the data move).
#include "kernel_operator.h"
using namespace AscendC;

struct ClampScaleTiling {
    int64_t total;
    int64_t blockLen;
    int64_t tileLen;
    float limit;
    float scale;
};

template <typename T>
__simd_vf__ inline void ClampScaleVF(__ubuf__ T* dst, __ubuf__ T* src, T limit, T scale, uint32_t count,
                                     uint16_t repeat)
{
    MicroAPI::RegTensor<T> x;
    MicroAPI::MaskReg mask;
    constexpr uint32_t lanes = GetVecLen() / sizeof(T);
    for (uint16_t i = 0; i < repeat; ++i) {
        mask = MicroAPI::UpdateMask<T>(count);
        MicroAPI::DataCopy<T, MicroAPI::LoadDist::DIST_NORM>(x, src + i * lanes);
        MicroAPI::Maxs(x, x, (T)0, mask);
        MicroAPI::Mins(x, x, limit, mask);
        MicroAPI::Muls(x, x, scale, mask);
        MicroAPI::StoreAlign(dst + i * lanes, x, mask);
    }
}

template <typename T>
class ClampScale {
public:
    __aicore__ inline ClampScale(TPipe* pipe) { pipe_ = pipe; }
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ClampScaleTiling* tiling);
    __aicore__ inline void Process();

private:
    __aicore__ inline void CopyIn(int64_t offset, int64_t len, LocalTensor<T>& xLocal);
    __aicore__ inline void Compute(int64_t len, LocalTensor<T>& xLocal, LocalTensor<T>& yLocal);

    TPipe* pipe_;
    TQue<QuePosition::VECIN, 2> inQue_;
    TQue<QuePosition::VECOUT, 2> outQue_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    int64_t tileLen_ = 0;
    int64_t length_ = 0;
    T limit_ = (T)0;
    T scale_ = (T)1;
};

template <typename T>
__aicore__ inline void ClampScale<T>::Init(GM_ADDR x, GM_ADDR y, const ClampScaleTiling* tiling)
{
    tileLen_ = tiling->tileLen;
    int64_t start = tiling->blockLen * GetBlockIdx();
    length_ = tiling->total - start < tiling->blockLen ? tiling->total - start : tiling->blockLen;
    if (start >= tiling->total || tiling->tileLen == 0) {       // a block past the end, or no tiles
        length_ = 0;
    }
    if constexpr (IsSameType<T, half>::value) {
        limit_ = (T)tiling->limit;
        scale_ = (T)tiling->scale;
    } else {
        limit_ = tiling->limit;
        scale_ = tiling->scale;
    }
    xGm_.SetGlobalBuffer((__gm__ T*)x + start);
    yGm_.SetGlobalBuffer((__gm__ T*)y + start);
    int64_t tileBytes = tileLen_ * sizeof(T);
    pipe_->InitBuffer(inQue_, 2, tileBytes);
    pipe_->InitBuffer(outQue_, 2, tileBytes);
}

template <typename T>
__aicore__ inline void ClampScale<T>::CopyIn(int64_t offset, int64_t len, LocalTensor<T>& xLocal)
{
    xLocal = inQue_.template AllocTensor<T>();
    DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
    DataCopyPad(xLocal, xGm_[offset], params, {false, 0, 0, (T)0});
    inQue_.EnQue(xLocal);
}

template <typename T>
__aicore__ inline void ClampScale<T>::Compute(int64_t len, LocalTensor<T>& xLocal, LocalTensor<T>& yLocal)
{
    xLocal = inQue_.template DeQue<T>();
    yLocal = outQue_.template AllocTensor<T>();
    uint16_t repeat = CeilDivision(static_cast<uint32_t>(len), GetVecLen() / sizeof(T));
    asc_vf_call<ClampScaleVF<T>>((__ubuf__ T*)yLocal.GetPhyAddr(), (__ubuf__ T*)xLocal.GetPhyAddr(), limit_, scale_,
                                 static_cast<uint32_t>(len), repeat);
    inQue_.FreeTensor(xLocal);
    outQue_.EnQue(yLocal);
}

template <typename T>
__aicore__ inline void ClampScale<T>::Process()
{
    for (int64_t offset = 0; offset < length_; offset += tileLen_) {
        int64_t len = length_ - offset < tileLen_ ? length_ - offset : tileLen_;
        LocalTensor<T> xLocal;
        LocalTensor<T> yLocal;
        CopyIn(offset, len, xLocal);
        Compute(len, xLocal, yLocal);
        yLocal = outQue_.template DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[offset], yLocal, params);
        outQue_.FreeTensor(yLocal);
    }
}

template <typename T>
__global__ __aicore__ void clamp_scale(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    if (g_coreType == AscendC::AIC) {
        return;
    }
    REGISTER_TILING_DEFAULT(ClampScaleTiling);
    GET_TILING_DATA_WITH_STRUCT(ClampScaleTiling, tilingData, tiling);
    TPipe pipe;
    ClampScale<T> op(&pipe);
    op.Init(x, y, &tilingData);
    op.Process();
}
