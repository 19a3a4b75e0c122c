; expect 2:5: buffer 'big' (0x0..0x3e020) does not fit in the usable UB of 253952 bytes
.ub big u8[253984]
