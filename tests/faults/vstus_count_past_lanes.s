; expect BAD_COUNT at 4:5 step 2: element count 65 out of range: a vector register of this type holds 0..64
.ub out f32[128]
    mov s1, 65
    vstus [out], u0, v0.f32, s1
