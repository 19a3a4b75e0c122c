; Exercise 6 (lesson 6): leaky ReLU on 128 f16 values: y = x where x > 0, else x / 4.
; x = (i - 64) / 8: multiples of 1/8 from -8 to 7.875, exact in f16, and so are x / 4 = (i - 64) / 32.
; Expected: y = (i - 64) / 8 for i > 64, (i - 64) / 32 for i <= 64 (x = 0 at i = 64: 0 / 4 = 0).
; In the .expect, (i - 65) >> 15 is -1 for i <= 64 and 0 for i >= 65, so `pos` = 1 + that.
.ub x f16[128] = (i - 64) / 8
.ub y f16[128]

        mask    p0.b16, ALL
        vld     v0.f16, [x]
        vdup    v1.f16, 0               ; zeros to compare against
        vcmp.gt p1, v0.f16, v1.f16, p0  ; p1: the lanes with x > 0
        vmuls   v2.f16, v0.f16, 0.25, p0
        vsel    v3.f16, v0.f16, v2.f16, p1   ; active in p1: x, else x / 4
        vsta    [y], v3.f16, p0
        halt

.expect y = (1 + ((i - 65) >> 15)) * (i - 64) / 8 - ((i - 65) >> 15) * (i - 64) / 32
