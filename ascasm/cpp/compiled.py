"""Kernels translated once and run many times, and runs checked against an expectation (docs/api.md
"C++ kernels").

    kernel = ascasm.compile_kernel("k.cpp", "ScaleReluVF<float>")     # translates (libclang) once
    for n in (1, 63, 64, 1000):
        kernel.run(dst, src, 0.75, n, expect=lambda dstAddr, srcAddr, scale, count: ...)

`run_kernel(path, entry, ...)` is `compile_kernel(path, entry).run(...)`. Translations are kept in a
bounded in-memory cache keyed by the bytes of the kernel file and of the headers it includes, and
the translation options, so that a sweep of `run_kernel` calls translates once. Nothing is written
to disk.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..api import breakpoint_rows, result_or_fault, run, run_stopping
from ..formatting import cell_text
from ..isa import dtypes
from ..state import MAX_STEPS_DEFAULT, UB_USABLE_DEFAULT
from ..vm import MachineFault
from . import harness
from .clang import CppError, sources

CACHE_SIZE = 32             # translations kept (least recently used first out)
SHOWN_LANES = 8             # differing elements an ExpectationFailed message lists
_cache: OrderedDict = OrderedDict()


class ExpectationFailed(AssertionError):
    """A run whose output differs from its expectation. `comparisons` lists every output's Comparison
    (the failing ones have `.ok` false), `result` is the run's KernelResult; str(): the first
    differing elements of each failing output, with their indices and values."""

    def __init__(self, comparisons: list, result):
        self.comparisons, self.result = comparisons, result
        super().__init__("\n".join(str(c) for c in comparisons if not c.ok))


@dataclass
class Comparison:
    """One output buffer against its expectation: `wrong` holds the indices of the elements that
    differ (beyond the tolerance), `got` and `expected` the whole arrays."""
    name: str
    etype: dtypes.ElemType
    got: np.ndarray
    expected: np.ndarray
    wrong: np.ndarray
    tolerance: str

    @property
    def ok(self) -> bool:
        return self.wrong.size == 0

    def __str__(self) -> str:
        head = (f"{self.name}: {self.wrong.size} of {self.got.size} {self.etype.name} elements differ from the "
                f"expectation ({self.tolerance})")
        if self.ok:
            return f"{self.name}: all {self.got.size} {self.etype.name} elements as expected ({self.tolerance})"
        lines = [head] + [f"  {self.name}[{i}]: got {cell_text(self.got[i], self.etype)}, expected "
                          f"{cell_text(self.expected[i], self.etype)}" for i in self.wrong[:SHOWN_LANES].tolist()]
        if self.wrong.size > SHOWN_LANES:
            lines.append(f"  ... and {self.wrong.size - SHOWN_LANES} more")
        return "\n".join(lines)


class CompiledKernel:
    """A kernel's vector function translated once: `run(*args, **kwargs)` binds one argument set (in
    parameter order, or by name), runs it and returns its KernelResult, as run_kernel does, without
    translating again. `params` names the parameters in order."""

    def __init__(self, translation):
        self.translation = translation
        self.params = [p.name for p in translation.params]

    def __repr__(self) -> str:
        return (f"<ascasm CompiledKernel {self.translation.entry} of {Path(self.translation.path).name}"
                f"({', '.join(self.params)})>")

    def run(self, *args, engine: str | None = None, max_steps: int = MAX_STEPS_DEFAULT,
            ub_usable: int = UB_USABLE_DEFAULT, store_inactive: str = "keep", strict: bool = False,
            expect=None, rtol: float | None = None, ulp: int | None = None, breakpoints=(), **kwargs):
        """Run one argument set (see run_kernel). Positional arguments fill the parameters in order, so
        that a parameter named like an option (`engine`, `expect`, ...) can still be given. `blocks=`
        and `jobs=` are run_kernel's options unless the kernel has a parameter of that name."""
        blocks, jobs = (1 if name in self.params else kwargs.pop(name, 1) for name in ("blocks", "jobs"))
        if len(args) > len(self.params):
            raise harness.KernelArgError(f"{len(args)} arguments for {len(self.params)} parameters "
                                         f"({', '.join(self.params)})")
        given = dict(zip(self.params, args))
        twice = [name for name in kwargs if name in given]
        if twice:
            raise harness.KernelArgError(f"{twice[0]} is given both by position and by name")
        given.update(kwargs)
        kernel = harness.build(self.translation, given, Path("."), ub_usable)
        start = kernel.program.initial_state()
        initial = {name: buf.view(start).copy() for name, buf in kernel.param_buffers.items()}
        rows = breakpoint_rows(kernel.program, (breakpoints,) if isinstance(breakpoints, (int, str)) else breakpoints)
        if blocks != 1 or jobs != 1:
            if rows:
                raise harness.KernelArgError("breakpoints stop one block's run: give them without blocks= "
                                             "(ascasm debug --blocks N steps several)")
            result = _run_blocks(kernel, blocks, jobs, dict(engine=engine, max_steps=max_steps, ub_usable=ub_usable,
                                                            store_inactive=store_inactive, strict=strict))
        else:
            machine = harness.start(kernel, engine, max_steps, ub_usable, store_inactive, strict)
            stops = []
            if rows:
                stops = run_stopping(machine, kernel.program, rows)
            else:
                machine.run()
            result = result_or_fault(machine, harness.KernelResult(kernel, machine.state, stops))
        result.comparisons = []
        if expect is not None:
            outputs = _expected_outputs(expect, kernel, result.state, given, initial)
            result.comparisons = [compare(name, result[name], wanted, kernel.param_buffers[name].etype, rtol, ulp)
                                  for name, wanted in outputs.items()]
            if not all(c.ok for c in result.comparisons):
                raise ExpectationFailed(result.comparisons, result)
        return result


def _run_blocks(kernel, count: int, jobs: int, options: dict):
    """The KernelResult of `count` blocks of the kernel (as `ascasm run --blocks`, through ascasm.run):
    block 0's, with every block's in `blocks`; a fault raises with that result."""
    try:
        plain = run(kernel.program, blocks=count, jobs=jobs, **options)
    except MachineFault as fault:
        fault.result = _kernel_result(kernel, fault.result)
        raise
    return _kernel_result(kernel, plain)


def _kernel_result(kernel, plain):
    results = [harness.KernelResult(kernel, block.state) for block in plain.blocks]
    result = results[0]
    result.blocks, result.steps, result.warnings = results, plain.steps, plain.warnings
    return result


def compile_kernel(path, entry: str | None = None, *, defines=(), include_dirs=(), tiling: dict | None = None,
                   tiling_key: int | None = None) -> CompiledKernel:
    """Translate the vector function `entry` of the C++ file `path` (None: its only one) once, for
    `run` to run on any number of argument sets. Errors as run_kernel's (CppFailed, LibclangMissing).
    A whole kernel (a `__global__` entry) takes its tiling struct's fields as `tiling` {field: value}
    and TILING_KEY_IS's key as `tiling_key` (docs/frontend.md "Whole kernels")."""
    return CompiledKernel(_translation(path, entry, tuple(map(str, _several(defines))),
                                       tuple(map(str, _several(include_dirs))), tiling, tiling_key))


def _several(values) -> tuple:
    """defines= and include_dirs= as a tuple: one string or path is one value, not its characters."""
    return (values,) if isinstance(values, (str, bytes, os.PathLike)) else tuple(values)


def run_kernel(path, entry: str | None = None, *, engine: str | None = None, max_steps: int = MAX_STEPS_DEFAULT,
               ub_usable: int = UB_USABLE_DEFAULT, store_inactive: str = "keep", strict: bool = False,
               defines=(), include_dirs=(), expect=None, rtol: float | None = None, ulp: int | None = None,
               breakpoints=(), tiling: dict | None = None, tiling_key: int | None = None, **args):
    """Translate the vector function `entry` of the C++ file `path` (None: its only one; a translation
    of the same file, headers and options is reused from memory), run it with `args` (one per
    parameter: an array or a spec string for a pointer, a number for a scalar) and return its
    KernelResult. A fault raises MachineFault with the result so far as `.result`; arguments that do
    not fit raise KernelArgError; C++ errors CppFailed (str(): located like the assembler's); without
    libclang, LibclangMissing.

    `expect` checks the run: an array (the expected whole buffer of the output: the one pointer
    parameter's buffer the run wrote), a function called with every parameter by name (a pointer's
    buffer as it was before the run, a scalar as given) that returns that array, or {parameter: array
    or function} for several outputs. Elements must be equal (NaN matches NaN), or within `rtol`
    (|got - expected| <= rtol * |expected|) or `ulp` (units in the last place of the type; for
    integers, units). A difference raises ExpectationFailed (an AssertionError) listing the first
    differing elements; the result's `comparisons` holds each output's Comparison.

    `breakpoints`: C++ lines (42, or "helpers.h:12" for another file's) at whose first instruction
    the run notes the variables each time it gets there: `result.stops` lists them in order, a Stop
    each (`stop.line`, `stop.step`, `stop.var("acc")`); `result.var(NAME)` is the value at the end.

    `blocks=N` runs N blocks (block index 0..N-1, each with its own UB and registers, sharing the GM
    buffers), as `ascasm run --blocks N` does, `jobs=J` in J processes when they never synchronise: the
    result is block 0's (a GM buffer is every block's), `result.blocks` holds each block's. A kernel
    parameter named `blocks` or `jobs` takes the value instead (the kernel's names come first)."""
    kernel = compile_kernel(path, entry, defines=defines, include_dirs=include_dirs, tiling=tiling,
                            tiling_key=tiling_key)
    return kernel.run(engine=engine, max_steps=max_steps, ub_usable=ub_usable, store_inactive=store_inactive,
                      strict=strict, expect=expect, rtol=rtol, ulp=ulp, breakpoints=breakpoints, **args)


def clear_cache():
    _cache.clear()


# ------------------------------------------------------------------ the translation cache

def _translation(path, entry, defines: tuple, include_dirs: tuple, tiling=None, tiling_key=None):
    """The translation of `entry`, from the cache when the kernel's sources and the options are those
    of a kept one (and the translator is the same function: tests replace it)."""
    translate = harness.translate_kernel
    whole = {"tiling": tiling, "tiling_key": tiling_key} if tiling is not None or tiling_key is not None else {}
    try:
        key = (translate, str(Path(path).resolve()), entry, defines, include_dirs, _sources(Path(path), include_dirs),
               json.dumps(tiling, sort_keys=True), tiling_key)
    except CppError:                         # unreadable: the translator says so, located
        return translate(path, entry, defines, include_dirs, **whole)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    translation = translate(path, entry, defines, include_dirs, **whole)
    _cache[key] = translation
    if len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return translation


def _sources(path: Path, include_dirs: tuple) -> tuple:
    """(file, SHA-256 of its bytes) of the kernel file and of the headers it includes (clang.sources:
    the package's own stand-ins for the vendor headers are fixed and not read)."""
    found = sources(path, include_dirs)
    return tuple(sorted((str(f), hashlib.sha256(data).hexdigest()) for f, data in found.items()))


# ------------------------------------------------------------------ expectations

def _expected_outputs(expect, kernel, state, given: dict, initial: dict) -> dict:
    """{pointer parameter: the expected array of its whole buffer} from run_kernel's `expect`."""
    if isinstance(expect, dict):
        unknown = [name for name in expect if name not in kernel.param_buffers]
        if unknown:
            raise harness.KernelArgError(f"expect names {unknown[0]!r}, which is not a pointer parameter "
                                         f"(pointers: {', '.join(kernel.param_buffers)})")
        items = expect.items()
    else:
        items = [(_written_output(kernel, state, initial), expect)]
    arguments = {name: initial.get(name, value) for name, value in given.items()}
    outputs = {}
    for name, wanted in items:
        if callable(wanted):
            wanted = wanted(**{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in arguments.items()})
        outputs[name] = _as_expected(name, wanted, kernel.param_buffers[name])
    return outputs


def _written_output(kernel, state, initial: dict) -> str:
    """The pointer parameter whose buffer the run wrote, when there is exactly one such buffer. A UB
    byte's last writer row is 0 until it is written, and row 0 of a kernel's program is its prologue's
    first `mov`, which writes no memory; a GM buffer counts as written when its contents changed."""
    written = {}
    for name, buf in kernel.param_buffers.items():
        if buf.space == "gm":
            changed = not np.array_equal(buf.view(state).view(np.uint8), initial[name].view(np.uint8))
        else:
            changed = state.ub_write_row[buf.addr:buf.addr + buf.count * buf.etype.width].any()
        if changed:
            written.setdefault((buf.space, buf.addr), name)
    if len(written) != 1:
        what = "none" if not written else "the buffers of " + " and ".join(written.values())
        raise harness.KernelArgError(f"expect= without a parameter name needs the run to write one pointer "
                                     f"parameter's buffer; it wrote {what}: write expect={{NAME: ...}}")
    return next(iter(written.values()))


def _as_expected(name: str, wanted, buf) -> np.ndarray:
    values = np.asarray(wanted).reshape(-1)
    if values.size != buf.count:
        raise harness.KernelArgError(f"expect {name}: {values.size} values for a buffer of {buf.count} "
                                     f"{buf.etype.name} elements (give the whole buffer)")
    if buf.etype.kind == "raw":
        return values.astype(buf.etype.np_dtype) if values.dtype.kind in "iub" else values.view(buf.etype.np_dtype)
    return values.astype(np.float64 if buf.etype.kind == "float" else buf.etype.np_dtype)


def compare(name: str, got: np.ndarray, expected: np.ndarray, etype, rtol=None, ulp=None) -> Comparison:
    """The elements of `got` (of `etype`) that differ from `expected` beyond rtol / ulp (both None:
    exact; NaN matches NaN; raw types compare their bits)."""
    if etype.kind == "raw":
        wrong = got.view(etype.bits) != expected.astype(etype.np_dtype).view(etype.bits)
        tolerance = "bits"
    else:
        g = got.astype(np.float64) if etype.kind == "float" else got.astype(object)
        e = expected.astype(np.float64) if etype.kind == "float" else expected.astype(object)
        same = g == e
        if etype.kind == "float":
            same |= np.isnan(g) & np.isnan(e)
        if rtol is not None:
            with np.errstate(invalid="ignore"):
                same |= np.abs(g - e) <= rtol * np.abs(e)
        if ulp is not None:
            same |= _ulps(got, expected, etype) <= ulp
        wrong = ~same.astype(bool)
        tolerance = ", ".join(f"{k} {v}" for k, v in (("rtol", rtol), ("ulp", ulp)) if v is not None) or "exact"
    shown = expected.astype(etype.np_dtype) if etype.kind != "float" else expected
    return Comparison(name, etype, got, shown, np.flatnonzero(wrong), tolerance)


def _ulps(got: np.ndarray, expected: np.ndarray, etype) -> np.ndarray:
    """|got - expected| in units in the last place of `etype` (expected rounded to it first): the
    distance between their places in the type's ordered values; integers: their difference."""
    if etype.kind != "float":
        return np.abs(got.astype(object) - expected.astype(object)).astype(np.float64)
    rounded = expected.astype(etype.np_dtype)
    a, b = _ordered(got, etype), _ordered(rounded, etype)
    distance = np.abs(a - b).astype(np.float64)
    distance[np.isnan(got.astype(np.float64)) | np.isnan(rounded.astype(np.float64))] = np.inf
    return distance


def _ordered(values: np.ndarray, etype) -> np.ndarray:
    """Each float's rank among its type's values: the magnitude bits, negated under the sign (sign and
    magnitude formats; e8m0 has no sign), so that neighbouring values differ by 1 and -0 == +0."""
    bits = values.view(etype.bits).astype(np.int64)
    if etype.name == "e8m0":
        return bits
    sign = 1 << (8 * etype.width - 1)
    return np.where(bits & sign, -(bits & (sign - 1)), bits)
