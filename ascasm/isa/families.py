"""What the specialisation axes a family declares in the ISA table (table.FAMILIES) mean to the Cython
engine, read by tools/gen_tables.py.

A family's kernel `k_<family>` is compiled once per combination of its axes that the table's rows use,
and the program loader picks the combination of each row, so no lane loop decides a type or an
operation at run time. The axes:

- "T" / "U": the element type of type slot 0 / 1, as the engine's lane type (LANE_TYPES);
- "TW" / "UW": only the width of that type, as an unsigned integer (moves: the bits are all that matter);
- "sub": the row's sub-operation, as a tag type `Op_<sub>`;
- "src": where the second operand of an element-wise family comes from: a vector register's lanes, or
  the scalar operand X in every lane (the scalar-operand forms, `vadds` beside `vadd`), as a tag type
  (SOURCES). The kernel reads it through engine.pxi's `second_operand`, so both forms share one body.
"""
from __future__ import annotations

from .dtypes import ElemType

# The engine's C type of a lane of each computed type; every other type is moved as raw bits
# (an unsigned integer of its width). F16, BF16, E4M3 and E5M2 are structs holding the bits, since C
# has no such types.
LANE_TYPES = {"s8": "int8_t", "u8": "uint8_t", "s16": "int16_t", "u16": "uint16_t", "s32": "int32_t",
              "u32": "uint32_t", "s64": "int64_t", "u64": "uint64_t", "f16": "F16", "bf16": "BF16",
              "f32": "float", "e4m3": "E4M3", "e5m2": "E5M2"}
FLOAT_TAGS = ("F16", "BF16", "E4M3", "E5M2")      # struct tags, by bits


# the "src" axis: the tag of a row whose second operand is a vector register, and of one whose is X
SOURCES = {"vector": "Src_vector", "scalar": "Src_scalar"}


def bits_type(width: int) -> str:
    return f"uint{8 * width}_t"


def lane_type(etype: ElemType) -> str:
    return LANE_TYPES.get(etype.name, bits_type(etype.width))


def axis_value(axis: str, spec, types: tuple) -> str:
    """The C type a row (spec with `types`) passes for one axis of its family."""
    if axis == "sub":
        return f"Op_{spec.sub}"
    if axis == "src":
        return SOURCES["scalar" if any(op.name == "X" for op in spec.operands) else "vector"]
    etype = types[0 if axis[0] == "T" else 1]
    return bits_type(etype.width) if axis.endswith("W") else lane_type(etype)
