; The Reduce page (Reg::Reduce): MAX over 128 halves returns the value in lane 0 and the index of its
; first occurrence as raw bits in lane 1 -- the page's example reads index 114 as 6.8e-06 in a half.
; Then the SUM tree order: 2048, 1, 1, 1, 0, ... sums to 2050 in the pairwise tree, whereas a
; sequential f16 sum would give 2048 (2048 + 1 rounds back to 2048 at every step).
.ub values  f16[128] = 1.14 - 0.01 * (i - 114) * (i - 114)   ; peak 1.14 at i = 114 only
.ub tree    f16[128] = [2048, 1, 1, 1]
.ub maxout  f16[16] = 7
.ub sumout  f16[16] = 7
.out maxout, sumout

        vld      v0.f16, [values]
        mask     p0.b16, ALL
        vredmax  v1.f16, v0.f16, p0
        mask     p1.b16, VL2            ; the page's idiom: store value and index together
        vsta     [maxout], v1.f16, p1

        vld      v2.f16, [tree]
        vredsum  v3.f16, v2.f16, p0
        mask     p2.b16, VL1            ; value only
        vsta     [sumout], v3.f16, p2
        halt

.expect maxout = [1.14, 6.8e-06, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
.expect sumout = [2050, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7]
