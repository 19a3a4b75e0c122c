; expect 3:24: register 's1' can only be added to an address, not subtracted
.ub out u16[128]
    vld v0.u16, [out - s1]
