; expect 2:16: unexpected ',' | written in brackets: .ub a u8[4] = [1, 2, 3, 4]
.ub a u8[4] = 1, 2, 3, 4
    halt
