; expect UB_RANGE at 3:5 step 1: UB access out of range: 256 bytes at address 0x3df20; the usable UB is 253952 bytes (0x0..0x3e000)
.ub b u8[32] @ 253728
    vld v0.u8, [b]         ; 256 bytes from 0x3df20 run past the usable end 0x3e000
