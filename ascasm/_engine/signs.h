/* The top bit of each byte of a vector register's 256 bytes as four 64-bit words, for the compares
 * (kernels_compute.pxi): a lane of W bytes whose bytes are all 0xFF where its comparison holds then has
 * bit i*W set, its mask bit. On x86-64 one SSE2 byte-sign gather (pmovmskb) covers 16 bytes; other
 * machines, and the debug build (ASCASM_PORTABLE, setup.py), take the byte-by-byte loop. Both give the
 * same words: the random-program tests compare every compare with the reference executor, CI on both
 * builds. */
#ifndef ASCASM_SIGNS_H
#define ASCASM_SIGNS_H

#include <stdint.h>
#if defined(__SSE2__) && !defined(ASCASM_PORTABLE)
#include <emmintrin.h>
#endif

static inline void ascasm_sign_bits(const uint8_t* bytes, uint64_t* words) {
    for (int w = 0; w < 4; w++) {
        uint64_t bits = 0;
#if defined(__SSE2__) && !defined(ASCASM_PORTABLE)
        for (int g = 0; g < 4; g++) {
            __m128i chunk = _mm_loadu_si128((const __m128i*)(bytes + 64 * w + 16 * g));
            bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(chunk) << (16 * g);
        }
#else
        for (int k = 0; k < 64; k++)
            bits |= (uint64_t)(bytes[64 * w + k] >> 7) << k;
#endif
        words[w] = bits;
    }
}

#endif
