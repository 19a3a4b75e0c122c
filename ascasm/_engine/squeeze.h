/* The lane compaction of vsqz (kernels_stream.pxi), one of the engine's two helpers in C: on x86-64 it
 * moves a group of lanes with one SSSE3 byte shuffle chosen from a table by the group's mask bits
 * (about 12 instructions per 4 lanes of 32 bits, where the lane-by-lane loop takes 7 per lane); other
 * machines, and the debug build (ASCASM_PORTABLE, setup.py), take the lane-by-lane loop. Both give the
 * same bytes: tests/test_squeeze_streams.py and the fuzzer compare them with the reference executor,
 * CI on both builds. */
#ifndef ASCASM_SQUEEZE_H
#define ASCASM_SQUEEZE_H

#include <stdint.h>
#include <string.h>
#if defined(__SSSE3__) && !defined(ASCASM_PORTABLE)
#include <tmmintrin.h>
#endif

#define ASCASM_VL 256

/* The lane bits of a 64-bit mask word, lane i of the word (bit i*width) moved to bit i (also for
 * vsct's lane loop, kernels_memory.pxi). */
static inline uint64_t ascasm_lane_bits(uint64_t x, int width) {
    if (width == 8) {
        x &= 0x0101010101010101ULL;
        x = (x | x >> 7) & 0x0003000300030003ULL;
        x = (x | x >> 14) & 0x0000000F0000000FULL;
        return (x | x >> 28) & 0xFFULL;
    }
    if (width == 4) {
        x &= 0x1111111111111111ULL;
        x = (x | x >> 3) & 0x0303030303030303ULL;
        x = (x | x >> 6) & 0x000F000F000F000FULL;
        x = (x | x >> 12) & 0x000000FF000000FFULL;
        return (x | x >> 24) & 0xFFFFULL;
    }
    if (width == 2) {
        x &= 0x5555555555555555ULL;
        x = (x | x >> 1) & 0x3333333333333333ULL;
        x = (x | x >> 2) & 0x0F0F0F0F0F0F0F0FULL;
        x = (x | x >> 4) & 0x00FF00FF00FF00FFULL;
        x = (x | x >> 8) & 0x0000FFFF0000FFFFULL;
        return (x | x >> 16) & 0xFFFFFFFFULL;
    }
    return x;
}

#if defined(__SSSE3__) && !defined(ASCASM_PORTABLE)
/* For a lane width (1, 2, 4 bytes) and the mask bits of one group of 8 lanes (4 for width 4): the
 * byte shuffle that moves the active lanes to the front, in order; 0x80 makes a byte 0. */
static uint8_t ascasm_shuffle[3][256][16];

static void ascasm_squeeze_init(void) {
    for (int shift = 0; shift < 3; shift++) {
        int width = 1 << shift, lanes = width == 4 ? 4 : 8;
        for (int bits = 0; bits < (1 << lanes); bits++) {
            int out = 0;
            memset(ascasm_shuffle[shift][bits], 0x80, 16);
            for (int lane = 0; lane < lanes; lane++)
                if (bits >> lane & 1)
                    for (int b = 0; b < width; b++)
                        ascasm_shuffle[shift][bits][out++] = (uint8_t)(lane * width + b);
        }
    }
}

/* One mask word's lanes (64 / width of them, from src), moved to packed + n by groups of `lanes`
 * (4 for width 4, else 8) with one shuffle each; returns the new n. */
static inline int64_t ascasm_squeeze_word(const uint8_t* src, uint64_t word, int width, uint8_t* packed,
                                          int64_t n) {
    const int shift = width == 1 ? 0 : width == 2 ? 1 : 2, lanes = width == 4 ? 4 : 8;
    uint64_t bits = ascasm_lane_bits(word, width);
    for (int g = 0; g < 64 / width / lanes; g++) {
        unsigned group = (unsigned)(bits & ((1u << lanes) - 1));
        __m128i table = _mm_loadu_si128((const __m128i*)ascasm_shuffle[shift][group]);
        if (width == 1) {                       /* 8 lanes of a byte: the low half of a register */
            __m128i data = _mm_loadl_epi64((const __m128i*)(src + 8 * g));
            _mm_storel_epi64((__m128i*)(packed + n), _mm_shuffle_epi8(data, table));
        } else {
            __m128i data = _mm_loadu_si128((const __m128i*)(src + 16 * g));
            _mm_storeu_si128((__m128i*)(packed + n), _mm_shuffle_epi8(data, table));
        }
        n += __builtin_popcount(group) * width;
        bits >>= lanes;
    }
    return n;
}
#else
static void ascasm_squeeze_init(void) {}
#endif

/* The active lanes of src (VL bytes, lanes of `width` bytes, lane i active when bit i*width of mask is
 * set), in order, from packed[0], and 0 in the bytes after them; returns how many bytes the lanes are.
 * `packed` holds VL bytes and is not src. Group g's store starts at most at byte g * (its size), so it
 * ends inside; a shuffle's unused bytes are 0. */
static inline int64_t ascasm_squeeze(const uint8_t* src, const uint64_t* mask, int width, uint8_t* packed) {
    int64_t n = 0;
#if defined(__SSSE3__) && !defined(ASCASM_PORTABLE)
    /* zeroed by vector stores: a memset of 256 bytes here compiles to a slow `rep stos` */
#pragma GCC unroll 16
    for (int k = 0; k < ASCASM_VL; k += 16)
        _mm_storeu_si128((__m128i*)(packed + k), _mm_setzero_si128());
    /* a constant width in each call, so the compiler drops the other widths' code */
    for (int w = 0; w < ASCASM_VL / 64; w++) {
        if (width == 4)
            n = ascasm_squeeze_word(src + 64 * w, mask[w], 4, packed, n);
        else if (width == 2)
            n = ascasm_squeeze_word(src + 64 * w, mask[w], 2, packed, n);
        else
            n = ascasm_squeeze_word(src + 64 * w, mask[w], 1, packed, n);
    }
#else
    /* Every lane is copied to byte n and only an active one advances n: no branch on the mask's bits,
     * which are data (a branch per lane mispredicts about half the time). */
    memset(packed, 0, ASCASM_VL);
    for (int i = 0; i < ASCASM_VL / width; i++) {
        memcpy(packed + n, src + i * width, (size_t)width);
        n += (int64_t)(mask[(i * width) >> 6] >> ((i * width) & 63) & 1) * width;
    }
    if (n < ASCASM_VL)
        memset(packed + n, 0, (size_t)width);   /* the last inactive lane's bytes, copied to byte n */
#endif
    return n;
}

#endif
