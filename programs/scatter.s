; The asc_scatter page's example: 128 u16 values, every 4th lane active,
; scattered three times into consecutive 128-element blocks of `output`.
.ub output  u16[384] = 0xffff
.ub input   u16[128] = i + 1
.ub indices u16[128] = (i * 3) % 128
.out output

        vld      v0.u16, [input]
        vld      v1.u16, [indices]
        mask     p0.b16, M4
        mov      s0, 0
        mov      s1, output
loop:   vsct     [s1], v0.u16, v1.u16, p0
        add      s1, s1, 256
        add      s0, s0, 1
        blt      s0, 3, loop
        halt

; The page's host check: output[r*128 + j] = i + 1 where j = 3i mod 128 and i mod 4 = 0, else 0xffff.
; Inverting j = 3i (mod 128) gives i = 43j (mod 128), since 3 * 43 = 129; and i mod 4 = 0 exactly when
; j mod 4 = 0. With miss = ((j % 4) + 3) // 4 (0 on a multiple of 4, else 1):
.expect output = ((43 * (i % 128)) % 128 + 1) * (1 - ((i % 4) + 3) // 4) + 0xffff * (((i % 4) + 3) // 4)
