; expect 2:10: there is no register p8: mask registers are p0-p7
    mask p8.b16, ALL
