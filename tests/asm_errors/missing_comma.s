; expect 2:12: missing ',' before '1' | separated by commas
    mov s0 1
    halt
