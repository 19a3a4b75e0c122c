"""How ascasm writes numbers for people: the shortest decimal that reads back as the same value of
its type, gdb's print formats over an element's bits (/x /t /d /u /f), the 4-bit pair types as both
halves, and whole values (lanes, buffer elements, masks) and memory as rows. The debugger, the run
report, the C++ kernels' results and the pictures all print through it."""
from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .expr.tree import ExprError

if TYPE_CHECKING:
    from .expr.machine import Value


def float_text(value, np_dtype) -> str:
    """The shortest decimal that reads back as the same value of its own type; integers without '.0'."""
    f = float(value)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    if f.is_integer() and abs(f) < 1e7:
        return str(int(f))
    dtype = np.dtype(np_dtype)
    for digits in range(1, 18):
        text = f"{f:.{digits}g}"
        if float(np.array(float(text)).astype(dtype)) == f:
            return text
    return repr(f)


# Print formats (`p/x`, `x/16xh`), gdb's letters. Each reinterprets the element's own bits: /x of an
# f16 lane shows its 16 bits, /f of a u32 lane reads its bits as an f32.
FORMATS = {"x": "hex", "t": "binary", "d": "signed decimal", "u": "unsigned decimal", "f": "float"}
_FLOAT_OF_WIDTH = {2: np.float16, 4: np.float32, 8: np.float64}


def format_bits(x, fmt: str) -> str:
    """One element in print format `fmt` (a key of FORMATS), from its raw bits."""
    raw = np.asarray(x)
    width = raw.dtype.itemsize
    bits = int(raw.view(f"u{width}"))
    if fmt == "x":
        return f"{bits:#0{2 + 2 * width}x}"
    if fmt == "t":
        return f"{bits:0{8 * width}b}"
    if fmt == "d":
        return str(bits - (1 << 8 * width) if bits >> (8 * width - 1) else bits)
    if fmt == "u":
        return str(bits)
    if width not in _FLOAT_OF_WIDTH:
        raise ExprError(f"/f needs 2-, 4- or 8-byte elements, not {width}-byte ones")
    as_float = np.array(bits, f"u{width}").view(_FLOAT_OF_WIDTH[width])
    return float_text(as_float, _FLOAT_OF_WIDTH[width])


PAIR_TYPES = ("s4x2", "e2m1x2", "e1m2x2")       # two 4-bit values a byte, shown as both


def pair_text(byte: int, etype) -> str:
    """A byte of a 4-bit pair type as its two values, low half first: `1|-2` (s4x2), `0.5|6` (fp4)."""
    from .ref.conversion import nibble_values
    return "|".join(f"{v:g}" for v in nibble_values(np.array([byte & 0xF, byte >> 4]), etype).tolist())


def cell_text(x, etype, kind: str = "value", fmt: str = "") -> str:
    if kind in ("bool", "mask") or isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if fmt:
        return format_bits(x, fmt)
    if etype is not None and etype.name in PAIR_TYPES:
        return pair_text(int(x), etype)
    if etype is not None and etype.kind == "float":
        return float_text(x, etype.np_dtype)
    if isinstance(x, (float, np.floating)):
        return float_text(x, np.float64)
    return str(int(x))


def _single_line(value: Value, fmt: str = "") -> str:
    x = value.data[()]
    if value.kind == "bool":
        text = "true" if x else "false"
    else:
        text = cell_text(x, value.etype, value.kind, fmt)
    etype = value.etype
    if etype is not None and value.kind == "value" and not fmt:
        bits = int(np.asarray(x).astype(etype.np_dtype).view(etype.bits))
        if etype.kind == "float":
            text += f" (bits {bits:#0{2 + 2 * etype.width}x})"
        elif etype.name in PAIR_TYPES or not 0 <= int(x) <= 9:
            text += f" ({bits:#x})"
    if value.active is not None and not value.active:
        text += " (inactive)"
    return f"{value.label} = {text}"


def format_value(value: Value, per_row: int = 16, fmt: str = "") -> list[str]:
    """A value as the user sees it: one line for a single value, rows of lanes with their numbers;
    numbers in print format `fmt` (FORMATS) when given."""
    if not value.is_array:
        return [_single_line(value, fmt)]
    data, n = value.data, value.data.size
    active = value.active
    header = f"{value.label}: "
    if value.kind == "mask":
        header += f"{int(np.count_nonzero(data))} of {n} lanes active"
    else:
        if value.etype is not None:
            header += f"{value.etype.name}, "
        header += f"{n} {value.noun}"
        if value.where is not None and value.where.kind == "ub" and not value.hex_index:
            header += f" at {value.where.number:#x}"
    if active is not None:
        header += f", {int(np.count_nonzero(active))} active (inactive shown as .)"
    lines = [header]
    if n == 0:                      # (u0 with nothing pending)
        return lines
    compact = value.kind in ("mask", "bool")
    row = 64 if compact else per_row if fmt != "t" else max(1, 8 // data.dtype.itemsize)
    cells = []
    for k in range(n):
        if active is not None and not active[k]:
            cells.append(".")
        elif value.kind == "mask":
            cells.append("1" if data[k] else ".")
        else:
            cells.append(cell_text(data[k], value.etype, value.kind, fmt))
    width = max(len(c) for c in cells)
    last = value.first + n - 1
    for start in range(0, n, row):
        number = value.first + start
        label = f"{number:#07x}" if value.hex_index else f"{number:>{len(str(last))}}"
        chunk = cells[start:start + row]
        if compact:
            text = " ".join("".join(chunk[i:i + 8]) for i in range(0, len(chunk), 8))
        else:
            text = " ".join(c.rjust(width) for c in chunk)
        lines.append(f"  [{label}] {text}")
    return lines


def format_memory(ub: np.ndarray, addr: int, count: int, etype=None, per_row: int | None = None,
                  fmt: str = "", space: str = "ub") -> list[str]:
    """`x/N.T ADDR`: N elements of type T from ADDR of `ub` (the UB, or global memory: space "gm") in rows
    with their addresses, in print format `fmt` when given; no type: a hexdump of N bytes."""
    width = etype.width if etype is not None else 1
    end = addr + count * width
    if addr < 0 or end > ub.size:
        whole = "the UB" if space == "ub" else "global memory (its .gm buffers)"
        raise ExprError(f"[{addr:#x}, {end:#x}) is outside {whole} (0x0..{ub.size:#x})")
    prefix = "gm " if space == "gm" else ""          # (GM rows say so: the UB has the same addresses)
    if etype is None:
        lines = []
        for start in range(addr, end, 16):
            chunk = ub[start:min(start + 16, end)]
            hexes = " ".join(f"{b:02x}" for b in chunk)
            if len(chunk) > 8:
                hexes = hexes[:23] + "  " + hexes[24:]
            lines.append(f"{prefix}{start:#07x}:  {hexes}")
        return lines
    values = ub[addr:end].view(etype.np_dtype)
    per_row = per_row or max(1, 16 // width if width < 4 else 8)
    if width == 1:
        per_row = 16
    if fmt == "t":
        per_row = max(1, 8 // width)
    cells = [cell_text(v, etype, fmt=fmt) for v in values]
    cell_width = max(len(c) for c in cells)
    lines = []
    for k in range(0, count, per_row):
        lines.append(f"{prefix}{addr + k * width:#07x}:  " + " ".join(c.rjust(cell_width) for c in cells[k:k + per_row]))
    return lines
