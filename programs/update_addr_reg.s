; asc_update_addr_reg: an address register rebuilt in every iteration from the enclosing hardware
; loops' indices times the strides, offset0 (X0) bound to the innermost loop (lidx0).
;
; 1. The page's example: repeat_time = 4 blocks of one_repeat_size = 128 halves copied from src to dst,
;    the block's offset a0 = i * one_repeat_size elements (both from scalar registers, as the example
;    passes them). With a constant address register (iter) every iteration would copy the same block.
;    Expected, by hand: dst = src, i.e. i * 0.5 (exact in f16 up to 255.5).
; 2. Two nested loops: a 3 x 4 grid of 32-byte blocks (rows r = lidx1, columns c = lidx0) written out
;    transposed, 4 x 3. Source block r*4 + c is at c*16 + r*64 elements, its place in the transposed
;    grid at c*48 + r*16. Expected, by hand: gridT's block b (element i: b = i // 16) sits at row
;    b // 3, column b % 3 of the transposed grid, so it holds grid's block 4 * (b % 3) + b // 3, whose
;    element k is that block number * 16 + k.
; 3. Four nested loops: the Reg layer's data-type page's 4-D example (N, C, H, W = 2, 3, 2, 2; one W step is one
;    vector of 64 floats), dst = src + src, but dst laid out N, H, C, W: its strides are W 64, C 128,
;    H 384, N 768 elements, the source's W 64, H 128, C 256, N 768. Expected, by hand: dst's vector b
;    (b = i // 64) has w = b % 2, c = (b // 2) % 3, h = (b // 6) % 2, n = b // 12 and comes from source
;    vector w + 2h + 4c + 12n; its element k is 2 * (that vector * 64 + k).
; tests/test_hw_loops.py checks the three results against a numpy model of the loops as well.
.ub src    f16[512]  = i * 0.5
.ub dst    f16[512]
.ub grid   u16[192]  = i
.ub gridT  u16[192]
.ub nchw   f32[1536] = i
.ub nhcw   f32[1536]
.out gridT
.expect dst   = i * 0.5
.expect gridT = (4 * ((i // 16) % 3) + (i // 16) // 3) * 16 + i % 16
.expect nhcw  = 2 * (((i // 64) % 2 + 2 * ((i // 384) % 2) + 4 * ((i // 128) % 3) + 12 * (i // 768)) * 64 + i % 64)

        ; 1. the page's example
        mask    p0.b16, ALL
        mov     s1, 128                 ; one_repeat_size
        mov     s2, 4                   ; repeat_time
        vloop   s2
        vag     a0.b16, s1              ; a0 = lidx0 * 128 halves
        vld     v0.f16, [src + a0]
        vsta    [dst + a0], v0.f16, p0
        endloop

        ; 2. a grid of blocks transposed
        mask    p1.b16, VL16            ; one 32-byte block of u16
        vloop   3                       ; rows r: lidx1
        vloop   4                       ; columns c: lidx0
        vag     a1.b16, 16, 64          ; c * 16 + r * 64 elements
        vag     a2.b16, 48, 16          ; c * 48 + r * 16 elements
        vld.blk v1.u16, [grid + a1]
        vsta    [gridT + a2], v1.u16, p1
        endloop
        endloop

        ; 3. four loops: N, C, H, W (W innermost)
        mask    p2.b32, ALL
        mov     s3, 2                   ; N
        vloop   s3                      ; n: lidx3
        vloop   3                       ; c: lidx2
        vloop   2                       ; h: lidx1
        vloop   2                       ; w: lidx0
        vag     a3.b32, 64, 128, 256, 768   ; source N, C, H, W: strides innermost first (W, H, C, N)
        vag     a4.b32, 64, 384, 128, 768   ; destination N, H, C, W
        vld     v2.f32, [nchw + a3]
        vadd    v3.f32, v2.f32, v2.f32, p2
        vsta    [nhcw + a4], v3.f32, p2
        endloop
        endloop
        endloop
        endloop
        halt
