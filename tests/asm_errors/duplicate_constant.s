; expect 3:6: 'N' is already defined
.equ N 3
.equ N 4
