"""The table is the single source: it must be consistent (tests/test_regen.py checks that everything
derived from it is current)."""
from ascasm.isa import BY_OPCODE, INSNS, OPCODES, ROW_WIDTH, Kind, table
from ascasm.ref.executor import FAMILIES
from ascasm.vm import compiled_engine


def test_opcodes_and_forms_are_unique():
    assert len(OPCODES) == len(INSNS)
    assert len(BY_OPCODE) == len(INSNS)
    signatures = [(s.mnemonic, tuple(op.kind for op in s.operands)) for s in INSNS]
    assert len(set(signatures)) == len(signatures)


def test_every_family_has_a_reference_function():
    assert {s.family for s in INSNS} == set(FAMILIES)


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


def test_a_family_has_one_syntax_and_its_rows_differ_in_the_sub_operation():
    """The engine decodes a family's operands by name from one layout, and tells its rows apart by the
    sub-operation alone."""
    families = {}
    for spec in INSNS:
        families.setdefault(spec.family, []).append(spec)
    for family, specs in families.items():
        assert len({s.syntax for s in specs}) == 1, family
        assert len({s.sub for s in specs}) == len(specs), family
