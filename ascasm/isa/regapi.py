"""The Reg API (AscendC::Reg::, alias AscendC::MicroAPI::) as ascasm instructions: for each C++
function, its overloads ("forms") with the template parameters they take, the template options they
require, and the instruction rows they become. The C++ front end (ascasm/cpp/) translates calls with
it; `ascasm explain Reg::NAME` prints it; docs/frontend.md's mapping table is generated from it
(tools/gen_frontend_table.py).

A form's `args` names the C++ call's arguments in order as ROLE:KIND, KIND one of (ARG_KINDS: each
is an operand kind of the ISA table, ascasm/isa/operands.py)
  v RegTensor, p MaskReg, a AddrReg, u UnalignRegForStore, q UnalignRegForLoad (the register files'
  letters of the assembly), ub a `__ubuf__ T*` address, s a scalar value of the call's type T (an X.T
  operand), n a count or stride (a plain X operand);
a trailing `&` marks a variable the call writes back: `ub&` a pointer it advances (post-update),
`s&` a scalar it updates (UpdateMask's count). `ret` is the returned register ("dst:p"; "" for void).
In `asm`, `{ROLE}` is the operand of that role (a vector register with its own lane type, a mask,
`sN` for an address, a scalar as an X.T operand of the call's T), `{ROLE/b16}` a vector register
viewed as another type (a distribution mode's element width), `{ROLE.b}` a mask or address register
with the width of T (`p0.b32`), `{T}` T's name, `{opt:NAME}` a template option's value, `{cast}` and
`{cast_options}` Cast's suffix and keywords from its trait. Each form is compiled once, at import, into
typed arguments (Arg) and instruction templates (Template: ascasm/isa/regtemplates.py) that the translator
fills in.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field, replace

from .operands import Kind

PAGES = ""                # the Reg-layer reference pages are named "GROUP/TITLE" (the Chinese names are theirs)


from .regtemplates import (ARG_KINDS, AddressSlot, Arg, CastSlot, OperandSlot, OptionSlot, Template,  # noqa: F401
                           TypeSlot, compile_template, parse_arg)


@dataclass(frozen=True)
class Form:
    args: str                      # "dst:v src:ub" (see the module docstring)
    asm: tuple                     # instruction templates
    tparams: tuple = ("T",)        # template parameters in the page's order; "name=DEFAULT"
    when: tuple = ()               # (option, value) pairs the form requires
    ret: str = ""                  # "dst:p": the returned register's role and kind
    note: str = ""
    # compiled from the above
    operands: tuple = field(init=False, compare=False, repr=False)     # Arg per C++ argument
    result: Arg | None = field(init=False, compare=False, repr=False)
    templates: tuple = field(init=False, compare=False, repr=False)    # Template per instruction

    def __post_init__(self):
        operands = tuple(parse_arg(text) for text in self.args.split())
        result = parse_arg(self.ret) if self.ret else None
        by_role = {arg.role: arg for arg in operands + ((result,) if result else ())}
        object.__setattr__(self, "operands", operands)
        object.__setattr__(self, "result", result)
        object.__setattr__(self, "templates", tuple(compile_template(text, by_role) for text in self.asm))

    @property
    def stride_in_blocks(self) -> bool:
        """A block-strided access: its strides count 32-byte blocks, not elements of T."""
        return ("dataMode", "DATA_BLOCK_COPY") in self.when

    @property
    def advanced(self) -> tuple[Arg, Arg] | None:
        """(the pointer the call advances, the stride it advances by), for a post-update form with a stride."""
        pointer = next((arg for arg in self.operands if arg.kind is Kind.BASE), None)
        stride = next((arg for arg in reversed(self.operands) if arg.kind is Kind.SVAL), None)
        return (pointer, stride) if pointer and stride else None


@dataclass(frozen=True)
class RegApi:
    name: str
    page: str                      # the public reference page: "GROUP/TITLE"
    forms: tuple

    @property
    def page_name(self) -> str:
        """The page as people find it in the public Reg API reference: its title and group."""
        group, _, title = self.page.rpartition("/")
        return f"{title} (group {group})" if group else title


MERGE = "mode=ZEROING"
# a 64-bit RegTensor in one register; RegTraitNumTwo (a register pair) has no rows (docs/semantics.md "64-bit lanes")
TRAIT, ONE_REGISTER = "regTrait=RegTraitNumOne", (("regTrait", "RegTraitNumOne"),)
_BIN = ("T", MERGE)                     # Add, Sub, ...: <T, MaskMergeMode mode, U>
_SCALAR_OPS = ("T", "U", MERGE)         # Muls, Adds, ...: <T, U, mode, S>

# LoadAlign's LoadDist (page table 3 and 6) -> the vld mode suffix
LOAD_DISTS = {"DIST_NORM": "", "DIST_BRC_B8": ".brc", "DIST_BRC_B16": ".brc", "DIST_BRC_B32": ".brc",
              "DIST_US_B8": ".us", "DIST_US_B16": ".us", "DIST_DS_B8": ".ds", "DIST_DS_B16": ".ds",
              "DIST_UNPACK_B8": ".unpk", "DIST_UNPACK_B16": ".unpk", "DIST_UNPACK_B32": ".unpk",
              "DIST_BLK": ".blk", "DIST_E2B_B16": ".e2b", "DIST_E2B_B32": ".e2b", "DIST_UNPACK4_B8": ".unpk4"}
LOAD_DINTLV = ("DIST_DINTLV_B8", "DIST_DINTLV_B16", "DIST_DINTLV_B32")
# StoreAlign's StoreDist -> the vsta mode suffix; the two-register form interleaves
STORE_DISTS = {"DIST_NORM": "", "DIST_NORM_B8": "", "DIST_NORM_B16": "", "DIST_NORM_B32": "",
               "DIST_FIRST_ELEMENT_B8": ".1st", "DIST_FIRST_ELEMENT_B16": ".1st", "DIST_FIRST_ELEMENT_B32": ".1st",
               "DIST_PACK_B16": ".pack", "DIST_PACK_B32": ".pack", "DIST_PACK_B64": ".pack",
               "DIST_PACK4_B32": ".packv2"}
STORE_INTLV = ("DIST_INTLV_B8", "DIST_INTLV_B16", "DIST_INTLV_B32")
_STORE_UNMASKED = (".1st",)             # vsta.1st takes no mask operand
COMPARE_MODES = {"EQ": "eq", "NE": "ne", "LT": "lt", "LE": "le", "GT": "gt", "GE": "ge"}
REDUCE_TYPES = {"SUM": "vredsum", "MAX": "vredmax", "MIN": "vredmin"}
# Cast's trait.roundMode (RoundMode) -> the vcvt/vtrc suffix; Reg::Cast's table 7 spells CAST_HYBRID "HYBRID"
ROUND_MODES = {"CAST_RINT": "rint", "CAST_ROUND": "round", "CAST_FLOOR": "floor", "CAST_CEIL": "ceil",
               "CAST_TRUNC": "trunc", "CAST_ODD": "odd", "CAST_HYBRID": "hybrid", "HYBRID": "hybrid",
               "CAST_NONE": "", "UNKNOWN": ""}


def _width(dist: str) -> str:
    """The register view a distribution mode works on: `/b16` for DIST_..._B16 (the raw type of its
    element width), nothing for the modes of the register's own type."""
    tail = dist.rsplit("_", 1)[-1]
    return "/" + tail.lower() if tail[:1] == "B" and tail[1:].isdigit() else ""


def _load_forms():
    forms = []
    for dist, mode in LOAD_DISTS.items():
        when, w = (("dist", dist),), _width(dist)
        forms += [Form("dst:v src:ub", (f"vld{mode} {{dst{w}}}, [{{src}}]",), ("T", "dist=DIST_NORM"), when),
                  Form("dst:v src:ub& stride:n", (f"vld{mode}.pu {{dst{w}}}, [{{src}}], {{stride}}",),
                       ("T", "post", "dist=DIST_NORM"), when + (("post", "POST_MODE_UPDATE"),)),
                  Form("dst:v src:ub off:a", (f"vld{mode} {{dst{w}}}, [{{src}} + {{off}}]",), ("T", "dist=DIST_NORM"),
                       when)]
    for dist in LOAD_DINTLV:
        when, w = (("dist", dist),), _width(dist)
        forms += [Form("dst0:v dst1:v src:ub", (f"vld.dintlv {{dst0{w}}}, {{dst1{w}}}, [{{src}}]",), ("T", "dist"), when),
                  Form("dst0:v dst1:v src:ub& stride:n", (f"vld.dintlv.pu {{dst0{w}}}, {{dst1{w}}}, [{{src}}], {{stride}}",),
                       ("T", "post", "dist"), when + (("post", "POST_MODE_UPDATE"),)),
                  Form("dst0:v dst1:v src:ub off:a", (f"vld.dintlv {{dst0{w}}}, {{dst1{w}}}, [{{src}} + {{off}}]",),
                       ("T", "dist"), when)]
    return tuple(forms)


MASK_LOAD_DISTS = {"DIST_NORM": "", "DIST_US": ".us", "DIST_DS": ".ds"}      # MaskDist -> the mask vld's suffix
MASK_STORE_DISTS = {"DIST_NORM": "", "DIST_PACK": ".pack"}


def _mask_memory_forms(load: bool):
    """LoadAlign/StoreAlign of a MaskReg (the MaskReg pages of the load and store groups): the plain,
    post-update and AddrReg-offset forms of each MaskDist."""
    forms = []
    for dist, mode in (MASK_LOAD_DISTS if load else MASK_STORE_DISTS).items():
        when, post = (("dist", dist),), (("dist", dist), ("post", "POST_MODE_UPDATE"))
        if load:
            forms += [Form("dst:p src:ub", (f"vld{mode} {{dst}}, [{{src}}]",), ("T", "dist=DIST_NORM"), when),
                      Form("dst:p src:ub& stride:n", (f"vld{mode}.pu {{dst}}, [{{src}}], {{stride}}",),
                           ("T", "post", "dist=DIST_NORM"), post),
                      Form("dst:p src:ub off:a", (f"vld{mode} {{dst}}, [{{src}} + {{off}}]",), ("T", "dist=DIST_NORM"),
                           when)]
        else:
            forms += [Form("dst:ub src:p", (f"vsta{mode} [{{dst}}], {{src}}",), ("T", "dist=DIST_NORM"), when),
                      Form("dst:ub& src:p stride:n", (f"vsta{mode}.pu [{{dst}}], {{src}}, {{stride}}",),
                           ("T", "post", "dist=DIST_NORM"), post),
                      Form("dst:ub src:p off:a", (f"vsta{mode} [{{dst}} + {{off}}], {{src}}",), ("T", "dist=DIST_NORM"),
                           when)]
    return tuple(forms)


def _store_forms():
    forms = []
    for dist, mode in STORE_DISTS.items():
        when, w = (("dist", dist),), _width(dist)
        mask = "" if mode in _STORE_UNMASKED else ", {mask}"
        forms += [Form("dst:ub src:v mask:p", (f"vsta{mode} [{{dst}}], {{src{w}}}{mask}",), ("T", "dist=DIST_NORM"), when),
                  Form("dst:ub& src:v stride:n mask:p", (f"vsta{mode}.pu [{{dst}}], {{src{w}}}{mask}, {{stride}}",),
                       ("T", "post", "dist=DIST_NORM"), when + (("post", "POST_MODE_UPDATE"),)),
                  Form("dst:ub src:v off:a mask:p", (f"vsta{mode} [{{dst}} + {{off}}], {{src{w}}}{mask}",),
                       ("T", "dist=DIST_NORM"), when)]
    for dist in STORE_INTLV:
        when, w = (("dist", dist),), _width(dist)
        forms += [Form("dst:ub src0:v src1:v mask:p", (f"vsta.intlv [{{dst}}], {{src0{w}}}, {{src1{w}}}",), ("T", "dist"),
                       when, note="the interleaving store writes every lane: the mask is not an operand of vsta.intlv"),
                  Form("dst:ub src0:v src1:v off:a mask:p", (f"vsta.intlv [{{dst}} + {{off}}], {{src0{w}}}, {{src1{w}}}",),
                       ("T", "dist"), when)]
    return tuple(forms)


# --- block-strided access (DataCopyMode::DATA_BLOCK_COPY): the LoadAlign/StoreAlign forms of the pages
# 非连续对齐搬入/搬出; the block stride, and the post-update form's repeat stride, in 32-byte blocks ---
BLOCK_COPY = (("dataMode", "DATA_BLOCK_COPY"),)


def _block_copy_forms(load: bool):
    post = BLOCK_COPY + (("post", "POST_MODE_UPDATE"),)
    if load:
        note = "DATA_BLOCK_COPY: the page Reg数据搬入/非连续对齐搬入（LoadAlign）"
        return (Form("dst:v src:ub blkstride:n mask:p", ("vld.bs {dst}, [{src}], {blkstride}, {mask}",),
                     ("T", "dataMode"), BLOCK_COPY, note=note),
                Form("dst:v src:ub& blkstride:n stride:n mask:p",
                     ("vld.bs.pu {dst}, [{src}], {blkstride}, {mask}, {stride}",), ("T", "dataMode", "post"), post,
                     note=note))
    note = "DATA_BLOCK_COPY: the page Reg数据搬出/非连续对齐搬出（StoreAlign）"
    return (Form("dst:ub src:v blkstride:n mask:p", ("vsta.bs [{dst}], {src}, {blkstride}, {mask}",),
                 ("T", "dataMode"), BLOCK_COPY, note=note),
            Form("dst:ub& src:v blkstride:n stride:n mask:p",
                 ("vsta.bs.pu [{dst}], {src}, {blkstride}, {mask}, {stride}",), ("T", "dataMode", "post"), post,
                 note=note))
# --- end of the block-strided forms ---


def _binary(mnemonic, merging=None):
    forms = [Form("dst:v src0:v src1:v mask:p", (f"{mnemonic} {{dst}}, {{src0}}, {{src1}}, {{mask}}",), _BIN,
                  (("mode", "ZEROING"),))]
    if merging:
        forms.append(Form("dst:v src0:v src1:v mask:p", (f"{merging} {{dst}}, {{src0}}, {{src1}}, {{mask}}",), _BIN,
                          (("mode", "MERGING"),)))
    return tuple(forms)


def _unary(mnemonic):
    return (Form("dst:v src:v mask:p", (f"{mnemonic} {{dst}}, {{src}}, {{mask}}",), _BIN, (("mode", "ZEROING"),)),)


def _algo_rows(mnemonic, precise, algo, float_only=()):
    """(row, `when`) for each value of a *SpecificMode struct's `algo` field: the values the page says
    keep subnormals (the PRECISION_*_FTZ_FALSE ones and Sqrt's FAST_INVERSE) select the `precise` row,
    INTRINSIC and the others (which flush them) the default row; a value in `float_only` (the page gives
    it float alone) also requires T = float."""
    keeps = lambda value: "FTZ_FALSE" in value or value == "FAST_INVERSE"
    return [(precise if keeps(value) else mnemonic,
             (("mode.algo", value),) + ((("T", "float"),) if value in float_only else ()))
            for value in ("INTRINSIC",) + algo]


def _unary_algo(mnemonic, precise, algo, float_only=()):
    """A unary function whose mode may be a *SpecificMode struct: its `algo` field selects the row
    (_algo_rows)."""
    plain = Form("dst:v src:v mask:p", (f"{mnemonic} {{dst}}, {{src}}, {{mask}}",), _BIN)
    return _unary(mnemonic) + tuple(replace(plain, asm=(f"{row} {{dst}}, {{src}}, {{mask}}",), when=when)
                                    for row, when in _algo_rows(mnemonic, precise, algo, float_only))


def _binary_algo(mnemonic, precise, algo, float_only=()):
    """Div: as _unary_algo, for a binary function."""
    plain = Form("dst:v src0:v src1:v mask:p", (f"{mnemonic} {{dst}}, {{src0}}, {{src1}}, {{mask}}",), _BIN)
    return _binary(mnemonic) + tuple(replace(plain, asm=(f"{row} {{dst}}, {{src0}}, {{src1}}, {{mask}}",), when=when)
                                     for row, when in _algo_rows(mnemonic, precise, algo, float_only))


_LOG_ALGO = ("PRECISION_1ULP_FTZ_TRUE", "PRECISION_1ULP_FTZ_FALSE")
# the pages' DivAlgo and SqrtAlgo values after INTRINSIC, and those their pages give float alone (Div's also
# complex64, which has no row)
_DIV_ALGO = ("DIFF_COMPENSATION", "PRECISION_1ULP_FTZ_TRUE", "PRECISION_0ULP_FTZ_TRUE", "PRECISION_0ULP_FTZ_FALSE",
             "PRECISION_1ULP_FTZ_FALSE")
_DIV_FLOAT_ONLY = ("DIFF_COMPENSATION", "PRECISION_0ULP_FTZ_TRUE", "PRECISION_0ULP_FTZ_FALSE")
_SQRT_ALGO = ("FAST_INVERSE", "PRECISION_1ULP_FTZ_TRUE", "PRECISION_0ULP_FTZ_FALSE", "PRECISION_1ULP_FTZ_FALSE")
_SQRT_FLOAT_ONLY = ("FAST_INVERSE", "PRECISION_0ULP_FTZ_FALSE")


def _with_scalar(mnemonic):
    return (Form("dst:v src:v scalar:s mask:p", (f"{mnemonic} {{dst}}, {{src}}, {{scalar}}, {{mask}}",), _SCALAR_OPS,
                 (("mode", "ZEROING"),)),)


def _mask_logic(mnemonic):
    return (Form("dst:p src0:p src1:p mask:p", (f"{mnemonic} {{dst}}, {{src0}}, {{src1}}, {{mask}}",), ()),)


_ARITH = PAGES + "基础算术/"
_LOGIC = PAGES + "逻辑计算/"
_CMP = PAGES + "比较与选择/"
APIS = (
    # registers and masks
    RegApi("CreateMask", PAGES + "寄存器数据类型/MaskReg",
           (Form("", ("mask {dst.b}, {opt:mode}",), ("T", "mode=ALL", TRAIT), ONE_REGISTER, ret="dst:p"),)),
    RegApi("UpdateMask", PAGES + "寄存器数据类型/MaskReg",
           (Form("count:s&", ("mask.upd {dst.b}, {count}",), ("T", TRAIT), ONE_REGISTER, ret="dst:p"),)),
    RegApi("MoveMask", PAGES + "MaskReg计算/MoveMask",
           (Form("", ("movp {dst.b}",), ("T",), ret="dst:p",
                 note="reads {MASK1, MASK0} as SetVectorMask (sprset.mask) left them"),)),
    RegApi("MaskGenWithRegTensor", PAGES + "Reg数据搬入/MaskReg搬入（MaskGenWithRegTensor）",
           (Form("dst:p src:v", ("movvp {dst}, {src}, {opt:offset}",), ("T", "offset")),)),
    RegApi("CreateAddrReg", PAGES + "寄存器数据类型/AddrReg",
           (Form("index:n stride:n", ("iter {dst.b}, {index}, {stride}",), ("T",), ret="dst:a",
                 note="iter's scaled form, the stride a constant or a run-time value (uint32_t); with two to four "
                      "(index, stride) pairs the offset sum is computed in a scalar register first and the stride is 1"),)),
    # loads and stores
    RegApi("LoadAlign", PAGES + "Reg数据搬入/连续对齐搬入（LoadAlign）", _load_forms() + _mask_memory_forms(load=True) + _block_copy_forms(load=True)),
    RegApi("StoreAlign", PAGES + "Reg数据搬出/连续对齐搬出（StoreAlign）", _store_forms() + _mask_memory_forms(load=False) + _block_copy_forms(load=False)),
    RegApi("Gather", PAGES + "Reg数据搬入/离散搬入（Gather）",
           (Form("dst:v src:ub index:v mask:p", ("vgat {dst}, [{src}], {index}, {mask}",), ("T0", "T1", "T2")),
            Form("dst:v src:v index:v", ("vgatr {dst}, {src}, {index}",), ("T", "U"),
                 note="the register form (page group 离散操作): lanes of src picked by index"))),
    RegApi("GatherB", PAGES + "Reg数据搬入/离散搬入（GatherB）",
           (Form("dst:v base:ub index:v mask:p", ("vgatb {dst}, [{base}], {index}, {mask}",)),)),
    RegApi("Load", PAGES + "Reg数据搬入/Load",
           (Form("dst:v src:ub", ("vldu {dst}, [{src}]",),
                 note="the page's LoadUnAlignPre + LoadUnAlign pair is one row"),)),
    RegApi("Store", PAGES + "Reg数据搬出/Store",
           (Form("dst:ub src:v", ("vstu [{dst}], {src}",),
                 note="the page's StoreUnAlign + StoreUnAlignPost pair is one row"),
            Form("dst:ub src:v count:n", ("vstu [{dst}], {src}, {count}",)))),
    RegApi("Scatter", PAGES + "Reg数据搬出/离散搬出（Scatter）",
           (Form("dst:ub src:v index:v mask:p", ("vsct [{dst}], {src}, {index}, {mask}",), ("T", "U")),)),
    # unaligned streams: a load stream starts with LoadUnAlignPre; a store stream ends with StoreUnAlignPost
    RegApi("LoadUnAlignPre", PAGES + "Reg数据搬入/连续非对齐搬入（LoadUnAlign）",
           (Form("ureg:q src:ub", ("vldas {ureg}, [{src}]",)),
            Form("ureg:q src:ub off:a", ("vldas {ureg}, [{src} + {off}]",)))),
    RegApi("LoadUnAlign", PAGES + "Reg数据搬入/连续非对齐搬入（LoadUnAlign）",
           (Form("dst:v ureg:q src:ub", ("vldus {dst}, {ureg}, [{src}]",)),
            Form("dst:v ureg:q src:ub& stride:n", ("vldus.pu {dst}, {ureg}, [{src}], {stride}",),
                 ("T", "post=POST_MODE_UPDATE"), (("post", "POST_MODE_UPDATE"),)),
            Form("dst:v ureg:q src:ub off:a inc:s", ("vldus {dst}, {ureg}, [{src} + {off}]",),
                 note="the increment is not used: the address register gives the offset"))),
    RegApi("StoreUnAlign", PAGES + "Reg数据搬出/连续非对齐搬出（StoreUnAlign）",
           (Form("dst:ub& src:v ureg:u stride:n", ("vstus.pu [{dst}], {ureg}, {src}, {stride}",),
                 ("T", "post=POST_MODE_UPDATE"), (("post", "POST_MODE_UPDATE"),)),
            Form("dst:ub src:v ureg:u", ("vstur [{dst}], {ureg}, {src}",), ("T", "post=POST_MODE_UPDATE"),
                 note="the form without a count stores the lanes a Squeeze<STORE_REG> kept, at dst + AR"),
            Form("dst:ub& src:p ureg:u", ("vstus.pu [{dst}], {ureg}, {src}.{T}",), ("T",),
                 note="the MaskReg form (page Reg数据搬出/MaskReg非对齐搬出（StoreUnAlign）): dst advances by "
                      "the bytes stored, 16 for b16, 8 for b32"))),
    RegApi("StoreUnAlignPost", PAGES + "Reg数据搬出/连续非对齐搬出（StoreUnAlign）",
           (Form("dst:ub& ureg:u stride:n", ("vstas.pu [{dst}], {ureg/T}, {stride}",), ("T", "post=POST_MODE_UPDATE"),
                 (("post", "POST_MODE_UPDATE"),)),
            Form("dst:ub ureg:u", ("vstar [{dst}], {ureg}",), ("T",)))),
    RegApi("ClearSpr", PAGES + "系统变量访问/ClearSpr", (Form("", ("sprclr.ar",), ("spr",), (("spr", "AR"),)),)),
    # moves
    RegApi("Move", PAGES + "Reg数据搬入/Move",
           (Form("dst:v src:v mask:p", ("vmov {dst}, {src}, {mask}",), ("T", "mode=MERGING"), (("mode", "MERGING"),)),
            Form("dst:p src:p", ("pmov {dst}, {src}",), ()),
            Form("dst:p src:p mask:p", ("pmov {dst}, {src}, {mask}",), ()))),
    # arithmetic
    RegApi("Add", _ARITH + "Add", _binary("vadd", "vadd.merge")),
    RegApi("Sub", _ARITH + "Sub", _binary("vsub")),
    RegApi("Mul", _ARITH + "Mul", _binary("vmul")),
    RegApi("Div", _ARITH + "Div", _binary_algo("vdiv", "vdiv.nftz", _DIV_ALGO, _DIV_FLOAT_ONLY)),
    RegApi("Max", _ARITH + "Max", _binary("vmax", "vmax.merge")),
    RegApi("Min", _ARITH + "Min", _binary("vmin", "vmin.merge")),
    RegApi("Prelu", _ARITH + "Prelu", _binary("vprelu")),
    RegApi("AbsSub", PAGES + "复合计算/AbsSub", _binary("vabssub")),
    RegApi("MulDstAdd", PAGES + "复合计算/MulDstAdd",
           (Form("dst:v src0:v src1:v mask:p", ("vmadd {dst}, {src0}, {src1}, {mask}",), _BIN, (("mode", "ZEROING"),)),)),
    RegApi("MulAddDst", PAGES + "复合计算/MulAddDst",
           (Form("dst:v src0:v src1:v mask:p", ("vmla {dst}, {src0}, {src1}, {mask}",), _BIN, (("mode", "ZEROING"),)),)),
    # a computation fused with a conversion: RegLayout ZERO/ONE picks the half-width side's lanes (even|odd)
    RegApi("ExpSub", PAGES + "复合计算/ExpSub",
           tuple(Form("dst:v src0:v src1:v mask:p", (f"vexpsub {{dst}}, {{src0}}, {{src1}}, {{mask}}{part}",),
                      ("T", "U", "layout=ZERO", MERGE), (("layout", layout),),
                      note="f32 sources take RegLayout::ZERO only (the page: the layout has no effect)" if part else "")
                 for layout, part in (("ZERO", ""), ("ONE", ", odd")))),
    RegApi("MulsCast", PAGES + "复合计算/MulsCast",
           tuple(Form("dst:v src:v scalar:s mask:p", (f"vmulscvt {{dst}}, {{src}}, {{scalar/f32}}, {{mask}}{part}",),
                      ("T0", "T1", "T2", "layout=ZERO"), (("layout", layout),))
                 for layout, part in (("ZERO", ""), ("ONE", ", odd")))),
    *(RegApi(name, _ARITH + name,
             (Form("carry:p dst:v src0:v src1:v carrySrc:p mask:p",
                   (f"{m} {{carry}}, {{dst}}, {{src0}}, {{src1}}, {{carrySrc}}, {{mask}}",)),))
      for name, m in (("AddC", "vaddc"), ("SubC", "vsubc"))),
    RegApi("Mull", _ARITH + "Mull",
           (Form("dst0:v dst1:v src0:v src1:v mask:p", ("vmull {dst0}, {dst1}, {src0}, {src1}, {mask}",)),)),
    RegApi("Adds", _ARITH + "Adds", _with_scalar("vadds")),
    RegApi("Muls", _ARITH + "Muls", _with_scalar("vmuls")),
    RegApi("Maxs", _ARITH + "Maxs", _with_scalar("vmaxs")),
    RegApi("Mins", _ARITH + "Mins", _with_scalar("vmins")),
    RegApi("LeakyRelu", _ARITH + "LeakyRelu", _with_scalar("vleakyrelu")),
    RegApi("Axpy", PAGES + "复合计算/Axpy", _with_scalar("vaxpy")),
    RegApi("Abs", _ARITH + "Abs", _unary("vabs")),
    RegApi("Neg", _ARITH + "Neg", _unary("vneg")),
    RegApi("Exp", _ARITH + "Exp", _unary_algo("vexp", "vexp.nftz", _LOG_ALGO)),
    RegApi("Sqrt", _ARITH + "Sqrt", _unary_algo("vsqrt", "vsqrt.nftz", _SQRT_ALGO, _SQRT_FLOAT_ONLY)),
    RegApi("Ln", _ARITH + "Ln", _unary_algo("vln", "vln.nftz", _LOG_ALGO)),
    # Log is Ln under the C library's name (its page says so); Log2 and Log10 are their own rows
    RegApi("Log", _ARITH + "Log", _unary_algo("vln", "vln.nftz", _LOG_ALGO)),
    RegApi("Log2", _ARITH + "Log2", _unary_algo("vlog2", "vlog2.nftz", _LOG_ALGO)),
    RegApi("Log10", _ARITH + "Log10", _unary_algo("vlog10", "vlog10.nftz", _LOG_ALGO)),
    RegApi("Relu", _ARITH + "Relu", _unary("vrelu")),
    # logic (vector and mask registers)
    RegApi("And", _LOGIC + "And", _binary("vand") + _mask_logic("pand")),
    RegApi("Or", _LOGIC + "Or", _binary("vor") + _mask_logic("por")),
    RegApi("Xor", _LOGIC + "Xor", _binary("vxor") + _mask_logic("pxor")),
    RegApi("Not", _LOGIC + "Not",
           _unary("vnot") + (Form("dst:p src:p mask:p", ("pnot {dst}, {src}, {mask}",), ()),)),
    RegApi("ShiftLeft", _LOGIC + "ShiftLeft", _binary("vshl")),
    RegApi("ShiftRight", _LOGIC + "ShiftRight", _binary("vshr")),
    RegApi("ShiftLefts", _LOGIC + "ShiftLefts", _with_scalar("vshls")),
    RegApi("ShiftRights", _LOGIC + "ShiftRights", _with_scalar("vshrs")),
    # compare and select
    RegApi("Compare", _CMP + "Compare",
           tuple(Form("dst:p src0:v src1:v mask:p", (f"vcmp.{m} {{dst}}, {{src0}}, {{src1}}, {{mask}}",),
                      ("T", "mode=EQ"), (("mode", c),)) for c, m in COMPARE_MODES.items())),
    RegApi("Compares", _CMP + "Compares",
           tuple(Form("dst:p src:v scalar:s mask:p", (f"vcmps.{m} {{dst}}, {{src}}, {{scalar}}, {{mask}}",),
                      ("T", "mode=EQ"), (("mode", c),)) for c, m in COMPARE_MODES.items())),
    RegApi("Select", _CMP + "Select",
           (Form("dst:v src0:v src1:v mask:p", ("vsel {dst}, {src0}, {src1}, {mask}",)),
            Form("dst:p src0:p src1:p mask:p", ("psel {dst}, {src0}, {src1}, {mask}",), ()))),
    RegApi("Squeeze", _CMP + "Squeeze",
           (Form("dst:v src:v mask:p", ("vsqz {dst}, {src}, {mask}",), ("T", "store=NO_STORE_REG"),
                 (("store", "NO_STORE_REG"),)),
            Form("dst:v src:v mask:p", ("vsqz.st {dst}, {src}, {mask}",), ("T", "store=NO_STORE_REG"),
                 (("store", "STORE_REG"),)))),
    # fill and index
    RegApi("Duplicate", PAGES + "数据填充/Duplicate",
           (Form("dst:v scalar:s", ("vdup {dst}, {scalar}",), ("T",)),
            Form("dst:v scalar:s mask:p", ("vdup {dst}, {scalar}, {mask}",), ("T", MERGE), (("mode", "ZEROING"),)),
            Form("dst:v scalar:s mask:p", ("vdup.merge {dst}, {scalar}, {mask}",), ("T", MERGE), (("mode", "MERGING"),)),
            Form("dst:v src:v mask:p", ("vdup.v {dst}, {src}, {mask}",), ("T", "pos=LOWEST", MERGE),
                 (("pos", "LOWEST"), ("mode", "ZEROING"))),
            Form("dst:v src:v mask:p", ("vdup.v.merge {dst}, {src}, {mask}",), ("T", "pos=LOWEST", MERGE),
                 (("pos", "LOWEST"), ("mode", "MERGING"))))),
    RegApi("Arange", PAGES + "索引操作/Arange",
           (Form("dst:v scalar:s", ("vci {dst}, {scalar}",), ("T", "order=INCREASE_ORDER"),
                 (("order", "INCREASE_ORDER"),)),
            Form("dst:v scalar:s", ("vci.desc {dst}, {scalar}",), ("T", "order=INCREASE_ORDER"),
                 (("order", "DECREASE_ORDER"),)))),
    RegApi("Unsqueeze", PAGES + "数据压缩/Unsqueeze", (Form("dst:v mask:p", ("vusqz {dst}, {mask}",)),)),
    RegApi("Histograms", PAGES + "直方图计算/Histograms",
           tuple(Form("dst:v src:v mask:p", (f"{m}.bin{b} {{dst}}, {{src}}, {{mask}}",), ("T", "U", "mode", "type"),
                      (("mode", f"BIN{b}"), ("type", kind)))
                 for kind, m in (("FREQUENCY", "vhist"), ("ACCUMULATE", "vchist")) for b in (0, 1))),
    # reductions
    RegApi("Reduce", PAGES + "归约计算/Reduce",
           tuple(Form("dst:v src:v mask:p", (f"{m} {{dst}}, {{src}}, {{mask}}",), ("type=SUM", "T", "U", MERGE),
                      (("type", t), ("mode", "ZEROING"))) for t, m in REDUCE_TYPES.items())),
    *(RegApi(f"Reduce{t.title()}{blk}", PAGES + "归约计算/Reduce",
             (Form("dst:v src:v mask:p", (f"{m}{'.blk' if blk else ''} {{dst}}, {{src}}, {{mask}}",), ("T", "U", MERGE),
                   (("mode", "ZEROING"),), note=f"the older name of Reduce{'DataBlock' if blk else ''}<{t}>"),))
      for t, m in REDUCE_TYPES.items() for blk in ("", "WithDataBlock")),
    RegApi("ReduceDataBlock", PAGES + "归约计算/ReduceDataBlock",
           tuple(Form("dst:v src:v mask:p", (f"{m}.blk {{dst}}, {{src}}, {{mask}}",), ("type=SUM", "T", MERGE),
                      (("type", t), ("mode", "ZEROING"))) for t, m in REDUCE_TYPES.items())),
    RegApi("PairReduceElem", PAGES + "归约计算/PairReduceElem",
           (Form("dst:v src:v mask:p", ("vpairsum {dst}, {src}, {mask}",), ("type=SUM", "T", MERGE),
                 (("type", "SUM"), ("mode", "ZEROING"))),)),
    # rearrangement
    RegApi("Interleave", PAGES + "数据重排/Interleave",
           (Form("dst0:v dst1:v src0:v src1:v", ("vintlv {dst0}, {dst1}, {src0}, {src1}",)),
            Form("dst0:p dst1:p src0:p src1:p", ("pintlv {dst0.b}, {dst1}, {src0}, {src1}",)))),
    RegApi("DeInterleave", PAGES + "数据重排/DeInterleave",
           (Form("dst0:v dst1:v src0:v src1:v", ("vdintlv {dst0}, {dst1}, {src0}, {src1}",)),
            Form("dst0:p dst1:p src0:p src1:p", ("pdintlv {dst0.b}, {dst1}, {src0}, {src1}",)))),
    RegApi("Pack", PAGES + "数据压缩/Pack",
           (Form("dst:v src:v", ("vpack.lo {dst}, {src}",), ("T", "U", "part=LOWEST"), (("part", "LOWEST"),)),
            Form("dst:v src:v", ("vpack.hi {dst}, {src}",), ("T", "U", "part=LOWEST"), (("part", "HIGHEST"),)),
            Form("dst:p src:p", ("ppack.lo {dst}, {src}",), ("part=LOWEST",), (("part", "LOWEST"),)),
            Form("dst:p src:p", ("ppack.hi {dst}, {src}",), ("part=LOWEST",), (("part", "HIGHEST"),)))),
    RegApi("UnPack", PAGES + "数据压缩/UnPack",
           (Form("dst:v src:v", ("vunpack.lo {dst}, {src}",), ("T", "U", "part=LOWEST"), (("part", "LOWEST"),)),
            Form("dst:v src:v", ("vunpack.hi {dst}, {src}",), ("T", "U", "part=LOWEST"), (("part", "HIGHEST"),)),
            Form("dst:p src:p", ("punpack.lo {dst}, {src}",), ("part=LOWEST",), (("part", "LOWEST"),)),
            Form("dst:p src:p", ("punpack.hi {dst}, {src}",), ("part=LOWEST",), (("part", "HIGHEST"),)))),
    # conversions: the trait's round mode, saturation and layout become vcvt's suffix and keywords
    RegApi("Cast", PAGES + "类型转换/Cast",
           (Form("dst:v src:v mask:p", ("vcvt{cast} {dst}, {src}, {mask}{cast_options}",), ("T", "U", "trait"),
                 note="trait.roundMode -> the suffix (.rint, .round, ...; none for UNKNOWN), satMode SAT -> `sat`, "
                      "layoutMode ZERO/ONE(/TWO/THREE) -> `even`/`odd` (`part0`..`part3`) where the widths differ "
                      "(4:1 for int4x2 and fp4x2 against a 16-bit type: 4 bits per value)"),)),
    RegApi("Truncate", PAGES + "类型转换/Truncate",
           tuple(Form("dst:v src:v mask:p", (f"vtrc.{m} {{dst}}, {{src}}, {{mask}}",), ("T", "roundMode", MERGE),
                      (("roundMode", r),)) for r, m in ROUND_MODES.items() if m in ("rint", "round", "floor",
                                                                                   "ceil", "trunc"))),
    # mask registers
    # synchronisation: ascasm runs in program order, every barrier kind is one membar
    RegApi("LocalMemBar", PAGES + "同步控制/LocalMemBar",
           (Form("", ("membar",), ("src", "dst")),)),
)
BY_NAME = {api.name: api for api in APIS}

# Calls that run on the scalar/host side of a kernel, never inside a vector function.
HOST_SIDE = {"DataCopy", "DataCopyPad", "SetFlag", "WaitFlag", "PipeBarrier", "EnQue", "DeQue", "AllocTensor",
             "FreeTensor", "GetPhyAddr", "InitBuffer", "SetGlobalBuffer", "GetBlockIdx", "GetBlockNum",
             "SyncAll", "SetAtomicAdd", "SetAtomicNone", "Duplicate_", "GetValue", "SetValue", "Get", "Set"}
# Older names of Reg functions that public kernels still use (part of lookup()): the function's name, or
# (the function when the call's first argument is a vector or mask register, a load's destination; the
# function otherwise). Reg::DataCopy is also the name of a host-side call (HOST_SIDE).
REG_ALIASES = {"DataCopy": ("LoadAlign", "StoreAlign"), "DataCopyUnAlign": ("LoadUnAlign", "StoreUnAlign"),
               "DataCopyUnAlignPre": "LoadUnAlignPre", "DataCopyUnAlignPost": "StoreUnAlignPost",
               "DataCopyGather": "Gather", "DataCopyScatter": "Scatter", "CompareScalar": "Compares",
               "MaskPack": "Pack", "MaskUnPack": "UnPack", "MaskInterleave": "Interleave",
               "MaskDeInterleave": "DeInterleave", "MaskSelect": "Select", "MaskAnd": "And", "MaskOr": "Or",
               "MaskXor": "Xor", "MaskNot": "Not", "MaskMov": "Move", "Copy": "Move", "Mula": "MulAddDst"}


def functions_of(mnemonic: str) -> list[str]:
    """The Reg API functions with a form that becomes `mnemonic`, in table order (Cast: every vcvt row)."""
    found = []
    for api in APIS:
        heads = {text.split()[0] for form in api.forms for text in form.asm}
        if any(head == mnemonic or (head.endswith("{cast}") and mnemonic.split(".")[0] == head[:-len("{cast}")])
               for head in heads) and api.name not in found:
            found.append(api.name)
    return found


def lookup(name: str, loads: bool | None = None) -> RegApi | None:
    """The API `name` means (`Add`, `Reg::Add`, `MicroAPI::Add`, `AscendC::Reg::Add`, an older name such
    as `Copy`), or None. A name of two functions (DataCopy: LoadAlign or StoreAlign) means one only with
    `loads`, whether the call's first argument is a register (a load's destination)."""
    meant = meanings(name)
    if len(meant) == 2:
        return None if loads is None else meant[0 if loads else 1]
    return meant[0] if meant else None


def meanings(name: str) -> list[RegApi]:
    """Every API `name` may mean: one, two for a name of a load and a store (DataCopy), or none."""
    short = name.split("::")[-1]
    target = REG_ALIASES.get(short, short)
    return [BY_NAME[t] for t in ((target,) if isinstance(target, str) else target) if t in BY_NAME]


def explain_lines(name: str, form_types=lambda form: []) -> list[str]:
    """What `ascasm explain Reg::NAME` prints: each form's arguments, template options and rows, and
    the lines `form_types(form)` gives for it (the lane types it takes, from the ISA table); for an
    older name, which function(s) it means first."""
    short = name.split("::")[-1]
    lines = []
    meant = meanings(name)
    if short in REG_ALIASES and meant:
        which = " or ".join(f"Reg::{api.name}" for api in meant)
        lines.append(f"Reg::{short} is an older name of {which}" +
                     (" (a load when the first argument is a register, else a store)" if len(meant) == 2 else "") + ":")
    for api in meant:
        lines += _api_lines(api, form_types)
    return lines


def _api_lines(api: RegApi, form_types) -> list[str]:
    lines = [f"Reg::{api.name} (also MicroAPI::{api.name}), reference page {api.page_name}:"]
    for form in api.forms:
        args = ", ".join(form.args.split())
        opts = ", ".join(f"{k}={v}" for k, v in form.when)
        ret = f" -> {form.ret}" if form.ret else ""
        lines.append(f"  {api.name}<{', '.join(form.tparams)}>({args}){ret}" + (f"  [{opts}]" if opts else ""))
        lines += [f"      {text}" for text in form.asm]
        lines += form_types(form)
        if form.note:
            lines += textwrap.wrap(f"({form.note})", 100, initial_indent="      ", subsequent_indent="       ")
    return lines
