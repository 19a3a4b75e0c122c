"""Every function page of the public Reg API reference has rows: `ascasm explain Reg::NAME` (and
MicroAPI::NAME) lists the instructions of each function a page declares.

PAGE_FUNCTIONS is the transcription: each function page (GROUP/TITLE, the names are the reference's)
with the functions its prototypes declare (`__simd_callee__ inline ... NAME(`). NOT_FUNCTIONS lists the
other pages, each with the reason it declares none. With the reference pages at hand, set
ASCASM_REG_PAGES to their directory and the transcription itself is checked against them."""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from ascasm.explain import explain_lines, reg_mnemonics
from ascasm.isa import regapi

PAGE_FUNCTIONS = {
    "MaskReg计算/DeInterleave": "DeInterleave",
    "MaskReg计算/Interleave": "Interleave",
    "MaskReg计算/Move": "Move",
    "MaskReg计算/MoveMask": "MoveMask",
    "MaskReg计算/Pack": "Pack",
    "MaskReg计算/Select": "Select",
    "MaskReg计算/UnPack": "UnPack",
    "Reg数据搬入/Load": "Load",
    "Reg数据搬入/MaskReg搬入（LoadAlign）": "LoadAlign",
    "Reg数据搬入/MaskReg搬入（MaskGenWithRegTensor）": "MaskGenWithRegTensor",
    "Reg数据搬入/Move": "Move",
    "Reg数据搬入/离散搬入（GatherB）": "GatherB",
    "Reg数据搬入/离散搬入（Gather）": "Gather",
    "Reg数据搬入/连续对齐搬入（LoadAlign）": "LoadAlign",
    "Reg数据搬入/连续非对齐搬入（LoadUnAlign）": "LoadUnAlignPre LoadUnAlign",
    "Reg数据搬入/非连续对齐搬入（LoadAlign）": "LoadAlign",
    "Reg数据搬出/MaskReg搬出（StoreAlign）": "StoreAlign",
    "Reg数据搬出/MaskReg非对齐搬出（StoreUnAlign）": "StoreUnAlign StoreUnAlignPost",
    "Reg数据搬出/Store": "Store",
    "Reg数据搬出/离散搬出（Scatter）": "Scatter",
    "Reg数据搬出/连续对齐搬出（StoreAlign）": "StoreAlign",
    "Reg数据搬出/连续非对齐搬出（StoreUnAlign）": "StoreUnAlign StoreUnAlignPost",
    "Reg数据搬出/非连续对齐搬出（StoreAlign）": "StoreAlign",
    "同步控制/LocalMemBar": "LocalMemBar",
    "基础算术/Abs": "Abs",
    "基础算术/Add": "Add",
    "基础算术/AddC": "AddC",
    "基础算术/Adds": "Adds",
    "基础算术/Div": "Div",
    "基础算术/Exp": "Exp",
    "基础算术/LeakyRelu": "LeakyRelu",
    "基础算术/Ln": "Ln",
    "基础算术/Log": "Log",
    "基础算术/Log10": "Log10",
    "基础算术/Log2": "Log2",
    "基础算术/Max": "Max",
    "基础算术/Maxs": "Maxs",
    "基础算术/Min": "Min",
    "基础算术/Mins": "Mins",
    "基础算术/Mul": "Mul",
    "基础算术/Mull": "Mull",
    "基础算术/Muls": "Muls",
    "基础算术/Neg": "Neg",
    "基础算术/Prelu": "Prelu",
    "基础算术/Relu": "Relu",
    "基础算术/Sqrt": "Sqrt",
    "基础算术/Sub": "Sub",
    "基础算术/SubC": "SubC",
    "复合计算/AbsSub": "AbsSub",
    "复合计算/Axpy": "Axpy",
    "复合计算/ExpSub": "ExpSub",
    "复合计算/MulAddDst": "MulAddDst",
    "复合计算/MulDstAdd": "MulDstAdd",
    "复合计算/MulsCast": "MulsCast",
    "寄存器数据类型/AddrReg": "CreateAddrReg",
    "寄存器数据类型/MaskReg": "CreateMask UpdateMask Add",      # Add: the page's example declares it too
    "归约计算/PairReduceElem": "PairReduceElem",
    "归约计算/Reduce": "Reduce",
    "归约计算/ReduceDataBlock": "ReduceDataBlock",
    "数据压缩/Pack": "Pack",
    "数据压缩/UnPack": "UnPack",
    "数据压缩/Unsqueeze": "Unsqueeze",
    "数据填充/Duplicate": "Duplicate",
    "数据重排/DeInterleave": "DeInterleave",
    "数据重排/Interleave": "Interleave",
    "比较与选择/Compare": "Compare",
    "比较与选择/Compares": "Compares",
    "比较与选择/Select": "Select",
    "比较与选择/Squeeze": "Squeeze",
    "直方图计算/Histograms": "Histograms",
    "离散操作/Gather": "Gather",
    "类型转换/Cast": "Cast",
    "类型转换/Truncate": "Truncate",
    "系统变量访问/ClearSpr": "ClearSpr",
    "索引操作/Arange": "Arange",
    "逻辑计算/And": "And",
    "逻辑计算/Not": "Not",
    "逻辑计算/Or": "Or",
    "逻辑计算/ShiftLeft": "ShiftLeft",
    "逻辑计算/ShiftLefts": "ShiftLefts",
    "逻辑计算/ShiftRight": "ShiftRight",
    "逻辑计算/ShiftRights": "ShiftRights",
    "逻辑计算/Xor": "Xor",
}

_GROUP_OVERVIEW = "a group's overview page: links to the group's function pages, declares nothing"
NOT_FUNCTIONS = {
    **{page: _GROUP_OVERVIEW for page in (
        "MaskReg计算/MaskReg计算", "Reg数据搬入/Reg数据搬入", "Reg数据搬出/Reg数据搬出", "同步控制/同步控制",
        "基础算术/基础算术", "基础算术/概述", "复合计算/复合计算", "复合计算/概述", "寄存器数据类型/寄存器数据类型",
        "归约计算/归约计算", "数据压缩/数据压缩", "数据填充/数据填充", "数据重排/数据重排", "比较与选择/概述",
        "比较与选择/比较与选择", "直方图计算/直方图计算", "离散操作/离散操作", "类型转换/类型转换",
        "系统变量访问/系统变量访问", "索引操作/索引操作", "逻辑计算/概述", "逻辑计算/逻辑计算", "VF调用/VF调用",
        "辅助数据类型/辅助数据类型")},
    "Reg矢量计算": "the reference's introduction to the Reg layer",
    "概述": "the reference's overview of the Reg layer (an example vector function, no API)",
    "关键特性说明/关键特性说明": "explains features shared by the pages (register overlap, merging), declares nothing",
    "VF调用/asc_vf_call": "the host-side launch of a vector function: not a Reg:: function, not inside one",
    "寄存器数据类型/RegTensor": "a register type (the vector registers), not a function",
    "寄存器数据类型/UnalignRegForLoad-UnalignRegForStore": "register types (the unaligned stream registers)",
    **{f"辅助数据类型/{name}": "an enumeration the functions take as a template option" for name in (
        "MaskMergeMode", "PostLiteral", "RegLayout", "RoundMode", "SatMode")},
}

# Pages that add a form to a function another page also describes: the argument kinds of that form
# (see ascasm/isa/regapi.py), which must be among the function's forms.
PAGE_FORMS = {
    "Reg数据搬入/MaskReg搬入（LoadAlign）": ("LoadAlign", ("dst:p src:ub", "dst:p src:ub& stride:n", "dst:p src:ub off:a")),
    "Reg数据搬出/MaskReg搬出（StoreAlign）": ("StoreAlign", ("dst:ub src:p", "dst:ub& src:p stride:n", "dst:ub src:p off:a")),
    "离散操作/Gather": ("Gather", ("dst:v src:v index:v",)),
    "Reg数据搬入/离散搬入（Gather）": ("Gather", ("dst:v src:ub index:v mask:p",)),
    "MaskReg计算/Move": ("Move", ("dst:p src:p", "dst:p src:p mask:p")),
    "Reg数据搬出/Store": ("Store", ("dst:ub src:v", "dst:ub src:v count:n")),
    "Reg数据搬出/MaskReg非对齐搬出（StoreUnAlign）": ("StoreUnAlign", ("dst:ub& src:p ureg:u",)),
}
# Forms a page describes that have no row yet: listed so that the gap is visible (strict xfail: the
# test fails once the form exists, to be moved to PAGE_FORMS).
MISSING_FORMS: dict = {}


@pytest.mark.parametrize("page", sorted(PAGE_FUNCTIONS))
def test_every_function_of_a_page_has_rows(page):
    for name in PAGE_FUNCTIONS[page].split():
        for spelling in (f"Reg::{name}", f"MicroAPI::{name}"):
            assert reg_mnemonics(spelling), f"{spelling} ({page}) has no rows"
            text = "\n".join(explain_lines(spelling))
            assert f"Reg::{name} (also MicroAPI::{name})" in text and "instructions:" in text, spelling


@pytest.mark.parametrize("page", sorted(PAGE_FORMS))
def test_pages_adding_a_form_have_it(page):
    name, forms = PAGE_FORMS[page]
    have = {form.args for form in regapi.lookup(name).forms}
    assert set(forms) <= have, (page, set(forms) - have)


@pytest.mark.parametrize("page", sorted(MISSING_FORMS))
@pytest.mark.xfail(strict=True, reason="no row yet for this page's form")
def test_forms_still_missing(page):
    name, forms = MISSING_FORMS[page]
    assert set(forms) <= {form.args for form in regapi.lookup(name).forms}


def test_transcription_matches_the_pages():
    """With ASCASM_REG_PAGES naming the reference's Reg API directory: every page is either in
    PAGE_FUNCTIONS with exactly the functions its prototypes declare, or in NOT_FUNCTIONS and declares
    none."""
    root = os.environ.get("ASCASM_REG_PAGES")
    if not root:
        pytest.skip("ASCASM_REG_PAGES is not set (the reference pages are not part of the repository)")
    declared = {}
    for path in sorted(Path(root).rglob("*.md")):
        names = re.findall(r"__simd_callee__.*?\binline\s+[\w:<>&]+\s+(\w+)\s*\(", path.read_text(encoding="utf-8"))
        declared[path.relative_to(root).with_suffix("").as_posix()] = " ".join(dict.fromkeys(names))
    assert {page: names for page, names in declared.items() if names} == PAGE_FUNCTIONS
    assert {page for page, names in declared.items() if not names} == set(NOT_FUNCTIONS)
