"""The C++ front end: translating `__simd_vf__` functions and `__VEC_SCOPE__` blocks to ascasm (translate)
and running them (harness)."""
