"""Post-update forms (the c-api-reg `..._postupdate` pages): `<load or store>.pu ..., [sB], ..., X` accesses
the address in sB exactly as its base row does, then advances sB by X elements of T (vector forms; the
deintlv page: offset * sizeof(T) bytes) or X bytes (mask forms). Expected values worked by hand."""
import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble
from ascasm.isa.table import BY_CAPI, INSNS, post_update_base


def buffer(machine, name):
    return machine.program.buffers[name].view(machine.state.ub)


def test_deintlv_page_example(engine):
    # asc_loadalign_deintlv_postupdate: float, src = 32, offset = 128 -> src becomes 32 + 128*4 = 544
    machine = run_source("""
        .ub data f32[192] = i @ 0
            mov s1, 32
            vld.dintlv.pu v0.f32, v1.f32, [s1], 128
            halt
    """, engine)
    assert machine.state.sreg[1] == 544
    assert list(machine.state.vreg[0].view(np.float32)[:3]) == [8, 10, 12]      # element 8 is at byte 32
    assert list(machine.state.vreg[1].view(np.float32)[:3]) == [9, 11, 13]


def test_a_loop_of_post_update_loads_and_stores_copies_a_buffer(engine):
    machine = run_source("""
        .ub src u16[512] = 3 * i
        .ub dst u16[512]
            mask    p0.b16, ALL
            mov     s1, src
            mov     s2, dst
            mov     s0, 0
        loop:
            vld.pu  v0.u16, [s1], 128
            vsta.pu [s2], v0.u16, p0, 128
            add     s0, s0, 1
            blt     s0, 4, loop
            halt
    """, engine)
    assert list(buffer(machine, "dst")) == [3 * i % 65536 for i in range(512)]
    src, dst = (machine.program.buffers[n].addr for n in ("src", "dst"))
    assert machine.state.sreg[1] == src + 1024 and machine.state.sreg[2] == dst + 1024


def test_mask_forms_advance_by_bytes(engine):
    machine = run_source("""
        .ub bits u8[64] = 0x0F
            mov     s1, bits
            vld.pu  p1, [s1], 32
            vld.us.pu p2, [s1], -16
            halt
    """, engine)
    base = machine.program.buffers["bits"].addr
    assert machine.state.sreg[1] == base + 32 - 16
    assert (machine.state.preg[1] == 0x0F).all()
    # bits 0-3 of each byte doubled to bits 0-7 of an even byte; bits 4-7 (clear) to the odd byte
    assert list(machine.state.preg[2]) == [0xFF, 0x00] * 16


def test_store_forms_and_a_negative_amount(engine):
    machine = run_source("""
        .ub out u32[64] = 7
            vci      v0.s32, 100
            mov      s3, out
            add      s3, s3, 4
            vsta.1st.pu [s3], v0.u32, -1
            mask     p1.b32, VL2
            mov      s4, out
            add      s4, s4, 64
            vsta.pack.pu [s4], v0.u32, p1, 8
            halt
    """, engine)
    out = buffer(machine, "out").view(np.uint16)
    assert buffer(machine, "out")[1] == 100
    assert list(out[32:36]) == [100, 101, 7, 0]               # two u16 slots at out + 64, then untouched bytes
    base = machine.program.buffers["out"].addr
    assert machine.state.sreg[3] == base and machine.state.sreg[4] == base + 64 + 32


def test_a_faulting_access_leaves_the_base_register_alone(engine):
    machine = run_source("""
            mov    s1, 16
            vld.pu v0.f32, [s1], 64
    """, engine)
    assert machine.fault().kind == "MISALIGNED" and machine.state.sreg[1] == 16


def test_the_base_must_be_one_scalar_register():
    for text in ("vld.pu v0.f32, [s1 + 32], 64", "vld.pu v0.f32, [a1], 64", "vld.pu v0.f32, [64], 64"):
        with pytest.raises(AssemblyFailed) as failed:
            assemble(f"    {text}\n")
        assert "a post-update address is one scalar register in brackets" in str(failed.value)
    with pytest.raises(AssemblyFailed) as failed:
        assemble("    vld.pu v0.f32, s1, 64\n")
    assert "an address is written in brackets: [s1]" in str(failed.value)


def test_every_post_update_row_mirrors_its_base_row():
    rows = [spec for spec in INSNS if spec.post is not None]
    assert len(rows) == 21
    for spec in rows:
        base = post_update_base(spec)
        assert (spec.types, spec.access, spec.mask, spec.rw, spec.specials) == \
            (base.types, base.access, base.mask, base.rw, base.specials)
        appended = "" if base.syntax.endswith(", X") else ", X"         # vstus: its count is the amount
        assert spec.syntax == base.syntax.replace("[addr]", "[sB]") + appended
        block_strided = spec.family.startswith(("vld_bs", "vsta_bs"))          # X counts 32-byte blocks
        assert spec.post == (32 if block_strided else "T" if any(op.type_slot is not None for op in spec.operands)
                             else 1)
    for page in ("asc_loadalign_postupdate", "asc_storealign_postupdate", "asc_loadalign_deintlv_postupdate",
                 "asc_storealign_1st_postupdate", "asc_storealign_pack_postupdate"):
        assert BY_CAPI[page]


def test_storeunalign_postupdate_page_example(engine):
    # asc_storeunalign_postupdate with a count: 64 u32 at UB 8, twice, dst advancing to UB 264 and 520;
    # then the residue flushed at dst (asc_storeunalign_post_postupdate with offset 0: UB 512..519)
    machine = run_source("""
        .ub ub  u8[1024] = 0xEE @ 0
        .ub src u32[64] = i + 1
            vld      v0.u32, [src]
            mov      s1, 8
            mov      s0, 0
        loop:
            vstus.pu [s1], u0, v0.u32, 64
            add      s0, s0, 1
            blt      s0, 2, loop
            vstas    [s1], u0
            halt
    """, engine)
    ub = machine.state.ub
    lanes = np.arange(1, 65, dtype=np.uint32).view(np.uint8)
    assert machine.state.sreg[1] == 520
    assert (ub[8:264] == lanes).all() and (ub[264:520] == lanes).all()
    assert (ub[:8] == 0xEE).all() and (ub[520:1024] == 0xEE).all()


# ---- the unpack loads' post-update forms: asc_loadalign_unpack_postupdate (vld.unpk.pu) and
# asc_loadalign_unpack4_postupdate (vld.unpk4.pu). The pages: load VL/2 (VL/4) bytes as unsigned
# integers of T's width and widen each into a lane twice (four times) as wide, the new high part 0;
# then src advances by offset elements of T. Expected lanes come from that definition in numpy.
UNPACK_BYTES = np.random.default_rng(950).integers(0, 256, 512, dtype=np.uint8)   # half of them >= 0x80
UNPACK_BUFFER = f".ub d u8[512] = [{', '.join(map(str, UNPACK_BYTES))}] @ 256\n"
UB_END = 253952                                                     # the usable UB's end (248 KiB)


def unpacked(at: int, width: int, factor: int) -> np.ndarray:
    """The lanes of an unpack load of `d + at`: 256/factor bytes as u(8*width), zero-extended by `factor`."""
    raw = UNPACK_BYTES[at:at + 256 // factor]
    return raw.view(f"u{width}").astype(f"u{width * factor}")


@pytest.mark.parametrize("etype, width", [("s8", 1), ("s16", 2), ("f32", 4)])
def test_unpack_post_update_loads_then_advances_by_elements(engine, etype, width):
    # forwards by one source step (128 bytes), then back by one 32-byte block with the amount in a
    # register: the second load reads d + 128, sB ends at d + 96. s8 and s16 data with the top bit
    # set must come out zero-extended (the page: unsigned, "padded with 0"), f32 as raw 64-bit lanes.
    machine = run_source(UNPACK_BUFFER + f"""
            mov    s1, d
            mov    s2, {-32 // width}
            vld.unpk.pu v0.{etype}, [s1], {128 // width}
            vld.unpk.pu v1.{etype}, [s1], s2
            halt
    """, engine)
    wide = f"u{2 * width}"
    assert np.array_equal(machine.state.vreg[0].view(wide), unpacked(0, width, 2))
    assert np.array_equal(machine.state.vreg[1].view(wide), unpacked(128, width, 2))
    assert machine.state.sreg[1] == 256 + 96 and machine.state.sreg[2] == -32 // width


@pytest.mark.parametrize("etype", ["s8", "e4m3", "hif8"])
def test_unpack4_post_update_loads_then_advances_by_bytes(engine, etype):
    # T is one byte wide, so X elements are X bytes: 64 on (one whole unpack4 source), then 32 back
    machine = run_source(UNPACK_BUFFER + f"""
            mov    s1, d
            vld.unpk4.pu v0.{etype}, [s1], 64
            vld.unpk4.pu v1.{etype}, [s1], -32
            vld.unpk4.pu v2.{etype}, [s1], 0
            halt
    """, engine)
    assert np.array_equal(machine.state.vreg[0].view(np.uint32), unpacked(0, 1, 4))
    assert np.array_equal(machine.state.vreg[1].view(np.uint32), unpacked(64, 1, 4))
    assert np.array_equal(machine.state.vreg[2].view(np.uint32), unpacked(32, 1, 4))
    assert machine.state.sreg[1] == 256 + 32


@pytest.mark.parametrize("insn, size", [("vld.unpk.pu", 128), ("vld.unpk4.pu", 64)])
def test_unpack_post_update_faults_change_neither_register(engine, insn, size):
    # the rows' 32-byte alignment and the range of the bytes read: a faulting load writes no lane of
    # vD and leaves sB where it was; a load that ends exactly at the usable end is fine
    for start, kind in ((256 + 16, "MISALIGNED"), (UB_END - size + 32, "UB_RANGE"), (UB_END - size, None)):
        machine = run_source(UNPACK_BUFFER + f"""
                mov    s1, {start}
                vdup   v0.u8, 0x5A
                {insn} v0.u8, [s1], 32
                halt
        """, engine)
        fault = machine.fault()
        if kind is None:
            assert fault is None and machine.state.sreg[1] == start + 32
            assert not machine.state.vreg[0].any()                       # the UB past d is zero
        else:
            assert fault.kind == kind and fault.step == 3, (start, fault)
            assert machine.state.sreg[1] == start and (machine.state.vreg[0] == 0x5A).all()
