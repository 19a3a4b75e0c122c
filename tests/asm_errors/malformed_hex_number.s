; expect 2:13: malformed number '0x_'
    mov s0, 0x_
