"""The files a program names are read defensively (ascasm/asm/files.py): only regular files, the .npy
header checked before any data is read, never numpy's pickle path; every problem is a located error."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from ascasm import AssemblyFailed, assemble_file
from ascasm.limits import MAX_NPY_HEADER


def file_error(tmp_path, data_name: str, count: int = 8, type_name: str = "u8"):
    source = tmp_path / "p.s"
    source.write_text(f'.ub a {type_name}[{count}] = file("{data_name}")\n')
    with pytest.raises(AssemblyFailed) as failed:
        assemble_file(source)
    (error,) = failed.value.errors
    assert (error.loc.line, error.loc.col) == (1, 17 + len(type_name) + len(str(count)))   # the string
    return error.message


def npy_header(descr: str, shape: tuple) -> bytes:
    """A version 1.0 .npy header (the format numpy documents in numpy.lib.format), padded to 64 bytes."""
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}".encode("latin1")
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header


def test_npz_archive_is_named_as_such(tmp_path):
    np.savez(tmp_path / "x.npz", a=np.arange(3))
    assert file_error(tmp_path, "x.npz") == f"{tmp_path / 'x.npz'} is a .npz archive (save a single array with numpy.save)"


def test_a_file_that_is_not_npy(tmp_path):
    (tmp_path / "x.npy").write_text("1, 2, 3\n")
    assert file_error(tmp_path, "x.npy") == f"{tmp_path / 'x.npy'} is not a .npy file"


def test_a_header_announcing_a_trillion_elements_is_refused_before_reading(tmp_path):
    (tmp_path / "x.npy").write_bytes(npy_header("<f8", (10 ** 12,)) + b"\0" * 64)
    assert file_error(tmp_path, "x.npy") == f"{tmp_path / 'x.npy'} holds 1,000,000,000,000 values; the buffer holds 8"


def test_a_truncated_npy(tmp_path):
    (tmp_path / "x.npy").write_bytes(npy_header("<u2", (4,)) + b"\1\0\2\0")
    assert file_error(tmp_path, "x.npy") == (f"{tmp_path / 'x.npy'} is truncated: its header announces 8 bytes of "
                                             "data, the file holds 4")


@pytest.mark.parametrize("version, length_bytes", [(1, 2), (2, 4)])
def test_a_header_larger_than_the_limit(tmp_path, version, length_bytes):
    # ascasm's own words, not numpy's, which advise allow_pickle=True (never safe on a file one is given)
    header = b"{'descr': '<u1', 'fortran_order': False, 'shape': (4,), " + b" " * 20000 + b"}\n"
    (tmp_path / "x.npy").write_bytes(b"\x93NUMPY" + bytes([version, 0]) + len(header).to_bytes(length_bytes, "little")
                                     + header + b"\0" * 4)
    assert file_error(tmp_path, "x.npy") == (f"{tmp_path / 'x.npy'}: its .npy header is {len(header):,} bytes; "
                                             f"the limit is {MAX_NPY_HEADER:,}")


def test_a_header_claiming_gigabytes_is_refused_before_reading(tmp_path):
    (tmp_path / "x.npy").write_bytes(b"\x93NUMPY\x02\x00" + b"\xff" * 4 + b"{")
    message = file_error(tmp_path, "x.npy")
    assert message.endswith(f"its .npy header is 4,294,967,295 bytes; the limit is {MAX_NPY_HEADER:,}")


def test_pickled_objects_are_never_loaded(tmp_path):
    np.save(tmp_path / "x.npy", np.array([1, "two", 3.0], dtype=object), allow_pickle=True)
    assert file_error(tmp_path, "x.npy") == f"{tmp_path / 'x.npy'} holds object values; a buffer takes integers or floats"


def test_fortran_order_is_flattened_like_the_array(tmp_path):
    np.save(tmp_path / "x.npy", np.asfortranarray(np.arange(6, dtype=np.uint8).reshape(2, 3)))
    (tmp_path / "p.s").write_text('.ub a u8[6] = file("x.npy")\n')
    assert assemble_file(tmp_path / "p.s").buffers["a"].data.tolist() == [0, 1, 2, 3, 4, 5]


def test_a_directory_as_input(tmp_path):
    (tmp_path / "d.npy").mkdir()
    assert file_error(tmp_path, "d.npy") == f"cannot read {tmp_path / 'd.npy'}: not a regular file"


# The FIFO cases run in a child process with a timeout: opening a FIFO for reading blocks until a
# writer appears, so a regression would hang the test instead of failing it.
FIFO_CHILD = """
import sys
from ascasm import AssemblyFailed, assemble_file
try:
    assemble_file(sys.argv[1])
except AssemblyFailed as failed:
    print(failed.errors[0].message)
"""


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting(tmp_path):
    os.mkfifo(tmp_path / "data.npy")
    (tmp_path / "p.s").write_text('.ub a u8[8] = file("data.npy")\n')
    os.mkfifo(tmp_path / "source.s")
    for path, target in ((tmp_path / "p.s", tmp_path / "data.npy"), (tmp_path / "source.s", tmp_path / "source.s")):
        result = subprocess.run([sys.executable, "-c", FIFO_CHILD, str(path)], capture_output=True, text=True,
                                timeout=60, cwd=tmp_path)
        assert result.stdout.strip() == f"cannot read {target}: not a regular file", result.stderr


def test_an_npy_in_a_zip_is_not_opened_as_an_archive(tmp_path):
    with zipfile.ZipFile(tmp_path / "x.npy", "w") as archive:
        archive.writestr("a.npy", b"")
    assert "is a .npz archive" in file_error(tmp_path, "x.npy")


def raw_npy(header: bytes) -> bytes:
    """A version 1.0 .npy file whose header is `header` as given (padded so the data would be aligned)."""
    header += b" " * (63 - (10 + len(header)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header


@pytest.mark.parametrize("header", [
    b"{'descr': '<u1', 'fortran_order': False, 'shape': (4,), }(",    # Python's tokenizer: unclosed (
    b"{'descr': '<u1', 'fortran_order': False, 'shape': (" + b"-" * 4000 + b"4,), }",   # nesting
    b"{'descr': '<u1', 'fortran_order': False, 'shape': " + b"(" * 3000 + b")" * 3000 + b", }",
    b"{'descr': '<u1', 'fortran_order': False, 'shape': (4,), 'x': 1e999999, }",
])
def test_a_hostile_header_is_a_bad_header_error(tmp_path, header):
    (tmp_path / "x.npy").write_bytes(raw_npy(header) + b"\0" * 4)
    assert file_error(tmp_path, "x.npy").startswith(f"{tmp_path / 'x.npy'}: bad .npy header")


def test_a_hostile_header_through_the_api_is_an_assembly_error(tmp_path, monkeypatch):
    from ascasm import assemble
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.npy").write_bytes(raw_npy(b"{'descr': '<u1', 'fortran_order': False, 'shape': (4,), }(") + b"\0" * 4)
    with pytest.raises(AssemblyFailed, match="bad .npy header"):
        assemble('.ub a u8[8] = file("x.npy")\n', "p.s")


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="no /proc/self/mem")
def test_an_input_that_fails_while_it_is_read_is_reported_as_unreadable(tmp_path):
    # /proc/self/mem is a regular file whose read at offset 0 fails (EIO): a program or data file that
    # cannot be read is an input error, never "cannot write standard output"
    source = tmp_path / "p.s"
    source.write_text('.ub a u8[8] = file("/proc/self/mem")\n    halt\n')
    for target, where in ((source, f"{source}:1:20: error: cannot read /proc/self/mem: "),
                          (Path("/proc/self/mem"), "/proc/self/mem:1:1: error: cannot read /proc/self/mem: ")):
        result = subprocess.run([sys.executable, "-m", "ascasm", "run", str(target)], capture_output=True, text=True,
                                cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert result.stderr.startswith(where), result.stderr
        assert "standard output" not in result.stderr
