; expect 2:15: unknown function 'load'
.ub a u8[4] = load("x.npy")
