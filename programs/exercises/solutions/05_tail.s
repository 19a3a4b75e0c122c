; Exercise 5 (lesson 5): y = 3x for the first N = 200 elements; y[200..255] must keep their 0xffff.
; 200 = 128 + 72: the second round may store only 72 lanes, which mask.upd arranges.
; Expected: y[i] = 3i for i < 200, else 0xffff. In the .expect, (199 - i) >> 15 is 0 for i <= 199
; and -1 for i >= 200 (an arithmetic shift of a small negative number), so `inside` = 1 + that is 1
; exactly for i < 200.
.equ N 200
.ub x u16[256] = i
.ub y u16[256] = 0xffff

        mov     s0, N                   ; elements left
        mov     s1, 0                   ; byte offset
loop:   mask.upd p0.b16, s0             ; lanes i < s0 active; then s0 -= 128 (or becomes 0)
        vld     v0.u16, [x + s1]
        vmuls   v1.u16, v0.u16, 3, p0
        vsta    [y + s1], v1.u16, p0
        add     s1, s1, 256
        bgt     s0, 0, loop
        halt

.expect y = (1 + ((199 - i) >> 15)) * 3 * i - ((199 - i) >> 15) * 0xffff
