; expect 3:25: pM takes no type suffix here
.ub out u16[128]
    vsta [out], v1.u16, p0.b16
