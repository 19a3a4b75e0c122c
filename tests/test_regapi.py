"""The Reg API mapping data (ascasm/isa/regapi.py): every row it names exists in the ISA table, every
operand a template uses is an argument of its form, `ascasm explain Reg::NAME` prints it, and the
table in docs/frontend.md is generated from it (tools/gen_frontend_table.py, checked by test_regen.py)."""
from __future__ import annotations

import pytest

from ascasm.explain import explain_lines
from ascasm.isa import BY_MNEMONIC, regapi
from ascasm.isa.operands import Kind
from conftest import run_cli


def test_every_form_names_existing_rows_and_its_own_arguments():
    for api in regapi.APIS:
        for form in api.forms:
            roles = {arg.role for arg in form.operands} | ({form.result.role} if form.result else set())
            for template in form.templates:
                assert template.mnemonic in BY_MNEMONIC, (api.name, template.text)
                for slot in template.pieces:
                    if isinstance(slot, regapi.OperandSlot):
                        assert slot.arg.role in roles, (api.name, template.text, slot)
            for option, _ in form.when:
                assert option.split(".")[0] in [p.split("=")[0] for p in form.tparams], (api.name, option)


def test_option_values_reach_distinct_rows():
    load = regapi.lookup("LoadAlign")
    plain = {dict(f.when)["dist"]: f.asm[0] for f in load.forms if f.args == "dst:v src:ub"}
    assert plain["DIST_NORM"] == "vld {dst}, [{src}]"
    assert plain["DIST_BRC_B32"] == "vld.brc {dst/b32}, [{src}]"
    assert plain["DIST_UNPACK_B16"] == "vld.unpk {dst/b16}, [{src}]"
    compare = {dict(f.when)["mode"]: f.asm[0].split()[0] for f in regapi.lookup("Compare").forms}
    assert compare == {"EQ": "vcmp.eq", "NE": "vcmp.ne", "LT": "vcmp.lt", "LE": "vcmp.le", "GT": "vcmp.gt",
                       "GE": "vcmp.ge"}


def test_forms_are_compiled_once_into_typed_arguments_and_templates():
    store = next(f for f in regapi.lookup("StoreAlign").forms if f.args == "dst:ub& src:v stride:n mask:p")
    assert [(a.role, a.kind, a.written) for a in store.operands] == [
        ("dst", Kind.BASE, True), ("src", Kind.VREG, False), ("stride", Kind.SVAL, False), ("mask", Kind.PREG, False)]
    assert store.advanced == (store.operands[0], store.operands[2])
    template = store.templates[0]
    assert template.post_update and template.first_vector().arg is store.operands[1]
    assert template.without_post_update().text == "vsta [{dst}], {src}, {mask}"
    # `a` is the AddrReg, as the assembly's register file letter; a UB pointer is `ub`
    offset = next(f for f in regapi.lookup("LoadAlign").forms if f.args == "dst:v src:ub off:a")
    assert [a.kind for a in offset.operands] == [Kind.VREG, Kind.ADDR, Kind.AREG]
    assert regapi.lookup("CreateAddrReg").forms[0].result.kind is Kind.AREG
    with pytest.raises(ValueError, match="bad slot"):
        regapi.Form("dst:v", ("vmov {dst}, {src}",))
    with pytest.raises(ValueError, match="bad argument kind"):
        regapi.Form("dst:x", ("vmov {dst}",))


def test_older_names_are_part_of_the_lookup():
    assert regapi.lookup("Reg::Copy") is regapi.lookup("Move")
    assert regapi.lookup("Mula") is regapi.lookup("MulAddDst")
    # DataCopy is a load or a store by its first argument
    assert regapi.lookup("DataCopy") is None
    assert regapi.lookup("DataCopy", loads=True) is regapi.lookup("LoadAlign")
    assert regapi.lookup("DataCopy", loads=False) is regapi.lookup("StoreAlign")
    text = "\n".join(explain_lines("Reg::Copy"))
    assert text.startswith("Reg::Copy is an older name of Reg::Move:") and "vmov {dst}, {src}, {mask}" in text
    result = run_cli("explain", "Reg::DataCopy")
    assert result.returncode == 0 and "Reg::LoadAlign (also" in result.stdout and "Reg::StoreAlign (also" in \
        result.stdout


def test_lookup_accepts_both_namespaces():
    assert regapi.lookup("Reg::Add") is regapi.lookup("MicroAPI::Add") is regapi.lookup("AscendC::Reg::Add")
    assert regapi.lookup("Reg::NoSuchThing") is None


def test_explain_prints_forms_and_rows():
    text = "\n".join(explain_lines("Reg::Add"))
    assert "Reg::Add (also MicroAPI::Add)" in text and "vadd.merge {dst}, {src0}, {src1}, {mask}" in text
    assert "[mode=MERGING]" in text
    result = run_cli("explain", "MicroAPI::Muls")
    assert result.returncode == 0 and "vmuls {dst}, {src}, {scalar}, {mask}" in result.stdout
    result = run_cli("explain", "Reg::Addd")
    assert result.returncode == 64 and "did you mean 'Reg::Add'" in result.stderr



def form_block(lines: list[str], asm: str) -> list[str]:
    """The lines under a form of `explain Reg::NAME` whose instruction template is `asm`, to the next form."""
    start = lines.index(f"      {asm}")
    end = next(k for k in range(start + 1, len(lines)) if not lines[k].startswith("      "))
    return lines[start + 1:end]


def test_explain_lists_the_lane_types_of_each_form():
    """Reg::Add: the page's types without the carry (int8_t .. uint64_t, complex aside, which ascasm has
    not) for ZEROING; MERGING lists a subset of them (rows the table has). Cast: the page's examples'
    pairs (half -> int32_t, float -> int16_t) are among its T/U pairs. StoreAlign's DIST_NORM_B8 and
    LoadAlign's DIST_BRC_B16 move raw bits: any type of that width."""
    page_types = "s8 u8 s16 u16 f16 bf16 s32 u32 f32 s64 u64".split()
    add = explain_lines("Reg::Add")
    assert form_block(add, "vadd {dst}, {src0}, {src1}, {mask}") == ["      types T: " + " ".join(page_types)]
    (merging,) = form_block(add, "vadd.merge {dst}, {src0}, {src1}, {mask}")
    assert merging.startswith("      types T: ") and set(merging.split()[2:]) <= set(page_types)
    cast = form_block(explain_lines("Reg::Cast"), "vcvt{cast} {dst}, {src}, {mask}{cast_options}")
    pairs = " ".join(line for line in cast if not line.lstrip().startswith("(")).split()
    assert pairs[:4] == ["types", "T/U", "(vD.T,", "vS.U):"] and {"s32/f16", "s16/f32"} <= set(pairs)
    store = explain_lines("Reg::StoreAlign")
    assert form_block(store, "vsta [{dst}], {src/b8}, {mask}") == ["      types: any 8-bit type (moved as b8)"]
    load = explain_lines("Reg::LoadAlign")
    assert form_block(load, "vld.brc {dst/b16}, [{src}]")[0] == "      types: any 16-bit type (moved as b16)"
    mask = explain_lines("MicroAPI::And")
    assert form_block(mask, "pand {dst}, {src0}, {src1}, {mask}") == []     # mask registers: no lane type


def test_explain_wraps_summaries_instead_of_cutting_them():
    """Every instruction's summary whole, wrapped under its column at 100 columns."""
    for name in ("Reg::Add", "Reg::Gather", "Reg::Cast"):
        lines = explain_lines(name)
        listed = lines[lines.index("instructions:") + 1:]
        assert all(len(line) <= 100 for line in listed), name
        text = " ".join(" ".join(listed).split())
        for mnemonic in ("vadd", "vadd.merge") if name == "Reg::Add" else ("vgat", "vgatr") if name == "Reg::Gather" \
                else ("vcvt",):
            summary = " ".join(BY_MNEMONIC[mnemonic][0].summary.split())
            assert f"{mnemonic} {summary}" in text, mnemonic
