; expect MISALIGNED at 3:5 step 1: misaligned address 0x8: this access needs 32-byte alignment
.ub b u8[512]
    vld v0.u8, [b + 8]
