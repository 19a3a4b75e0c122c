; expect 2:15: value 256 does not fit in u8
.ub a u8[4] = 256
