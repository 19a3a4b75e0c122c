; Exercise 4 (lesson 4): c = a + b over 512 f32 values, 64 lanes (256 bytes) per round.
; Expected: a = i/2 and b = 1000 - i are exact in f32, and so is c = 1000 - i/2.
.ub a f32[512] = 0.5 * i
.ub b f32[512] = 1000 - i
.ub c f32[512]

; TODO: 512 f32 values are 8 chunks of 256 bytes. Keep the chunk's byte offset in s0, and loop:
;       load a and b at [a + s0] and [b + s0], add, store to [c + s0], s0 += 256, until 2048.

.expect c = 1000 - 0.5 * i
