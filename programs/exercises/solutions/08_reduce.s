; Exercise 8 (lesson 8): the sum of 128 s16 values x = i - 50 as an s32, and their maximum with its
; index.
; Expected: sum = (0 + ... + 127) - 50 * 128 = 8128 - 6400 = 1728; max = x[127] = 77, at index 127
; (vredmax puts the value in lane 0 and the index, as raw bits, in lane 1).
.ub x     s16[128] = i - 50
.ub total s32[8]
.ub best  s16[16]

        mask    p0.b16, ALL
        vld     v0.s16, [x]
        vredsum v1.s32, v0.s16, p0      ; lane 0: the sum, in 32 bits
        vsta.1st [total], v1.s32         ; lane 0 only
        vredmax v2.s16, v0.s16, p0      ; lane 0: max, lane 1: its index
        mask    p1.b16, VL2
        vsta    [best], v2.s16, p1
        halt

.expect total = [1728, 0, 0, 0, 0, 0, 0, 0]
.expect best = [77, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
