; asc_storealign store modes on worked examples of the store and load distributions:
;  PK_B16:   u16 [0x3210, 0x7654, 0xBA98, 0xFEDC, ...] -> u16 words [0x5410, 0xDC98, ...]
;  INTLV_B8: evens 0, 2, ..., 254 and odds 1, 3, ..., 255 -> 0, 1, ..., 255 (twice over 512 bytes)
;  UNPK_B8:  bytes 0, 1, 2, ... -> 16-bit lanes 0, 1, 2, ... (each byte zero-extended)
;  FIRST:    only lane 0 is written, whatever the mask
.ub words   u16[128] = [0x3210, 0x7654, 0xBA98, 0xFEDC]
.ub evens   u8[256] = (2 * i) % 256
.ub odds    u8[256] = (2 * i + 1) % 256
.ub bytes   u8[128] = i
.ub packed  u16[4] = 0xAAAA       ; only the 4 active bytes are written
.ub woven   u8[512]
.ub wide    u16[128]
.ub first   u32[8] = 9
.out packed, woven, wide, first

        mask     p0.b16, VL4
        vld      v0.u16, [words]
        vsta.pack [packed], v0.u16, p0  ; 4 active lanes -> 4 bytes = 2 u16 words; the rest untouched

        vld      v1.u8, [evens]
        vld      v2.u8, [odds]
        vsta.intlv [woven], v1.u8, v2.u8

        vld.unpk v3.u8, [bytes]
        mask     p1.b16, ALL
        vsta     [wide], v3.u16, p1

        vld      v4.u32, [words]        ; lane 0 = 0x76543210
        vsta.1st [first + 4], v4.u32
        halt

.expect packed = [0x5410, 0xDC98, 0xAAAA, 0xAAAA]
.expect woven = i % 256
.expect wide = i
.expect first = [9, 0x76543210, 9, 9, 9, 9, 9, 9]
