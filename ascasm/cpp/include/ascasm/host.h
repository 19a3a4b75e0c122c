// ascasm header stubs: the host-side (scalar core) parts of AscendC that kernel files hold around
// their vector functions: pipes, queues, tensors, DMA copies, synchronisation, tiling access.
// Declared only so that whole kernel files parse; the translator never translates these and
// reports a call to one inside a vector function as belonging to the host side.
#pragma once
#include "ascasm/reg_types.h"
#include "ascasm/tiling.h"
#include <limits>

enum : int32_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

namespace AscendC {
enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM, SHM = SPM,
                       TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX };
using QuePosition = TPosition;
enum class HardEvent { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V,
                       MTE3_MTE1, MTE1_MTE3, MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3,
                       S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S, MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3,
                       MTE1_FIX, FIX_MTE1, FIX_FIX, MAX };
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX, PIPE_V2 };
using TEventID = int8_t;
using event_t = int32_t;
enum class CacheMode { CACHE_MODE_NORMAL, CACHE_MODE_DISABLE, CACHE_MODE_LAST };

template <typename T> class GlobalTensor;
template <typename T>
class LocalTensor {
public:
    using PrimType = T;
    __aicore__ inline LocalTensor() {}
    __aicore__ inline uint64_t GetPhyAddr() const;
    __aicore__ inline uint64_t GetPhyAddr(uint32_t offset) const;
    __aicore__ inline uint32_t GetSize() const;
    __aicore__ inline uint32_t GetLength() const;
    __aicore__ inline void SetSize(uint32_t size);
    __aicore__ inline T GetValue(uint32_t index) const;
    __aicore__ inline void SetValue(uint32_t index, T value);
    __aicore__ inline T& operator()(uint32_t index) const;
    __aicore__ inline LocalTensor operator[](uint32_t offset) const;
    template <typename U> __aicore__ inline LocalTensor<U> ReinterpretCast() const;
    __aicore__ inline TPosition GetPosition() const;
    __aicore__ inline void SetAddrWithOffset(LocalTensor<T>& src, uint32_t offset);
};
template <typename T>
class GlobalTensor {
public:
    using PrimType = T;
    __aicore__ inline GlobalTensor() {}
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize);
    __aicore__ inline void SetGlobalBuffer(__gm__ T* buffer);
    __aicore__ inline __gm__ T* GetPhyAddr() const;
    __aicore__ inline __gm__ T* GetPhyAddr(uint64_t offset) const;
    __aicore__ inline T GetValue(uint64_t offset) const;
    __aicore__ inline void SetValue(uint64_t offset, T value);
    __aicore__ inline uint64_t GetSize() const;
    __aicore__ inline GlobalTensor operator[](uint64_t offset) const;
    __aicore__ inline void SetL2CacheHint(CacheMode mode);
};

// Static tensor programming: LocalTensors placed in a local memory without queues.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };
template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
public:
    __aicore__ inline LocalMemAllocator() {}
    __aicore__ inline uint32_t GetCurAddr() const;
    template <class DataType, uint32_t tileSize> __aicore__ inline LocalTensor<DataType> Alloc();
    template <TPosition pos, class DataType, uint32_t tileSize> __aicore__ inline LocalTensor<DataType> Alloc();
    template <class DataType> __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize);
    template <TPosition pos, class DataType> __aicore__ inline LocalTensor<DataType> Alloc(uint32_t tileSize);
};
__aicore__ inline void InitSocState();

struct TBufHandle {};
template <TPosition pos = TPosition::VECCALC>
class TBuf {
public:
    template <typename T> __aicore__ inline LocalTensor<T> Get() const;
    template <typename T> __aicore__ inline LocalTensor<T> Get(uint32_t len) const;
    template <typename T> __aicore__ inline LocalTensor<T> GetWithOffset(uint32_t size, uint32_t offset) const;
};
template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue {
public:
    template <typename T> __aicore__ inline LocalTensor<T> AllocTensor();
    template <typename T> __aicore__ inline void FreeTensor(LocalTensor<T>& tensor);
    template <typename T> __aicore__ inline void EnQue(const LocalTensor<T>& tensor);
    template <typename T> __aicore__ inline LocalTensor<T> DeQue();
    __aicore__ inline bool VacantInQue() const;
    __aicore__ inline bool HasTensorInQue() const;
};
template <TPosition src, TPosition dst, int32_t depth = 1, auto mask = 0>
class TQueBind : public TQue<src, depth, mask> {};
class TPipe {
public:
    __aicore__ inline TPipe() {}
    template <class Q> __aicore__ inline void InitBuffer(Q& que, uint8_t num, uint32_t len);
    template <TPosition pos> __aicore__ inline void InitBuffer(TBuf<pos>& buf, uint32_t len);
    template <HardEvent evt> __aicore__ inline TEventID FetchEventID();
    __aicore__ inline TEventID FetchEventID(HardEvent evt);
    template <HardEvent evt> __aicore__ inline TEventID AllocEventID();
    template <HardEvent evt> __aicore__ inline void ReleaseEventID(TEventID id);
    __aicore__ inline void Reset();
    __aicore__ inline void Destroy();
};
__aicore__ inline TPipe* GetTPipePtr();

struct DataCopyParams {
    uint16_t blockCount = 1; uint16_t blockLen = 0; uint16_t srcStride = 0; uint16_t dstStride = 0;
};
struct DataCopyExtParams {
    uint16_t blockCount = 1; uint32_t blockLen = 0; uint32_t srcStride = 0; uint32_t dstStride = 0; uint32_t rsv = 0;
};
template <typename T>
struct DataCopyPadExtParams {
    bool isPad = false; uint8_t leftPadding = 0; uint8_t rightPadding = 0; T paddingValue = T();
};
struct DataCopyPadParams {
    bool isPad = false; uint8_t leftPadding = 0; uint8_t rightPadding = 0; uint64_t paddingValue = 0;
};
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint32_t count);
template <typename T> __aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count);
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t count);
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params);
template <typename T> __aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params);
template <typename T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params);
template <typename T, typename P = DataCopyPadExtParams<T>>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params, const P& pad);
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params);
template <typename T>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& params, const DataCopyPadParams& pad);
template <typename T>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& params);
// Multi-dimensional DMA copies (up to `dim` nested loops with per-loop strides and padding).
template <uint8_t dim> struct MultiCopyLoopInfo {
    uint64_t loopSrcStride[dim] = {}; uint32_t loopDstStride[dim] = {}; uint32_t loopSize[dim] = {};
    uint8_t loopLpSize[dim] = {}; uint8_t loopRpSize[dim] = {};
};
template <typename T, uint8_t dim> struct MultiCopyParams {
    MultiCopyLoopInfo<dim> loopInfo;
    T constantValue = T();
};
struct MultiCopyConfig { bool isNddma = false; uint8_t leftPad = 0; uint8_t rightPad = 0; bool isReverse = false; };
inline constexpr MultiCopyConfig kDefaultMultiCopyConfig = {};
template <typename T, uint8_t dim, const MultiCopyConfig& config = kDefaultMultiCopyConfig>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const MultiCopyParams<T, dim>& params);
// PaddingMode::Compact packs the rows of a padded copy without their padding.
enum class PaddingMode { Normal, Compact };
template <typename T, PaddingMode mode>
__aicore__ inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params,
                                   const DataCopyPadExtParams<T>& pad);
template <typename T, PaddingMode mode>
__aicore__ inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& params);

template <HardEvent evt> __aicore__ inline void SetFlag(int32_t eventId);
template <HardEvent evt> __aicore__ inline void WaitFlag(int32_t eventId);
template <pipe_t pipe> __aicore__ inline void PipeBarrier();
__aicore__ inline void SyncAll();
template <typename T> __aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& value, int32_t count);
__aicore__ inline int64_t GetBlockIdx();
__aicore__ inline int64_t GetBlockNum();
__aicore__ inline int64_t GetSubBlockIdx();
__aicore__ inline int64_t GetTaskRation();
// Ctrl register writes before a vector function (e.g. the saturation switch); kept as a harness option.
template <int8_t startBit, int8_t endBit> __aicore__ inline void SetCtrlSpr(int64_t value);
template <int8_t startBit, int8_t endBit> __aicore__ inline int64_t GetCtrlSpr();
__aicore__ inline void SetAtomicAdd();
template <typename T> __aicore__ inline void SetAtomicAdd();
__aicore__ inline void SetAtomicNone();
template <typename T> __aicore__ inline T ScalarGetSFFValue(uint64_t value);
template <typename T, typename U> __aicore__ inline T ScalarCast(U value);
template <typename T> __aicore__ inline T Abs(T value);
// The magic number and shift that turn an unsigned division by `divisor` into a multiply and a shift
// (T: uint32_t or uint64_t); computed on the scalar side before a vector function takes them.
template <typename T> __aicore__ inline void GetUintDivMagicAndShift(T& magic, T& shift, T divisor);

// Data movement loop modes (DataCopyPad with outer loops).
enum class DataCopyMVType { OUT_TO_UB, UB_TO_OUT };
struct LoopModeParams {
    uint32_t loop1Size = 0; uint32_t loop2Size = 0;
    uint64_t loop1SrcStride = 0; uint64_t loop1DstStride = 0; uint64_t loop2SrcStride = 0; uint64_t loop2DstStride = 0;
};
__aicore__ inline void SetLoopModePara(const LoopModeParams& params, DataCopyMVType type);
__aicore__ inline void ResetLoopModePara(DataCopyMVType type);

template <typename T> struct NumericLimits {
    __aicore__ static constexpr T Max() { return std::numeric_limits<T>::max(); }
    __aicore__ static constexpr T Min() { return std::numeric_limits<T>::min(); }
    __aicore__ static constexpr T Lowest() { return std::numeric_limits<T>::lowest(); }
    __aicore__ static constexpr T Infinity() { return std::numeric_limits<T>::infinity(); }
    __aicore__ static constexpr T NegativeInfinity() { return -std::numeric_limits<T>::infinity(); }
    __aicore__ static constexpr T QuietNaN() { return std::numeric_limits<T>::quiet_NaN(); }
};

// Reduction patterns of the host-side tensor ReduceSum/ReduceMax (A: kept axis, R: reduced axis).
namespace Pattern { namespace Reduce { struct AR {}; struct RA {}; struct ARA {}; struct RAR {}; } }

// Host-side tensor operations (on LocalTensors) that kernel files call around their vector
// functions.  One catch-all declaration per name: up to two type options, then value options.
// The vector mask's mode for the level-0 API: SetVectorMask<T, MaskMode::COUNTER>(n).
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
template <typename T, MaskMode mode = MaskMode::NORMAL> __aicore__ inline void SetVectorMask(uint64_t len);
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ inline void SetVectorMask(uint64_t maskHigh, uint64_t maskLow);
#define ASCASM_HOST_OP(name) \
    template <typename T = void, typename P = void, auto... options, typename... Args> \
    __aicore__ inline void name(Args&&... args);
ASCASM_HOST_OP(Add) ASCASM_HOST_OP(Sub) ASCASM_HOST_OP(Mul) ASCASM_HOST_OP(Div) ASCASM_HOST_OP(Max)
ASCASM_HOST_OP(Min) ASCASM_HOST_OP(Adds) ASCASM_HOST_OP(Subs) ASCASM_HOST_OP(Muls) ASCASM_HOST_OP(Divs)
ASCASM_HOST_OP(Maxs) ASCASM_HOST_OP(Mins) ASCASM_HOST_OP(Exp) ASCASM_HOST_OP(Ln) ASCASM_HOST_OP(Log)
ASCASM_HOST_OP(Sqrt) ASCASM_HOST_OP(Rsqrt) ASCASM_HOST_OP(Reciprocal) ASCASM_HOST_OP(Relu)
ASCASM_HOST_OP(LeakyRelu) ASCASM_HOST_OP(Not) ASCASM_HOST_OP(And) ASCASM_HOST_OP(Or) ASCASM_HOST_OP(Xor)
ASCASM_HOST_OP(ShiftLeft) ASCASM_HOST_OP(ShiftRight) ASCASM_HOST_OP(Cast) ASCASM_HOST_OP(Compare)
ASCASM_HOST_OP(CompareScalar) ASCASM_HOST_OP(Select) ASCASM_HOST_OP(ReduceSum) ASCASM_HOST_OP(ReduceMax)
ASCASM_HOST_OP(ReduceMin) ASCASM_HOST_OP(WholeReduceSum) ASCASM_HOST_OP(WholeReduceMax)
ASCASM_HOST_OP(WholeReduceMin) ASCASM_HOST_OP(BlockReduceSum) ASCASM_HOST_OP(BlockReduceMax)
ASCASM_HOST_OP(BlockReduceMin) ASCASM_HOST_OP(Brcb) ASCASM_HOST_OP(Gather) ASCASM_HOST_OP(GatherMask)
ASCASM_HOST_OP(Transpose) ASCASM_HOST_OP(TransDataTo5HD) ASCASM_HOST_OP(Copy) ASCASM_HOST_OP(Axpy)
ASCASM_HOST_OP(Sort) ASCASM_HOST_OP(Sort32) ASCASM_HOST_OP(Concat) ASCASM_HOST_OP(Extract) ASCASM_HOST_OP(TopK)
ASCASM_HOST_OP(Sign) ASCASM_HOST_OP(Floor) ASCASM_HOST_OP(Ceil) ASCASM_HOST_OP(Round) ASCASM_HOST_OP(Trunc)
ASCASM_HOST_OP(ArithProgression) ASCASM_HOST_OP(CreateVecIndex)
ASCASM_HOST_OP(SetMaskNorm) ASCASM_HOST_OP(SetMaskCount) ASCASM_HOST_OP(ResetMask) ASCASM_HOST_OP(LayerNorm)
ASCASM_HOST_OP(PairReduceSum) ASCASM_HOST_OP(FusedMulAdd) ASCASM_HOST_OP(MulAddDst) ASCASM_HOST_OP(Fill)
ASCASM_HOST_OP(CrossCoreSetFlag) ASCASM_HOST_OP(CrossCoreWaitFlag) ASCASM_HOST_OP(DataCacheCleanAndInvalid)
ASCASM_HOST_OP(InitConstValue) ASCASM_HOST_OP(SetSysWorkspace)
#undef ASCASM_HOST_OP
// The math library's operations take the element type, then value options (e.g. a config).
#define ASCASM_HOST_MATH(name) \
    template <typename T = void, auto... options, typename... Args> \
    __aicore__ inline void name(Args&&... args);
ASCASM_HOST_MATH(Power) ASCASM_HOST_MATH(Erf) ASCASM_HOST_MATH(Erfc) ASCASM_HOST_MATH(Sin) ASCASM_HOST_MATH(Cos)
ASCASM_HOST_MATH(Tanh) ASCASM_HOST_MATH(Atan) ASCASM_HOST_MATH(Fmod) ASCASM_HOST_MATH(Truncate)
ASCASM_HOST_MATH(Ands) ASCASM_HOST_MATH(Ors)
#undef ASCASM_HOST_MATH
// Their configurations, with the algorithms public kernels select.
struct DivConfig { DivAlgo algo = DivAlgo::INTRINSIC; };
struct SqrtConfig { SqrtAlgo algo = SqrtAlgo::INTRINSIC; };
enum class PowerAlgo { DOUBLE_FLOAT_TECH };
struct PowerConfig { PowerAlgo algo; };
enum class SinAlgo { RADIAN_REDUCTION };
struct SinConfig { SinAlgo algo; };
enum class CosAlgo { RADIAN_REDUCTION };
struct CosConfig { CosAlgo algo; };
enum class AtanAlgo { POLYNOMIAL_APPROXIMATION };
struct AtanConfig { AtanAlgo algo; };
enum class ErfAlgo { SUBSECTION_POLYNOMIAL_APPROXIMATION };
struct ErfConfig { ErfAlgo algo; };
enum class FmodAlgo { ITERATION_COMPENSATION };
struct FmodConfig { FmodAlgo algo; uint32_t iterationNum = 0; };
// Select's source modes.
enum class SELMODE { VSEL_CMPMASK_SPR, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
template <typename T> __aicore__ inline int64_t ScalarCountLeadingZero(T value);
template <int countValue, typename T> __aicore__ inline int64_t ScalarGetCountOfValue(T value);
__aicore__ inline float ToFloat(half value);
__aicore__ inline float ToFloat(bfloat16_t value);
__aicore__ inline bfloat16_t ToBfloat16(float value);
__aicore__ inline GM_ADDR GetUserWorkspace(GM_ADDR workspace);
enum CrossCoreSyncMode { SYNC_MODE0, SYNC_MODE1, SYNC_MODE2, SYNC_MODE4 = 4, AIC_SYNC_AIV_MODE = 4 };
}  // namespace AscendC
// pipe_t's names are global in the vendor's headers (PipeBarrier<PIPE_ALL>())
using AscendC::pipe_t; using AscendC::PIPE_S; using AscendC::PIPE_V; using AscendC::PIPE_M; using AscendC::PIPE_MTE1;
using AscendC::PIPE_MTE2; using AscendC::PIPE_MTE3; using AscendC::PIPE_ALL; using AscendC::PIPE_FIX; using AscendC::PIPE_V2;

// Tiling data: a kernel reads its tiling struct from a GM pointer. A whole kernel's translation gives
// `__ascasm_tiling<T>(tiling)` the values of --tiling (ascasm/cpp/tiling.py) and `__ascasm_tiling_key_is(K)`
// the comparison with --tiling-key. GET_TILING_DATA reads the struct REGISTER_TILING_DEFAULT names in the
// kernel (a local alias that hides the global one).
template <typename T> __aicore__ T __ascasm_tiling(const void* tiling);
__aicore__ bool __ascasm_tiling_key_is(uint64_t key);
#ifdef ASCASM_TILING_HEADER
// A kernel whose tiling struct its host code defines (BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF in the
// op_host header, REGISTER_TILING_DATA_CLASS(Op, Struct) in namespace optiling): the vendor's build makes
// the kernel's struct from those definitions, and GET_TILING_DATA reads it. -D ASCASM_TILING_HEADER='"PATH"'
// names that header: included here, its definitions declare the struct, and the registration makes it the
// one GET_TILING_DATA reads (its name also visible outside namespace optiling, as the kernel code spells it).
#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, field) type field;
#define TILING_DATA_FIELD_DEF_ARR(type, count, field) type field[count];
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(op, name) \
    } using __ascasm_registered_tiling = optiling::name; using optiling::name; namespace optiling {
#include ASCASM_TILING_HEADER
#else
using __ascasm_registered_tiling = __ascasm_tiling_data;
#endif
#define GET_TILING_DATA(name, tiling) \
    __ascasm_registered_tiling name = __ascasm_tiling<__ascasm_registered_tiling>(tiling)
#define GET_TILING_DATA_WITH_STRUCT(type, name, tiling) type name = __ascasm_tiling<type>(tiling)
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, name, tiling) const type* name = nullptr
#define REGISTER_TILING_DEFAULT(type) using __ascasm_registered_tiling = type
#define REGISTER_TILING_FOR_TILINGKEY(cond, type)
#define TILING_KEY_IS(key) __ascasm_tiling_key_is(key)
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)
#define ASCENDC_TPL_SEL_PARAM(...)
