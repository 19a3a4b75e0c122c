"""The engine's compiled modules. A release build on x86-64 compiles the kernel modules whose lane loops
gain from wider vectors a second time, for x86-64-v3 CPUs (AVX2, BMI2, FMA: setup.py WIDE_MODULES), into
x86_64_v3/. On a CPU with those features each of them is loaded here, under the baseline module's own
name, before core imports the kernel modules: the same C compiled for wider vectors, so the same results
(no fused multiply-add in either). ASCASM_ENGINE_ISA=baseline keeps the baseline (x86-64-v2) builds;
ISA says which ones this process runs.
"""
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path

WIDE_ISA = "x86_64_v3"
# what -march=x86-64-v3 lets the compiler use, as Linux names the CPU flags (abm: LZCNT)
WIDE_CPU_FLAGS = frozenset({"avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "abm", "movbe", "xsave"})


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset:
    """The CPU's feature flags as Linux lists them (none elsewhere: the baseline builds then run)."""
    try:
        with open(cpuinfo) as lines:
            for line in lines:
                if line.startswith("flags"):
                    return frozenset(line.partition(":")[2].split())
    except OSError:
        pass
    return frozenset()


def wide_builds(directory: Path, flags: frozenset, environ=os.environ) -> list:
    """The x86-64-v3 builds to load in place of the baseline ones: all of them on a CPU with every
    feature they need, unless ASCASM_ENGINE_ISA=baseline; none otherwise."""
    if environ.get("ASCASM_ENGINE_ISA") == "baseline" or not WIDE_CPU_FLAGS <= flags:
        return []
    return sorted({path for suffix in importlib.machinery.EXTENSION_SUFFIXES for path in directory.glob("*" + suffix)})


def _load_wide_builds() -> str:
    builds = wide_builds(Path(__file__).with_name(WIDE_ISA), cpu_flags())
    for path in builds:
        name = f"{__name__}.{path.name.partition('.')[0]}"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module              # core's imports of the kernel modules find this one
        spec.loader.exec_module(module)
    return "x86-64-v3" if builds else "baseline"


ISA = _load_wide_builds()
