; expect 2:5: 'mask' takes 2 operands, got 1 | syntax: mask pD.bW, PAT
    mask p0.b16
