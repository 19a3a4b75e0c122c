; expect 2:15: division by zero
.ub a u8[4] = i // 0
