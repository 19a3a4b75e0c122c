; expect 2:17: unexpected character '#' | comments start with ';'
    mov s0, 1   # one
    halt
