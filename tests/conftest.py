"""Every behaviour test runs on both executors. A missing compiled engine is an error, never a skip."""
from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap

import pytest

from ascasm import assemble
from ascasm.vm import Machine, compiled_engine

compiled_engine()  # raises EngineMissing at collection: the suite must never quietly test ref alone

ENGINES = ("ref", "cy")


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    return request.param


def run_source(source: str, engine: str, **machine_options) -> Machine:
    """Assemble `source` (dedented), run it to the end on `engine`, return the machine."""
    program = assemble(textwrap.dedent(source), "test.s", ub_usable=machine_options.get("ub_usable", 248 * 1024))
    machine = Machine(program, engine, **machine_options)
    machine.run()
    return machine


def run_cli(*args, cwd=None) -> subprocess.CompletedProcess:
    """`python -m ascasm ARGS` as a user runs it. The default working directory is a neutral one: from
    the repository root, `-m` would import the source tree instead of the installed package."""
    return subprocess.run([sys.executable, "-m", "ascasm", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd or tempfile.gettempdir())
