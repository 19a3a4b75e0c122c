; Stream compaction ("store the active lanes contiguously"), the loop of benchmark W3:
; 256 f32 values in four 64-lane chunks; per chunk, mask = value > 0, vsqz.st packs the kept lanes
; low and sets SQZN to their bytes, vstur appends those bytes to the unaligned store stream of u0 at
; out + 4 + AR and advances AR by SQZN. sprclr.ar starts AR at 0; vstar writes the bytes of the last
; incomplete 32-byte block, which wait in u0 until then. The stream starts 4 bytes into `out`, so it
; is unaligned from the first store on: out[0] must keep its sentinel.
;
; Expected, by hand:
;   values[i] = (i mod 8) - 3.5: positive for i mod 8 in 4..7, i.e. 0.5, 1.5, 2.5, 3.5 in that order,
;   32 per chunk, 128 in all. The kept values in order are k mod 4 + 0.5 for k = 0..127, stored at
;   out[1 + k]: out[i] = (i - 1) mod 4 + 0.5 = (i + 3) mod 4 + 0.5 for i in 1..128. out[0] and
;   out[129..135] keep the sentinel -1. With in(i) = ((i + 127) // 128) mod 2, which is 1 exactly for
;   i in 1..128: out[i] = ((i + 3) % 4 + 0.5) * in(i) - (1 - in(i)).
;   AR ends at 128 * 4 = 512 bytes.
.ub values f32[256] = (i % 8) - 3.5
.ub out    f32[136] = -1
.out out
.expect out = ((i + 3) % 4 + 0.5) * (((i + 127) // 128) % 2) - (1 - ((i + 127) // 128) % 2)

        mask    p0.b32, ALL
        vdup    v3.f32, 0.0
        sprclr.ar
        mov     s0, 0                   ; byte offset of the chunk
loop:   vld     v0.f32, [values + s0]
        vcmp.gt p1, v0.f32, v3.f32, p0
        vsqz.st v1.f32, v0.f32, p1
        vstur   [out + 4], u0, v1.f32
        add     s0, s0, 256
        blt     s0, 1024, loop
        vstar   [out + 4], u0
        halt
