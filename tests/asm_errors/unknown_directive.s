; expect 2:1: unknown directive '.ubb' | did you mean '.ub'?
.ubb x u8[4]
