"""Public arch35 operators of hicann/ops-nn and ops-math run end to end from their own `__global__`
entry (docs/frontend.md "Public operators run whole"), with the tiling values and block count worked out
by hand from their host tiling code (tests/public_ops/specs.py), on seeded random inputs, against numpy
of the operator's math. The kernels are read from bare git mirrors under $ASCASM_MIRRORS (default
/work/.mirror) at run time and exported in the vendor build's layout by the correctness bed's code
(tools/kernel_bed.py); without a mirror the operator is skipped."""
import os
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

from ascasm.api import run                                    # noqa: E402
from ascasm.cpp import harness                                 # noqa: E402
from public_ops.specs import OPBASE, OPS                       # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import kernel_bed                                              # noqa: E402

MIRRORS = Path(os.environ.get("ASCASM_MIRRORS", "/work/.mirror"))
SEED = 20261207


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    return kernel_bed.Trees(MIRRORS, tmp_path_factory.mktemp("public-ops"))


_translations = {}


def translation(op, trees):
    """The op's translation, made once for both executors."""
    if op.name not in _translations:
        unit = kernel_bed.Unit(op.name, op.repo, op.commit, op.path, op.entry, "", "", None, None, headers=OPBASE)
        if not trees.has(unit):
            pytest.skip(f"no mirror of {op.repo} at {op.commit[:8]}")
        path, include_dirs = trees.source(unit)
        defines = op.defines
        if op.tiling_header:            # the struct the vendor's build makes from the host's definitions
            root = trees.tree(op.repo, op.commit)[0]
            header = kernel_bed.host_tiling_header(root / op.tiling_header, trees.tmp / f"{len(_translations)}.h")
            defines += (f'ASCASM_TILING_HEADER="{header}"',)
        _translations[op.name] = harness.translate_kernel(path, op.entry, defines=defines,
                                                          include_dirs=include_dirs, tiling=op.tiling,
                                                          tiling_key=op.key)
    return _translations[op.name]


def inputs(op):
    rng = np.random.default_rng(SEED)
    drawn = {}
    for name, (low, high, *count) in op.inputs.items():
        count = count[0] if count else op.count
        dtype = op.dtype_of(name)
        if dtype.kind == "i":
            drawn[name] = rng.integers(low, high, count, endpoint=True).astype(dtype)
        else:
            drawn[name] = rng.uniform(low, high, count).astype(dtype)
    return drawn


def params(engines=("ref", "cy")):
    return [pytest.param(op, engine, id=f"{op.name}-{engine}",
                         marks=[pytest.mark.slow] if op.slow and engine == "ref" else [])
            for op in OPS for engine in engines]


@pytest.mark.parametrize("op, engine", params())
def test_public_op_matches_its_math(trees, op, engine):
    given = inputs(op)
    outputs = op.outputs
    kernel = harness.build(translation(op, trees),
                           {**given, **{name: np.zeros(op.count_of(name), op.dtype_of(name)) for name in outputs}, **op.extra})
    result = run(kernel.program, engine=engine, blocks=op.blocks)
    wanted = op.math({name: value.astype(np.float64) for name, value in given.items()})
    if not isinstance(wanted, dict):
        wanted = {op.output: wanted}
    for name in outputs:
        got, want = result[name].astype(np.float64), wanted[name]
        rtol, atol = op.tolerances.get(name, (op.rtol, op.atol))
        if rtol == 0 and atol == 0:
            want = want.astype(op.dtype_of(name)).astype(np.float64)    # exact: the math's value in its type
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=name)
