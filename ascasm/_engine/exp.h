/* exp of a register's f32 lanes widened to double, with the same f32 result as libm's exp rounded to
 * f32 (vexp's definition: docs/semantics.md), in a loop the compiler vectorises. One of the engine's
 * helpers in C (with squeeze.h and signs.h).
 *
 * Each lane is computed in double: k = round(x / ln 2), r = x - k ln 2 (ln 2 in two parts, so k times the
 * first is exact), exp(r) by its Taylor series to r^13 (|r| <= 0.35: the series' remainder is below 2^-57)
 * and the result scaled by 2^k through its exponent bits. That is within a few double ulps of exp(x), as
 * libm's exp is within one, so the two round to the same f32 unless exp(x) lies next to a point halfway
 * between two f32 values: a lane whose result is within 1024 double ulps of such a point, or whose x is
 * outside [-87, 88] (f32 results subnormal, infinite or NaN, and NaN inputs), takes libm's exp instead
 * (about one normal lane in 2^19). bench/exp_lanes.c checks every f32 input against libm. */
#ifndef ASCASM_EXP_H
#define ASCASM_EXP_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ascasm_double_bits(double x) {
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits;
}

static inline double ascasm_double_of_bits(uint64_t bits) {
    double x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* out[i] = exp(x[i]) for i < 64, each rounding to the same f32 as libm's exp (out is not x) */
static inline void ascasm_exp_lanes(const double *x, double *out) {
    const double inv_ln2 = 0x1.71547652b82fep0, shift = 0x1.8p52;      /* shift: rounds to an integer */
    const double ln2_high = 0x1.62e42feep-1, ln2_low = 0x1.a39ef35793c76p-33;
    const uint64_t round_bits = (1ULL << 29) - 1, halfway = 1ULL << 28;  /* the bits below an f32's */
    unsigned char use_libm[64];
    unsigned char any = 0;
    int i;
    for (i = 0; i < 64; i++) {
        int in_range = (x[i] >= -87.0) & (x[i] <= 88.0);                /* false for NaN */
        double safe = ascasm_double_of_bits(ascasm_double_bits(x[i]) & -(uint64_t)in_range);   /* else 0 */
        double t = safe * inv_ln2 + shift;
        double k = t - shift;
        int64_t k_int = (int64_t)(ascasm_double_bits(t) - ascasm_double_bits(shift));
        double r = (safe - k * ln2_high) - k * ln2_low;
        double p = 1.0 / 6227020800.0;                                   /* 1/13! */
        p = p * r + 1.0 / 479001600.0;
        p = p * r + 1.0 / 39916800.0;
        p = p * r + 1.0 / 3628800.0;
        p = p * r + 1.0 / 362880.0;
        p = p * r + 1.0 / 40320.0;
        p = p * r + 1.0 / 5040.0;
        p = p * r + 1.0 / 720.0;
        p = p * r + 1.0 / 120.0;
        p = p * r + 1.0 / 24.0;
        p = p * r + 1.0 / 6.0;
        p = p * r + 0.5;
        p = p * r + 1.0;
        p = p * r + 1.0;
        double result = p * ascasm_double_of_bits((uint64_t)(k_int + 1023) << 52);
        uint64_t below = ascasm_double_bits(result) & round_bits;
        use_libm[i] = !in_range | (below - (halfway - 1024) <= 2048);   /* (wraps below halfway - 1024) */
        any |= use_libm[i];
        out[i] = result;
    }
    if (any) {
        for (i = 0; i < 64; i++) {
            if (use_libm[i])
                out[i] = exp(x[i]);
        }
    }
}

#endif
