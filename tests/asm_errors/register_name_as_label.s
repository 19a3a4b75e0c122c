; expect 2:1: 's1' is a register name and cannot be a label
s1: halt
