/* The benchmark workloads of bench/workloads.py written as plain scalar C: the yardstick the engine is
 * measured against. bench/workloads.py compiles this file with the system C compiler into a shared
 * library (auto-vectorisation off: one element per step, as a programmer's straightforward loop runs),
 * calls each function through ctypes on the same data as the ascasm programs, checks its result
 * against the numpy reference and times it in passes alternated with the engine's.
 *
 * Each function does the whole N elements in one call; the tiles of the ascasm programs are a UB-size
 * limit of the device that compiled C does not have. */
#include <stdint.h>

/* W1: the first index of the maximum. The data are >= 0, so raw bits order like the values. */
void w1_f32(const float *x, int64_t n, uint32_t *best_bits, int64_t *best_index)
{
    float best = -1.0f;
    int64_t index = 0;
    for (int64_t i = 0; i < n; i++) {
        if (x[i] > best) {
            best = x[i];
            index = i;
        }
    }
    union { float f; uint32_t u; } bits = { best };
    *best_bits = bits.u;
    *best_index = index;
}

/* W1 f16: the same over binary16 bit patterns (non-negative, so the bits order like the values). */
void w1_f16(const uint16_t *x, int64_t n, uint32_t *best_bits, int64_t *best_index)
{
    int32_t best = -1;
    int64_t index = 0;
    for (int64_t i = 0; i < n; i++) {
        if ((int32_t)x[i] > best) {
            best = x[i];
            index = i;
        }
    }
    *best_bits = (uint32_t)best;
    *best_index = index;
}

/* W2: each value >= 0.25 written to dst[its block's base + its index]; n a multiple of `block`. */
void w2(const float *x, const uint32_t *idx, float *dst, int64_t n, int64_t block)
{
    for (int64_t base = 0; base < n; base += block) {
        for (int64_t i = base; i < base + block; i++) {
            if (x[i] >= 0.25f)
                dst[base + idx[i]] = x[i];
        }
    }
}

/* W3: the values > 0.5 stored contiguously; returns their count. Written without a branch on the
 * data, as compaction is written when it matters: every value is stored at the next free slot and the
 * count advances by the comparison (with an `if`, random data mispredicts half the branches). `out`
 * has room for n values. */
int64_t w3(const float *x, float *out, int64_t n)
{
    int64_t count = 0;
    for (int64_t i = 0; i < n; i++) {
        out[count] = x[i];
        count += x[i] > 0.5f;
    }
    return count;
}
