; expect 2:16: number 1e400 overflows: the largest float is 1.7976931348623157e+308
.ub a f32[4] = 1e400
