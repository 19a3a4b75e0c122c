"""The block broadcast and unpack4 loads: vld.blk (asc_loadalign_brc_datablock), vld.e2b
(asc_loadalign_brc_elem2datablock), vld.unpk4 (asc_loadalign_unpack4), and their post-update forms.
Expected values by hand from the facts file's descriptions (§3.2 BLK, E2B, UNPK4_B8)."""
import numpy as np
import pytest
from conftest import run_source


def test_a_block_repeated_eight_times(engine):
    machine = run_source("""
        .ub src u8[64] = i + 1 @ 0
            vld.blk v0.u8, [src + 32]
            halt
    """, engine)
    assert list(machine.state.vreg[0]) == list(range(33, 65)) * 8


@pytest.mark.parametrize("etype, dtype", [("u16", np.uint16), ("f32", np.float32)])
def test_element_k_fills_block_k(engine, etype, dtype):
    machine = run_source(f"""
        .ub src {etype}[16] = 10 * i + 1 @ 0
            vld.e2b v0.{etype}, [src]
            halt
    """, engine)
    lanes = machine.state.vreg[0].view(dtype)
    per_block = 32 // np.dtype(dtype).itemsize
    assert list(lanes) == [10 * (i // per_block) + 1 for i in range(256 // np.dtype(dtype).itemsize)]


def test_e2b_of_16_bit_elements_needs_16_byte_alignment(engine):
    ok = run_source("    vld.e2b v0.s16, [16]\n    halt\n", engine)
    bad = run_source("    vld.e2b v0.s16, [8]\n    halt\n", engine)
    assert ok.fault() is None and bad.fault().kind == "MISALIGNED" and bad.fault().message.endswith("16-byte alignment")


def test_unpack4_zero_extends_bytes_into_32_bit_lanes(engine):
    machine = run_source("""
        .ub src s8[64] = i - 32 @ 0
            vld.unpk4 v0.s8, [src]
            halt
    """, engine)
    assert list(machine.state.vreg[0].view(np.uint32)) == [(i - 32) % 256 for i in range(64)]


def test_post_update_forms(engine):
    machine = run_source("""
        .ub src u32[64] = i @ 0
            mov s1, 0
            vld.blk.pu  v0.u32, [s1], 8
            vld.e2b.pu  v1.u32, [s1], 8
            vld.brc.pu  v2.u32, [s1], 1
            halt
    """, engine)
    assert list(machine.state.vreg[0].view(np.uint32)[:9]) == [0, 1, 2, 3, 4, 5, 6, 7, 0]
    assert list(machine.state.vreg[1].view(np.uint32)[::8]) == list(range(8, 16))
    assert (machine.state.vreg[2].view(np.uint32) == 16).all() and machine.state.sreg[1] == 68


def test_block_gather_page_semantics(engine):
    # Reg::GatherB: block k of vD = the 32 bytes at base + index[k] (bytes) when bit 4k of the mask is
    # set; here the blocks in reverse order, block 2 repeated; a b16 VL8 mask sets bits 0, 2, ..., 14,
    # so bits 0, 4, 8 and 12: blocks 0-3 whole, the others 0
    machine = run_source("""
        .ub src u16[128] = i @ 0
        .ub idx u32[64] = [224, 192, 64, 64, 96, 64, 32, 0]
            vld   v1.u32, [idx]
            mask  p0.b16, ALL
            vgatb v0.u16, [src], v1.u32, p0
            mask  p1.b16, VL8
            vgatb v2.u16, [src], v1.u32, p1
            halt
    """, engine)
    blocks = [112, 96, 32, 32, 48, 32, 16, 0]                  # the first u16 element of each source block
    assert list(machine.state.vreg[0].view(np.uint16)) == [b + j for b in blocks for j in range(16)]
    assert list(machine.state.vreg[2].view(np.uint16)) == [b + j for b in blocks[:4] for j in range(16)] + [0] * 64


def test_block_gather_checks_only_the_blocks_its_mask_selects(engine):
    machine = run_source("""
        .ub idx u32[64] = [0, 8, 300000, 0, 0, 0, 0, 0]
            vld   v1.u32, [idx]
            mask  p1.b32, VL1
            vgatb v0.f32, [0], v1.u32, p1
            mask  p2.b32, VL2
            vgatb v0.f32, [0], v1.u32, p2
            halt
    """, engine)
    fault = machine.fault()
    assert fault.kind == "MISALIGNED" and fault.step == 5            # block 1 (offset 8) is selected by p2


def test_block_gather_into_its_own_index_register(engine):
    # vD = vI: the offsets are read before the register is overwritten, and the log names them
    from ascasm import assemble
    from ascasm.observers.effects import StepLog
    from ascasm.vm import Machine
    program = assemble("""
        .ub src u32[64] = i @ 0
        .ub idx u32[64] = [32, 0, 0, 0, 0, 0, 0, 0] @ 256
            vld   v1.u32, [idx]
            mask  p0.b32, VL1
            vgatb v1.u32, [src], v1.u32, p0
            halt
    """, "alias.s")
    machine = Machine(program, engine)
    log = StepLog(program, machine)
    for _ in range(2):
        log.step()
    _pc, effects, _records = log.step()
    assert list(machine.state.vreg[1].view(np.uint32)[:9]) == [8, 9, 10, 11, 12, 13, 14, 15, 0]
    assert [(span.addr, span.index) for span in effects.ub_reads] == [(32, 32)]
