; Exercise 7 (lesson 7): reverse `src` into `dst` with one scatter: lane i goes to element 127 - i.
; src = 2i, so dst[127 - i] = 2i, i.e. dst[j] = 2(127 - j) = 254 - 2j.
.ub src u16[128] = 2 * i
.ub idx u16[128] = 127 - i              ; the index of each lane, in elements
.ub dst u16[128]

        vld     v0.u16, [src]
        vld     v1.u16, [idx]
        mask    p0.b16, ALL
        vsct    [dst], v0.u16, v1.u16, p0    ; dst[v1[i]] = v0[i]
        halt

.expect dst = 254 - 2 * i
