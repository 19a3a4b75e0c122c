; expect 4:24: vag gives 3 strides but only 2 hardware loops enclose it | stride k multiplies the index of the k-th enclosing loop
    vloop 2
    vloop 3
    vag a0.b16, 1, 64, 128
    endloop
    endloop
