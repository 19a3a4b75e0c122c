"""tools/kernel_bed.py on kernels of our own: a bare git mirror made in tmp_path holds them, a units file
in tmp_path names them, and the bed reports each right, wrong (first differing lanes), refused (the
located error) or skipped (no mirror); the exit status says only whether the bed itself failed."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

ROOT = Path(__file__).resolve().parent.parent
BED = ROOT / "tools" / "kernel_bed.py"

# y = max(x, 0) over `count` floats, 64 lanes a repeat, the tail masked by UpdateMask; a block form too.
RELU = """\
#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void ReluVF(__ubuf__ float* x, __ubuf__ float* y, uint32_t count, uint16_t repeats)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg mask;
    for (uint16_t i = 0; i < repeats; i++) {
        mask = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(v, x + i * 64);
        Reg::Relu(v, v, mask);
        Reg::StoreAlign(y + i * 64, v, mask);
    }
}

__aicore__ inline void Negate(__ubuf__ float* x, __ubuf__ float* y)
{
    __VEC_SCOPE__
    {
        Reg::RegTensor<float> v;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::LoadAlign(v, x);
        Reg::Muls(v, v, -1.0f, all);
        Reg::StoreAlign(y, v, all);
    }
}

__simd_vf__ inline void Unmapped(__ubuf__ float* x)
{
    Reg::RegTensor<float> v;
    Reg::NoSuchCall(v);
}
"""

GEN = """\
import os, numpy as np
os.makedirs("input", exist_ok=True); os.makedirs("output", exist_ok=True)
x = np.random.uniform(-1, 1, 100).astype(np.float32)
x.tofile("input/x.bin"); np.maximum(x, 0).tofile("output/golden.bin")
"""

UNITS = """\
import numpy as np
from kernel_bed import At, Golden, Unit

def relu_args(rng):
    return dict(x=rng.uniform(-1, 1, 100).astype(np.float32), y=np.zeros(128, np.float32), count=100, repeats=2)

def neg_args(rng):
    return dict(x=rng.uniform(-1, 1, 64).astype(np.float32), y=np.zeros(64, np.float32))

UNITS = [
    Unit("relu right", "own/bed", "{commit}", "k/relu.cpp", "ReluVF", "activation", "float", relu_args,
         lambda a: {{"y": np.r_[np.maximum(a["x"], 0), np.zeros(28)]}}),
    Unit("relu golden", "own/bed", "{commit}", "k/relu.cpp", "ReluVF", "activation", "float", relu_args,
         lambda a: {{"y": np.maximum(a["x"], 0)}},
         golden=Golden("k/gen.py", {{"x": ("input/x.bin", "float32")}}, {{"y": ("output/golden.bin", "float32")}})),
    Unit("relu at an offset", "own/bed", "{commit}", "k/relu.cpp", "ReluVF", "activation", "float",
         lambda rng: {{**relu_args(rng), "y": At(np.zeros(144, np.float32), 64)}},
         lambda a: {{"y": np.r_[np.zeros(16), np.maximum(a["x"], 0), np.zeros(28)]}}),
    Unit("negate right", "own/bed", "{commit}", "k/relu.cpp", "Negate#1", "elementwise", "float", neg_args,
         lambda a: {{"y": -a["x"]}}),
    Unit("negate wrong", "own/bed", "{commit}", "k/relu.cpp", "Negate#1", "elementwise", "float", neg_args,
         lambda a: {{"y": np.r_[-a["x"][:10], a["x"][10:]]}}, rtol=1e-6),
    Unit("unmapped refused", "own/bed", "{commit}", "k/relu.cpp", "Unmapped", "elementwise", "float",
         lambda rng: dict(x=np.zeros(64, np.float32)), lambda a: {{}}),
    Unit("other commit skipped", "own/bed", "{other}", "k/relu.cpp", "ReluVF", "activation", "float",
         relu_args, lambda a: {{}}),
    Unit("no mirror skipped", "nobody/none", "{commit}", "k/relu.cpp", "ReluVF", "activation", "half",
         relu_args, lambda a: {{}}),
]
"""


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def bed(tmp_path):
    """(mirrors directory, units file) for the kernels above, committed to a bare mirror own+bed."""
    work = tmp_path / "work"
    (work / "k").mkdir(parents=True)
    (work / "k" / "relu.cpp").write_text(RELU)
    (work / "k" / "gen.py").write_text(GEN)
    git(work, "init", "-q")
    git(work, "add", ".")
    git(work, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "k")
    commit = git(work, "rev-parse", "HEAD")
    mirrors = tmp_path / "mirrors"
    git(tmp_path, "clone", "-q", "--bare", str(work), str(mirrors / "own+bed" / "repo"))
    units = tmp_path / "units.py"
    units.write_text(UNITS.format(commit=commit, other="0" * 40))
    return mirrors, units


def run_bed(mirrors, units, *extra):
    return subprocess.run([sys.executable, str(BED), "--mirrors", str(mirrors), "--units", str(units), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_the_bed_reports_each_unit_and_a_summary(bed, engine):
    done = run_bed(*bed, "--json", "--engine", engine)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    units = {u["name"]: u for u in report["units"]}
    assert {name: u["status"] for name, u in units.items()} == {
        "relu right": "right", "relu golden": "right", "relu at an offset": "right", "negate right": "right",
        "negate wrong": "wrong",
        "unmapped refused": "refused", "other commit skipped": "skipped", "no mirror skipped": "skipped"}
    assert units["relu golden"]["checked"] == ["golden", "reference"]
    wrong = units["negate wrong"]["differences"][0]
    assert (wrong["output"], wrong["differing"], wrong["lanes"]) == ("y", 54, 64)
    assert wrong["first"][0]["index"] == 10
    assert wrong["first"][0]["got"] == pytest.approx(-wrong["first"][0]["want"])
    assert "NoSuchCall" in units["unmapped refused"]["message"]
    assert "relu.cpp:" in units["unmapped refused"]["message"]
    assert units["no mirror skipped"]["message"] == "no mirror"
    assert report["summary"] == {"right": 4, "wrong": 1, "refused": 1, "skipped": 2, "error": 0, "units": 8,
                                 "scope_blocks": 2, "half_or_bf16": 1, "ran": 6}


def test_text_report_and_selection(bed):
    done = run_bed(*bed, "-k", "negate")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "right    negate right"
    assert lines[1].startswith("wrong    negate wrong: y: 54 of 64 lanes differ; first [10] ")
    assert lines[-1].startswith("2 units, 1 right, 1 wrong, 0 refused, 0 skipped, 0 error; 2 __VEC_SCOPE__ blocks")


def test_a_failing_reference_is_a_runner_error(bed):
    mirrors, units = bed
    units.write_text(units.read_text().replace('lambda a: {"y": -a["x"]}', 'lambda a: {"y": a["missing"]}'))
    done = run_bed(mirrors, units, "-k", "negate right")
    assert done.returncode == 1
    assert "error    negate right: KeyError" in done.stdout


def test_arguments_that_do_not_fit_the_kernel_are_a_runner_error(bed):
    mirrors, units = bed
    units.write_text(units.read_text().replace('y=np.zeros(64, np.float32))', 'z=np.zeros(64, np.float32))'))
    done = run_bed(mirrors, units, "-k", "negate right")
    assert done.returncode == 1
    assert "error    negate right: RuntimeError: arguments: " in done.stdout


def test_a_units_file_that_does_not_load_is_a_runner_error(tmp_path):
    units = tmp_path / "units.py"
    units.write_text("UNITS = [undefined]\n")
    done = run_bed(tmp_path, units)
    assert done.returncode == 1
    assert "NameError" in done.stderr


def test_the_bed_s_own_units_are_well_formed():
    """Without mirrors: names unique, commits whole, and every unit's generator and reference run and
    give an expectation for pointer arguments the generator makes."""
    sys.path.insert(0, str(ROOT / "tools"))
    import kernel_bed

    units = kernel_bed.load_units(kernel_bed.DEFAULT_UNITS)
    assert len({u.name for u in units}) == len(units)
    for unit in units:
        assert len(unit.commit) == 40 and all(len(commit) == 40 for _, commit, *_ in unit.headers), unit.name
        args = unit.args(np.random.default_rng(kernel_bed.SEED))
        given = {k: v.array if isinstance(v, kernel_bed.At) else v for k, v in args.items()}
        expected = unit.expect(given)
        assert expected and set(expected) <= set(args), unit.name
        for name, want in expected.items():
            buffer = given[given[name][1:]] if str(given[name]).startswith("@") else given[name]  # in place
            # the expectation may view the buffer as another type: compare elements with its bytes
            assert 0 < np.asarray(want).size <= np.asarray(buffer).nbytes, unit.name
