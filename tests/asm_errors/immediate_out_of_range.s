; expect 2:13: value 18446744073709551616 does not fit in 64 bits
    mov s0, 1 << 64
