// ascasm header stubs: qualifiers, scalar types and the small freestanding helpers kernels use.
// Declarations written for parsing with libclang; nothing here runs.  The translator recognises
// the qualifiers by their annotate attributes (see docs/frontend.md, "Header stubs").
#pragma once

#include <cstdint>
#include <cstddef>
#include <type_traits>

// Function qualifiers.  Each is an annotate attribute so that libclang shows it as an
// ANNOTATE_ATTR child of the function declaration, with this spelling.
#define __simd_vf__ __attribute__((annotate("simd_vf")))
#define __simd_callee__ __attribute__((annotate("simd_callee")))
#define __aicore__ __attribute__((annotate("aicore")))
#define __global__ __attribute__((annotate("global")))
#define __host_aicore__ __aicore__
#define __vector__                  // a vector-core kernel entry (beside __global__)
// Memory-space qualifiers vanish: inside a vector function every pointer is a UB pointer.
#define __ubuf__
#define __gm__
#define __ssbuf__
#define __local_mem__
#define GM_ADDR uint8_t*
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

// A __VEC_SCOPE__ block becomes `if (__ascasm_vec_scope()) { ... }`: an IF_STMT whose condition
// is a call to this marker and whose then-branch is the block.  (Never followed by `else`.)
constexpr bool __ascasm_vec_scope() { return true; }
#define __VEC_SCOPE__ if (__ascasm_vec_scope())

// Device build macros kernels test.
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 3510
#endif
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 310
#endif
#define __DAV_C310__ 1
#define ASCEND_IS_AIV true
#define ASCEND_IS_AIC false
// The kind of core a kernel runs on (`if (g_coreType == AscendC::AIC) return;`): ascasm runs vector
// cores.  The pages give no numbers for the kinds; only comparisons between them matter.
namespace AscendC { enum CoreType : int32_t { AIC = 1, AIV = 2, MIX = 3 }; }
constexpr AscendC::CoreType g_coreType = AscendC::AIV;

// Scalar element types.  half and bfloat16_t are clang's 16-bit floats, so constant expressions
// on them fold; libclang spells their canonical types `_Float16` and `__bf16`.  The narrower
// formats are opaque one-byte types (only their names matter to the translator).
typedef _Float16 half;
typedef __bf16 bfloat16_t;
struct hifloat8_t { uint8_t bits; };
struct fp8_e5m2_t { uint8_t bits; };
struct fp8_e4m3fn_t { uint8_t bits; };
struct fp8_e8m0_t { uint8_t bits; };
struct fp4x2_e2m1_t { uint8_t bits; };
struct fp4x2_e1m2_t { uint8_t bits; };
struct int4x2_t { uint8_t bits; };
struct int4b_t { uint8_t bits; };
struct complex32 { half real; half imag; };
struct complex64 { float real; float imag; };
// The device compiler's own names for the IEEE types (no vendor header declares them; the kernels
// and the vendor's comments use them as float and half).
typedef float float32_t;
typedef half float16_t;

namespace AscendC {
using ::half;
using ::bfloat16_t;
using ::hifloat8_t;
using ::fp8_e5m2_t;
using ::fp8_e4m3fn_t;
using ::fp8_e8m0_t;
using ::fp4x2_e2m1_t;
using ::fp4x2_e1m2_t;
using ::int4x2_t;
using ::int4b_t;
using ::complex32;
using ::complex64;

// Bytes in one vector register (VL).
constexpr uint32_t GetVecLen() { return 256; }
constexpr uint32_t VECTOR_REG_WIDTH = 256;
constexpr uint32_t VECTOR_REG_WIDTH_2XVL = 512;    // two registers' bytes (the pair forms)
constexpr uint32_t ONE_BLK_SIZE = 32;

template <typename T, typename U> struct IsSameType : std::bool_constant<__is_same(T, U)> {};
// The library's spelling of std::conditional: `typename Conditional<B, T1, T2>::type`.
template <bool B, typename T1, typename T2> struct Conditional { typedef T1 type; };
template <typename T1, typename T2> struct Conditional<false, T1, T2> { typedef T2 type; };

template <typename T, typename U>
constexpr T CeilDivision(T num, U divisor) { return (num + divisor - 1) / divisor; }
// The library's unsigned 32-bit rounding-up division, as its header declares it: wider arguments
// are converted to uint32_t.
__aicore__ constexpr inline uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// AscendC::Std: the library's own spelling of the standard helpers kernels use on both sides.
namespace Std {
using std::conditional;
using std::conditional_t;
using std::enable_if;
using std::enable_if_t;
using std::is_base_of;
using std::is_base_of_v;
using std::is_same;
using std::is_same_v;
using std::remove_cvref;
using std::remove_cvref_t;
template <typename T> inline constexpr bool always_false_v = false;
template <typename T> __aicore__ inline constexpr T min(T a, T b) { return b < a ? b : a; }
template <typename T> __aicore__ inline constexpr T max(T a, T b) { return a < b ? b : a; }
}  // namespace Std
}  // namespace AscendC
