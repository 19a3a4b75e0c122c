"""Unaligned load streams (vldas, vldus, vldus.pu): c-api-reg asc_loadunalign_pre, asc_loadunalign,
asc_loadunalign_postupdate. A load register q holds one 32-byte UB block and the stream position it was
loaded for; vldus takes the bytes below the next 32-byte boundary from it. Expected values by hand."""
import numpy as np
from conftest import run_source


def test_loadunalign_page_example(engine):
    # asc_loadunalign's example: halves from src + 5 elements: lanes are src[5:133]
    machine = run_source("""
        .ub src half[512] = i @ 0
            vldas q1, [src + 10]
            vldus v0.f16, q1, [src + 10]
            halt
    """, engine)
    assert list(machine.state.vreg[0].view(np.float16)) == list(range(5, 133))
    assert machine.state.qreg_state[1].tolist() == [1, 266]
    assert (machine.state.qreg[1].view(np.float16) == np.arange(128, 144)).all()   # block 256..287


def test_a_post_update_stream_walks_the_buffer(engine):
    machine = run_source("""
        .ub src u32[256] = 1000 + i @ 0
            mov      s1, 12
            vldas    q0, [s1]
            vldus.pu v0.u32, q0, [s1], 64
            vldus.pu v1.u32, q0, [s1], 16
            vldus.pu v2.u32, q0, [s1], 64
            halt
    """, engine)
    lanes = [list(machine.state.vreg[k].view(np.uint32)) for k in range(3)]
    assert lanes[0] == list(range(1003, 1067)) and lanes[1] == list(range(1067, 1131))
    assert lanes[2] == list(range(1083, 1147))                   # 16 elements on from the second load
    assert machine.state.sreg[1] == 12 + 4 * (64 + 16 + 64)


def test_the_head_comes_from_the_held_block(engine):
    # a store between vldas and vldus changes the UB, but the head bytes come from the block held
    # before it (the hardware's behaviour without a membar; ascasm also warns of the hazard)
    machine = run_source("""
        .ub src u8[512] = i % 200 @ 0
            vldas    q3, [src + 40]
            vdup     v5.u8, 7
            mask     p0.b8, ALL
            vsta     [src + 32], v5.u8, p0
            vldus    v0.u8, q3, [src + 40]
            halt
    """, engine)
    lanes = machine.state.vreg[0]
    assert list(lanes[:24]) == list(range(40, 64))             # from q3: the old bytes 40..63
    assert (lanes[24:248] == 7).all() and list(lanes[248:]) == [(i % 200) for i in range(288, 296)]
    assert machine.state.hazard_warn[4][0] == 1


def test_an_aligned_stream_holds_no_block(engine):
    machine = run_source("""
        .ub src u8[512] = 3 @ 0
            vldas q0, [src + 256]
            vldus v0.u8, q0, [src + 256]
            halt
    """, engine)
    assert (machine.state.vreg[0] == 3).all() and machine.state.qreg_state[0].tolist() == [1, 512]
    assert not machine.state.qreg[0].any()


def test_a_load_past_the_usable_ub_faults(engine):
    machine = run_source("""
            mov   s1, 253952 - 100
            vldas q0, [s1]
            vldus v0.u8, q0, [s1]
    """, engine)
    assert machine.fault().kind == "UB_RANGE" and machine.state.steps == 2 and not machine.state.vreg[0].any()
