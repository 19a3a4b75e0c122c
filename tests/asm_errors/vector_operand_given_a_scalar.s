; expect 3:26: operand vB.T of 'vadd' must be a vector register, not a value | 'vadds' takes a scalar there: vadds vD.T, vA.T, X.T, pM
    mask p0.b32, ALL
    vadd v1.f32, v0.f32, 1.0, p0
    halt
