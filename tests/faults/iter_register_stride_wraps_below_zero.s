; expect UB_RANGE at 9:5 step 4: UB access out of range: 256 bytes at address 0xffffffe0; the usable UB is 253952 bytes (0x0..0x3e000)
; a negative run-time stride is the page's uint32_t: 1 * (2^32 - 8) * 4 bytes = 0xffffffe0 modulo 2^32, an
; unsigned offset, so [src + a0] lies far past the UB instead of 32 bytes below src (at 0), and the load faults
    .ub src f32[64] = 1.0
    .ub dst f32[64]
    mov s0, 1
    mov s1, -8
    iter a0.b32, s0, s1
    vld v0.f32, [src + a0]
    mask p0.b32, ALL
    vsta [dst], v0.f32, p0
