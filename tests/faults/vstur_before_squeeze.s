; expect SPR_UNSET at 4:5 step 2: read of unset special register SQZN: no vsqz.st has set it
.ub out f32[64]
    sprclr.ar
    vstur [out], u0, v0.f32
