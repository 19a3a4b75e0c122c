; expect 3:17: 'vsta' does not accept b64 | accepted: s8, u8, s16
.ub out u64[32]
    vsta [out], v1.b64, p0
