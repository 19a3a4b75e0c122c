"""Buffers as bounds (docs/semantics.md "Buffers as bounds"): a C++ kernel's pointer parameters' buffers,
and under --strict an assembly program's .ub buffers, are the only UB bytes an access may touch. An
access with a byte outside every buffer is an OUT_OF_BUFFER fault at its (C++) line that names the
nearest buffer, the offset into it and its size, and writes nothing. Addresses are worked by hand from
the placement rule: buffers in declaration order, each at the next 32-byte boundary."""
import io
import sys
from pathlib import Path

import numpy as np
import pytest

import ascasm
from ascasm import Machine, MachineFault, assemble, cli

KERNEL = Path(__file__).parent / "kernels" / "bounds.cpp"
STORE_LINE = 15                        # Reg::StoreAlign(dstAddr + i * 64, x, mask) in AddOneVF


def needs_clang():
    pytest.importorskip("clang.cindex")


def run_asm(text: str, engine: str, strict: bool):
    machine = Machine(assemble(text, "bounds.s"), engine, strict=strict)
    machine.run()
    return machine


# ------------------------------------------------------------------ C++ kernels

def test_an_output_buffer_one_element_too_small_faults_at_the_store_line(engine):
    needs_clang()
    src = np.arange(100, dtype=np.float32)
    with pytest.raises(MachineFault) as raised:
        ascasm.run_kernel(KERNEL, "AddOneVF", engine=engine, dstAddr=np.zeros(99, np.float32), srcAddr=src,
                          count=100)
    fault = raised.value
    # dst f32[99] is 396 bytes at 0 (src a 256-byte guard after 416); the second repeat's lanes 0..35
    # store at 256 + 4*lane: lane 35 at 396
    assert fault.kind == "OUT_OF_BUFFER"
    assert (Path(fault.loc.file).name, fault.loc.line, fault.loc.col) == ("bounds.cpp", STORE_LINE, 9)
    assert fault.message == ("UB access outside every buffer: 4 bytes at address 0x18c (lane 35) are offset 396 "
                             "of buffer dstAddr, which is 396 bytes (f32[99] at 0x0)")
    dst = fault.result["dstAddr"]
    assert np.array_equal(dst[:64], src[:64] + 1)
    assert not dst[64:].any(), "the faulting store wrote nothing"
    assert np.array_equal(fault.result["srcAddr"], src)


def test_a_kernel_that_writes_exactly_to_the_end_passes(engine):
    needs_clang()
    # src is exactly 100 floats too: the last repeat's LoadAlign reads a whole vector past its end,
    # which a load may (its lanes past the end are masked off)
    src = np.linspace(-3, 3, 100).astype(np.float32)
    result = ascasm.run_kernel(KERNEL, "AddOneVF", engine=engine, dstAddr=np.zeros(100, np.float32), srcAddr=src,
                               count=100)
    assert np.array_equal(result["dstAddr"], (src.astype(np.float64) + 1).astype(np.float32))


def test_an_output_that_ends_on_a_block_boundary_meets_the_guard_not_the_next_buffer(engine):
    needs_clang()
    # dst f32[64] is [0, 0x100); src starts a 256-byte guard later, at 0x200: the second repeat's 8 lanes
    # would have overwritten src[0..7]
    src = np.arange(72, dtype=np.float32)
    with pytest.raises(MachineFault) as raised:
        ascasm.run_kernel(KERNEL, "AddOneVF", engine=engine, dstAddr=np.zeros(64, np.float32), srcAddr=src,
                          count=72)
    assert raised.value.message == ("UB access outside every buffer: 4 bytes at address 0x100 (lane 0) are offset "
                                    "256 of buffer dstAddr, which is 256 bytes (f32[64] at 0x0)")
    assert np.array_equal(raised.value.result["srcAddr"], src)


def test_a_gather_lane_outside_every_buffer_names_its_lane_and_index(engine):
    needs_clang()
    index = np.arange(64, dtype=np.uint32)
    index[5] = 64             # src[64]: dst is [0, 0x100), src [0x200, 0x300), index [0x400, 0x500)
    with pytest.raises(MachineFault) as raised:
        ascasm.run_kernel(KERNEL, "GatherVF", engine=engine, dstAddr=np.zeros(64, np.float32),
                          srcAddr=np.ones(64, np.float32), indexAddr=index)
    assert raised.value.kind == "OUT_OF_BUFFER"
    assert raised.value.message == ("UB access outside every buffer: 4 bytes at address 0x300 (lane 5, index 64) "
                                    "are offset 256 of buffer srcAddr, which is 256 bytes (f32[64] at 0x200)")


def test_ascasm_run_kernel_exits_2_with_the_cpp_line(tmp_path, monkeypatch, capsys, engine):
    needs_clang()
    np.save(tmp_path / "x.npy", np.arange(100, dtype=np.float32))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    status = cli.main(["run", str(KERNEL), "--entry", "AddOneVF", "--engine", engine, "--arg", "srcAddr=x.npy",
                       "--arg", "dstAddr=f32[99]", "--arg", "count=100"])
    assert status == 2
    err = capsys.readouterr().err
    assert f"bounds.cpp:{STORE_LINE}:9: fault: UB access outside every buffer" in err
    assert "offset 396 of buffer dstAddr, which is 396 bytes" in err


# ------------------------------------------------------------------ assembly, --strict

SMALL_OUTPUT = """
.ub x f32[64] = i
.ub y f32[8]
        mask p0.b32, ALL
        vld v0.f32, [x]
        vsta [y], v0.f32, p0
        halt
"""


def test_assembly_buffers_are_bounds_only_under_strict(engine):
    # y is 32 bytes at 0x100: lane 8 of the 64-lane store is the first outside
    machine = run_asm(SMALL_OUTPUT, engine, strict=False)
    assert machine.fault() is None
    assert np.array_equal(machine.state.ub[0x100:0x200].view(np.float32), np.arange(64, dtype=np.float32))
    machine = run_asm(SMALL_OUTPUT, engine, strict=True)
    fault = machine.fault()
    assert (fault.kind, fault.loc.line) == ("OUT_OF_BUFFER", 6)
    assert fault.message == ("UB access outside every buffer (--strict): 4 bytes at address 0x120 (lane 8) are "
                             "offset 32 of buffer y, which is 32 bytes (f32[8] at 0x100)")
    assert not machine.state.ub[0x100:0x200].any(), "nothing written"


def test_without_buffers_strict_changes_nothing(engine):
    machine = run_asm("mov s0, 7\nst [0x1000], s0.u32\nmembar\nld s1.u32, [0x1000]\nhalt\n", engine, strict=True)
    assert machine.fault() is None and machine.state.sreg[1] == 7


@pytest.mark.parametrize("instruction, message", [
    ("st [b + 32], s0.u32", "4 bytes at address 0x60 are offset 32 of buffer b, which is 32 bytes (u32[8] at 0x40)"),
    ("ld s1.u32, [a - 4]", "4 bytes at address 0x1c are offset -4 of buffer a, which is 32 bytes (u32[8] at 0x20)"),
    ("vld v0.u32, [0]", "256 bytes at address 0x0 are offset -32 of buffer a, which is 32 bytes (u32[8] at 0x20)"),
])
def test_scalar_and_vector_accesses_outside_under_strict(engine, instruction, message):
    # a is [0x20, 0x40), b [0x40, 0x60) (adjacent), c [0x80, 0xa0): gaps below 0x20 and at [0x60, 0x80)
    text = f".ub a u32[8] @ 32\n.ub b u32[8] @ 64\n.ub c u32[8] @ 128\nmov s0, 1\n{instruction}\nhalt\n"
    machine = run_asm(text, engine, strict=True)
    fault = machine.fault()
    assert (fault.kind, fault.loc.line) == ("OUT_OF_BUFFER", 5)
    assert fault.message == "UB access outside every buffer (--strict): " + message


ADJACENT = """
.ub a f32[8]
.ub b f32[8]{placement}
        mask p0.b32, VL16
        vdup v0.f32, 2.5, p0
        vsta [a], v0.f32, p0
        halt
"""


def test_an_access_over_two_adjacent_buffers_is_inside(engine):
    # a is [0, 32), b [32, 64): the 16-lane store covers both, every byte inside one of them
    machine = run_asm(ADJACENT.format(placement=""), engine, strict=True)
    assert machine.fault() is None
    assert np.array_equal(machine.state.ub[:64].view(np.float32), np.full(16, 2.5, np.float32))
    # b moved to 64 leaves a gap [32, 64): lane 8 is the first outside
    machine = run_asm(ADJACENT.format(placement=" @ 64"), engine, strict=True)
    fault = machine.fault()
    assert fault.kind == "OUT_OF_BUFFER"
    assert fault.message.endswith("4 bytes at address 0x20 (lane 8) are offset 32 of buffer a, which is 32 bytes "
                                  "(f32[8] at 0x0)")
    assert not machine.state.ub[:128].any()


def test_a_whole_vector_load_may_run_past_its_buffer_but_must_start_in_one(engine):
    load_past = ".ub a f32[8]\n.ub b f32[8] @ 512\nvld v0.f32, [a]\nhalt\n"
    assert run_asm(load_past, engine, strict=True).fault() is None
    load_in_gap = ".ub a f32[8]\n.ub b f32[8] @ 512\nvld v0.f32, [a + 32]\nhalt\n"
    fault = run_asm(load_in_gap, engine, strict=True).fault()
    assert fault.kind == "OUT_OF_BUFFER"
    assert fault.message.endswith("256 bytes at address 0x20 are offset 32 of buffer a, which is 32 bytes "
                                  "(f32[8] at 0x0)")


def test_an_unaligned_load_stream_past_its_buffer_end_is_inside(engine):
    # 8 floats from x + 4: vldas holds x's first block, vldus reads [32, 260) past x's 36 bytes
    text = ".ub x f32[9] = i\nvldas q0, [x + 4]\nvldus v0.f32, q0, [x + 4]\nhalt\n"
    machine = run_asm(text, engine, strict=True)
    assert machine.fault() is None
    assert np.array_equal(machine.state.vreg[0].view(np.float32)[:8], np.arange(1, 9, dtype=np.float32))


BLOCKS_AND_LANES = """
.ub a u32[64]
.ub gap u32[8] @ 512
.ub idx u32[64] = i * {step}
        mask p0.b32, ALL
        vdup v0.u32, 9
        vld v1.u32, [idx]
        {instruction}
        halt
"""


@pytest.mark.parametrize("step, instruction, message", [
    # block k at a + 64k: blocks 4..7 are past a's 256 bytes; block 4's lane 32 is the first outside
    (1, "vsta.bs [a], v0.u32, 2, p0", "4 bytes at address 0x100 (lane 32) are offset 256 of buffer a"),
    (1, "vld.bs v2.u32, [a], 2, p0", "32 bytes at address 0x100 (lane 32) are offset 256 of buffer a"),
    # lane i at a + 8i: lane 32 at 256, past a
    (2, "vsct [a], v0.u32, v1.u32, p0", "4 bytes at address 0x100 (lane 32, index 64) are offset 256 of buffer a"),
    (2, "vgat v2.u32, [a], v1.u32, p0", "4 bytes at address 0x100 (lane 32, index 64) are offset 256 of buffer a"),
])
def test_block_strided_and_indexed_accesses_outside_under_strict(engine, step, instruction, message):
    machine = run_asm(BLOCKS_AND_LANES.format(step=step, instruction=instruction), engine, strict=True)
    fault = machine.fault()
    assert (fault.kind, fault.loc.line) == ("OUT_OF_BUFFER", 8)
    assert fault.message == ("UB access outside every buffer (--strict): " + message
                             + ", which is 256 bytes (u32[64] at 0x0)")
    assert (machine.state.ub[:256] == 0).all(), "nothing written"
