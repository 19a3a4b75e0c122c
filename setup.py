"""Builds the Cython engine with the directives of ascasm/_engine/directives.py.

ASCASM_CYTHON_DEBUG=1 rebuilds with Cython's bounds checks on and without optimisation.
ASCASM_SANITIZE=address rebuilds with AddressSanitizer: Python must then run with the sanitizer's
runtime preloaded, LD_PRELOAD=$(cc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0 (.ci/run).
"""
import os
import platform
import runpy

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

settings = runpy.run_path("ascasm/_engine/directives.py")  # not imported: the package's deps are not built yet
SANITIZERS = {"": [], "address": ["-fsanitize=address", "-fno-omit-frame-pointer", "-g"]}
sanitize = os.environ.get("ASCASM_SANITIZE", "")
if sanitize not in SANITIZERS:
    raise SystemExit(f"ASCASM_SANITIZE={sanitize!r}: the choices are {', '.join(repr(k) for k in SANITIZERS)}")

# x86-64 CPUs since 2009 (SSE4.2, POPCNT): the compiler vectorises the lane loops' unsigned and 64-bit
# compares and counts mask bits in one instruction
X86_64_V2 = ["-march=x86-64-v2"] if platform.machine().lower() in ("x86_64", "amd64") else []

extensions = [
    Extension(
        "ascasm._engine.core",
        ["ascasm/_engine/core.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        # no fused multiply-add: every float operation of the engine must round exactly as written;
        # lanes are typed views of byte arrays, so no type-based alias analysis; each kernel on its own
        # cache line (the run loop calls one per instruction through a pointer: packed kernels made
        # a scalar step 10 ns instead of 3 here)
        # the debug build also takes the portable code in place of the SIMD paths (squeeze.h, signs.h), so CI
        # runs both
        extra_compile_args=(["-O0", "-g", "-DASCASM_PORTABLE"] if settings["DEBUG"] else ["-O3", "-falign-functions=64"])
        + ["-ffp-contract=off", "-fno-strict-aliasing"] + X86_64_V2 + SANITIZERS[sanitize],
        extra_link_args=SANITIZERS[sanitize],
    )
]

# force: core.c is regenerated on every build, so switching between debug and release never reuses
# a C file made with the other directives.
setup(ext_modules=cythonize(extensions, compiler_directives=settings["DIRECTIVES"], force=True))
