; expect 3:17: value 1.2676506002282294e+30 does not fit in e5m2 | the largest finite e5m2 is 57344.0; write inf or nan explicitly
; an exact integer INIT value beyond the type's largest finite value (2^100 > e5m2's 57344)
.ub a e5m2[2] = [1 << 100, 3]
