; expect 3:13: 3 values for 'a', which holds 2
.ub a u8[2]
.expect a = [1, 2, 3]
