; expect 3:13: unknown name 'outptu' | did you mean 'output'
.ub output u8[32]
    mov s1, outptu
