; Exercise 9 (lesson 9): y = x - max(x) for 64 f32 values, the max broadcast through the UB.
; x = (37 i mod 64) - 10: 37 is odd, so the values are -10 .. 53 once each; max = 53.
; Expected: y = (37 i mod 64) - 63, exact. Run it with --strict: without the membar between the
; vsta.1st and the vld.brc that reads the same bytes back, that is a memory-hazard fault.
.ub x   f32[64] = (i * 37) % 64 - 10
.ub tmp f32[8]
.ub y   f32[64]

        mask    p0.b32, ALL
        vld     v0.f32, [x]
        vredmax v1.f32, v0.f32, p0      ; lane 0: the max
        vsta.1st [tmp], v1.f32
        membar                          ; the store must land before the load reads it
        vld.brc v2.f32, [tmp]           ; the max in every lane
        vsub    v3.f32, v0.f32, v2.f32, p0
        vsta    [y], v3.f32, p0
        halt

.expect y = (i * 37) % 64 - 63
