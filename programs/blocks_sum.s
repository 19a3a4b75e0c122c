; Several blocks over global memory: each block doubles its share of the 64-element chunks of x into y
; (chunk k goes to block k mod blknum), then after a SyncAll block 0 adds the four chunks of y into z.
; Run it with any block count: ascasm run programs/blocks_sum.s --blocks 4
.gm x f32[256] = i
.gm y f32[256]
.gm z f32[64]
.ub tile f32[64]
.ub total f32[64]
.expect y = 2 * i
.expect z = 8 * i + 768         ; sum over k of 2 * (64k + i)
        blkidx   s1
        blknum   s2
        mov      s7, 256                 ; bytes in a chunk of 64 f32
        mask     p0.b32, ALL
chunk:  bge      s1, 4, reduce
        mul      s3, s1, s7
        add      s4, s3, x
        gm2ub    [tile], [s4], s7
        setflag  PIPE_MTE2, PIPE_V, 0    ; the vector unit waits for the move in
        waitflag PIPE_MTE2, PIPE_V, 0
        vld      v0.f32, [tile]
        vadd     v1.f32, v0.f32, v0.f32, p0
        vsta     [tile], v1.f32, p0
        membar
        setflag  PIPE_V, PIPE_MTE3, 0    ; the move out waits for the vector unit
        waitflag PIPE_V, PIPE_MTE3, 0
        add      s5, s3, y
        ub2gm    [s5], [tile], s7
        add      s1, s1, s2
        b        chunk
reduce: syncall                          ; every block's chunks of y are in GM
        blkidx   s1
        bne      s1, 0, end
        mask     p1.b32, ALL
        mov      s1, 0
        vdup     v2.f32, 0.0, p1
sum:    bge      s1, 4, store
        mul      s3, s1, s7
        add      s4, s3, y
        gm2ub    [tile], [s4], s7
        setflag  PIPE_MTE2, PIPE_V, 0
        waitflag PIPE_MTE2, PIPE_V, 0
        vld      v0.f32, [tile]
        vadd     v2.f32, v2.f32, v0.f32, p0
        add      s1, s1, 1
        b        sum
store:  vsta     [total], v2.f32, p0
        membar
        ub2gm    [z], [total], s7
end:    halt
