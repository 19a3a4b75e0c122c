; expect 6:5: hardware loops nest at most 4 deep | the enclosing loops start at lines 2, 3, 4, 5
    vloop 1
    vloop 1
    vloop 1
    vloop 1
    vloop 1
    endloop
    endloop
    endloop
    endloop
    endloop
