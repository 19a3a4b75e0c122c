; expect 2:18: unknown mask pattern 'VL5' | did you mean | 'VL4'
    mask p0.b16, VL5
