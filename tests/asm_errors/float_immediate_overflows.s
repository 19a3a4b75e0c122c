; expect 3:15: value 500.0 does not fit in e4m3 | the largest finite e4m3 is 448.0; write inf or nan explicitly
; e4m3 has no inf: 500 is past the rounding tie above 448 (464), so it cannot be written as a number
vdup v0.e4m3, 500
