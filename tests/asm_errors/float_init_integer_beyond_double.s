; expect 3:16: value (an integer of 1201 bits) does not fit in f32 | the largest finite f32 is 3.4028234663852886e+38; write inf or nan explicitly
; INIT integers are exact Python integers, so they can exceed even a double's range (2^1200 here)
.ub a f32[2] = [(1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120), 3]
