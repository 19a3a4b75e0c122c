; Exercise 8 (lesson 8): the sum of 128 s16 values x = i - 50 as an s32, and their maximum with its
; index.
; Expected: sum = (0 + ... + 127) - 50 * 128 = 8128 - 6400 = 1728; max = x[127] = 77, at index 127
; (vredmax puts the value in lane 0 and the index, as raw bits, in lane 1).
.ub x     s16[128] = i - 50
.ub total s32[8]
.ub best  s16[16]

; TODO: vredsum into s32 lanes (its lane 0 holds the sum) and store lane 0 with vsta.1st;
;       vredmax, then store its lanes 0 and 1 under a VL2 mask.

.expect total = [1728, 0, 0, 0, 0, 0, 0, 0]
.expect best = [77, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
