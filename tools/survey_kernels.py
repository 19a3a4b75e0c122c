#!/usr/bin/env python3
"""Survey: parse every arch35 vector unit of public Ascend C kernel repositories with ascasm's stubs.

A unit is a `__simd_vf__` function or a `__VEC_SCOPE__` block.  For each repository (a bare git
mirror; its kernel sources are exported to a temporary directory, never into this repository) the
tool parses every arch35 file that holds a unit against ascasm's header stubs (plus the file's
own directory and the repository's shared kernel include directory) and prints how many units
there are, how many parse, parse CPU time, and the most frequent error messages.  Then each unit
that parses (no error inside it, no header missing) is translated and run with placeholder
arguments (8 KiB of zeros per pointer, 1 per scalar); it counts as running when it halts without a
fault within a step budget.  The translator itself refuses a unit when clang reports an error in
the function around it or in a helper it inlines.

Template arguments (`template_attempts`): a unit is tried with several argument sets in a fixed
order and translates if one does.  First the instantiations the kernel's own sources write, in its
file and its operator's op_kernel directory (whose entry files instantiate the kernels): the
build's DTYPE_<NAME> macros set from each data type combination of the operator's definition, and
an argument that is a parameter of the template around the use (`Body<U>` inside
`template <typename U> struct Dag`) set from that template's own instantiations.  Then, for the
type parameters no instantiation gives, the types the unit's own tests compare them with
(`is_same_v<T, half>`), then float, half, bfloat16_t and the integer types; integers are guessed 1,
bools false, enums their first member.

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

`--grep REGEX` surveys only the files whose text matches REGEX, to re-measure one cause quickly;
`--only-failed LOG` only the units a previous run's `--log` lists as not translating.

    python tools/survey_kernels.py /work/.mirror/hicann+ops-nn/repo /work/.mirror/hicann+ops-math/repo \
        /work/.mirror/mirror-cann+asc-devkit/repo:examples \
        --headers /work/.mirror/hicann+opbase/repo:include/op_common,pkg_inc/op_common

(`--headers` names a repository the kernels include shared headers from, and its include dirs.)

This is a measuring tool, not a test: it needs the mirrors and libclang.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import clang.cindex as ci
import shutil

sys.path.append(str(Path(__file__).resolve().parent.parent))     # the source tree, if ascasm is not installed
from ascasm.cpp import clang as cpp_clang, translate as translator  # noqa: E402
from ascasm.cpp.harness import build  # noqa: E402
from ascasm.cpp.stubs import clang_args  # noqa: E402
from ascasm.cpp.cpptypes import SCALAR_NAMES, split_template_args  # noqa: E402
from ascasm.cpp.translate import CppError, translate  # noqa: E402
from ascasm.isa import dtypes  # noqa: E402
from ascasm.vm import Machine, auto_engine  # noqa: E402

PRELUDE = ["-include", "kernel_operator.h"]
prelude = list(PRELUDE)          # the file being surveyed's: PRELUDE and its includer's earlier headers
STEP_BUDGET = 2_000_000
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
# name (an enum member, a namespace's type); anything else (a build macro the operator's definition
# does not set, a named constant, an expression) is no argument the survey can use.
_CONCRETE = re.compile(r"-?\d+[uUlL]*|true|false|[A-Za-z_]\w*(\s*::\s*[A-Za-z_]\w*)+")
_TEMPLATE_KINDS = (ci.CursorKind.FUNCTION_TEMPLATE, ci.CursorKind.CLASS_TEMPLATE)
_PARAMETER_KINDS = (ci.CursorKind.TEMPLATE_TYPE_PARAMETER, ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER,
                    ci.CursorKind.TEMPLATE_TEMPLATE_PARAMETER)
# The stubs' other names of scalar types, spelled as the translator's template arguments are.
TYPE_ALIASES = {"float32_t": "float", "float16_t": "half"}
MAX_CHOICES = 4                 # instantiations of a unit's templates tried at most
MAX_ATTEMPTS = 12               # template argument sets tried per unit at most (instantiations, then guesses)
SAME_ERROR_STOPS = 3            # argument sets in a row failing with one error end a unit's tries
MAX_OUTER = 2                   # templates around an instantiation followed outwards for its parameters
# The scalar types guessed, in order, for a type parameter no instantiation gives.
GUESS_TYPES = ("float", "half", "bfloat16_t", "int32_t", "uint32_t", "int16_t", "uint16_t", "int8_t", "uint8_t",
               "int64_t", "uint64_t")


# The ge::DataType names of an operator's definition and the kernel's C types.
GE_TYPES = {"DT_FLOAT": "float", "DT_FLOAT16": "half", "DT_BF16": "bfloat16_t", "DT_INT8": "int8_t",
            "DT_UINT8": "uint8_t", "DT_INT16": "int16_t", "DT_UINT16": "uint16_t", "DT_INT32": "int32_t",
            "DT_UINT32": "uint32_t", "DT_INT64": "int64_t", "DT_UINT64": "uint64_t", "DT_BOOL": "bool",
            "DT_FLOAT8_E4M3FN": "fp8_e4m3fn_t", "DT_FLOAT8_E5M2": "fp8_e5m2_t", "DT_FLOAT8_E8M0": "fp8_e8m0_t",
            "DT_HIFLOAT8": "hifloat8_t", "DT_FLOAT4_E2M1": "fp4x2_e2m1_t", "DT_FLOAT4_E1M2": "fp4x2_e1m2_t"}
_DEF_IO = re.compile(r"\b(?:Input|Output)\(\s*\"(\w+)\"\s*\)((?:(?!\b(?:Input|Output)\().)*?)"
                     r"\.DataType\(\s*\{([^}]*)\}", re.S)


def dtype_macro_sets(op_dir):
    """The DTYPE_<NAME> macros of the inputs and outputs as the vendor build defines them: one set per
    data type combination of the operator's definition (op_host/*_def.cpp beside op_kernel; the k-th
    combination takes the k-th type of every input and output), in the definition's order, no repeats."""
    columns = []
    for path in sorted((op_dir / "op_host").glob("*_def.cpp")) if op_dir is not None else ():
        for name, _, types in _DEF_IO.findall(path.read_text(errors="replace")):
            for k, spelled in enumerate(types.split(",")):
                c_type = GE_TYPES.get(spelled.strip().split("::")[-1])
                if c_type is not None:
                    columns += [{} for _ in range(k + 1 - len(columns))]
                    columns[k].setdefault(f"DTYPE_{name.upper()}", c_type)
    sets = []
    for column in columns:
        if column not in sets:
            sets.append(column)
    return sets or [{}]


def _concrete(arg):
    return arg in SCALAR_NAMES or _CONCRETE.fullmatch(arg) is not None


def _angle_bracketed(text, start, limit=400):
    """(the text from `start`, just after a `<`, to its matching `>`, or None; the index after it)."""
    depth, end = 1, start
    while end < len(text) and depth and end - start < limit:
        depth += {"<": 1, ">": -1}.get(text[end], 0)
        end += 1
    return (text[start:end - 1] if depth == 0 else None), end


def header_parameters(header):
    """[(name, default or None)] of a template header's parameters: `typename T, int N = 4`."""
    params = []
    for part in split_template_args(header):
        declaration, _, default = part.partition("=")
        names = re.findall(r"[A-Za-z_]\w*", declaration)
        params.append((names[-1] if names else None, default.strip() or None))
    return params


_TEMPLATE_HEADER = re.compile(r"\btemplate\s*<")
_CLASS_HEAD = re.compile(r"\s*(?:struct|class)\s+([A-Za-z_]\w*)")
_MEMBER_HEAD = re.compile(r"[^;{}]*?([A-Za-z_]\w*)\s*<[^;{}<>]*(?:<[^;{}<>]*>[^;{}<>]*)*>\s*::\s*~?[A-Za-z_]\w*\s*\(")
_NOT_A_NAME = {"__attribute__", "decltype", "alignas", "operator", "sizeof"}


def templated_name(text, end):
    """The name of what the template header ending at `end` declares: a class, a function, or (for a
    member defined outside its class) the class."""
    for pattern in (_CLASS_HEAD, _MEMBER_HEAD):
        m = pattern.match(text, end)
        if m:
            return m.group(1)
    head = re.match(r"[^;{]*", text[end:end + 400]).group()
    return next((m.group(1) for m in re.finditer(r"([A-Za-z_]\w*)\s*\(", head) if m.group(1) not in _NOT_A_NAME),
                None)


def enclosing_templates(text, pos):
    """(name, parameters) of the templates whose bodies enclose `pos` in `text`, innermost first (the
    body: the braces after the header, counted without regard to comments and strings)."""
    found = []
    for m in reversed(list(_TEMPLATE_HEADER.finditer(text, 0, pos))):
        header, end = _angle_bracketed(text, m.end())
        if header and _body_reaches(text, end, pos):
            name = templated_name(text, end)
            if name is not None:
                found.append((name, header_parameters(header)))
    return found


def _body_reaches(text, start, pos):
    """Whether the braces of the declaration at `start` are still open at `pos` (none: a declaration)."""
    opening = text.find("{", start, pos)
    if opening < 0 or ";" in text[start:opening]:
        return False
    depth = 0
    for ch in text[opening:pos]:
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return False
    return True


def instantiations(name, texts, macro_sets=({},), outer=MAX_OUTER):
    """The argument lists `name<...>` is written with in `texts`, in order of appearance, with the
    build's DTYPE_ macros set from each of `macro_sets` and a parameter of the template around the
    use (up to `outer` templates out) set from that template's own instantiations. Complete lists
    first; then lists with some arguments still unknown (None), for those with a concrete one."""
    found = []
    for text in texts:
        for m in re.finditer(rf"\b{re.escape(name)}\s*<", text):
            inside, _ = _angle_bracketed(text, m.end())
            if inside:
                for args in _resolved(split_template_args(inside), text, m.start(), texts, macro_sets, outer):
                    if args not in found:
                        found.append(args)
    complete = [args for args in found if None not in args]
    return complete + [args for args in found if None in args and any(a is not None for a in args)]


def _resolved(args, text, pos, texts, macro_sets, outer):
    """`args`, written at `pos` of `text`, with concrete arguments in place of the build's macros and
    of the enclosing template's parameters: one list per combination found, None where unknown."""
    results = []
    for macros in macro_sets:
        written = [TYPE_ALIASES.get(a, a) for a in (macros.get(a, a) for a in args)]
        unknown = {a for a in written if not _concrete(a)}
        bindings = [{}]
        for template, params in enclosing_templates(text, pos) if unknown and outer else ():
            if unknown & {p for p, _ in params}:
                bindings = [_binding(params, used) for used in
                            instantiations(template, texts, (macros,), outer - 1)[:MAX_CHOICES]] or [{}]
                break
        results += [[a if _concrete(a) else binding.get(a) for a in written] for binding in bindings]
    return results


def _binding(params, args):
    """{parameter: concrete argument} of a template's parameters given `args` (defaults after them)."""
    binding = {}
    for k, (param, default) in enumerate(params):
        value = args[k] if k < len(args) else default and TYPE_ALIASES.get(default, default)
        if param is not None and value is not None and _concrete(value):
            binding[param] = value
    return binding


_SAME_TYPE_TEST = re.compile(r"\b(?:is_same(?:_v)?|IsSameType|IsSame)\s*<\s*([\w:]+)\s*,\s*([\w:]+)\s*>")


def tested_types(text, names):
    """{type parameter: [scalar types]}: the types the tests of `text` compare each parameter of
    `names` with (`std::is_same_v<T, half>`, `IsSameType<float, T>::value`), in order of appearance."""
    tested = {name: [] for name in names}
    for a, b in _SAME_TYPE_TEST.findall(text):
        for param, other in ((a, b), (b, a)):
            other = TYPE_ALIASES.get(other, other)
            if param in tested and other in SCALAR_NAMES and other not in tested[param]:
                tested[param].append(other)
    return tested


def _guess(param):
    """A guessed argument for a template parameter none of the kernel's instantiations gives (a type:
    the first of GUESS_TYPES), or None for a kind the survey cannot guess."""
    if param.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER:
        return GUESS_TYPES[0]
    if param.kind != ci.CursorKind.TEMPLATE_NON_TYPE_PARAMETER:
        return None
    spelling = param.type.spelling
    if spelling in ("bool", "const bool"):
        return "false"
    if re.fullmatch(r"(const )?(u?int(8|16|32|64)_t|int|unsigned( int)?|size_t|long)", spelling):
        return "1"
    canonical = param.type.get_canonical()
    if canonical.kind == ci.TypeKind.ENUM:
        first = next(canonical.get_declaration().get_children(), None)
        return f"{canonical.spelling}::{first.spelling}" if first is not None else None
    return None


def template_attempts(cursor, texts=(), macro_sets=({},), test_text=""):
    """The template argument sets ({parameter: argument text}) to translate a unit with, in order, for
    the templates around its function `cursor`; and whether the kernel's own instantiations gave any.
    First the instantiations the kernel's sources write (`instantiations`; MAX_CHOICES at most, the
    k-th of each template together); then, for the type parameters none of them gives, the types the
    unit's own tests (in `test_text`) compare them with, then GUESS_TYPES: all such parameters alike,
    then each alone. MAX_ATTEMPTS sets at most; none when a parameter is of a kind no guess covers."""
    levels = []                 # (parameters, instantiations) of each template, from the function out
    while cursor is not None and cursor.kind != ci.CursorKind.TRANSLATION_UNIT:
        params = [p for p in cursor.get_children() if p.kind in _PARAMETER_KINDS]
        if params:
            used = instantiations(cursor.spelling, texts, macro_sets) if cursor.kind in _TEMPLATE_KINDS else []
            levels.append((params, used))
        cursor = cursor.semantic_parent
    instantiated = any(used for _, used in levels)
    attempts, first_given = [], None
    for choice in range(min(max([len(used) for _, used in levels] + [1]), MAX_CHOICES)):
        given = {}
        for params, used in levels:
            for param, arg in zip(params, used[choice % len(used)] if used else ()):
                if arg is not None:
                    given.setdefault(param.spelling, arg)
        first_given = given if first_given is None else first_given
        attempt = _completed(levels, given)
        if attempt is not None and attempt not in attempts:
            attempts.append(attempt)
    if not attempts:
        return [], instantiated
    first = attempts[0]
    guessed = [p.spelling for params, _ in levels for p in params
               if p.kind == ci.CursorKind.TEMPLATE_TYPE_PARAMETER and p.spelling not in first_given]
    tested = tested_types(test_text, guessed)
    named = list(dict.fromkeys(t for name in guessed for t in tested[name]))
    several = len(guessed) > 1
    variants = [dict.fromkeys(guessed, t) for t in named]
    variants += [{name: t} for name in guessed if several for t in tested[name]]
    variants += [dict.fromkeys(guessed, t) for t in GUESS_TYPES]
    variants += [{name: t} for name in guessed if several for t in GUESS_TYPES]
    for variant in variants if guessed else ():
        attempt = {**first, **variant}
        if attempt not in attempts:
            attempts.append(attempt)
    return attempts[:MAX_ATTEMPTS], instantiated


def _completed(levels, given):
    """`given` with a guess for every other parameter of `levels`, or None if one has no guess."""
    attempt = dict(given)
    for params, _ in levels:
        for param in params:
            if param.spelling not in attempt:
                guess = _guess(param)
                if guess is None:
                    return None
                attempt[param.spelling] = guess
    return attempt


def kernel_texts(path, cache):
    """The texts a unit's instantiations are looked for in (its file first, then the other sources
    of its operator: the op_kernel directory around it, whose entry files instantiate the kernels),
    and the operator's DTYPE_ macro sets."""
    top = next((d for d in path.parents if d.name == "op_kernel"), None)
    if top not in cache:
        files = sorted(p for suffix in SOURCE_SUFFIXES for p in top.rglob(suffix)) if top is not None else []
        cache[top] = ({p: p.read_text(errors="replace") for p in files}, dtype_macro_sets(top and top.parent))
    sources, macro_sets = cache[top]
    own = sources.get(path) or path.read_text(errors="replace")
    return [own, *(text for p, text in sources.items() if p != path)], macro_sets


_CLASS_KINDS = (ci.CursorKind.CLASS_TEMPLATE, ci.CursorKind.CLASS_DECL, ci.CursorKind.STRUCT_DECL)


def unit_text(function):
    """The source text of a unit's function and, when it is a member, of its class (where the tests
    on the class's parameters are)."""
    parts = []
    parent = function.semantic_parent if function is not None else None
    for cursor in (function, parent if parent is not None and parent.kind in _CLASS_KINDS else None):
        extent = cursor.extent if cursor is not None else None
        if extent is not None and extent.start.file is not None:
            lines = Path(extent.start.file.name).read_text(errors="replace").splitlines()
            parts.append("\n".join(lines[extent.start.line - 1:extent.end.line]))
    return "\n".join(parts)


def placeholder(param):
    if param.kind == "pointer":
        return f"{param.etype}[{POINTER_BYTES // dtypes.BY_SPELLING[param.etype].width}]"
    return 1


def log_failure(tally, line):
    """Note a unit that does not translate, and write it to the log at once (a run cut short keeps
    what it measured)."""
    print(line, file=tally["log"], flush=True)


def translate_and_run(path, line, attempts, include_dirs, tally):
    """Translate the unit at `line` with the first of the template argument sets `attempts` that
    translates, and run it; returns the stage it failed at (None: it ran)."""
    first, last_error, repeats, translation = None, None, 0, None
    unit = f"{_in_tree(path)}:{line}"
    try:
        for number, guesses in enumerate(attempts):
            try:
                translation = translate(path, f"@{line}", template_args=guesses, include_dirs=include_dirs)
                break
            except CppError as error:
                first = first or error
                # the same error from set after set (its message and place): the arguments do not matter
                this_error = (error.message, error.file, error.line)
                repeats = repeats + 1 if this_error == last_error else 0
                last_error = this_error
                if repeats + 1 == SAME_ERROR_STOPS:
                    break
        if translation is None:
            raise first             # the first argument set's error is the one counted
    except CppError as error:
        message = error.message.splitlines()[0]
        tally["translate_reasons"][reason(error.message)] += 1
        log_failure(tally, f"{unit}: {_in_tree(error.file or path)}:{error.line}: {message}")
        tally["translations"][unit] = {"file": unit, "error": _in_tree(f"{error.file}:{error.line}: {error.message}")}
        return "translate"
    except Exception as error:  # a translator bug: report it as such, keep surveying
        crash = f"translator crash: {error.__class__.__name__}: {error}"
        tally["translate_reasons"][crash[:120]] += 1
        log_failure(tally, f"{unit}: {crash.splitlines()[0]}")
        tally["translations"][unit] = {"file": unit, "crash": f"{error.__class__.__name__}: {error}"}
        return "translate"
    tally["translated"] += 1
    tally["later_attempt"] += number > 0
    tally["translations"][unit] = {"file": unit, "text": translation.text(), "template_args": guesses,
                                   "attempt": number + 1, "params": [repr(p) for p in translation.params]}
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


LOG_HEADER = "# units that do not translate: the unit (its file and last line), then its first error"


class FailedUnits:
    """The units a previous run's --log names, to survey only them. Its lines name a unit (the file,
    in the survey's build layout, and the unit's last line) and then its error; a log of the older
    format, without LOG_HEADER, names only the error's place: every unit of those files is taken."""

    def __init__(self, text):
        named = [m.groups() for m in map(re.compile(r"(\S+?):(\d+):").match, text.splitlines()) if m]
        self.by_unit = LOG_HEADER in text
        self.units = {f"{file}:{line}" for file, line in named}
        self.files = {file for file, _ in named}

    def wants_file(self, file):
        return file in self.files

    def wants(self, unit):
        return unit in self.units if self.by_unit else self.wants_file(unit.rsplit(":", 1)[0])


def survey_repo(repo, under, index, tally, header_dirs, limit=None, matching=None, selection=None):
    files = unit_files(repo, under, matching)[:limit]
    with tempfile.TemporaryDirectory(prefix="ascasm-survey-") as tmp:
        root = Path(tmp)
        export_sources(repo, root)
        copies = build_layout(root)
        shared = [str(root / d) for d in SHARED_INCLUDE_DIRS if (root / d).is_dir()] + header_dirs
        sources = {}
        for rel in files:
            path, op_dir = layout_path(root / rel, copies)
            if selection is not None and not selection.wants_file(_in_tree(path)):
                continue
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
                unit = f"{_in_tree(path)}:{last}"
                if selection is not None and not selection.wants(unit):
                    continue
                tally["clean_units"] += 1
                texts, macro_sets = kernel_texts(root / rel, sources)
                attempts, instantiated = template_attempts(function, texts, macro_sets, unit_text(function))
                tally["instantiated"] += instantiated
                if not attempts:
                    message = "template parameter of a kind the survey cannot guess"
                    tally["translate_reasons"][message] += 1
                    log_failure(tally, f"{unit}: {message}")
                    continue
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
          f"(template arguments from the kernel's own instantiations for {tally['instantiated']}; "
          f"translated with a later argument set than the first: {tally['later_attempt']})")
    print("why the rest do not translate (units):")
    for message, count in tally["translate_reasons"].most_common(15):
        print(f"  {count:4d}  {message}")
    print("why translated units do not run (units):")
    for message, count in tally["run_reasons"].most_common(10):
        print(f"  {count:4d}  {message}")


def parse_kept(parse):
    """The translator's parse, keeping the file parsed last: the argument sets a unit is tried with
    (and the units of one file) differ only in what the translator reads from the same parse."""
    kept = {}

    def parse_once(path, defines=(), include_dirs=()):
        key = (path, tuple(defines), tuple(include_dirs), tuple(prelude))
        if key not in kept:
            kept.clear()
            kept[key] = parse(path, defines, include_dirs)
        return kept[key]
    return parse_once


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", nargs="+", metavar="MIRROR[:DIR,...]",
                        help="bare git mirrors of kernel repositories (with DIRs: the files under them)")
    parser.add_argument("--headers", action="append", default=[], metavar="MIRROR:DIR[,DIR]",
                        help="a mirror of shared headers the kernels include, and its include dirs")
    parser.add_argument("--log", help="append each unit that does not translate, with its first error, to this "
                                      "file (`UNIT_FILE:LAST_LINE: ERROR_FILE:LINE: message`)")
    parser.add_argument("--only-failed", metavar="LOG", help="survey only the units a previous run's --log names: "
                                                             "re-measure what did not translate, in minutes")
    parser.add_argument("--limit", type=int, help="survey only the first N files of each repository")
    parser.add_argument("--grep", metavar="REGEX", help="survey only the files whose text matches REGEX "
                                                        "(git grep -E): re-measure one cause quickly")
    parser.add_argument("--translations", help="write each unit's translation or error to this JSON file "
                                               "(tools/compare_translations.py diff compares two)")
    args = parser.parse_args(argv)
    selection = FailedUnits(Path(args.only_failed).read_text(errors="replace")) if args.only_failed else None
    index = ci.Index.create()
    # The translator parses as the survey does: a header after kernel_operator.h.
    stub_args = cpp_clang.clang_args
    cpp_clang.clang_args = lambda *a, **k: [*stub_args(*a, **k), *prelude]
    translator.parse = parse_kept(translator.parse)
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
                         run_reasons=collections.Counter(), translations={})
            commit = git(mirror, "rev-parse", "HEAD").decode().strip()
            with open(args.log or os.devnull, "a", encoding="utf-8") as log:
                log.write(f"{LOG_HEADER}; {mirror} at {commit}\n")
                tally["log"] = log
                survey_repo(Path(mirror), [d for d in dirs.split(",") if d], index, tally, header_dirs, args.limit,
                            args.grep, selection)
            print(f"== {mirror} at {commit}{' under ' + dirs if dirs else ''}")
            translations.update({f"{Path(mirror).parent.name} {unit}": result
                                 for unit, result in tally["translations"].items()})
            report(tally)
    if args.translations:
        Path(args.translations).write_text(json.dumps(translations, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
