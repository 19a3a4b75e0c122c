; expect 3:17: operand [addr] of 'vld' must be an address [base + offset], not a value | an address is written in brackets: [input] | syntax: vld vD.T, [addr]
.ub input u16[128]
    vld v0.u16, input
