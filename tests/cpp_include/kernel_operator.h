// A minimal stand-in for ascasm/cpp/include/kernel_operator.h, used by tests/test_cpp_translate.py so
// that the translator's tests do not depend on the full header stubs. Declarations only.
#pragma once
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long int64_t; typedef unsigned long uint64_t;
#define __aicore__
#define __simd_vf__
#define __simd_callee__
#define __ubuf__
#define __gm__
#define __VEC_SCOPE__
struct half { unsigned short bits; half() {} half(float) {} };
struct bfloat16_t { unsigned short bits; bfloat16_t() {} bfloat16_t(float) {} };
namespace AscendC {
template <typename A, typename B> struct IsSameType { static constexpr bool value = false; };
template <typename A> struct IsSameType<A, A> { static constexpr bool value = true; };
enum class RoundMode { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, CAST_HYBRID, UNKNOWN };
template <typename T> __aicore__ constexpr inline T CeilDivision(T a, T b) { return (a + b - 1) / b; }
void DataCopy(...);
void PipeBarrier();
namespace Reg {
struct DefaultType {};
template <typename T> struct RegTensor {};
struct MaskReg {};
struct AddrReg {};
struct UnalignRegForLoad {};
struct UnalignRegForStore {};
enum class MaskPattern { ALL = 0, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class LoadDist { DIST_NORM = 0, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_US_B8, DIST_US_B16, DIST_DS_B8,
    DIST_DS_B16, DIST_UNPACK_B8, DIST_UNPACK_B16, DIST_BLK, DIST_E2B_B16, DIST_E2B_B32, DIST_UNPACK_B32,
    DIST_UNPACK4_B8, DIST_DINTLV_B8, DIST_DINTLV_B16, DIST_DINTLV_B32 };
enum class StoreDist { DIST_NORM = 0, DIST_NORM_B8, DIST_NORM_B16, DIST_NORM_B32, DIST_FIRST_ELEMENT_B8,
    DIST_FIRST_ELEMENT_B16, DIST_FIRST_ELEMENT_B32, DIST_PACK_B16, DIST_PACK_B32, DIST_PACK_B64, DIST_PACK4_B32,
    DIST_INTLV_B8, DIST_INTLV_B16, DIST_INTLV_B32 };
enum class PostLiteral { POST_MODE_NORMAL = 0, POST_MODE_UPDATE };
enum class ReduceType { SUM = 0, MAX, MIN };
enum class CMPMODE { EQ = 0, NE, LT, LE, GT, GE };
enum class RegLayout { UNKNOWN = -1, ZERO = 0, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT = 0, SAT };
enum class MaskMergeMode { ZEROING = 0, MERGING };
struct CastTrait { RegLayout layoutMode; SatMode satMode; MaskMergeMode mrgMode; AscendC::RoundMode roundMode; };
template <typename T> __aicore__ constexpr inline uint32_t GetVecLen() { return 256; }
template <typename T, MaskPattern mode = MaskPattern::ALL> MaskReg CreateMask();
template <typename T> MaskReg UpdateMask(uint32_t& count);
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U> void LoadAlign(U& dst, __ubuf__ T* src);
template <typename T = DefaultType, PostLiteral post, LoadDist dist = LoadDist::DIST_NORM, typename U> void LoadAlign(U& dst, __ubuf__ T*& src, int32_t stride);
template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U> void LoadAlign(U& dst, __ubuf__ T* src, AddrReg offset);
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U> void StoreAlign(__ubuf__ T* dst, U& src, MaskReg& mask);
template <typename T = DefaultType, PostLiteral post, StoreDist dist = StoreDist::DIST_NORM, typename U> void StoreAlign(__ubuf__ T*& dst, U& src, int32_t stride, MaskReg& mask);
template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U> void StoreAlign(__ubuf__ T* dst, U& src, AddrReg offset, MaskReg& mask);
template <typename T = DefaultType, typename U> void Duplicate(U& dst, T scalar);
template <typename T = DefaultType, typename U> void Duplicate(U& dst, T scalar, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Add(U& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Sub(U& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Mul(U& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Max(U& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S> void Muls(U& dst, U& a, S s, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S> void Adds(U& dst, U& a, S s, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S> void Maxs(U& dst, U& a, S s, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S> void Mins(U& dst, U& a, S s, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Exp(U& dst, U& a, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Relu(U& dst, U& a, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void Abs(U& dst, U& a, MaskReg& mask);
template <typename T, typename U, const CastTrait& trait, typename D, typename S> void Cast(D& dst, S& src, MaskReg& mask);
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename D, typename S> void Reduce(D& dst, S& src, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U> void Compare(MaskReg& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, typename U> void Select(U& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> void MulAddDst(U& dst, U& a, U& b, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S> void Compares(MaskReg& dst, U& a, S s, MaskReg& mask);
template <typename T = DefaultType, typename U> void Interleave(U& d0, U& d1, U& a, U& b);
template <typename T = DefaultType, typename U> void DeInterleave(U& d0, U& d1, U& a, U& b);
template <typename T = DefaultType, typename U, typename S> void Arange(U& dst, S start);
void LocalMemBar();
}
namespace MicroAPI = Reg;
}
