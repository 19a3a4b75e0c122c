; W1 f32 (docs/performance.md): argmax of one tile of 32768 f32 values, 64 lanes at a time.
; Per 256-byte chunk: vld + vredmax (max and first lane), the two lanes stored and read back as scalars,
; and a scalar combine that keeps the first maximum (strictly greater replaces; the data are >= 0, so
; raw bits order like the values). Carried between tiles in scalar registers, set by bench/workloads.py:
;   s10 = index of the tile's first element, s1 = best bits so far (-1: none), s2 = best index.
.ub data  f32[32768]
.ub lanes u32[8]

        mask    p0.b32, ALL
        mask    p1.b32, VL2
        mov     s0, 0                   ; byte offset of the chunk
        mov     s3, s10                 ; index of the chunk's lane 0
loop:   vld     v0.f32, [data + s0]
        vredmax v1.f32, v0.f32, p0
        vsta    [lanes], v1.f32, p1     ; lane 0: the chunk's max, lane 1: its first lane
        membar
        ld      s4.u32, [lanes]
        ld      s5.u32, [lanes + 4]
        ble     s4, s1, next
        mov     s1, s4
        add     s2, s3, s5
next:   add     s0, s0, 256
        add     s3, s3, 64
        blt     s0, 131072, loop
        halt
