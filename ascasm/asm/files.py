"""Reading the files a program names, the source and its file("x.npy") inputs, without trusting them:
only regular files (a FIFO would block the assembler forever), sizes checked before anything is
allocated, and a .npy read by its header alone: never numpy's pickle path."""
from __future__ import annotations

import math
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from tokenize import TokenError

import numpy as np

from ..limits import MAX_NPY_HEADER

_NPY_MAGIC = b"\x93NUMPY"
_HEADER_READERS = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
_ZIP_MAGIC = b"PK\x03\x04"


class InputFileError(Exception):
    """A file that cannot be used, with a one-line reason."""


@contextmanager
def _open_regular(path: Path):
    """`path` opened for binary reading if it is a regular file. O_NONBLOCK: opening a FIFO must not
    wait for a writer; the type is checked on the opened file, so it cannot change in between."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        raise InputFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise InputFileError(f"cannot read {path}: not a regular file")
    with os.fdopen(fd, "rb") as file:
        try:
            yield file
        except OSError as exc:          # a read that fails (EIO: /proc/self/mem, a failing disk)
            raise InputFileError(f"cannot read {path}: {exc.strerror or exc}") from None


def read_regular_file(path: Path, limit: int) -> bytes:
    """The contents of a regular file of at most `limit` bytes."""
    with _open_regular(path) as file:
        size = os.fstat(file.fileno()).st_size
        data = file.read(limit + 1)
    if max(size, len(data)) > limit:
        raise InputFileError(f"{path} is {max(size, len(data)):,} bytes; the limit is {limit:,}")
    return data


def load_npy(path: Path, max_count: int, raw_as: np.dtype | None = None) -> np.ndarray:
    """The values of a .npy file holding at most `max_count` integers or floats, flattened in C
    order. The header is checked against `max_count` and the file's size before any data is read.
    An array of ml_dtypes' bf16 or fp8 types is saved as raw bytes ('<V2', '|V1'): such a file is
    read as `raw_as` when its elements have that width."""
    with _open_regular(path) as file:
        magic = file.read(len(_NPY_MAGIC))
        if magic != _NPY_MAGIC:
            kind = "a .npz archive (save a single array with numpy.save)" if magic.startswith(_ZIP_MAGIC) \
                else "not a .npy file"
            raise InputFileError(f"{path} is {kind}")
        file.seek(0)
        try:
            version = np.lib.format.read_magic(file)
            read_header = _HEADER_READERS.get(version)
            if read_header is None:
                raise InputFileError(f"{path}: .npy format version {version[0]}.{version[1]} is not supported")
            # the header's length first, in ascasm's words: numpy's refusal advises allow_pickle=True
            length_field = file.read(2 if version == (1, 0) else 4)
            header_size = int.from_bytes(length_field, "little")
            if header_size > MAX_NPY_HEADER:
                raise InputFileError(f"{path}: its .npy header is {header_size:,} bytes; the limit is "
                                     f"{MAX_NPY_HEADER:,}")
            file.seek(-len(length_field), os.SEEK_CUR)
            shape, fortran_order, dtype = read_header(file, max_header_size=MAX_NPY_HEADER)
        except (ValueError, SyntaxError, TokenError, RecursionError) as exc:
            # numpy parses the header as a Python literal (ast.literal_eval, then the tokenizer for
            # old headers): hostile text ends in their errors, a deep nesting in RecursionError
            why = exc.msg if isinstance(exc, SyntaxError) else str(exc) if isinstance(exc, ValueError) and \
                " object at 0x" not in str(exc) else "not a Python literal of the .npy header's form"
            raise InputFileError(f"{path}: bad .npy header: {why}") from None
        if raw_as is not None and dtype.kind == "V" and dtype.names is None and dtype.itemsize == raw_as.itemsize:
            dtype = np.dtype(raw_as)
        elif dtype.hasobject or dtype.kind not in "biuf":
            raise InputFileError(f"{path} holds {dtype} values; a buffer takes integers or floats")
        if any(type(n) is not int or n < 0 for n in shape):     # numpy lets (True,) through
            raise InputFileError(f"{path}: bad .npy header: shape {shape}")
        count = math.prod(shape)
        if count > max_count:
            raise InputFileError(f"{path} holds {count:,} values; the buffer holds {max_count:,}")
        nbytes = count * dtype.itemsize
        data = file.read(nbytes)
    if len(data) != nbytes:
        raise InputFileError(f"{path} is truncated: its header announces {nbytes:,} bytes of data, "
                             f"the file holds {len(data):,}")
    values = np.frombuffer(data, dtype).reshape(shape, order="F" if fortran_order else "C")
    return values.reshape(-1).copy()
