"""`ascasm run` as a user calls it: output, exit statuses of LANGUAGE.md §5, no tracebacks."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli as ascasm

ROOT = Path(__file__).resolve().parent.parent
SCATTER = ROOT / "programs" / "scatter.s"


def write(tmp_path, text, name="prog.s"):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.parametrize("engine", ["cy", "ref"])
def test_run_scatter_prints_output_and_passes_expect(engine, tmp_path):
    result = ascasm("run", SCATTER, "--engine", engine, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "output: u16[384] @ 0x0"
    # row 0 of the seed check: output[0] = input[0] = 1, output[1..3] untouched 0xffff, output[4] = i=44 -> 45
    assert lines[1].split()[2:7] == ["1", "65535", "65535", "65535", "45"]
    assert lines[-1] == "expect output: ok (384 elements)"
    assert "Traceback" not in result.stderr


def test_assembly_error_exit_1_with_position(tmp_path):
    path = write(tmp_path, "  vld v0.u16, [nowhere]\n")
    result = ascasm("run", path)
    assert result.returncode == 1
    assert f"{path}:1:16: error: unknown name 'nowhere'" in result.stderr
    assert "Traceback" not in result.stderr


def test_runtime_fault_exit_2_names_line_and_values(tmp_path):
    path = write(tmp_path, ".ub b u8[64]\n  vld v0.u8, [b + 8]\n")
    result = ascasm("run", path)
    assert result.returncode == 2
    assert f"{path}:2:3: fault: misaligned address 0x8: this access needs 32-byte alignment" in result.stderr
    assert "at step 1" in result.stderr


def test_step_limit_exit_3(tmp_path):
    path = write(tmp_path, "top: b top\n")
    result = ascasm("run", path, "--max-steps", "100")
    assert result.returncode == 3
    assert "step limit of 100 steps reached" in result.stderr


def test_expect_mismatch_exit_4_lists_elements(tmp_path):
    path = write(tmp_path, ".ub b s32[4] = [1, 2, 3, 4]\n.expect b = [1, 2, 5, 4]\n  halt\n")
    result = ascasm("run", path)
    assert result.returncode == 4
    assert "expect b: 1 of 4 elements differ" in result.stdout
    assert "b[2]: got 3, expected 5" in result.stdout


@pytest.mark.parametrize("args", [[], ["run"], ["run", "x.s", "--engine", "gpu"], ["run", "x.s", "--max-steps", "-1"],
                                  ["run", "x.s", "--ub-usable", "300K"], ["frobnicate"]])
def test_bad_usage_exit_64(args):
    result = ascasm(*args)
    assert result.returncode == 64, result.stderr
    assert "Traceback" not in result.stderr


def test_missing_file_exit_64(tmp_path):
    result = ascasm("run", tmp_path / "absent.s")
    assert result.returncode == 64
    assert "cannot read" in result.stderr


def test_dump_writes_npy(tmp_path):
    result = ascasm("run", SCATTER, "--dump", f"output={tmp_path / 'out.npy'}", "--dump", "input", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    output = np.load(tmp_path / "out.npy")
    assert output.dtype == np.uint16 and output.shape == (384,)
    assert output[0] == 1 and output[1] == 0xFFFF
    assert np.array_equal(np.load(tmp_path / "input.npy"), np.arange(1, 129, dtype=np.uint16))


def test_dump_unknown_buffer_is_usage_error():
    result = ascasm("run", SCATTER, "--dump", "nothing")
    assert result.returncode == 64
    assert "no buffer named 'nothing'" in result.stderr


def test_ub_usable_lifts_the_limit(tmp_path):
    source = ".ub top u8[32] @ 253952\n.expect top = 7\n  mov s0, 7\n  st [top + 31], s0.u8\n  halt\n"
    path = write(tmp_path, source)
    assert ascasm("run", path).returncode == 1                       # buffer beyond the default 248 KiB
    assert ascasm("run", path, "--ub-usable", "256K").returncode == 4  # fits; only byte 31 becomes 7


def test_python_dash_m_and_console_script_agree(tmp_path):
    script = Path(sys.executable).parent / "ascasm"
    if not script.exists():
        pytest.skip("console script not on this interpreter's bin path")
    result = subprocess.run([str(script), "run", str(SCATTER)], capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 0 and result.stdout == ascasm("run", SCATTER, cwd=tmp_path).stdout


def test_explain_prints_the_table_rows_of_a_mnemonic():
    result = ascasm("explain", "VSCT")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "vsct [base], vS.T, vI.U, pM"
    assert "  alignment: 32 bytes (base); element addresses" in lines
    assert any(line.startswith("  source: Reg::Scatter; asc_scatter; asc_scatter (its prototypes stop at 32 bits")
               for line in lines)


def test_explain_unknown_mnemonic_suggests_and_exits_64():
    result = ascasm("explain", "vsat")
    assert result.returncode == 64
    assert "did you mean 'vsta'" in result.stderr


def test_closed_output_pipe_exits_quietly(tmp_path):
    # about 1 MB of output against a reader that stops after one byte (like `| head -c 1`): the write
    # fails with a broken pipe, which must end the run quietly with SIGPIPE's usual status
    program = write(tmp_path, ".ub big u8[200000] = 7\n.out big\nhalt\n")
    process = subprocess.Popen([sys.executable, "-m", "ascasm", "run", "--json", program], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path)
    process.stdout.read(1)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait() == 141
    assert "Traceback" not in stderr


def test_a_trace_to_a_closed_pipe_exits_quietly_too(tmp_path):
    # `ascasm run --trace=- x.s | head` printed "error: cannot write standard output: Broken pipe" and
    # exited 74, where the report itself (above) stops quietly with 141
    program = write(tmp_path, ".ub x u8[256] = 7\nmov s0, 0\nloop: vld v0.u8, [x]\nadd s0, s0, 1\nblt s0, 2000, loop\nhalt\n")
    process = subprocess.Popen([sys.executable, "-m", "ascasm", "run", "--trace=-", program], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path)
    process.stdout.read(1)
    process.stdout.close()
    stderr = process.stderr.read().decode()
    assert process.wait() == 141
    assert stderr == ""


def test_a_json_usage_error_to_a_closed_pipe_exits_quietly(tmp_path):
    # the --json document of a usage error, written to a pipe whose reader has already gone, ended in
    # a BrokenPipeError traceback
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run([sys.executable, "-m", "ascasm", "run", "--json", "x.s", "--no-such-option"],
                                stdout=writer, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (141, "")


def test_python_dash_m_in_an_unbuilt_source_checkout(tmp_path):
    # `python -m ascasm` from the root of a clone imports the source tree, which has no compiled engine
    # and no ascasm.grammar package: it must still run (reference executor, grammar/ascasm.lark) and say why
    shutil.copytree(ROOT / "ascasm", tmp_path / "ascasm", ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    shutil.copytree(ROOT / "grammar", tmp_path / "grammar")
    shutil.copy(ROOT / "setup.py", tmp_path / "setup.py")
    result = subprocess.run([sys.executable, "-m", "ascasm", "run", SCATTER], capture_output=True, text=True,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr       # (an editable install may still map the engine in)
    assert "expect output: ok (384 elements)" in result.stdout
    assert "Traceback" not in result.stderr


def test_missing_engine_message_names_the_source_tree(tmp_path):
    from ascasm.vm import missing_engine_message
    (tmp_path / "ascasm").mkdir()
    installed = missing_engine_message(tmp_path / "ascasm", ImportError("no core"))
    assert "reinstall with `pip install .`" in installed and "no core" in installed
    (tmp_path / "setup.py").write_text("")
    checkout = missing_engine_message(tmp_path / "ascasm", ImportError("no core"))
    assert f"imported from its source tree ({tmp_path / 'ascasm'})" in checkout and "pip install -e ." in checkout


def test_version():
    from ascasm import __version__
    result = ascasm("--version")
    assert result.returncode == 0
    assert result.stdout == f"ascasm {__version__}\n"


def test_trace_before_the_program_does_not_swallow_it(tmp_path):
    result = ascasm("run", "--trace", SCATTER, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    lines = (tmp_path / "scatter.trace.jsonl").read_text().splitlines()
    assert len(lines) == 18                               # the seed loop: 5 + 3 * 4 + halt
    assert ascasm("run", f"--trace={tmp_path / 'named.jsonl'}", SCATTER, cwd=tmp_path).returncode == 0
    assert (tmp_path / "named.jsonl").read_text().splitlines() == lines


def test_trace_dash_is_standard_output(tmp_path):
    import json
    result = ascasm("run", SCATTER, "--trace=-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["step"] for r in records] == list(range(1, 19))
    assert "expect output: ok (384 elements)" in result.stderr          # the report moves out of the way
    assert not (tmp_path / "-").exists()
    clash = ascasm("run", SCATTER, "--trace=-", "--json", cwd=tmp_path)
    assert clash.returncode == 64 and "--json and --trace=-" in json.loads(clash.stdout)["usage_error"]


@pytest.mark.parametrize("command", ["run", "debug"])
def test_a_directory_is_not_a_program(tmp_path, command):
    result = ascasm(command, tmp_path)
    assert result.returncode == 64
    assert f"{tmp_path} is a directory, not a program file" in result.stderr
    assert "Traceback" not in result.stderr


def test_f16_values_print_with_the_digits_that_matter():
    # programs/reduce.s: the pairwise f16 sum of 2048, 1, 1, 1 is 2050 (a sequential one would stay 2048);
    # numpy's str() of that half prints 2.05e+03, hiding the difference
    result = ascasm("run", ROOT / "programs" / "reduce.s")
    assert result.returncode == 0
    sums = result.stdout.splitlines()[3].split()
    assert sums[2:4] == ["2050", "7"]
    assert result.stdout.splitlines()[1].split()[2:4] == ["1.14", "6.8e-06"]   # the max and its index bits


def test_explain_without_a_mnemonic_lists_every_instruction():
    from ascasm.isa import INSNS
    result = ascasm("explain")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"\d+ instructions \(\d+ forms\); `ascasm explain MNEMONIC` for one, .*", lines[0])
    for group in ("scalar and control:", "loads:", "stores:", "masks and address registers:", "reductions:",
                  "vector compute:"):
        assert group in lines
    listed = [line.split("  ")[1] if line.startswith("  ") else "" for line in lines]
    for spec in INSNS:
        assert any(text.startswith(spec.text) for text in listed), spec.text


def test_explain_mask_lists_the_patterns():
    lines = ascasm("explain", "mask").stdout.splitlines()
    patterns = lines[lines.index("patterns (PAT), for the elements of width W:") + 1:][:15]
    assert [line.split()[0] for line in patterns] == ["ALL", "VL1", "VL2", "VL3", "VL4", "VL8", "VL16", "VL32",
                                                      "VL64", "VL128", "M3", "M4", "H", "Q", "ALLF"]
    assert "  M4    the elements whose index is a multiple of 4" in patterns
    assert "  VL16  the lowest 16 elements (all of them when the width has fewer)" in patterns


def test_explain_spells_out_the_sources_it_cites():
    lines = ascasm("explain", "vsct").stdout.splitlines()
    key = lines[lines.index("sources:") + 1:]
    assert len(key) == 2 and key[0].startswith('  "asc_NAME": the public Ascend C API reference page of the ')
    assert key[1].startswith('  "Reg::NAME": the public Ascend C Reg-layer (C++) reference page of NAME')
    lines = ascasm("explain", "mask").stdout.splitlines()          # mask cites all three kinds
    assert lines[lines.index("sources:") + 1].startswith('  "asc_NAME": ')
    assert lines[lines.index("sources:") + 2].startswith('  "Reg::NAME": ')
    assert lines[lines.index("sources:") + 3].startswith('  "docs/language.md", "docs/semantics.md": ascasm\'s own')


def test_explain_finds_instructions_by_their_c_api_name():
    result = ascasm("explain", "asc_and")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "asc_and: implemented by pand, vand"
    assert "vand vD.T, vA.T, vB.T, pM" in result.stdout and "pand pD, pA, pB, pG" in result.stdout
    unknown = ascasm("explain", "asc_andd")
    assert unknown.returncode == 64 and "did you mean 'asc_and'" in unknown.stderr


def test_explain_a_conversion_page_shows_only_its_type_pair():
    """asc_float2half is the page of f16 <- f32: each vcvt row it names shows that pair alone, with the
    options the page gives it (sat, even|odd), and cites that page, not the other 30 conversions."""
    from ascasm.explain import explain_lines
    lines = explain_lines("asc_float2half")
    assert lines[0] == "asc_float2half: f16/f32 (vD.f16, vS.f32), implemented by vcvt.rint, vcvt.round, " \
                       "vcvt.floor, vcvt.ceil, vcvt.trunc, vcvt.odd"
    types = [line for line in lines if line.startswith("  types:")]
    assert types == ["  types: f16/f32"]
    assert all("asc_half2float" not in line and "asc_float2int" not in line for line in lines)
    assert "  options: sat: f16/f32; even|odd or part0..part3: f16/f32" in lines


def test_explain_a_conversion_page_shows_each_further_rounding_mode_by_its_difference():
    """The six modes of asc_float2half share every fact but the rounding: vcvt.rint is shown whole
    (without the clause about integer destinations: f16 is not one), each other mode as its rounding
    clause and a pointer to vcvt.rint, so the page fits a screen (it was 51 lines)."""
    from ascasm.explain import explain_lines
    lines = explain_lines("asc_float2half")
    assert not [line for line in lines if "to an integer" in line]
    at = lines.index("vcvt.floor vD.T, vS.U, pM, [SAT], [PART]")
    assert lines[at + 1:at + 4] == ["  vD = vS converted from U to T, rounded toward -inf", "  (the rest as vcvt.rint)", ""]
    assert len(lines) <= 32


def test_help_is_a_command_as_in_the_debugger():
    """A new user's `ascasm help` was a usage error (64, "invalid choice: 'help'"). It lists the
    commands; `help draw` gives draw's options; `help vsct` explains vsct, as the debugger's help does."""
    listing = ascasm("help")
    assert listing.returncode == 0 and listing.stderr == ""
    assert all(name in listing.stdout for name in ("run", "debug", "draw", "explain", "stats"))
    options = ascasm("help", "draw")
    assert options.returncode == 0 and "--step N" in options.stdout
    row = ascasm("help", "vsct")
    assert row.returncode == 0 and row.stdout.splitlines()[0] == "vsct [base], vS.T, vI.U, pM"
    unknown = ascasm("help", "vsctt")
    assert unknown.returncode == 64 and "did you mean 'vsct'" in unknown.stderr
