; Gather (asc_gather): element indices, inactive lanes become 0.
;  - a reversed copy: lane i reads x[127 - i]
;  - b8 data rides in 16-bit lanes: the byte -40 (0xD8) is zero-extended to 216
.ub x       u16[128] = 3 * i
.ub rev     u16[128] = 127 - i
.ub bytes   s8[64] = [-40, 5]
.ub picks   u16[128] = [0, 1, 0]
.ub copy    u16[128]
.ub widened u16[128] = 0x7777
.out copy, widened

        vld      v1.u16, [rev]
        mask     p0.b16, ALL
        vgat     v0.u16, [x], v1.u16, p0
        vsta     [copy], v0.u16, p0

        vld      v3.u16, [picks]
        mask     p1.b16, VL3            ; lanes 3.. inactive: 0 in the result
        vgat     v2.u8, [bytes], v3.u16, p1
        vsta     [widened], v2.u16, p0
        halt

.expect copy = 3 * (127 - i)
.expect widened = [216, 5, 216]
