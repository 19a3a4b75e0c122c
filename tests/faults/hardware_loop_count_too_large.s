; expect LOOP_COUNT at 4:5 step 2: hardware loop count 65536 out of range 0..65535 (the loop index is a uint16)
.ub out u8[32]
    mov   s1, 65536
    vloop s1
    st    [out], s1.u8
    endloop
