; expect 2:6: unknown buffer 'outptu'
.out outptu
