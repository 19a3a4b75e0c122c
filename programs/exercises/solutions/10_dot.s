; Exercise 10 (lesson 10): a complete kernel, the dot product of two 256-element f32 vectors:
; multiply chunk by chunk, accumulate in a vector register, reduce once at the end.
; a = i mod 8, b = 2: the sum is 2 * 32 * (0 + 1 + ... + 7) = 2 * 32 * 28 = 1792. Every partial is a
; small integer, exact in f32, so the order of the additions does not matter here.
.ub a   f32[256] = i % 8
.ub b   f32[256] = 2
.ub dot f32[8]

        mask    p0.b32, ALL
        vdup    v4.f32, 0               ; the accumulator, 64 lanes
        mov     s0, 0
loop:   vld     v0.f32, [a + s0]
        vld     v1.f32, [b + s0]
        vmul    v2.f32, v0.f32, v1.f32, p0
        vadd    v4.f32, v4.f32, v2.f32, p0
        add     s0, s0, 256
        blt     s0, 1024, loop
        vredsum v5.f32, v4.f32, p0      ; lane 0: the dot product
        vsta.1st [dot], v5.f32
        halt

.expect dot = [1792, 0, 0, 0, 0, 0, 0, 0]
