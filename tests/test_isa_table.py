"""The table is the single source: it must be consistent (tests/test_regen.py checks that everything
derived from it is current)."""
import re
from pathlib import Path

from ascasm.isa import BY_OPCODE, INSNS, OPCODES, ROW_WIDTH, Kind, table
from ascasm.isa.opcode_numbers import OPCODE_NUMBERS
from ascasm.ref.executor import FAMILIES
from ascasm.vm import compiled_engine

ENGINE = Path(table.__file__).resolve().parent.parent / "_engine"


def test_opcodes_and_forms_are_unique():
    assert len(OPCODES) == len(INSNS)
    assert len(BY_OPCODE) == len(INSNS)
    signatures = [(s.mnemonic, tuple(op.kind for op in s.operands)) for s in INSNS]
    assert len(set(signatures)) == len(signatures)


def test_every_family_has_a_reference_function():
    assert {s.family for s in INSNS} == set(FAMILIES)


def test_the_declared_families_are_exactly_the_rows_families():
    assert set(table.FAMILIES) == {s.family for s in INSNS}
    assert all(name == family.name for name, family in table.FAMILIES.items())


def test_every_family_has_its_kernel_in_its_declared_module():
    """k_<family> is defined in the kernel module the table declares (a post-update family's kernel is
    generated from its base family's, so the base's must be there)."""
    for spec in INSNS:
        base = table.post_update_base(spec) if spec.post is not None else spec
        source = (ENGINE / f"{table.FAMILIES[spec.family].kernels}.pyx").read_text()
        assert re.search(rf"^cdef (inline )?int k_{base.family}\(", source, re.MULTILINE), spec.family


def test_a_familys_axes_are_known_and_fit_its_rows():
    for spec in INSNS:
        axes = table.FAMILIES[spec.family].axes
        assert set(axes) <= {"T", "U", "TW", "UW", "sub", "src"}, spec.family
        assert ("sub" in axes) <= bool(spec.sub), spec.text
        assert all(spec.type_slots > (axis[0] == "U") for axis in axes if axis[0] in "TU"), spec.text


def test_opcodes_are_distinct_and_recorded():
    """The bytecode is never stored, so opcodes may follow any rule: each is the number recorded for the
    row's name (not its place in the table), distinct and positive."""
    assert len(set(OPCODES.values())) == len(OPCODES) and min(OPCODES.values()) >= 1
    assert OPCODES == OPCODE_NUMBERS


def test_a_new_row_takes_the_next_opcode_and_moves_no_other():
    names = list(OPCODES) + ["OP_A_NEW_ROW", "OP_ZZ_NEW_ROW"]
    top = max(OPCODES.values())
    numbers = table.kept_numbers(names, OPCODE_NUMBERS)
    assert numbers == {**OPCODES, "OP_A_NEW_ROW": top + 1, "OP_ZZ_NEW_ROW": top + 2}
    # a removed row's number goes with it; the others keep theirs
    removed = table.kept_numbers(names[1:], OPCODE_NUMBERS)
    assert names[0] not in removed and all(removed[name] == OPCODES[name] for name in names[1:-2])


def test_engine_handles_exactly_the_table_opcodes():
    assert set(compiled_engine().HANDLED) == set(OPCODES.values())


def test_rows_fit_the_bytecode_width():
    for spec in INSNS:
        assert table.ROW_HEADER + sum(op.kind.slots for op in spec.operands) <= ROW_WIDTH


def test_typed_rows_list_types_for_every_type_slot():
    for spec in INSNS:
        slots = {op.type_slot for op in spec.operands if op.type_slot is not None}
        assert len(slots) == spec.type_slots, spec.text
        assert all(len(combo) == spec.type_slots for combo in spec.types), spec.text


def test_every_row_cites_a_source_and_summary():
    for spec in INSNS:
        assert spec.ref and spec.summary, spec.text


def test_memory_and_mask_facts_are_given_exactly_where_the_operands_are():
    for spec in INSNS:
        names = {op.name for op in spec.operands}
        assert (spec.access is not None) == any(op.kind in (Kind.ADDR, Kind.BASE) for op in spec.operands), spec.text
        assert (spec.mask is not None) == bool(names & {"pM", "pG"}), spec.text
        if spec.mask:
            assert spec.mask.operand in names, spec.text


def test_a_familys_rows_differ_in_the_sub_operation_or_the_operand_source():
    """The engine decodes a family's operands by name, and tells its rows apart by the sub-operation and
    the source of the second operand (vB or the scalar X: the scalar-operand forms share their family's
    kernel). So a family has at most two syntaxes, differing only in that operand."""
    families = {}
    for spec in INSNS:
        families.setdefault(spec.family, []).append(spec)
    for family, specs in families.items():
        syntaxes = {s.syntax for s in specs}
        assert len({(s.sub, s.syntax) for s in specs}) == len(specs), family
        assert len(syntaxes) <= 2, family
        if len(syntaxes) == 2:
            vector_form, scalar_form = (syntax.split(", ") for syntax in sorted(syntaxes, key=lambda s: "X" in s))
            differ = [(v, x) for v, x in zip(vector_form, scalar_form) if v != x]
            assert len(vector_form) == len(scalar_form) and len(differ) == 1, family
            assert differ[0][0].startswith("vB.") and differ[0][1] in ("X", "X.T"), family


def test_a_row_states_its_mask_once():
    """`help vsct` once said both "mask: pM read at the lane width" and "mask: none": a store with a
    mask operand is described by that operand alone."""
    for spec in INSNS:
        labels = [label for label, _text in table.spec_facts(spec)]
        assert labels.count("mask") <= 1, (spec.text, table.spec_facts(spec))
    facts = dict(table.spec_facts(next(s for s in INSNS if s.mnemonic == "vsct")))
    assert facts["mask"].startswith("pM read at the lane width")
