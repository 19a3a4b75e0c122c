; expect 3:17: an intermediate value is wider than 256 bits
; INIT integers are exact Python integers, bounded so that a few lines cannot build huge numbers
.ub a f32[2] = [(1 << 120) * (1 << 120) * (1 << 120) * (1 << 120) * (1 << 120), 3]
