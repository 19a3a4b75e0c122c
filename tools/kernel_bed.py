#!/usr/bin/env python3
"""Correctness bed: run vector units of public Ascend C kernels and check them against the math.

Each unit of a list (tools/kernel_bed_units.py unless `--units FILE`) names a public repository, a
commit, a file and an entry (a `__simd_vf__` function or a `__VEC_SCOPE__` block, as `--entry`
names them), the arguments its host code passes, a generator of inputs and a numpy reference of the
operation's math.  The code is read from a bare git mirror at run time (`--mirrors DIR` holds
`OWNER+NAME/repo`), never from this repository; a unit whose mirror or commit is missing is
skipped.  A unit may also name the script of the repository that writes its inputs and golden
output (the vendor's examples): the script then runs in a temporary directory and the unit's output
is checked against that golden file as well as against the reference.

Each unit is reported right, wrong (how many lanes differ, the first ones with index, value and
expected value), refused (the translator's or the machine's error) or skipped, then a summary;
`--json` prints the same as one JSON object.  The exit status is 0 whatever the units give, 1 when
the bed itself fails (a unit's generator or reference raises, its arguments do not fit its
kernel, the units file does not load).

    python tools/kernel_bed.py [--mirrors /work/.mirror] [--units FILE] [-k TEXT] [--engine ref] [--json]
"""
import argparse
import dataclasses
import importlib.util
import json
import re
import subprocess
import sys
import tempfile
import traceback
from pathlib import Path
from typing import Callable

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent))     # the source tree, if ascasm is not installed
import survey_kernels as survey  # noqa: E402
from ascasm.cpp.compiled import run_kernel  # noqa: E402
from ascasm.cpp.harness import CppFailed, KernelArgError  # noqa: E402
from ascasm.vm import MachineFault  # noqa: E402

DEFAULT_MIRRORS = Path("/work/.mirror")
DEFAULT_UNITS = Path(__file__).resolve().parent / "kernel_bed_units.py"
SEED = 20261204
SHOWN_LANES = 4


@dataclasses.dataclass
class Golden:
    """The repository's script that writes a unit's data, and the files it writes: {parameter:
    (file relative to the script's working directory, numpy dtype)}."""
    script: str
    inputs: dict
    outputs: dict
    argv: tuple = ()     # the script's options (a scenario number)


@dataclasses.dataclass
class At:
    """A pointer argument `offset` bytes into the buffer `array` (the host passes `addr + n`)."""
    array: np.ndarray
    offset: int


@dataclasses.dataclass
class Unit:
    name: str
    repo: str            # OWNER/NAME
    commit: str
    path: str            # the file inside the repository
    entry: str           # as --entry names it: Name<T>, or Cls<T>::Method#K for a block (kind "scope")
    op: str              # the family, for the figures: activation, norm, cast, ...
    dtype: str           # the data's element type, for the figures: float, half, bfloat16, int32, ...
    args: Callable       # rng -> {parameter: array or number}
    expect: Callable     # arguments -> {pointer parameter: expected array (its first elements)}
    rtol: float = 0.0
    atol: float = 0.0
    golden: Golden | None = None
    defines: tuple = ()  # -D macros the vendor's build passes (a scenario number)
    headers: tuple = ()  # (OWNER/NAME, commit, include dir, ...) of header repositories the build adds

    @property
    def kind(self):
        return "scope" if "#" in self.entry else "vf"


def load_units(path):
    spec = importlib.util.spec_from_file_location("kernel_bed_units", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("kernel_bed", sys.modules[__name__])  # the units file imports Unit from here
    spec.loader.exec_module(module)
    return module.UNITS


class Trees:
    """Each (repository, commit)'s sources exported once into a temporary directory, in the vendor
    build's layout (as the survey does); host-only headers are the package's stand-ins (ascasm/cpp/stubs.py)."""

    def __init__(self, mirrors, tmp):
        self.mirrors, self.tmp, self.trees = Path(mirrors), Path(tmp), {}

    def mirror(self, repo):
        return self.mirrors / repo.replace("/", "+") / "repo"

    def has(self, unit):
        """Whether the unit's file and its header repositories' commits are in the mirrors."""
        wanted = [(unit.repo, f"{unit.commit}:{unit.path}")] + [(repo, commit) for repo, commit, *_ in unit.headers]
        return all(self.mirror(repo).is_dir() and subprocess.run(
            ["git", "--git-dir", str(self.mirror(repo)), "cat-file", "-e", obj], capture_output=True).returncode == 0
            for repo, obj in wanted)

    def tree(self, repo, commit):
        """(root, op_kernel copies) of the repository's sources at commit, exported once."""
        if (repo, commit) not in self.trees:
            root = self.tmp / f"tree{len(self.trees)}"
            root.mkdir()
            survey.export_sources(self.mirror(repo), root, commit)
            self.trees[repo, commit] = (root, survey.build_layout(root))
        return self.trees[repo, commit]

    def source(self, unit):
        """(path of the unit's file in its exported tree, include directories)."""
        root, copies = self.tree(unit.repo, unit.commit)
        path, op_dir = survey.layout_path(root / unit.path, copies)
        shared = [str(root / d) for d in survey.SHARED_INCLUDE_DIRS if (root / d).is_dir()]
        headers = [str(self.tree(repo, commit)[0] / d) for repo, commit, *dirs in unit.headers for d in dirs]
        return path, [str(path.parent), *([str(op_dir)] if op_dir else []), *shared, *headers, str(root)]

    def golden(self, unit, golden):
        """Run the repository's data script in a fresh directory (numpy seeded); {name: array} of
        the files it wrote, inputs and outputs."""
        work = Path(tempfile.mkdtemp(dir=self.tmp))
        script = subprocess.run(["git", "--git-dir", str(self.mirror(unit.repo)), "show",
                                 f"{unit.commit}:{golden.script}"], check=True, capture_output=True).stdout
        (work / "gen.py").write_bytes(script)
        run = ("import numpy, runpy, sys; numpy.random.seed(%d); sys.argv[1:] = %r; "
               "runpy.run_path('gen.py', run_name='__main__')" % (SEED, list(golden.argv)))
        subprocess.run([sys.executable, "-c", run], cwd=work, check=True, capture_output=True, timeout=120)
        return {name: np.fromfile(work / file, dtype=np.dtype(dtype))
                for name, (file, dtype) in {**golden.inputs, **golden.outputs}.items()}


_TILING_DEFINITION = re.compile(r"BEGIN_TILING_DATA_DEF\(.*?END_TILING_DATA_DEF\s*;|REGISTER_TILING_DATA_CLASS\([^)]*\)\s*;?",
                                re.S)


def host_tiling_header(host_header, dest):
    """What the vendor's build makes of an operator's host tiling header for its kernel: the
    BEGIN_TILING_DATA_DEF ... END_TILING_DATA_DEF definitions and REGISTER_TILING_DATA_CLASS lines,
    without the host code around them, written to `dest` for `-D ASCASM_TILING_HEADER='"dest"'`
    (docs/frontend.md "Whole kernels")."""
    definitions = _TILING_DEFINITION.findall(Path(host_header).read_text(errors="replace"))
    Path(dest).write_text("// the tiling definitions of %s\n#include <cstdint>\nnamespace optiling {\n%s\n}\n"
                          % (Path(host_header).name, "\n".join(definitions)))
    return Path(dest)


def first_line(error):
    return str(error).strip().splitlines()[0] if str(error).strip() else error.__class__.__name__


def compare(name, got, want, unit):
    """None when `got` (the buffer's first len(want) elements) matches; else the difference."""
    got = np.asarray(got).reshape(-1)[:want.size]
    want = np.asarray(want).reshape(-1)
    if got.size < want.size:
        return {"output": name, "differing": want.size, "lanes": want.size, "first": [],
                "message": f"{name}: the buffer holds {got.size} elements, {want.size} expected"}
    with np.errstate(invalid="ignore", over="ignore"):  # inf and NaN lanes compare as themselves
        g, w = got.astype(np.float64), want.astype(np.float64)
        same = (g == w) | (np.isnan(g) & np.isnan(w)) | (np.abs(g - w) <= unit.atol + unit.rtol * np.abs(w))
    bad = np.flatnonzero(~same)
    if bad.size == 0:
        return None
    first = [{"index": int(i), "got": got[i].item(), "want": want[i].item()} for i in bad[:SHOWN_LANES]]
    shown = ", ".join(f"[{f['index']}] {f['got']!r} want {f['want']!r}" for f in first)
    return {"output": name, "differing": int(bad.size), "lanes": int(want.size), "first": first,
            "message": f"{name}: {bad.size} of {want.size} lanes differ; first {shown}"}


def run_unit(unit, trees, engine):
    record = {"name": unit.name, "repo": unit.repo, "commit": unit.commit, "path": unit.path,
              "entry": unit.entry, "kind": unit.kind, "op": unit.op, "dtype": unit.dtype}
    if not trees.has(unit):
        return {**record, "status": "skipped", "message": "no mirror"}
    rng = np.random.default_rng(SEED)
    args = unit.args(rng)
    golden = trees.golden(unit, unit.golden) if unit.golden else {}
    for name in unit.golden.inputs if unit.golden else ():  # the script's inputs replace the drawn ones
        args[name] = At(golden[name], args[name].offset) if isinstance(args.get(name), At) else golden[name]
    given = {k: v.array if isinstance(v, At) else v for k, v in args.items()}
    expected = [(name, want, "reference") for name, want in unit.expect(
        {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in given.items()}).items()]
    expected += [(name, golden[name], "golden") for name in (unit.golden.outputs if unit.golden else ())]
    path, include_dirs = trees.source(unit)
    for name, value in args.items():  # a pointer into a buffer goes as a file with an offset
        if isinstance(value, At):
            np.save(trees.tmp / f"{name}.npy", value.array)
            args[name] = f"{trees.tmp / name}.npy@+{value.offset}"
    try:
        result = run_kernel(path, unit.entry, engine=engine, include_dirs=include_dirs, defines=unit.defines, **args)
    except KernelArgError as error:  # the unit's arguments do not fit its kernel: the bed's fault
        raise RuntimeError(f"arguments: {first_line(error)}") from None
    except (CppFailed, MachineFault) as error:
        # a path inside the exported tree is shown as the repository's (the layout's __ops/ as is)
        message = first_line(error).replace(str(path.parent) + "/", "").replace(str(trees.tmp) + "/", "")
        return {**record, "status": "refused", "message": re.sub(r"^tree\d+/", "", message)}
    wrong = []
    for name, want, against in expected:
        diff = compare(name, result[name], want, unit)
        if diff is not None:
            wrong.append({**diff, "against": against, "message": f"{diff['message']} ({against})"})
    if wrong:
        return {**record, "status": "wrong", "message": "; ".join(w["message"] for w in wrong), "differences": wrong}
    return {**record, "status": "right", "checked": sorted({against for _, _, against in expected})}


STATUSES = ("right", "wrong", "refused", "skipped", "error")


def summary(records):
    counts = {status: sum(r["status"] == status for r in records) for status in STATUSES}
    ran = [r for r in records if r["status"] != "skipped"]
    counts.update(units=len(records), scope_blocks=sum(r["kind"] == "scope" for r in records),
                  half_or_bf16=sum(r["dtype"] in ("half", "bfloat16") for r in records),
                  ran=len(ran))
    return counts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", default=str(DEFAULT_MIRRORS), help="directory of OWNER+NAME/repo bare mirrors")
    parser.add_argument("--units", default=str(DEFAULT_UNITS), help="the Python file whose UNITS list the bed runs")
    parser.add_argument("-k", dest="select", help="run only the units whose name contains this text")
    parser.add_argument("--engine", help="executor (default: ascasm's choice)")
    parser.add_argument("--json", action="store_true", help="print one JSON object: units and summary")
    args = parser.parse_args(argv)
    try:
        units = [u for u in load_units(args.units) if not args.select or args.select in u.name]
    except Exception:  # the units file is the bed's own input: its failure is a runner error
        traceback.print_exc()
        return 1
    records = []
    with tempfile.TemporaryDirectory(prefix="ascasm-bed-") as tmp:
        trees = Trees(args.mirrors, tmp)
        for unit in units:
            try:
                record = run_unit(unit, trees, args.engine)
            except Exception as error:  # the bed's fault (a generator, a reference, a script), not the unit's
                record = {"name": unit.name, "kind": unit.kind, "dtype": unit.dtype, "status": "error",
                          "message": f"{error.__class__.__name__}: {first_line(error)}"}
            records.append(record)
            if not args.json:
                print(f"{record['status']:8s} {unit.name}" + (f": {record['message']}" if "message" in record else ""),
                      flush=True)
    counts = summary(records)
    if args.json:
        print(json.dumps({"units": records, "summary": counts}, indent=1))
    else:
        print(", ".join(f"{counts[k]} {k}" for k in ("units", "right", "wrong", "refused", "skipped", "error"))
              + f"; {counts['scope_blocks']} __VEC_SCOPE__ blocks, {counts['half_or_bf16']} in half or bf16")
    return 1 if counts["error"] else 0


if __name__ == "__main__":
    sys.exit(main())
