; Exercise 6 (lesson 6): leaky ReLU on 128 f16 values: y = x where x > 0, else x / 4.
; x = (i - 64) / 8: multiples of 1/8 from -8 to 7.875, exact in f16, and so are x / 4 = (i - 64) / 32.
; Expected: y = (i - 64) / 8 for i > 64, (i - 64) / 32 for i <= 64 (x = 0 at i = 64: 0 / 4 = 0).
; In the .expect, (i - 65) >> 15 is -1 for i <= 64 and 0 for i >= 65, so `pos` = 1 + that.
.ub x f16[128] = (i - 64) / 8
.ub y f16[128]

; TODO: compare x with a vector of zeros (vdup, vcmp.gt) into p1, compute x / 4 (vmuls by 0.25),
;       pick per lane with vsel under p1, store.

.expect y = (1 + ((i - 65) >> 15)) * (i - 64) / 8 - ((i - 65) >> 15) * (i - 64) / 32
