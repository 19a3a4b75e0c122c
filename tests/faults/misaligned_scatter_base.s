; expect MISALIGNED at 6:5 step 4: misaligned address 0x10: this access needs 32-byte alignment
.ub b u16[256]
    mask p0.b16, ALL
    vld v1.u16, [b]
    mov s1, 16
    vsct [b + s1], v0.u16, v1.u16, p0
