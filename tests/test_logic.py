"""vand, vor, vxor (c-api-reg/logic_compute/asc_and.md, asc_or.md, asc_xor.md): bitwise on the lanes'
bits, floats included; inactive lanes 0. Expected values worked by hand."""
import numpy as np
import pytest
from conftest import run_source

from ascasm import AssemblyFailed, assemble


@pytest.mark.parametrize("mnemonic, expected", [("vand", 0x000F), ("vor", 0x0FFF), ("vxor", 0x0FF0)])
def test_u16_lanes_bit_by_bit(engine, mnemonic, expected):
    machine = run_source(f"""
        .ub out u16[128]
            mask p0.b16, ALL
            vdup v1.u16, 0x00FF
            vdup v2.u16, 0x0F0F
            {mnemonic} v3.u16, v1.u16, v2.u16, p0
            vsta [out], v3.u16, p0
            halt
    """, engine)
    assert (machine.program.buffers["out"].view(machine.state.ub) == expected).all()


def test_floats_are_combined_as_bits_and_inactive_lanes_are_zero(engine):
    # 1.5 is 0x3FC00000, -2.0 is 0xC0000000: their or 0xFFC00000 (a NaN with the sign set), kept as is
    machine = run_source("""
        .ub out u32[64] = 7
            mask p0.b32, ALL
            mask p1.b32, VL2
            vdup v1.f32, 1.5
            vdup v2.f32, -2.0
            vor v3.f32, v1.f32, v2.f32, p1
            vsta [out], v3.f32, p0
            halt
    """, engine)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert list(out[:2]) == [0xFFC00000, 0xFFC00000] and not out[2:].any()


def test_types_on_neither_page_are_rejected():
    # asc_xor and Reg::Xor list integers only (Reg::Xor adds the 64-bit ones)
    with pytest.raises(AssemblyFailed) as failed:
        assemble("    mask p0.b32, ALL\n    vxor v0.f32, v1.f32, v2.f32, p0\n")
    assert "'vxor' does not accept f32" in str(failed.value)
    assemble("    mask p0.b64, ALL\n    vxor v0.u64, v1.u64, v2.u64, p0\n")


@pytest.mark.parametrize("line, page_list", [
    ("vxor v0.f32, v1.f32, v2.f32, p0", "accepted (asc_xor's list): s8, u8, s16, u16, s32, u32"),
    ("vor v0.bf16, v1.bf16, v2.bf16, p0", "accepted (asc_or's list): s8, u8, s16, u16, f16, s32, u32, f32"),
])
def test_each_page_has_its_own_type_list(line, page_list):
    """asc_and lists bf16 and the fp8 types, asc_or only f16/f32 among floats, asc_xor no float at all."""
    with pytest.raises(AssemblyFailed) as failed:
        assemble(f"    mask p0.b32, ALL\n    {line}\n")
    assert page_list in str(failed.value)
