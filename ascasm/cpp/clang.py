"""libclang, loaded on demand: parsing a kernel file against our header stubs, turning clang's
diagnostics and our own complaints into located CppErrors, and the small cursor helpers the
translator needs (operator tokens, qualified names, source positions)."""
from __future__ import annotations

import re
from pathlib import Path

from ..asm.files import InputFileError, read_regular_file
from .. import limits
from ..limits import MAX_SOURCE_BYTES
from ..source import SourceLoc, format_diagnostic
from .stubs import INCLUDE_DIR, clang_args

MAX_SOURCES = 256               # files of one kernel checked (and hashed by the translation cache)
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include(?:_next)?[ \t]*([<"])([^>"\n]+)[>"]', re.MULTILINE)

INSTALL_HINT = 'the C++ front end needs libclang: pip install "ascasm[cpp]"'


class CppError(Exception):
    """A located error in a C++ source: str() is `file:line:col: error: message`, the line, a caret."""

    def __init__(self, message: str, file: str | None = None, line: int = 0, col: int = 0, notes=(),
                 end_col: int | None = None):
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col
        self.notes = tuple(notes)
        self.end_col = end_col if end_col is not None else col + 1
        self.from_clang = False     # one of clang's own errors (diagnostics_error)

    def __str__(self) -> str:
        if not self.file:
            return "\n".join([f"error: {self.message}"] + [f"note: {n}" for n in self.notes])
        loc = SourceLoc(self.file, self.line, max(self.col, 1), max(self.end_col, self.col + 1),
                        source_line(self.file, self.line))
        return format_diagnostic("error", loc, self.message, self.notes)


class LibclangMissing(CppError, ImportError):
    """libclang is not installed: the message says how to install it."""


def source_line(path: str, line: int) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for number, text in enumerate(f, start=1):
                if number == line:
                    return text.rstrip("\n")
    except OSError:
        pass
    return ""


def cindex():
    """The clang.cindex module, or LibclangMissing."""
    try:
        import clang.cindex as ci
        ci.Index.create()            # loads libclang.so: fails here when the library is absent
    except Exception as exc:        # ImportError, or clang's LibclangError on a missing library
        raise LibclangMissing(f"{INSTALL_HINT} ({exc.__class__.__name__}: {exc})") from None
    return ci


def sources(path, include_dirs=()) -> dict:
    """{file: its bytes} of the kernel file and of the headers its `#include "NAME"` and `<NAME>` lines
    name, transitively, found as clang finds them (beside the including file for "NAME", then the
    kernel's directory, `include_dirs`, our stubs; the stubs themselves are not read). Each is read
    as the assembler reads its source: a regular file of at most MAX_SOURCE_BYTES, else a CppError
    at the #include (a FIFO, /dev/zero or /dev/stdin would block libclang or fill its memory). A
    name a macro computes is not seen here: the limits of the front end's process bound it."""
    path = Path(path)
    dirs = [path.resolve().parent, *(Path(d) for d in include_dirs), INCLUDE_DIR]
    found: dict = {}
    queue = [(path, None)]
    while queue and len(found) < MAX_SOURCES:
        file, where = queue.pop()
        if file.resolve() in found:
            continue
        try:
            data = read_regular_file(file, MAX_SOURCE_BYTES)
        except InputFileError as exc:
            raise CppError(str(exc), *where) if where else CppError(str(exc)) from None
        found[file.resolve()] = data
        for m in _INCLUDE.finditer(data):
            name = m.group(2).decode("utf-8", "replace")
            header = next((d / name for d in ([file.parent] if m.group(1) == b'"' else []) + dirs
                           if _exists(d / name)), None)
            if header is not None and INCLUDE_DIR.resolve() not in header.resolve().parents:
                line = data.count(b"\n", 0, m.start()) + 1
                queue.append((header, (str(file), line, m.start(2) - data.rfind(b"\n", 0, m.start()) - 1)))
    return found


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):        # a name too long, or with a NUL
        return False


HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx", ".inl")


def parse(path: str, defines=(), include_dirs=()):
    """Parse `path` as C++17 against our stubs, the kernel's own directory and `include_dirs`:
    (translation unit, clang's errors).  A fatal error (a header not found) is raised at once as a
    CppError, since clang checks nothing after it; the other errors are returned, for the translator
    to raise those that lie in the code it translates (`errors_inside`)."""
    sources(path, include_dirs)
    ci = cindex()
    # no error limit: past it clang stops with a fatal error, and errors elsewhere need not stop us
    args = ["-fsyntax-only", "-Wno-everything", "-ferror-limit=0"] + clang_args([Path(path).resolve().parent, *include_dirs], defines)
    if Path(path).suffix.lower() in HEADER_SUFFIXES:
        # a kernel header relies on its op's .cpp to include kernel_operator.h first (the stub is guarded)
        args += ["-include", "kernel_operator.h"]
    options = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    try:
        tu = ci.Index.create().parse(path, args=args, options=options)
    except ci.TranslationUnitLoadError as exc:
        raise CppError(f"libclang could not parse {path}: {exc} (as when it reaches the C++ front end's memory "
                       f"limit of {limits.CPP_MEMORY_BYTES >> 20:,} MiB)") from None
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if any(d.severity == ci.Diagnostic.Fatal for d in errors):
        raise diagnostics_error(errors, path)
    return tu, errors


def diagnostics_error(errors, path: str) -> CppError:
    """clang's errors as one CppError: the first, with (up to five of) the others as notes."""
    first = errors[0]
    loc = first.location
    notes = [f"{d.location.file}:{d.location.line}:{d.location.column}: {d.spelling}" for d in errors[1:6]]
    if len(errors) > 6:
        notes.append(f"and {len(errors) - 6} more errors")
    error = CppError(first.spelling, str(loc.file) if loc.file else path, loc.line, loc.column, notes)
    error.from_clang = True
    return error


def errors_inside(errors, cursor) -> list:
    """The errors among clang's `errors` that lie within `cursor`'s source range."""
    start, end = cursor.extent.start, cursor.extent.end
    if start.file is None:
        return []
    return [d for d in errors if d.location.file is not None and d.location.file.name == start.file.name
            and start.offset <= d.location.offset <= end.offset]


_DECL_KINDS_WITH_VALUES = ("VAR_DECL", "FIELD_DECL", "TYPEDEF_DECL", "TYPE_ALIAS_DECL", "ENUM_CONSTANT_DECL")


def is_invalid(cursor) -> bool:
    """clang marked the declaration invalid (an unknown type in it): its uses are dropped or
    recovered from without an error of their own."""
    import ctypes
    import clang.cindex as ci     # loaded: the cursor comes from it
    check = ci.conf.lib.clang_isInvalidDeclaration      # not in the Python bindings of libclang 18
    if check.argtypes is None:
        check.argtypes, check.restype = [ci.Cursor], ctypes.c_uint
    return bool(check(cursor))


def evaluated_number(cursor):
    """A literal's value as clang evaluates it, or None: a literal a macro expands to has no tokens of
    its own (libclang's Python bindings do not wrap clang_Cursor_Evaluate)."""
    import ctypes
    import clang.cindex as ci
    lib = ci.conf.lib
    if lib.clang_Cursor_Evaluate.argtypes is None:
        lib.clang_Cursor_Evaluate.argtypes, lib.clang_Cursor_Evaluate.restype = [ci.Cursor], ctypes.c_void_p
        for name, restype in (("clang_EvalResult_getKind", ctypes.c_int), ("clang_EvalResult_isUnsignedInt", ctypes.c_uint),
                              ("clang_EvalResult_getAsUnsigned", ctypes.c_ulonglong),
                              ("clang_EvalResult_getAsLongLong", ctypes.c_longlong),
                              ("clang_EvalResult_getAsDouble", ctypes.c_double), ("clang_EvalResult_dispose", None)):
            getattr(lib, name).argtypes, getattr(lib, name).restype = [ctypes.c_void_p], restype
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        kind = lib.clang_EvalResult_getKind(result)          # CXEval_Int 1, CXEval_Float 2
        if kind == 1:
            return (lib.clang_EvalResult_getAsUnsigned(result) if lib.clang_EvalResult_isUnsignedInt(result)
                    else lib.clang_EvalResult_getAsLongLong(result))
        return lib.clang_EvalResult_getAsDouble(result) if kind == 2 else None
    finally:
        lib.clang_EvalResult_dispose(result)


def check_recovered(function, errors, skipped) -> None:
    """What clang recovered from without an error inside `function`, raised as a located CppError:
    a use of a declaration that clang found broken (invalid, or with an error in it), and a statement
    clang dropped from the AST (a call of an invalid function, a member of a type it could not
    resolve), found as source text that no statement covers. `skipped`: the preprocessor's skipped
    ranges and macro uses, (file, start offset, end offset), whose text is no statement."""
    if not errors:
        return              # clang recovers silently only from what it reported elsewhere
    start, end = function.extent.start.offset, function.extent.end.offset
    for c in function.walk_preorder():
        if c.kind.name == "COMPOUND_STMT":
            _check_dropped(c, errors, skipped)
            continue
        decl = c.referenced
        if decl is None or decl.location.file is None or (
                _same_name(decl.location.file, function.extent.start.file) and start <= decl.extent.start.offset < end):
            continue        # the function's own locals: their errors lie inside it (check_clang_errors)
        broken = _errors_in_declaration(errors, decl) if decl.kind.name in _DECL_KINDS_WITH_VALUES else []
        if broken or (decl.kind.name.endswith("_DECL") and is_invalid(decl)):
            why = (broken or _errors_in_declaration(errors, decl) or [None])[0]
            error = error_at(c, f"clang could not resolve the declaration of '{decl.spelling}' this uses"
                                + (f": {why.spelling}" if why else ""), [_where(why)] if why else ())
            error.from_clang = True         # it names clang's error
            raise error


def skipped_text(tu) -> list:
    """(file, start offset, end offset) of the text no statement covers by design: macro uses (an
    empty macro) and the lines the preprocessor skipped (`#if 0`)."""
    import ctypes
    import clang.cindex as ci
    out = [(str(c.extent.start.file), c.extent.start.offset, c.extent.end.offset)
           for c in tu.cursor.get_children() if c.kind.name == "MACRO_INSTANTIATION" and c.extent.start.file]

    class RangeList(ctypes.Structure):
        _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]
    lib = ci.conf.lib
    lib.clang_getAllSkippedRanges.argtypes = [ci.TranslationUnit]
    lib.clang_getAllSkippedRanges.restype = ctypes.POINTER(RangeList)
    lib.clang_disposeSourceRangeList.argtypes = [ctypes.POINTER(RangeList)]
    ranges = lib.clang_getAllSkippedRanges(tu)
    try:
        for i in range(ranges.contents.count):
            r = ranges.contents.ranges[i]
            if r.start.file:
                out.append((str(r.start.file), r.start.offset, r.end.offset))
    finally:
        lib.clang_disposeSourceRangeList(ranges)
    return out


def _errors_in_declaration(errors, decl) -> list:
    """clang's errors inside `decl`, or after it on its last line: an initialiser clang could not
    resolve is cut from the declaration's extent."""
    end = decl.extent.end
    return errors_inside(errors, decl) or [
        d for d in errors if d.location.file is not None and end.file is not None
        and d.location.file.name == end.file.name and d.location.line == end.line and d.location.column >= end.column]


def _same_name(a, b) -> bool:
    return a is not None and b is not None and a.name == b.name


def _where(diagnostic) -> str:
    loc = diagnostic.location
    return f"{loc.file}:{loc.line}:{loc.column}: {diagnostic.spelling}"


def _check_dropped(block, errors, skipped):
    """The first run of tokens inside `block` that none of its statements covers, raised."""
    children = [(ch.extent.start.offset, ch.extent.end.offset) for ch in block.get_children()]
    file = block.extent.start.file
    ignored = [(s, e) for f, s, e in skipped if file is not None and f == file.name]
    run, directive = [], None
    for tok in list(block.get_tokens())[1:-1]:          # inside the braces
        at = tok.extent.start.offset
        if tok.kind.name == "COMMENT":
            continue
        if tok.spelling == "#" and not run:
            directive = tok.extent.start.line           # a `#pragma` line
        if tok.extent.start.line == directive or any(s <= at < e for s, e in children) or \
                any(s <= at < e for s, e in ignored):
            if run:
                break
            continue
        if tok.spelling == ";" and not run:
            continue
        run.append(tok)
        if tok.spelling == ";":
            break
    if not run:
        return
    names = {t.spelling for t in run if t.kind.name == "IDENTIFIER"}
    culprit = _declaration_with_error(block.translation_unit.cursor, errors, names)
    what = f": it could not resolve '{culprit[0].spelling}'" if culprit else ""
    first, last = run[0].extent.start, run[-1].extent.end
    error = CppError(f"clang dropped this statement as invalid{what}; translating around it would give a wrong "
                     "answer", str(first.file), first.line, first.column,
                     [_where(culprit[1]) if culprit else f"the first of clang's errors: {_where(errors[0])}"],
                     last.column if last.line == first.line else None)
    error.from_clang = True
    raise error


def _declaration_with_error(cursor, errors, names):
    """(declaration, its error) of one of `names` that holds one of clang's errors, descending only
    into what holds an error."""
    for c in cursor.get_children():
        inside = errors_inside(errors, c)
        if not inside:
            continue
        if c.spelling in names and c.kind.name.endswith("_DECL"):
            return c, inside[0]
        found = _declaration_with_error(c, errors, names)
        if found:
            return found
    return None


def error_at(cursor, message: str, notes=()) -> CppError:
    """A CppError at a cursor's start, the caret spanning its first line (unlocated without one)."""
    if cursor is None:
        return CppError(message, notes=notes)
    start, end = cursor.extent.start, cursor.extent.end
    end_col = end.column if end.line == start.line else None
    return CppError(message, str(start.file) if start.file else None, start.line, start.column, notes,
                    end_col)


def loc_of(cursor) -> tuple | None:
    start = cursor.extent.start
    return (str(start.file), start.line, start.column) if start.file else None


def tokens(cursor) -> list[str]:
    return [t.spelling for t in cursor.get_tokens()]


_OPERATORS: dict = {}


def operator_of(cursor) -> str:
    """The operator of a binary, compound-assignment or unary operator cursor: clang's kind of it, else
    (an operator on operands a template leaves dependent has none yet) the first token after the left
    operand, or the unary's leading/trailing token. The tokens' answer is remembered per source range:
    the translator asks about the same cursor many times (operators a macro wrote share one range,
    and have a kind)."""
    known = _operator_kind(cursor)
    if known is not None:
        return known
    start, end = cursor.extent.start, cursor.extent.end
    key = (str(start.file), start.offset, end.offset, cursor.kind.name)
    if key not in _OPERATORS:
        if len(_OPERATORS) > 100_000:
            _OPERATORS.clear()
        _OPERATORS[key] = _operator_of(cursor)
    return _OPERATORS[key]


# clang's operator kinds (CXBinaryOperatorKind, CXUnaryOperatorKind): what libclang says of an operator
# a macro wrote, whose tokens it does not give (a condition `#define`d in another header)
_BINARY_KINDS = {3: "*", 4: "/", 5: "%", 6: "+", 7: "-", 8: "<<", 9: ">>", 11: "<", 12: ">", 13: "<=", 14: ">=",
                 15: "==", 16: "!=", 17: "&", 18: "^", 19: "|", 20: "&&", 21: "||", 22: "=", 23: "*=", 24: "/=",
                 25: "%=", 26: "+=", 27: "-=", 28: "<<=", 29: ">>=", 30: "&=", 31: "^=", 32: "|=", 33: ","}
_UNARY_KINDS = {1: "post++", 2: "post--", 3: "++", 4: "--", 5: "&", 6: "*", 7: "+", 8: "-", 9: "~", 10: "!"}


def _operator_kind(cursor) -> str | None:
    """The operator of a binary or unary operator cursor by clang's own kind (None when clang gives
    none: an operator on operands a template leaves dependent may have no kind yet)."""
    import ctypes
    import clang.cindex as ci
    lib = ci.conf.lib
    binary = cursor.kind.name in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR")
    if not binary and cursor.kind.name != "UNARY_OPERATOR":
        return None
    function = lib.clang_getCursorBinaryOperatorKind if binary else lib.clang_getCursorUnaryOperatorKind
    if function.argtypes is None:
        function.argtypes, function.restype = [ci.Cursor], ctypes.c_int
    return (_BINARY_KINDS if binary else _UNARY_KINDS).get(function(cursor))


def _operator_of(cursor) -> str:
    children = list(cursor.get_children())
    if len(children) == 2:
        # the tokens between the operands alone: a chain of N operators would read N^2 tokens
        from clang.cindex import SourceRange
        between = SourceRange.from_locations(children[0].extent.end, children[1].extent.start)
        end = children[0].extent.end.offset
        for t in cursor.translation_unit.get_tokens(extent=between):
            if t.extent.start.offset >= end:
                return t.spelling
        # a right operand a macro wrote starts at a macro location, which makes no range: the
        # operator's own tokens then, the first one after the left operand
        for t in cursor.get_tokens():
            if t.extent.start.offset >= end:
                return t.spelling
        raise error_at(cursor, "cannot find this operator (is it inside a macro?)")
    toks = list(cursor.get_tokens())
    first, last = toks[0].spelling, toks[-1].spelling
    if children and toks[0].extent.start.offset >= children[0].extent.end.offset:
        return first
    if children and toks[0].extent.start.offset < children[0].extent.start.offset:
        return first
    return "post" + last


def qualified_name(decl) -> str:
    parts = []
    c = decl
    while c is not None and c.kind.name not in ("TRANSLATION_UNIT",):
        if c.spelling:
            parts.append(c.spelling)
        c = c.semantic_parent
    return "::".join(reversed(parts))


def strip_parens(c):
    """c without the implicit (unexposed) and parenthesised wrappers of one child around it."""
    while c.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR") and len(list(c.get_children())) == 1:
        c = list(c.get_children())[0]
    return c


def callee_and_args(c):
    """A CALL_EXPR's callee (a name reference; None for a constructor call or conversion) and its arguments."""
    children = list(c.get_children())
    if not children:
        return None, []
    first = children[0]
    if first.kind.name in ("DECL_REF_EXPR", "OVERLOADED_DECL_REF", "MEMBER_REF_EXPR", "UNEXPOSED_EXPR") and \
            (c.referenced is None or c.referenced.kind.name != "CONSTRUCTOR" or first.kind.name != "UNEXPOSED_EXPR"):
        inner = strip_parens(first)
        if inner.kind.name in ("DECL_REF_EXPR", "OVERLOADED_DECL_REF", "MEMBER_REF_EXPR"):
            if c.referenced is not None and c.referenced.kind.name == "CONSTRUCTOR":
                return None, children
            return inner, children[1:]
    return None, children


def has_body(decl) -> bool:
    return body_of(decl) is not None


def body_of(decl):
    """A function's body, from its definition when `decl` is a declaration; None without one."""
    for ch in decl.get_children():
        if ch.kind.name == "COMPOUND_STMT":
            return ch
    definition = decl.get_definition()
    if definition is not None and definition != decl:
        for ch in definition.get_children():
            if ch.kind.name == "COMPOUND_STMT":
                return ch
    return None
