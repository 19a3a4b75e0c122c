#!/usr/bin/env python3
"""Survey: parse every arch35 vector unit of public Ascend C kernel repositories with ascasm's stubs.

A unit is a `__simd_vf__` function or a `__VEC_SCOPE__` block.  For each repository (a bare git
mirror; its kernel sources are exported to a temporary directory, never into this repository) the
tool parses every arch35 file that holds a unit against ascasm's header stubs (plus the file's
own directory and the repository's shared kernel include directory) and prints how many units
there are, how many parse, parse CPU time, and the most frequent error messages.

    python tools/survey_kernels.py /work/.mirror/hicann+ops-nn/repo /work/.mirror/hicann+ops-math/repo \
        --headers /work/.mirror/hicann+opbase/repo:include/op_common,pkg_inc/op_common

(`--headers` names a repository the kernels include shared headers from, and its include dirs.)

This is a measuring tool, not a test: it needs the mirrors and libclang.
"""
import argparse
import collections
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clang.cindex as ci

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ascasm.cpp.stubs import clang_args  # noqa: E402

UNIT_PATTERN = r"__simd_vf__|__VEC_SCOPE__"
SOURCE_SUFFIXES = ("*.h", "*.hpp", "*.cpp", "*.cc", "*.inl")
# Directories of a repository that its kernels include from by path (e.g. "op_kernel/x.h").
SHARED_INCLUDE_DIRS = ("common/inc", "common/inc/op_kernel", "common")


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def unit_files(repo):
    """Paths of the arch35 sources at HEAD that mention a vector unit."""
    out = git(repo, "grep", "-l", "-E", UNIT_PATTERN, "HEAD", "--", *SOURCE_SUFFIXES)
    paths = [line.split(":", 1)[1] for line in out.decode().splitlines()]
    return sorted(p for p in paths if "arch35" in p)


def export_sources(repo, dest):
    """Write the repository's C/C++ sources at HEAD under dest (git archive, so no work tree)."""
    names = git(repo, "ls-tree", "-r", "--name-only", "HEAD").decode().splitlines()
    present = [p for p in SOURCE_SUFFIXES if any(n.endswith(p[1:]) for n in names)]  # archive refuses unmatched ones
    archive = subprocess.run(["git", "-C", str(repo), "archive", "HEAD", "--", *present],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def walk(cursor):
    yield cursor
    for child in cursor.get_children():
        yield from walk(child)


def is_vec_scope(cursor):
    if cursor.kind != ci.CursorKind.IF_STMT:
        return False
    condition = next(cursor.get_children(), None)
    return condition is not None and any(
        c.kind == ci.CursorKind.CALL_EXPR and c.spelling == "__ascasm_vec_scope" for c in walk(condition))


def is_vector_function(cursor):
    return (cursor.kind in (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.FUNCTION_TEMPLATE,
                            ci.CursorKind.CXX_METHOD)
            and cursor.is_definition()
            and any(a.kind == ci.CursorKind.ANNOTATE_ATTR and a.spelling == "simd_vf"
                    for a in cursor.get_children()))


def units_in(tu, path):
    """(kind, name, first line, last line) of each unit defined in the file itself."""
    units = []
    own = (c for c in tu.cursor.get_children() if c.location.file is not None and c.location.file.name == path)
    for cursor in (d for top in own for d in walk(top)):
        if is_vector_function(cursor):
            units.append(("vf", cursor.spelling, cursor.extent.start.line, cursor.extent.end.line))
        elif is_vec_scope(cursor):
            units.append(("scope", "", cursor.extent.start.line, cursor.extent.end.line))
    return units


def count_textual_units(text):
    """Units by text, to see how many the parse missed (comments and macros excluded)."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))
    scopes = len(re.findall(r"\b__VEC_SCOPE__\b", code))
    functions = len(re.findall(r"__simd_vf__[^;{]*?\([^;{]*?\)\s*(?:const\s*)?\{", code, flags=re.S))
    return functions, scopes


def normalise(message):
    """An error message with its quoted names kept (they are the actionable part)."""
    return re.sub(r"\s+", " ", message)


def survey_repo(repo, index, tally, header_dirs):
    files = unit_files(repo)
    with tempfile.TemporaryDirectory(prefix="ascasm-survey-") as tmp:
        root = Path(tmp)
        export_sources(repo, root)
        shared = [str(root / d) for d in SHARED_INCLUDE_DIRS if (root / d).is_dir()] + header_dirs
        for rel in files:
            path = root / rel
            started = time.process_time()
            # A header is parsed as the kernel that includes it sees it: after kernel_operator.h.
            args = clang_args(include_dirs=[str(path.parent), *shared, str(root)])
            tu = index.parse(str(path), args=[*args, "-include", "kernel_operator.h", "-ferror-limit=0"])
            tally["cpu"].append(time.process_time() - started)
            errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
            fatal = any(d.severity == ci.Diagnostic.Fatal for d in errors)
            units = units_in(tu, str(path))
            text_functions, text_scopes = count_textual_units(path.read_text(errors="replace"))
            tally["text_vf"] += text_functions
            tally["text_scope"] += text_scopes
            tally["files"] += 1
            tally["clean_files"] += not errors
            for message in {normalise(d.spelling) for d in errors}:
                tally["file_reasons"][message] += 1
            for kind, name, first, last in units:
                inside = [d for d in errors if d.location.file is not None
                          and d.location.file.name == str(path) and first <= d.location.line <= last]
                ok = not fatal and not inside
                tally[f"{kind}_units"] += 1
                tally[f"{kind}_parsed"] += ok
                tally["parsed_units"].append((repo.name if repo.name != "repo" else repo.parent.name, rel, kind, name, first, ok))


def report(tally):
    cpu = sorted(tally["cpu"])
    print(f"files with units: {tally['files']}, parse without any error: {tally['clean_files']}")
    print(f"units found by the parser: {tally['vf_units']} __simd_vf__ functions, "
          f"{tally['scope_units']} __VEC_SCOPE__ blocks "
          f"(by text: {tally['text_vf']} functions, {tally['text_scope']} blocks)")
    print(f"units that parse (no error inside the unit, no missing header): "
          f"{tally['vf_parsed']} of {tally['vf_units']} functions, "
          f"{tally['scope_parsed']} of {tally['scope_units']} blocks")
    if cpu:
        print(f"parse CPU time per file: median {cpu[len(cpu) // 2]:.3f} s, max {cpu[-1]:.3f} s")
    print("most frequent errors (number of files with it):")
    for message, count in tally["file_reasons"].most_common(25):
        print(f"  {count:4d}  {message}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", nargs="+", type=Path, help="bare git mirrors of kernel repositories")
    parser.add_argument("--headers", action="append", default=[], metavar="MIRROR:DIR[,DIR]",
                        help="a mirror of shared headers the kernels include, and its include dirs")
    args = parser.parse_args(argv)
    index = ci.Index.create()
    tally = collections.defaultdict(int)
    tally.update(cpu=[], parsed_units=[], file_reasons=collections.Counter())
    with tempfile.TemporaryDirectory(prefix="ascasm-survey-headers-") as tmp:
        header_dirs = []
        for n, spec in enumerate(args.headers):
            mirror, _, dirs = spec.partition(":")
            dest = Path(tmp) / str(n)
            dest.mkdir()
            export_sources(Path(mirror), dest)
            header_dirs += [str(dest / d) for d in dirs.split(",") if d]
        for repo in args.mirrors:
            survey_repo(repo, index, tally, header_dirs)
    report(tally)


if __name__ == "__main__":
    main()
