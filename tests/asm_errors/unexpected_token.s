; expect 2:16: unexpected '['
    vld v0.u16 [input]
