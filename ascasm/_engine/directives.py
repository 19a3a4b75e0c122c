"""Cython compiler directives of the engine, in one place (read by setup.py and tools/check_nogil.py).

ASCASM_CYTHON_DEBUG=1 turns bounds, wraparound, initialisation and None checks on, to hunt an
out-of-range access that the engine's own explicit checks missed.
"""
import os

DEBUG = os.environ.get("ASCASM_CYTHON_DEBUG") == "1"

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "nonecheck": DEBUG,
    "cdivision": True,
}
