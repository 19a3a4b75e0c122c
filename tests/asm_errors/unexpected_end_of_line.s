; expect 3:23: unexpected end of line
.ub input u16[128]
    vld v0.u16, [input
