"""Several cores: runs of N blocks sharing global memory (docs/semantics.md "Several cores"), the
cross-core synchronisation of the pages (CrossCoreSetFlag/CrossCoreWaitFlag mode 0, SyncAll's hardware
form), deadlocks, the checks between blocks (two blocks writing the same GM bytes, a read of another
block's bytes with no synchronisation between), --blocks/--jobs and the API's blocks. Expected values
are worked out here with numpy from each block's share, never from a run."""
from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

import ascasm
from ascasm import MachineFault, assemble
from ascasm.blocks import Blocks
from ascasm.lockstep import run_lockstep_blocks

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"

# each block doubles its 16 f32 of x into y (x = i), then waits for the others at a SyncAll
SCALE = """\
.gm x f32[64] = i
.gm y f32[64]
.ub t f32[16]
    blkidx s1
    mov s2, 64
    mul s3, s1, s2
    add s4, s3, x
    gm2ub [t], [s4], s2
    mask p0.b32, ALL
    vld v0.f32, [t]
    vadd v1.f32, v0.f32, v0.f32, p0
    vsta [t], v1.f32, p0
    membar
    add s5, s3, y
    ub2gm [s5], [t], s2
    syncall
    halt
"""


def blocks_of(source: str, count: int, engine: str) -> Blocks:
    blocks = Blocks(assemble(textwrap.dedent(source), "test.s"), count, engine)
    blocks.run()
    return blocks


def gm(blocks: Blocks, name: str) -> np.ndarray:
    return blocks.program.buffers[name].view(blocks.state)


def test_blocks_share_gm_and_keep_their_own_ub(engine):
    blocks = blocks_of(SCALE, 4, engine)
    assert blocks.fault() is None
    assert np.array_equal(gm(blocks, "y"), 2 * np.arange(64, dtype=np.float32))
    for k, state in enumerate(blocks.states):
        assert np.array_equal(blocks.program.buffers["t"].view(state), 2 * np.arange(16 * k, 16 * k + 16))
        assert list(state.sysreg) == [k, 4]


def test_multi_block_runs_agree_in_lockstep():
    for count in (1, 2, 4):
        ref, cy = run_lockstep_blocks(assemble(SCALE, "scale.s"), count)
        assert ref.fault() is None and cy.fault() is None
    program = assemble((PROGRAMS / "blocks_sum.s").read_text(), "blocks_sum.s")
    for count in (1, 3, 4):
        run_lockstep_blocks(program, count)


def test_syncall_orders_a_cross_block_reduction(engine):
    # the bundled program: block 0 adds every block's chunk of y after the SyncAll
    program = ascasm.assemble(PROGRAMS / "blocks_sum.s")
    x = np.arange(256, dtype=np.float32)
    for count in (1, 2, 3, 4):
        result = ascasm.run(program, engine=engine, blocks=count)
        assert result.ok
        assert np.array_equal(result["z"], (2 * x).reshape(4, 64).sum(axis=0))


def test_crossset_crosswait_is_a_barrier_of_every_block(engine):
    # block k writes 1 + k to w[k]; after the mode-0 flag every block reads all of w and stores the sum
    source = """\
    .gm w s32[8]
    .ub t s32[8]
        blkidx s1
        add s2, s1, 1
        mov s3, 4
        mul s4, s1, s3
        st [t], s2.s32
        add s6, s4, w
        mov s8, 1
        ub2gm [s6], [t], s8, s3, s3, s3      ; one burst of 4 bytes to w[k]
        crossset PIPE_MTE3, 19           ; flag 3 (its low 4 bits)
        crosswait 3
        mov s7, 32
        gm2ub [t], [w], s7
        mask p0.b32, ALL
        vld v0.s32, [t]
        vredsum v1.s32, v0.s32, p0
        halt
    """
    blocks = blocks_of(source, 8, engine)
    assert blocks.fault() is None
    assert np.array_equal(gm(blocks, "w"), np.arange(1, 9))
    for state in blocks.states:
        assert state.vreg[1].view(np.int32)[0] == sum(range(1, 9))


def test_a_block_that_halts_before_syncall_deadlocks_the_others(engine):
    source = "    blkidx s1\n    beq s1, 0, done\n    syncall\ndone:\n    halt\n"
    blocks = blocks_of(source, 3, engine)
    fault = blocks.fault()
    assert fault.kind == "DEADLOCK" and fault.loc.line == 3
    assert "block 1 waits at line 3 (syncall" in fault.message and "block 2 waits at line 3" in fault.message
    assert "block 0 halted at line 5" in fault.message


def test_a_wait_with_no_set_deadlocks_a_lone_block(engine):
    program = assemble("    crossset PIPE_V, 2\n    crosswait 2\n    crosswait 2\n    halt\n", "test.s")
    with pytest.raises(MachineFault) as caught:
        ascasm.run(program, engine=engine)
    assert caught.value.kind == "DEADLOCK" and caught.value.loc.line == 3
    assert "crosswait of cross-core flag 2 can never pass" in caught.value.message


def test_two_blocks_writing_the_same_gm_bytes_fault_naming_both(engine):
    # every block writes y[0:8]: block 1's write is the overlap (multi-core corruption)
    source = ".gm y s32[16]\n.ub t s32[8]\n    mov s1, 32\n    ub2gm [y], [t], s1\n    halt\n"
    fault = blocks_of(source, 2, engine).fault()
    assert fault.kind == "GM_CONFLICT" and fault.loc.line == 4
    assert fault.message.startswith("multi-core overlap: block 1 writes GM bytes 0x0..0x1f (y[0]) that block 0 "
                                    "wrote")


def test_a_write_after_syncall_is_ordered(engine):
    # block 0 fills y, all meet, then block 1 overwrites it: ordered by the SyncAll, no overlap
    source = """\
    .gm y s32[8]
    .ub t s32[8] = 7
        blkidx s1
        mov s2, 32
        bne s1, 0, later
        ub2gm [y], [t], s2
    later:
        syncall
        beq s1, 0, end
        mask p0.b32, ALL
        vdup v0.s32, 9, p0
        vsta [t], v0.s32, p0
        membar
        ub2gm [y], [t], s2
    end:
        halt
    """
    blocks = blocks_of(source, 2, engine)
    assert blocks.fault() is None
    assert np.array_equal(gm(blocks, "y"), np.full(8, 9))


def test_reading_bytes_another_block_wrote_without_sync_is_a_race(engine):
    # block 1 reads y, which block 0 wrote with no synchronisation between (the schedule runs block 0 first)
    source = """\
    .gm y s32[8]
    .ub t s32[8]
        blkidx s1
        mov s2, 32
        bne s1, 0, reader
        ub2gm [y], [t], s2
        halt
    reader:
        gm2ub [t], [y + 8], s2
        halt
    """.replace("[y + 8], s2", "[y], s2")
    fault = blocks_of(source, 2, engine).fault()
    assert fault.kind == "GM_CONFLICT" and fault.loc.line == 9
    assert "multi-core race: block 1 reads GM bytes 0x0..0x1f (y[0]) that block 0 wrote" in fault.message


def test_cross_core_operands_are_checked(engine):
    for body, text in (("crossset PIPE_S, 0", "pipe 0 is not a pipe"),
                       ("crossset PIPE_ALL, 0", "pipe 6 is not a pipe")):
        with pytest.raises(MachineFault, match=text):
            ascasm.run(assemble(f"    {body}\n    halt\n", "test.s"), engine=engine)
    sixteen = "    crossset PIPE_V, 5\n" * 16 + "    halt\n"
    with pytest.raises(MachineFault, match="cross-core flag 5: a 16th set not yet waited for") as caught:
        ascasm.run(assemble(sixteen, "test.s"), engine=engine)
    assert caught.value.loc.line == 16


def test_the_l2_cache_mode_forms_move_the_same_bytes(engine):
    # the page's example move (2 bursts of 48 bytes) with each cache mode the enum lists; a value it does
    # not list faults naming the mode
    head = ".gm src u8[256] = i\n.ub buf u8[256]\n    mov s1, 2\n    mov s2, 48\n    mov s5, 0\n    mov s6, 48\n"
    for mode in (0, 1, 2, 4, 5, 6):
        result = ascasm.run(assemble(head + f"    gm2ub.align.b8 [buf], [src], s1, s2, s5, s5, s5, {mode}, s6, s6\n"
                                     "    halt\n", "test.s"), engine=engine)
        expected = np.zeros(256, np.uint8)
        expected[:96] = np.arange(96)       # burst k at 48k, each padded to 64 bytes with its first element,
        expected[96:112] = 48               # which the next burst overwrites, but for the last one's
        assert np.array_equal(result["buf"], expected)
    with pytest.raises(MachineFault, match="L2 cache mode 3 is not one of the page's values"):
        ascasm.run(assemble(head + "    gm2ub.align.b8 [buf], [src], s1, s2, s5, s5, s5, 3, s6, s6\n    halt\n",
                            "test.s"), engine=engine)
    store = ".gm dst u8[96]\n.ub buf u8[96] = i\n    mov s1, 2\n    mov s2, 48\n"
    result = ascasm.run(assemble(store + "    ub2gm.align [dst], [buf], s1, s2, 4, s2, s2\n    halt\n", "test.s"),
                        engine=engine)
    assert np.array_equal(result["dst"], np.arange(96))
    with pytest.raises(MachineFault, match="L2 cache mode 5 is not one of the page's values"):
        ascasm.run(assemble(store + "    ub2gm.align [dst], [buf], s1, s2, 5, s2, s2\n    halt\n", "test.s"),
                   engine=engine)


def test_run_api_gives_gm_inputs_to_every_block_and_results_per_block(engine):
    program = assemble(SCALE, "scale.s")
    x = np.linspace(-4, 4, 64, dtype=np.float32)
    result = ascasm.run(program, {"x": x}, engine=engine, blocks=4)
    assert np.array_equal(result["y"], 2 * x)
    assert [np.array_equal(block["t"], 2 * x[16 * k:16 * k + 16]) for k, block in enumerate(result.blocks)] == [True] * 4
    parallel = ascasm.run(assemble(SCALE.replace("    syncall\n", ""), "scale.s"), engine=engine, blocks=4, jobs=2)
    assert np.array_equal(parallel["y"], 2 * np.arange(64, dtype=np.float32))


def test_cli_blocks_and_jobs(tmp_path):
    program = tmp_path / "scale.s"
    program.write_text(SCALE.replace("    syncall\n", "") + ".expect y = 2 * i\n")
    for options in ((), ("--jobs", "2"), ("--jobs", "3", "--engine", "ref")):
        done = run_cli("run", program, "--blocks", "4", *options)
        assert (done.returncode, done.stdout) == (0, "expect y: ok (64 elements)\n"), done.stderr
    done = run_cli("run", program, "--blocks", "2")          # the second half of y is never written
    assert done.returncode == 4 and "32 of 64 elements differ" in done.stdout
    done = run_cli("run", program, "--blocks", "2", "--block-num", "2")
    assert done.returncode == 64 and "--blocks sets each block's index and count" in done.stderr
    synced = tmp_path / "synced.s"
    synced.write_text(SCALE + ".expect y = 2 * i\n")
    done = run_cli("run", synced, "--blocks", "4", "--jobs", "2")
    assert done.returncode == 0 and "the blocks synchronise across cores (line 16)" in done.stderr
    overlap = tmp_path / "overlap.s"
    overlap.write_text(".gm y s32[16]\n.ub t s32[8]\n    mov s1, 32\n    ub2gm [y], [t], s1\n    halt\n")
    for options in ((), ("--jobs", "2")):            # --jobs: found at the merge, reported by the sequential run
        done = run_cli("run", overlap, "--blocks", "3", *options)
        assert done.returncode == 2 and "overlap.s:4:5: fault: multi-core overlap: block 1 writes" in done.stderr


def test_stats_per_block_and_per_pipe(tmp_path):
    # SCALE, counted by hand per block: 14 steps; PIPE_S blkidx mov mul add membar add syncall halt,
    # PIPE_V mask vld vadd vsta, PIPE_MTE2 the gm2ub, PIPE_MTE3 the ub2gm; 64 GM bytes each way
    import json
    program = tmp_path / "scale.s"
    program.write_text(SCALE)
    done = run_cli("stats", program, "--blocks", "2", "--json")
    assert done.returncode == 0, done.stderr
    blocks = json.loads(done.stdout)["blocks"]
    assert [block["file"] for block in blocks] == [f"{program} block 0", f"{program} block 1"]
    for block in blocks:
        assert block["steps"] == 14 and block["stop"] == "halted"
        assert block["pipes"] == {"PIPE_V": 4, "PIPE_MTE2": 1, "PIPE_MTE3": 1, "PIPE_S": 8}
        assert (block["gm_bytes_read"], block["gm_bytes_written"]) == (64, 64)
    text = run_cli("stats", program, "--blocks", "2").stdout
    assert text.count("instructions per pipe: PIPE_V 4, PIPE_MTE2 1, PIPE_MTE3 1, PIPE_S 8") == 2
    deadlock = tmp_path / "deadlock.s"
    deadlock.write_text("    blkidx s1\n    beq s1, 0, done\n    syncall\ndone:\n    halt\n")
    done = run_cli("stats", deadlock, "--blocks", "2")
    assert done.returncode == 2 and "deadlock: block 1 waits at line 3" in done.stderr
    assert "block 1: 2 steps, stopped (deadlock)" in done.stdout


def test_debugger_switches_blocks_and_resumes_a_waiting_one(engine):
    # the bundled reduction in 2 blocks: block 0 stops at the SyncAll until block 1 has reached it
    import io

    from ascasm.debugger import Debugger
    program = ascasm.assemble(PROGRAMS / "blocks_sum.s")
    commands = "c\ns\nblock\nblock 1\nc\nblock 0\nc\nblock\np z[0:2]\nwhy z[1]\nblock 2\n"
    out = io.StringIO()
    Debugger(program, engine, stdin=io.StringIO(commands), stdout=out, blocks=2).cmdloop()
    text = out.getvalue()
    assert "block 0 waits at syncall until the other blocks set it; block 1 can run (block N selects one)" in text
    assert text.count("block 0 waits at syncall") == 2              # `s` cannot pass it either
    assert "* block 0: waiting at line 31, pc=20 steps=37\n  block 1: running at line 11, pc=0 steps=0" in text
    assert "block 1 halted after 41 steps; blocks 0 have not (block N selects one)" in text
    assert "block 0 halted after 88 steps; every block has\nexpect y: ok (256 elements)\nexpect z: ok" in text
    assert "z[0:2]: f32, 2 elements\n  [0] 768 776" in text                          # 8i + 768
    assert "z[1] = 776 (gm[0x804:0x808]): last written at step 87, line 49" in text
    assert "no block 2: the run has blocks 0-1" in text


def test_debugger_passes_a_lone_blocks_barriers_at_breakpoints(engine):
    # a breakpoint on a syncall or crosswait of a one-block run: `c` from there passes the wait
    import io

    from ascasm.debugger import Debugger
    program = assemble("mov s1, 1\nsyncall\ncrossset PIPE_V, 1\ncrosswait 1\nhalt\n", "b.s")
    out = io.StringIO()
    Debugger(program, engine, stdin=io.StringIO("b 2\nb 4\nc\nc\nc\n"), stdout=out).cmdloop()
    text = out.getvalue()
    assert "Breakpoint 1, line 2" in text and "Breakpoint 2, line 4" in text
    assert "the program halted after 5 steps" in text
