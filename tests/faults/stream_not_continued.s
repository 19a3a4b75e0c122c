; expect STREAM_BREAK at 6:5 step 3: unaligned store stream of u1 broken at address 0x10: its 4 pending bytes belong at 0x8..0xb, so the stream continues (and its flush ends) at 0xc
.ub out u32[64]
    vdup v0.u32, 7
    vstus [out + 8], u1, v0.u32, 1
    ; the 4 bytes wait in u1 (their block is incomplete); the next access must start at out + 12
    vstus [out + 16], u1, v0.u32, 1
