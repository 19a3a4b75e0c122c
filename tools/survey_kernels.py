#!/usr/bin/env python3
"""Survey: parse every arch35 vector unit of public Ascend C kernel repositories with ascasm's stubs.

A unit is a `__simd_vf__` function or a `__VEC_SCOPE__` block.  For each repository (a bare git
mirror; its kernel sources are exported to a temporary directory, never into this repository) the
tool parses every arch35 file that holds a unit against ascasm's header stubs (plus the file's
own directory and the repository's shared kernel include directory) and prints how many units
there are, how many parse, parse CPU time, and the most frequent error messages.  Then each unit
that parses (no error inside it, no header missing) is translated (template arguments from the
first instantiation with written-out arguments the kernel's own sources give, in its file or its
operator's op_kernel directory; else guessed: float for a type, 1 for an integer, false for a
bool, an enum's first member) and run with
placeholder arguments (8 KiB of zeros per pointer, 1 per scalar); it counts as running when it
halts without a fault within a step budget.  The translator itself refuses a unit when clang
reports an error in the function around it or in a helper it inlines.

A mirror given as `MIRROR:DIR[,DIR]` is surveyed in the files under those directories (any
architecture: a repository of examples) instead of its arch35 files.  Host-only headers (the ACL
runtime, the C++ standard library's I/O and containers, host tiling) are the empty stand-ins the
package ships (ascasm/cpp/include/host_only, searched last by clang_args), as for `ascasm run`: the
host code around the units then has errors, which stop no unit.

Kernels include each other with paths of the vendor's build layout, where every operator's
`op_kernel` directory is copied to `<ops>/<operator>` beside `<ops>/inc` (the repository's
`common/inc/op_kernel`); the tool rebuilds that layout in its temporary directory.  A header is parsed
as its operator's sources include it: after kernel_operator.h and the headers its includer includes
before it (some headers use names only those declare).

`--grep REGEX` surveys only the files whose text matches REGEX, to re-measure one cause quickly.

    python tools/survey_kernels.py /work/.mirror/hicann+ops-nn/repo /work/.mirror/hicann+ops-math/repo \
        /work/.mirror/mirror-cann+asc-devkit/repo:examples \
        --headers /work/.mirror/hicann+opbase/repo:include/op_common,pkg_inc/op_common

(`--headers` names a repository the kernels include shared headers from, and its include dirs.)

This is a measuring tool, not a test: it needs the mirrors and libclang.
"""
import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clang.cindex as ci
import shutil

sys.path.append(str(Path(__file__).resolve().parent.parent))     # the source tree, if ascasm is not installed
from ascasm.cpp import clang as cpp_clang  # noqa: E402
from ascasm.cpp.harness import build  # noqa: E402
from ascasm.cpp.stubs import clang_args  # noqa: E402
from ascasm.cpp.cpptypes import SCALAR_NAMES, split_template_args  # noqa: E402
from ascasm.cpp.translate import CppError, translate  # noqa: E402
from ascasm.isa import dtypes  # noqa: E402
from ascasm.vm import Machine, auto_engine  # noqa: E402

PRELUDE = ["-include", "kernel_operator.h"]
prelude = list(PRELUDE)          # the file being surveyed's: PRELUDE and its includer's earlier headers
STEP_BUDGET = 2_000_000
MAX_CHOICES = 4                 # instantiations of a unit's templates tried at most
POINTER_BYTES = 8192

UNIT_PATTERN = r"__simd_vf__|__VEC_SCOPE__"
SOURCE_SUFFIXES = ("*.h", "*.hpp", "*.cpp", "*.cc", "*.inl", "*.asc")
# Directories of a repository that its kernels include from by path (e.g. "op_kernel/x.h").
SHARED_INCLUDE_DIRS = ("common/inc", "common/inc/op_kernel", "common")


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True).stdout


def unit_files(repo, under=(), matching=None):
    """Paths of the sources at HEAD that mention a vector unit: the arch35 ones, or those under
    the directories `under`; with `matching` (an extended regular expression), only those whose
    text it matches too."""
    out = git(repo, "grep", "-l", "-E", UNIT_PATTERN, "HEAD", "--", *SOURCE_SUFFIXES)
    paths = [line.split(":", 1)[1] for line in out.decode().splitlines()]
    if matching:
        out = subprocess.run(["git", "-C", str(repo), "grep", "-l", "-E", matching, "HEAD", "--", *SOURCE_SUFFIXES],
                             capture_output=True).stdout     # status 1: no file matches
        wanted = {line.split(":", 1)[1] for line in out.decode().splitlines()}
        paths = [p for p in paths if p in wanted]
    if under:
        return sorted(p for p in paths if any(p.startswith(d.rstrip("/") + "/") for d in under))
    return sorted(p for p in paths if "arch35" in p)


def export_sources(repo, dest, commit="HEAD"):
    """Write the repository's C/C++ sources at `commit` under dest (git archive, so no work tree)."""
    names = git(repo, "ls-tree", "-r", "--name-only", commit).decode().splitlines()
    present = [p for p in SOURCE_SUFFIXES if any(n.endswith(p[1:]) for n in names)]  # archive refuses unmatched ones
    archive = subprocess.run(["git", "-C", str(repo), "archive", commit, "--", *present],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)


def build_layout(root):
    """The vendor build's layout: <ops>/<operator> = each operator's op_kernel directory,
    <ops>/inc = common/inc/op_kernel.  Returns {op_kernel dir: its copy}."""
    ops = root / "__ops"
    copies = {}
    for kernel_dir in sorted(root.glob("**/op_kernel"), key=lambda d: ("experimental" in d.parts, str(d))):
        name = "inc" if kernel_dir.parent.name == "inc" else kernel_dir.parent.name
        if kernel_dir.is_dir() and not (ops / name).exists():
            shutil.copytree(kernel_dir, ops / name, symlinks=True)
            copies[kernel_dir] = ops / name
    return copies


def layout_path(path, copies):
    """Where a file of an op_kernel directory sits in the build layout (itself otherwise)."""
    for kernel_dir, copy in copies.items():
        if kernel_dir in path.parents:
            return copy / path.relative_to(kernel_dir), copy
    return path, None


_INCLUDE = re.compile(r'^\s*#\s*include\s*["<]([^">]+)[">]', re.M)
HEADER_SUFFIXES = (".h", ".hpp", ".inl")


def _resolve(name, includer, include_dirs):
    """The file `#include "name"` in `includer` opens (its directory first, then include_dirs), or None."""
    for directory in (includer.parent, *map(Path, include_dirs)):
        candidate = (directory / name).resolve()
        if candidate.is_file():
            return candidate
    return None


def includer_prelude(path, op_dir, include_dirs, depth=3):
    """The headers a header's includer includes before it, as -include arguments: the vendor's kernel
    headers rely on their op's entry file having included what they use (a header of the shared
    library says `using namespace X;` of a namespace the entry included first).  The includer is the
    first source of the operator's directory that includes `path` directly; its own includer's
    prelude comes first (up to `depth` levels)."""
    if op_dir is None or depth == 0 or path.suffix not in HEADER_SUFFIXES:
        return []
    target = path.resolve()
    for source in sorted(p for suffix in SOURCE_SUFFIXES for p in op_dir.rglob(suffix)):
        if source.resolve() == target:
            continue
        names = _INCLUDE.findall(source.read_text(errors="replace"))
        opened = [_resolve(name, source, include_dirs) for name in names]
        if target not in opened:
            continue
        before = [f for f in opened[:opened.index(target)] if f is not None]
        outer = includer_prelude(source, op_dir, include_dirs, depth - 1)
        return outer + [arg for f in before for arg in ("-include", str(f))]
    return []


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


FUNCTION_KINDS = (ci.CursorKind.FUNCTION_DECL, ci.CursorKind.FUNCTION_TEMPLATE, ci.CursorKind.CXX_METHOD,
                  ci.CursorKind.CONSTRUCTOR)


def units_in(tu, path):
    """(kind, name, first line, last line, enclosing function) of each unit in the file itself."""
    units = []

    def visit(cursor, function):
        if cursor.kind in FUNCTION_KINDS:
            function = cursor
        if is_vector_function(cursor):
            units.append(("vf", cursor.spelling, cursor.extent.start.line, cursor.extent.end.line, cursor))
        elif is_vec_scope(cursor):
            units.append(("scope", "", cursor.extent.start.line, cursor.extent.end.line, function))
        for child in cursor.get_children():
            visit(child, function)

    for top in tu.cursor.get_children():
        if top.location.file is not None and top.location.file.name == path:
            visit(top, None)
    return units


def count_textual_units(text):
    """Units by text, to see how many the parse missed (comments and macros excluded)."""
    code = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("#"))
    scopes = len(re.findall(r"\b__VEC_SCOPE__\b", code))
    functions = len(re.findall(r"__simd_vf__[^;{]*?\([^;{]*?\)\s*(?:const\s*)?\{", code, flags=re.S))
    return functions, scopes


# A template argument the survey takes as written: a scalar type, a number, a bool, a qualified
# name (an enum member, a namespace's type); anything else (a build macro such as DTYPE_X, a
# template parameter of the caller) is no instantiation the survey can use.
_CONCRETE = re.compile(r"-?\d+[uUlL]*|true|false|[A-Za-z_]\w*(\s*::\s*[A-Za-z_]\w*)+")
_TEMPLATE_KINDS = (ci.CursorKind.FUNCTION_TEMPLATE, ci.CursorKind.CLASS_TEMPLATE)


# The ge::DataType names of an operator's definition and the kernel's C types.
GE_TYPES = {"DT_FLOAT": "float", "DT_FLOAT16": "half", "DT_BF16": "bfloat16_t", "DT_INT8": "int8_t",
            "DT_UINT8": "uint8_t", "DT_INT16": "int16_t", "DT_UINT16": "uint16_t", "DT_INT32": "int32_t",
            "DT_UINT32": "uint32_t", "DT_INT64": "int64_t", "DT_UINT64": "uint64_t", "DT_BOOL": "bool"}
_DEF_IO = re.compile(r"\b(?:Input|Output)\(\s*\"(\w+)\"\s*\)((?:(?!\b(?:Input|Output)\().)*?)"
                     r"\.DataType\(\s*\{([^}]*)\}", re.S)


def dtype_macros(op_dir):
    """DTYPE_<NAME> of each input and output, as the vendor build defines it for the first data type
    combination of the operator's definition (op_host/*_def.cpp beside op_kernel)."""
    macros = {}
    for path in sorted((op_dir / "op_host").glob("*_def.cpp")) if op_dir is not None else ():
        for name, _, types in _DEF_IO.findall(path.read_text(errors="replace")):
            first = types.split(",")[0].strip().split("::")[-1]
            if first in GE_TYPES:
                macros.setdefault(f"DTYPE_{name.upper()}", GE_TYPES[first])
    return macros


def instantiations(name, texts, macros=None):
    """The argument lists `name<...>` is written with in `texts`, each argument concrete (after the
    build's DTYPE_ macros), in order."""
    found = []
    for text in texts:
        for m in re.finditer(rf"\b{re.escape(name)}\s*<", text):
            depth, end = 1, m.end()
            while end < len(text) and depth and end - m.end() < 400:
                depth += {"<": 1, ">": -1}.get(text[end], 0)
                end += 1
            args = split_template_args(text[m.end():end - 1]) if depth == 0 else []
            args = [(macros or {}).get(a, a) for a in args]
            if args and all(a in SCALAR_NAMES or _CONCRETE.fullmatch(a) for a in args) and args not in found:
                found.append(args)
    return found


def template_guesses(cursor, texts=(), macros=None, choice=0):
    """{parameter: argument text} for the templates enclosing a unit's function, or None when a
    parameter has a kind the guesses do not cover; how many templates took their arguments from
    an instantiation in `texts` (the kernel's own sources) rather than from guesses; and how many
    instantiations the most instantiated of them has (`choice` picks one, in order)."""
    guesses, instantiated, choices = {}, 0, 1
    while cursor is not None and cursor.kind != ci.CursorKind.TRANSLATION_UNIT:
        params = [p for p in cursor.get_children() if p.kind in (ci.CursorKind.TEMPLATE_TYPE_PARAMETER,
                                                                 ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER)]
        used = instantiations(cursor.spelling, texts, macros) if cursor.kind in _TEMPLATE_KINDS and params else []
        if used:
            instantiated += 1
            for param, arg in zip(params, used[choice % len(used)]):
                guesses.setdefault(param.spelling, arg)
            choices = max(choices, len(used))
        for param in cursor.get_children():
            if param.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER:
                guesses.setdefault(param.spelling, "float")
            elif param.kind == ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER:
                spelling = param.type.spelling
                if param.spelling in guesses:
                    pass
                elif spelling == "bool":
                    guesses.setdefault(param.spelling, "false")
                elif re.fullmatch(r"(const )?(u?int(8|16|32|64)_t|int|unsigned( int)?|size_t|long)", spelling):
                    guesses.setdefault(param.spelling, "1")
                elif param.type.get_canonical().kind == ci.TypeKind.ENUM:
                    enum = param.type.get_canonical().get_declaration()
                    first = next(enum.get_children(), None)
                    if first is None:
                        return None, 0, 1
                    guesses.setdefault(param.spelling, f"{param.type.get_canonical().spelling}::{first.spelling}")
                else:
                    return None, 0, 1
            elif param.kind == ci.CursorKind.TEMPLATE_TEMPLATE_PARAMETER:
                return None, 0, 1
        cursor = cursor.semantic_parent
    return guesses, instantiated, choices


def kernel_texts(path, cache):
    """The texts a unit's instantiations are looked for in (its file first, then the other sources
    of its operator: the op_kernel directory around it, whose entry files instantiate the kernels),
    and the operator's DTYPE_ macros."""
    top = next((d for d in path.parents if d.name == "op_kernel"), None)
    if top not in cache:
        files = sorted(p for suffix in SOURCE_SUFFIXES for p in top.rglob(suffix)) if top is not None else []
        cache[top] = ({p: p.read_text(errors="replace") for p in files}, dtype_macros(top and top.parent))
    sources, macros = cache[top]
    own = sources.get(path) or path.read_text(errors="replace")
    return [own, *(text for p, text in sources.items() if p != path)], macros


def placeholder(param):
    if param.kind == "pointer":
        return f"{param.etype}[{POINTER_BYTES // dtypes.BY_SPELLING[param.etype].width}]"
    return 1


def translate_and_run(path, line, attempts, include_dirs, tally):
    """Translate the unit at `line` with the first of the template argument sets `attempts` that
    translates, and run it; returns the stage it failed at (None: it ran)."""
    first = None
    unit = f"{_in_tree(path)}:{line}"
    try:
        for guesses in attempts:
            try:
                translation = translate(path, f"@{line}", template_args=guesses, include_dirs=include_dirs)
                break
            except CppError as error:
                first = first or error
        else:
            raise first             # the first instantiation's error is the one counted
    except CppError as error:
        tally["translate_reasons"][reason(error.message)] += 1
        tally["failures"].append(f"{error.file or path}:{error.line}: {error.message.splitlines()[0]}")
        tally["translations"][unit] = {"file": unit, "error": _in_tree(f"{error.file}:{error.line}: {error.message}")}
        return "translate"
    except Exception as error:  # a translator bug: report it as such, keep surveying
        tally["translate_reasons"][f"translator crash: {error.__class__.__name__}: {error}"[:120]] += 1
        tally["translations"][unit] = {"file": unit, "crash": f"{error.__class__.__name__}: {error}"}
        return "translate"
    tally["translated"] += 1
    tally["translations"][unit] = {"file": unit, "text": translation.text(),
                                   "params": [repr(p) for p in translation.params]}
    try:
        kernel = build(translation, {p.name: placeholder(p) for p in translation.params}, Path(path).parent)
        machine = Machine(kernel.program, auto_engine(), max_steps=STEP_BUDGET)
        machine.run()
        fault = machine.fault()
    except Exception as error:
        tally["run_reasons"][f"{error.__class__.__name__}: {str(error).splitlines()[0]}"[:120]] += 1
        return "run"
    if fault is not None:
        tally["run_reasons"][f"fault: {str(fault).splitlines()[0]}"[:120]] += 1
        return "run"
    tally["ran"] += 1
    return None


def _in_tree(text):
    """A path or message with the survey's temporary directory dropped."""
    return re.sub(r"[^ ]*?/ascasm-survey-[^/]+/", "", str(text))


def reason(message):
    """A translation error's message with the names in quotes kept, numbers dropped."""
    return re.sub(r"\d+", "N", message.splitlines()[0])[:120]


def normalise(message):
    """An error message with its quoted names kept (they are the actionable part)."""
    return re.sub(r"\s+", " ", message)


def survey_repo(repo, under, index, tally, header_dirs, limit=None, matching=None):
    files = unit_files(repo, under, matching)[:limit]
    with tempfile.TemporaryDirectory(prefix="ascasm-survey-") as tmp:
        root = Path(tmp)
        export_sources(repo, root)
        copies = build_layout(root)
        shared = [str(root / d) for d in SHARED_INCLUDE_DIRS if (root / d).is_dir()] + header_dirs
        texts = {}
        for rel in files:
            path, op_dir = layout_path(root / rel, copies)
            include_dirs = [str(path.parent), *([str(op_dir)] if op_dir else []), *shared, str(root)]
            started = time.process_time()
            # A header is parsed as the kernel that includes it sees it: after kernel_operator.h and
            # what its includer includes before it.
            prelude[:] = [*PRELUDE, *includer_prelude(path, op_dir, include_dirs)]
            args = clang_args(include_dirs=include_dirs)
            tu = index.parse(str(path), args=[*args, *prelude, "-ferror-limit=0"])
            if len(prelude) > len(PRELUDE) and not units_in(tu, str(path)):
                # an earlier header included this one itself, so its guard hid the file: parse it alone
                prelude[:] = PRELUDE
                tu = index.parse(str(path), args=[*args, *prelude, "-ferror-limit=0"])
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
            for kind, name, first, last, function in units:
                inside = [d for d in errors if d.location.file is not None
                          and d.location.file.name == str(path) and first <= d.location.line <= last]
                ok = not fatal and not inside
                tally[f"{kind}_units"] += 1
                tally[f"{kind}_parsed"] += ok
                if not ok:
                    continue
                tally["clean_units"] += 1
                sources = kernel_texts(root / rel, texts)
                guesses, instantiated, choices = template_guesses(function, *sources)
                tally["instantiated"] += bool(instantiated)
                if guesses is None:
                    tally["translate_reasons"]["template parameter of a kind the survey cannot guess"] += 1
                    continue
                # the kernel's own instantiations in turn (at most MAX_CHOICES): the first that translates counts
                attempts = [guesses] + [template_guesses(function, *sources, choice=k)[0]
                                        for k in range(1, min(choices, MAX_CHOICES))]
                translate_and_run(str(path), last, attempts, include_dirs, tally)  # last: inside every view


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
    print(f"units that parse: {tally['clean_units']}; "
          f"translate: {tally['translated']}; run to halt: {tally['ran']} "
          f"(template arguments from the kernel's own instantiations for {tally['instantiated']})")
    print("why the rest do not translate (units):")
    for message, count in tally["translate_reasons"].most_common(15):
        print(f"  {count:4d}  {message}")
    print("why translated units do not run (units):")
    for message, count in tally["run_reasons"].most_common(10):
        print(f"  {count:4d}  {message}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", nargs="+", metavar="MIRROR[:DIR,...]",
                        help="bare git mirrors of kernel repositories (with DIRs: the files under them)")
    parser.add_argument("--headers", action="append", default=[], metavar="MIRROR:DIR[,DIR]",
                        help="a mirror of shared headers the kernels include, and its include dirs")
    parser.add_argument("--log", help="append each unit's translation error (file:line: message) to this file")
    parser.add_argument("--limit", type=int, help="survey only the first N files of each repository")
    parser.add_argument("--grep", metavar="REGEX", help="survey only the files whose text matches REGEX "
                                                        "(git grep -E): re-measure one cause quickly")
    parser.add_argument("--translations", help="write each unit's translation or error to this JSON file "
                                               "(tools/compare_translations.py diff compares two)")
    args = parser.parse_args(argv)
    index = ci.Index.create()
    # The translator parses as the survey does: a header after kernel_operator.h.
    stub_args = cpp_clang.clang_args
    cpp_clang.clang_args = lambda *a, **k: [*stub_args(*a, **k), *prelude]
    translations = {}
    with tempfile.TemporaryDirectory(prefix="ascasm-survey-headers-") as tmp:
        header_dirs = []
        for n, spec in enumerate(args.headers):
            mirror, _, dirs = spec.partition(":")
            dest = Path(tmp) / str(n)
            dest.mkdir()
            export_sources(Path(mirror), dest)
            header_dirs += [str(dest / d) for d in dirs.split(",") if d]
        for spec in args.mirrors:
            mirror, _, dirs = str(spec).partition(":")
            tally = collections.defaultdict(int)
            tally.update(cpu=[], file_reasons=collections.Counter(), translate_reasons=collections.Counter(),
                         run_reasons=collections.Counter(), failures=[], translations={})
            commit = git(mirror, "rev-parse", "HEAD").decode().strip()
            survey_repo(Path(mirror), [d for d in dirs.split(",") if d], index, tally, header_dirs, args.limit,
                        args.grep)
            print(f"== {mirror} at {commit}{' under ' + dirs if dirs else ''}")
            translations.update({f"{Path(mirror).parent.name} {unit}": result
                                 for unit, result in tally["translations"].items()})
            report(tally)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.writelines(re.sub(r"^.*?/ascasm-survey-[^/]+/", "", line) + "\n" for line in tally["failures"])
    if args.translations:
        Path(args.translations).write_text(json.dumps(translations, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
