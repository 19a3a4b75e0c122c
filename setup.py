"""Builds the Cython engine: ascasm/_engine/core.pyx (loader, Engine, run loop) and one kernel module per
ISA area (every other ascasm/_engine/*.pyx), with the directives of ascasm/_engine/directives.py.

Cython runs once per build, from build_ext (never when setup.py is imported: pip imports it three
times), writing its C files under build/cython-release (or -debug); it translates again only the
modules whose sources changed. Translating and compiling overlap: Cython works in one process per core,
and the C compiler starts on a module as soon as its C file is written (one compile per core, the
largest modules first); each step prints what it does. The engine needs no numpy headers, so the build
requires only setuptools and Cython.

    python setup.py build_ext --inplace      after an edit: rebuilds only the modules it touched

ASCASM_CYTHON_DEBUG=1 rebuilds with Cython's bounds checks on, without optimisation and with -g.
ASCASM_SANITIZE=address rebuilds with AddressSanitizer (and -g): Python must then run with the
sanitizer's runtime preloaded, LD_PRELOAD=$(cc -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
(.ci/run). A build whose flags differ from the previous one's recompiles every module.
"""
import functools
import os
import platform
import runpy
import shutil
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.modified import newer_group

ENGINE = Path("ascasm/_engine")
settings = runpy.run_path(str(ENGINE / "directives.py"))  # not imported: the package's deps are not built yet
SANITIZERS = {"": [], "address": ["-fsanitize=address", "-fno-omit-frame-pointer", "-g"]}
sanitize = os.environ.get("ASCASM_SANITIZE", "")
if sanitize not in SANITIZERS:
    raise SystemExit(f"ASCASM_SANITIZE={sanitize!r}: the choices are {', '.join(repr(k) for k in SANITIZERS)}")

# x86-64 CPUs since 2009 (SSE4.2, POPCNT): the compiler vectorises the lane loops' unsigned and 64-bit
# compares and counts mask bits in one instruction
X86_64 = platform.machine().lower() in ("x86_64", "amd64")
X86_64_V2 = ["-march=x86-64-v2"] if X86_64 else []
# A fixed-size memset up to 1 KB (zeroing a 256-byte vector register, a result's unused lanes) as vector
# stores: gcc's default for x86 made it `rep stos`, whose start-up costs more than the 8-16 stores
INLINE_MEMSET = ["-mmemset-strategy=vector_loop:1024:noalign,libcall:-1:noalign"] if X86_64 else []
# The kernel modules whose lane loops gain from wider vectors are built a second time for x86-64-v3 CPUs
# (AVX2, BMI2; since 2013-2015) into ascasm/_engine/x86_64_v3/, from the same C: ascasm/_engine/__init__.py
# loads those in place of the baseline builds when the CPU has the features. Release builds on x86-64 only
# (the debug build's portable paths are what it tests)
WIDE_ISA = "x86_64_v3"
WIDE_MODULES = ("arith", "compare", "memory", "rearrange", "streams")

# no fused multiply-add: every float operation of the engine must round exactly as written; lanes are
# typed views of byte arrays, so no type-based alias analysis; each kernel on its own cache line (the run
# loop calls one per instruction through a pointer: packed kernels made a scalar step 10 ns instead of 3
# here). The debug build also takes the portable code in place of the SIMD paths (squeeze.h, signs.h),
# so CI runs both. Release builds carry no debug information (it was a third of the compile time and
# nine tenths of the module's size).
COMPILE_ARGS = ((["-O0", "-g", "-DASCASM_PORTABLE"] if settings["DEBUG"] else ["-O3", "-falign-functions=64"])
                + ["-ffp-contract=off", "-fno-strict-aliasing"] + X86_64_V2 + INLINE_MEMSET + SANITIZERS[sanitize])
# core holds the run loop, which has no lane loops to vectorise, and the Python-level loader: at -O2 its
# compile takes about half the CPU of -O3 with the same instructions per chunk (docs/performance.md
# "Build"); -O1 saved another 1.4 s but made a scalar step 2.3 times slower (7 ns against 3: the run
# loop's dispatch). The kernel modules keep -O3, whose vectorised lane loops they need
RELEASE_LEVEL = {"core": "-O2"}
CONFIG = "debug" if settings["DEBUG"] else "release"
FLAGS_STAMP = Path("build") / "ascasm-engine-flags.txt"     # the compile flags of the latest engine build


def say(message):
    sys.stderr.write(f"ascasm build: {message}\n")       # one write: lines from the build's threads stay whole
    sys.stderr.flush()


def engine_extensions():
    """One extension per engine module; its single source is the C file Cython writes at build time."""
    modules = [Extension(f"ascasm._engine.{pyx.stem}", [str(pyx)], include_dirs=[str(ENGINE)],
                         depends=[str(h) for h in sorted(ENGINE.glob("*.h"))],
                         extra_compile_args=module_compile_args(pyx.stem), extra_link_args=SANITIZERS[sanitize])
               for pyx in sorted(ENGINE.glob("*.pyx"))]
    return modules + [wide_twin(ext) for ext in modules if has_wide_twin(ext)]


def has_wide_twin(ext):
    return X86_64 and not settings["DEBUG"] and ext.name.rpartition(".")[2] in WIDE_MODULES


def wide_twin(ext):
    """The x86-64-v3 build of a kernel module: compiled from a copy of the module's C file (so its own
    object file), loaded under the module's own name (so the same init function)."""
    args = ["-march=x86-64-v3" if arg == "-march=x86-64-v2" else arg for arg in ext.extra_compile_args]
    return Extension(f"ascasm._engine.{WIDE_ISA}.{ext.name.rpartition('.')[2]}", list(ext.sources),
                     include_dirs=ext.include_dirs, depends=ext.depends, extra_compile_args=args,
                     extra_link_args=ext.extra_link_args)


def module_compile_args(module):
    """COMPILE_ARGS, with the module's own optimisation level in a release build."""
    level = RELEASE_LEVEL.get(module)
    return [level if level and arg == "-O3" else arg for arg in COMPILE_ARGS]


class BuildEngine(build_ext):
    """Each module compiled by the C compiler as soon as Cython has translated it (only what changed),
    in parallel, the longest compile first."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self):
        flags = " ".join(COMPILE_ARGS + [f"{module}:{level}" for module, level in RELEASE_LEVEL.items()])
        if not FLAGS_STAMP.exists() or FLAGS_STAMP.read_text() != flags:
            self.force = True                   # a module built with other flags must not be kept
        self._started = time.perf_counter()
        self._done, self._lock = 0, threading.Lock()
        super().run()
        FLAGS_STAMP.parent.mkdir(exist_ok=True)
        FLAGS_STAMP.write_text(flags)
        say(f"engine built in {time.perf_counter() - self._started:.0f} s")

    def build_extensions(self):
        """Cython in worker processes, the C compiler in threads: a module's compile starts when its C is
        written, while Cython translates the next, so no core waits for the slowest translation."""
        from Cython.Build import cythonize
        # Python's own CFLAGS carry -g: only the debug and sanitizer builds want it (COMPILE_ARGS adds it)
        self.compiler.compiler_so = [arg for arg in self.compiler.compiler_so if not arg.startswith("-g")]
        self.check_extensions_list(self.extensions)
        twins = {ext.name.rpartition(".")[2]: ext for ext in self.extensions if f".{WIDE_ISA}." in ext.name}
        modules = [ext for ext in self.extensions if f".{WIDE_ISA}." not in ext.name]
        if not twins:                           # a stale x86-64-v3 build (another build's flags) must not be loaded
            built = Path(self.get_ext_fullpath(f"ascasm._engine.{WIDE_ISA}.core")).parent
            for stale in [*built.glob("*.so"), *(ENGINE / WIDE_ISA).glob("*.so")]:     # and an --inplace copy
                stale.unlink()
        say(f"translating and compiling {len(modules)} engine modules ({CONFIG}, {self.parallel} at a time"
            f"{f'; {len(twins)} compiled again for x86-64-v3' if twins else ''})")
        translate = functools.partial(cythonize, compiler_directives=settings["DIRECTIVES"],
                                      build_dir=f"build/cython-{CONFIG}", language_level=3)
        with ProcessPoolExecutor(self.parallel) as translators, ThreadPoolExecutor(self.parallel) as compilers:
            translating = {translators.submit(translate, [ext]): ext
                           for ext in sorted(modules, key=expected_compile_time, reverse=True)}
            compiling = []
            for translated in as_completed(translating):
                ext = translating[translated]
                ext.sources = translated.result()[0].sources      # the C file; setuptools' other settings kept
                compiling.append(compilers.submit(self.build_extension, ext))
                twin = twins.get(ext.name.rpartition(".")[2])
                if twin is not None:
                    twin.sources = [copy_for_twin(ext.sources[0])]
                    for built in (self.get_ext_fullpath(twin.name), ENGINE / WIDE_ISA / "_"):    # and an --inplace copy's
                        Path(built).parent.mkdir(parents=True, exist_ok=True)
                    compiling.append(compilers.submit(self.build_extension, twin))
            for compiled in compiling:
                compiled.result()

    def build_extension(self, ext):
        stale = self.force or newer_group(ext.sources + ext.depends, self.get_ext_fullpath(ext.name))
        if stale:
            say(f"compiling {ext.name} ({os.path.getsize(ext.sources[0]) // 1000:,} kB of C)")
        super().build_extension(ext)
        with self._lock:
            self._done += 1
            say(f"{'built' if stale else 'up to date:'} {ext.name} ({self._done} of {len(self.extensions)}, "
                f"{time.perf_counter() - self._started:.0f} s)")


def copy_for_twin(c_file):
    """The module's C file copied to the x86-64-v3 build's own directory (time stamp kept: it is stale
    exactly when the original is)."""
    source = Path(c_file)
    copy = source.parent / WIDE_ISA / source.name
    if not copy.exists() or copy.stat().st_mtime != source.stat().st_mtime:
        copy.parent.mkdir(exist_ok=True)
        shutil.copy2(source, copy)
    return str(copy)


def expected_compile_time(ext):
    """core first (its Python-level loader is the longest compile, about twice arith's), then the kernel
    modules by the size of their source and generated kernel table."""
    pyx = Path(ext.name.replace(".", "/") + ".pyx")
    dispatch = pyx.with_name(f"dispatch_{pyx.stem}.pxi")
    return (pyx.stem == "core", sum(path.stat().st_size for path in (pyx, dispatch) if path.exists()))


setup(ext_modules=engine_extensions(), cmdclass={"build_ext": BuildEngine})
