; Threshold scatter: 256 f32 values in four 64-lane chunks. Each chunk is compared against a threshold
; (vcmp.ge against a vdup broadcast) and only the values >= THRESHOLD are scattered to out[idx[i]]
; under that compare mask. The indices are a permutation of 0..255, so no two lanes (in one chunk or
; across chunks) write the same element: no duplicate warning, and no membar is needed (each vsct
; writes bytes no earlier instruction wrote). `out` starts filled with the sentinel -100 (below every
; value), so the elements nobody wrote stay visible. pcnt counts the kept lanes; the total goes to
; `count`.
;
; Expected, by hand:
;   values[i] = ((97 i) mod 256) / 16 - 8  (97 is odd: 256 distinct multiples of 1/16 in [-8, 7.9375],
;                                            exact in f32, so a lane or chunk mix-up cannot hide)
;   idx[i]    = (77 i) mod 256             (77 is odd, so a permutation of 0..255)
;   A value is kept iff t = 97 i mod 256 satisfies t / 16 - 8 >= 2, i.e. t >= 160. As i runs over
;   0..255, t runs over 0..255 once, so 256 - 160 = 96 values are kept: count = 96.
;   out[j] is written by the i with 77 i = j (mod 256). 77 * 133 = 10241 = 40 * 256 + 1, so i = 133 j
;   (mod 256), and t = 97 * 133 j = 12901 j = 101 j (mod 256) (12901 = 50 * 256 + 101). With
;   t = (101 j) % 256 and keep = t // 160 (1 if t >= 160, else 0, since t < 320):
;   out[j] = t / 16 - 8 if keep else -100, written below as (t*0.0625 - 8)*keep + (-100)*(1 - keep).
;   (Every term is exact; a -0.0 product is absorbed by the other term, which is then nonzero.)
;   E.g. out[0]: t = 0, not kept, -100; out[2]: t = 202, kept, 202/16 - 8 = 4.625. The value equal
;   to the threshold, 2.0 (t = 160 at i = 160: 97 * 160 = 15520 = 60 * 256 + 160), is kept (.ge, not
;   .gt) and lands at j = 77 * 160 mod 256 = 32 (12320 = 48 * 256 + 32): out[32] = 2.0.
.equ THRESHOLD 2.0
.equ SENTINEL -100.0
.ub values  f32[256] = ((i * 97) % 256) * 0.0625 - 8
.ub indices u32[256] = (i * 77) % 256
.ub out     f32[256] = SENTINEL
.ub count   u32[8]
.out out, count

        mask    p0.b32, ALL            ; 64 f32 lanes
        vdup    v2.f32, THRESHOLD
        mov     s0, 0                  ; byte offset of the chunk
        mov     s1, 0                  ; kept lanes so far
loop:   vld     v0.f32, [values + s0]
        vld     v1.u32, [indices + s0]
        vcmp.ge p1, v0.f32, v2.f32, p0 ; p1: lanes with value >= THRESHOLD
        vsct    [out], v0.f32, v1.u32, p1
        pcnt    s2, p1.b32
        add     s1, s1, s2
        add     s0, s0, 256
        blt     s0, 1024, loop
        st      [count], s1.u32
        halt

.expect out = (((101 * i) % 256) * 0.0625 - 8) * (((101 * i) % 256) // 160) + SENTINEL * (1 - ((101 * i) % 256) // 160)
.expect count = [96, 0, 0, 0, 0, 0, 0, 0]
