"""The translator's IR (ascasm/cpp/ir.py) and the passes over it: instructions hold typed operands on
virtual registers, register allocation reads those (not text), and the text is rendered from them."""
from __future__ import annotations

import pytest

from ascasm.cpp import ir, regalloc
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


def test_assembly_text_of_a_form_parses_to_the_same_items():
    regs = _regs("v", "v", "p", "s", "a")
    for text in ("vadd %v0.f32, %v1.f32, %v1.f32, %p2", "vsta.pu [%s3], %v0.b32, %p2, 64",
                 "vld.dintlv %v0.b16, %v1.b16, [%s3 + %a4]", "vcvt.rint %v0.f16, %v1.f32, %p2, sat, odd",
                 "fmov %s3.f32, -inf", "beq %s3, 0, L4_ret", "L4_ret:", "membar"):
        item = ir.parse(text, regs)
        assert item.render() == text
    assert isinstance(ir.parse("L4_ret:", regs), ir.LabelDef)
    assert list(ir.parse("vsta.pu [%s3], %v0.b32, %p2, 64", regs).regs()) == [regs[3], regs[0], regs[2]]


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
