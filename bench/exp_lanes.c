/* Checks the engine's vectorised exp (ascasm/_engine/exp.h) against libm on every f32 input: for each of
 * the 2^32 bit patterns x, exp.h's result rounded to f32 must have the bits of (float)exp((double)x)
 * (NaNs: both NaN). Compile it with the engine's flags, for each build it ships, and run it:
 *
 *     cc -O3 -ffp-contract=off -fno-strict-aliasing -march=x86-64-v3 -Iascasm/_engine bench/exp_lanes.c -lm -o /tmp/exp_lanes
 *     /tmp/exp_lanes
 *
 * It prints the count of inputs that differ (0 expected) and of those outside [-87, 88], which take
 * libm's exp (the lanes next to an f32 rounding boundary do too, and are not counted). */
#include <stdio.h>
#include "exp.h"

int main(void) {
    double x[64], out[64];
    uint64_t differ = 0, fell_back = 0, base;
    for (base = 0; base < (1ULL << 32); base += 64) {
        int i;
        for (i = 0; i < 64; i++) {
            uint32_t bits = (uint32_t)(base + i);
            float f;
            memcpy(&f, &bits, sizeof f);
            x[i] = f;
        }
        ascasm_exp_lanes(x, out);
        for (i = 0; i < 64; i++) {
            float mine = (float)out[i], libm = (float)exp(x[i]);
            uint32_t a, b;
            memcpy(&a, &mine, sizeof a);
            memcpy(&b, &libm, sizeof b);
            if (a != b && !(mine != mine && libm != libm)) {
                if (differ < 10)
                    printf("differs: x = %a: %a against libm's %a\n", x[i], (double)mine, (double)libm);
                differ++;
            }
            fell_back += !((x[i] >= -87.0) & (x[i] <= 88.0));
        }
    }
    printf("%llu of 2^32 f32 inputs differ from libm; %llu outside [-87, 88] take libm's exp\n",
           (unsigned long long)differ, (unsigned long long)fell_back);
    return differ != 0;
}
