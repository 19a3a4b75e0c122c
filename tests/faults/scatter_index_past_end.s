; expect UB_RANGE at 6:5 step 3: UB access out of range: 2 bytes at address 0x3e000 (lane 5, index 16); the usable UB is 253952 bytes (0x0..0x3e000)
.ub idx u16[128] = [0, 1, 2, 3, 4, 16]
.ub tail u16[16] @ 253920
    mask p0.b16, VL8
    vld v1.u16, [idx]
    vsct [tail], v0.u16, v1.u16, p0
