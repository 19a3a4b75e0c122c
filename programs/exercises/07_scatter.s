; Exercise 7 (lesson 7): reverse `src` into `dst` with one scatter: lane i goes to element 127 - i.
; src = 2i, so dst[127 - i] = 2i, i.e. dst[j] = 2(127 - j) = 254 - 2j.
.ub src u16[128] = 2 * i
.ub idx u16[128]                        ; TODO: the index of each lane, in elements
.ub dst u16[128]

; TODO: load src and idx, make an all-lanes mask, scatter (vsct) src to dst at the indices in
;       idx. idx has no INIT yet: give it the expression that sends lane i to 127 - i.

.expect dst = 254 - 2 * i
