"""Element types: the only place type suffixes, widths and numpy dtypes are spelled (docs/language.md §6)."""
from __future__ import annotations

from dataclasses import dataclass

import ml_dtypes
import numpy as np


@dataclass(frozen=True)
class ElemType:
    code: int          # small integer stored in bytecode rows and in the generated Cython enum
    name: str          # canonical suffix, e.g. "f16"
    aliases: tuple     # other accepted spellings, e.g. ("half",)
    width: int         # bytes per element
    kind: str          # "int" (signed), "uint", "float", "raw" (bits only, never computed on)
    np_dtype: np.dtype  # how lanes are viewed in numpy

    @property
    def lanes(self) -> int:
        """Elements in one 256-byte vector register."""
        return 256 // self.width

    @property
    def bits(self) -> np.dtype:
        """Unsigned integer dtype of the same width: the raw bit pattern of a lane."""
        return np.dtype(f"u{self.width}")


def _t(code, name, aliases, width, kind, dtype):
    return ElemType(code, name, tuple(aliases), width, kind, np.dtype(dtype))


TYPES: tuple[ElemType, ...] = (
    _t(1, "s8", ["int8"], 1, "int", np.int8),
    _t(2, "u8", ["uint8"], 1, "uint", np.uint8),
    _t(3, "s16", ["int16"], 2, "int", np.int16),
    _t(4, "u16", ["uint16"], 2, "uint", np.uint16),
    _t(5, "s32", ["int32"], 4, "int", np.int32),
    _t(6, "u32", ["uint32"], 4, "uint", np.uint32),
    _t(7, "s64", ["int64"], 8, "int", np.int64),
    _t(8, "u64", ["uint64"], 8, "uint", np.uint64),
    _t(9, "f16", ["half"], 2, "float", np.float16),
    _t(10, "bf16", ["bfloat16"], 2, "float", ml_dtypes.bfloat16),
    _t(11, "f32", ["float"], 4, "float", np.float32),
    _t(12, "e4m3", ["fp8_e4m3fn"], 1, "float", ml_dtypes.float8_e4m3fn),
    _t(13, "e5m2", ["fp8_e5m2"], 1, "float", ml_dtypes.float8_e5m2),
    _t(14, "e8m0", ["fp8_e8m0"], 1, "float", ml_dtypes.float8_e8m0fnu),
    _t(15, "hif8", ["hifloat8"], 1, "raw", np.uint8),
    _t(16, "b8", [], 1, "raw", np.uint8),
    _t(17, "b16", [], 2, "raw", np.uint16),
    _t(18, "b32", [], 4, "raw", np.uint32),
    _t(19, "b64", [], 8, "raw", np.uint64),
    # 4-bit pairs packed in a byte (asc_storealign lists them): raw 8-bit containers, moved only
    _t(20, "e2m1x2", ["fp4x2_e2m1"], 1, "raw", np.uint8),
    _t(21, "e1m2x2", ["fp4x2_e1m2"], 1, "raw", np.uint8),
    _t(22, "s4x2", ["int4x2"], 1, "raw", np.uint8),
)

BY_CODE = {t.code: t for t in TYPES}
BY_SPELLING = {s: t for t in TYPES for s in (t.name, *t.aliases)}


def lookup(spelling: str) -> ElemType | None:
    """The type named by a suffix (case-insensitive), or None."""
    return BY_SPELLING.get(spelling.lower())


def of_width(width: int) -> tuple[ElemType, ...]:
    """Every type whose elements are `width` bytes (the pages' b8/b16/b32/b64 classes)."""
    return tuple(t for t in TYPES if t.width == width)


def named(*names: str) -> tuple[ElemType, ...]:
    return tuple(BY_SPELLING[n] for n in names)
