; Exercise 2 (lesson 2): store only the lanes whose index is a multiple of 3; every other element of
; `dst` keeps its 0xffff.
; Expected: dst[i] = i when i mod 3 = 0, else 0xffff. In the .expect, (2 - i % 3) // 2 is 1 exactly
; when i % 3 = 0 (2 // 2) and 0 otherwise (1 // 2, 0 // 2).
.ub src u16[128] = i
.ub dst u16[128] = 0xffff
.out dst

; TODO: load src, make p0 select the lanes whose index is a multiple of 3 (ascasm explain mask
;       lists the patterns), and store under p0.

.expect dst = ((2 - i % 3) // 2) * i + (1 - (2 - i % 3) // 2) * 0xffff
