"""ascasm: assembler, Cython interpreter and step debugger for the Ascend 950 vector-function ISA."""
__version__ = "0.1.0"           # the one place the version is written (pyproject.toml reads it)

from . import _startup
_startup.guard_start()          # first: Ctrl-C while the tool imports the rest is a clean exit

# The public names are imported on first use (PEP 562), so that `import ascasm.cli` for
# `ascasm --version` or a submodule import does not pay for numpy, the assembler and the executors;
# `run_kernel` and `compile_kernel` lead to the C++ front end, whose libclang is an optional dependency.
_EXPORTS = {"assemble": "api", "run": "api", "Result": "api", "Lanes": "api", "RunWarning": "api",
            "assemble_file": "asm.assembler", "AssemblyFailed": "asm.errors", "MachineState": "state",
            "Machine": "vm", "MachineFault": "vm", "run_kernel": "cpp.compiled", "compile_kernel": "cpp.compiled",
            "CompiledKernel": "cpp.compiled", "ExpectationFailed": "cpp.compiled"}

__all__ = [*_EXPORTS, "__version__"]


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module 'ascasm' has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(__all__)
