"""Resource limits on untrusted input: a tiny source must not be able to take unbounded time or
memory. Each limit has a clear error at the bound; docs/cli.md "Limits" lists them for users."""
import re

MAX_SOURCE_BYTES = 8 * 1024 * 1024      # a source file (a C++ kernel and each header it includes too)
CPP_MEMORY_BYTES = 2 << 30              # the C++ front end's process (libclang's parse and the translation)
CPP_SECONDS = 60                        # that process's CPU time, and its time from start to end
MAX_LINES = 250_000                     # lines of a source: each statement costs memory and time
MAX_LINE_CHARS = 65_536                 # one source line; long data belongs in file("x.npy")
MAX_TOKENS = 2_000_000                  # names, numbers, operators, punctuation of a source: each kept costs memory
MAX_ERRORS = 100                        # assembly errors reported before the assembler stops
MAX_INT_BITS = 256                      # any integer met while evaluating a constant expression
MAX_WIDE_ELEMENT_OPS = 20_000_000       # per INIT expression, element operations on integers beyond 64 bits
MAX_ELEMENT_OPS = 50_000_000            # per INIT expression, element operations of any kind (about a second)
MAX_NESTING = 100                       # parentheses and unary signs inside one another
MAX_SHOWN_TOKEN = 200                   # characters of an offending token echoed in a message
MAX_NPY_HEADER = 10_000                 # bytes of a .npy header (numpy's own default)
TRACE_LIMIT_DEFAULT = 256 * 1024 * 1024  # bytes of --trace output
MAX_STEPS_LIMIT = (1 << 63) - 1         # --max-steps: the engine counts steps in 64 bits
MAX_NUMBER_DIGITS = 40                  # a number typed as a count, line or size (command line, debugger)


def parse_size(text: str) -> int:
    """'64M', '512K', '1G', '1048576' -> bytes."""
    m = re.fullmatch(r"\s*(\d+)\s*([kmg]?)(i?b)?\s*", text.lower())
    number = whole_number(m.group(1)) if m else None
    if number is None:
        raise ValueError(f"not a size: {shown(text.strip())!r} (try 64M)")
    return number << {"": 0, "k": 10, "m": 20, "g": 30}[m.group(2)]


def whole_number(text: str, base: int = 10) -> int | None:
    """The integer `text` spells (int(text, base)), or None; None too beyond MAX_NUMBER_DIGITS
    characters, checked before converting: Python refuses over 4,300 digits in words of its own."""
    if len(text) > MAX_NUMBER_DIGITS or not text.isascii():      # int() takes Unicode digits too
        return None
    try:
        return int(text, base)
    except ValueError:
        return None


def shown(text: str) -> str:
    """`text` as echoed in a message: at most MAX_SHOWN_TOKEN characters."""
    if len(text) <= MAX_SHOWN_TOKEN:
        return text
    return f"{text[:MAX_SHOWN_TOKEN]}... ({len(text):,} characters)"
