// ascasm header stubs: the Reg:: register types, option enums and traits.
// Written from the Reg API pages (register data types, auxiliary data types, and each
// function's template-parameter table).  Declarations only.
#pragma once
#include "ascasm/base.h"

namespace AscendC {
namespace Reg {

// Placeholder for a template argument the compiler deduces.
struct DefaultType {};

// How many vector registers one RegTensor spans: two for b64/complex types split into halves.
struct RegTrait { int regNum; };
inline constexpr RegTrait RegTraitNumOne = {1};
inline constexpr RegTrait RegTraitNumTwo = {2};

template <typename T, const RegTrait& regTrait = RegTraitNumOne>
struct RegTensor {
    using DataType = T;
    // RegTraitNumTwo: [0] holds the low (real) halves, [1] the high (imaginary) halves.
    RegTensor<typename std::conditional<sizeof(T) == 8, uint32_t, uint16_t>::type>& operator[](int);
};
struct MaskReg {};
struct AddrReg {};
// One unaligned register type serves both streams, as in the vendor's headers, where the two names
// are aliases of one type: kernels declare an UnalignRegForLoad and store through it.
struct UnalignReg {};
using UnalignRegForLoad = UnalignReg;
using UnalignRegForStore = UnalignReg;

enum class MaskPattern { ALL, VL1, VL2, VL3, VL4, VL8, VL16, VL32, VL64, VL128, M3, M4, H, Q, ALLF = 15 };
enum class MaskMergeMode { UNKNOWN, MERGING, ZEROING };
enum class PostLiteral { POST_MODE_NORMAL, POST_MODE_UPDATE };
enum class RegLayout { UNKNOWN = -1, ZERO, ONE, TWO, THREE };
enum class SatMode { UNKNOWN = -1, NO_SAT, SAT };
enum class RoundMode {
    CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD, CAST_HYBRID,
    CAST_EVEN, UNKNOWN = -1
};
enum class CMPMODE { LT = 0, GT, EQ, LE, GE, NE };
enum class ReduceType { SUM = 0, MAX, MIN };
enum class PairReduce { SUM = 0 };
enum class HighLowPart { LOWEST = 0, HIGHEST };
enum class GatherMaskMode { NO_STORE_REG = 0, STORE_REG };
enum class DataCopyMode { DATA_BLOCK_COPY = 0 };
enum class IndexOrder { INCREASE_ORDER = 0, DECREASE_ORDER };
enum class HistogramsBinType { BIN0 = 0, BIN1 };
enum class HistogramsType { FREQUENCY = 0, ACCUMULATE };
enum class SpecialPurposeReg { AR = 0 };
enum class MemType { VEC_STORE = 0, VEC_LOAD, SCALAR_STORE, SCALAR_LOAD, VEC_ALL, SCALAR_ALL };
// Enumerator values follow the instruction's distribution field.
enum class LoadDist {
    DIST_NORM = 0, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32,
    DIST_US_B8 = 6, DIST_US_B16, DIST_DS_B8, DIST_DS_B16, DIST_BDINTLV,
    DIST_DINTLV_B8, DIST_DINTLV_B16, DIST_UNPACK_B8, DIST_UNPACK_B16, DIST_BLK, DIST_E2B_B16,
    DIST_E2B_B32, DIST_UNPACK_B32, DIST_DINTLV_B32, DIST_UNPACK4_B8
};
enum class StoreDist {
    DIST_NORM_B8 = 0, DIST_NORM_B16, DIST_NORM_B32,
    DIST_FIRST_ELEMENT_B8, DIST_FIRST_ELEMENT_B16, DIST_FIRST_ELEMENT_B32,
    DIST_PACK_B16, DIST_PACK_B32, DIST_INTLV_B8, DIST_INTLV_B16, DIST_PACK_B64, DIST_INTLV_B32,
    DIST_PACK4_B32, DIST_NORM = 16
};
enum class MaskDist { DIST_NORM = 0, DIST_US = 1, DIST_DS = 2, DIST_PACK = 1 };

struct CastTrait {
    RegLayout layoutMode = RegLayout::UNKNOWN;
    SatMode satMode = SatMode::UNKNOWN;
    MaskMergeMode mrgMode = MaskMergeMode::UNKNOWN;
    RoundMode roundMode = RoundMode::UNKNOWN;
};
inline constexpr CastTrait castTrait = {};

// The `auto mode` option of Div/Sqrt/Exp/Log/Ln: a merge mode, or (a pointer to) one of these
// structs: the merge mode, for Div and Sqrt a high-precision switch, and the algorithm, which
// also chooses whether subnormals are kept (the *_FTZ_FALSE algorithms) or flushed.
enum class DivAlgo {
    INTRINSIC = 0, DIFF_COMPENSATION, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE,
    PRECISION_1ULP_FTZ_FALSE
};
enum class SqrtAlgo { INTRINSIC = 0, FAST_INVERSE, PRECISION_1ULP_FTZ_TRUE, PRECISION_0ULP_FTZ_FALSE, PRECISION_1ULP_FTZ_FALSE };
enum class ExpAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class LogAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
enum class LnAlgo { INTRINSIC = 0, PRECISION_1ULP_FTZ_TRUE, PRECISION_1ULP_FTZ_FALSE };
struct DivSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING; bool precisionMode = false; DivAlgo algo = DivAlgo::INTRINSIC;
};
struct SqrtSpecificMode {
    MaskMergeMode mrgMode = MaskMergeMode::ZEROING; bool precisionMode = false; SqrtAlgo algo = SqrtAlgo::INTRINSIC;
};
struct ExpSpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; ExpAlgo algo = ExpAlgo::INTRINSIC; };
struct LogSpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; LogAlgo algo = LogAlgo::INTRINSIC; };
struct LnSpecificMode { MaskMergeMode mrgMode = MaskMergeMode::ZEROING; LnAlgo algo = LnAlgo::INTRINSIC; };

}  // namespace Reg

// The same API under its other name, and its option types reachable from AscendC itself.
namespace MicroAPI = Reg;
using Reg::MaskPattern; using Reg::MaskMergeMode; using Reg::PostLiteral; using Reg::RegLayout;
using Reg::SatMode; using Reg::RoundMode; using Reg::CMPMODE; using Reg::ReduceType;
using Reg::PairReduce; using Reg::HighLowPart; using Reg::GatherMaskMode; using Reg::DataCopyMode;
using Reg::IndexOrder; using Reg::HistogramsBinType; using Reg::HistogramsType;
using Reg::SpecialPurposeReg; using Reg::MemType; using Reg::LoadDist; using Reg::StoreDist;
using Reg::MaskDist; using Reg::CastTrait; using Reg::DivAlgo; using Reg::SqrtAlgo; using Reg::ExpAlgo;
using Reg::LogAlgo; using Reg::LnAlgo;

// The named Cast traits the vendor's library declares in AscendC, which kernels pass by name: Z/layoutZ
// = lanes from part zero, MrgZ = zeroing, Rnd{R,A,C,F,Z,H} = rint, away, ceil, floor, trunc, hybrid,
// SatS/SatNS = saturate or not. As that library has them, MrgZRndF rounds up and MrgZRndC down.
#define ASCASM_CAST_TRAIT(name, layout, sat, round) \
    inline constexpr Reg::CastTrait name = {Reg::RegLayout::layout, Reg::SatMode::sat, \
                                            Reg::MaskMergeMode::ZEROING, Reg::RoundMode::round};
ASCASM_CAST_TRAIT(layoutZMrgZ, ZERO, UNKNOWN, UNKNOWN)
ASCASM_CAST_TRAIT(layoutZSatSMrgZ, ZERO, SAT, UNKNOWN)
ASCASM_CAST_TRAIT(layoutZSatSMrgZRndA, ZERO, SAT, CAST_ROUND)
ASCASM_CAST_TRAIT(layoutZSatSMrgZRndH, ZERO, SAT, CAST_HYBRID)
ASCASM_CAST_TRAIT(layoutZSatSMrgZRndR, ZERO, SAT, CAST_RINT)
ASCASM_CAST_TRAIT(layoutZMrgZRndR, ZERO, UNKNOWN, CAST_RINT)
ASCASM_CAST_TRAIT(layoutZMrgZRndA, ZERO, UNKNOWN, CAST_ROUND)
ASCASM_CAST_TRAIT(layoutZMrgZRndC, ZERO, UNKNOWN, CAST_CEIL)
ASCASM_CAST_TRAIT(layoutZMrgZRndF, ZERO, UNKNOWN, CAST_FLOOR)
ASCASM_CAST_TRAIT(layoutZMrgZRndZ, ZERO, UNKNOWN, CAST_TRUNC)
ASCASM_CAST_TRAIT(MrgZRndR, UNKNOWN, UNKNOWN, CAST_RINT)
ASCASM_CAST_TRAIT(MrgZRndA, UNKNOWN, UNKNOWN, CAST_ROUND)
ASCASM_CAST_TRAIT(MrgZRndF, UNKNOWN, UNKNOWN, CAST_CEIL)
ASCASM_CAST_TRAIT(MrgZRndC, UNKNOWN, UNKNOWN, CAST_FLOOR)
ASCASM_CAST_TRAIT(MrgZRndZ, UNKNOWN, UNKNOWN, CAST_TRUNC)
ASCASM_CAST_TRAIT(MrgZRndRSatS, UNKNOWN, SAT, CAST_RINT)
ASCASM_CAST_TRAIT(MrgZRndASatS, UNKNOWN, SAT, CAST_ROUND)
ASCASM_CAST_TRAIT(MrgZRndFSatS, UNKNOWN, SAT, CAST_CEIL)
ASCASM_CAST_TRAIT(MrgZRndCSatS, UNKNOWN, SAT, CAST_FLOOR)
ASCASM_CAST_TRAIT(MrgZRndZSatS, UNKNOWN, SAT, CAST_TRUNC)
ASCASM_CAST_TRAIT(MrgZRndRSatNS, UNKNOWN, NO_SAT, CAST_RINT)
ASCASM_CAST_TRAIT(LayoutZMrgZRndRSatS, ZERO, SAT, CAST_RINT)
ASCASM_CAST_TRAIT(LayoutZMrgZRndASatS, ZERO, SAT, CAST_ROUND)
ASCASM_CAST_TRAIT(LayoutZMrgZRndRSatNS, ZERO, NO_SAT, CAST_RINT)
ASCASM_CAST_TRAIT(LayoutZMrgZRndASatNS, ZERO, NO_SAT, CAST_ROUND)
#undef ASCASM_CAST_TRAIT
}  // namespace AscendC
