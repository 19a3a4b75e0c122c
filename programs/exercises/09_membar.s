; Exercise 9 (lesson 9): y = x - max(x) for 64 f32 values, the max broadcast through the UB.
; x = (37 i mod 64) - 10: 37 is odd, so the values are -10 .. 53 once each; max = 53.
; Expected: y = (37 i mod 64) - 63, exact. Run it with --strict: without the membar between the
; vsta.1st and the vld.brc that reads the same bytes back, that is a memory-hazard fault.
.ub x   f32[64] = (i * 37) % 64 - 10
.ub tmp f32[8]
.ub y   f32[64]

; TODO: vredmax; store lane 0 to tmp (vsta.1st); broadcast it back (vld.brc); subtract; store.
;       Run with --strict and see what is missing between the store and the load.

.expect y = (i * 37) % 64 - 63
