; Exercise 4 (lesson 4): c = a + b over 512 f32 values, 64 lanes (256 bytes) per round.
; Expected: a = i/2 and b = 1000 - i are exact in f32, and so is c = 1000 - i/2.
.ub a f32[512] = 0.5 * i
.ub b f32[512] = 1000 - i
.ub c f32[512]

        mask    p0.b32, ALL
        mov     s0, 0                   ; byte offset of this round's chunk
loop:   vld     v0.f32, [a + s0]
        vld     v1.f32, [b + s0]
        vadd    v2.f32, v0.f32, v1.f32, p0
        vsta    [c + s0], v2.f32, p0
        add     s0, s0, 256
        blt     s0, 2048, loop          ; 512 values * 4 bytes
        halt

.expect c = 1000 - 0.5 * i
