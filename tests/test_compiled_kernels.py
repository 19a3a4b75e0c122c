"""Kernels translated once (ascasm.compile_kernel), run_kernel's translation cache, runs checked against
an expectation (`expect=`, `rtol=`, `ulp=`), and `ascasm run`'s success line. The kernel is
tests/cpp_harness/scale_relu.cpp (dst = relu(src * scale) over `count` floats); expected values come
from numpy (an np.float32 product is rounded once, as vmuls rounds it)."""
from __future__ import annotations

import re
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import ascasm  # noqa: E402
from ascasm.cpp import compiled, harness  # noqa: E402
from ascasm.isa import dtypes  # noqa: E402
from conftest import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
KERNEL = Path(__file__).resolve().parent / "cpp_harness" / "scale_relu.cpp"
ENTRY = "ScaleReluVF<float>"


def model(dstAddr, srcAddr, scale, count):
    out = dstAddr.copy()
    product = srcAddr[:count] * np.float32(scale)
    out[:count] = np.where(product > 0, product, np.float32(0))
    return out


@pytest.fixture
def translations(monkeypatch):
    """The real translator, counted; an empty cache first."""
    calls = []
    real = harness.translate_kernel

    def counted(path, entry=None, defines=(), include_dirs=()):
        calls.append((Path(path).name, entry, tuple(defines)))
        return real(path, entry, defines, include_dirs)

    monkeypatch.setattr(harness, "translate_kernel", counted)
    compiled.clear_cache()
    yield calls
    compiled.clear_cache()


def test_a_compiled_kernel_runs_many_argument_sets_translating_once(translations, engine):
    kernel = ascasm.compile_kernel(KERNEL, ENTRY)
    assert kernel.params == ["dstAddr", "srcAddr", "scale", "count"]
    x = np.random.default_rng(3).uniform(-3, 3, 1024).astype(np.float32)
    for count in (1, 63, 64, 65, 1000, 1024):                  # the tails of a 64-lane loop
        dst = np.full(1024, 7, np.float32)
        result = kernel.run(dst, x, 0.75, count, engine=engine)        # positional, in parameter order
        assert result["dstAddr"].tobytes() == model(dst, x, 0.75, count).tobytes()
    by_name = kernel.run(srcAddr=x, dstAddr=np.zeros(1024, np.float32), scale=-2.0, count=10, engine=engine)
    assert by_name["dstAddr"].tobytes() == model(np.zeros(1024, np.float32), x, -2.0, 10).tobytes()
    assert translations == [("scale_relu.cpp", ENTRY, ())]


def test_arguments_by_position_and_name_must_not_clash(translations):
    kernel = ascasm.compile_kernel(KERNEL, ENTRY)
    x = np.zeros(64, np.float32)
    with pytest.raises(harness.KernelArgError, match="5 arguments for 4 parameters"):
        kernel.run(x, x, 1.0, 1, 2)
    with pytest.raises(harness.KernelArgError, match="dstAddr is given both by position and by name"):
        kernel.run(x, x, 1.0, 1, dstAddr=x)


def test_run_kernel_reuses_a_translation_of_the_same_sources_and_options(translations, tmp_path, engine):
    """Keyed by the bytes of the kernel and of the headers it includes, and the options: a changed
    header or another -D translates again; the same file again does not."""
    (tmp_path / "scale.h").write_text("#define SCALE_TYPE float\n")
    source = KERNEL.read_text().replace('#include "kernel_operator.h"',
                                        '#include "kernel_operator.h"\n#include "scale.h"')
    (tmp_path / "k.cpp").write_text(source)
    x = np.linspace(-2, 2, 64, dtype=np.float32)

    def run(**options):
        return ascasm.run_kernel(tmp_path / "k.cpp", ENTRY, srcAddr=x, dstAddr=np.zeros(64, np.float32),
                                 scale=1.5, count=64, engine=engine, **options)["dstAddr"]

    first = run()
    assert run().tobytes() == first.tobytes() == model(np.zeros(64, np.float32), x, 1.5, 64).tobytes()
    assert len(translations) == 1
    (tmp_path / "scale.h").write_text("#define SCALE_TYPE float  // changed\n")
    run()
    assert len(translations) == 2
    run(defines=("UNUSED=1",))
    assert len(translations) == 3
    run()
    assert len(translations) == 3


def test_the_cache_is_bounded(monkeypatch):
    """At most CACHE_SIZE translations are kept; the least recently used goes first."""
    calls = []

    def fake(path, entry=None, defines=(), include_dirs=()):
        calls.append(defines)
        return object()

    monkeypatch.setattr(harness, "translate_kernel", fake)
    compiled.clear_cache()
    for n in range(compiled.CACHE_SIZE + 1):
        compiled._translation(KERNEL, ENTRY, (f"N={n}",), ())
    assert len(compiled._cache) == compiled.CACHE_SIZE
    compiled._translation(KERNEL, ENTRY, ("N=1",), ())           # kept
    compiled._translation(KERNEL, ENTRY, ("N=0",), ())           # evicted: translated again
    assert calls[compiled.CACHE_SIZE + 1:] == [("N=0",)]
    compiled.clear_cache()


# ------------------------------------------------------------------ expectations

X = (np.arange(1024) % 8 - 4).astype(np.float32)            # -4 .. 3: products 0.75 * x exact in f32


def test_an_expected_array_that_holds_passes_and_is_recorded(engine):
    dst = np.zeros(1024, np.float32)
    result = ascasm.run_kernel(KERNEL, ENTRY, srcAddr=X, dstAddr=dst, scale=0.75, count=1000, engine=engine,
                               expect=model(dst, X, 0.75, 1000))
    (check,) = result.comparisons
    assert check.ok and check.name == "dstAddr" and str(check) == \
        "dstAddr: all 1024 f32 elements as expected (exact)"


def test_a_difference_lists_the_first_differing_elements_with_index_and_values(engine):
    dst = np.zeros(1024, np.float32)
    wanted = model(dst, X, 0.75, 1000)
    wanted[[5, 13]] = 100                  # got 0.75 there (x = 1)
    wanted[1000:] = 1                      # past count the kernel leaves the zeros
    with pytest.raises(ascasm.ExpectationFailed) as failed:
        ascasm.run_kernel(KERNEL, ENTRY, srcAddr=X, dstAddr=dst, scale=0.75, count=1000, engine=engine,
                          expect=wanted)
    assert str(failed.value).splitlines() == [
        "dstAddr: 26 of 1024 f32 elements differ from the expectation (exact)",
        "  dstAddr[5]: got 0.75, expected 100",
        "  dstAddr[13]: got 0.75, expected 100",
        *[f"  dstAddr[{i}]: got 0, expected 1" for i in range(1000, 1006)],
        "  ... and 18 more"]
    assert isinstance(failed.value, AssertionError)
    (check,) = failed.value.comparisons
    assert check.wrong.tolist() == [5, 13, *range(1000, 1024)]
    assert failed.value.result["dstAddr"][5] == np.float32(0.75)


def test_an_expectation_function_gets_the_arguments_with_the_buffers_as_they_were(engine):
    kernel = ascasm.compile_kernel(KERNEL, ENTRY)
    x = np.random.default_rng(4).uniform(-3, 3, 1024).astype(np.float32)
    for count in (1, 64, 100, 1024):
        kernel.run(np.full(1024, -1, np.float32), x, 1.25, count, engine=engine, expect=model)
    seen = {}

    def expectation(**args):
        seen.update(args)
        return args["dstAddr"]             # "unchanged": wrong for every element the kernel wrote

    with pytest.raises(ascasm.ExpectationFailed, match="dstAddr: 64 of 1024"):
        kernel.run(np.full(1024, -1, np.float32), x, 1.25, 64, engine=engine, expect=expectation)
    assert sorted(seen) == ["count", "dstAddr", "scale", "srcAddr"]
    assert (seen["dstAddr"] == -1).all() and seen["srcAddr"].tobytes() == x.tobytes() and seen["count"] == 64


def test_rtol_and_ulp_tolerate_what_they_say(engine):
    dst = np.zeros(1024, np.float32)
    exact = model(dst, X, 0.75, 1000)
    off = exact.copy()
    off[4:8] = np.nextafter(exact[4:8], np.float32(np.inf))         # 0, 0.75, 1.5, 2.25: one ulp up
    args = dict(srcAddr=X, dstAddr=dst, scale=0.75, count=1000, engine=engine)
    with pytest.raises(ascasm.ExpectationFailed, match="4 of 1024 f32 elements differ"):
        ascasm.run_kernel(KERNEL, ENTRY, expect=off, **args)
    ascasm.run_kernel(KERNEL, ENTRY, expect=off, ulp=1, **args)
    # rtol: relative to the expected value, so the expected subnormal above 0 is not within any rtol < 1
    with pytest.raises(ascasm.ExpectationFailed, match=r"1 of 1024 f32 elements differ from the expectation "
                                                        r"\(rtol 2e-07\)\n  dstAddr\[4\]: got 0, expected 1e-45"):
        ascasm.run_kernel(KERNEL, ENTRY, expect=off, rtol=2e-7, **args)


def test_ulps_count_the_values_of_the_type_between():
    """Hand-counted distances: 1 and 1 + 2^-10 are neighbours in f16; -min and +min subnormal are two
    apart (-0 = +0 between them); the largest finite value and inf are neighbours; NaN matches NaN
    only by equality, never within an ulp count."""
    f16 = dtypes.BY_SPELLING["f16"]
    got = np.array([1.0, 2.0 ** -24, 65504, 0.0, np.nan], np.float16)
    expected = np.array([1 + 2.0 ** -10, -(2.0 ** -24), np.inf, -0.0, np.nan])
    assert compiled._ulps(got, expected, f16).tolist()[:4] == [1, 2, 1, 0]
    assert compiled.compare("y", got, expected, f16, ulp=1).wrong.tolist() == [1]
    bf16 = dtypes.BY_SPELLING["bf16"]
    got = np.array([1.0, -1.0], ml_dtypes.bfloat16)
    assert compiled._ulps(got, np.array([1 + 2.0 ** -7, -1 - 2 * 2.0 ** -7]), bf16).tolist() == [1, 2]
    s16 = dtypes.BY_SPELLING["s16"]
    assert compiled.compare("i", np.array([5, -3], np.int16), np.array([7, -3]), s16, ulp=1).wrong.tolist() == [0]


def test_expect_needs_a_name_when_the_run_writes_several_buffers_or_none(engine):
    x = np.zeros(64, np.float32)
    with pytest.raises(harness.KernelArgError, match=r"it wrote none: write expect=\{NAME: \.\.\.\}"):
        ascasm.run_kernel(KERNEL, ENTRY, srcAddr=x, dstAddr=x, scale=1.0, count=0, engine=engine, expect=x)
    with pytest.raises(harness.KernelArgError, match="expect names 'count', which is not a pointer parameter"):
        ascasm.run_kernel(KERNEL, ENTRY, srcAddr=x, dstAddr=x, scale=1.0, count=1, engine=engine, expect={"count": 1})
    with pytest.raises(harness.KernelArgError, match="expect dstAddr: 10 values for a buffer of 64 f32 elements"):
        ascasm.run_kernel(KERNEL, ENTRY, srcAddr=x, dstAddr=x, scale=1.0, count=1, engine=engine,
                          expect={"dstAddr": np.zeros(10)})


# ------------------------------------------------------------------ the command line and the docs

def test_run_says_how_it_ended_when_it_prints_nothing_else(tmp_path):
    """mov, mov, halt: 3 instructions. With .out (or a C++ kernel's) output, no line is added."""
    (tmp_path / "p.s").write_text(".ub b u8[32]\n    mov s0, 1\n    mov s1, 2\n    halt\n")
    result = run_cli("run", "p.s", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "p.s: halted after 3 instructions\n")
    (tmp_path / "o.s").write_text(".ub b u8[32] = 1\n.out b\n    halt\n")
    result = run_cli("run", "o.s", cwd=tmp_path)
    assert result.returncode == 0 and "halted after" not in result.stdout
    result = run_cli("run", str(KERNEL), "--entry", ENTRY, "--arg", "srcAddr=f32[64]", "--arg", "dstAddr=f32[64]",
                     "--arg", "scale=1", "--arg", "count=64", cwd=tmp_path)
    steps = ascasm.run_kernel(KERNEL, ENTRY, srcAddr=np.zeros(64, np.float32), dstAddr=np.zeros(64, np.float32),
                              scale=1.0, count=64).steps
    assert (result.returncode, result.stdout) == (0, f"scale_relu.cpp: halted after {steps} instructions\n")


def test_the_cpp_examples_in_docs_api_md_run(monkeypatch):
    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python cpp\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.DOTALL)
    assert blocks
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/api.md", "exec"), namespace)      # their asserts are the checks
