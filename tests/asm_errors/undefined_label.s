; expect 3:16: undefined label 'lop' | did you mean 'loop'
loop:
    blt s0, 3, lop
