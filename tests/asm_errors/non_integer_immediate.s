; expect 2:17: expected an integer, got 1.5
    add s1, s1, 1.5
