"""vstas.pu (c-api-reg/reg_store/asc_storeunalign_post_postupdate.md): the flush of an unaligned store stream
at its end address sB + X elements, then sB moves there. The page's example read both ways its text
allows (page-ambiguities 19). Expected values by hand."""
import numpy as np
import pytest
from conftest import run_source

from ascasm import assemble
from ascasm.lockstep import run_lockstep

EXAMPLE = """
    .ub ub  u8[1024] = 0xEE @ 0
    .ub src u32[64] = i + 1
        vld   v0.u32, [src]
        mov   s1, 8
{stores}
        vstas.pu [s1], u0.u32, {offset}
        halt
"""
# the page's comments: dst advances with each asc_storeunalign_postupdate, so the flush's offset is 0
ADVANCING = "        vstus.pu [s1], u0, v0.u32, 64\n        vstus.pu [s1], u0, v0.u32, 64"
# the page's code: the stores take dst + i*count, dst itself stays at 8, and the offset is repeat * count
IN_PLACE = "        vstus [s1], u0, v0.u32, 64\n        vstus [s1 + 256], u0, v0.u32, 64"


@pytest.mark.parametrize("stores, offset", [(ADVANCING, 0), (IN_PLACE, 128)], ids=["comments", "code"])
def test_page_example_both_readings(engine, stores, offset):
    machine = run_source(EXAMPLE.format(stores=stores, offset=offset), engine)
    ub = machine.state.ub
    lanes = np.arange(1, 65, dtype=np.uint32).view(np.uint8)
    assert (ub[8:264] == lanes).all() and (ub[264:520] == lanes).all()     # the residue src[62:64] at 512..519
    assert (ub[:8] == 0xEE).all() and (ub[520:1024] == 0xEE).all()
    assert machine.state.sreg[1] == 520                                      # sB at the stream's end
    assert machine.state.ureg_state[0].tolist() == [0, 0] and not machine.state.ureg[0].any()


def test_the_code_with_the_comments_offset_breaks_the_stream(engine):
    # dst advanced to 520 and offset 128 puts the end at 1032: not where the pending bytes end
    machine = run_source(EXAMPLE.format(stores=ADVANCING, offset=128), engine)
    fault = machine.fault()
    assert fault.kind == "STREAM_BREAK" and machine.state.steps == 4
    assert machine.state.sreg[1] == 520 and machine.state.ureg_state[0].tolist() == [8, 512]
    assert (machine.state.ub[512:520] == 0xEE).all()                        # nothing written


def test_an_empty_stream_still_moves_sb_and_the_address_must_be_element_aligned(engine):
    machine = run_source("""
            mov      s1, 100
            vstas.pu [s1], u2.f16, -6
            mov      s2, 101
            vstas.pu [s2], u2.f16, 0
    """, engine)
    assert machine.state.sreg[1] == 88                                       # 100 - 6 * 2
    fault = machine.fault()
    assert fault.kind == "MISALIGNED" and machine.state.steps == 3 and machine.state.sreg[2] == 101


def test_lockstep_and_explain():
    ref, cy = run_lockstep(assemble(EXAMPLE.format(stores=IN_PLACE, offset=128)))
    assert ref.stop_name == cy.stop_name == "HALTED"
    from conftest import run_cli
    result = run_cli("explain", "asc_storeunalign_post_postupdate")
    assert result.returncode == 0 and "vstas.pu [sB], uS.T, X" in result.stdout
