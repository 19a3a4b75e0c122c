"""The check of bytes never written (docs/semantics.md "Bytes never written"): a read of UB bytes of an
`undef` buffer (a whole kernel's queues and tensors) that nothing has written, by the active lanes of a
vector instruction whose register a vld filled from them, or by a scalar ld; at the C++ line. Both
executors (the `engine` fixture). Expected lanes and addresses are worked by hand from the kernels."""
from pathlib import Path

import numpy as np
import pytest

from ascasm.api import run
from ascasm.asm.assembler import assemble
from ascasm.vm import MachineFault

pytest.importorskip("clang.cindex")

from ascasm.cpp import harness                              # noqa: E402

UNWRITTEN = Path(__file__).parent / "kernels" / "whole" / "unwritten.cpp"
X64 = np.arange(64, dtype=np.float32)


def kernel_run(entry, engine, strict=False):
    program = harness.build(harness.translate_kernel(UNWRITTEN, entry), {"x": X64, "y": "f32[64]"}).program
    return run(program, engine=engine, strict=strict)


def test_a_tensor_read_before_any_write_is_reported_at_the_first_use_of_its_lanes(engine):
    result = kernel_run("add_one<0, 64>", engine)
    [warning] = [str(w) for w in result.warnings]
    # xLocal is the first static tensor, at UB 0: lane 0 holds its byte 0
    assert ("unwritten.cpp:11:5: warning: read of bytes never written: "
            "lane 0 holds UB byte 0x0 (offset 0 of buffer ") in warning
    assert "when line 10 (AscendC::Reg::LoadAlign(v, xAddr);) loaded it" in warning


def test_under_strict_the_read_faults_at_its_line_writing_nothing(engine):
    with pytest.raises(MachineFault) as fault:
        kernel_run("add_one<0, 64>", engine, strict=True)
    assert fault.value.kind == "UNWRITTEN" and fault.value.loc.line == 11


def test_lanes_masked_off_read_nothing(engine):
    result = kernel_run("add_one<0, 0>", engine, strict=True)        # the same reads, no lane active
    assert result.warnings == []


def test_bytes_a_data_copy_brought_in_are_written(engine):
    result = kernel_run("add_one<64, 64>", engine, strict=True)
    np.testing.assert_array_equal(result["y"], X64 + 1)


def test_a_partly_written_tile_is_fine_under_the_mask_of_its_written_lanes(engine):
    result = kernel_run("add_one<32, 32>", engine, strict=True)
    np.testing.assert_array_equal(result["y"][:32], X64[:32] + 1)


def test_a_partly_written_tile_read_by_a_full_mask_names_the_first_unwritten_lane(engine):
    [warning] = [str(w) for w in kernel_run("add_one<32, 64>", engine).warnings]
    # DataCopy brought 32 floats (128 bytes): lane 32 is the first whose bytes nothing wrote
    assert ":11:5: warning: read of bytes never written: lane 32 holds UB byte 0x80 (offset 128 of buffer" in warning


@pytest.mark.parametrize("copied, reported", [(0, True), (32, True), (64, False)])
def test_a_scalar_read_of_an_element_nothing_wrote(engine, copied, reported):
    program = harness.build(harness.translate_kernel(UNWRITTEN, f"first_value<{copied}>"),
                            {"x": X64, "y": "f32[64]"}).program
    result = run(program, engine=engine)
    warnings = [str(w) for w in result.warnings]
    if reported:        # element 40 of xLocal: UB byte 160
        [warning] = warnings
        assert ":52:5: warning: read of bytes never written: UB byte 0xa0 (offset 160 of buffer " in warning
    else:
        assert warnings == [] and result["y"][0] == 40


ASM = """\
.ub x f32[64] = undef
.ub y f32[64]
    mask p0.b32, {pattern}
{write}
    vld v0.f32, [x]
    vmov v1.f32, v0.f32, p0
{between}
    vadd v2.f32, v1.f32, v0.f32, p0
    vsta [y], v2.f32, p0
    halt
"""


def warnings_of(engine, pattern="ALL", write="", between="", strict=False):
    program = assemble(ASM.format(pattern=pattern, write=write, between=between))
    return [str(w).splitlines()[0] for w in run(program, engine=engine, strict=strict).warnings]


def test_assembly_buffers_are_zero_and_written_unless_undef(engine):
    program = assemble(ASM.replace(" = undef", "").format(pattern="ALL", write="", between=""))
    assert run(program, engine=engine, strict=True).warnings == []


def test_the_first_use_reports_and_its_result_is_written(engine):
    # vmov reads v0's 64 lanes first: lane 0; vadd then reads v1 (written by vmov) and v0 again
    assert warnings_of(engine) == [
        "<input>:6:5: warning: read of bytes never written: lane 0 holds UB byte 0x0 (offset 0 of buffer x), "
        "which nothing had written when line 5 (vld v0.f32, [x]) loaded it",
        "<input>:8:5: warning: read of bytes never written: lane 0 holds UB byte 0x0 (offset 0 of buffer x), "
        "which nothing had written when line 5 (vld v0.f32, [x]) loaded it"]


def test_a_store_then_a_membar_writes_the_bytes(engine):
    store = "    vdup v3.f32, 2.0\n    vsta [x], v3.f32, p0\n    membar VV_ALL"
    assert warnings_of(engine, write=store) == []


def test_a_store_still_in_the_hazard_window_counts_as_written(engine):
    # the store's bytes are written at once (the hazard is another warning, at the load)
    assert all("never written" not in w for w in warnings_of(engine, write="    vdup v3.f32, 2.0\n    vsta [x], v3.f32, p0"))


def test_a_load_of_written_bytes_clears_the_register(engine):
    reload = "    vsta [x], v1.f32, p0\n    membar VV_ALL\n    vld v0.f32, [x]"
    # vmov (line 6) still reads the unwritten v0; vadd (line 11) reads v0 reloaded from bytes vsta wrote
    assert [w.split(": warning")[0] for w in warnings_of(engine, between=reload)] == ["<input>:6:5"]


def test_rows_that_write_a_register_clear_its_marks(engine):
    assert warnings_of(engine, pattern="VL8", between="    vdup v0.f32, 1.0") == [
        "<input>:6:5: warning: read of bytes never written: lane 0 holds UB byte 0x0 (offset 0 of buffer x), "
        "which nothing had written when line 5 (vld v0.f32, [x]) loaded it"]


def test_undef_is_for_ub_buffers_only():
    with pytest.raises(Exception) as error:
        assemble(".gm g f32[8] = undef\n    halt\n")
    assert "INIT undef is for .ub buffers" in str(error.value)
