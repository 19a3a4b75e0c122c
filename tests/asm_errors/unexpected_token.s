; expect 2:16: missing ',' before '[' | separated by commas
    vld v0.u16 [input]
