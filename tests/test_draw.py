"""`ascasm draw` and the debugger's `draw`: one step as SVG. The pictures are checked as XML, and the
labels and arrows against the lane -> address mapping worked out from the program by hand; where a
headless Chromium is installed, it renders one (docs/cli.md "ascasm draw")."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli as ascasm

from ascasm import assemble_file
from ascasm.debugger import Debugger

ROOT = Path(__file__).resolve().parent.parent
SCATTER = ROOT / "programs" / "scatter.s"
SVG = "{http://www.w3.org/2000/svg}"


def drawn(tmp_path, program, step) -> ET.Element:
    out = tmp_path / f"step{step}.svg"
    result = ascasm("draw", program, "--step", step, "-o", out)
    assert result.returncode == 0, result.stderr
    return ET.parse(out).getroot()


def grid_columns(root, title_start: str) -> tuple:
    """The x of each column of cells in the grid titled `title_start`, and the y of its first row."""
    texts = list(root.iter(SVG + "text"))
    title = next(t for t in texts if (t.text or "").startswith(title_start))
    rects = [r for r in root.iter(SVG + "rect") if float(r.get("y")) > float(title.get("y"))]
    first_y = min(float(r.get("y")) for r in rects)
    xs = sorted({float(r.get("x")) for r in rects if float(r.get("y")) == first_y})
    return xs, first_y


def test_a_scatter_step_labels_each_written_cell_with_its_lane(tmp_path):
    """Step 6 of scatter.s is the first vsct: lane i (i = 0, 4, ..., 124 under M4) stores to
    output[3i mod 128]. An arrow from lane i would cross the rows of lanes below it, so each UB cell
    written carries the label [i] instead, and no line is drawn; the other cells carry none."""
    root = drawn(tmp_path, SCATTER, 6)
    assert not list(root.iter(SVG + "line"))
    marks = cell_marks(root, "UB, u16 elements: output")
    expected = [None] * 128
    for i in range(0, 128, 4):
        expected[3 * i % 128] = f"[{i}]"
    assert marks == expected
    assert cell_marks(root, "v0.u16") == [None] * 128
    titles = [t.text for t in root.iter(SVG + "text") if t.text]
    assert "p0.b16 (before): 32 of 128 lanes active" in titles
    assert titles[0] == "step 6, line 13: loop:   vsct     [s1], v0.u16, v1.u16, p0"
    bar = [r for r in root.iter(SVG + "rect") if r.get("height") == "10"]
    assert len(bar) == 128 and sum(r.get("fill") == "#3b7dd8" for r in bar) == 32


def test_the_header_describes_this_instruction_at_its_types(tmp_path):
    """The u16 scatter's header binds the row's type letters (T = u16 data, U = u16 indices) and
    leaves out the summary's clauses about other types (b8 data, b64 data with u32 indices)."""
    header = [t.text for t in drawn(tmp_path, SCATTER, 6).iter(SVG + "text")][1]
    assert header == ("vsct [base], vS.T, vI.U, pM with T = u16, U = u16: scatter: for each active lane i, "
                      "base + vI[i]*W <- vS[i] (indices in elements)")


def test_a_shift_header_keeps_the_clause_of_its_signedness(tmp_path):
    """vshrs on s16 lanes: the row's "unsigned T: logical" clause is dropped, "signed T: arithmetic"
    kept (the shift is arithmetic: -8 >> 1 = -4)."""
    program = tmp_path / "shift.s"
    program.write_text(".ub x s16[128] = -8\n.ub y s16[128]\n        mask p0.b16, ALL\n"
                       "        vld v0.s16, [x]\n        vshrs v1.s16, v0.s16, 1, p0\n        halt\n")
    root = drawn(tmp_path, program, 3)
    header = [t.text for t in root.iter(SVG + "text")][1:3]
    text = " ".join(header)
    assert "signed T: arithmetic" in text and "unsigned T" not in text
    assert cell_marks(root, "v1.s16")[0] is None
    assert "-4" in [t.text for t in root.iter(SVG + "text")]


def test_the_legend_names_only_the_colours_drawn(tmp_path):
    """Step 5 of scatter.s is `mov s1, output`: no lanes, no mask, no UB, so no legend at all. The
    vsct of step 6 changes no register (no yellow) but has a mask, inactive lanes and UB cells."""
    texts = [t.text or "" for t in drawn(tmp_path, SCATTER, 5).iter(SVG + "text")]
    assert not [t for t in texts if any(c in t for c in ("yellow", "grey", "blue", "green"))]
    legend = [t.text or "" for t in drawn(tmp_path, SCATTER, 6).iter(SVG + "text")
              if "fill:#999999" in t.get("style") and "lanes" in (t.text or "")]
    assert "yellow" not in " ".join(legend)
    assert all(c in " ".join(legend) for c in ("grey:", "blue:", "green:", "red [k]: the cell holds lane k of v0.u16"))


def test_a_gather_labels_each_lane_with_its_ub_address(tmp_path):
    """The tutorial's table lookup (lesson 7): lane i of v0 is loaded from table[(5i) mod 16], at
    UB address 2 * ((5i) mod 16) (table is the first buffer, at 0)."""
    program = tmp_path / "lookup.s"
    program.write_text(".ub table u16[16] = i * i\n.ub idx u16[128] = (i * 5) % 16\n"
                       "        vld v1.u16, [idx]\n        mask p0.b16, ALL\n"
                       "        vgat v0.u16, [table], v1.u16, p0\n        halt\n")
    root = drawn(tmp_path, program, 3)
    assert cell_marks(root, "v0.u16") == [f"@{2 * (5 * i % 16):x}" for i in range(128)]
    assert not list(root.iter(SVG + "line"))


def test_every_step_of_the_bundled_programs_draws(tmp_path):
    for program in sorted((ROOT / "programs").glob("*.s"))[:4]:
        for step in (1, 2, 3, 5, 7):
            result = ascasm("draw", program, "--step", step)
            assert result.returncode in (0, 2), (program.name, step, result.stderr)
            ET.fromstring(result.stdout)                        # well-formed SVG on standard output


def test_a_step_past_the_end_is_a_usage_error():
    result = ascasm("draw", SCATTER, "--step", 19)
    assert result.returncode == 64
    assert "the program stopped after 18 steps (halted): there is no step 19" in result.stderr


def test_the_debugger_draws_the_next_step_without_moving(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    debugger = Debugger(assemble_file(SCATTER), "cy", stdin=io.StringIO("b loop\nc\ndraw here.svg\np steps\n"),
                        stdout=out)
    debugger.cmdloop()
    assert "wrote here.svg: step 6, line 13" in out.getvalue()
    assert "steps = 5" in out.getvalue()
    result = ascasm("draw", SCATTER, "--step", 6, cwd=tmp_path)
    assert (tmp_path / "here.svg").read_text() == result.stdout


def test_a_headless_browser_renders_the_scatter_picture(tmp_path):
    browser = shutil.which("chromium-headless-shell") or shutil.which("chromium")
    if browser is None:
        if os.environ.get("CI"):            # .ci/run installs it: in CI this check must not go quiet
            pytest.fail("CI without a headless Chromium: .ci/run should have installed chromium-headless-shell")
        pytest.skip("no headless Chromium installed (docs/cli.md describes the manual check)")
    svg = tmp_path / "scatter.svg"
    assert ascasm("draw", SCATTER, "--step", 6, "-o", svg).returncode == 0
    png = tmp_path / "scatter.png"
    result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={png}",
                             "--window-size=1500,660", svg.as_uri()], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 20_000


# `ascasm draw -o` follows `run --dump/--trace`'s output rules (docs/cli.md "Output files").

def test_draw_never_replaces_the_program(tmp_path):
    program = tmp_path / "prog.s"
    program.write_text(SCATTER.read_text())
    for extra in ([], ["--force"]):
        result = ascasm("draw", program, "--step", 1, "-o", program, *extra)
        assert result.returncode == 64, result.stderr
        assert f"refusing to overwrite {program}: the program reads it" in result.stderr
    assert program.read_text() == SCATTER.read_text()


def test_draw_never_replaces_a_file_input(tmp_path):
    np.save(tmp_path / "data.npy", np.arange(16, dtype=np.uint8))
    program = tmp_path / "prog.s"
    program.write_text('.ub data u8[16] = file("data.npy")\n    vld v0.u8, [data]\n    halt\n')
    before = (tmp_path / "data.npy").read_bytes()
    result = ascasm("draw", program, "--step", 1, "-o", tmp_path / "data.npy", "--force")
    assert result.returncode == 64 and "the program reads it" in result.stderr, result.stderr
    assert (tmp_path / "data.npy").read_bytes() == before


def test_draw_replaces_an_existing_file_only_with_force(tmp_path):
    target = tmp_path / "old.svg"
    target.write_text("keep me")
    result = ascasm("draw", SCATTER, "--step", 6, "-o", target)
    assert result.returncode == 64 and f"{target} exists; add --force to overwrite it" in result.stderr
    assert target.read_text() == "keep me"
    assert ascasm("draw", SCATTER, "--step", 6, "-o", target, "--force").returncode == 0
    ET.fromstring(target.read_text())


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_draw_to_a_full_disk_exits_74():
    result = ascasm("draw", SCATTER, "--step", 6, "-o", "/dev/full")
    assert result.returncode == 74, result.stderr
    assert "ascasm: error: cannot write /dev/full: No space left on device" in result.stderr


def test_the_debuggers_draw_follows_the_same_rules(tmp_path, monkeypatch):
    """The debugger's `draw` refuses the program and an existing file it did not write itself
    (`draw -f` replaces one); redrawing a file this session wrote is allowed."""
    monkeypatch.chdir(tmp_path)
    program = tmp_path / "prog.s"
    program.write_text(SCATTER.read_text())
    (tmp_path / "old.svg").write_text("keep me")
    out = io.StringIO()
    commands = "draw prog.s\ndraw old.svg\ndraw new.svg\ns\ndraw new.svg\ndraw -f old.svg\n"
    Debugger(assemble_file(program), "cy", stdin=io.StringIO(commands), stdout=out).cmdloop()
    text = out.getvalue()
    assert "draw: refusing to overwrite prog.s: the program reads it" in text
    assert "draw: old.svg exists; use draw -f old.svg to overwrite it" in text
    assert "wrote new.svg: step 1" in text and "wrote new.svg: step 2" in text
    assert "wrote old.svg: step 2" in text
    assert program.read_text() == SCATTER.read_text()
    ET.fromstring((tmp_path / "old.svg").read_text())


COMPACT = ROOT / "programs" / "compact.s"
GREY = "#e4e4e4"


def grid_cells(root, title_start: str) -> list:
    """The cell rects of the grid titled `title_start`, in lane order (up to the next grid's title)."""
    texts = [t for t in root.iter(SVG + "text") if t.get("style", "").endswith("font-weight:bold")]
    title = next(t for t in texts if (t.text or "").startswith(title_start))
    below = [float(t.get("y")) for t in texts if float(t.get("y")) > float(title.get("y"))]
    end = min(below, default=1e9)
    rects = [r for r in root.iter(SVG + "rect")
             if float(title.get("y")) < float(r.get("y")) < end and r.get("width") != r.get("height")]
    return sorted(rects, key=lambda r: (float(r.get("y")), float(r.get("x"))))


def test_a_squeeze_greys_its_source_and_labels_the_lane_moves(tmp_path):
    """compact.s step 7, the first vsqz.st: p1 keeps the lanes whose value is positive, i mod 8 in
    4..7 of the 64 f32 lanes; they move, in order, to lanes 0..31 of v1 (lane 4 -> 0, 5 -> 1, 12 -> 4),
    each destination lane labelled with its source lane. The destination is not greyed by the mask
    (its lanes are where the kept ones land); the source is. SQZN becomes 32 lanes * 4 bytes = 128."""
    root = drawn(tmp_path, COMPACT, 7)
    destination, source = grid_cells(root, "v1.f32 (after)"), grid_cells(root, "v0.f32 (before)")
    assert len(destination) == len(source) == 64
    assert not any(r.get("fill") == GREY for r in destination)
    assert [r.get("fill") == GREY for r in source] == [i % 8 < 4 for i in range(64)]
    kept = [i for i in range(64) if i % 8 >= 4]
    assert cell_marks(root, "v1.f32 (after)") == [f"[{i}]" for i in kept] + [None] * 32
    assert not list(root.iter(SVG + "line"))
    assert any("SQZN: 0 -> 128" in (t.text or "") for t in root.iter(SVG + "text"))


def test_an_unaligned_stream_store_shows_the_bytes_left_pending(tmp_path):
    """compact.s step 8, the first vstur: 128 bytes at out + 4 = 0x404; the blocks up to 0x480 are
    written, the last 4 bytes (lane 31) wait in u0 for 0x480; AR advances by SQZN to 128."""
    root = drawn(tmp_path, COMPACT, 8)
    texts = " ".join(t.text or "" for t in root.iter(SVG + "text"))
    assert "u0: 0 -> 4 bytes pending for UB 0x480" in texts
    assert "AR: 0 -> 128" in texts


def test_a_store_of_four_rows_of_lanes_is_labelled_not_arrowed(tmp_path):
    """The tutorial's lesson 2 store (vsta under M4, 128 u16 lanes in four rows): lane i goes to
    dst[i], in its own column, but the arrows from rows [0]..[64] would run under the rows below them;
    dst[i] is labelled [i] for i = 0, 4, ..., 124 instead, the other cells not at all."""
    program = tmp_path / "store.s"
    program.write_text(".ub src u16[128] = i\n.ub dst u16[128] = 0xffff\n        vld v0.u16, [src]\n"
                       "        mask p0.b16, M4\n        vsta [dst], v0.u16, p0\n        halt\n")
    root = drawn(tmp_path, program, 3)
    assert not list(root.iter(SVG + "line"))
    assert cell_marks(root, "UB, u16 elements: dst") == [f"[{i}]" if i % 4 == 0 else None for i in range(128)]


def test_one_row_of_lanes_gets_arrows_straight_down_beneath_the_cells(tmp_path):
    """32 u64 lanes are one row, stored to one UB row: lane i goes to b[i], straight down its column
    into the row facing it, crossing no cell, so each is an arrow (vertical, from lane i's centre).
    The lines are drawn before (under) every cell; each arrow's start and head on top, after them."""
    program = tmp_path / "wide.s"
    program.write_text(".ub a u64[32] = i\n.ub b u64[32]\n        vld v0.u64, [a]\n        mask p0.b64, ALL\n"
                       "        vsta [b], v0.u64, p0\n        halt\n")
    text = ascasm("draw", program, "--step", 3).stdout
    root = ET.fromstring(text)
    lines = list(root.iter(SVG + "line"))
    assert len(lines) == 32 and all(l.get("x1") == l.get("x2") for l in lines)
    cells = grid_cells(root, "v0.u64")
    centre = lambda r: float(r.get("x")) + float(r.get("width")) / 2
    assert sorted(float(l.get("x1")) for l in lines) == [centre(cells[i]) for i in range(32)]
    first_cell = text.index("<rect x=\"84")
    assert all(m < first_cell for m in _positions(text, "<line "))
    assert len(_positions(text, "<circle ")) == 32 and min(_positions(text, "<circle ")) > first_cell
    assert len(_positions(text, 'marker-end="url(#head)"')) == 32
    assert cell_marks(root, "UB, u64 elements: b") == [None] * 32


def cell_marks(root, title_start: str) -> list:
    """The small label drawn in each cell of the grid titled `title_start` (None where a cell has none)."""
    marks = {(float(t.get("x")), float(t.get("y"))): t.text for t in root.iter(SVG + "text")
             if "font-size:8px" in t.get("style")}
    cells = grid_cells(root, title_start)
    return [marks.get((float(r.get("x")) + float(r.get("width")) / 2, float(r.get("y")) + 8)) for r in cells]


def _positions(text: str, needle: str) -> list:
    out, at = [], text.find(needle)
    while at >= 0:
        out.append(at)
        at = text.find(needle, at + 1)
    return out


def test_an_interleaving_store_names_the_register_in_each_label(tmp_path):
    """store_modes.s step 6, vsta.intlv [woven], v1.u8, v2.u8: byte 2i of woven is lane i of v1 and
    byte 2i + 1 lane i of v2 (the row: addr + 2i*W <- vS0[i], addr + (2i+1)*W <- vS1[i]). With two
    source registers a bare [i] would not say which, so each label names its register."""
    root = drawn(tmp_path, ROOT / "programs" / "store_modes.s", 6)
    expected = [f"v{1 + k % 2}[{k // 2}]" for k in range(512)]
    assert cell_marks(root, "UB, u8 elements: woven") == expected
    assert any("red vN[k]: the cell holds lane k of vN" in (t.text or "") for t in root.iter(SVG + "text"))


def test_a_faulting_step_says_its_destination_was_not_written(tmp_path):
    """A vld from a + 4 is misaligned (NORM loads need 32 bytes): the step faults and writes nothing,
    so v2 is not shown as '(after)' the step but as unwritten; the picture exits 2 with the fault."""
    program = tmp_path / "fault.s"
    program.write_text(".ub a f32[64]\n        mask p0.b32, ALL\n        vld v2.f32, [a + 4]\n        halt\n")
    result = ascasm("draw", program, "--step", 2)
    assert result.returncode == 2
    texts = [t.text for t in ET.fromstring(result.stdout).iter(SVG + "text")]
    assert "fault: misaligned address 0x4: this access needs 32-byte alignment" in texts
    assert "v2.f32 (unwritten: the step faulted)" in texts and "v2.f32 (after)" not in texts


def test_a_register_named_twice_is_one_line(tmp_path):
    """Step 7 of scatter.s is `add s1, s1, 256` (s1 = output = 0 before): s1 is both the destination and
    a source, and was shown twice ('s1: 0 -> 256   s1: 0 -> 256')."""
    texts = [t.text for t in drawn(tmp_path, SCATTER, 7).iter(SVG + "text")]
    assert "s1: 0 -> 256" in texts
