"""How the Cython engine specialises each family's kernel, read by tools/gen_tables.py.

A family's kernel `k_<family>` is compiled once per combination of its axes that the table's rows use,
and the program loader picks the combination of each row, so no lane loop decides a type or an
operation at run time. The axes:

- "T" / "U": the element type of type slot 0 / 1, as the engine's lane type (LANE_TYPES);
- "TW" / "UW": only the width of that type, as an unsigned integer (moves: the bits are all that matter);
- "sub": the row's sub-operation, as a tag type `Op_<sub>`.
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


def bits_type(width: int) -> str:
    return f"uint{8 * width}_t"


def lane_type(etype: ElemType) -> str:
    return LANE_TYPES.get(etype.name, bits_type(etype.width))


AXES = {
    "scalar_mov": (), "scalar_alu": ("sub",), "scalar_load": ("T",), "scalar_store": ("TW",),
    "branch": (), "cond_branch": ("sub",), "membar": (), "halt": (),
    "mask_pattern": (), "mask_update": (), "iter_set": (), "iter_scaled": (),
    "mask_logic": ("sub",), "mask_not": (), "mask_move": (),
    "vld_norm": (), "vld_brc": ("TW",), "vld_us": ("TW",), "vld_ds": ("TW",), "vld_unpk": ("TW",),
    "vld_dintlv": ("TW",), "mask_load_norm": (), "mask_load_us": (), "mask_load_ds": (),
    "vgat": ("TW", "UW"),
    "vsta_norm": ("TW",), "vsta_first": ("TW",), "vsta_pack": ("TW",), "vsta_packv2": (), "vsta_intlv": ("TW",),
    "mask_store_norm": (), "mask_store_pack": (), "vsct": ("TW", "UW"),
    "reduce_sum": ("U",), "reduce_maxmin": ("T", "sub"),
    "vdup": ("T",), "vdup_masked": ("T",), "vci": ("T",), "vbinary": ("T", "sub"), "vbinary_x": ("T", "sub"),
    "vunary": ("T", "sub"), "vcmp": ("T", "sub"), "vsel": ("TW",), "pcnt": (), "vlogic": ("TW", "sub"),
    # conversions, specialised by the two widths and the rounding mode (the types' encodings
    # are read from the row's type codes: a kernel per type pair would be hundreds)
    "vcvt": ("TW", "UW", "sub"), "vtrc": ("T", "sub"),
    # compute families
    "vcmp_x": ("T", "sub"), "vnot": ("TW",), "vshift": ("T", "sub"), "vshift_x": ("T", "sub"),
    "vmov": ("TW",), "vfma": ("T",), "vfma_x": ("T",),
    "vintlv": ("TW",), "vdintlv": ("TW",), "vunpack": ("T", "U", "sub"),
    "reduce_sum_block": ("U",), "reduce_maxmin_block": ("T", "sub"),
    "vpack": ("TW", "UW", "sub"), "mask_pack": ("sub",), "mask_unpack": ("sub",),
    "vhist": ("sub",), "mask_select": (), "mask_intlv": (), "mask_dintlv": (),
    "vcompound": ("T", "sub"), "vcompound_x": ("T", "sub"), "vpairsum": ("T",),
    "vci_desc": ("T",), "vdup_lane": ("TW",), "vmull": ("T",),
    # squeeze, special registers, unaligned store streams
    "vsqz": ("TW", "sub"), "vusqz": ("TW",), "spr_clear": (), "vstus": ("TW",), "vstur": ("TW",), "vstas": ("sub",),
    "vldas": (), "vldus": ("TW",), "vldus_post": ("TW",), "vldu": ("TW",), "vstu": ("TW",), "vstu_count": ("TW",),
    "vld_blk": (), "vld_bs": ("TW",), "vsta_bs": ("TW",), "vld_e2b": ("TW",), "vld_unpk4": (), "vgatb": ("TW",),
    # scalar registers holding float bits
    "scalar_fmov": ("T",), "scalar_falu": ("T", "sub"), "scalar_fcvt": ("T", "U"), "vcarry": ("sub",),
    "mask_spr_set": (), "mask_spr_read": (), "vdup_merge": ("T",), "vdup_lane_merge": ("TW",),
    # the CTRL special register
    "spr_set_ctrl": (),
}
# a post-update family (`<base>_pu`, generated wrapper kernels) specialises as its base does
AXES.update({f"{base}_pu": AXES[base] for base in (
    "vld_norm", "vld_us", "vld_ds", "vld_unpk", "vld_dintlv", "mask_load_norm", "mask_load_us", "mask_load_ds",
    "vsta_norm", "mask_store_norm", "vsta_first", "vsta_pack", "mask_store_pack", "vstus", "vsta_packv2", "vld_brc", "vld_blk", "vld_e2b", "vld_unpk4", "vld_bs",
    "vsta_bs")})
# hardware loops and the address register they feed
AXES.update({"loop": (), "endloop": (), "iter_loops": (), "vstas_post": (), "mask_move_masked": (),
             "mask_from_vector": ()})


# Families whose kernels choose the next row (they set Machine.next); every other row is followed by
# the next one.
BRANCHING = frozenset({"branch", "cond_branch", "loop", "endloop"})


def axis_value(axis: str, spec, types: tuple) -> str:
    """The C type a row (spec with `types`) passes for one axis of its family."""
    if axis == "sub":
        return f"Op_{spec.sub}"
    etype = types[0 if axis[0] == "T" else 1]
    return bits_type(etype.width) if axis.endswith("W") else lane_type(etype)
