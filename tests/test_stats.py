"""`ascasm stats`: dynamic instruction counts, lanes, UB traffic and the labelled cycle estimate, each
worked out by hand from the program."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_cli as ascasm

ROOT = Path(__file__).resolve().parent.parent


def test_scatter_counts_lanes_and_bytes():
    # programs/scatter.s: 2 vld + mask + 2 mov, three rounds of vsct/add/add/blt, halt = 18 steps.
    # vld u16: 128 lanes, all active; vsct u16/u16 under M4: 32 of 128 lanes, three times.
    # UB: 2 * 256 bytes read; 3 * 32 lanes * 2 bytes written.
    result = ascasm("stats", ROOT / "programs" / "scatter.s")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].endswith("scatter.s: 18 steps, halted")
    rows = {tuple(line.split()[:2]): line.split() for line in lines[3:10]}
    assert rows[("vsct", "u16/u16")][2:5] == ["3", "96", "/"] and rows[("vsct", "u16/u16")][5] == "384"
    assert rows[("vld", "u16")][2:6] == ["2", "256", "/", "256"]
    assert rows[("add", "6")] == ["add", "6"] and rows[("blt", "3")] == ["blt", "3"]
    assert "vector lanes: 352 of 640 active (55.0%)" in lines
    assert "UB: 512 bytes read, 192 bytes written" in lines
    # vld+vld dual-issue in one cycle, mask, 2 mov, 3 * 4 single, halt: 1 + 1 + 2 + 12 + 1
    assert "estimated cycles: 17 (an ESTIMATE, not a measurement)" in lines


def test_the_cycle_model(tmp_path):
    program = tmp_path / "model.s"
    program.write_text("""
.ub a u16[128]
        mask    p0.b16, ALL               ; dual issue: 1 cycle
        vld     v0.u16, [a]               ; dual issue with the mask: 0
        vadds   v1.u16, v0.u16, 1, p0     ; asc_add_scalar u16: 64 per cycle, 128 lanes: 2
        vadd    v2.u16, v1.u16, v1.u16, p0  ; dual issue: 1
        vadd    v3.u16, v2.u16, v2.u16, p0  ; with the one before: 0
        vredsum v4.u32, v3.u16, p0        ; asc_reduce_sum u16 -> u32: 64 per cycle: 2
        halt                              ; 1
""")
    result = ascasm("stats", program, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["estimated_cycles"] == 1 + 0 + 2 + 1 + 0 + 2 + 1
    assert report["steps"] == 7 and report["stop"] == "halted"
    assert report["ub_bytes_read"] == 256 and report["ub_bytes_written"] == 0
    by_name = {(r["mnemonic"], r["types"]): r for r in report["instructions"]}
    assert by_name[("vadd", "u16")]["count"] == 2
    assert by_name[("vredsum", "u32/u16")]["lanes_total"] == 128          # the source's 16-bit lanes


def test_the_cycle_model_reads_the_appendix_fields_of_every_row(tmp_path):
    # rows the dual-issue and throughput tables list beyond the first few: vln (asc_ln), vand/vor (And, Or),
    # vmov (Move) and psel (Select)
    program = tmp_path / "model.s"
    program.write_text("""
.ub a f32[64] = 1.0
        mask    p0.b32, ALL               ; dual issue: 1 cycle
        vld     v0.f32, [a]               ; dual issue with the mask: 0
        vln     v1.f32, v0.f32, p0        ; asc_ln f32: 16 per cycle, 64 lanes: 4
        vand    v2.u32, v0.u32, v0.u32, p0  ; dual issue: 1
        vor     v3.u32, v2.u32, v2.u32, p0  ; with the one before: 0
        vmov    v4.u32, v3.u32, p0        ; dual issue: 1
        psel    p1, p0, p0, p0            ; with the one before: 0
        halt                              ; 1
""")
    result = ascasm("stats", program, "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["estimated_cycles"] == 1 + 0 + 4 + 1 + 0 + 1 + 0 + 1


def test_a_fault_ends_the_statistics_with_its_status(tmp_path):
    program = tmp_path / "fault.s"
    program.write_text(".ub b u8[64]\n    mov s0, 1\n    vld v0.u8, [b + 8]\n")
    result = ascasm("stats", program)
    assert result.returncode == 2
    assert "fault: misaligned address 0x8" in result.stderr
    assert result.stdout.splitlines()[0].endswith("fault.s: 1 step, stopped by misaligned at step 2")


def test_a_first_lane_store_counts_one_active_lane(tmp_path):
    # vsta.1st stores lane 0 alone (no mask): 1 of the 128 u16 lanes, not all 128
    program = tmp_path / "first.s"
    program.write_text(".ub a u16[16]\n    vsta.1st [a], v0.u16\n    halt\n")
    result = ascasm("stats", program, "--json")
    assert result.returncode == 0, result.stderr
    row = next(r for r in json.loads(result.stdout)["instructions"] if r["mnemonic"] == "vsta.1st")
    assert (row["lanes_active"], row["lanes_total"]) == (1, 128)


# ---- --by-line: steps, lanes and instructions per source line, the translator's own marked ----

def test_by_line_on_a_cpp_kernel_marks_the_translators_own_instructions(tmp_path):
    """tests/kernels/scale_sum.cpp with count = 200: 4 blocks of 64 floats (the last of 8 active lanes).
    Per block, line 12's Muls and line 13's Adds run once under the block's mask (64 + 64 + 64 + 8 = 200
    of 256 lanes); line 29's Add under the all-true mask (256 of 256). `i * lanes` on lines 27 and 30 is
    an int product whose C++ value is wrapped to 32 bits: that wrap (a shift left and right) is the
    translator's own, the LoadAlign and StoreAlign are not."""
    import numpy as np
    pytest.importorskip("clang.cindex")
    np.save(tmp_path / "x.npy", np.zeros(256, np.float32))
    result = ascasm("stats", ROOT / "tests" / "kernels" / "scale_sum.cpp", "--by-line", "--json",
                    "--arg", "yAddr=f32[256]", "--arg", "xAddr=x.npy", "--arg", "count=200", "--arg", "scale=0.5",
                    cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    lines = {entry["line"]: entry for entry in report["lines"]}
    assert all(entry["file"].endswith("scale_sum.cpp") for entry in report["lines"])
    assert sum(entry["steps"] for entry in report["lines"]) == report["steps"]
    assert (lines[12]["steps"], lines[12]["lanes_active"], lines[12]["lanes_total"]) == (4, 200, 256)
    assert (lines[13]["lanes_active"], lines[29]["lanes_active"], lines[29]["lanes_total"]) == (200, 256, 256)
    assert lines[12]["artificial_steps"] == lines[29]["artificial_steps"] == 0
    for line, access in ((27, "vld"), (30, "vsta")):
        mix = {(i["mnemonic"], i["artificial"]): i["count"] for i in lines[line]["instructions"]}
        assert mix[("shl", True)] == mix[("shr", True)] == 4 and mix[(access, False)] == 4
        assert lines[line]["artificial_steps"] == 8
    text = ascasm("stats", ROOT / "tests" / "kernels" / "scale_sum.cpp", "--by-line", "--arg", "yAddr=f32[256]",
                  "--arg", "xAddr=x.npy", "--arg", "count=200", "--arg", "scale=0.5", cwd=tmp_path).stdout.splitlines()
    row = text.index(next(line for line in text if line.split()[:1] == ["scale_sum.cpp:27"]))
    assert text[row].split()[1:3] == ["24", "8"] and text[row].endswith("MicroAPI::LoadAlign(x, xAddr + i * lanes);")
    assert "shl* 4" in text[row + 1] and "vld.f32 4" in text[row + 1]


def test_the_artificial_directive_marks_the_next_row(tmp_path):
    program = tmp_path / "own.s"
    program.write_text("""
        mov s0, 300
.artificial
        and s0, s0, 255
        add s1, s0, 1
        halt
""")
    report = json.loads(ascasm("stats", program, "--by-line", "--json").stdout)
    lines = {entry["line"]: entry for entry in report["lines"]}
    assert lines[4]["instructions"] == [{"mnemonic": "and", "types": "", "artificial": True, "count": 1}]
    assert lines[4]["artificial_steps"] == 1 and lines[5]["artificial_steps"] == 0
    assert [entry["line"] for entry in report["lines"]] == [2, 4, 5, 6]
