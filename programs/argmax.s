; argmax over 4096 non-negative f32 values, 64 lanes at a time: vredmax gives each chunk's max and
; the lane of its first occurrence; a scalar loop keeps the best. The values are all >= 0, so their raw
; bits (read with ld .u32) order like the values, and a strictly-greater test keeps the first occurrence.
;
; Expected: data[i] = (37 i) mod 1021, so the max is 1020, reached where 37 i = -1 (mod 1021). The
; inverse of 37 mod 1021 is 138 (37 * 138 = 5106 = 5 * 1021 + 1), so i = -138 = 883 (mod 1021): the
; max occurs at 883, 1904, 2925 and 3946, and the first index is 883. 1020.0 as f32 is
; 0x447F0000 = 1149173760 (1020 = 1.9921875 * 2^9: exponent 127 + 9 = 0x88, mantissa 0x7F0000).
; Also counted: the number of values equal to the max, with vdup + vcmp.eq + pcnt per chunk (4).
.ub data  f32[4096] = (i * 37) % 1021
.ub chunk u32[8]
.ub out   u32[3]
.out out

        mov     s0, 0                  ; byte offset of the chunk
        mov     s1, -1                 ; best value bits so far (any value >= 0 beats -1)
        mov     s2, 0                  ; its index
        mov     s3, 0                  ; index of the chunk's lane 0
        mask    p0.b32, ALL
        mask    p1.b32, VL2
loop:   vld     v0.f32, [data + s0]
        vredmax v1.f32, v0.f32, p0
        vsta    [chunk], v1.f32, p1    ; lane 0: the chunk's max, lane 1: its first lane
        membar
        ld      s4.u32, [chunk]
        ld      s5.u32, [chunk + 4]
        ble     s4, s1, next           ; only a strictly larger max replaces the best
        mov     s1, s4
        add     s2, s3, s5
next:   add     s0, s0, 256
        add     s3, s3, 64
        blt     s3, 4096, loop

        mov     s0, 0                  ; second pass: how many lanes equal the max
        mov     s6, 0
        vdup    v2.f32, 1020.0
count:  vld     v0.f32, [data + s0]
        vcmp.eq p2, v0.f32, v2.f32, p0
        pcnt    s7, p2.b32
        add     s6, s6, s7
        add     s0, s0, 256
        blt     s0, 16384, count

        st      [out], s1.u32
        st      [out + 4], s2.u32
        st      [out + 8], s6.u32
        halt

.expect out = [1149173760, 883, 4]
