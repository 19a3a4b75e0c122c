; expect 3:20: unknown type 'u61' | did you mean | 'u16'
.ub out u16[128]
    vsta [out], v1.u61, p0
