"""A test for every form of the Reg API mapping table and every asc_* function the front end maps
(tests/form_cases.py and tests/capi_cases.py build the cases): each case's kernel is translated, run on
both executors, and its output compared with numpy applying the page's definition. Each case also
checks that the call became the form's instruction, so a case cannot pass by exercising another form."""
from __future__ import annotations

import textwrap
from functools import cache

import numpy as np
import pytest

pytest.importorskip("clang.cindex")

import cpp_run  # noqa: E402  (tests/cpp_run.py)
from ascasm.cpp.translate import translate  # noqa: E402
import capi_cases  # noqa: E402  (tests/capi_cases.py)
import form_cases  # noqa: E402  (tests/form_cases.py)
from ascasm.isa import regapi  # noqa: E402
from ascasm.isa.table import BY_CAPI  # noqa: E402

CASES = form_cases.CASES + capi_cases.CASES


def test_every_form_has_a_case_or_is_pending():
    assert len(form_cases.ALL_FORMS) == sum(len(api.forms) for api in regapi.APIS), "two forms share a key"
    assert not form_cases.COVERED & set(form_cases.PENDING), "a pending form has a case now: remove it from PENDING"
    assert set(form_cases.ALL_FORMS) == form_cases.COVERED | set(form_cases.PENDING)


def test_every_capi_function_has_a_case_or_is_pending():
    pending = {name for names in capi_cases.PENDING_REASONS.values() for name in names}
    assert not capi_cases.COVERED & pending, "a pending function has a case now: remove it from PENDING_REASONS"
    assert set(capi_cases.FUNCTIONS) == capi_cases.COVERED | pending


@cache
def _translated(kernel: str, tmp_root: str):
    import pathlib
    import tempfile
    directory = pathlib.Path(tempfile.mkdtemp(dir=tmp_root))
    path = directory / "form.cpp"
    path.write_text(form_cases.HEADER + textwrap.dedent(kernel))
    return translate(path, "FormVF")


def ulp_distance(got, want):
    """Units in the last place between two float arrays of one type (integers: exact difference)."""
    if np.issubdtype(got.dtype, np.integer):
        return np.abs(got.astype(np.int64) - want.astype(np.int64))
    bits = {2: np.int16, 4: np.int32}[got.dtype.itemsize]
    g, w = got.view(bits).astype(np.int64), want.view(bits).astype(np.int64)
    # map sign-magnitude to a monotonic integer line
    g, w = np.where(g < 0, -(g & ~(-1 << (8 * got.dtype.itemsize - 1))), g), \
        np.where(w < 0, -(w & ~(-1 << (8 * got.dtype.itemsize - 1))), w)
    return np.abs(g - w)


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_form_against_its_page(case, engine, tmp_path_factory):
    t = _translated(case.kernel, str(tmp_path_factory.getbasetemp()))
    mnemonics = {line.text.split()[0] for line in t.lines}
    if case.key in BY_CAPI and case.instruction is None:       # any row citing the function's page
        assert mnemonics & set(BY_CAPI[case.key]), f"{case.key} became none of {BY_CAPI[case.key]}: {sorted(mnemonics)}"
    else:
        assert case.mnemonic in mnemonics, f"{case.key} did not become {case.mnemonic}: {sorted(mnemonics)}"
    for expected in case.extra:
        assert expected in mnemonics, f"{case.key} did not become {expected}: {sorted(mnemonics)}"
    inputs = {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in case.inputs.items()}
    result = cpp_run.run(t, engine, prologue=case.prologue, **inputs)
    for name, want in case.expect.items():
        got, want = result[name][:case.lanes], want[:case.lanes]
        distance = ulp_distance(got, want.astype(got.dtype))
        bad = np.flatnonzero(distance > case.ulps)
        assert bad.size == 0, (f"{case.id}: lanes {bad[:6].tolist()} got {got[bad[:6]].tolist()} "
                               f"want {want[bad[:6]].tolist()}")
