"""The load distributions, store modes, mask loads/stores, gather and mask logic of seed 002 and
facts §2.4, §3, §4, §5, on both executors. Expected values come from small numpy models written
here from the facts file's tables."""
import numpy as np
import pytest
from conftest import run_source

TYPES = {"u8": np.uint8, "s8": np.int8, "u16": np.uint16, "f16": np.float16, "s32": np.int32, "f32": np.float32,
         "u64": np.uint64}
RNG = np.random.default_rng(2026)
DATA = RNG.integers(0, 256, 1024, dtype=np.uint8)       # the bytes of buffer `d` in every program below
PROLOGUE = f".ub d u8[1024] = [{', '.join(map(str, DATA))}]\n.ub out u8[1024] = 0xEE\n"


def run(body: str, engine: str, **options):
    machine = run_source(PROLOGUE + body, engine, **options)
    assert machine.stop_name == "HALTED", machine.fault()
    return machine


def out_bytes(machine) -> np.ndarray:
    return machine.program.buffers["out"].view(machine.state.ub)


def mask_bits(lanes_active: np.ndarray, width: int) -> np.ndarray:
    bits = np.zeros(256, bool)
    bits[::width][:lanes_active.size] = lanes_active
    return np.packbits(bits, bitorder="little")


def load_mask(name: str, active: np.ndarray, width: int) -> str:
    """Source lines that put a mask with the given active elements into pN (through the UB)."""
    raw = mask_bits(active, width)
    return f".ub m{name} u8[32] = [{', '.join(map(str, raw))}]\n    vld {name}, [m{name}]\n"


# ---- loads (facts §3.2) ----
@pytest.mark.parametrize("t", ["u8", "u16", "s32"])
def test_vld_brc_broadcasts_one_element(engine, t):
    width = np.dtype(TYPES[t]).itemsize
    m = run(f"    vld.brc v0.{t}, [d + {3 * width}]\n    halt\n", engine)
    element = DATA[3 * width:4 * width]
    assert np.array_equal(m.state.vreg[0], np.tile(element, 256 // width))


def test_vld_brc_needs_only_element_alignment(engine):
    m = run_source(PROLOGUE + "    vld.brc v0.u16, [d + 3]\n", engine)
    assert m.stop_name == "MISALIGNED" and m.state.fault_args[:2] == (0x3, 2)


@pytest.mark.parametrize("t", ["u8", "u16"])
def test_vld_us_doubles_each_element(engine, t):
    width = np.dtype(TYPES[t]).itemsize
    m = run(f"    vld.us v0.{t}, [d + 32]\n    halt\n", engine)
    source = DATA[32:32 + 128].view(f"u{width}")
    assert np.array_equal(m.state.vreg[0].view(f"u{width}"), np.repeat(source, 2))


@pytest.mark.parametrize("t,wide", [("u8", np.uint16), ("u16", np.uint32), ("s32", np.uint64)])
def test_vld_unpk_zero_extends_to_double_width(engine, t, wide):
    width = np.dtype(TYPES[t]).itemsize
    m = run(f"    vld.unpk v0.{t}, [d]\n    halt\n", engine)
    assert np.array_equal(m.state.vreg[0].view(wide), DATA[:128].view(f"u{width}").astype(wide))


def test_vld_unpk_b8_facts_example(engine):
    # facts §11: UNPK_B8 [0x00, 0x01, ...] -> [0x00, 0x00, 0x01, 0x00, ...]
    m = run_source(".ub b u8[128] = i\n    vld.unpk v0.u8, [b]\n    halt\n", engine)
    expected = np.zeros(256, np.uint8)
    expected[0::2] = np.arange(128)
    assert np.array_equal(m.state.vreg[0], expected)


# ---- mask loads and stores (facts §3.4, §4.4; LANGUAGE.md §1 bit layout) ----
def test_mask_load_norm_and_store_round_trip(engine):
    m = run("    vld p1, [d + 64]\n    vsta [out], p1\n    halt\n", engine)
    assert np.array_equal(m.state.preg[1], DATA[64:96])
    assert np.array_equal(out_bytes(m)[:32], DATA[64:96]) and (out_bytes(m)[32:] == 0xEE).all()


def test_mask_load_us_doubles_each_bit(engine):
    m = run("    vld.us p2, [d + 16]\n    halt\n", engine)
    bits = np.unpackbits(DATA[16:32], bitorder="little")
    assert np.array_equal(m.state.preg[2], np.packbits(np.repeat(bits, 2), bitorder="little"))


def test_mask_load_ds_keeps_every_other_bit(engine):
    m = run("    vld.ds p3, [d + 64]\n    halt\n", engine)
    bits = np.unpackbits(DATA[64:128], bitorder="little")
    assert np.array_equal(m.state.preg[3], np.packbits(bits[0::2], bitorder="little"))


def test_mask_store_pack_keeps_even_bits(engine):
    m = run("    vld p1, [d]\n    vsta.pack [out + 16], p1\n    halt\n", engine)
    bits = np.unpackbits(DATA[:32], bitorder="little")
    assert np.array_equal(out_bytes(m)[16:32], np.packbits(bits[0::2], bitorder="little"))
    assert (out_bytes(m)[:16] == 0xEE).all() and (out_bytes(m)[32:] == 0xEE).all()


def test_mask_store_pack_of_a_b16_mask_is_a_plain_bitmap(engine):
    # facts §4.4 idiom: a b16 mask stored with PACK becomes one bit per element
    m = run("    mask p0.b16, M3\n    vsta.pack [out], p0\n    halt\n", engine)
    assert np.array_equal(out_bytes(m)[:16], np.packbits(np.arange(128) % 3 == 0, bitorder="little"))


# ---- mask logic (facts §2.4): all 256 bits, gated ----
@pytest.mark.parametrize("op,model", [("pand", np.bitwise_and), ("por", np.bitwise_or), ("pxor", np.bitwise_xor)])
def test_mask_logic_is_gated(engine, op, model):
    m = run(f"    vld p1, [d]\n    vld p2, [d + 32]\n    vld p3, [d + 64]\n    {op} p4, p1, p2, p3\n    halt\n",
            engine)
    assert np.array_equal(m.state.preg[4], model(DATA[:32], DATA[32:64]) & DATA[64:96])


def test_pnot_and_pmov(engine):
    m = run("    vld p1, [d]\n    vld p3, [d + 64]\n    pnot p4, p1, p3\n    pmov p5, p4\n    halt\n", engine)
    assert np.array_equal(m.state.preg[4], ~DATA[:32] & DATA[64:96])
    assert np.array_equal(m.state.preg[5], m.state.preg[4]) and m.state.preg_set[5] == 1


def test_mask_logic_reads_only_set_masks(engine):
    m = run_source(PROLOGUE + "    vld p1, [d]\n    pand p4, p1, p6, p1\n", engine)
    assert m.stop_name == "MASK_UNSET" and m.state.fault_args[0] == 6 and m.state.preg_set[4] == 0


# ---- stores (seed 002) ----
@pytest.mark.parametrize("t", ["u16", "s32", "f32", "u64"])
def test_vsta_pack_stores_low_halves_of_active_lanes_in_place(engine, t):
    width = np.dtype(TYPES[t]).itemsize
    lanes = 256 // width
    active = RNG.random(lanes) < 0.5
    m = run(load_mask("p1", active, width) + f"    vld v0.{t}, [d]\n    vsta.pack [out], v0.{t}, p1\n    halt\n",
            engine)
    expected = np.full(1024, 0xEE, np.uint8)
    for lane in np.flatnonzero(active):            # position-preserving: slot i of width W/2
        half = width // 2
        expected[lane * half:(lane + 1) * half] = DATA[lane * width:lane * width + half]
    assert np.array_equal(out_bytes(m), expected)


def test_vsta_pack_facts_example(engine):
    # facts §4.2 PK_B16: u16 [0x3210, 0x7654, 0xBA98, 0xFEDC] -> u16 words [0x5410, 0xDC98]
    m = run_source(""".ub w u16[128] = [0x3210, 0x7654, 0xBA98, 0xFEDC]
                      .ub o u16[2]
                          mask p0.b16, VL4
                          vld v0.u16, [w]
                          vsta.pack [o], v0.u16, p0
                          halt""", engine)
    assert list(m.program.buffers["o"].view(m.state.ub)) == [0x5410, 0xDC98]


def test_vsta_packv2_stores_low_bytes(engine):
    active = np.arange(64) % 5 != 1
    m = run(load_mask("p1", active, 4) + "    vld v0.u32, [d]\n    vsta.packv2 [out], v0.u32, p1\n    halt\n", engine)
    expected = np.full(1024, 0xEE, np.uint8)
    expected[:64][active] = DATA[:256:4][active]
    assert np.array_equal(out_bytes(m), expected)


def test_vsta_first_stores_lane_0_whatever_the_mask(engine):
    m = run("    mask p0.b32, ALLF\n    vld v0.s32, [d]\n    vsta.1st [out + 12], v0.s32\n    halt\n", engine)
    expected = np.full(1024, 0xEE, np.uint8)
    expected[12:16] = DATA[:4]
    assert np.array_equal(out_bytes(m), expected)


@pytest.mark.parametrize("t", ["u8", "f16", "s32"])
def test_vsta_intlv_interleaves_two_registers(engine, t):
    width = np.dtype(TYPES[t]).itemsize
    m = run(f"    vld v0.{t}, [d]\n    vld v1.{t}, [d + 256]\n    vsta.intlv [out], v0.{t}, v1.{t}\n    halt\n", engine)
    even, odd = DATA[:256].view(f"u{width}"), DATA[256:512].view(f"u{width}")
    expected = np.empty(2 * even.size, f"u{width}")
    expected[0::2], expected[1::2] = even, odd
    assert np.array_equal(out_bytes(m)[:512], expected.view(np.uint8)) and (out_bytes(m)[512:] == 0xEE).all()


def test_vsta_intlv_facts_example(engine):
    # facts §4.2 INTLV_B8: evens 0..254 and odds 1..255 -> 0..255 twice over 512 bytes
    m = run_source(""".ub e u8[256] = (2 * i) % 256
                      .ub o u8[256] = (2 * i + 1) % 256
                      .ub w u8[512]
                          vld v0.u8, [e]
                          vld v1.u8, [o]
                          vsta.intlv [w], v0.u8, v1.u8
                          halt""", engine)
    assert np.array_equal(m.program.buffers["w"].view(m.state.ub), np.arange(512) % 256)


@pytest.mark.parametrize("mnemonic,slot", [("vsta", 2), ("vsta.pack", 1)])
def test_store_inactive_zero_writes_zero_slots(engine, mnemonic, slot):
    active = np.arange(128) % 3 == 0
    m = run(load_mask("p1", active, 2) + f"    vld v0.u16, [d]\n    {mnemonic} [out], v0.u16, p1\n    halt\n",
            engine, store_inactive="zero")
    lanes = DATA[:256].reshape(128, 2)[:, :slot].copy()
    lanes[~active] = 0
    expected = np.full(1024, 0xEE, np.uint8)
    expected[:128 * slot] = lanes.reshape(-1)
    assert np.array_equal(out_bytes(m), expected)


def test_store_inactive_zero_touches_every_slot(engine):
    # keep: only lane 0 is written, inside the UB; zero: lane 8's slot is past the usable end
    body = ".ub tail u32[8] @ 253920\n    mask p0.b32, VL1\n    vsta [tail], v0.u32, p0\n    halt\n"
    assert run_source(body, engine).stop_name == "HALTED"
    zero = run_source(body, engine, store_inactive="zero")
    assert zero.stop_name == "UB_RANGE" and zero.state.fault_args[3] == 8


# ---- gather (facts §5 vgather2) ----
@pytest.mark.parametrize("t,u", [("u16", "u16"), ("f32", "u32")])
def test_vgat_reads_element_indices_and_zeroes_inactive_lanes(engine, t, u):
    width = np.dtype(TYPES[t]).itemsize
    lanes = 256 // width
    indices = RNG.integers(0, 1024 // width, lanes).astype(f"u{width}")
    active = RNG.random(lanes) < 0.7
    m = run(f".ub ix u8[256] = [{', '.join(map(str, indices.view(np.uint8)))}]\n" + load_mask("p1", active, width)
            + f"    vld v1.{u}, [ix]\n    vgat v0.{t}, [d], v1.{u}, p1\n    halt\n", engine)
    elements = DATA.view(f"u{width}")
    expected = np.where(active, elements[indices], 0).astype(f"u{width}")
    assert np.array_equal(m.state.vreg[0].view(f"u{width}"), expected)


@pytest.mark.parametrize("t,u,offset", [("f32", "u32", 4), ("f32", "u32", 68), ("u16", "u16", 2), ("u8", "u16", 1)])
def test_vgat_base_needs_only_element_alignment(engine, t, u, offset):
    # docs/semantics.md: a base one element past a 32-byte boundary, as a shipped depthwise kernel's
    # Gather(reg, srcAddr + offset, ...) passes, reads base + index * sizeof(T)
    width = np.dtype(TYPES[t]).itemsize
    pitch = max(width, int(u[1:]) // 8)
    lanes = 256 // pitch
    indices = RNG.integers(0, 512 // width, lanes).astype(f"u{pitch}")
    m = run(f".ub ix u8[256] = [{', '.join(map(str, indices.view(np.uint8)))}]\n"
            f"    mask p1.b{8 * pitch}, ALL\n    mov s1, d\n    add s1, s1, {offset}\n"
            f"    vld v1.{u}, [ix]\n    vgat v0.{t}, [s1], v1.{u}, p1\n    halt\n", engine)
    elements = DATA[offset:offset + 1024 - 32].view(f"u{width}") if width > 1 else DATA[offset:]
    expected = elements[indices.astype(np.int64)].astype(f"u{pitch}")
    assert np.array_equal(m.state.vreg[0].view(f"u{pitch}"), expected)


@pytest.mark.parametrize("op", ["vgat v0.f32, [s1], v1.u32, p1", "vsct [s1], v0.f32, v1.u32, p1"])
def test_gather_base_off_its_element_and_scatter_base_off_32_bytes_fault(engine, op):
    # a gather base between elements; a scatter base off 32 bytes (the Scatter page's rule stands)
    offset = 2 if op.startswith("vgat") else 4
    m = run_source(PROLOGUE + f"    mask p1.b32, VL1\n    mov s1, d\n    add s1, s1, {offset}\n"
                   f"    vgat v0.f32, [d], v1.u32, p1\n    {op}\n    halt\n", engine)
    assert m.stop_name == "MISALIGNED"
    assert f"0x{m.program.buffers['d'].addr + offset:x}" in str(m.fault())


def test_vgat_b8_zero_extends_into_16_bit_lanes(engine):
    # facts §5: gathering the byte -40 (0xD8) gives 216 in a 16-bit lane
    m = run_source(""".ub b s8[32] = [-40, 7]
                      .ub ix u16[128] = [0, 1, 0]
                          mask p0.b16, VL3
                          vld v1.u16, [ix]
                          vgat v0.s8, [b], v1.u16, p0
                          halt""", engine)
    assert list(m.state.vreg[0].view(np.uint16)[:4]) == [216, 7, 216, 0]


def test_vgat_inactive_wild_index_is_never_checked(engine):
    m = run_source(""".ub b u16[16]
                      .ub ix u16[128] = [0, 65535]
                          mask p0.b16, VL1
                          vld v1.u16, [ix]
                          vgat v0.u16, [b], v1.u16, p0
                          halt""", engine)
    assert m.stop_name == "HALTED"
