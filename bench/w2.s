; W2 (docs/performance.md): threshold scatter of one tile of 16384 f32 values into a 16384-element
; block. Per chunk of 64 lanes: load the values and their u32 indices, mask = value >= 0.25, scatter the
; active values to dst[index]. The indices are a bijection inside the block, so no lane collides.
.ub x    f32[16384]
.ub idx  u32[16384]
.ub dst  f32[16384]

        mask    p0.b32, ALL
        vdup    v3.f32, 0.25
        mov     s0, 0                   ; byte offset of the chunk
loop:   vld     v0.f32, [x + s0]
        vld     v1.u32, [idx + s0]
        vcmp.ge p1, v0.f32, v3.f32, p0
        vsct    [dst], v0.f32, v1.u32, p1
        add     s0, s0, 256
        blt     s0, 65536, loop
        halt
