; expect 3:17: there is no register v32: vector registers are v0-v31
.ub out u16[128]
    vsta [out], v32.u16, p0
