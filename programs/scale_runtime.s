; Scales computed at run time in scalar registers holding f32 bits (docs/semantics.md "Scalar
; registers holding floats"): a row of 64 f32 values is centred and scaled to [-1, 1],
;   mean = sum(x) / n, with n a count converted to f32 (fmov s.f32, sN) and the division fdiv;
;   d = x + (-mean) (vadds with the register read as f32: s4.f32);
;   y = d * (1 / max|d|) (the reciprocal by fdiv, then vmuls with s8.f32).
; Each scalar reaches a scalar register through the UB (vsta.1st, membar, ld s.f32), as a reduction's
; result would. Input as programs/layernorm.s: x[i] = ((29 i) mod 64) / 8 - 4, so sum = -4, mean = -0.0625
; and max|d| = 3.9375. The expected values come from the numpy float32 model in
; tests/test_scalar_floats.py (test_scale_runtime_program), which checks them.
.ub x     f32[64] = ((i * 29) % 64) / 8 - 4
.ub y     f32[64]
.ub stats f32[8]                         ; [0] sum, [1] max|d|, [2] mean, [3] scale
.out y, stats

        mov      s0, 0
count:  add      s0, s0, 1                ; n: a count, as a loop would have it
        blt      s0, 64, count
        mask     p0.b32, ALL
        vld      v0.f32, [x]
        vredsum  v1.f32, v0.f32, p0       ; lane 0: sum(x)
        vsta.1st [stats], v1.f32
        membar
        ld       s1.f32, [stats]          ; the sum's bits
        fmov     s2.f32, s0               ; n as f32 (64.0)
        fdiv     s3.f32, s1.f32, s2.f32   ; mean
        st       [stats + 8], s3.f32
        fmov     s5.f32, 0.0
        fsub     s4.f32, s5.f32, s3.f32   ; -mean
        vadds    v2.f32, v0.f32, s4.f32, p0   ; d = x - mean
        vabs     v3.f32, v2.f32, p0
        vredmax  v3.f32, v3.f32, p0       ; lane 0: max|d|
        vsta.1st [stats + 4], v3.f32
        membar
        ld       s6.f32, [stats + 4]
        fmov     s7.f32, 1.0
        fdiv     s8.f32, s7.f32, s6.f32   ; 1 / max|d|
        st       [stats + 12], s8.f32
        vmuls    v4.f32, v2.f32, s8.f32, p0   ; y = d * scale
        vsta     [y], v4.f32, p0
        halt

.expect stats = [-4.0, 3.9375, -0.0625, 0.2539682686328888, 0.0, 0.0, 0.0, 0.0]
.expect y = [-1.0, -0.0793650820851326, 0.8412699103355408, -0.2698412835597992, 0.6507936716079712, -0.4603174924850464, 0.4603174924850464, -0.6507936716079712, 0.2698412835597992, -0.8412699103355408, 0.0793650820851326, 1.0, -0.111111119389534, 0.80952388048172, -0.30158731341362, 0.6190476417541504, -0.4920635223388672, 0.4285714626312256, -0.682539701461792, 0.2380952537059784, -0.8730159401893616, 0.0476190522313118, 0.968254029750824, -0.1428571492433548, 0.7777778506278992, -0.3333333432674408, 0.5873016119003296, -0.523809552192688, 0.3968254327774048, -0.7142857313156128, 0.2063492238521576, -0.9047619700431824, 0.01587301678955555, 0.9365079998970032, -0.1746031790971756, 0.7460317611694336, -0.3650793731212616, 0.5555555820465088, -0.5555555820465088, 0.3650793731212616, -0.7460317611694336, 0.1746031790971756, -0.9365079998970032, -0.01587301678955555, 0.9047619700431824, -0.2063492238521576, 0.7142857313156128, -0.3968254327774048, 0.523809552192688, -0.5873016119003296, 0.3333333432674408, -0.7777778506278992, 0.1428571492433548, -0.968254029750824, -0.0476190522313118, 0.8730159401893616, -0.2380952537059784, 0.682539701461792, -0.4285714626312256, 0.4920635223388672, -0.6190476417541504, 0.30158731341362, -0.80952388048172, 0.111111119389534]
