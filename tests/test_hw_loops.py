"""Hardware loops (vloop X ... endloop) and vag (c-api-reg/reg_data_types/asc_update_addr_reg.md): the loop
indices as machine state, the address register built from them, the assembler's pairing, the faults, the
debugger and the trace. Expected values come from Python models of the loops written here, or by hand."""
import itertools
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli, run_source

from ascasm import assemble, assemble_file
from ascasm.asm.errors import AssemblyFailed
from ascasm.lockstep import run_lockstep
from ascasm.vm import Machine, compiled_engine

ROOT = Path(__file__).resolve().parent.parent


def visits(counts):
    """The index tuples a loop nest visits, in order; counts and tuples outermost first."""
    return list(itertools.product(*(range(n) for n in counts)))


def test_nested_loops_visit_every_index_once_in_order(engine):
    # out[8*i0 + i1 + 2*i2] = the visit number, where i0 is the innermost loop's index (lidx0): the
    # strides bind innermost first, and a wrong order would put the numbers elsewhere
    machine = run_source("""
        .ub out u32[32] = 0xFFFFFFFF
            mov   s9, 0
            vloop 4                     ; i2
            vloop 2                     ; i1
            vloop 3                     ; i0, innermost
            vag   a0.b32, 8, 1, 2
            st    [out + a0], s9.u32
            add   s9, s9, 1
            endloop
            endloop
            endloop
            halt
    """, engine)
    expected = np.full(32, 0xFFFFFFFF, np.uint64)
    for number, (i2, i1, i0) in enumerate(visits((4, 2, 3))):
        expected[8 * i0 + i1 + 2 * i2] = number
    out = machine.state.ub[:128].view(np.uint32)
    assert out.tolist() == expected.tolist()
    assert not machine.state.hwloop.any()                 # every loop ended: all levels free again
    assert machine.state.steps == 2 + 4 * (1 + 2 * (1 + 3 * 4 + 1) + 1) + 1


def test_the_count_is_read_once_at_entry(engine):
    machine = run_source("""
            mov   s1, 3
            vloop s1
            add   s1, s1, 5             ; changes the register, not the loop
            add   s2, s2, 1
            endloop
            halt
    """, engine)
    assert machine.state.sreg[1] == 18 and machine.state.sreg[2] == 3


def test_a_count_of_zero_skips_the_body(engine):
    machine = run_source("""
            vloop 2
            vloop 0
            add   s2, s2, 1             ; never runs
            vloop 5
            add   s3, s3, 1
            endloop
            endloop
            add   s4, s4, 1             ; runs twice
            endloop
            halt
    """, engine)
    assert machine.state.sreg[2:5].tolist() == [0, 0, 2]
    assert machine.state.steps == 1 + 2 * (1 + 1 + 1) + 1


@pytest.mark.parametrize("count", [-1, 65536, 1 << 40])
def test_a_count_outside_the_uint16_range_faults(engine, count):
    machine = run_source(f"""
            mov   s1, {count}
            vloop s1
            endloop
    """, engine)
    fault = machine.fault()
    assert fault.kind == "LOOP_COUNT" and machine.state.steps == 1 and machine.state.pc == 1
    assert f"hardware loop count {count} out of range 0..65535" in fault.message
    assert not machine.state.hwloop.any()


def test_the_largest_count(engine):
    machine = run_source("""
            vloop 65535
            endloop
            halt
    """, engine)
    assert machine.state.steps == 1 + 65535 + 1


def test_vag_wraps_scales_by_width_and_reads_registers(engine):
    # inside two loops at (lidx0, lidx1) = (2, 1): b8/b16/b32 scale by 1/2/4 bytes; a left-out stride is 0;
    # strides from scalar registers; the sum wraps modulo 2^32
    machine = run_source("""
            mov   s1, 0x80000000
            mov   s2, -3
            vloop 2
            vloop 3
            vag   a0.b8, 5, 100
            vag   a1.b16, 5
            vag   a2.b32, s1, 7
            vag   a3.b16, s2, s2
            endloop
            endloop
            halt
    """, engine)
    # the last iteration: lidx0 = 2, lidx1 = 1
    assert machine.state.areg[:4].tolist() == [2 * 5 + 100, 2 * 5 * 2, (2 * 0x80000000 + 7) * 4 % 2**32,
                                               (3 * -3) * 2 % 2**32]


def test_four_levels_and_their_indices_innermost_first(engine):
    program = assemble("""
        .ub out u8[64] = 0xFF
            vloop 2
            vloop 3
            vloop 2
            vloop 2
            vag   a0.b8, 1, 2, 4, 8     ; a unique byte per visit
            st    [out + a0], s0.u8
            endloop
            endloop
            endloop
            endloop
            halt
    """)
    machine = Machine(program, engine)
    indices = []
    while machine.run(1) == 0:
        if program.insns[machine.state.pc].spec.mnemonic == "st":
            active = [row for row in machine.state.hwloop.tolist() if row[1]]
            indices.append(tuple(index for index, _count in reversed(active)))   # outermost first
            assert [count for _index, count in active] == [2, 2, 3, 2]           # innermost first
    assert indices == visits((2, 3, 2, 2))


def test_lockstep_with_loops_faults_and_the_step_limit():
    for source, stop in (("""
            mov   s1, 3
            vloop s1
            vloop 2
            vag   a1.b16, 7, 3
            endloop
            mov   s1, 70000
            vloop s1
            endloop
            endloop
    """, "LOOP_COUNT"), ("""
            vloop 65535
            vloop 65535
            add   s1, s1, 1
            endloop
            endloop
    """, "STEP_LIMIT")):
        ref, cy = run_lockstep(assemble(source), max_steps=5000)
        assert ref.stop_name == cy.stop_name == stop


def test_the_bundled_program_against_a_model_of_its_loops(engine):
    program = assemble_file(ROOT / "programs/update_addr_reg.s")
    machine = Machine(program, engine)
    machine.run()
    ub = machine.state.ub

    def buffer(name):
        return program.buffers[name].view(ub)
    # 1. the page's example: block i of 128 halves copied to block i
    assert np.array_equal(buffer("dst"), np.arange(512, dtype=np.float16) * np.float16(0.5))
    # 2. the grid: for r, c: source elements c*16 + r*64 (16 of them) to c*48 + r*16
    grid = np.arange(192, dtype=np.uint16)
    transposed = np.zeros(192, np.uint16)
    for r, c in visits((3, 4)):
        transposed[c * 48 + r * 16:][:16] = grid[c * 16 + r * 64:][:16]
    assert np.array_equal(buffer("gridT"), transposed)
    # 3. four loops, strides innermost first: source (64, 128, 256, 768), destination (64, 384, 128, 768)
    source = np.arange(1536, dtype=np.float32)
    result = np.zeros(1536, np.float32)
    for n, c, h, w in visits((2, 3, 2, 2)):
        at_source, at_result = 64 * w + 128 * h + 256 * c + 768 * n, 64 * w + 384 * h + 128 * c + 768 * n
        result[at_result:at_result + 64] = source[at_source:at_source + 64] * 2
    assert np.array_equal(buffer("nhcw"), result)
    # the hand-worked .expect lines agree with the model
    assert all(expectation.mismatches(ub).size == 0 for expectation in program.expects)


def errors_of(source: str) -> list[tuple[int, int, str]]:
    with pytest.raises(AssemblyFailed) as failed:
        assemble(source, "t.s")
    return [(e.loc.line, e.loc.col, e.message) for e in failed.value.errors]


def test_assembler_pairs_loops_and_reports_each_misuse_once():
    assert errors_of("    endloop\n") == [(1, 5, "endloop without a vloop")]
    assert errors_of("    vloop 2\n    vloop 3\n    endloop\n") == [(1, 5, "vloop without an endloop")]
    # a vloop whose count is wrong still pairs with its endloop: one error, not two
    assert errors_of("    vloop 70000\n    endloop\n") == [(1, 11, "loop count 70000 out of range 0..65535")]
    assert errors_of("    vloop v1\n    endloop\n") == [
        (1, 11, "operand X of 'vloop' must be an immediate or scalar register, not a vector register")]
    deep = "".join("    vloop 1\n" for _ in range(5)) + "".join("    endloop\n" for _ in range(5))
    assert errors_of(deep) == [(5, 5, "hardware loops nest at most 4 deep")]
    assert errors_of("    vag a0.b8, 1\n") == [
        (1, 5, "vag outside a hardware loop: its offset is built from the enclosing loops' indices")]
    assert errors_of("    vloop 2\n    vag a0.b8, 1, s2, 3\n    endloop\n") == [
        (2, 19, "vag gives 3 strides but only 1 hardware loop encloses it")]


def test_no_branch_enters_or_leaves_a_loop():
    leave = "    vloop 2\n    b out\n    endloop\nout: halt\n"
    assert errors_of(leave) == [(2, 7, "a branch may not enter or leave a hardware loop: it is in the loop of "
                                       "line 1, its target outside every loop")]
    enter = "    beq s0, 0, in\n    vloop 2\nin: add s1, s1, 1\n    endloop\n"
    assert errors_of(enter) == [(1, 16, "a branch may not enter or leave a hardware loop: it is outside every "
                                        "loop, its target in the loop of line 2")]
    # to the endloop row is into the body; to the vloop row or past the end is outside it
    assert errors_of("    b e\n    vloop 2\ne:  endloop\n")[0][2].startswith("a branch may not enter")
    assemble("top: vloop 2\n    endloop\n    blt s0, 1, top\n    b end\nend:\n")
    # within one body, branching is allowed (the loop state is untouched)
    machine = run_source("""
            vloop 3
            beq   s1, 1, skip
            add   s2, s2, 1
        skip:
            add   s1, s1, 1
            endloop
            halt
    """, "cy")
    assert machine.state.sreg[1:3].tolist() == [3, 2]


def test_the_engine_refuses_bytecode_whose_loops_do_not_pair():
    program = assemble("    vloop 2\n    vloop 2\n    endloop\n    endloop\n")
    core = compiled_engine()
    for rows, problem in ((program.code[:3], "vloop without an endloop"),
                          (program.code[2:], "endloop without a vloop")):
        with pytest.raises(ValueError, match=problem):
            core.Engine(np.ascontiguousarray(rows), program.initial_state(), 253952, 100)
    deep = assemble("".join("    vloop 1\n" for _ in range(4)) + "".join("    endloop\n" for _ in range(4)))
    rows = np.concatenate([deep.code[:1], deep.code, deep.code[-1:]])
    state = program.initial_state()
    with pytest.raises(ValueError, match="nested deeper than 4"):
        core.Engine(np.ascontiguousarray(rows), state, 253952, 100)


def test_debugger_shows_prints_and_rewinds_the_loops():
    source = ROOT / "programs/update_addr_reg.s"
    line = next(n for n, text in enumerate(source.read_text().splitlines(), start=1) if "vag     a3" in text)
    commands = "\n".join([f"b {line}", "c", "regs", "p lidx0", "p lidx3", "s 3", "back 3", "regs"]) + "\n"
    text = subprocess.run([sys.executable, "-m", "ascasm", "debug", str(source)], input=commands,
                          capture_output=True, text=True, cwd=tempfile.gettempdir()).stdout
    first_visit = "  loops: lidx0 = 0 of 2, lidx1 = 0 of 2, lidx2 = 0 of 3, lidx3 = 0 of 2"
    assert text.count(first_visit) == 2, text               # before `s 3` and again after `back 3`
    assert "lidx0 (of 2) = 0" in text and "lidx3 (of 2) = 0" in text


def test_back_restores_the_loop_state_exactly():
    from ascasm.observers.effects import StepLog  # noqa: F401  (the recorder below uses the write log)
    from ascasm.observers.history import Recorder
    program = assemble_file(ROOT / "programs/update_addr_reg.s")
    machine = Machine(program, "cy")
    recorder = Recorder(program, machine)
    states = [machine.state.copy()]
    for _ in range(150):
        recorder.step()
        states.append(machine.state.copy())
    assert any(state.hwloop[3, 1] for state in states)         # the four-deep nest was reached
    for expected in reversed(states[:-1]):
        recorder.back(1)
        assert machine.state.first_difference(expected) is None


def test_trace_records_the_loops(tmp_path):
    source = tmp_path / "loops.s"
    source.write_text("    vloop 2\n    vloop 3\n    vag a0.b8, 1, 10\n    endloop\n    endloop\n    halt\n")
    result = run_cli("run", f"--trace={tmp_path / 't.jsonl'}", source)
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    loops = [next(r for r in line["regs"] if r["reg"] == "LOOP") for line in lines if line["insn"] in ("vloop", "endloop")]
    assert loops[:3] == [{"reg": "LOOP", "index": [0], "count": [2]},
                         {"reg": "LOOP", "index": [0, 0], "count": [3, 2]},
                         {"reg": "LOOP", "index": [1, 0], "count": [3, 2]}]
    assert loops[-1] == {"reg": "LOOP", "index": [], "count": []}
    vags = [line["regs"][0]["value"] for line in lines if line["insn"] == "vag"]
    assert vags == [i0 + 10 * i1 for i1, i0 in visits((2, 3))]


def test_explain_finds_the_rows_by_page_and_mnemonic():
    result = run_cli("explain", "asc_update_addr_reg")
    assert result.returncode == 0
    for text in ("vag aD.bW, X0, [X1], [X2], [X3]", "vloop X", "iter aD.bW, sI, X"):
        assert text in result.stdout
    result = run_cli("explain", "vloop")
    assert result.returncode == 0 and "endloop" not in result.stdout.splitlines()[0]
    assert re.search(r"source: .*asc_update_addr_reg\b", run_cli("explain", "vag").stdout)


def test_the_reg_layers_addr_reg_stream_example(engine):
    # reg-api LoadUnAlign's AddrReg example (LoadUnAlignVF3): in every iteration the address register is set
    # from the loop index, the load stream is started again at src + a0 (asc_loadunalign_pre's addr_reg
    # form) and read there (asc_loadunalign_postupdate's addr_reg form, whose inc is unused), the vector
    # stored through an unaligned store stream at dst + a0; the residue flushed after the loop. src and dst
    # unaligned: 4 x 128 halves from UB src + 2 to dst + 6, everything else untouched
    machine = run_source("""
        .ub src f16[640] = i
        .ub dst u16[640] = 0xEEEE
            mov   s1, 128                 ; oneRepeatSize
            vloop 4
            vag   a0.b16, s1
            vldas q0, [src + 2 + a0]
            vldus v0.f16, q0, [src + 2 + a0]
            vstus [dst + 6 + a0], u1, v0.f16, 128
            endloop
            vstas [dst + 6 + 256 + a0], u1
            halt
    """, engine)
    dst = machine.state.ub[1280:2560].view(np.uint16)
    expected = np.full(640, 0xEEEE, np.uint16)
    expected[3:3 + 512] = (np.arange(512, dtype=np.float16) + np.float16(1)).view(np.uint16)
    assert np.array_equal(dst, expected)
    assert machine.state.areg[0] == 3 * 256 and machine.state.ureg_state[1].tolist() == [0, 0]
