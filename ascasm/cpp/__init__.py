"""The C++ front end: translating `__simd_vf__` functions and `__VEC_SCOPE__` blocks written with the
Reg API into ascasm (translate) and running them (harness); docs/frontend.md. libclang is needed
(`pip install "ascasm[cpp]"`)."""
