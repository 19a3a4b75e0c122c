; expect 2:11: character U+000B (vertical tab) is not allowed | lines end with \n
    ; note st [0], s0.u8
