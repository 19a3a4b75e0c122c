"""The mask special register {MASK1, MASK0} (c-api-reg reg_data_types asc_get_mask_spr.md, reg-api
MoveMask.md) on both executors: `sprset.mask sH, sL` and `movp pD.b16|b32`, the fault when it is read
unset, and its visibility in the debugger, the trace and `back`. Also: `explain` finds asc_create_mask
and asc_update_mask. Expected bits are computed here from the pages' rule (each bit repeated 2 or 4 times)
with Python integers."""
from __future__ import annotations

import io
import json
import textwrap

import numpy as np
import pytest
from conftest import run_cli, run_source

from ascasm import assemble
from ascasm.debugger import Debugger

LOW, HIGH = 0x8000_0000_F0F0_0005, 0x0123_4567_89AB_CDEF


def expected_bits(width: int) -> list:
    """The 256 bits of pD: bit j of {MASK1, MASK0} (b16: 128 bits; b32: MASK0's 64) repeated `width` times."""
    value = HIGH << 64 | LOW
    return [(value >> (k // width)) & 1 for k in range(256)]


def test_movp_repeats_each_bit(engine):
    m = run_source(f"""
        mov  s1, {HIGH}
        mov  s2, {LOW - (1 << 64)}
        sprset.mask s1, s2
        movp p0.b16
        movp p1.b32
        vdup v0.u16, 1
        vadds v1.u16, v0.u16, 1, p0           ; the page's use: a mask for a scalar add
    """, engine)
    for p, width in ((0, 2), (1, 4)):
        assert np.unpackbits(m.state.preg[p], bitorder="little").tolist() == expected_bits(width)
    lanes = expected_bits(2)[::2][:128]
    assert m.state.vreg[1].view(np.uint16).tolist() == [2 if on else 0 for on in lanes]
    assert m.state.mask_spr[:2].view(np.uint64).tolist() == [LOW, HIGH]


def test_reading_it_unset_faults(engine):
    m = run_source("mask p0.b16, ALL\nmovp p0.b16\n", engine)
    assert m.stop_name == "SPR_UNSET" and m.state.ctrl[3] == 2
    assert m.state.preg[0].tolist() == [0x55] * 32                # nothing written
    assert "no sprset.mask has set it" in str(m.fault())


def test_cli_reports_the_fault(tmp_path):
    source = tmp_path / "unset.s"
    source.write_text("movp p0.b32\n")
    result = run_cli("run", source)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "unset special register MASK" in result.stderr


def test_debugger_regs_print_and_back():
    program = assemble("mov s1, 7\nmov s2, 5\nsprset.mask s1, s2\nmovp p2.b32\nhalt\n", "t.s")
    out = io.StringIO()
    Debugger(program, "cy", stdin=io.StringIO(textwrap.dedent("""\
        p MASK
        s 3
        p MASK
        regs
        back
        p MASK
    """)), stdout=out).cmdloop()
    text = out.getvalue()
    assert "MASK is unset: no sprset.mask has written it" in text
    assert "MASK = 0x0000000000000007:0000000000000005" in text
    assert text.count("MASK is unset") == 2                       # back restored the unset register


def test_trace_records_it(tmp_path):
    source = tmp_path / "m.s"
    source.write_text("mov s1, -1\nmov s2, 3\nsprset.mask s1, s2\nhalt\n")
    trace = tmp_path / "t.jsonl"
    assert run_cli("run", f"--trace={trace}", source).returncode == 0
    lines = [json.loads(line) for line in trace.read_text().splitlines()]
    assert lines[2]["regs"] == [{"reg": "MASK", "mask0": 3, "mask1": (1 << 64) - 1}]


@pytest.mark.parametrize("name, mnemonic", [("asc_create_mask", "mask"), ("asc_update_mask", "mask.upd"),
                                            ("asc_get_mask_spr", "movp")])
def test_explain_finds_the_pages(name, mnemonic):
    result = run_cli("explain", name)
    assert result.returncode == 0 and f"implemented by {mnemonic}" in result.stdout
