"""The machine's size and the run options' choices and defaults, in a module that imports nothing:
the command line builds its parser from them before it knows whether a command will run (so that
`ascasm --version` and a usage error need not import numpy and the executors)."""

UB_SIZE = 256 * 1024
UB_USABLE_DEFAULT = 248 * 1024
MAX_STEPS_DEFAULT = 10_000_000
GM_MAX = 64 * 1024 * 1024         # the most global memory a program may declare (docs/language.md §1)
ENGINES = ("cy", "ref")
STORE_INACTIVE = ("keep", "zero")   # what inactive lanes of a masked store write (docs/semantics.md)
