; expect 3:9: v0 needs a type suffix here: vD.T
.ub input u16[128]
    vld v0, [input]
