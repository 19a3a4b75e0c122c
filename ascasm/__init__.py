"""ascasm: assembler, Cython interpreter and step debugger for the Ascend 950 vector-function ISA."""
__version__ = "0.1.0"           # the one place the version is written (pyproject.toml reads it)

from . import _startup
_startup.guard_start()          # first: Ctrl-C while the tool imports the rest is a clean exit

from .api import Lanes, Result, RunWarning, assemble, run
from .asm.assembler import assemble_file
from .asm.errors import AssemblyFailed
from .state import MachineState
from .vm import Machine, MachineFault

__all__ = ["assemble", "assemble_file", "run", "run_kernel", "Result", "Lanes", "RunWarning", "AssemblyFailed",
           "Machine", "MachineFault", "MachineState", "__version__"]


def __getattr__(name):
    """`ascasm.run_kernel` (ascasm/cpp/harness.py), imported on first use: it is the way to the C++
    front end, whose libclang is an optional dependency that a plain `import ascasm` must not load."""
    if name == "run_kernel":
        from .cpp.harness import run_kernel
        return run_kernel
    raise AttributeError(f"module 'ascasm' has no attribute {name!r}")
