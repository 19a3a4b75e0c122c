// Row-wise softmax over rows of `cols` elements (a multiple of the vector length), written the way
// public arch35 kernels write their vector functions: a tiling struct, constexpr lane counts, an
// inline helper, masks from UpdateMask, reductions broadcast back with Duplicate. The translation
// benchmark (bench/cpp_translate.py) times its translation; it is ~100 lines like a real kernel.
#include "kernel_operator.h"

namespace bench_softmax {
using namespace AscendC;

struct SoftmaxTiling {
    uint32_t rows;
    uint32_t cols;
};

template <typename T>
constexpr uint32_t LanesOf()
{
    return GetVecLen() / sizeof(T);
}

// max over one row: the running maximum stays in lane 0 of `acc`
template <typename T>
__simd_callee__ inline void RowMax(Reg::RegTensor<T>& acc, __ubuf__ T* row, uint16_t chunks, Reg::MaskReg& all)
{
    Reg::RegTensor<T> x, m;
    Reg::LoadAlign(acc, row);
    for (uint16_t k = 1; k < chunks; ++k) {
        Reg::LoadAlign(x, row + k * LanesOf<T>());
        Reg::Max(acc, acc, x, all);
    }
    Reg::Reduce<Reg::ReduceType::MAX>(m, acc, all);
    Reg::Duplicate(acc, m, all);
}

// exp(x - max) into dst, returning the row's sum broadcast in `sum`
template <typename T>
__simd_callee__ inline void ExpAndSum(Reg::RegTensor<T>& sum, __ubuf__ T* dst, __ubuf__ T* row,
                                      Reg::RegTensor<T>& max, uint16_t chunks, Reg::MaskReg& all)
{
    Reg::RegTensor<T> x, e, s;
    Reg::Duplicate(sum, (T)0, all);
    for (uint16_t k = 0; k < chunks; ++k) {
        Reg::LoadAlign(x, row + k * LanesOf<T>());
        Reg::Sub(x, x, max, all);
        Reg::Exp(e, x, all);
        Reg::Add(sum, sum, e, all);
        Reg::StoreAlign(dst + k * LanesOf<T>(), e, all);
    }
    Reg::Reduce<Reg::ReduceType::SUM>(s, sum, all);
    Reg::Duplicate(sum, s, all);
}

template <typename T>
__simd_vf__ inline void SoftmaxRowsVF(__ubuf__ T* dst, __ubuf__ T* src, uint32_t rows, uint32_t cols)
{
    constexpr uint32_t lanes = LanesOf<T>();
    Reg::MaskReg all = Reg::CreateMask<T, Reg::MaskPattern::ALL>();
    Reg::RegTensor<T> max, sum, y;
    uint16_t chunks = cols / lanes;
    for (uint32_t r = 0; r < rows; ++r) {
        __ubuf__ T* row = src + r * cols;
        __ubuf__ T* out = dst + r * cols;
        RowMax(max, row, chunks, all);
        ExpAndSum(sum, out, row, max, chunks, all);
        Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();   // out is read back below
        for (uint16_t k = 0; k < chunks; ++k) {
            Reg::LoadAlign(y, out + k * lanes);
            Reg::Div(y, y, sum, all);
            Reg::StoreAlign(out + k * lanes, y, all);
        }
    }
}

template <typename T>
class KernelSoftmaxRows {
public:
    __aicore__ inline void Init(const SoftmaxTiling& tiling)
    {
        rows_ = tiling.rows;
        cols_ = tiling.cols;
    }
    __aicore__ inline void Compute(__ubuf__ T* dst, __ubuf__ T* src)
    {
        if (rows_ == 0) {
            return;
        }
        SoftmaxRowsVF<T>(dst, src, rows_, cols_);
    }

private:
    uint32_t rows_ = 0;
    uint32_t cols_ = 0;
};

}  // namespace bench_softmax
