; expect 2:16: buffer address 0x10 is not 32-byte aligned
.ub a u8[32] @ 16
