; expect 3:17: operand vS.T of 'vsta' must be a vector register, not a scalar register | syntax: vsta [addr], vS.T, pM
.ub out u16[128]
    vsta [out], s1, p0
