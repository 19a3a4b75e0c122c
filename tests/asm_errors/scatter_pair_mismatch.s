; expect 3:17: 'vsct' does not accept f16/u32 | accepted: s8/u16
.ub out f16[128]
    vsct [out], v0.f16, v1.u32, p0
