; Exercise 1 (docs/tutorial.md, lesson 1): copy `src` to `dst` with one load and one store.
; Expected: dst = src = 3i + 1 for every i.
.ub src u16[128] = 3 * i + 1
.ub dst u16[128]
.out dst

; TODO: load src into v0 as 128 u16 lanes (vld), make a mask p0 with every b16 lane active
;       (mask ... ALL), and store v0 to dst under p0 (vsta).

.expect dst = 3 * i + 1
