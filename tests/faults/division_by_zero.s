; expect DIV_ZERO at 4:5 step 2: scalar division by zero
    mov s1, 7
    ; s2 was never written: it is 0
    div s0, s1, s2
