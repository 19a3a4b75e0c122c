"""Two facts per instruction from the appendix tables of the Ascend 950 register-level API reference,
which the table's rows carry as the fields `issue` and `throughput`:

- issue width: the "dual-issue" table lists the instructions two of which can issue in one cycle, the
  "single-issue" table those that issue alone; an instruction in neither (scalar and control, the
  ascasm extensions, ...) is not covered;
- theoretical throughput: elements per cycle, by C-API function and type, where the table has a row.

`ascasm stats` builds its cycle estimate on them; `ascasm explain` and docs/isa.md show them. Beside them,
which instructions take the saturation mode the boundary-values appendix gives a second column for
(SATURATING_FAMILIES).
"""
from __future__ import annotations

_POST = ".pu"   # a post-update form issues as its base instruction does

# Rows ("mnemonic" or "mnemonic form") by issue width, with the hardware instruction the tables name.
DUAL_ISSUE = frozenset((
    "mask",                                                         # PSET (CreateMask)
    "mask.upd",                                                     # PLT (UpdateMask)
    "vld", "vld.brc", "vld.us", "vld.unpk", "vld.blk", "vld.e2b", "vld.unpk4",   # VLDS/VLD, one-register modes
    "vld mask", "vld.us mask", "vld.ds mask",                       # PLDS/PLD (mask loads)
    "vldas",                                                        # VLDAS/VLDA (LoadUnAlignPre)
    "vldus",                                                        # VLDUS/VLDU (LoadUnAlign)
    "vmov",                                                         # VMOV (Move)
    "pmov", "pmov masked",                                          # PMOV (mask Move)
    "psel",                                                         # PSEL (Select)
    "movp",                                                         # MOVP (MoveMask)
    "vabs", "vexp", "vexp.nftz", "vsqrt", "vsqrt.nftz", "vln", "vneg", "vrelu", "vprelu", "vleakyrelu",
    "vadd", "vadd.merge", "vaddc", "vsub", "vsubc", "vdiv", "vdiv.nftz", "vmax", "vmax.merge", "vmin",
    "vmin.merge", "vmul", "vmull", "vadds", "vmaxs", "vmins", "vmuls",             # the arithmetic table rows
    "vnot", "pnot", "vand", "pand", "vor", "por", "vxor", "pxor",   # VNOT/PNOT, VAND/PAND, VOR/POR, VXOR/PXOR
    "vshl", "vshr", "vshls", "vshrs",                               # VSHL, VSHR, VSHLS, VSHRS
    "vabssub", "vaxpy", "vmadd",                                    # VABSDIF, VAXPY, VMADD
    "vcmp.eq", "vcmp.ne", "vcmp.lt", "vcmp.le", "vcmp.gt", "vcmp.ge",                # VCMP
    "vcmps.eq", "vcmps.ne", "vcmps.lt", "vcmps.le", "vcmps.gt", "vcmps.ge",          # VCMPS
    "vsel",                                                         # VSEL
    "vcvt", "vcvt.rint", "vcvt.round", "vcvt.floor", "vcvt.ceil", "vcvt.trunc", "vcvt.odd", "vcvt.hybrid",  # VCVT*
    "vtrc.rint", "vtrc.round", "vtrc.floor", "vtrc.ceil", "vtrc.trunc",           # VTRC (Truncate)
    "vdup", "vdup masked", "vdup.merge", "vdup.v", "vdup.v.merge",  # VBR (Duplicate)
    "vci", "vci.desc",                                              # VCI (Arange)
))
SINGLE_ISSUE = frozenset((
    "vld.ds", "vld.dintlv",                                         # VLDS/VLD: DS_B8/DS_B16, two-register modes
    "movvp",                                                        # MOVVP
    "vgat", "vgatb",                                                # VGATHER2, VGATHERB
    "vsta", "vsta.1st", "vsta.pack", "vsta.packv2", "vsta.intlv",  # VSTS/VST (StoreAlign)
    "vsta mask", "vsta.pack mask",                                  # PSTS/PST (mask stores)
    "vstus", "vstur",                                               # VSTUS/VSTU/VSTUR (StoreUnAlign)
    "vstas", "vstar",                                               # VSTAS/VSTA/VSTAR (StoreUnAlignPost)
    "vsct",                                                         # VSCATTER
    "pintlv", "pdintlv", "ppack.lo", "ppack.hi", "punpack.lo", "punpack.hi",      # PINTLV, PDINTLV, PPACK, PUNPACK
    "vredsum", "vredmax", "vredmin",                                # VCADD, VCMAX, VCMIN
    "vredsum.blk", "vredmax.blk", "vredmin.blk",                    # VCGADD, VCCGMAX, VCGMIN
    "vpairsum",                                                     # VCPADD
    "vsqz", "vsqz.st",                                              # VSQZ
    "vintlv", "vdintlv", "vusqz",                                   # VINTLV, VDINTLV, VUSQZ
    "vpack.lo", "vpack.hi", "vunpack.lo", "vunpack.hi",             # VPACK, VUNPACK
    "vhist.bin0", "vhist.bin1", "vchist.bin0", "vchist.bin1",       # DHISTv2
))

# Elements per cycle by C-API function and by the row's types as written ("T", or "T/U" for rows with a
# destination and a source type); "bool" is the function's mask-register form.
THROUGHPUT = {
    "asc_abs": {"s8": 128, "s16": 64, "f16": 128, "s32": 32, "f32": 64},
    "asc_add_scalar": {"s8": 128, "u8": 128, "s16": 64, "u16": 64, "f16": 64, "bf16": 64, "s32": 32, "u32": 32,
                       "f32": 32},
    "asc_ln": {"f16": 16, "f32": 16},
    "asc_max_scalar": {"s8": 256, "u8": 256, "s16": 128, "u16": 128, "f16": 128, "bf16": 128, "s32": 64,
                       "u32": 64, "f32": 64},
    "asc_min_scalar": {"s8": 256, "u8": 256, "s16": 128, "u16": 128, "f16": 128, "s32": 64, "u32": 64, "f32": 64},
    "asc_mul_scalar": {"s16": 64, "u16": 64, "f16": 128, "s32": 32, "u32": 32, "f32": 64},
    "asc_neg": {"s8": 128, "s16": 64, "f16": 128, "s32": 32, "f32": 64},
    "asc_relu": {"f16": 128, "s32": 64, "f32": 64},
    "asc_and": {"bool": 128, "s8": 256, "u8": 256, "e5m2": 256, "e4m3": 256, "s16": 128, "u16": 128, "f16": 128,
                "bf16": 128, "s32": 64, "u32": 64, "f32": 64},
    "asc_or": {"bool": 128, "s8": 256, "u8": 256, "s16": 128, "u16": 128, "f16": 128, "bf16": 128, "s32": 64,
               "u32": 64, "f32": 64},
    "asc_abs_sub": {"f16": 128, "f32": 64},
    "asc_axpy": {"f16": 128, "f32": 64},
    **{f"asc_{cc}{scalar}": {"s8": 256, "u8": 256, "s16": 128, "u16": 128, "f16": 128, "bf16": 128, "s32": 64,
                             "u32": 64, "f32": 64}
       for cc, scalar in (("eq", ""), ("ge", ""), ("ge", "_scalar"), ("gt", ""), ("gt", "_scalar"), ("lt", ""),
                          ("ne", ""), ("ne", "_scalar"))},
    "asc_select": {"bool": 256, "s8": 256, "u8": 256, "hif8": 256, "e5m2": 256, "e4m3": 256, "s16": 128, "u16": 128,
                   "f16": 128, "bf16": 128, "s32": 64, "u32": 64, "f32": 64},
    "asc_int322float": {"f32/s32": 32},
    "asc_int322int16": {"s16/s32": 64},
    "asc_int322int64": {"s64/s32": 32},
    "asc_int322uint16": {"u16/s32": 64},
    **{f"asc_reduce_{op}{block}": {"s16": 128, "u16": 128, "f16": 128, "s32": 64, "u32": 64, "f32": 64}
       for op in ("max", "min") for block in ("", "_datablock")},
    **{f"asc_reduce_sum{block}": {"s32/s16": 64, "u32/u16": 64, "f16/f16": 128, "s32/s32": 64, "u32/u32": 64,
                                  "f32/f32": 64} for block in ("", "_datablock")},
    "asc_cumulative_histogram_bin0": {"u16/u8": 64},
    "asc_cumulative_histogram_bin1": {"u16/u8": 64},
}


def issue_width(mnemonic: str, form: str) -> str:
    """"dual", "single", or "" when neither table lists the row."""
    name = f"{mnemonic} {form}".strip()
    base = f"{mnemonic.removesuffix(_POST)} {form}".strip()
    for width, rows in (("dual", DUAL_ISSUE), ("single", SINGLE_ISSUE)):
        if name in rows or base in rows:
            return width
    return ""


def throughput(functions: list, types: tuple) -> tuple:
    """((types as written, elements per cycle), ...) for the row's type combinations (a row without types:
    the mask-register form) that the throughput table lists under the C-API functions the row cites."""
    written = ["/".join(t.name for t in combo) for combo in types] or ["bool"]
    rates = {}
    for function in functions:
        rates.update(THROUGHPUT.get(function, {}))
    return tuple((key, rates[key]) for key in written if key in rates)


# The instruction families whose results take the saturation mode CTRL selects (the boundary-values
# appendix's second column; docs/semantics.md "The CTRL register"): their f16 results saturate, and the
# s16/s32 results of the sub-operations in SATURATING_INTEGER_SUBS clamp. Both executors apply it in
# these families' kernels (ascasm/ref/values.py saturated, ascasm/_engine/lanes.pxi lane_saturated).
SATURATING_FAMILIES = frozenset((
    "vbinary", "vbinary_x", "vunary", "vcompound", "vcompound_x", "vfma", "vfma_x", "vpairsum", "vci", "vci_desc",
    "reduce_sum", "reduce_maxmin", "reduce_sum_block", "reduce_maxmin_block",
))
SATURATING_INTEGER_SUBS = frozenset(("add", "add_merge", "sub", "mul"))
