"""The lowering's parts (ascasm/cpp/lower.py and the modules it draws on): the tables that say which method
lowers each kind of statement and each kind of call name methods the Lowering has, for every kind."""
from __future__ import annotations

import pytest

pytest.importorskip("clang.cindex")

from ascasm.cpp.call_lowering import CALL_HANDLERS  # noqa: E402
from ascasm.cpp.calls import CallKind  # noqa: E402
from ascasm.cpp.lower import Lowering  # noqa: E402
from ascasm.cpp.statements import STATEMENT_HANDLERS  # noqa: E402


def test_every_kind_of_call_has_its_lowering_method():
    assert set(CALL_HANDLERS) == set(CallKind)
    for kind, method in CALL_HANDLERS.items():
        assert callable(getattr(Lowering, method, None)), (kind, method)


def test_every_statement_kind_has_its_lowering_method():
    assert {"COMPOUND_STMT", "DECL_STMT", "IF_STMT", "FOR_STMT", "WHILE_STMT", "DO_STMT", "RETURN_STMT",
            "BREAK_STMT", "CONTINUE_STMT"} <= set(STATEMENT_HANDLERS)
    for kind, method in STATEMENT_HANDLERS.items():
        assert callable(getattr(Lowering, method, None)), (kind, method)
