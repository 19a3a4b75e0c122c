; expect 4:22: operand X of 'iter' must be an immediate or scalar register, not a mask register | syntax: iter aD.bW, X | syntax: iter aD.bW, sI, X
; the stride of iter's scaled form is an immediate or a scalar register (a run-time stride), never a mask
    mask p2.b32, ALL
    iter a0.b32, s1, p2
