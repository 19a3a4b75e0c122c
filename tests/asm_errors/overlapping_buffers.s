; expect 3:5: buffer 'b' overlaps buffer 'a'
.ub a u8[64] @ 0
.ub b u8[64] @ 32
