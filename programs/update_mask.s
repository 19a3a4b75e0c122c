; UpdateMask (asc_update_mask): 320 b16 elements take three registers -- full, full, then the low 64
; lanes -- and the counter goes 320 -> 192 -> 64 -> 0. Each mask is stored (32 bytes, bit k = bit
; k%8 of byte k//8) and the counter after each step is kept, so .expect can check both.
.ub masks   u8[96]
.ub counts  s64[4]
.out counts

        mov      s0, 320
        mask.upd p0.b16, s0
        st       [counts], s0.s64
        mask.upd p1.b16, s0
        st       [counts + 8], s0.s64
        mask.upd p2.b16, s0
        st       [counts + 16], s0.s64
        mask.upd p3.b16, s0
        st       [counts + 24], s0.s64
        vsta     [masks], p0
        vsta     [masks + 32], p1
        vsta     [masks + 64], p2
        halt

; b16 element i is bit 2i: a full b16 mask is 0x55 in every byte, and 64 active elements fill bits
; 0..127, i.e. bytes 0..15 of the third mask. So bytes 0..79 are 0x55 and bytes 80..95 are 0.
.expect masks = 0x55 * (1 - i // 80)
.expect counts = [192, 64, 0, 0]
