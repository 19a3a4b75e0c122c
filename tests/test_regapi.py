"""The Reg API mapping data (ascasm/isa/regapi.py): every row it names exists in the ISA table, every
operand a template uses is an argument of its form, `ascasm explain Reg::NAME` prints it, and the
table in docs/frontend.md is generated from it (tools/gen_frontend_table.py, checked by test_regen.py)."""
from __future__ import annotations

import re

from ascasm.explain import explain_lines
from ascasm.isa import BY_MNEMONIC, regapi
from conftest import run_cli


def test_every_form_names_existing_rows_and_its_own_arguments():
    for api in regapi.APIS:
        for form in api.forms:
            roles = {role for role, _ in form.arg_list} | ({form.ret.split(":")[0]} if form.ret else set())
            for text in form.asm:
                mnemonic = re.sub(r"\{cast\}", "", text.split()[0])
                assert mnemonic in BY_MNEMONIC, (api.name, text)
                for field in re.findall(r"\{([^}]*)\}", text):
                    if field in ("T", "cast", "cast_options") or field.startswith("opt:"):
                        continue
                    assert re.split(r"[./]", field)[0] in roles, (api.name, text, field)
            for option, _ in form.when:
                assert option.split(".")[0] in [p.split("=")[0] for p in form.tparams], (api.name, option)


def test_option_values_reach_distinct_rows():
    load = regapi.lookup("LoadAlign")
    plain = {dict(f.when)["dist"]: f.asm[0] for f in load.forms if f.args == "dst:v src:a"}
    assert plain["DIST_NORM"] == "vld {dst}, [{src}]"
    assert plain["DIST_BRC_B32"] == "vld.brc {dst/b32}, [{src}]"
    assert plain["DIST_UNPACK_B16"] == "vld.unpk {dst/b16}, [{src}]"
    compare = {dict(f.when)["mode"]: f.asm[0].split()[0] for f in regapi.lookup("Compare").forms}
    assert compare == {"EQ": "vcmp.eq", "NE": "vcmp.ne", "LT": "vcmp.lt", "LE": "vcmp.le", "GT": "vcmp.gt",
                       "GE": "vcmp.ge"}


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

