; expect 3:1: 'loop' is already defined | first defined at
loop: halt
loop: halt
