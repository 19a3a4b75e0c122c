"""The translator's IR (ascasm/cpp/ir.py) and the passes over it: instructions hold typed operands on
virtual registers, register allocation reads those (not text), and the text is rendered from them."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascasm.cpp import ir, regalloc, rowcheck
from ascasm.isa import regapi
from ascasm.cpp.clang import CppError
from ascasm.cpp.loops import Loop


def _regs(*files):
    return [ir.VReg(file, n, f"x{n}", ("k.cpp", 10 + n, 5)) for n, file in enumerate(files)]


def test_instructions_hold_typed_operands_and_render_as_assembly():
    s0, v1, p2, a3 = _regs("s", "v", "p", "a")
    load = ir.instruction("vld", (ir.view(v1, "f32"), ir.Mem(ir.view(s0), ir.view(a3))), [s0, v1, p2, a3])
    assert [type(op) for op in load.operands] == [ir.Reg, ir.Mem]
    assert list(load.regs()) == [v1, s0, a3]
    assert load.render() == "vld %v1.f32, [%s0 + %a3]"
    assert load.render({0: 7, 1: 2, 3: 0}) == "vld v2.f32, [s7 + a0]"
    branch = ir.instruction("bne", (s0, 0, "L1_skip"), [s0])
    assert branch.is_branch and branch.target() == "L1_skip" and branch.operands[1] == ir.Imm("0")
    assert ir.instruction("mask", (ir.view(p2, "b8"), ir.Word("ALL")), []).render() == "mask %p2.b8, ALL"


def test_a_reg_form_template_is_compiled_into_an_instruction_shape():
    by_args = {form.args: form for form in regapi.BY_NAME["LoadAlign"].forms if ("dist", "DIST_NORM") in form.when}
    load = by_args["dst:v src:ub off:a"].templates[0]
    dst, src, off = by_args["dst:v src:ub off:a"].operands
    assert load.head == "vld" and load.suffix is None and load.keywords is None
    assert load.operands == (regapi.OperandSlot(dst), regapi.AddressSlot(regapi.OperandSlot(src), regapi.OperandSlot(off)))
    cast = regapi.BY_NAME["Cast"].forms[0].templates[0]
    assert cast.head == "vcvt" and cast.suffix == regapi.CastSlot(False) and cast.keywords == regapi.CastSlot(True)
    assert len(cast.operands) == 3                   # dst, src, mask; sat and the part are the trailing keywords
    odd = next(form for form in regapi.BY_NAME["ExpSub"].forms if ("layout", "ONE") in form.when).templates[0]
    assert odd.operands[-1] == "odd"                 # a keyword written in the template
    mask_store = next(form for form in regapi.BY_NAME["StoreUnAlign"].forms if form.args == "dst:ub& src:p ureg:u")
    assert mask_store.templates[0].operands[2] == regapi.OperandSlot(mask_store.operands[1], view="T")   # {src}.{T}


def test_an_instruction_no_row_takes_is_an_error_at_its_cpp_line():
    v0, v1, p2 = _regs("v", "v", "p")
    loc = ("k.cpp", 12, 5)
    rowcheck.check(ir.Instr("vadd", (ir.view(v0, "f32"), ir.view(v1, "f32"), ir.view(v1, "f32"), ir.view(p2)), loc),
                   "k.cpp")
    with pytest.raises(CppError) as wrong_count:
        rowcheck.check(ir.Instr("vadd", (ir.view(v0, "f32"), ir.view(v1, "f32")), loc), "k.cpp")
    assert (wrong_count.value.file, wrong_count.value.line, wrong_count.value.col) == loc
    assert wrong_count.value.message.startswith("no ascasm row takes this call as written: 'vadd' takes")
    assert "the instruction it became: vadd %v0.f32, %v1.f32" in wrong_count.value.notes
    # a u8 lane holds 0..255: 256 is out of its range wherever the register numbers fall
    with pytest.raises(CppError, match="256 does not fit in u8"):
        rowcheck.check(ir.Instr("vdup", (ir.view(v1, "u8"), ir.Imm("256")), loc), "k.cpp")


def test_the_debug_information_of_the_ir_is_what_the_assembler_reads_from_its_text():
    pytest.importorskip("clang.cindex")
    from ascasm.asm.assembler import assemble
    from ascasm.cpp.translate import list_units, translate
    kernels = Path(__file__).parent / "kernels"
    checked = 0
    for path in sorted(kernels.glob("*.cpp")):
        for name, _line in list_units(path):
            try:
                t = translate(path, name)
            except CppError:                      # a template without its arguments
                continue
            lines = [text for line, before in t.with_directives() for text in before + ([line.text] if line else [])]
            buffers = [f".ub {p.buffer_name} u8[32]" for p in t.params if p.kind == "pointer"]
            assert assemble("\n".join(lines + buffers) + "\n", "<translation>").debug == t.debug, name
            checked += 1
    assert checked >= 9


def test_allocation_reads_the_registers_of_the_ir():
    # x0 dies before x2 is born: they share s0; x1 overlaps both and gets s1
    x0, x1, x2 = _regs("s", "s", "s")
    regs = [x0, x1, x2]
    items = [ir.instruction("mov", (x0, 1), regs), ir.instruction("mov", (x1, 2), regs),
             ir.instruction("add", (x1, x1, x0), regs), ir.instruction("mov", (x2, 3), regs),
             ir.instruction("add", (x2, x2, x1), regs)]
    ranges = {}
    assignment = regalloc.allocate(items, [], regs, ranges=ranges)
    assert assignment == {0: 0, 1: 1, 2: 0}
    assert ranges == {0: (0, 2), 1: (1, 4), 2: (3, 4)}


def test_a_value_live_around_a_loop_lives_through_all_of_it():
    # x0 is set before the loop and last mentioned inside it: its value goes round the loop, so x1 (made
    # later in the body) may not take its register, which the next iteration reads again
    x0, x1 = _regs("s", "s")
    regs = [x0, x1]
    loop = Loop(object(), object())
    items = [ir.instruction("mov", (x0, 5), regs), ir.LabelDef("L1_loop", None, loop.start),
             ir.instruction("add", (x0, x0, 1), regs), ir.instruction("mov", (x1, 7), regs),
             ir.instruction("bne", (x1, 0, "L1_loop"), regs, tag=loop.end)]
    x1.decl_line = 3
    ranges = {}
    assignment = regalloc.allocate(items, [loop], regs, ranges=ranges)
    assert ranges[0] == (0, 4) and assignment[0] != assignment[1]
    assert regalloc.allocate(items, [], regs) == {0: 0, 1: 0}       # without the loop they could share


def test_too_many_live_values_name_the_variables():
    regs = [ir.VReg("p", n, f"m{n}", ("k.cpp", 20 + n, 3)) for n in range(9)]
    items = [ir.instruction("mask", (ir.view(r, "b8"), ir.Word("ALL")), regs) for r in regs] + \
        [ir.instruction("por", tuple(regs), regs)]
    with pytest.raises(CppError, match=r"too many live mask \(MaskReg\) values here: 9 at once, the machine has 8"):
        regalloc.allocate(items, [], regs)


def _sum_of_constants(count):
    """`acc = 0; acc += 1; ...; acc += count` with every constant set before the first addition (all live
    at once, as a kernel's UB addresses are across its data moves), then `acc` stored at UB address 0."""
    regs = _regs(*"s" * (count + 2))
    acc, address, constants = regs[0], regs[1], regs[2:]
    items = [ir.instruction("mov", (acc, 0), regs)]
    items += [ir.instruction("mov", (reg, k + 1), regs) for k, reg in enumerate(constants)]
    items += [ir.instruction("add", (acc, acc, reg), regs) for reg in constants]
    items += [ir.instruction("mov", (address, 0), regs), ir.instruction("st", (ir.Mem(ir.view(address)),
                                                                                ir.view(acc, "s32")), regs)]
    return items, regs


def test_constants_live_past_the_registers_are_rematerialised_before_each_use():
    from ascasm.api import run
    items, regs = _sum_of_constants(40)          # 42 scalar values live at once: more than the 32 s registers
    with pytest.raises(CppError, match="too many live scalar values"):
        regalloc.allocate(items, [], regs)
    constants = {}
    lines, assignment, moved = regalloc.fit(items, [], regs, constants=constants)
    assert max(assignment.values()) < 32 and constants          # the constants live where it overflowed
    assert all(constants[reg.number] == str(k + 1) for k, reg in enumerate(regs[2:]) if reg.number in constants)
    assert len(moved) == len(items) + 1 and moved[-1] == len(lines)
    # an addition of a rematerialised constant reads a new register that a copy of the constant's mov
    # sets just before it
    fresh = [(before, add) for before, add in zip(lines, lines[1:]) if add.mnemonic == "add" and
             add.operands[2].vreg.number >= 42]
    assert len(fresh) == len(constants)
    assert all(before.render() == f"mov {add.operands[2].render()}, {constants[int(add.operands[2].vreg.name[1:])]}"
               for before, add in fresh)
    text = "\n".join(item.render(assignment) for item in lines) + "\nhalt\n.ub out s32[8]\n"
    assert run(text)["out"][0] == 40 * 41 // 2               # 1 + 2 + ... + 40


def test_run_time_values_past_the_registers_are_still_an_error():
    items, regs = _sum_of_constants(40)
    for k, reg in enumerate(regs[2:]):                      # the values now come from the block index
        items[1 + k] = ir.instruction("blkidx", (reg,), regs)
    with pytest.raises(CppError, match="too many live scalar values"):
        regalloc.fit(items, [], regs)


def test_a_constant_written_twice_is_not_rematerialised():
    items, regs = _sum_of_constants(40)
    items.insert(-2, ir.instruction("mov", (regs[2], 7), regs))   # regs[2] is set twice: not a constant
    constants = {}
    lines, assignment, _moved = regalloc.fit(items, [], regs, constants=constants)
    assert constants and regs[2].number not in constants and regs[2].number in assignment


def test_a_constant_whose_copy_still_does_not_fit_is_an_error_not_a_loop():
    # 32 run-time values live across the use of one constant: its copy, set just before the use, makes 33
    regs = _regs(*"s" * 33)
    values, constant = regs[:32], regs[32]
    items = [ir.instruction("blkidx", (reg,), regs) for reg in values] + [ir.instruction("mov", (constant, 5), regs)]
    items += [ir.instruction("add", (values[0], values[0], constant), regs)]
    items += [ir.instruction("add", (values[0], values[0], reg), regs) for reg in values[1:]]
    with pytest.raises(CppError, match="too many live scalar values here: 33 at once"):
        regalloc.fit(items, [], regs)
