; expect 4:14: 'vexp' does not accept s32 | accepted: f16, bf16, f32, e4m3, e5m2
; vexp and vsqrt are for float types only
mask p0.b32, ALL
vexp v0.s32, v1.s32, p0
