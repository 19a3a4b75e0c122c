; expect MISALIGNED at 4:5 step 2: misaligned address 0x3: this access needs 4-byte alignment
.ub b u8[64]
    mov s0, 3
    st [b + s0], s1.u32
