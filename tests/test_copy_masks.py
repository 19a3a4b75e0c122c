"""asc_copy's mask forms (c-api-reg/reg_load/asc_copy.md): `pmov pD, pS, pM` (mask to mask under a mask) and
`movvp pD, vS.T, BLOCK` (vector to mask: a block's bits, each repeated W times). Expected values by hand."""

import numpy as np
import pytest
from conftest import run_cli, run_source

from ascasm import assemble
from ascasm.asm.errors import AssemblyFailed


def bits_of(machine, p) -> list[int]:
    return np.flatnonzero(np.unpackbits(machine.state.preg[p], bitorder="little")).tolist()


def test_masked_mask_copy_keeps_the_selected_bits(engine):
    machine = run_source("""
            mask p1.b16, VL64               ; bits 0, 2, ..., 126
            mask p2.b8, VL32                ; bits 0..31
            mask p3.b8, ALL
            pmov p4, p1, p2
            pmov p5, p3, p1                 ; all bits, through a b16 mask: its own bits
            pmov p1, p1, p2                 ; the destination may be a source
            halt
    """, engine)
    assert bits_of(machine, 4) == list(range(0, 32, 2))
    assert bits_of(machine, 5) == list(range(0, 128, 2))
    assert bits_of(machine, 1) == list(range(0, 32, 2)) and machine.state.preg_set[4] == 1


def test_masked_mask_copy_needs_both_masks_set(engine):
    machine = run_source("""
            mask p1.b8, ALL
            pmov p4, p1, p6
    """, engine)
    assert machine.fault().kind == "MASK_UNSET" and machine.state.fault_args[0] == 6
    assert machine.state.preg_set[4] == 0


def test_vector_to_mask_u16(engine):
    # every u16 lane is 1: each 16-byte block holds bits 0, 16, 32, ..., 112; repeated twice they set mask
    # bits 2k, 2k+1, i.e. the b16 lanes 0, 16, ..., 112 with their odd bits too
    machine = run_source("""
            vdup  v3.u16, 1
            movvp p2, v3.u16, 15
            pcnt  s1, p2.b16
            pcnt  s2, p2.b8
            halt
    """, engine)
    assert bits_of(machine, 2) == [b for k in range(0, 128, 16) for b in (2 * k, 2 * k + 1)]
    assert machine.state.sreg[1:3].tolist() == [8, 16]


@pytest.mark.parametrize("block", ["5", "s7"])
def test_vector_to_mask_u32(engine, block):
    # lanes i = 0..63; block 5 is bytes 40..47, lanes 10 (0b1010: bits 1, 3) and 11 (0b1011: bits 32, 33, 35);
    # each bit k becomes mask bits 4k..4k+3. The block may be a run-time value (asc_copy's int16_t part)
    machine = run_source(f"""
            mov   s7, 5
            vci   v1.s32, 0
            movvp p3, v1.u32, {block}
            halt
    """, engine)
    assert bits_of(machine, 3) == [b for k in (1, 3, 32, 33, 35) for b in range(4 * k, 4 * k + 4)]


def test_block_range_is_checked_when_assembling_and_running(engine):
    with pytest.raises(AssemblyFailed) as failed:
        assemble("    movvp p0, v1.u16, 16\n", "t.s")
    error = failed.value.errors[0]
    assert (error.loc.line, error.loc.col, error.message) == (1, 23, "block 16 out of range 0..15")
    assemble("    movvp p0, v1.b32, 31\n")


@pytest.mark.parametrize("etype, block, last", [("u32", 32, 31), ("u16", 16, 15), ("u16", -1, 15)])
def test_register_block_out_of_range_faults_writing_nothing(engine, etype, block, last):
    # the page's part range is 0..15 (u16) or 0..31 (u32); a register outside it faults before p2 is
    # written (it keeps the pattern set before)
    machine = run_source(f"""
            mask  p2.b8, VL8
            mov   s0, {block}
            vdup  v1.{etype}, 1
            movvp p2, v1.{etype}, s0
            halt
    """, engine)
    fault = machine.fault()
    assert fault.kind == "BAD_COUNT" and machine.state.fault_args[:2] == (block, last) and fault.loc.line == 5
    width = 2 if etype == "u16" else 4
    assert fault.message == (f"block {block} out of range 0..{last}: a vector register holds {last + 1} blocks "
                             f"of {32 // width} bytes for {etype} (asc_copy: part)")
    assert bits_of(machine, 2) == list(range(8))


def test_explain_asc_copy_lists_every_form():
    result = run_cli("explain", "asc_copy")
    assert result.returncode == 0
    for text in ("vmov vD.T, vA.T, pM", "pmov pD, pS", "pmov pD, pS, pM", "movvp pD, vS.T, BLOCK"):
        assert text in result.stdout
