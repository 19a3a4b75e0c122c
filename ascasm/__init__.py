"""ascasm: assembler, Cython interpreter and step debugger for the Ascend 950 vector-function ISA."""
from .asm.assembler import assemble, assemble_file
from .asm.errors import AssemblyFailed
from .state import MachineState
from .vm import Machine, MachineFault

__version__ = "0.1.0"
__all__ = ["assemble", "assemble_file", "AssemblyFailed", "Machine", "MachineFault", "MachineState", "__version__"]
