; expect 3:21: 'vsta.1st' does not accept b64 | accepted: s8, u8, s16
.ub out u64[32]
    vsta.1st [out], v1.b64
