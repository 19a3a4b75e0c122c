"""The appendix facts the table's rows carry (`issue`, `throughput`) against the appendix tables of the
Ascend 950 register-level API reference, typed in here as the reference gives them: the dual-issue and
single-issue tables by hardware instruction and interface name (with the ascasm rows that implement each,
post-update forms included), and the theoretical-throughput table by C-API function and C types."""
import re

from ascasm.isa import BY_MNEMONIC, INSNS
from ascasm.isa.table import BY_CAPI

# (hardware instruction, Reg-layer interface, the ascasm rows: "mnemonic" or "mnemonic form")
APPENDIX_DUAL_ISSUE = (
    ("PSET", "CreateMask", "mask"),
    ("PLT", "UpdateMask", "mask.upd"),
    ("VLDS/VLD", "LoadAlign, one-register modes except DIST_DS_B8/B16",
     "vld vld.pu vld.brc vld.brc.pu vld.us vld.us.pu vld.unpk vld.unpk.pu vld.blk vld.blk.pu vld.e2b vld.e2b.pu "
     "vld.unpk4 vld.unpk4.pu"),
    ("VLDAS/VLDA", "LoadUnAlignPre", "vldas"),
    ("VLDUS/VLDU", "LoadUnAlign", "vldus vldus.pu"),
    ("PLDS/PLD", "MaskReg LoadAlign", "vld_mask vld.pu_mask vld.us_mask vld.us.pu_mask vld.ds_mask vld.ds.pu_mask"),
    ("VMOV", "Move (register load)", "vmov"),
    ("PMOV", "Move (MaskReg)", "pmov pmov_masked"),
    ("PSEL", "Select", "psel"),
    ("MOVP", "MoveMask", "movp"),
    ("VABS", "Abs", "vabs"), ("VEXP", "Exp", "vexp vexp.nftz"), ("VSQRT", "Sqrt", "vsqrt vsqrt.nftz"),
    ("VLN", "Ln", "vln"), ("VNEG", "Neg", "vneg"), ("VRELU", "Relu", "vrelu"), ("VPRELU", "Prelu", "vprelu"),
    ("VLRELU", "LeakyRelu", "vleakyrelu"), ("VADD/VADDC", "Add", "vadd vadd.merge"), ("VADDCS", "AddC", "vaddc"),
    ("VDIV", "Div", "vdiv vdiv.nftz"), ("VMAX", "Max", "vmax vmax.merge"), ("VMIN", "Min", "vmin vmin.merge"),
    ("VMUL", "Mul", "vmul"), ("VMULL", "Mull", "vmull"), ("VSUB/VSUBC", "Sub", "vsub"), ("VSUBCS", "SubC", "vsubc"),
    ("VADDS", "Adds", "vadds"), ("VMAXS", "Maxs", "vmaxs"), ("VMINS", "Mins", "vmins"), ("VMULS", "Muls", "vmuls"),
    ("VNOT/PNOT", "Not", "vnot pnot"), ("VAND/PAND", "And", "vand pand"), ("VOR/POR", "Or", "vor por"),
    ("VXOR/PXOR", "Xor", "vxor pxor"), ("VSHL", "ShiftLeft", "vshl"), ("VSHR", "ShiftRight", "vshr"),
    ("VSHLS", "ShiftLefts", "vshls"), ("VSHRS", "ShiftRights", "vshrs"),
    ("VABSDIF", "AbsSub", "vabssub"), ("VAXPY", "Axpy", "vaxpy"), ("VMADD", "MulDstAdd", "vmadd"),
    ("VCMP", "Compare", "vcmp.eq vcmp.ne vcmp.lt vcmp.le vcmp.gt vcmp.ge"),
    ("VCMPS", "Compares", "vcmps.eq vcmps.ne vcmps.lt vcmps.le vcmps.gt vcmps.ge"),
    ("VSEL/PSEL", "Select", "vsel"),
    ("VCVTFI/VCVTFF/VCVTFF2/VCVTIF/VCVTII", "Cast",
     "vcvt vcvt.rint vcvt.round vcvt.floor vcvt.ceil vcvt.trunc vcvt.odd vcvt.hybrid"),
    ("VTRC", "Truncate", "vtrc.rint vtrc.round vtrc.floor vtrc.ceil vtrc.trunc"),
    ("VBR", "Duplicate", "vdup vdup_masked vdup.merge vdup.v vdup.v.merge"),
    ("VCI", "Arange", "vci vci.desc"),
)
APPENDIX_SINGLE_ISSUE = (
    ("VLDS/VLD", "LoadAlign, two-register modes and DIST_DS_B8/B16", "vld.ds vld.ds.pu vld.dintlv vld.dintlv.pu"),
    ("MOVVP", "MaskGenWithRegTensor", "movvp"),
    ("VGATHER2", "Gather", "vgat"),
    ("VGATHERB", "GatherB", "vgatb"),
    ("VSTS/VST", "StoreAlign",
     "vsta vsta.pu vsta.1st vsta.1st.pu vsta.pack vsta.pack.pu vsta.packv2 vsta.packv2.pu vsta.intlv"),
    ("VSTUS/VSTU/VSTUR", "StoreUnAlign", "vstus vstus.pu vstur"),
    ("VSTAS/VSTA/VSTAR", "StoreUnAlignPost", "vstas vstar vstas.pu"),
    ("PSTS/PST", "MaskReg StoreAlign", "vsta_mask vsta.pu_mask vsta.pack_mask vsta.pack.pu_mask"),
    ("VSCATTER", "Scatter", "vsct"),
    ("PINTLV", "Interleave", "pintlv"), ("PDINTLV", "DeInterleave", "pdintlv"),
    ("PPACK", "Pack", "ppack.lo ppack.hi"), ("PUNPACK", "UnPack", "punpack.lo punpack.hi"),
    ("VCADD", "Reduce SUM", "vredsum"), ("VCMAX", "Reduce MAX", "vredmax"), ("VCMIN", "Reduce MIN", "vredmin"),
    ("VCGADD", "ReduceDataBlock SUM", "vredsum.blk"), ("VCCGMAX", "ReduceDataBlock MAX", "vredmax.blk"),
    ("VCGMIN", "ReduceDataBlock MIN", "vredmin.blk"), ("VCPADD", "PairReduceElem", "vpairsum"),
    ("VSQZ", "Squeeze", "vsqz vsqz.st"),
    ("VINTLV", "Interleave", "vintlv"), ("VDINTLV", "DeInterleave", "vdintlv"),
    ("VUSQZ", "Unsqueeze", "vusqz"), ("VPACK", "Pack", "vpack.lo vpack.hi"),
    ("VUNPACK", "UnPack", "vunpack.lo vunpack.hi"),
    ("DHISTv2", "Histograms", "vhist.bin0 vhist.bin1 vchist.bin0 vchist.bin1"),
)

# C-API function: source type, destination type, elements per cycle; ...
APPENDIX_THROUGHPUT = """
asc_abs: int8_t int8_t 128, int16_t int16_t 64, half half 128, int32_t int32_t 32, float float 64
asc_add_scalar: int8_t int8_t 128, uint8_t uint8_t 128, int16_t int16_t 64, uint16_t uint16_t 64, half half
    64, bfloat16_t bfloat16_t 64, int32_t int32_t 32, uint32_t uint32_t 32, float float 32
asc_ln: half half 16, float float 16
asc_max_scalar: int8_t int8_t 256, uint8_t uint8_t 256, int16_t int16_t 128, uint16_t uint16_t 128, half half
    128, bfloat16_t bfloat16_t 128, int32_t int32_t 64, uint32_t uint32_t 64, float float 64
asc_min_scalar: int8_t int8_t 256, uint8_t uint8_t 256, int16_t int16_t 128, uint16_t uint16_t 128, half half
    128, int32_t int32_t 64, uint32_t uint32_t 64, float float 64
asc_mul_scalar: int16_t int16_t 64, uint16_t uint16_t 64, half half 128, int32_t int32_t 32, uint32_t uint32_t
    32, float float 64
asc_neg: int8_t int8_t 128, int16_t int16_t 64, half half 128, int32_t int32_t 32, float float 64
asc_relu: half half 128, int32_t int32_t 64, float float 64
asc_and: bool bool 128, int8_t int8_t 256, uint8_t uint8_t 256, fp8_e5m2_t fp8_e5m2_t 256, fp8_e4m3fn_t
    fp8_e4m3fn_t 256, int16_t int16_t 128, uint16_t uint16_t 128, half half 128, bfloat16_t bfloat16_t 128,
    int32_t int32_t 64, uint32_t uint32_t 64, float float 64
asc_or: bool bool 128, int8_t int8_t 256, uint8_t uint8_t 256, int16_t int16_t 128, uint16_t uint16_t 128,
    half half 128, bfloat16_t bfloat16_t 128, int32_t int32_t 64, uint32_t uint32_t 64, float float 64
asc_abs_sub: half half 128, float float 64
asc_axpy: half half 128, float float 64
asc_eq: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128, bfloat16_t bool
    128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_ge: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128, bfloat16_t bool
    128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_ge_scalar: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128,
    bfloat16_t bool 128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_gt: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128, bfloat16_t bool
    128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_gt_scalar: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128,
    bfloat16_t bool 128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_lt: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128, bfloat16_t bool
    128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_ne: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128, bfloat16_t bool
    128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_ne_scalar: int8_t bool 256, uint8_t bool 256, int16_t bool 128, uint16_t bool 128, half bool 128,
    bfloat16_t bool 128, int32_t bool 64, uint32_t bool 64, float bool 64
asc_select: bool bool 256, int8_t int8_t 256, uint8_t uint8_t 256, hifloat8_t hifloat8_t 256, fp8_e5m2_t
    fp8_e5m2_t 256, fp8_e4m3fn_t fp8_e4m3fn_t 256, int16_t int16_t 128, uint16_t uint16_t 128, half half 128,
    bfloat16_t bfloat16_t 128, int32_t int32_t 64, uint32_t uint32_t 64, float float 64
asc_int322float: int32_t float 32
asc_int322int16: int32_t int16_t 64
asc_int322int64: int32_t int64_t 32
asc_int322uint16: int32_t uint16_t 64
asc_reduce_max: int16_t int16_t 128, uint16_t uint16_t 128, half half 128, int32_t int32_t 64, uint32_t
    uint32_t 64, float float 64
asc_reduce_max_datablock: int16_t int16_t 128, uint16_t uint16_t 128, half half 128, int32_t int32_t 64,
    uint32_t uint32_t 64, float float 64
asc_reduce_min: int16_t int16_t 128, uint16_t uint16_t 128, half half 128, int32_t int32_t 64, uint32_t
    uint32_t 64, float float 64
asc_reduce_min_datablock: int16_t int16_t 128, uint16_t uint16_t 128, half half 128, int32_t int32_t 64,
    uint32_t uint32_t 64, float float 64
asc_reduce_sum: int16_t int32_t 64, uint16_t uint32_t 64, half half 128, int32_t int32_t 64, uint32_t uint32_t
    64, float float 64
asc_reduce_sum_datablock: int16_t int32_t 64, uint16_t uint32_t 64, half half 128, int32_t int32_t 64,
    uint32_t uint32_t 64, float float 64
asc_cumulative_histogram_bin0: uint8_t uint16_t 64
asc_cumulative_histogram_bin1: uint8_t uint16_t 64
"""

C_TYPES = {"int8_t": "s8", "uint8_t": "u8", "int16_t": "s16", "uint16_t": "u16", "int32_t": "s32",
           "uint32_t": "u32", "int64_t": "s64", "half": "f16", "bfloat16_t": "bf16", "float": "f32",
           "fp8_e5m2_t": "e5m2", "fp8_e4m3fn_t": "e4m3", "hifloat8_t": "hif8", "bool": "bool"}


def row_name(spec) -> str:
    return f"{spec.mnemonic}_{spec.form}" if spec.form else spec.mnemonic


def listed_rows(table) -> set:
    return {name for _hardware, _interface, rows in table for name in rows.split()}


def test_issue_width_is_the_appendix_tables():
    dual, single = listed_rows(APPENDIX_DUAL_ISSUE), listed_rows(APPENDIX_SINGLE_ISSUE)
    names = {row_name(spec) for spec in INSNS}
    assert (dual | single) <= names and not dual & single
    for spec in INSNS:
        expected = "dual" if row_name(spec) in dual else "single" if row_name(spec) in single else ""
        assert spec.issue == expected, row_name(spec)


def appendix_throughput() -> list:
    """(function, source type, destination type, elements per cycle) for every line of the table."""
    entries = []
    for function, items in re.findall(r"^(asc_\w+): (.*?)(?=^asc_|\Z)", APPENDIX_THROUGHPUT, re.M | re.S):
        for item in " ".join(items.split()).split(", "):
            source, dest, per_cycle = item.split()
            entries.append((function, C_TYPES[source], C_TYPES[dest], int(per_cycle)))
    return entries


def test_throughput_is_the_appendix_table():
    entries = appendix_throughput()
    assert len(entries) == 200
    expected, unlanded = {}, set()
    for function, source, dest, per_cycle in entries:
        landed = False
        for mnemonic in BY_CAPI[function]:
            for spec in BY_MNEMONIC[mnemonic]:
                # the row's types as written: T (the lane type; a compare's source), or T/U for a destination
                # and a source type; "bool" is the mask-register form, a row without types
                key = source if spec.type_slots <= 1 else f"{dest}/{source}"
                written = ["/".join(t.name for t in combo) for combo in spec.types] or ["bool"]
                if key in written:
                    expected.setdefault(row_name(spec), set()).add((key, per_cycle))
                    landed = True
        if not landed:
            unlanded.add((function, source, dest))
    # the throughput table lists bf16 for asc_or; asc_or's own page (the vor row's types) does not
    assert unlanded == {("asc_or", "bf16", "bf16")}
    assert {row_name(spec): set(spec.throughput) for spec in INSNS if spec.throughput} == expected
