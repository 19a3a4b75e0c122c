"""Runtime warnings (LANGUAGE.md §5): duplicate scatter indices and UB hazards without membar,
once per source line; --strict turns them into faults that write nothing."""
import json
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli, run_source

import ascasm
from ascasm.vm import HAZARD_NOTE, run_warnings

HAZARD_PROGRAM = """
    .ub a u16[128] = i
    .ub b u16[128]
        mask p0.b16, ALL
        vld v0.u16, [a]
        vsta [b], v0.u16, p0
        vld v1.u16, [b]
        halt
"""


def test_store_then_load_without_membar_is_a_hazard(engine):
    machine = run_source(HAZARD_PROGRAM, engine)
    assert machine.stop_name == "HALTED"
    row = 3                                                  # the vld of b
    count, writer, first, last = machine.state.hazard_warn[row]
    assert (count, writer, first, last) == (1, 2, 0x100, 0x200)  # b is 256 bytes at 0x100
    (loc, message, notes), = run_warnings(machine.program, machine.state)
    assert loc.line == 7 and "written by line 6" in message and "0x100..0x1ff" in message
    assert np.array_equal(machine.state.vreg[1], machine.state.vreg[0])   # the load still happens


def test_membar_between_store_and_load_clears_the_hazard(engine):
    machine = run_source(HAZARD_PROGRAM.replace("vld v1.u16, [b]", "membar\n        vld v1.u16, [b]"), engine)
    assert not machine.state.hazard_warn.any()


def test_hazard_counts_every_execution_but_warns_once(engine):
    machine = run_source("""
        .ub x s32[8]
            mov s0, 0
        top: st [x], s0.s32
            add s0, s0, 1
            blt s0, 5, top
            halt
    """, engine)
    count, writer, first, last = machine.state.hazard_warn[1]
    assert (count, writer, first, last) == (4, 1, 0, 4)    # iterations 2..5 rewrite step 1's bytes
    assert len(run_warnings(machine.program, machine.state)) == 1


def test_disjoint_accesses_are_no_hazard(engine):
    machine = run_source("""
        .ub a u16[256] = i
            mask p0.b16, ALL
            vld v0.u16, [a]
            vsta [a + 256], v0.u16, p0
            vld v1.u16, [a]
            halt
    """, engine)
    assert not machine.state.hazard_warn.any()


def test_strict_hazard_faults_and_writes_nothing(engine):
    machine = run_source(HAZARD_PROGRAM.replace("vld v1.u16, [b]", "vsta [b], v0.u16, p0"), engine, strict=True)
    assert machine.stop_name == "HAZARD"
    assert machine.state.fault_args[:3] == (2, 0x100, 0x200)   # every lane overlaps: all 256 bytes of b
    assert machine.state.steps == 3 and machine.state.pc == 3
    assert machine.state.ub_write_row[0x100] == 2           # still the first store's row


def test_a_hazard_spans_every_overlapping_lane_of_the_instruction(engine):
    # vsta.pack of 128 b16 lanes writes one byte per lane, 0x100..0x17f, all written by the vsta before
    machine = run_source(HAZARD_PROGRAM.replace("vld v1.u16, [b]", "vsta.pack [b], v0.u16, p0"), engine)
    assert list(machine.state.hazard_warn[3]) == [1, 2, 0x100, 0x180]
    (loc, message, notes), = run_warnings(machine.program, machine.state)
    assert "UB bytes 0x100..0x17f were written by line 6" in message


def test_a_hazard_range_covers_only_the_bytes_written_since_the_membar(engine):
    # the first vsta writes lanes 2..3 only (p1 = VL4 xor VL2: bytes 0x104..0x107 of b); the full
    # store after it overlaps just those
    machine = run_source("""
        .ub a u16[128] = i
        .ub b u16[128]
            mask p0.b16, ALL
            mask p1.b16, VL4
            mask p2.b16, VL2
            pxor p1, p1, p2, p0
            vld v0.u16, [a]
            vsta [b], v0.u16, p1
            vsta [b], v0.u16, p0
            halt
    """, engine)
    assert list(machine.state.hazard_warn[6]) == [1, 5, 0x104, 0x108]


def test_strict_duplicate_index_faults_before_writing(engine):
    machine = run_source("""
        .ub idx u16[128] = [5, 7, 5]
        .ub out u16[128] = 9
            mask p0.b16, VL3
            vld v1.u16, [idx]
            vsct [out], v0.u16, v1.u16, p0
            halt
    """, engine, strict=True)
    assert machine.stop_name == "DUP_INDEX"
    assert machine.state.fault_args[:3] == (0, 2, 0x100 + 5 * 2)
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert (out == 9).all()


def test_duplicate_warning_names_lanes_and_address(engine):
    machine = run_source("""
        .ub idx u16[128] = [5, 7, 5, 7]
        .ub out u16[128]
            mask p0.b16, VL4
            vld v1.u16, [idx]
            vsct [out], v0.u16, v1.u16, p0
            halt
    """, engine)
    assert list(machine.state.dup_warn[2]) == [1, 0, 2, 0x100 + 10]
    (loc, message, notes), = run_warnings(machine.program, machine.state)
    assert message == "duplicate active indices: lanes 0 and 2 both store to address 0x10a"


def test_json_report_lists_warnings_and_expectations(tmp_path):
    path = tmp_path / "h.s"
    path.write_text(HAZARD_PROGRAM.replace("halt", "halt\n.expect b = i") + "\n")
    result = run_cli("run", path, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["status"] == "ok" and report["steps"] == 5
    assert [(w["line"], w["col"]) for w in report["warnings"]] == [(7, 9)]
    assert report["expects"] == [{"buffer": "b", "file": str(path), "line": 9, "col": 1, "ok": True,
                                  "mismatches": 0, "first": []}]


def test_json_report_of_an_assembly_error(tmp_path):
    path = tmp_path / "e.s"
    path.write_text("    vsat [x], v0.u16, p0\n")
    result = run_cli("run", path, "--json")
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["status"] == "assembly_error"
    assert report["errors"][0]["line"] == 1 and report["errors"][0]["col"] == 5
    assert report["errors"][0]["message"] == "unknown mnemonic 'vsat'"


def test_strict_on_the_command_line_gives_exit_2(tmp_path):
    path = tmp_path / "h.s"
    path.write_text(HAZARD_PROGRAM)
    result = run_cli("run", path, "--strict", "--engine", "ref")
    assert result.returncode == 2
    assert "fault: memory hazard (--strict)" in result.stderr


def test_a_faulting_instruction_records_no_hazard(engine):
    # lane 0 touches bytes the vsta wrote (a hazard), lane 1 is past the usable UB (a fault)
    machine = run_source("""
        .ub idx u16[128] = [0, 65535]
        .ub tail u16[16] @ 253920
            mask p0.b16, VL16
            vsta [tail], v0.u16, p0
            mask p1.b16, VL2
            vld v1.u16, [idx]
            vsct [tail], v0.u16, v1.u16, p1
            halt
    """, engine, ub_usable=253952)
    assert machine.stop_name == "UB_RANGE" and machine.state.fault_args[3] == 1
    assert not machine.state.hazard_warn.any()


def test_duplicate_detection_survives_65536_scatters():
    """The engine marks each scatter's addresses with a 16-bit stamp and forgets them all when the
    stamp wraps: an address marked 65,535 scatters ago must not count as a duplicate after the wrap,
    and a real duplicate after it must still be found. (The engine only: the reference executor keeps
    no marks, and 65,536 scatters would take it minutes.)"""
    machine = run_source("""
        .ub idx u16[128] = [3, 9, 3]
        .ub out u16[128]
            mask p0.b16, VL1
            mask p1.b16, VL3
            vld v1.u16, [idx]
            vsct [out], v0.u16, v1.u16, p0      ; stamp 1 marks out[3]
            mov s0, 65534
        loop:
            vsct [out + 64], v0.u16, v1.u16, p0 ; stamps 2..65535 mark out[35]
            sub s0, s0, 1
            bgt s0, 0, loop
            vsct [out], v0.u16, v1.u16, p0      ; the stamp wraps: out[3] once, no duplicate
            vsct [out], v0.u16, v1.u16, p1      ; out[3] twice: a duplicate
            halt
    """, "cy")
    assert machine.stop_name == "HALTED"
    assert machine.state.dup_warn[8][0] == 0
    assert list(machine.state.dup_warn[9]) == [1, 0, 2, 0x100 + 6]


def test_scatter_hazard_names_the_lowest_hot_byte_and_its_writer(engine):
    """Without --strict the engine checks each vsct lane as it writes it: the hazard must still span the
    lowest to the highest byte written before the scatter, name the row that wrote the lowest, and not
    count a repeated lane's bytes, which an earlier lane of the same scatter wrote."""
    machine = run_source("""
        .ub idx u16[128] = [40, 2, 40, 9]
        .ub val u16[128] = i
        .ub out u16[128]
            st [out + 4], s0.s16            ; row 0 writes out[2]: 0x204..0x205
            st [out + 80], s0.s16           ; row 1 writes out[40]: 0x250..0x251
            mask p1.b16, VL4
            vld v1.u16, [idx]
            vld v0.u16, [val]
            vsct [out], v0.u16, v1.u16, p1
            halt
    """, engine)
    assert machine.stop_name == "HALTED"
    assert list(machine.state.hazard_warn[5]) == [1, 0, 0x204, 0x252]
    assert list(machine.state.dup_warn[5]) == [1, 0, 2, 0x250]
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert (out[2], out[9], out[40]) == (1, 3, 2)          # lane k holds k; the highest lane stays


def test_a_repeated_scatter_address_alone_is_no_hazard(engine):
    machine = run_source("""
        .ub idx u16[128] = [7, 7, 8]
        .ub out u16[128]
            mask p1.b16, VL3
            vld v1.u16, [idx]
            vsct [out], v0.u16, v1.u16, p1
            halt
    """, engine)
    assert list(machine.state.dup_warn[2]) == [1, 0, 1, 0x100 + 14]
    assert not machine.state.hazard_warn.any()


def test_a_scatter_hazard_after_clean_lanes_still_tells_repeats_apart(engine):
    """Lane 0 writes a clean element, lane 1 meets a byte an earlier instruction wrote, lane 2 repeats
    lane 0's address: the hazard is lane 1's element alone, the repeat is lanes 0 and 2."""
    machine = run_source("""
        .ub idx u16[128] = [3, 50, 3, 60]
        .ub out u16[128]
            st [out + 100], s0.s16          ; row 0 writes out[50]: 0x164..0x165
            mask p1.b16, VL4
            vld v1.u16, [idx]
            vsct [out], v0.u16, v1.u16, p1
            halt
    """, engine)
    assert list(machine.state.hazard_warn[3]) == [1, 0, 0x164, 0x166]
    assert list(machine.state.dup_warn[3]) == [1, 0, 2, 0x106]


STREAM_OVER_STORE = """
    .ub x f32[64] = i
    .ub out f32[64]
        mask p0.b32, ALL
        vld v0.f32, [x]
        vsta [out], v0.f32, p0            ; row 2 writes out: 0x100..0x1ff
        mask p1.b32, VL16
        vsqz.st v1.f32, v0.f32, p1        ; SQZN = 64 bytes
        sprclr.ar
        vstur [out], u0, v1.f32           ; row 6 commits two blocks over row 2's bytes
        halt
"""


def test_a_stream_commit_over_stored_bytes_is_a_hazard(engine):
    machine = run_source(STREAM_OVER_STORE, engine)
    assert machine.stop_name == "HALTED"
    assert list(machine.state.hazard_warn[6]) == [1, 2, 0x100, 0x140]


def test_strict_stream_commit_hazard_writes_nothing(engine):
    machine = run_source(STREAM_OVER_STORE.replace("vsta [out], v0.f32, p0", "vsta [out], v3.f32, p0"),
                         engine, strict=True)
    assert machine.stop_name == "HAZARD"
    out = machine.program.buffers["out"].view(machine.state.ub)
    assert (out == 0).all()                 # v3 is 0: the vsta's zeros, none of x's values


def test_a_mask_set_wider_than_an_instruction_reads_it_is_a_warning():
    """`mask p0.b32, ALL` sets bits 0, 4, 8, ...; an f16 vadd reads bit 2i for lane i, so only the even
    lanes are active: a warning at each reader names the width mismatch and the fix."""
    source = """\
        .ub a f16[128] = 1
            mask p0.b32, ALL
            vld v0.f16, [a]
            vadd v1.f16, v0.f16, v0.f16, p0
            vadd v2.f32, v0.f32, v0.f32, p0
            halt
    """
    machine = run_source(source, "ref")
    warnings = run_warnings(machine.program, machine.state)
    assert [(loc.line, message) for loc, message, _notes in warnings] == [
        (4, "p0 is set for 32-bit elements (line 2: mask p0.b32, ALL) but vadd reads it at 16-bit lanes: "
            "only every 2nd lane can be active")]
    assert warnings[0][2] == ["a mask is read at the lane width (bit i*2 for lane i); set it with mask p0.b16 "
                              "for these instructions"]
    assert list(machine.state.vreg[1].view(np.float16)[:4]) == [2, 0, 2, 0]     # what the warning explains


# ---------------------------------------------------------------------------------------------
# warnings that must not fire on correct page idioms
# ---------------------------------------------------------------------------------------------

CAST_WITH_A_DESTINATION_MASK = """\
    .ub a f16[128] = i * 0.75 - 40
        mask p0.b32, ALL
        vld v0.f16, [a]
        vcvt.floor v1.s32, v0.f16, p0{part}
        halt
"""


@pytest.mark.parametrize("part", ["", ", even"])
def test_a_mask_made_for_the_wider_destination_of_a_widening_cast_is_no_warning(engine, part):
    """The Cast page's half -> int32 idiom: CreateMask<int32_t> with the ZERO layout. The page reads the
    mask by the source's elements (16-bit lanes: bit 2i); a b32 pattern sets bits 4j, those of the even
    lanes, which are the ones the ZERO layout converts: every lane converted is active."""
    machine = run_source(CAST_WITH_A_DESTINATION_MASK.format(part=part), engine)
    assert run_warnings(machine.program, machine.state) == []
    a = np.arange(128, dtype=np.float64) * 0.75 - 40          # exact in f16
    assert machine.state.vreg[1].view(np.int32).tolist() == np.floor(a[0::2]).astype(np.int32).tolist()


def test_a_destination_mask_with_the_odd_layout_part_is_a_warning(engine):
    """With the odd part the cast converts the odd f16 lanes, whose bits a b32 pattern leaves clear:
    every destination lane is 0, which the warning explains."""
    machine = run_source(CAST_WITH_A_DESTINATION_MASK.format(part=", odd"), engine)
    (loc, message, notes), = run_warnings(machine.program, machine.state)
    assert (loc.line, message) == (4, "p0 is set for 32-bit elements (line 2: mask p0.b32, ALL) but vcvt.floor "
                                      "reads it at 16-bit lanes: only every 2nd lane can be active")
    assert notes[1] == "with its layout part, vcvt.floor reads the source lanes 1, 3, 5, ..."
    assert not machine.state.vreg[1].any()


# the first four u32 lanes of b (0x100..0x10f) stored, then a block access whose mask leaves them out
MASKED_BLOCK_READ = """\
    .ub a u32[64] = i
    .ub b u32[64]
    .ub offsets u32[64] = i * 32
        mask p0.b32, VL4
        vld v0.u32, [a]
        vsta [b], v0.u32, p0
        mask p1.b32, ALL
        mask p2.b32, VL{active}
        pxor p3, p2, p0, p1               ; lanes 4 .. VL-1
        vld v5.u32, [offsets]
        {reader}
        halt
"""
BLOCK_READERS = ["vld.bs v1.u32, [b], 1, p3"]


@pytest.mark.parametrize("reader", BLOCK_READERS)
def test_bytes_only_inactive_lanes_of_a_block_read_cover_are_no_hazard(engine, reader):
    """A block-strided read (vld.bs) reads a block whole when one of its lanes is active, but what its
    inactive lanes receive is not used (the pages disagree on it): only the active lanes' bytes count
    for a hazard. Lanes 4..7 of block 0 are active; the stored bytes are those of lanes 0..3."""
    machine = run_source(MASKED_BLOCK_READ.format(active=8, reader=reader), engine)
    assert machine.stop_name == "HALTED"
    assert not machine.state.hazard_warn.any()
    assert run_warnings(machine.program, machine.state) == []


@pytest.mark.parametrize("reader", BLOCK_READERS)
def test_a_block_read_hazard_spans_only_the_active_lanes_bytes(engine, reader):
    """VL4 ^ VL8 over a p0 of VL2: active lanes 2..7; the stored lanes 2 and 3 are hot, bytes 0x108..0x10f."""
    source = MASKED_BLOCK_READ.format(active=8, reader=reader).replace("pxor p3, p2, p0, p1",
                                                                       "mask p4.b32, VL2\n    pxor p3, p2, p4, p1")
    machine = run_source(source, engine)
    row = len(machine.program.insns) - 2
    assert list(machine.state.hazard_warn[row]) == [1, 2, 0x108, 0x110]


def test_a_block_gather_uses_a_selected_block_whole(engine):
    """vgatb reads block k whole when bit 4k of its mask is set and zeroes none of its lanes, so every
    stored byte of the block is hot: with b32 lane 0 alone set, the four stored lanes, 0x100..0x10f; a
    block whose bit is clear is not read (lanes 4..7 alone: no hazard)."""
    reader = "vgatb v1.u32, [b], v5.u32, p3"
    source = MASKED_BLOCK_READ.format(active=8, reader=reader).replace("pxor p3, p2, p0, p1", "mask p3.b32, VL1")
    machine = run_source(source, engine)
    assert list(machine.state.hazard_warn[len(machine.program.insns) - 2]) == [1, 2, 0x100, 0x110]
    machine = run_source(MASKED_BLOCK_READ.format(active=8, reader=reader), engine)
    assert machine.stop_name == "HALTED" and not machine.state.hazard_warn.any()


def test_a_hazard_of_one_line_in_several_instructions_is_one_warning(engine):
    """A C++ helper inlined at two calls: two instructions of one source line (.loc), each with a hazard.
    One warning at that line, counting both, naming the first's case."""
    source = """\
    .ub a u32[64] = i
    .ub b u32[128]
    .loc "k.cpp" 10 5
        mask p0.b32, VL4
        vld v0.u32, [a]
        vsta [b], v0.u32, p0
    .loc "k.cpp" 6 5
        vld v1.u32, [b]
    .loc "k.cpp" 12 5
        vsta [b + 256], v0.u32, p0
    .loc "k.cpp" 6 5
        vld v1.u32, [b + 256]
        halt
    """
    machine = run_source(source, engine)
    assert machine.state.hazard_warn[:, 0].tolist().count(1) == 2
    (loc, message, notes), = run_warnings(machine.program, machine.state)
    assert (loc.file, loc.line) == ("k.cpp", 6)
    assert message.startswith("memory hazard: UB bytes 0x100..0x10f were written by line 10 ")
    assert notes == [f"{HAZARD_NOTE} (in 2 executions of 2 instructions translated from this line)"]


CPP_IDIOMS = Path(__file__).resolve().parent / "cpp_harness" / "warning_idioms.cpp"


def test_the_cast_pages_widening_idiom_in_cpp_runs_without_a_warning(engine):
    pytest.importorskip("clang.cindex")
    x = (np.arange(256) * 0.75 - 90).astype(np.float16)
    result = ascasm.run_kernel(CPP_IDIOMS, "WidenFloor", src=x, dst=np.zeros(256, np.int32), blocks=4,
                               engine=engine)
    assert result.warnings == []
    assert result["dst"].tolist() == np.floor(x.astype(np.float64)).astype(np.int32).tolist()


def test_a_hazard_in_an_inlined_helper_is_one_warning_at_its_line(engine, capsys, monkeypatch):
    pytest.importorskip("clang.cindex")
    from ascasm import cli
    monkeypatch.chdir(CPP_IDIOMS.parent)
    assert cli.main(["run", CPP_IDIOMS.name, "--entry", "HeadTwice", "--arg", "src=u32[64]", "--arg", "dst=u32[128]",
                     "--engine", engine]) == 0
    err = capsys.readouterr().err
    assert err.count("warning:") == 1
    # dst follows src's 256 bytes and the harness's 256-byte gap between buffers: its first 16 bytes
    assert err.startswith(f"{CPP_IDIOMS.name}:24:5: warning: memory hazard: UB bytes 0x200..0x20f were written by "
                          "line 33 (Reg::StoreAlign(dst, x, head);)")
    assert "(in 2 executions of 2 instructions translated from this line)" in err
