; expect 2:9: a branch may not enter or leave a hardware loop: it is outside every loop, its target in the loop of line 3 | no branch in or out
    b   body
    vloop 4
body: add s1, s1, 1
    endloop
