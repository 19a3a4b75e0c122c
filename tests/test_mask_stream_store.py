"""The MaskReg form of Reg::StoreUnAlign: `vstus.pu [sB], uS, pS.T` appends the bit of each element of
T (one bit of every 2 for b16, of every 4 for b32) to an unaligned store stream, 16 or 8 bytes, and
advances sB by them. Expected bytes are worked by hand from the page's rule (the lowest bit of each
element's 2 or 4 mask bits, packed) and, for the C++ kernel, by numpy from the comparison it stores."""
from pathlib import Path

import numpy as np
import pytest
from conftest import run_source

import ascasm

# 32 mask bytes: the bits of element i of width W are bits i*W .. i*W+W-1
MASK_BYTES = [0x55] * 8 + [0xAA] * 8 + [0x01, 0x03, 0x10, 0x44] * 4
# b16, the even bits: (0x55, 0x55) -> 0xFF, (0xAA, 0xAA) -> 0x00, (0x01, 0x03) -> 0x11, (0x10, 0x44) -> 0xA4
PACKED_B16 = [0xFF] * 4 + [0x00] * 4 + [0x11, 0xA4] * 4
# b32, bits 0 and 4 of each byte: 0x55 -> 11, 0xAA -> 00; 0x01 0x03 0x10 0x44 -> 01 01 10 00 = 0x25
PACKED_B32 = [0xFF, 0xFF, 0x00, 0x00, 0x25, 0x25, 0x25, 0x25]


def program(etype: str, offset: int, stores: int) -> str:
    body = f"            vstus.pu [s1], u0, p0.{etype}\n" * stores
    return f"""
        .ub src u8[32] = {MASK_BYTES}
        .ub out u8[128] = 238
            vld   p0, [src]
            mov   s1, out
            add   s1, s1, {offset}
{body}            vstas [s1], u0
            halt
    """


@pytest.mark.parametrize("etype, packed, offset", [("b16", PACKED_B16, 16), ("f16", PACKED_B16, 48),
                                                   ("u32", PACKED_B32, 8), ("f32", PACKED_B32, 40)])
def test_mask_stream_store_packs_one_bit_per_element(engine, etype, packed, offset):
    machine = run_source(program(etype, offset, 3), engine)
    assert machine.fault() is None
    out_addr = machine.program.buffers["out"].addr
    out = machine.state.ub[out_addr:out_addr + 128]
    expect = np.full(128, 238, np.uint8)
    expect[offset:offset + 3 * len(packed)] = packed * 3
    assert out.tolist() == expect.tolist()
    assert machine.state.sreg[1] == out_addr + offset + 3 * len(packed)
    assert machine.state.ureg_state.tolist()[0] == [0, 0]


@pytest.mark.parametrize("etype, offset", [("b16", 8), ("u32", 4)])
def test_mask_stream_store_needs_its_alignment(engine, etype, offset):
    # b16: 16-byte aligned, b32: 8-byte aligned; the fault writes nothing and leaves sB
    machine = run_source(program(etype, offset, 1), engine)
    fault = machine.fault()
    out_addr = machine.program.buffers["out"].addr
    assert fault.kind == "MISALIGNED" and fault.step == 4
    assert (machine.state.ub[out_addr:out_addr + 128] == 238).all()
    assert machine.state.sreg[1] == out_addr + offset


def test_mask_stream_store_continues_a_stream(engine):
    # the second store must start where the pending bytes end
    machine = run_source(f"""
        .ub src u8[32] = {MASK_BYTES}
        .ub out u8[64] = 238
            vld   p0, [src]
            mov   s1, out
            vstus.pu [s1], u0, p0.b32
            add   s1, s1, 8
            vstus.pu [s1], u0, p0.b32
            halt
    """, engine)
    assert machine.fault().kind == "STREAM_BREAK"


@pytest.mark.parametrize("dtype, entry", [(np.float32, "ThresholdBitmapVF<float, uint32_t>"),
                                          (np.float16, "ThresholdBitmapVF<half, uint16_t>")])
def test_threshold_bitmap_kernel(engine, dtype, entry):
    pytest.importorskip("clang.cindex")
    lanes = 256 // np.dtype(dtype).itemsize
    chunks = 5
    x = np.random.default_rng(3).normal(size=chunks * lanes).astype(dtype)
    # 40 (f32) or 80 (f16) bytes of bitmap, then guard bytes the stream must not touch
    bits = np.full(256, 0x77, np.uint8).view(np.uint16 if dtype == np.float16 else np.uint32)
    result = ascasm.run_kernel(Path(__file__).parent / "kernels" / "threshold_bitmap.cpp", entry,
                               bitsAddr=bits, srcAddr=x, threshold=0.25, chunks=chunks, engine=engine)
    out = result["bitsAddr"].view(np.uint8)
    expect = np.packbits(x > dtype(0.25), bitorder="little")
    assert out[:expect.size].tolist() == expect.tolist()
    assert (out[expect.size:] == 0x77).all()
