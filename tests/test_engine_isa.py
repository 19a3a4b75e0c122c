"""The choice between the engine's baseline (x86-64-v2) kernel modules and their x86-64-v3 builds
(ascasm/_engine/__init__.py): made from the CPU's flags and ASCASM_ENGINE_ISA, and both builds give the
same machine state."""
import importlib.machinery
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import ascasm._engine as engine_package
from ascasm._engine import WIDE_CPU_FLAGS, cpu_flags, wide_builds

SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
V3_CPU = WIDE_CPU_FLAGS | {"sse4_2", "popcnt"}


@pytest.fixture
def builds(tmp_path):
    for name in ("arith", "memory"):
        (tmp_path / f"{name}{SUFFIX}").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a module")
    return tmp_path


def test_a_cpu_with_every_v3_feature_loads_every_v3_build(builds):
    assert [p.name for p in wide_builds(builds, V3_CPU, environ={})] == [f"arith{SUFFIX}", f"memory{SUFFIX}"]


@pytest.mark.parametrize("missing", sorted(WIDE_CPU_FLAGS))
def test_a_cpu_without_one_feature_keeps_the_baseline(builds, missing):
    assert wide_builds(builds, V3_CPU - {missing}, environ={}) == []


def test_the_environment_can_ask_for_the_baseline(builds):
    assert wide_builds(builds, V3_CPU, environ={"ASCASM_ENGINE_ISA": "baseline"}) == []


def test_no_v3_builds_nothing_to_load(tmp_path):
    assert wide_builds(tmp_path / "absent", V3_CPU, environ={}) == []


def test_cpu_flags_read_from_cpuinfo(tmp_path):
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nmodel name\t: X\nflags\t\t: fpu sse4_2 avx2 bmi2\nbugs\t\t: none\n")
    assert cpu_flags(cpuinfo) == {"fpu", "sse4_2", "avx2", "bmi2"}
    assert cpu_flags(tmp_path / "absent") == frozenset()


# a program over the kernels of every module with a v3 build: element-wise arithmetic, compares and
# selects, reductions, squeeze and an unaligned store stream, masked stores, gather and scatter
PROGRAM = """
.ub x    f32[256]
.ub idx  u32[64]
.ub out  f32[512]
        mask    p0.b32, ALL
        mask    p2.b32, VL16
        vdup    v3.f32, 0.5
        sprclr.ar
        mov     s0, 0
loop:   vld     v0.f32, [x + s0]
        vmuls   v1.f32, v0.f32, 3.0, p0
        vexp    v2.f32, v1.f32, p0
        vcmp.gt p1, v0.f32, v3.f32, p0
        vsel    v4.f32, v2.f32, v0.f32, p1
        vredmax v5.f32, v4.f32, p0
        vsqz.st v6.f32, v4.f32, p1
        vstur   [out], u0, v6.f32
        add     s0, s0, 256
        blt     s0, 1024, loop
        vstar   [out], u0
        membar
        vld     v7.u32, [idx]
        vsct    [out + 1024], v5.f32, v7.u32, p2
        vsta    [out + 1536], v4.f32, p2
        halt
"""

STATE_OF_ONE_RUN = """
import hashlib, json, sys
import numpy as np
import ascasm._engine
from ascasm import assemble
from ascasm.vm import Machine
machine = Machine(assemble(sys.stdin.read()), "cy")
x = np.random.default_rng(5).standard_normal(256).astype(np.float32)
machine.state.ub[0:1024] = x.view(np.uint8)
machine.state.ub[1024:1280] = (np.arange(64, dtype=np.uint32)[::-1] * 2).view(np.uint8)
machine.run()
digest = hashlib.sha256()
for name in ("ub", "vreg", "preg", "sreg", "ctrl", "spr", "ub_dirty", "ub_write_row", "hazard_warn"):
    digest.update(np.ascontiguousarray(getattr(machine.state, name)).tobytes())
print(json.dumps([ascasm._engine.ISA, digest.hexdigest()]))
"""


def run_in(isa: str):
    env = dict(os.environ, ASCASM_ENGINE_ISA=isa)
    # from a temporary directory: `python -c` puts its working directory first on the path, and the
    # repository's own ascasm/ (no engine in it after a real install) must not be the one imported
    done = subprocess.run([sys.executable, "-c", STATE_OF_ONE_RUN], input=PROGRAM, env=env,
                          capture_output=True, text=True, check=True, cwd=tempfile.gettempdir())
    return json.loads(done.stdout)


@pytest.mark.skipif(engine_package.ISA != "x86-64-v3", reason="the x86-64-v3 builds are not loaded here")
def test_both_builds_leave_the_same_state():
    wide, baseline = run_in("auto"), run_in("baseline")
    assert (wide[0], baseline[0]) == ("x86-64-v3", "baseline")
    assert wide[1] == baseline[1]
