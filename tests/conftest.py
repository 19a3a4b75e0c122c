"""Every behaviour test runs on both executors. A missing compiled engine is an error, never a skip."""
from __future__ import annotations

import io
import os
import subprocess
import sys
import tempfile
import textwrap
import warnings

import numpy as np
import pytest

from ascasm import assemble
from ascasm.vm import Machine, compiled_engine

compiled_engine()  # raises EngineMissing at collection: the suite must never quietly test ref alone

# Property tests draw the same examples on every run, so the suite passes or fails the same way each time
# (the fuzzer, tools/fuzz.py, explores fresh programs); ASCASM_HYPOTHESIS=explore draws new ones.
try:
    from hypothesis import settings as _hypothesis_settings
except ImportError:                     # the property tests skip themselves without it
    pass
else:
    _hypothesis_settings.register_profile("repeatable", derandomize=True, database=None)
    _hypothesis_settings.register_profile("explore")
    _hypothesis_settings.load_profile("explore" if os.environ.get("ASCASM_HYPOTHESIS") == "explore" else "repeatable")

ENGINES = ("ref", "cy")
# Sweeps (every bit pattern of a type, or a dense sample, through one instruction) run in full on the
# compiled engine. The reference executor is several times slower: in `pytest -q` it runs a sample
# (every 7th pattern, and the last 256, where the sweeps put their hand-picked edge cases; a multiple of
# 256 patterns, whole registers of any type), under `pytest -m slow` every pattern.
SWEEP_ENGINES = ("cy", "ref-sample", pytest.param("ref", marks=pytest.mark.slow))


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


def sweep(engine: str, *patterns: np.ndarray) -> tuple:
    """The executor a SWEEP_ENGINES parameter names, then the patterns it runs (of each array, the same
    positions)."""
    if engine != "ref-sample":
        return engine, *patterns
    positions = np.arange(len(patterns[0]))
    strided = positions[:-256:7]
    positions = np.concatenate([strided[:len(strided) // 256 * 256], positions[-256:]])
    return "ref", *(array[positions] for array in patterns)


def run_source(source: str, engine: str, **machine_options) -> Machine:
    """Assemble `source` (dedented), run it to the end on `engine`, return the machine."""
    program = assemble(textwrap.dedent(source), "test.s", ub_usable=machine_options.get("ub_usable", 248 * 1024))
    machine = Machine(program, engine, **machine_options)
    machine.run()
    return machine


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    """`ascasm ARGS` as a user runs it, in this process: the command line's `main` with standard output
    and error pointed at temporary files (real file descriptors, as `--trace` to standard output
    needs), standard input empty, the working directory `cwd` (a neutral one by default), the warnings
    it lets through printed to standard error as Python prints them. A fresh process per call cost
    0.5 s of CPU, 2 s with a float type (importing numpy, ml_dtypes); tests about the process itself
    (the installed command, a closed pipe, Ctrl-C, start-up) use run_process."""
    from ascasm import cli
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.showwarning = lambda message, category, filename, lineno, file=None, line=None: \
            err.write(warnings.formatwarning(message, category, filename, lineno, line))
        streams, directory = (sys.stdin, sys.stdout, sys.stderr), os.getcwd()
        sys.stdin, sys.stdout, sys.stderr = io.StringIO(), out, err
        try:
            os.chdir(cwd or tempfile.gettempdir())
            try:
                status = cli.main([str(arg) for arg in args])
            except SystemExit as leaving:        # (argparse's --help and --version)
                status = leaving.code or 0
        finally:
            os.chdir(directory)
            sys.stdin, sys.stdout, sys.stderr = streams
        out.seek(0), err.seek(0)
        return subprocess.CompletedProcess(["ascasm", *map(str, args)], status, out.read(), err.read())


def run_process(*args, cwd=None) -> subprocess.CompletedProcess:
    """`python -m ascasm ARGS` in a fresh process. The default working directory is a neutral one: from
    the repository root, `-m` would import the source tree instead of the installed package."""
    return subprocess.run([sys.executable, "-m", "ascasm", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd or tempfile.gettempdir())
