; Exercise 3 (lesson 3): y = 2x + 1 for 128 s16 values x = i - 64.
; Expected: y = 2(i - 64) + 1 = 2i - 127 (from -127 to 127: no wrap).
.ub x s16[128] = i - 64
.ub y s16[128]
.out y

        mask    p0.b16, ALL
        vld     v0.s16, [x]
        vmuls   v1.s16, v0.s16, 2, p0   ; 2x
        vadds   v2.s16, v1.s16, 1, p0   ; 2x + 1
        vsta    [y], v2.s16, p0
        halt

.expect y = 2 * i - 127
