"""vpack.lo/.hi (c-api-reg data_compress asc_pack_to_low/high.md) and the mask-register ppack/punpack
(the same pages' and asc_unpack.md's vector_bool forms) on both executors. Expected values from numpy
indexing written here, and by hand."""
from __future__ import annotations

import numpy as np
import pytest
from conftest import run_source


@pytest.mark.parametrize("dest,source", [("u8", "u16"), ("u16", "u32")])
def test_vpack_halves(engine, dest, source):
    w = {"u16": 2, "u32": 4}[source]
    n = 256 // w
    values = (np.arange(n, dtype=np.uint64) * 0x01010101 + 0x0300) % (1 << (8 * w))
    m = run_source(f"""
        .ub a {source}[{n}] = [{', '.join(map(str, values.tolist()))}]
            vld v0.{source}, [a]
            vpack.lo v1.{dest}, v0.{source}
            vpack.hi v2.{dest}, v0.{source}
            vpack.hi v0.{dest}, v0.{source}
    """, engine)
    low = (values % (1 << (4 * w))).tolist()          # the low half of each lane's bits
    zeros = [0] * n
    bits = f"u{w // 2}"
    assert m.state.vreg[1].view(bits).tolist() == low + zeros
    assert m.state.vreg[2].view(bits).tolist() == zeros + low
    assert m.state.vreg[0].view(bits).tolist() == zeros + low


def mask_of(bits):
    return np.packbits(np.asarray(bits, np.uint8), bitorder="little")


def test_mask_pack_and_unpack(engine):
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 2, 256).astype(bool)
    raw = mask_of(bits)
    m = run_source(f"""
        .ub raw u8[32] = [{', '.join(map(str, raw.tolist()))}]
            vld p1, [raw]
            ppack.lo p2, p1
            ppack.hi p3, p1
            punpack.lo p4, p1
            punpack.hi p5, p1
            ppack.lo p1, p1
    """, engine)
    got = [np.unpackbits(m.state.preg[p], bitorder="little").astype(bool).tolist() for p in range(6)]
    zeros = [False] * 128
    assert got[2] == bits[0::2].tolist() + zeros
    assert got[3] == zeros + bits[0::2].tolist()
    spread_low, spread_high = np.zeros(256, bool), np.zeros(256, bool)
    spread_low[0::2], spread_high[0::2] = bits[:128], bits[128:]
    assert got[4] == spread_low.tolist() and got[5] == spread_high.tolist()
    assert got[1] == got[2]                                  # in place


def test_mask_pack_by_hand(engine):
    # b16 mask of lanes 0..3 (bits 0, 2, 4, 6) packs to bits 0..3; unpacked back it is the b16 mask again
    m = run_source("""
        mask p0.b16, VL4
        ppack.lo p1, p0
        punpack.lo p2, p1
    """, engine)
    assert m.state.preg[1][0] == 0x0F and not m.state.preg[1][1:].any()
    assert m.state.preg[2].tolist() == m.state.preg[0].tolist()


def test_pack_of_unset_mask_faults(engine):
    assert run_source("ppack.lo p1, p3", engine).stop_name == "MASK_UNSET"


def random_masks(seed):
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 2, 256).astype(bool) for _ in range(3)]


def load_masks(masks):
    return "".join(f".ub m{k} u8[32] = [{', '.join(map(str, mask_of(b).tolist()))}]\n" for k, b in enumerate(masks)) \
        + "".join(f"vld p{k + 1}, [m{k}]\n" for k in range(len(masks)))


def test_psel(engine):
    a, b, s = random_masks(7)
    m = run_source(load_masks([a, b, s]) + "psel p4, p1, p2, p3\npsel p1, p1, p2, p3\n", engine)
    expected = np.where(s, a, b).tolist()
    for p in (4, 1):
        assert np.unpackbits(m.state.preg[p], bitorder="little").astype(bool).tolist() == expected


@pytest.mark.parametrize("width", [1, 2, 4])
def test_mask_interleave_and_back(engine, width):
    a, b, _ = random_masks(width)
    m = run_source(load_masks([a, b]) + f"pintlv p3.b{8 * width}, p4, p1, p2\n"
                   f"pdintlv p5.b{8 * width}, p6, p3, p4\n", engine)
    got = [np.unpackbits(m.state.preg[p], bitorder="little").astype(bool) for p in range(7)]
    ga, gb = a.reshape(-1, width), b.reshape(-1, width)
    both = np.empty((2 * len(ga), width), bool)               # A0 B0 A1 B1 ... in W-bit groups
    both[0::2], both[1::2] = ga, gb
    both = both.reshape(-1)
    assert got[3].tolist() == both[:256].tolist() and got[4].tolist() == both[256:].tolist()
    assert got[5].tolist() == a.tolist() and got[6].tolist() == b.tolist()   # deinterleave undoes it


def test_mask_interleave_by_hand(engine):
    # b16 groups of 2 bits: pA all ones, pB all zeros -> 1100 1100 ... in both halves: bytes 0x33
    m = run_source("mask p1.b8, ALL\nmask p2.b8, ALLF\npintlv p3.b16, p4, p1, p2\n", engine)
    assert m.state.preg[3].tolist() == [0x33] * 32 and m.state.preg[4].tolist() == [0x33] * 32
