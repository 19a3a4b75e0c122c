; expect ALIGN_BREAK at 5:5 step 2: unaligned load stream of q0 broken at address 0x8: q0 holds the block for position 0x4, where the stream continues
.ub src f32[128] @ 0
    vldas q0, [src + 4]
    ; the stream was started at src + 4; a load elsewhere would take its head from the wrong block
    vldus v0.f32, q0, [src + 8]
