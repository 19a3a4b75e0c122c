; W3 (docs/performance.md), masked-store stand-in until the compaction store lands (issue 11): one tile
; of 16384 f32 values; per chunk of 64 lanes, mask = value > 0.5, the active lanes stored in place
; (position-preserving vsta) and counted. s6 carries the count between tiles (set by bench/workloads.py).
.ub x    f32[16384]
.ub out  f32[16384]

        mask    p0.b32, ALL
        vdup    v3.f32, 0.5
        mov     s0, 0                   ; byte offset of the chunk
loop:   vld     v0.f32, [x + s0]
        vcmp.gt p1, v0.f32, v3.f32, p0
        vsta    [out + s0], v0.f32, p1
        pcnt    s7, p1.b32
        add     s6, s6, s7
        add     s0, s0, 256
        blt     s0, 65536, loop
        halt
