"""`ascasm run` writes only the files the user named, refuses what it must not replace, bounds the
trace, and turns every bad input or failing output into a clear message with its exit status
(docs/cli.md "Output files", "Limits", "Exit statuses"), never a traceback."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli as ascasm

from ascasm.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
SCATTER = ROOT / "programs" / "scatter.s"
LOOP = ".ub out u8[32]\n    mov s0, 0\ntop: add s0, s0, 1\n    blt s0, 1000, top\n    halt\n"


def write(tmp_path, text, name="prog.s"):
    path = tmp_path / name
    path.write_text(text)
    return path


def assert_clean(result, status, message):
    assert result.returncode == status, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_dump_to_a_missing_directory(tmp_path):
    target = tmp_path / "missing" / "o.npy"
    result = ascasm("run", SCATTER, "--dump", f"output={target}")
    assert_clean(result, 64, f"ascasm: error: cannot write {target}: no directory {target.parent}")


@pytest.mark.parametrize("where, message", [
    ("directory", "it is a directory"),
    ("missing/t.jsonl", "no directory"),
])
def test_trace_to_a_directory_or_a_missing_folder(tmp_path, where, message):
    (tmp_path / "directory").mkdir()
    result = ascasm("run", SCATTER, f"--trace={tmp_path / where}")
    assert_clean(result, 64, message)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
@pytest.mark.parametrize("option", ["--trace=/dev/full", "--dump=output=/dev/full"])
def test_a_full_disk_while_writing_an_output(option, tmp_path):
    result = ascasm("run", SCATTER, option)
    assert_clean(result, 74, "ascasm: error: cannot write /dev/full: No space left on device")
    assert not Path("/dev/full.npy").exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full")
def test_standard_output_on_a_full_disk():
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "ascasm", "run", str(SCATTER)], stdout=full,
                                stderr=subprocess.PIPE, text=True, cwd="/")
    assert_clean(result, 74, "ascasm: error: cannot write standard output: No space left on device")
    assert "Exception ignored" not in result.stderr


def test_standard_output_closed():
    result = subprocess.run(f'"{sys.executable}" -m ascasm run "{SCATTER}" >&-', shell=True, stderr=subprocess.PIPE,
                            text=True, cwd="/")
    assert_clean(result, 74, "ascasm: error: standard output is closed")


@pytest.mark.parametrize("command", ["run", "debug"])
def test_max_steps_beyond_64_bits_is_a_usage_error(command):
    result = ascasm(command, SCATTER, "--max-steps", str(1 << 63))
    assert_clean(result, 64, "argument --max-steps: at most 9223372036854775807")


@pytest.mark.parametrize("option, value, message", [
    ("--max-steps", "9" * 5000, "argument --max-steps: longer than 40 characters: '999"),
    ("--ub-usable", "0x" + "f" * 5000, "argument --ub-usable: not a size: '0xfff"),
    ("--trace-limit", "9" * 5000, "argument --trace-limit: not a size: '999"),
])
def test_huge_option_values_are_short_usage_errors(option, value, message):
    # no echo of all 5,000 digits, no Python "Exceeds the limit (4300 digits)"
    result = ascasm("run", SCATTER, option, value)
    assert_clean(result, 64, message)
    assert "... (5,0" in result.stderr and len(result.stderr) < 1000


def test_max_steps_at_the_64_bit_limit_runs():
    result = ascasm("run", SCATTER, "--max-steps", str((1 << 63) - 1))
    assert result.returncode == 0, result.stderr


def test_dump_path_is_used_as_written(tmp_path):
    result = ascasm("run", SCATTER, "--dump", "output=noext", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["noext"]
    assert np.load(tmp_path / "noext").tolist()[:2] == [1, 0xFFFF]


def test_existing_files_are_replaced_only_with_force(tmp_path):
    (tmp_path / "out.npy").write_text("precious")
    result = ascasm("run", SCATTER, "--dump", "output=out.npy", cwd=tmp_path)
    assert_clean(result, 64, "ascasm: error: out.npy exists; add --force to overwrite it")
    assert (tmp_path / "out.npy").read_text() == "precious"
    assert ascasm("run", SCATTER, "--dump", "output=out.npy", "--force", cwd=tmp_path).returncode == 0
    assert np.load(tmp_path / "out.npy").shape == (384,)


def test_inputs_are_never_replaced_even_with_force(tmp_path):
    np.save(tmp_path / "data.npy", np.arange(4, dtype=np.uint8))
    source = write(tmp_path, '.ub d u8[4] = file("data.npy")\n.ub e u8[4]\n    halt\n')
    (tmp_path / "link.npy").symlink_to(tmp_path / "data.npy")
    for target in ("data.npy", "link.npy", "prog.s"):
        result = ascasm("run", source, "--dump", f"e={target}", "--force", cwd=tmp_path)
        assert_clean(result, 64, f"refusing to overwrite {target}: the program reads it")
    result = ascasm("run", source, f"--trace={source}", "--force", cwd=tmp_path)
    assert_clean(result, 64, "the program reads it")
    assert np.load(tmp_path / "data.npy").tolist() == [0, 1, 2, 3]


def test_one_output_named_twice(tmp_path):
    result = ascasm("run", SCATTER, "--dump", "output=x.npy", "--dump", "input=x.npy", cwd=tmp_path)
    assert_clean(result, 64, "x.npy is named twice as an output")


def test_the_trace_limit_stops_the_run_at_a_whole_line(tmp_path):
    source = write(tmp_path, LOOP)
    result = ascasm("run", source, "--trace=t.jsonl", "--trace-limit", "2K", "--json", cwd=tmp_path)
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    assert report["status"] == "trace_limit" and report["fault"] is None
    lines = (tmp_path / "t.jsonl").read_text().splitlines()
    assert 0 < len(lines) and (tmp_path / "t.jsonl").stat().st_size <= 2048
    assert [json.loads(line)["step"] for line in lines] == list(range(1, len(lines) + 1))
    assert report["error"] == (f"the trace reached --trace-limit (2 KiB): t.jsonl holds the first {len(lines)} "
                               "steps and the run was stopped there")


def test_dumps_are_written_when_the_trace_limit_stops_the_run(tmp_path):
    source = write(tmp_path, LOOP)
    result = ascasm("run", source, "--trace=t.jsonl", "--trace-limit", "2K", "--dump", "out=o.npy", cwd=tmp_path)
    assert result.returncode == 3
    assert np.load(tmp_path / "o.npy").shape == (32,)


def test_trace_limit_default_is_256_mib():
    assert build_parser().parse_args(["run", "x.s", "--trace="]).trace_limit == 256 * 1024 * 1024


@pytest.mark.parametrize("args, message", [
    (["run", "x.s", "--max-steps", "-1"], "ascasm run: argument --max-steps: must not be negative: -1"),
    (["run", "--json"], "ascasm run: the following arguments are required: file"),
    (["run", str(SCATTER), "--trace=-"], "ascasm run: --json and --trace=- both want standard output; give the "
                                         "trace a file"),
])
def test_usage_errors_under_json_are_json(args, message):
    result = ascasm(*args, "--json")
    assert result.returncode == 64
    report = json.loads(result.stdout)
    assert (report["status"], report["exit"], report["usage_error"], report["file"]) == ("usage_error", 64, message, None)


def test_too_many_errors_says_so(tmp_path):
    source = write(tmp_path, "    mov s0,, 1\n" * 150)
    result = ascasm("run", source)
    assert_clean(result, 1, f"{source}:100:")
    assert result.stderr.rstrip().endswith("\n100 errors; too many errors, stopped here")
    report = json.loads(ascasm("run", source, "--json").stdout)
    assert (len(report["errors"]), report["errors_truncated"]) == (100, True)
    report = json.loads(ascasm("run", write(tmp_path, "    mov s0,, 1\n"), "--json").stdout)
    assert (len(report["errors"]), report["errors_truncated"]) == (1, False)


def test_a_fifo_as_the_source(tmp_path):
    os.mkfifo(tmp_path / "prog.s")
    result = ascasm("run", tmp_path / "prog.s")
    assert_clean(result, 64, f"cannot read {tmp_path / 'prog.s'}: not a regular file")


@pytest.mark.parametrize("line", [
    "    mov s0, " + "7" * 5000,
    "    mov s0, 0x" + "f" * 5000,
    "    mov s0, 0x_",
    "    mov s0, 0b_",
    '.ub a u8[4] = file("x.npz")',
    '.ub a u8[4] = file("huge.npy")',
    ".ub a f32[4] = 1e400",
    ".ub a f32[4] = i / 0.0",
])
def test_issue_15_assembly_triggers_are_located_errors(tmp_path, line):
    np.savez(tmp_path / "x.npz", a=np.arange(3))
    header = b"{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000000,), }"
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    (tmp_path / "huge.npy").write_bytes(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header)
    source = write(tmp_path, line + "\n    halt\n")
    result = ascasm("run", source, cwd=tmp_path)
    assert_clean(result, 1, f"{source}:1:")
    assert "Warning" not in result.stderr
    assert len(result.stderr) < 1500
