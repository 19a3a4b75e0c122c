; expect MASK_UNSET at 3:5 step 1: read of unset mask register p3: no instruction has written it
.ub out u16[128]
    vsta [out], v0.u16, p3
