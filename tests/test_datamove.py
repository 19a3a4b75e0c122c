"""Global memory and the data moves between it and the UB (C-API vector_datamove, the arch_3510 pages:
asc_copy_gm2ub, asc_copy_gm2ub_align, asc_copy_ub2gm, asc_copy_ub2gm_align and their loop and pad
settings), the system variables (sys_var: asc_get_block_idx/num) and the synchronisation flags (sync:
asc_sync_notify/wait, asc_sync_pipe), on both executors. Expected bytes are worked out here from the
pages' definitions (burst k at base + k * stride, head to head; padding in elements; filler to a 32-byte
multiple), with numpy slices, never from a run."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest
from conftest import run_cli, run_source

import ascasm
from ascasm import AssemblyFailed, assemble
from ascasm.lockstep import run_lockstep
from ascasm.state import LOG_FIELDS, LOG_GM_READ, LOG_GM_WRITE, LOG_READ, LOG_WRITE
from ascasm.vm import Machine

SRC = np.arange(256, dtype=np.uint8)            # `.gm src u8[256] = i`


def regs(**values) -> str:
    """mov lines setting scalar registers: regs(s1=3) -> 'mov s1, 3'."""
    return "\n".join(f"mov {name}, {value}" for name, value in values.items())


def run(body: str, engine: str, head: str = ".gm src u8[256] = i\n.ub buf u8[1024]\n", **options) -> Machine:
    return run_source(textwrap.dedent(head) + textwrap.dedent(body), engine, **options)


def ub_of(m: Machine, name: str = "buf") -> np.ndarray:
    return m.program.buffers[name].view(m.state)


def test_gm2ub_bursts_land_at_their_strides(engine):
    # 3 bursts of 10 bytes from src + 1, 20 bytes apart in GM, 32 apart in the UB
    m = run(regs(s1=3, s2=10, s3=20, s4=32) + "\ngm2ub [buf], [src + 1], s1, s2, s3, s4\n", engine)
    assert m.stop_name == "HALTED"
    expected = np.zeros(1024, np.uint8)
    for k in range(3):
        expected[32 * k:32 * k + 10] = SRC[1 + 20 * k:11 + 20 * k]
    assert ub_of(m).tolist() == expected.tolist()


def test_gm2ub_packs_bursts_when_the_ub_stride_is_the_length(engine):
    # sUS == sLen (10, not 32-aligned) is allowed: the bursts follow each other
    m = run(regs(s1=3, s2=10, s3=20) + "\ngm2ub [buf], [src], s1, s2, s3, s2\n", engine)
    assert ub_of(m)[:30].tolist() == SRC[0:10].tolist() + SRC[20:30].tolist() + SRC[40:50].tolist()
    assert not ub_of(m)[30:].any()


def test_the_size_forms_move_one_burst(engine):
    # asc_copy_gm2ub(dst, src, size) and asc_copy_ub2gm: size bytes, a multiple of 32
    m = run(regs(s1=64) + "\ngm2ub [buf], [src + 3], s1\nub2gm [dst + 5], [buf], s1\n", engine,
            head=".gm src u8[256] = i\n.gm dst u8[128]\n.ub buf u8[1024]\n")
    assert ub_of(m)[:64].tolist() == SRC[3:67].tolist() and not ub_of(m)[64:].any()
    assert m.program.buffers["dst"].view(m.state).tolist() == [0] * 5 + SRC[3:67].tolist() + [0] * 59


def test_ub2gm_bursts_land_at_their_strides(engine):
    m = run(regs(s1=2, s2=5, s3=7, s4=32) + "\nub2gm [dst], [buf], s1, s2, s3, s4\n", engine,
            head=".gm dst u8[64]\n.ub buf u8[64] = i\n")
    expected = [0, 1, 2, 3, 4, 0, 0, 32, 33, 34, 35, 36] + [0] * 52
    assert m.program.buffers["dst"].view(m.state).tolist() == expected


PAD_HEAD = ".gm src u16[64] = i + 100\n.ub buf u16[64]\n"


@pytest.mark.parametrize("constant", (1, 0))
def test_gm2ub_align_pads_each_burst(engine, constant):
    # 2 bursts of 3 u16 (6 bytes), 4 elements apart in GM; 1 element of left and 2 of right padding:
    # 12 bytes, so each burst fills 32 bytes (16 lanes) of the UB, the filler the pad value too. The pad
    # value: sprset.pad's (constant) or the burst's first element (asc_copy_gm2ub_align_arch_3510:
    # enable_constant_pad)
    m = run(regs(s1=2, s2=6, s3=1, s4=2, s5=constant, s6=8, s7=32, s9=0xABCD)
            + "\nsprset.pad s9\ngm2ub.align.b16 [buf], [src], s1, s2, s3, s4, s5, s6, s7\n", engine, head=PAD_HEAD)
    lanes = ub_of(m).tolist()
    first = (0xABCD, 0xABCD) if constant else (100, 104)
    assert lanes[:16] == [first[0], 100, 101, 102] + [first[0]] * 12
    assert lanes[16:32] == [first[1], 104, 105, 106] + [first[1]] * 12
    assert lanes[32:] == [0] * 32


def test_gm2ub_align_in_the_pages_loops(engine):
    # asc_copy_gm2ub_align's example: loops 2 x 2, loop1 strides 96 (GM) and 128 (UB), loop2 192 and 288;
    # 2 bursts of 48 bytes, both strides 48, so each iteration's two bursts are one run of 96 bytes and
    # the second burst's filler (48 -> 64 bytes) is its first byte, 16 times. Then the page's reset to 1, 1.
    m = run(regs(s1=2, s2=48, s3=0, s10=96, s11=128, s12=192, s13=288, s14=1) + """
        sprset.gm2ub.loop s1, s1
        sprset.gm2ub.stride1 s10, s11
        sprset.gm2ub.stride2 s12, s13
        gm2ub.align.b8 [buf], [src], s1, s2, s3, s3, s3, s2, s2
        sprset.gm2ub.loop s14, s14
    """, engine, head=".gm src u8[512] = i % 256\n.ub buf u8[1024]\n")
    gm = np.arange(512) % 256
    expected = np.zeros(1024, np.int64)
    for j in range(2):
        for i in range(2):
            u, g = 288 * j + 128 * i, 192 * j + 96 * i
            expected[u:u + 96] = gm[g:g + 96]
            expected[u + 96:u + 112] = gm[g + 48]
    assert ub_of(m).tolist() == expected.tolist()
    assert m.state.mte[:2].tolist() == [1, 1]


def test_ub2gm_align_in_the_pages_loops(engine):
    # asc_copy_ub2gm_align's example: loops 2 x 2, loop1 strides 96 (UB source) and 128 (GM), loop2 192, 288
    m = run(regs(s1=2, s2=48, s10=96, s11=128, s12=192, s13=288) + """
        sprset.ub2gm.loop s1, s1
        sprset.ub2gm.stride1 s10, s11
        sprset.ub2gm.stride2 s12, s13
        ub2gm.align [dst], [buf], s1, s2, s2, s2
    """, engine, head=".gm dst u8[512]\n.ub buf u8[512] = i % 256\n")
    ub = np.arange(512) % 256
    expected = np.zeros(512, np.int64)
    for j in range(2):
        for i in range(2):
            expected[288 * j + 128 * i:288 * j + 128 * i + 96] = ub[192 * j + 96 * i:192 * j + 96 * i + 96]
    assert m.program.buffers["dst"].view(m.state).tolist() == expected.tolist()


def test_a_loop_count_of_zero_moves_nothing(engine):
    m = run(regs(s0=0, s1=1, s2=32) + "\nsprset.gm2ub.loop s0, s1\ngm2ub.align.b8 [buf], [src], s1, s2, s0, s0, s0, s2, s2\n",
            engine)
    assert m.stop_name == "HALTED" and not ub_of(m).any()


def fault_of(body: str, engine: str, head: str = ".gm src u8[256] = i\n.ub buf u8[1024]\n"):
    m = run(body, engine, head)
    fault = m.fault()
    assert fault is not None, "the program was expected to fault"
    assert not m.state.ub.any(), "a faulting data move wrote the UB"
    return fault


@pytest.mark.parametrize("body, kind, words", [
    # burst 2 of 3 reads src[240..260): past the buffer's end; burst 0 is in range but not written either
    (regs(s1=3, s2=20, s3=120, s4=32) + "\ngm2ub [buf], [src], s1, s2, s3, s4",
     "GM_RANGE", "GM access outside every buffer: 20 bytes at GM address 0xf0 are offset 240 of buffer src"),
    (regs(s1=1, s2=32) + "\ngm2ub [buf + 16], [src], s1, s2, s2, s2", "MISALIGNED", "misaligned address 0x10"),
    (regs(s1=0, s2=32) + "\ngm2ub [buf], [src], s1, s2, s2, s2", "BAD_MOVE", "burst count 0 out of range 1..4095"),
    (regs(s1=40) + "\ngm2ub [buf], [src], s1", "BAD_MOVE", "size 40 is not a multiple of 32 bytes"),
    (regs(s1=-32) + "\nub2gm [src], [buf], s1", "BAD_MOVE", "burst length -32 out of range"),
    (regs(s1=4096, s2=32) + "\ngm2ub [buf], [src], s1, s2, s2, s2", "BAD_MOVE", "burst count 4096"),
    (regs(s1=1, s2=0) + "\ngm2ub [buf], [src], s1, s2, s2, s2", "BAD_MOVE", "burst length 0 out of range"),
    (regs(s1=2, s2=10, s3=40) + "\ngm2ub [buf], [src], s1, s2, s2, s3", "BAD_MOVE", "UB stride 40 is not 32-byte aligned"),
    (regs(s1=1, s2=5, s0=0, s3=32) + "\ngm2ub.align.b16 [buf], [src], s1, s2, s0, s0, s0, s3, s3",
     "BAD_MOVE", "burst length 5 is not a multiple of the 2-byte element"),
    (regs(s1=1, s2=8, s0=0, s9=9, s3=32) + "\ngm2ub.align.b32 [buf], [src], s1, s2, s9, s0, s0, s3, s3",
     "BAD_MOVE", "left padding of 9 elements of 4 bytes is more than 32 bytes"),
    # tools/fuzz.py --seed 2817763538, program 258: -(2^63 - 1) elements of 2 bytes wrap to 2 bytes in
    # 64-bit arithmetic; the engine took it as in range and went on to the GM check
    (regs(s1=1, s2=8, s0=0, s9=-(2**63 - 1), s3=32) + "\ngm2ub.align.b16 [buf], [src], s1, s2, s9, s0, s0, s3, s3",
     "BAD_MOVE", "left padding of -9223372036854775807 elements of 2 bytes"),
    (regs(s1=1, s2=8, s0=0, s9=2**63 + 1, s3=32) + "\ngm2ub.align.b16 [buf], [src], s1, s2, s0, s9, s0, s3, s3",
     "BAD_MOVE", "right padding of"),
    (regs(s1=1, s2=8, s0=0, s9=33, s3=32) + "\ngm2ub.align.b8 [buf], [src], s1, s2, s0, s9, s0, s3, s3",
     "BAD_MOVE", "right padding of 33"),
    (regs(s1=1, s2=8, s0=0, s3=32, s9=17) + "\nsprset.gm2ub.loop s9, s9\ngm2ub.align.b8 [buf], [src], s1, s2, s0, s0, s0, s3, s3",
     "BAD_MOVE", "loop sizes 17 x 17: more than 256 iterations"),
    (regs(s1=0, s2=100) + "\nsprset.gm2ub.stride1 s1, s2", "BAD_MOVE", "UB stride 100 of a loop setting"),
    (regs(s1=1 << 21) + "\nsprset.ub2gm.loop s1, s1", "BAD_MOVE", "loop count 2097152 out of range"),
    # the second burst starts at the end of the usable UB (248 KiB by default)
    (regs(s1=2, s2=32, s5=248 * 1024 - 32) + "\ngm2ub [s5], [src], s1, s2, s2, s2", "UB_RANGE",
     "UB access out of range: 32 bytes at address 0x3e000"),
])
def test_a_bad_data_move_faults_and_writes_nothing(engine, body, kind, words):
    fault = fault_of(body, engine)
    assert fault.kind == kind and words in fault.message, fault.message


def test_ub2gm_out_of_gm_writes_nothing(engine):
    m = run(regs(s1=2, s2=32, s3=48) + "\nub2gm [dst], [buf], s1, s2, s3, s2\n", engine,
            head=".gm dst u8[64]\n.ub buf u8[64] = 1\n")
    assert m.fault().kind == "GM_RANGE" and "32 bytes at GM address 0x30" in m.fault().message
    assert not m.program.buffers["dst"].view(m.state).any()


def test_gm_bounds_are_the_buffers_not_the_gaps(engine):
    # a is 3 bytes, b starts at 32: bytes 3..31 belong to no buffer
    m = run(regs(s1=1, s2=8) + "\ngm2ub [buf], [a], s1, s2, s2, s2\n", engine,
            head=".gm a u8[3]\n.gm b u8[32]\n.ub buf u8[64]\n")
    assert m.fault().kind == "GM_RANGE"
    m = run(regs(s1=1, s2=8) + "\ngm2ub [buf], [s0], s1, s2, s2, s2\n", engine, head=".ub buf u8[64]\n")
    assert "the program declares no .gm buffer" in m.fault().message


def test_block_variables_come_from_the_run(engine):
    m = run_source("blkidx s1\nblknum s2\n", engine)
    assert m.state.sreg[1:3].tolist() == [0, 1]
    program = assemble("blkidx s1\nblknum s2\n")
    machine = Machine(program, engine)
    machine.set_block(5, 8)
    machine.run()
    assert machine.state.sreg[1:3].tolist() == [5, 8]
    with pytest.raises(ValueError):
        machine.set_block(8, 8)


def test_flags_pair_each_wait_with_an_earlier_set(engine):
    m = run_source("""
        setflag PIPE_MTE2, PIPE_V, 3
        setflag PIPE_MTE2, PIPE_V, 3
        waitflag PIPE_MTE2, PIPE_V, 3
        pipebar PIPE_ALL
        pipebar PIPE_MTE2
        waitflag PIPE_MTE2, PIPE_V, 3
        waitflag PIPE_MTE2, PIPE_V, 3
    """, engine)
    fault = m.fault()
    assert fault.kind == "SYNC_UNPAIRED" and fault.loc.line == 8
    assert "waitflag PIPE_MTE2, PIPE_V, 3 has no setflag to take" in fault.message
    assert not m.state.flags.any()


@pytest.mark.parametrize("line, words", [
    ("setflag PIPE_ALL, PIPE_V, 0", "pipe 6 is not a pipe"),
    ("waitflag PIPE_V, 9, 0", "pipe 9"),
    ("setflag PIPE_V, PIPE_S, 8", "event 8 out of range 0..7"),
    ("pipebar PIPE_S", "pipe 0 is not a pipe"),
])
def test_bad_flags_fault(engine, line, words):
    fault = run_source(line + "\n", engine).fault()
    assert fault.kind == "BAD_MOVE" and words in fault.message


PROGRAM = """
    .gm x f16[128] = 0.5 * i - 3
    .gm y f16[64]
    .ub t f16[128]
    mov s1, 2
    mov s2, 64
    mov s3, 1
    mov s4, 0
    mov s5, 96
    mov s6, 32
    fmov s9.f16, -1.0
    sprset.pad s9
    sprset.gm2ub.loop s3, s1
    sprset.gm2ub.stride2 s2, s2
    gm2ub.align.b16 [t], [x], s1, s6, s3, s3, s3, s2, s2
    setflag PIPE_MTE2, PIPE_V, 0
    waitflag PIPE_MTE2, PIPE_V, 0
    mask p0.b16, ALL
    vld v0.f16, [t]
    vmuls v0.f16, v0.f16, 2.0, p0
    vsta [t], v0.f16, p0
    membar
    blkidx s7
    setflag PIPE_V, PIPE_MTE3, 0
    waitflag PIPE_V, PIPE_MTE3, 0
    gm2ub [t + 128], [x + 4], s3, s6, s4, s4
    ub2gm [y], [t], s1, s6, s6, s2
    ub2gm.align [y + 96], [t + 128], s3, s6, s4, s4
    gm2ub [t + 192], [x], s6
    ub2gm [y + 64], [t + 192], s6
    pipebar PIPE_ALL
"""


def test_the_executors_agree_step_by_step_and_log_the_same():
    program = assemble(textwrap.dedent(PROGRAM))
    ref, cy = run_lockstep(program)
    assert ref.stop_name == cy.stop_name == "HALTED"
    logs = []
    for engine in ("ref", "cy"):
        machine = Machine(program, engine)
        log = np.zeros((4096, len(LOG_FIELDS)), np.int64)
        machine.set_log(log)
        machine.run()
        logs.append(log[:machine.log_length].copy())
    assert logs[0].tolist() == logs[1].tolist()
    kinds = logs[0][:, 2].tolist()
    assert kinds.count(LOG_GM_READ) == 4 and kinds.count(LOG_GM_WRITE) == 3
    # the .align move logs one GM read and one UB write per loop iteration: 2 iterations of 2 bursts
    first = logs[0][(logs[0][:, 2] == LOG_WRITE)][:2]
    t = program.buffers["t"].addr
    assert first[:, [3, 4, 5, 6]].tolist() == [[t, 64, 2, 64], [t + 64, 64, 2, 64]]
    assert LOG_READ in kinds


def test_the_program_computes_what_numpy_does(engine):
    m = run_source(PROGRAM, engine)
    assert m.stop_name == "HALTED"
    x = (0.5 * np.arange(128) - 3).astype(np.float16)
    # the .align move: loop2 j = 0, 1 (GM and UB + 64 bytes), bursts k = 0, 1 of 16 halves (strides 64
    # bytes); each lands at UB half 32(j + k) as [pad, 16 values, pad, 14 more pad] (1 + 16 + 1 halves
    # filled up to 64 bytes with the pad value, -1.0); (0, 1) and (1, 0) write the same block
    t = np.zeros(128, np.float16)
    for block in range(3):
        t[32 * block:32 * block + 32] = -1.0
        t[32 * block + 1:32 * block + 17] = x[32 * block:32 * block + 16]
    t = t * np.float16(2)                                        # vmuls ... 2.0 over all of t
    t[64:80] = x[2:18]                                           # gm2ub of 32 bytes from x + 4
    y = np.zeros(64, np.float16)
    y[0:16], y[16:32] = t[0:16], t[32:48]                        # ub2gm: UB stride 64, GM stride 32 bytes
    y[48:64] = t[64:80]                                          # ub2gm.align to y + 96
    y[32:48] = x[0:16]                                           # the size forms: x -> t + 192 -> y + 64
    assert m.program.buffers["y"].view(m.state).view(np.uint16).tolist() == y.view(np.uint16).tolist()


def test_assembler_errors_of_gm_buffers():
    with pytest.raises(AssemblyFailed) as failed:
        assemble(".gm a u8[64]\n.gm b u8[32] @ 32\n.gm c u8[8] @ 8\n.ub a u8[4]\n.gm big u8[1] @ 0x4000000\n")
    messages = [e.message for e in failed.value.errors]
    assert any("buffer address 0x8 is not 32-byte aligned" in m for m in messages)
    assert any("'a' is already defined" in m for m in messages)
    assert any("does not fit in the global memory's cap of 67108864 bytes" in m for m in messages)
    assert any("buffer 'b' overlaps buffer 'a'" in m for m in messages)
    # UB and GM are separate spaces: both start at 0
    program = assemble(".ub u u8[64]\n.gm g u8[64]\n")
    assert (program.buffers["u"].addr, program.buffers["g"].addr, program.gm_size) == (0, 0, 64)


def test_run_takes_and_returns_gm_buffers(engine):
    source = ".gm x s32[8]\n.gm y s32[8]\n.ub t s32[8]\nmov s1, 1\nmov s2, 32\ngm2ub [t], [x], s1, s2, s2, s2\n" \
             "ub2gm [y], [t], s1, s2, s2, s2\nblkidx s3\n"
    result = ascasm.run(source, inputs={"x": np.arange(8) * 7}, engine=engine, block=(3, 4))
    assert result["y"].tolist() == [0, 7, 14, 21, 28, 35, 42, 49]
    assert result.state.sreg[3] == 3


def test_the_cli_dumps_gm_buffers_and_sets_the_block(tmp_path):
    source = tmp_path / "k.s"
    source.write_text(".gm y s64[1]\n.ub t s64[4]\n.out y\nblkidx s1\nblknum s2\nmul s1, s1, 10\nadd s1, s1, s2\n"
                      "st [t], s1.s64\nmov s3, 1\nmov s4, 8\nub2gm [y], [t], s3, s4, s4, s4\n")
    done = run_cli("run", str(source), "--block-idx", "2", "--block-num", "5", "--dump", f"y={tmp_path / 'y.npy'}")
    assert done.returncode == 0, done.stderr
    assert "y: s64[1] @ GM 0x0" in done.stdout
    assert np.load(tmp_path / "y.npy").tolist() == [25]
    bad = run_cli("run", str(source), "--block-idx", "5", "--block-num", "5")
    assert bad.returncode == 64 and "--block-idx/--block-num" in bad.stderr


def test_debugger_back_undoes_a_gm_write_and_prints_gm_buffers(engine):
    import io

    from ascasm.debugger import Debugger
    program = assemble(".gm y u8[64]\n.ub t u8[64] = i + 1\nmov s1, 1\nmov s2, 32\nub2gm [y], [t], s1, s2, s2, s2\nhalt\n",
                       "t.s")
    out = io.StringIO()
    debugger = Debugger(program, engine, stdin=io.StringIO("s 3\np y[31]\nwhy y[0]\nback\np y[31]\n"), stdout=out)
    debugger.cmdloop()
    text = out.getvalue()
    assert [line for line in text.splitlines() if "y[31] =" in line] == ["y[31] = 32 (0x20)", "y[31] = 0"], text
    assert "y[0] = 1 (gm[0x0]): last written at step 3, line 5 (pc 2): ub2gm [y], [t], s1, s2, s2, s2" in text


def test_debugger_examines_watches_and_explains_gm_bytes(engine):
    # GM is named by a .gm buffer's name (x/N y), &PLACE of one, or gm[ADDR]; `why` finds the data move
    # that wrote GM bytes, recorded step by step or found again in a stretch run at full speed
    import io

    from ascasm.debugger import Debugger
    program = assemble(".gm x u8[64] = i\n.gm y u8[64]\n.ub t u8[64]\nmov s1, 32\ngm2ub [t], [x], s1\n"
                       "ub2gm [y + 32], [t], s1\nmov s2, 0\nhalt\n", "g.s")
    commands = ("watch y[33]\nc\nx/4 y\nx/4.u8 &gm[0x60]\nx/2 &y[33]\np gm.u16[0x60:2]\nwhy gm[0x61]\nwhy y[0]\n"
                "delete 1\nrun\nc\nwhy y[34:36]\n")
    out = io.StringIO()
    Debugger(program, engine, stdin=io.StringIO(commands), stdout=out).cmdloop()
    text = out.getvalue()
    assert "Watch 1: y[33] changed at step 3 (line 6)\n  old: 0\n  new: 1" in text
    assert "gm 0x00040:  00 00 00 00" in text                     # y is at GM 0x40, not yet written
    assert "gm 0x00060:  0 1 2 3" in text and "gm 0x00061:  01 02" in text
    assert "[0x00060] 256 770" in text                            # u16 lanes of bytes 0 1 and 2 3
    assert "y[33] = 1 (gm[0x61]): last written at step 3, line 6 (pc 2): ub2gm [y + 32], [t], s1" in text
    assert "y[0] = 0 (gm[0x40]): not written by any instruction yet; its initial value from line 2" in text
    # after `run` and `continue` at full speed: found again in the stretch's replay
    assert "y[34] = 2 (gm[0x62]): last written at step 3, line 6" in text
    assert "y[35] = 3 (gm[0x63]): last written at step 3, line 6" in text


@pytest.mark.parametrize("loops", [(1 << 32, 1 << 32), (-1, -1), (1 << 21, 0)])
def test_loop_counts_set_from_outside_are_checked(engine, loops):
    # the rows keep the counts below 2^21; a state written from Python (2^32 x 2^32 wraps to 0 in 64 bits)
    # must still fault before the engine walks its 256-entry iteration table
    program = assemble(".gm src u8[64]\n.ub buf u8[64]\nmov s1, 1\nmov s2, 32\nmov s0, 0\n"
                       "gm2ub.align.b8 [buf], [src], s1, s2, s0, s0, s0, s2, s2\n")
    machine = Machine(program, engine)
    machine.state.mte[0:2] = loops
    machine.run()
    assert machine.fault().kind == "BAD_MOVE" and "loop sizes" in machine.fault().message


def test_a_ub_access_outside_the_buffers_names_a_ub_buffer(engine):
    # the GM buffer at GM 0x40 is no neighbour of UB address 0x40
    m = run_source(".ub a u8[32]\n.gm g u8[256]\nmov s1, 64\nld s2.u8, [s1]\n", engine, strict=True)
    assert m.fault().kind == "OUT_OF_BUFFER" and "of buffer a," in m.fault().message
