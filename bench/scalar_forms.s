; The scalar-operand forms beside a vector form, one 256-byte chunk of f32 (64 lanes) per pass: 256
; chunks. For callgrind (docs/performance.md): python bench/callgrind_chunks.py --program
; bench/scalar_forms.s --chunks 256. The data are whatever the UB holds (zeros): only the count matters.
.ub data f32[16384]
.ub out  f32[16384]
        mask    p0.b32, ALL
        mov     s0, 0
loop:   vld     v0.f32, [data + s0]
        vadds   v1.f32, v0.f32, 1.5, p0
        vmuls   v2.f32, v1.f32, 0.25, p0
        vadd    v3.f32, v1.f32, v2.f32, p0
        vmaxs   v4.s32, v0.s32, 7, p0
        vcmps.lt p1, v2.f32, 0.5, p0
        vshls   v5.u32, v0.u32, 3, p0
        vaxpy   v3.f32, v0.f32, 2.0, p0
        vleakyrelu v6.f32, v3.f32, 0.1, p0
        vsta    [out + s0], v3.f32, p0
        add     s0, s0, 256
        blt     s0, 65536, loop
        halt
