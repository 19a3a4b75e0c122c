"""The files `ascasm run` (--dump, --trace) and `draw` (-o, the debugger's draw) write, only where the user said (docs/cli.md "Output
files"): the path is used as given (no suffix added); an existing regular file is replaced only with
--force; a file the program reads (its source, its file("x.npy") inputs) is never replaced, --force
or not. Everything is checked before the program runs. The trace is capped in size."""
from __future__ import annotations

import os
from pathlib import Path


class OutputRefused(Exception):
    """An output file that must not be written; the message says why in one line."""


def check_outputs(outputs: list[Path], inputs: list[Path], force: bool, force_hint: str = "add --force") -> None:
    """Raise OutputRefused for the first output that would replace an input or an existing file
    (without `force`; the message says `force_hint` to overwrite it), is a directory, lies in a missing
    directory, or is named twice."""
    seen: set[Path] = set()
    for path in outputs:
        if path.exists():
            if any(_same_file(path, source) for source in inputs):
                raise OutputRefused(f"refusing to overwrite {path}: the program reads it")
            if path.is_dir():
                raise OutputRefused(f"cannot write {path}: it is a directory")
            if path.is_file() and not force:
                raise OutputRefused(f"{path} exists; {force_hint} to overwrite it")
            if not path.is_file():          # a device such as /dev/null: written, never replaced
                continue
        elif not path.parent.is_dir():
            raise OutputRefused(f"cannot write {path}: no directory {path.parent}")
        resolved = path.resolve()
        if resolved in seen:
            raise OutputRefused(f"{path} is named twice as an output")
        seen.add(resolved)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:                  # b is missing or unreadable: a cannot be it
        return False


class TraceLimitReached(Exception):
    pass


class CappedWriter:
    """A text stream that refuses a write that would take it past `limit` bytes, so the file ends
    with the last whole line that fits (the trace is one JSON document per line)."""

    def __init__(self, stream, limit: int):
        self.stream, self.limit = stream, limit
        self.written = self.lines = 0

    def write(self, text: str) -> int:
        size = len(text.encode("utf-8"))
        if self.written + size > self.limit:
            raise TraceLimitReached()
        self.written += size
        self.lines += text.count("\n")
        return self.stream.write(text)
