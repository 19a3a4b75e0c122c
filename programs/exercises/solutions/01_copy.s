; Exercise 1 (docs/tutorial.md, lesson 1): copy `src` to `dst` with one load and one store.
; Expected: dst = src = 3i + 1 for every i.
.ub src u16[128] = 3 * i + 1
.ub dst u16[128]
.out dst

        vld     v0.u16, [src]           ; 256 bytes: 128 u16 lanes
        mask    p0.b16, ALL             ; every lane active
        vsta    [dst], v0.u16, p0
        halt

.expect dst = 3 * i + 1
