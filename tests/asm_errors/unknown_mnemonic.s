; expect 3:5: unknown mnemonic 'vsat' | did you mean 'vsta'
.ub out u16[128]
    vsat [out], v1.u16, p0
