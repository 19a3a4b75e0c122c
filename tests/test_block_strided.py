"""Block-strided loads and stores (Reg::LoadAlign / StoreAlign with DataCopyMode::DATA_BLOCK_COPY;
asc_loadalign / asc_storealign's block_stride, repeat_stride forms): 8 blocks of 32 bytes, block k at
addr + k * blockStride * 32; a load reads a block whole when one of its lanes is active and gives 0 for
a block with none, a store writes the active lanes; blocks with no active lane are never checked.
Expected values by hand from the pages' rules, or with numpy slicing."""
import numpy as np
import pytest
from conftest import run_source


def test_block_stride_2_reads_every_other_block(engine):
    # the page's example scenario: half data, dataBlockStride 2 -> the output is every other 16-half block
    machine = run_source("""
        .ub src f16[256] = i @ 0
            mask    p0.b16, ALL
            vld.bs  v0.f16, [src], 2, p0
            halt
    """, engine)
    source = np.arange(256, dtype=np.float16).reshape(16, 16)
    assert (machine.state.vreg[0].view(np.float16) == source[::2].ravel()).all()


def test_block_stride_0_repeats_the_first_block(engine):
    machine = run_source("""
        .ub src u32[8] = 100 + i @ 64
            mask    p0.b32, ALL
            mov     s2, 0
            vld.bs  v0.u32, [src], s2, p0
            halt
    """, engine)
    assert machine.state.vreg[0].view(np.uint32).tolist() == list(range(100, 108)) * 8


def test_a_load_reads_whole_blocks_and_zeroes_blocks_with_no_active_lane(engine):
    # VL3 at b32: lanes 0-2 active, all in block 0, which is read whole (its lanes 3-7 included);
    # blocks 1-7, with no active lane, are 0 and never checked (here they lie beyond the UB)
    machine = run_source("""
        .ub src s32[8] = -i @ 0
            mask    p0.b32, VL3
            mov     s1, 0x100000
            vld.bs  v0.s32, [src], s1, p0
            halt
    """, engine)
    assert machine.fault() is None
    assert machine.state.vreg[0].view(np.int32).tolist() == [-i for i in range(8)] + [0] * 56


def test_an_active_block_outside_the_ub_faults(engine):
    machine = run_source("""
            mask    p0.b8, ALL
            vld.bs  v0.u8, [0], 0x100000, p0
            halt
    """, engine)
    fault = machine.fault()
    assert fault.kind == "UB_RANGE" and "32 bytes at address 0x2000000 (lane 32)" in fault.message


def test_the_address_must_be_32_byte_aligned(engine):
    for line in ("vld.bs  v0.u16, [16], 1, p0", "vsta.bs [16], v0.u16, 1, p0"):
        machine = run_source(f"    mask p0.b16, ALL\n    {line}\n    halt\n", engine)
        assert machine.fault().kind == "MISALIGNED"


def test_a_store_writes_the_active_lanes_of_each_block_at_its_stride(engine):
    # block stride 3: block k of v0 goes to dst + 96k; M4 at b16 keeps lanes 0, 4, 8, ...; the rest of
    # dst keeps its 0xEEEE
    machine = run_source("""
        .ub dst u16[384] = 0xEEEE @ 0
            vci     v0.s16, 1
            mask    p0.b16, M4
            vsta.bs [dst], v0.u16, 3, p0
            halt
    """, engine)
    expected = np.full(384, 0xEEEE, np.uint16)
    for k in range(8):
        for j in range(0, 16, 4):
            expected[48 * k + j] = 16 * k + j + 1
    assert (machine.state.ub[:768].view(np.uint16) == expected).all()


def test_a_store_leaves_blocks_with_no_active_lane_unchecked(engine):
    machine = run_source("""
        .ub dst u8[32] = 0 @ 0
            vdup    v0.u8, 9
            mask    p0.b8, VL32
            vsta.bs [dst], v0.u8, 0x100000, p0
            halt
    """, engine)
    assert machine.fault() is None and machine.state.ub[:32].tolist() == [9] * 32


def test_post_update_forms_advance_by_the_repeat_stride_in_blocks(engine):
    # the pages' example: LoadAlign/StoreAlign<T, DATA_BLOCK_COPY, POST_MODE_UPDATE>(reg, addr, 1, i * 8,
    # mask) for i = 0, 1, 2: the accesses are at 0, 0 and 256 bytes (the update after access i is i*8
    # blocks), so dst = src over 512 bytes and the pointers end 3 * 256 bytes on
    machine = run_source("""
        .ub src u16[512] = i @ 0
        .ub dst u16[512] = 0 @ 1024
            mask       p0.b16, ALL
            mov        s1, src
            mov        s2, dst
            mov        s3, 0
        loop:
            mul        s4, s3, 8
            vld.bs.pu  v0.u16, [s1], 1, p0, s4
            vsta.bs.pu [s2], v0.u16, 1, p0, s4
            add        s3, s3, 1
            blt        s3, 3, loop
            halt
    """, engine)
    assert machine.state.ub[1024:1536].view(np.uint16).tolist() == list(range(256))
    assert not machine.state.ub[1536:2048].any()
    assert machine.state.sreg[1] == 768 and machine.state.sreg[2] == 1024 + 768


@pytest.mark.parametrize("etype, width", [("u8", 1), ("s16", 2), ("f32", 4), ("s64", 8)])
def test_load_then_store_with_a_stride_is_a_numpy_strided_copy(engine, etype, width):
    machine = run_source(f"""
        .ub src u8[2048] = i % 251 @ 0
        .ub dst u8[2048] = 0 @ 4096
            mask    p0.b{8 * width}, ALL
            vld.bs  v0.{etype}, [src + 64], 5, p0
            vsta.bs [dst], v0.{etype}, 7, p0
            halt
    """, engine)
    source = (np.arange(2048) % 251).astype(np.uint8)
    expected = np.zeros(2048, np.uint8)
    for k in range(8):
        expected[224 * k:224 * k + 32] = source[64 + 160 * k:64 + 160 * k + 32]
    assert (machine.state.ub[4096:6144] == expected).all()
