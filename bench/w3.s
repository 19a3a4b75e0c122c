; W3 (docs/performance.md): one tile of 16384 f32 values; per chunk of 64 lanes, mask = value > 0.5 and
; the active lanes stored contiguously: vsqz.st packs them low and sets SQZN to their bytes, vstur
; appends those bytes to the unaligned store stream of u0 at out + AR and advances AR; the flush at the
; end writes the last incomplete 32-byte block. bench/workloads.py reads the count as AR / 4.
.ub x    f32[16384]
.ub out  f32[16384]

        mask    p0.b32, ALL
        vdup    v3.f32, 0.5
        sprclr.ar
        mov     s0, 0                   ; byte offset of the chunk
loop:   vld     v0.f32, [x + s0]
        vcmp.gt p1, v0.f32, v3.f32, p0
        vsqz.st v1.f32, v0.f32, p1
        vstur   [out], u0, v1.f32
        add     s0, s0, 256
        blt     s0, 65536, loop
        vstar   [out], u0
        halt
