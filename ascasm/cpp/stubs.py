"""Where ascasm's C++ header stubs live, and the clang arguments that parse a kernel against them.

The stubs (``include/``) declare what kernel sources include: ``kernel_operator.h`` with the
AscendC::Reg (= AscendC::MicroAPI) API, the asc_* C API, the host-side classes kernel files hold
around their vector functions, and the few standard headers kernels use.  Kernels are parsed
without system headers (``-nostdinc``): the stubs are self-contained, so a parse is the same on
every machine and stays fast.
"""
from pathlib import Path

INCLUDE_DIR = Path(__file__).with_name("include")
# Empty stand-ins for headers of the host side only (the ACL runtime, POSIX I/O, the standard
# library's streams and containers, host tiling), searched after every other directory: a kernel
# file's host code that includes them then parses with errors, which stop no vector unit.
HOST_ONLY_DIR = INCLUDE_DIR / "host_only"
CXX_STANDARD = "c++17"


def clang_args(include_dirs=(), defines=()):
    """Arguments for clang.cindex's ``Index.parse``: the kernel's own include directories come
    first (op-local headers), then the stubs; ``defines`` are ``NAME`` or ``NAME=VALUE``."""
    args = ["-x", "c++", f"-std={CXX_STANDARD}", "-nostdinc", "-nostdinc++", "-D__ASCASM__=1"]
    args += [f"-D{d}" for d in defines]
    args += [f"-I{d}" for d in include_dirs]
    args += [f"-I{INCLUDE_DIR}", "-idirafter", str(HOST_ONLY_DIR)]
    return args
