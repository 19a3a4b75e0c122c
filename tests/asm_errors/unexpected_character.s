; expect 2:17: unexpected character '$'
    vld v0.u16, $input
