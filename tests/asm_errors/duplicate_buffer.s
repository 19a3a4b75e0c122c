; expect 3:5: 'x' is already defined
.ub x u8[32]
.ub x u8[32]
