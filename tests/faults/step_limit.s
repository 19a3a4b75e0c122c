; expect STEP_LIMIT at 3:7 step 101: step limit of 100 steps reached (raise it with --max-steps)
; options: max_steps=100
top:  b top
