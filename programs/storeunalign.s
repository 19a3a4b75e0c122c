; asc_storeunalign's page example: 64 u32 lanes stored twice from UB address 8 (not 32-byte aligned)
; through the unaligned store stream of u0, then the residue flushed (asc_storeunalign_post with
; offset repeat * count = 128 elements: the stream ends at 8 + 128 * 4 = 520). The page's comments:
; the first store writes src[0:62] to UB[8:256] and keeps src[62:64] in the register; the second writes
; those two and src[0:62] to UB[256:512] and keeps src[62:64]; the flush writes them to UB[512:520].
; A second stream, with vstus.pu (asc_storeunalign_postupdate), does the same from UB 1032 and leaves
; its address register at the end, where the flush goes.
;
; Expected, by hand: src[i] = i + 1, so UB[8 + 4k : 12 + 4k] holds (k mod 64) + 1 for k = 0..127, i.e.
; as u32 words from address 0: word 0 and 1 untouched (0xEEEEEEEE), words 2..129 = ((j - 2) % 64) + 1,
; words 130..255 untouched. The same from byte 1032 = word 258 on in the second half.
; With t = j - 2 (j the word index of `ub`), in(j) = 1 for 2 <= j <= 129, and
; in(j) = ((j + 126) // 128) % 2 (j = 0, 1: 126 // 128 = 0, 127 // 128 = 0; j = 2..129: 1; j = 130..255: 2 -> 0).
.ub ub   u32[256] = 0xEEEEEEEE @ 0
.ub ub2  u32[256] = 0xEEEEEEEE @ 1024
.ub src  u32[64] = i + 1
.out ub, ub2
.expect ub  = (((i + 62) % 64) + 1) * (((i + 126) // 128) % 2) + 0xEEEEEEEE * (1 - ((i + 126) // 128) % 2)
.expect ub2 = (((i + 62) % 64) + 1) * (((i + 126) // 128) % 2) + 0xEEEEEEEE * (1 - ((i + 126) // 128) % 2)

        vld      v0.u32, [src]
        mov      s0, 0
        mov      s2, 8                  ; dst + i * count, in bytes
loop:   vstus    [s2], u0, v0.u32, 64
        add      s2, s2, 256
        add      s0, s0, 1
        blt      s0, 2, loop
        vstas    [8 + 512], u0          ; asc_storeunalign_post(dst, ureg, 128): the stream's end
        mov      s1, 1024 + 8
        vstus.pu [s1], u1, v0.u32, 64
        vstus.pu [s1], u1, v0.u32, 64
        vstas    [s1], u1               ; s1 is at the end already: offset 0
        halt
