; expect UB_RANGE at 5:5 step 2: UB access out of range: 4 bytes at address 0x3e000 (lane 8); the usable UB is 253952 bytes (0x0..0x3e000)
.ub tail f32[8] @ 253920
    ; 16 lanes active: lanes 8.. would land past the 248 KiB usable UB
    mask p0.b32, VL16
    vsta [tail], v0.f32, p0
