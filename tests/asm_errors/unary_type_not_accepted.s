; expect 4:14: 'vexp' does not accept s32 | accepted (asc_exp's list): f16, f32
; vexp and vsqrt take the types of their pages, asc_exp.md and asc_sqrt.md: f16 and f32
mask p0.b32, ALL
vexp v0.s32, v1.s32, p0
