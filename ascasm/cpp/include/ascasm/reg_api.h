// ascasm header stubs: the AscendC::Reg (alias AscendC::MicroAPI) functions, one declaration per
// prototype on each function's Reg API page, with that page's template parameters and defaults.
// Declarations only: the translator maps each call to instructions (docs/frontend.md).
#pragma once
#include "ascasm/reg_types.h"

#define ASCASM_REG __simd_callee__ inline

namespace AscendC {
namespace Reg {

// ---- Masks and address registers (register data types) ----
template <typename T, MaskPattern mode = MaskPattern::ALL, const RegTrait& regTrait = RegTraitNumOne>
ASCASM_REG MaskReg CreateMask();
template <typename T, const RegTrait& regTrait = RegTraitNumOne>
ASCASM_REG MaskReg UpdateMask(uint32_t& scalarValue);
// offset = index0 * stride0 [+ index1 * stride1 ...], over up to four hardware loops
template <typename T>
ASCASM_REG AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0);
template <typename T>
ASCASM_REG AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1);
template <typename T>
ASCASM_REG AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                 uint16_t index2, uint32_t stride2);
template <typename T>
ASCASM_REG AddrReg CreateAddrReg(uint16_t index0, uint32_t stride0, uint16_t index1, uint32_t stride1,
                                 uint16_t index2, uint32_t stride2, uint16_t index3, uint32_t stride3);

// ---- Loads into registers ----
// The aligned forms: plain, post-update, AddrReg, two registers, data-block, mask.
#define ASCASM_LOAD_ALIGN_FORMS(name) \
    template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U> \
    ASCASM_REG void name(U& dstReg, __ubuf__ T* srcAddr); \
    template <typename T = DefaultType, PostLiteral postMode, LoadDist dist = LoadDist::DIST_NORM, typename U> \
    ASCASM_REG void name(U& dstReg, __ubuf__ T*& srcAddr, int32_t postUpdateStride); \
    template <typename T = DefaultType, LoadDist dist = LoadDist::DIST_NORM, typename U> \
    ASCASM_REG void name(U& dstReg, __ubuf__ T* srcAddr, AddrReg offset); \
    template <typename T = DefaultType, LoadDist dist, typename U> \
    ASCASM_REG void name(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr); \
    template <typename T = DefaultType, PostLiteral postMode, LoadDist dist, typename U> \
    ASCASM_REG void name(U& dstReg0, U& dstReg1, __ubuf__ T*& srcAddr, int32_t postUpdateStride); \
    template <typename T = DefaultType, LoadDist dist, typename U> \
    ASCASM_REG void name(U& dstReg0, U& dstReg1, __ubuf__ T* srcAddr, AddrReg offset); \
    /* data-block (strided) loads */ \
    template <typename T = DefaultType, DataCopyMode dataMode, typename U> \
    ASCASM_REG void name(U& dstReg, __ubuf__ T* srcAddr, uint32_t dataBlockStride, MaskReg& mask); \
    template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U> \
    ASCASM_REG void name(U& dstReg, __ubuf__ T*& srcAddr, uint32_t dataBlockStride, uint32_t repeatStride, \
                              MaskReg& mask); \
    /* mask loads */ \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM> \
    ASCASM_REG void name(MaskReg& mask, __ubuf__ T* srcAddr); \
    template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM> \
    ASCASM_REG void name(MaskReg& mask, __ubuf__ T*& srcAddr, int32_t offset); \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM> \
    ASCASM_REG void name(MaskReg& mask, __ubuf__ T* srcAddr, AddrReg offset);
ASCASM_LOAD_ALIGN_FORMS(LoadAlign)

// unaligned loads
template <typename T>
ASCASM_REG void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr);
template <typename T>
ASCASM_REG void LoadUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr, AddrReg& areg);
template <typename T = DefaultType, typename U>
ASCASM_REG void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T* srcAddr);
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride);
template <typename T = DefaultType, typename U>
ASCASM_REG void LoadUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, AddrReg& areg, uint32_t inc);
template <typename T = DefaultType, typename U>
ASCASM_REG void Load(U& dstReg, __ubuf__ T* srcAddr);
// gathers
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
ASCASM_REG void Gather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask);
template <typename T = DefaultType, typename U, typename S>
ASCASM_REG void GatherB(U& dstReg, __ubuf__ T* baseAddr, S& index, MaskReg& mask);
// mask from a vector register
template <typename T = DefaultType, int16_t offset, typename U>
ASCASM_REG void MaskGenWithRegTensor(MaskReg& dst, U& srcReg);
// register copies
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
ASCASM_REG void Move(U& dstReg, U& srcReg, MaskReg mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void Move(U& dstReg, U& srcReg);

// ---- Stores from registers ----
// The aligned forms: plain, post-update, AddrReg, two registers, data-block, mask.
#define ASCASM_STORE_ALIGN_FORMS(name) \
    template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, U& srcReg, MaskReg& mask); \
    template <typename T = DefaultType, PostLiteral postMode, StoreDist dist = StoreDist::DIST_NORM, typename U> \
    ASCASM_REG void name(__ubuf__ T*& dstAddr, U& srcReg, int32_t postUpdateStride, MaskReg& mask); \
    template <typename T = DefaultType, StoreDist dist = StoreDist::DIST_NORM, typename U> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, U& srcReg, AddrReg offset, MaskReg& mask); \
    template <typename T = DefaultType, StoreDist dist, typename U> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, MaskReg& mask); \
    template <typename T = DefaultType, StoreDist dist, typename U> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, U& srcReg0, U& srcReg1, AddrReg offset, MaskReg& mask); \
    /* data-block (strided) stores */ \
    template <typename T = DefaultType, DataCopyMode dataMode, typename U> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, U& srcReg, uint32_t dataBlockStride, MaskReg& mask); \
    template <typename T = DefaultType, DataCopyMode dataMode, PostLiteral postMode, typename U> \
    ASCASM_REG void name(__ubuf__ T*& dstAddr, U& srcReg, uint32_t dataBlockStride, uint32_t repeatStride, \
                               MaskReg& mask); \
    /* mask stores */ \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, MaskReg& mask); \
    template <typename T, PostLiteral postMode, MaskDist dist = MaskDist::DIST_NORM> \
    ASCASM_REG void name(__ubuf__ T*& dstAddr, MaskReg& mask, int32_t offset); \
    template <typename T, MaskDist dist = MaskDist::DIST_NORM> \
    ASCASM_REG void name(__ubuf__ T* dstAddr, MaskReg& mask, AddrReg offset);
ASCASM_STORE_ALIGN_FORMS(StoreAlign)

// unaligned stores
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, uint32_t postUpdateStride);
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void StoreUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, AddrReg& areg);
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void StoreUnAlign(__ubuf__ T* dstAddr, U& srcReg, UnalignRegForStore& ureg);
template <typename T>
ASCASM_REG void StoreUnAlign(__ubuf__ T*& dstAddr, MaskReg& mask, UnalignRegForStore& ureg);
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
ASCASM_REG void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride);
template <typename T>
ASCASM_REG void StoreUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, AddrReg& areg);
template <typename T>
ASCASM_REG void StoreUnAlignPost(__ubuf__ T* dstAddr, UnalignRegForStore& ureg);
template <typename T = DefaultType, typename U>
ASCASM_REG void Store(__ubuf__ T* dstAddr, U& srcReg);
template <typename T = DefaultType, typename U>
ASCASM_REG void Store(__ubuf__ T* dstAddr, U& srcReg, uint32_t count);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
ASCASM_REG void Scatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask);

// ---- Arithmetic ----
#define ASCASM_UNARY(name)                                                            \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> \
    ASCASM_REG void name(U& dstReg, U& srcReg, MaskReg& mask);
#define ASCASM_UNARY_AUTO(name)                                                       \
    template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>          \
    ASCASM_REG void name(U& dstReg, U& srcReg, MaskReg& mask);
#define ASCASM_BINARY(name)                                                           \
    template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U> \
    ASCASM_REG void name(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
#define ASCASM_SCALAR(name)                                                           \
    template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, \
              typename S>                                                             \
    ASCASM_REG void name(S& dstReg, S& srcReg, U scalarValue, MaskReg& mask);

ASCASM_UNARY(Abs)
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
ASCASM_REG void Abs(S& dstReg, V& srcReg, MaskReg& mask);
ASCASM_UNARY(Neg)
ASCASM_UNARY(Relu)
ASCASM_UNARY_AUTO(Exp)
ASCASM_UNARY_AUTO(Ln)
ASCASM_UNARY_AUTO(Log)
ASCASM_UNARY_AUTO(Log2)
ASCASM_UNARY_AUTO(Log10)
ASCASM_UNARY_AUTO(Sqrt)
ASCASM_BINARY(Add)
ASCASM_BINARY(Sub)
ASCASM_BINARY(Mul)
ASCASM_BINARY(Max)
ASCASM_BINARY(Min)
ASCASM_BINARY(Prelu)
template <typename T = DefaultType, auto mode = MaskMergeMode::ZEROING, typename U>
ASCASM_REG void Div(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
// carry out into a mask, and carry in from one
template <typename T = DefaultType, typename U>
ASCASM_REG void Add(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void Sub(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void AddC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void SubC(MaskReg& carry, U& dstReg, U& srcReg0, U& srcReg1, MaskReg& carrySrc, MaskReg& mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void Mull(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1, MaskReg& mask);
ASCASM_SCALAR(Adds)
ASCASM_SCALAR(Muls)
ASCASM_SCALAR(Maxs)
ASCASM_SCALAR(Mins)
ASCASM_SCALAR(LeakyRelu)

// ---- Compound ----
ASCASM_BINARY(AbsSub)
ASCASM_BINARY(MulAddDst)
ASCASM_BINARY(MulDstAdd)
template <typename T = DefaultType, typename U, MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
ASCASM_REG void Axpy(S& dstReg, S& srcReg, const U scalarValue, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, RegLayout layout = RegLayout::ZERO,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
ASCASM_REG void ExpSub(S& dstReg, V& srcReg0, V& srcReg1, MaskReg& mask);
template <typename T0 = DefaultType, typename T1 = DefaultType, typename T2, RegLayout layout = RegLayout::ZERO,
          typename T3, typename T4>
ASCASM_REG void MulsCast(T3& dstReg, T4& srcReg, T2 scalarValue, MaskReg& mask);

// ---- Logic and shifts (vector and mask forms) ----
ASCASM_BINARY(And)
ASCASM_BINARY(Or)
ASCASM_BINARY(Xor)
ASCASM_UNARY(Not)
ASCASM_REG void And(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void Or(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void Xor(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void Not(MaskReg& dst, MaskReg& src, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
ASCASM_REG void ShiftLeft(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S, typename V>
ASCASM_REG void ShiftRight(S& dstReg, S& srcReg0, V& srcReg1, MaskReg& mask);
ASCASM_SCALAR(ShiftLefts)
ASCASM_SCALAR(ShiftRights)

// ---- Compare and select ----
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U>
ASCASM_REG void Compare(MaskReg& dst, U& srcReg0, U& srcReg1, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
ASCASM_REG void Compares(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void Select(U& dstReg, U& srcReg0, U& srcReg1, MaskReg& mask);
ASCASM_REG void Select(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
ASCASM_REG void Squeeze(U& dstReg, U& srcReg, MaskReg& mask);
template <typename T = DefaultType, typename U>
ASCASM_REG void Unsqueeze(U& dstReg, MaskReg& mask);

// ---- Conversion ----
template <typename T = DefaultType, typename U = DefaultType, const CastTrait& trait = castTrait,
          typename S, typename V>
ASCASM_REG void Cast(S& dstReg, V& srcReg, MaskReg& mask);
template <typename T = DefaultType, RoundMode roundMode = RoundMode::CAST_NONE,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S>
ASCASM_REG void Truncate(S& dstReg, S& srcReg, MaskReg& mask);

// ---- Reductions ----
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, typename U = DefaultType,
          MaskMergeMode mode = MaskMergeMode::ZEROING, typename S, typename V>
ASCASM_REG void Reduce(S& dstReg, V srcReg, MaskReg mask);
template <ReduceType type = ReduceType::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
ASCASM_REG void ReduceDataBlock(U& dstReg, U srcReg, MaskReg mask);
template <PairReduce type = PairReduce::SUM, typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename U>
ASCASM_REG void PairReduceElem(U& dstReg, U srcReg, MaskReg mask);

// ---- Fill, index, rearrange, pack ----
template <typename T = DefaultType, typename U, typename S>
ASCASM_REG void Duplicate(S& dstReg, U scalarValue);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, typename U, typename S>
ASCASM_REG void Duplicate(S& dstReg, U scalarValue, MaskReg& mask);
template <typename T = DefaultType, HighLowPart pos = HighLowPart::LOWEST, MaskMergeMode mode = MaskMergeMode::ZEROING,
          typename S>
ASCASM_REG void Duplicate(S& dstReg, S& srcReg, MaskReg& mask);
template <typename T = DefaultType, IndexOrder order = IndexOrder::INCREASE_ORDER, typename U, typename S>
ASCASM_REG void Arange(S& dstReg, U scalarValue);
template <typename T = DefaultType, typename U>
ASCASM_REG void Interleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1);
template <typename T = DefaultType, typename U>
ASCASM_REG void DeInterleave(U& dstReg0, U& dstReg1, U& srcReg0, U& srcReg1);
template <typename T>
ASCASM_REG void Interleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <typename T>
ASCASM_REG void DeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST,
          typename S, typename V>
ASCASM_REG void Pack(S& dstReg, V& srcReg);
template <typename T = DefaultType, typename U = DefaultType, HighLowPart part = HighLowPart::LOWEST,
          typename S, typename V>
ASCASM_REG void UnPack(S& dstReg, V& srcReg);
template <HighLowPart part = HighLowPart::LOWEST>
ASCASM_REG void Pack(MaskReg& dst, MaskReg& src);
template <HighLowPart part = HighLowPart::LOWEST>
ASCASM_REG void UnPack(MaskReg& dst, MaskReg& src);
ASCASM_REG void Move(MaskReg& dst, MaskReg& src, MaskReg& mask);
ASCASM_REG void Move(MaskReg& dst, MaskReg& src);
template <typename T>
ASCASM_REG MaskReg MoveMask();
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
ASCASM_REG void Gather(S& dstReg, S& srcReg, V& indexReg);
template <typename T = DefaultType, typename U = DefaultType, HistogramsBinType mode, HistogramsType type,
          typename S, typename V>
ASCASM_REG void Histograms(V& dstReg, S& srcReg, MaskReg& mask);

// ---- System registers and barriers ----
template <SpecialPurposeReg spr>
ASCASM_REG void ClearSpr();
template <MemType src, MemType dst>
ASCASM_REG void LocalMemBar();

// ---- Older names ----
// Public kernels still use names the pages no longer document.  Each is declared with the
// overloads of its documented counterpart (docs/frontend.md lists the pairs).
ASCASM_LOAD_ALIGN_FORMS(DataCopy)
ASCASM_STORE_ALIGN_FORMS(DataCopy)
template <typename T, MaskDist dist = MaskDist::DIST_NORM>
ASCASM_REG void DataCopy(__ubuf__ T* dstAddr, MaskReg& mask, int32_t offset);
// DataCopyUnAlign* take either name: UnalignRegForLoad and UnalignRegForStore are one type (reg_types.h).
template <typename T>
ASCASM_REG void DataCopyUnAlignPre(UnalignRegForLoad& ureg, __ubuf__ T* srcAddr);
template <typename T = DefaultType, typename U>
ASCASM_REG void DataCopyUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T* srcAddr);
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void DataCopyUnAlign(U& dstReg, UnalignRegForLoad& ureg, __ubuf__ T*& srcAddr, uint32_t postUpdateStride);
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void DataCopyUnAlign(__ubuf__ T*& dstAddr, U& srcReg, UnalignRegForStore& ureg, uint32_t postUpdateStride);
template <typename T = DefaultType, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE, typename U>
ASCASM_REG void DataCopyUnAlign(__ubuf__ T* dstAddr, U& srcReg, UnalignRegForStore& ureg);
template <typename T, PostLiteral postMode = PostLiteral::POST_MODE_UPDATE>
ASCASM_REG void DataCopyUnAlignPost(__ubuf__ T*& dstAddr, UnalignRegForStore& ureg, int32_t postUpdateStride);
template <typename T>
ASCASM_REG void DataCopyUnAlignPost(__ubuf__ T* dstAddr, UnalignRegForStore& ureg);
template <typename T0 = DefaultType, typename T1, typename T2 = DefaultType, typename T3, typename T4>
ASCASM_REG void DataCopyGather(T3& dstReg, __ubuf__ T1* baseAddr, T4& index, MaskReg& mask);
template <typename T = DefaultType, typename U = DefaultType, typename S, typename V>
ASCASM_REG void DataCopyScatter(__ubuf__ T* baseAddr, S& srcReg, V& index, MaskReg& mask);
template <typename T = DefaultType, MaskMergeMode mode = MaskMergeMode::MERGING, typename U>
ASCASM_REG void Copy(U& dstReg, U& srcReg, MaskReg mask);
template <typename T = DefaultType, GatherMaskMode store = GatherMaskMode::NO_STORE_REG, typename U>
ASCASM_REG void GatherMask(U& dstReg, U& srcReg, MaskReg& mask);
template <typename T = DefaultType, CMPMODE mode = CMPMODE::EQ, typename U, typename S>
ASCASM_REG void CompareScalar(MaskReg& dst, U& srcReg, S scalarValue, MaskReg& mask);
ASCASM_BINARY(FusedMulDstAdd)
ASCASM_BINARY(Mula)
ASCASM_REG void MaskAnd(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void MaskOr(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void MaskXor(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void MaskNot(MaskReg& dst, MaskReg& src, MaskReg& mask);
ASCASM_REG void MaskSel(MaskReg& dst, MaskReg& src0, MaskReg& src1, MaskReg& mask);
ASCASM_REG void MaskMov(MaskReg& dst, MaskReg& src, MaskReg& mask);
ASCASM_REG void MaskMov(MaskReg& dst, MaskReg& src);
template <HighLowPart part = HighLowPart::LOWEST>
ASCASM_REG void MaskPack(MaskReg& dst, MaskReg& src);
template <HighLowPart part = HighLowPart::LOWEST>
ASCASM_REG void MaskUnPack(MaskReg& dst, MaskReg& src);
template <typename T>
ASCASM_REG void MaskInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
template <typename T>
ASCASM_REG void MaskDeInterleave(MaskReg& dst0, MaskReg& dst1, MaskReg& src0, MaskReg& src1);
#define ASCASM_REDUCE(name)                                                                          \
    template <typename T = DefaultType, typename U = DefaultType, MaskMergeMode mode = MaskMergeMode::ZEROING, \
              typename S, typename V>                                                                \
    ASCASM_REG void name(S& dstReg, V srcReg, MaskReg mask);
ASCASM_REDUCE(ReduceSum)
ASCASM_REDUCE(ReduceMax)
ASCASM_REDUCE(ReduceMin)
ASCASM_REDUCE(ReduceSumWithDataBlock)
ASCASM_REDUCE(ReduceMaxWithDataBlock)
ASCASM_REDUCE(ReduceMinWithDataBlock)
#undef ASCASM_REDUCE
template <SpecialPurposeReg spr>
ASCASM_REG int64_t GetSpr();
// The register type of an element type, e.g. TypeGet<float>::T is RegTensor<float>.
template <typename E> struct TypeGet { using T = RegTensor<E>; };

#undef ASCASM_UNARY
#undef ASCASM_UNARY_AUTO
#undef ASCASM_BINARY
#undef ASCASM_SCALAR
#undef ASCASM_LOAD_ALIGN_FORMS
#undef ASCASM_STORE_ALIGN_FORMS
}  // namespace Reg

// Calls a vector function; every instruction it issued has completed when it returns.
template <auto funcPtr, typename... Args>
__aicore__ inline void asc_vf_call(Args&&... args);
// The same under the older name public kernels use.
template <auto funcPtr, typename... Args>
__aicore__ inline void VF_CALL(Args&&... args);
}  // namespace AscendC
using AscendC::asc_vf_call;
using AscendC::VF_CALL;

#undef ASCASM_REG
