"""Vector loads and stores: `vld` (NORM), `vsta` (NORM) and `vsct` (scatter), on both executors.

Sources: LANGUAGE.md §4 Loads/Stores, §7; seeds 000 asc_scatter and 001 Scatter; facts §3.2, §4.2,
§4.3, §5; docs/semantics.md "Addresses" and "Scatter". Register and mask contents that no instruction
of the table can produce (random data, random masks) are written into the machine state before it
runs; every expected UB image is computed here with numpy from the spec's rules.
"""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

from ascasm import AssemblyFailed, assemble
from ascasm.isa import dtypes
from ascasm.vm import Machine
from conftest import run_source

USABLE = 248 * 1024          # 253952
UB_SIZE = 256 * 1024
VL = 256


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

def mask_register(active: np.ndarray, width: int, rng: np.random.Generator | None = None) -> np.ndarray:
    """32 mask bytes in which bit i*W is active[i]. With `rng`, every other bit is random garbage:
    consumers of width W must read only bit i*W (facts §1.1)."""
    bits = np.zeros(256, bool) if rng is None else rng.random(256) < 0.5
    bits[::width] = active
    out = np.zeros(32, np.uint8)
    for k in np.flatnonzero(bits):
        out[k // 8] |= 1 << (k % 8)
    return out


def run_with(source: str, engine: str, *, vregs=None, pregs=None, ub_usable: int = USABLE) -> Machine:
    """Assemble and run `source` after writing vector registers {n: array} and mask registers
    {n: 32 bytes} into the fresh machine state."""
    program = assemble(textwrap.dedent(source), "test.s", ub_usable=ub_usable)
    machine = Machine(program, engine, ub_usable=ub_usable)
    for n, data in (vregs or {}).items():
        raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        assert raw.size == VL
        machine.state.vreg[n] = raw
    for n, data in (pregs or {}).items():
        machine.state.preg[n] = data
        machine.state.preg_set[n] = 1
    machine.run()
    return machine


def lane_mask(kind: str, lanes: int, rng: np.random.Generator) -> np.ndarray:
    """Which lanes are active, for the mask shapes the tests use."""
    i = np.arange(lanes)
    return {
        "all": i >= 0,
        "none": i < 0,
        "first": i == 0,
        "last": i == lanes - 1,
        "middle": i == lanes // 2 + 1,
        "even": i % 2 == 0,
        "odd": i % 2 == 1,
        "prefix": i < lanes // 3,
        "random": rng.random(lanes) < 0.5,
    }[kind]


def initial_ub(machine: Machine) -> np.ndarray:
    return machine.program.initial_state().ub


def width_of(tname: str) -> int:
    return dtypes.lookup(tname).width


MASK_KINDS = ["all", "none", "first", "last", "middle", "even", "odd", "prefix", "random"]
STORE_TYPES = ["u8", "s8", "b8", "e4m3", "e5m2", "e8m0", "hif8",
               "u16", "s16", "f16", "bf16", "b16", "half",
               "u32", "s32", "f32", "b32", "float"]
ALL_SPELLINGS = [s for t in dtypes.TYPES for s in (t.name, *t.aliases)]


# ---------------------------------------------------------------------------------------------
# vld
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("tname", ALL_SPELLINGS + ["U16", "F32", "Half"])
def test_vld_every_type_copies_256_bytes(engine, tname):
    m = run_source(f"""
        .ub pad u8[32] = 1
        .ub src u8[512] = (i * 7 + 3) % 256
        vld v9.{tname}, [src + 32]
        """, engine)
    expected = ((np.arange(32, 288) * 7 + 3) % 256).astype(np.uint8)
    np.testing.assert_array_equal(m.state.vreg[9], expected)
    assert not np.delete(m.state.vreg, 9, axis=0).any()
    assert m.stop_name == "HALTED" and m.state.steps == 1


def test_vld_address_forms(engine):
    m = run_source("""
        .ub src u8[1024] = i % 251
        mov s1, 64
        mov s2, src
        iter a3.b32, 8
        vld v0.u8, [src]
        vld v1.u8, [src + 96]
        vld v2.u8, [src + s1]
        vld v3.u8, [src + a3]
        vld v4.u8, [s2 + s1 + a3]
        """, engine)
    data = (np.arange(1024) % 251).astype(np.uint8)
    for reg, offset in enumerate([0, 96, 64, 32, 96]):
        np.testing.assert_array_equal(m.state.vreg[reg], data[offset:offset + 256])


@pytest.mark.parametrize("offset", [1, 2, 4, 8, 16, 31])
def test_vld_misaligned(engine, offset):
    m = run_source(f"""
        .ub src u8[512] = 7
        vld v2.u8, [src]
        vld v2.u8, [src + {offset}]
        """, engine)
    assert m.stop_name == "MISALIGNED"
    assert m.state.fault_args[:2] == (offset, 32)
    assert m.state.steps == 1
    assert (m.state.vreg[2] == 7).all()


def test_vld_misaligned_through_address_register(engine):
    m = run_source(".ub src u8[512]\niter a0.b16, 8\nvld v0.u8, [src + a0]", engine)
    assert m.stop_name == "MISALIGNED" and m.state.fault_args[:2] == (16, 32)


def test_vld_last_usable_256_bytes(engine):
    m = run_source(f"""
        .ub tail u8[256] = 255 - i @ {USABLE - 256}
        vld v1.u8, [tail]
        """, engine)
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.vreg[1], np.arange(255, -1, -1, dtype=np.int64).astype(np.uint8))


def test_vld_past_the_usable_end(engine):
    m = run_source(f"vld v1.u8, [{USABLE - 224}]", engine)       # aligned; its last 32 bytes are out
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (USABLE - 224, 256, USABLE, -1, -1)
    assert not m.state.vreg.any()


def test_vld_one_byte_past_the_usable_end(engine):
    m = run_source(f"vld v1.u8, [{USABLE - 256}]", engine, ub_usable=USABLE - 1)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (USABLE - 256, 256, USABLE - 1, -1, -1)


def test_vld_negative_address(engine):
    m = run_source("mov s0, -256\nvld v0.u8, [s0]", engine)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (-256, 256, USABLE, -1, -1)


def test_vld_end_of_ub_when_usable_is_lifted(engine):
    m = run_source(f".ub tail u8[256] = i @ {UB_SIZE - 256}\nvld v31.u8, [tail]", engine, ub_usable=UB_SIZE)
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.vreg[31], np.arange(256, dtype=np.uint8))


# ---------------------------------------------------------------------------------------------
# vsta NORM
# ---------------------------------------------------------------------------------------------

def expected_norm_store(dst: np.ndarray, src: np.ndarray, active: np.ndarray, width: int) -> np.ndarray:
    out = dst.copy()
    for lane in np.flatnonzero(active):
        out[lane * width:(lane + 1) * width] = src[lane * width:(lane + 1) * width]
    return out


@pytest.mark.parametrize("kind", MASK_KINDS)
@pytest.mark.parametrize("tname", STORE_TYPES)
def test_vsta_norm_masks(engine, tname, kind):
    rng = np.random.default_rng([STORE_TYPES.index(tname), MASK_KINDS.index(kind)])
    w = width_of(tname)
    src = rng.integers(0, 256, VL, dtype=np.uint8)       # raw bits, NaN patterns included: stores move bits
    fill = rng.integers(0, 256, VL, dtype=np.uint8)
    active = lane_mask(kind, VL // w, rng)
    m = run_with(f"""
        .ub pad u8[64]
        .ub d u8[256] = {fill.tolist()}
        .ub after u8[32] = 0xC3
        vsta [d], v4.{tname}, p6
        halt
        """, engine, vregs={4: src}, pregs={6: mask_register(active, w, rng)})
    assert m.stop_name == "HALTED" and m.state.steps == 2
    expected_ub = initial_ub(m)
    expected_ub[64:320] = expected_norm_store(fill, src, active, w)
    np.testing.assert_array_equal(m.state.ub, expected_ub)


@pytest.mark.parametrize("tname, pattern, active_lanes", [
    ("u16", "ALL", range(128)),
    ("f16", "ALLF", []),
    ("bf16", "VL1", [0]),
    ("f32", "M4", range(0, 64, 4)),
    ("s8", "H", range(128)),
    ("e4m3", "M3", range(0, 256, 3)),
    ("hif8", "VL16", range(16)),
    ("s32", "Q", range(16)),
])
def test_vsta_norm_with_mask_instructions(engine, tname, pattern, active_lanes):
    w = width_of(tname)
    m = run_source(f"""
        .ub src u8[256] = (i * 13 + 5) % 256
        .ub d u8[256] = 0x77
        vld v0.{tname}, [src]
        mask p1.b{8 * w}, {pattern}
        vsta [d], v0.{tname}, p1
        """, engine)
    active = np.zeros(VL // w, bool)
    active[list(active_lanes)] = True
    src = ((np.arange(256) * 13 + 5) % 256).astype(np.uint8)
    expected = expected_norm_store(np.full(256, 0x77, np.uint8), src, active, w)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


def test_vsta_norm_typed_values_round_trip(engine):
    # f16 values through a prefix mask from mask.upd: the first 100 elements are stored
    m = run_source("""
        .ub src f16[128] = 0.5 * i - 3
        .ub d f16[128] = -1
        mov s0, 100
        vld v0.f16, [src]
        mask.upd p0.b16, s0
        vsta [d], v0.f16, p0
        """, engine)
    d = m.program.buffers["d"].view(m.state.ub)
    expected = np.full(128, -1, np.float16)
    expected[:100] = 0.5 * np.arange(100) - 3
    np.testing.assert_array_equal(d, expected)


@pytest.mark.parametrize("address, offset", [
    ("[d]", 0),
    ("[d + 64]", 64),
    ("[d + s1]", 96),
    ("[d + a0]", 32),
    ("[s2 + s3 + a0]", 96),
    ("[d + s1 + a0 + 32]", 160),
    ("[d + 0x40 + 0x20]", 96),
])
def test_vsta_address_forms(engine, address, offset):
    m = run_source(f"""
        .ub src u16[128] = i + 1
        .ub d u8[1024]
        mov s1, 96
        mov s2, d
        mov s3, 64
        iter a0.b16, 16
        vld v0.u16, [src]
        mask p0.b16, ALL
        vsta {address}, v0.u16, p0
        """, engine)
    expected = np.zeros(1024, np.uint8)
    expected[offset:offset + 256] = np.arange(1, 129, dtype=np.uint16).view(np.uint8)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


@pytest.mark.parametrize("pattern", ["ALL", "ALLF"])
@pytest.mark.parametrize("offset", [2, 16])
def test_vsta_misaligned_writes_nothing(engine, offset, pattern):
    m = run_source(f"""
        .ub d u8[512] = 0x3C
        mask p0.b16, {pattern}
        vsta [d + {offset}], v0.u16, p0
        """, engine)
    assert m.stop_name == "MISALIGNED"
    assert m.state.fault_args[:2] == (offset, 32)
    assert m.state.steps == 1
    np.testing.assert_array_equal(m.state.ub, initial_ub(m))


@pytest.mark.parametrize("tname, first_out", [("u8", 128), ("u16", 64), ("u32", 32)])
def test_vsta_active_lanes_crossing_the_usable_end(engine, tname, first_out):
    # the store starts 128 bytes before the end: lane 128/W is the first out-of-range lane
    w = width_of(tname)
    base = USABLE - 128
    m = run_source(f"""
        .ub src u8[256] = i
        .ub tail u8[128] = 0x99 @ {base}
        vld v0.u8, [src]
        mask p0.b{8 * w}, ALL
        vsta [{base}], v0.{tname}, p0
        """, engine)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (USABLE, w, USABLE, first_out, -1)
    np.testing.assert_array_equal(m.state.ub, initial_ub(m))


def test_vsta_out_of_range_lane_reported_is_the_first_active_one(engine):
    # lanes 0..9 and 70.. active (b16): lane 70 is the first active lane past the end
    base = USABLE - 128
    active = (np.arange(128) < 10) | (np.arange(128) >= 70)
    m = run_with(f".ub tail u8[128] = 0x99 @ {base}\nvsta [{base}], v0.u16, p0", engine,
                 pregs={0: mask_register(active, 2)})
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (base + 140, 2, USABLE, 70, -1)
    np.testing.assert_array_equal(m.state.ub, initial_ub(m))


def test_vsta_inactive_lanes_past_the_end_are_not_checked(engine):
    # only the active lanes are touched (docs/semantics.md): a 64-lane prefix ends exactly at the limit
    base = USABLE - 128
    m = run_source(f"""
        .ub src u16[128] = 1000 + i
        vld v0.u16, [src]
        mask p0.b16, VL64
        vsta [{base}], v0.u16, p0
        """, engine)
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.ub[base:USABLE].view(np.uint16), 1000 + np.arange(64))


@pytest.mark.parametrize("base", [-256, UB_SIZE, 1 << 40, -(1 << 40)])
def test_vsta_inactive_lanes_far_outside_the_ub_after_a_write(engine, base):
    # Found by the fuzzer (a segfault): with bytes written since the membar, the hazard scan read the
    # dirty bits of every block of the region, also those outside the UB that no active lane touches.
    # The region here lies wholly outside the UB and only inactive lanes are there: nothing to check.
    m = run_source(f"""
        vdup v0.u32, 7
        mask p0.b32, ALL
        vsta [0], v0.u32, p0
        mov s1, {base}
        mask.upd p1.b32, s0
        vsta [s1], v0.u32, p1
        """, engine, ub_usable=UB_SIZE)
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.ub[:256].view(np.uint32), np.full(64, 7))
    assert not m.state.ub[256:].any()
    assert not m.state.hazard_warn[:, 0].any()


def test_vsta_negative_base_with_active_lanes_inside_after_a_write(engine):
    # the same hole as above, nearer: lanes 0..31 (below 0) inactive, the hazard scan read ub_dirty[-4..-3]
    active = np.arange(64) >= 32
    src = np.arange(64, dtype=np.uint32) * 3
    m = run_with("mov s1, -128\nst [512], s1.u8\nvsta [s1], v0.u32, p0", engine, vregs={0: src},
                 pregs={0: mask_register(active, 4)})
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.ub[:128].view(np.uint32), src[32:])
    assert m.state.ub[512] == 0x80 and not m.state.hazard_warn[:, 0].any()


def test_vsta_negative_base_with_active_lanes_inside(engine):
    # base -64 is aligned; b32 lanes 16.. land at 0.. and lanes 0..15 are inactive
    active = np.arange(64) >= 16
    src = np.arange(64, dtype=np.uint32) * 3
    m = run_with("mov s1, -64\nvsta [s1], v0.u32, p0", engine, vregs={0: src},
                 pregs={0: mask_register(active, 4)})
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.ub[:192].view(np.uint32), src[16:])
    assert not m.state.ub[192:].any()


def test_vsta_negative_base_with_an_active_lane_below_zero(engine):
    m = run_source("mov s1, -64\nmask p0.b32, ALL\nvsta [s1], v0.u32, p0", engine)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (-64, 4, USABLE, 0, -1)
    assert not m.state.ub.any()


def test_vsta_last_ub_bytes_when_usable_is_lifted(engine):
    rng = np.random.default_rng(5)
    src = rng.integers(0, 256, VL, dtype=np.uint8)
    m = run_with(f"mask p0.b32, ALL\nvsta [{UB_SIZE - 256}], v0.f32, p0", engine, vregs={0: src},
                 ub_usable=UB_SIZE)
    assert m.stop_name == "HALTED"
    np.testing.assert_array_equal(m.state.ub[UB_SIZE - 256:], src)


def test_vsta_past_the_default_usable_end(engine):
    m = run_source(f"mask p0.b8, VL1\nvsta [{USABLE}], v0.u8, p0", engine)
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (USABLE, 1, USABLE, 0, -1)


@pytest.mark.parametrize("tname", ["u64", "s64", "b64"])
def test_64_bit_stores_are_norm_and_pack_only(tname):
    # Reg::StoreAlign: b64 data takes DIST_NORM and DIST_PACK_B64 only (the FIRST store is b8/b16/b32)
    assemble(f".ub d u8[256]\nmask p0.b64, ALL\nvsta [d], v0.{tname}, p0\nvsta.pack [d], v0.{tname}, p0", "t.s")
    with pytest.raises(AssemblyFailed):
        assemble(f".ub d u8[256]\nvsta.1st [d], v0.{tname}", "t.s")


# ---------------------------------------------------------------------------------------------
# vsct scatter
# ---------------------------------------------------------------------------------------------

SEED_SOURCE = """
    .ub output  u16[384] = 0xffff
    .ub input   u16[128] = i + 1
    .ub indices u16[128] = (i * 3) % 128
    .out output

            vld      v0.u16, [input]
            vld      v1.u16, [indices]
            mask     p0.b16, M4
            mov      s0, 0
            mov      s1, output
    loop:   vsct     [s1], v0.u16, v1.u16, p0
            add      s1, s1, 256
            add      s0, s0, 1
            blt      s0, 3, loop
            halt
    """


def test_vsct_seed_host_check(engine):
    m = run_source(SEED_SOURCE, engine)
    assert m.stop_name == "HALTED"
    assert m.state.steps == 5 + 3 * 4 + 1
    output = m.program.buffers["output"].view(m.state.ub)
    # the seed's host program: output[r*128 + indices[i]] = input[i] if i % 4 == 0 else 0xffff
    inputs = np.arange(128) + 1
    indices = (np.arange(128) * 3) % 128
    for r in range(3):
        for i in range(128):
            assert output[r * 128 + indices[i]] == (inputs[i] if i % 4 == 0 else 0xFFFF)
    # and the whole image, built forwards
    expected = np.full(384, 0xFFFF, np.uint16)
    for r in range(3):
        expected[r * 128 + indices[::4]] = inputs[::4]
    np.testing.assert_array_equal(output, expected)


def scatter_expected(dst: np.ndarray, src: np.ndarray, idx: np.ndarray, active: np.ndarray) -> np.ndarray:
    """dst[idx[i]] = src[i] for active i, lanes in order (the highest duplicate lane remains)."""
    out = dst.copy()
    for lane in np.flatnonzero(active):
        out[idx[lane]] = src[lane]
    return out


B16_DATA = ["s16", "u16", "f16", "bf16", "b16", "half", "bfloat16", "int16"]
B32_DATA = ["s32", "u32", "f32", "b32", "float", "int32", "uint32"]


@pytest.mark.parametrize("kind", MASK_KINDS)
@pytest.mark.parametrize("tname", B16_DATA + B32_DATA)
def test_vsct_random_permutation(engine, tname, kind):
    rng = np.random.default_rng([MASK_KINDS.index(kind), (B16_DATA + B32_DATA).index(tname), 1])
    w = width_of(tname)
    lanes, raw = VL // w, np.dtype(f"u{w}")
    slots = 3 * lanes                                       # the destination holds 3 registers' worth
    src = rng.integers(0, 1 << (8 * w), lanes, dtype=np.uint64).astype(raw)  # raw bits, NaNs included
    idx = rng.permutation(slots)[:lanes].astype(raw)
    fill = rng.integers(0, 1 << (8 * w), slots, dtype=np.uint64).astype(raw)
    active = lane_mask(kind, lanes, rng)
    index_type = "u16" if w == 2 else "u32"
    m = run_with(f"""
        .ub pad u8[96]
        .ub d u{8 * w}[{slots}] = {fill.tolist()}
        .ub after u8[64] = 0x81
        vsct [d], v3.{tname}, v7.{index_type}, p2
        halt
        """, engine, vregs={3: src, 7: idx}, pregs={2: mask_register(active, w, rng)})
    assert m.stop_name == "HALTED" and m.state.steps == 2
    expected_ub = initial_ub(m)
    d = m.program.buffers["d"]
    expected_ub[d.addr:d.addr + d.nbytes] = scatter_expected(fill, src, idx, active).view(np.uint8)
    np.testing.assert_array_equal(m.state.ub, expected_ub)


def test_vsct_reversed_copy(engine):
    # facts §5 (reg_store_scatter example): 128 halfs, indices 127..0 -> a reversed copy
    m = run_source("""
        .ub src f16[128] = 0.25 * i - 7
        .ub idx u16[128] = 127 - i
        .ub dst f16[128]
        vld v0.f16, [src]
        vld v1.u16, [idx]
        mask p0.b16, ALL
        vsct [dst], v0.f16, v1.u16, p0
        """, engine)
    expected = (0.25 * np.arange(128) - 7).astype(np.float16)[::-1]
    np.testing.assert_array_equal(m.program.buffers["dst"].view(m.state.ub), expected)


@pytest.mark.parametrize("tname, itype, w", [("u32", "u32", 4), ("u16", "u16", 2), ("f32", "u32", 4)])
def test_vsct_index_units_are_elements(engine, tname, itype, w):
    # lane 0, index 1: the element lands at base + W, not base + 1
    m = run_source(f"""
        .ub src u8[256] = (0xA0 + i) % 256
        .ub idx {itype}[{VL // w}] = 1
        .ub d u8[64] = 0xEE
        vld v0.u8, [src]
        vld v1.{itype}, [idx]
        mask p0.b{8 * w}, VL1
        vsct [d], v0.{tname}, v1.{itype}, p0
        """, engine)
    expected = np.full(64, 0xEE, np.uint8)
    expected[w:2 * w] = 0xA0 + np.arange(w)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


@pytest.mark.parametrize("w", [2, 4])
def test_vsct_duplicate_indices_highest_lane_wins(engine, w):
    lanes = VL // w
    m = run_source(f"""
        .ub src u{8 * w}[{lanes}] = i + 100
        .ub idx u{8 * w}[{lanes}] = 5
        .ub d u{8 * w}[16] = 7
        vld v0.u{8 * w}, [src]
        vld v1.u{8 * w}, [idx]
        mask p0.b{8 * w}, ALL
        vsct [d], v0.u{8 * w}, v1.u{8 * w}, p0
        """, engine)
    expected = np.full(16, 7)
    expected[5] = lanes - 1 + 100
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


def test_vsct_duplicate_indices_among_active_lanes_only(engine):
    # lanes 0, 2, 3 all name element 5; lane 3 is inactive, so lane 2's value remains
    src = np.arange(128, dtype=np.uint16) + 1000
    idx = np.arange(128, dtype=np.uint16) + 10
    idx[[0, 2, 3]] = 5
    active = np.ones(128, bool)
    active[3] = False
    m = run_with(".ub d u16[256] = 1\nvsct [d], v0.u16, v1.u16, p0", engine,
                 vregs={0: src, 1: idx}, pregs={0: mask_register(active, 2)})
    d = m.program.buffers["d"].view(m.state.ub)
    assert d[5] == 1002
    np.testing.assert_array_equal(d, scatter_expected(np.ones(256, np.uint16), src, idx, active))


@pytest.mark.parametrize("w", [2, 4])
def test_vsct_inactive_lane_with_wild_index_is_not_checked(engine, w):
    lanes, raw = VL // w, np.dtype(f"u{w}")
    src = np.arange(lanes, dtype=raw) + 1
    idx = np.arange(lanes, dtype=raw)[::-1].copy()
    idx[1] = np.iinfo(raw).max                      # far outside the UB
    idx[lanes - 1] = np.iinfo(raw).max
    active = np.ones(lanes, bool)
    active[[1, lanes - 1]] = False
    m = run_with(f".ub d u{8 * w}[{lanes}] = 9\nvsct [d], v0.u{8 * w}, v1.u{8 * w}, p0", engine,
                 vregs={0: src, 1: idx}, pregs={0: mask_register(active, w)})
    assert m.stop_name == "HALTED"
    expected = scatter_expected(np.full(lanes, 9, raw), src, idx, active)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


def test_vsct_b16_out_of_range_lane_writes_nothing(engine):
    # base 122912: index 65519 reaches 253950 (in range), index 65520 reaches 253952 (out)
    base = 122912
    idx = np.full(128, 65535, np.uint16)
    idx[:5] = [0, 1, 2, 3, 65519]
    idx[5] = 65520
    m = run_with(f"""
        .ub near u16[16] = 0x1234 @ {base}
        .ub far u16[16] = 0x5678 @ {USABLE - 32}
        mask p0.b16, ALL
        vsct [near], v0.u16, v1.u16, p0
        """, engine, vregs={0: np.arange(128, dtype=np.uint16), 1: idx})
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (base + 2 * 65520, 2, USABLE, 5, 65520)
    assert m.state.steps == 1
    np.testing.assert_array_equal(m.state.ub, initial_ub(m))


def test_vsct_b32_huge_index_fault_args(engine):
    idx = np.arange(64, dtype=np.uint32)
    idx[3] = 0xFFFFFFFF
    m = run_with(".ub pad u8[64]\n.ub d u32[64] = 3\nmask p0.b32, ALL\nvsct [d], v0.u32, v1.u32, p0",
                 engine, vregs={0: np.arange(64, dtype=np.uint32), 1: idx})
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (64 + 4 * 0xFFFFFFFF, 4, USABLE, 3, 0xFFFFFFFF)
    np.testing.assert_array_equal(m.state.ub, initial_ub(m))


def test_vsct_last_usable_element(engine):
    # base 122880 + 2 * 65535 = 253950: the last two usable bytes
    active = np.zeros(128, bool)
    active[7] = True
    idx = np.zeros(128, np.uint16)
    idx[7] = 65535
    m = run_with("vsct [122880], v0.u16, v1.u16, p0", engine,
                 vregs={0: np.arange(128, dtype=np.uint16) + 0x4100, 1: idx}, pregs={0: mask_register(active, 2)})
    assert m.stop_name == "HALTED"
    assert m.state.ub[USABLE - 2:USABLE].tolist() == [0x07, 0x41]
    assert m.state.ub.sum() == 0x07 + 0x41


def test_vsct_end_of_ub_when_usable_is_lifted(engine):
    idx = np.full(128, 65535, np.uint16)
    m = run_with("mask p0.b16, VL1\nvsct [131072], v0.u16, v1.u16, p0", engine,
                 vregs={0: np.full(128, 0xBEEF, np.uint16), 1: idx}, ub_usable=UB_SIZE)
    assert m.stop_name == "HALTED"
    assert m.state.ub[UB_SIZE - 2:].view(np.uint16)[0] == 0xBEEF


@pytest.mark.parametrize("address, fault_addr", [("[d + 2]", 2), ("[d + 16]", 16), ("[s1]", 100)])
def test_vsct_misaligned_base(engine, address, fault_addr):
    m = run_source(f"""
        .ub d u16[128] = 4
        mov s1, 100
        mask p0.b16, ALL
        vsct {address}, v0.u16, v1.u16, p0
        """, engine)
    assert m.stop_name == "MISALIGNED"
    assert m.state.fault_args[:2] == (fault_addr, 32)
    np.testing.assert_array_equal(m.state.ub, initial_ub(m))


def test_vsct_base_outside_the_ub(engine):
    # the base itself need not lie in the UB (docs/semantics.md): -64 + 16 * 4 = 0
    idx = np.full(64, 16, np.uint32)
    m = run_with("mov s1, -64\nmask p0.b32, VL1\nvsct [s1], v0.u32, v1.u32, p0", engine,
                 vregs={0: np.full(64, 0x01020304, np.uint32), 1: idx})
    assert m.stop_name == "HALTED"
    assert m.state.ub[:4].tolist() == [4, 3, 2, 1] and not m.state.ub[4:].any()


def test_vsct_address_forms(engine):
    # [s1 + s2 + a0]: base = d + 32 + 64, index 2 of b32 -> d + 104
    m = run_source("""
        .ub src u32[64] = 0xABCD0000 + i
        .ub idx u32[64] = 2
        .ub d u8[256]
        mov s1, d
        mov s2, 32
        iter a0.b32, 16
        vld v0.u32, [src]
        vld v1.u32, [idx]
        mask p0.b32, VL1
        vsct [s1 + s2 + a0], v0.u32, v1.u32, p0
        """, engine)
    d = m.program.buffers["d"].view(m.state.ub)
    expected = np.zeros(256, np.uint8)
    expected[104:108] = np.array([0xABCD0000], np.uint32).view(np.uint8)
    np.testing.assert_array_equal(d, expected)


@pytest.mark.parametrize("data, index", [
    ("f16", "u32"), ("f32", "u16"), ("u16", "u32"), ("u32", "u16"), ("s16", "s16"), ("f16", "f16"),
    ("s32", "s32"), ("u16", "u8"), ("b32", "u64"),
])
def test_vsct_unlisted_type_pairs_are_assembly_errors(data, index):
    with pytest.raises(AssemblyFailed) as failure:
        assemble(f".ub d u8[512]\nmask p0.b16, ALL\nvsct [d], v0.{data}, v1.{index}, p0", "t.s")
    assert failure.value.errors[0].loc.line == 3


@pytest.mark.parametrize("tname", ["s8", "u8", "b8"])
def test_vsct_b8_data_stores_even_source_bytes(engine, tname):
    # LANGUAGE.md §4, seed 001: b8 -> 128 requests with u16 indices and a b16 mask; request i stores
    # source byte 2i (odd bytes ignored) at base + idx[i]
    rng = np.random.default_rng(8)
    src = rng.integers(0, 256, VL, dtype=np.uint8)
    idx = rng.permutation(512)[:128].astype(np.uint16)
    active = rng.random(128) < 0.6
    m = run_with(f".ub d u8[512] = 0x42\nvsct [d], v0.{tname}, v1.u16, p0", engine,
                 vregs={0: src, 1: idx}, pregs={0: mask_register(active, 2, rng)})
    assert m.stop_name == "HALTED"
    expected = scatter_expected(np.full(512, 0x42, np.uint8), src[::2], idx, active)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


def test_vsct_b8_out_of_range_reports_the_byte_access(engine):
    # b8 requests are one byte wide: base 253920 + index 32 = 253952 is the first byte out
    idx = np.arange(128, dtype=np.uint16)
    m = run_with(f"mask p0.b16, ALL\nvsct [{USABLE - 32}], v0.u8, v1.u16, p0", engine,
                 vregs={0: np.zeros(VL, np.uint8), 1: idx})
    assert m.stop_name == "UB_RANGE"
    assert m.state.fault_args == (USABLE, 1, USABLE, 32, 32)
    assert not m.state.ub.any()


@pytest.mark.parametrize("tname", ["s64", "u64", "b64"])
@pytest.mark.parametrize("itype", ["u32", "u64"])
def test_vsct_b64_data(engine, tname, itype):
    # docs/semantics.md: b64 data rides in 64-bit lanes (32 lanes, mask read at b64); with u32 indices
    # the index register's lanes 0-31 are used, with u64 indices its 32 lanes
    rng = np.random.default_rng(64)
    src = rng.integers(0, 1 << 63, 32, dtype=np.uint64) * 2 + 1
    order = rng.permutation(96)[:32]
    idx_dtype = np.dtype(np.uint32 if itype == "u32" else np.uint64)
    idx = np.zeros(VL // idx_dtype.itemsize, idx_dtype)
    idx[:32] = order
    if itype == "u32":
        idx[32:] = 0xFFFFFFFF                       # lanes 32-63 of a u32 index register are not used
    active = rng.random(32) < 0.6
    m = run_with(f".ub d u64[96] = 5\nvsct [d], v0.{tname}, v1.{itype}, p0", engine,
                 vregs={0: src, 1: idx}, pregs={0: mask_register(active, 8, rng)})
    assert m.stop_name == "HALTED"
    expected = scatter_expected(np.full(96, 5, np.uint64), src, order, active)
    np.testing.assert_array_equal(m.program.buffers["d"].view(m.state.ub), expected)


def test_vsct_duplicate_record_in_the_state(engine):
    # docs/semantics.md: per instruction, how many executions stored duplicates and the first case
    # (earlier lane, later lane, address); lanes 4 and 9 both name element 5 of d
    idx = np.arange(128, dtype=np.uint16) + 16
    idx[[4, 9]] = 5
    m = run_with("""
        .ub pad u8[32]
        .ub d u16[256]
        mask p0.b16, ALL
        mov s0, 0
        loop: vsct [d], v0.u16, v1.u16, p0
        add s0, s0, 1
        blt s0, 2, loop
        """, engine, vregs={0: np.arange(128, dtype=np.uint16), 1: idx})
    assert m.stop_name == "HALTED"
    assert m.state.dup_warn[2].tolist() == [2, 4, 9, 32 + 2 * 5]
    assert not np.delete(m.state.dup_warn, 2, axis=0).any()
    assert m.program.buffers["d"].view(m.state.ub)[5] == 9


# ---------------------------------------------------------------------------------------------
# regressions found by tests/test_random_programs.py (other load rows)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("tname", ["u8", "s16", "u16", "f16", "bf16", "b16"])
def test_vld_ds_keeps_every_other_element(engine, tname):
    # facts §3.2 DS_B8/DS_B16: 512 bytes, lane i = element 2i
    w = width_of(tname)
    m = run_source(f".ub d u8[512] = (i * 5 + 1) % 256\nvld.ds v3.{tname}, [d]", engine)
    data = ((np.arange(512) * 5 + 1) % 256).astype(np.uint8)
    np.testing.assert_array_equal(m.state.vreg[3], data.reshape(-1, 2, w)[:, 0].reshape(-1))


@pytest.mark.parametrize("tname", ["u8", "u16", "f16", "s32", "f32", "b32"])
def test_vld_dintlv_splits_even_and_odd_elements(engine, tname):
    # facts §3.2 DINTLV_B8/B16/B32: 512 bytes, even elements -> vD0, odd elements -> vD1
    w = width_of(tname)
    m = run_source(f".ub d u8[512] = (i * 5 + 1) % 256\nvld.dintlv v3.{tname}, v4.{tname}, [d]", engine)
    pairs = ((np.arange(512) * 5 + 1) % 256).astype(np.uint8).reshape(-1, 2, w)
    np.testing.assert_array_equal(m.state.vreg[3], pairs[:, 0].reshape(-1))
    np.testing.assert_array_equal(m.state.vreg[4], pairs[:, 1].reshape(-1))
