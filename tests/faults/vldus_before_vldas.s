; expect ALIGN_UNSET at 3:5 step 1: read of unset unaligned load register q2: no vldas has started its stream
.ub src f32[128]
    vldus v0.f32, q2, [src + 4]
