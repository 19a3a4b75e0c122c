; Exercise 3 (lesson 3): y = 2x + 1 for 128 s16 values x = i - 64.
; Expected: y = 2(i - 64) + 1 = 2i - 127 (from -127 to 127: no wrap).
.ub x s16[128] = i - 64
.ub y s16[128]
.out y

; TODO: make an all-lanes mask, load x as s16, multiply by the scalar 2 (vmuls), add 1 (vadds),
;       store to y.

.expect y = 2 * i - 127
