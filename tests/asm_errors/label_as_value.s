; expect 3:13: 'loop' is a label; only branches take labels
loop:
    mov s1, loop
