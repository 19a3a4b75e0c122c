#!/usr/bin/env python3
"""Compare what two versions of the C++ front end make of the same kernels.

A restructuring of the front end must keep every translation as it was (byte-identical programs where
the choice is free, the same errors): this tool records the kernels the test suite translates, then
translates them with the code on the Python path and writes every result, so two trees' results can be
compared line by line.

    python tools/compare_translations.py collect corpus.jsonl [PYTEST ARGS]
        runs pytest (default: the tests that translate C++) and records each translation it asks for:
        the kernel's text (and the small files beside it and in its include directories, for kernels
        the tests write to temporary directories), the entry and the options
    python tools/compare_translations.py render corpus.jsonl results.json
        translates each recorded kernel with the ascasm this Python imports (bounded, as `ascasm run`
        is) and writes {case: assembly text and parameters, or the error}
    python tools/compare_translations.py diff old.json new.json
        lists the cases whose results differ (exit status 1 when any does)

Against an older commit: `git worktree add /tmp/old COMMIT`, then `PYTHONPATH=/tmp/old python
tools/compare_translations.py render ...` renders with that tree's front end (it needs no engine).
tools/survey_kernels.py --translations FILE writes the public kernels' units in the same form.
This is a developer's tool, not a test.
"""
import hashlib
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TRANSLATING_TESTS = ["tests/test_cpp_translate.py", "tests/test_cpp_kernels.py", "tests/test_cpp_forms.py",
                     "tests/test_cpp_front_gaps.py", "tests/test_cpp_units.py", "tests/test_cpp_public_patterns.py",
                     "tests/test_cpp_run.py", "tests/test_cpp_harness.py", "tests/test_compiled_kernels.py",
                     "tests/test_cast_packed.py", "tests/test_buffer_bounds.py", "tests/test_debugger_cpp.py",
                     "tests/test_debuginfo.py", "tests/test_reg_precision_modes.py", "tests/test_mask_stream_store.py",
                     "tests/test_warnings.py", "tests/test_cpp_stubs.py", "tests/test_dap.py"]
SMALL_FILE = 200_000            # bytes: files beside a kernel in a temporary directory are recorded up to this
MAX_SIBLINGS = 20


def _files_of(directory: Path) -> dict | None:
    """The small text files of a temporary directory the tests wrote, or None for a directory of the
    repository (its files are read from the tree at render time)."""
    if REPO in directory.resolve().parents or directory.resolve() == REPO:
        return None
    files = {}
    for path in sorted(directory.iterdir())[:MAX_SIBLINGS * 4]:
        if path.is_file() and not path.is_symlink() and path.stat().st_size <= SMALL_FILE:
            try:
                files[path.name] = path.read_text()
            except (UnicodeDecodeError, OSError):
                continue
        if len(files) >= MAX_SIBLINGS:
            break
    return files


class Recorder:
    """A pytest plugin: wraps the front end's entry points and records each call's inputs."""

    def __init__(self, out):
        self.out = out
        self.seen = set()

    def pytest_configure(self, config):
        from ascasm.cpp import sandbox, translate
        self._wrap(sandbox, "call")
        self._wrap(translate, "translate")

    def _wrap(self, module, name):
        original = getattr(module, name)

        def recorded(path, *args, **kwargs):
            self.record(path, args, kwargs)
            return original(path, *args, **kwargs)
        setattr(module, name, recorded)

    def record(self, path, args, kwargs):
        path = Path(str(path))
        if not path.is_file():
            return
        entry = args[0] if args else kwargs.get("entry")
        case = {"file": path.name, "dir": None, "files": None, "entry": entry,
                "template_args": kwargs.get("template_args"), "defines": list(kwargs.get("defines", ())),
                "include_dirs": []}
        files = _files_of(path.parent)
        if files is None:
            case["dir"] = str(path.parent.resolve().relative_to(REPO))
        else:
            case["files"] = files
        for directory in kwargs.get("include_dirs", ()):
            directory = Path(directory)
            inside = _files_of(directory) if directory.is_dir() else None
            case["include_dirs"].append({"files": inside} if inside is not None else
                                        {"dir": str(directory.resolve().relative_to(REPO))
                                         if REPO in directory.resolve().parents else str(directory)})
        key = hashlib.sha256(json.dumps(case, sort_keys=True, default=str).encode()).hexdigest()[:16]
        if key not in self.seen:
            self.seen.add(key)
            self.out.write(json.dumps({"key": key, **case}, default=str) + "\n")
            self.out.flush()


def collect(out_path, pytest_args):
    import pytest
    with open(out_path, "w", encoding="utf-8") as out:
        recorder = Recorder(out)
        status = pytest.main(["-q", "-p", "no:cacheprovider", *(pytest_args or TRANSLATING_TESTS)],
                             plugins=[recorder])
    print(f"{len(recorder.seen)} translations recorded in {out_path} (pytest exit status {status})")


def _materialise(files: dict, directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (directory / name).write_text(text)
    return directory


def _result(case, root: Path) -> dict:
    from ascasm.cpp import sandbox
    from ascasm.cpp.translate import CppError
    if case["files"] is not None:
        kernel_dir = _materialise(case["files"], root / "kernel")
    else:
        kernel_dir = REPO / case["dir"]
    include_dirs = []
    for k, inc in enumerate(case["include_dirs"]):
        if "files" in inc:
            include_dirs.append(str(_materialise(inc["files"], root / f"include{k}")))
        else:
            include_dirs.append(str(REPO / inc["dir"]) if not Path(inc["dir"]).is_absolute() else inc["dir"])
    kwargs = {"defines": tuple(case["defines"]), "include_dirs": tuple(include_dirs)}
    if case["template_args"] is not None:
        kwargs["template_args"] = case["template_args"]
    try:
        t = sandbox.call(str(kernel_dir / case["file"]), case["entry"], **kwargs)
    except CppError as error:
        return {"error": f"{type(error).__name__}: {error}".replace(str(root), "<tmp>")}
    except Exception as error:     # a bug of the front end: part of the result, not the end of the run
        return {"crash": f"{type(error).__name__}: {error}".replace(str(root), "<tmp>")}
    result = {"text": t.text(), "params": [repr(p) for p in t.params], "ctrl": repr(sorted(t.ctrl.items())),
              "directives": [list(d) for d in t.directives]}
    # the kernel's temporary directory appears in debug directives' paths: the same kernel in two runs
    return json.loads(json.dumps(result).replace(str(root), "<tmp>"))


def render(corpus_path, out_path):
    results = {}
    with open(corpus_path, encoding="utf-8") as corpus:
        cases = [json.loads(line) for line in corpus if line.strip()]
    for n, case in enumerate(cases):
        with tempfile.TemporaryDirectory(prefix="ascasm-compare-") as tmp:
            results[case["key"]] = {"entry": case["entry"], "file": case["file"], **_result(case, Path(tmp))}
        if (n + 1) % 100 == 0:
            print(f"{n + 1} of {len(cases)}", file=sys.stderr)
    Path(out_path).write_text(json.dumps(results, indent=0, sort_keys=True))
    kinds = [next(k for k in ("text", "error", "crash") if k in r) for r in results.values()]
    print(f"{len(results)} cases: {kinds.count('text')} translated, {kinds.count('error')} errors, "
          f"{kinds.count('crash')} crashes")


def diff(old_path, new_path) -> int:
    old, new = (json.loads(Path(p).read_text()) for p in (old_path, new_path))
    differing = 0
    for key in sorted(old.keys() | new.keys()):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        differing += 1
        where = (a or b).get("file"), (a or b).get("entry")
        print(f"== {key} {where[0]} entry {where[1]!r}")
        for field in sorted(set(a or {}) | set(b or {})):
            if (a or {}).get(field) != (b or {}).get(field):
                print(f"  {field}:\n    old: {str((a or {}).get(field))[:600]!r}\n    new: {str((b or {}).get(field))[:600]!r}")
    print(f"{differing} of {len(old.keys() | new.keys())} cases differ")
    return 1 if differing else 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) >= 2 and argv[0] == "collect":
        return collect(argv[1], argv[2:])
    if len(argv) == 3 and argv[0] == "render":
        return render(argv[1], argv[2])
    if len(argv) == 3 and argv[0] == "diff":
        return diff(argv[1], argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
