"""Builds the Cython engine. Performance directives are set here, in one place.

ASCASM_CYTHON_DEBUG=1 rebuilds with bounds, wraparound and initialisation checks on, to hunt an
out-of-range access that the engine's own explicit checks missed.
"""
import os

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("ASCASM_CYTHON_DEBUG") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": True,
}

extensions = [
    Extension(
        "ascasm._engine.core",
        ["ascasm/_engine/core.pyx"],
        include_dirs=[numpy.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
    )
]

# force: core.c is regenerated on every build, so switching between debug and release never reuses
# a C file made with the other directives.
setup(ext_modules=cythonize(extensions, compiler_directives=DIRECTIVES, force=True))
