// ascasm header stubs: the host-side (scalar core) parts of AscendC that kernel files hold around
// their vector functions: pipes, queues, tensors, DMA copies, synchronisation, tiling access.
// Declared only so that whole kernel files parse; the translator never translates these and
// reports a call to one inside a vector function as belonging to the host side.
#pragma once
#include "ascasm/reg_types.h"

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
}  // namespace AscendC

// Tiling data: a kernel reads its tiling struct from a GM pointer.
#define GET_TILING_DATA(name, tiling) __ascasm_tiling_data name
#define GET_TILING_DATA_WITH_STRUCT(type, name, tiling) type name
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, name, tiling) const type* name = nullptr
#define REGISTER_TILING_DEFAULT(type)
#define REGISTER_TILING_FOR_TILINGKEY(cond, type)
#define TILING_KEY_IS(key) (false)
#define KERNEL_TASK_TYPE_DEFAULT(type)
#define KERNEL_TASK_TYPE(key, type)
#define ASCENDC_TPL_SEL_PARAM(...)
