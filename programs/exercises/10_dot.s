; Exercise 10 (lesson 10): a complete kernel, the dot product of two 256-element f32 vectors:
; multiply chunk by chunk, accumulate in a vector register, reduce once at the end.
; a = i mod 8, b = 2: the sum is 2 * 32 * (0 + 1 + ... + 7) = 2 * 32 * 28 = 1792. Every partial is a
; small integer, exact in f32, so the order of the additions does not matter here.
.ub a   f32[256] = i % 8
.ub b   f32[256] = 2
.ub dot f32[8]

; TODO: an accumulator of zeros (vdup); a loop over 4 chunks: load a and b, vmul, vadd into the
;       accumulator; then one vredsum and a vsta.1st of lane 0 to dot.

.expect dot = [1792, 0, 0, 0, 0, 0, 0, 0]
