"""asc_load / asc_store (vldu, vstu): a whole vector, or the low X lanes of one, at any element-aligned
address; and the C-API names of the older load/store rows. Expected values by hand."""
import numpy as np
import pytest
from conftest import run_cli, run_source

from ascasm.isa.table import BY_CAPI


def test_load_and_store_at_element_aligned_addresses(engine):
    machine = run_source("""
        .ub src half[256] = i @ 0
        .ub out u8[512] = 0xEE @ 512
            vldu   v0.f16, [src + 6]
            vstu   [out + 2], v0.f16
            vstu   [out + 300], v0.f16, 3
            halt
    """, engine)
    assert list(machine.state.vreg[0].view(np.float16)) == list(range(3, 131))
    out = machine.state.ub[512:1024]
    assert (out[:2] == 0xEE).all() and list(out[2:258].view(np.float16)) == list(range(3, 131))
    assert (out[258:300] == 0xEE).all() and list(out[300:306].view(np.float16)) == [3, 4, 5]
    assert (out[306:] == 0xEE).all()


@pytest.mark.parametrize("text, kind", [("vldu v0.f32, [2]", "MISALIGNED"), ("vstu [253952 - 128], v0.f32", "UB_RANGE"),
                                        ("vstu [0], v0.f32, 0", "BAD_COUNT"), ("vstu [0], v0.f32, 65", "BAD_COUNT")])
def test_faults(engine, text, kind):
    machine = run_source(f"    {text}\n", engine)
    assert machine.fault().kind == kind and not machine.state.ub.any()


def test_pack_quarter_post_update(engine):
    # asc_storealign_pack_quarter(_postupdate) is vsta.packv2: the low byte of each active b32 lane
    machine = run_source("""
        .ub out u8[128] = 0xEE
            vci  v0.s32, 0x101
            mask p0.b32, VL4
            mov  s1, out
            vsta.packv2.pu [s1], v0.u32, p0, 64
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:5]) == [1, 2, 3, 4, 0xEE]
    assert machine.state.sreg[1] == machine.program.buffers["out"].addr + 256


def test_the_c_api_names_of_the_load_and_store_rows():
    names = {"asc_loadalign": "vld", "asc_loadalign_brc_elem": "vld.brc", "asc_loadalign_upsample": "vld.us",
             "asc_loadalign_downsample": "vld.ds", "asc_loadalign_unpack": "vld.unpk",
             "asc_loadalign_deintlv": "vld.dintlv", "asc_gather": "vgat", "asc_storealign_1st": "vsta.1st",
             "asc_storealign_pack": "vsta.pack", "asc_storealign_pack_quarter": "vsta.packv2",
             "asc_storealign_intlv": "vsta.intlv", "asc_load": "vldu", "asc_store": "vstu",
             "asc_loadunalign_pre": "vldas", "asc_loadunalign": "vldus", "asc_loadunalign_postupdate": "vldus.pu"}
    for name, mnemonic in names.items():
        assert mnemonic in BY_CAPI[name], name
    result = run_cli("explain", "asc_store")
    assert result.returncode == 0 and "vstu [addr], vS.T, X" in result.stdout


def test_copy_merges_under_the_mask(engine):
    # asc_copy, vector to vector: active lanes from vS, inactive lanes keep vD (here v0 = v1 too)
    machine = run_source("""
            vci  v0.s16, 100
            vdup v1.s16, -1
            mask p0.b16, M3
            vmov v1.s16, v0.s16, p0
            vmov v0.s16, v0.s16, p0
            halt
    """, engine)
    lanes = machine.state.vreg[1].view(np.int16)
    assert list(lanes[:7]) == [100, -1, -1, 103, -1, -1, 106]
    assert list(machine.state.vreg[0].view(np.int16)) == list(range(100, 228))
