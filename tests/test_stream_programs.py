"""programs/compact.s and programs/storeunalign.s against an independent numpy model of their unaligned
store streams. The model is written from the c-api-reg pages, never from a run of ascasm:

- asc_storeunalign_post: a stream's bytes from dst_start to dst_end split into the 32-byte aligned main
  part UB[dst_start, dst_end // 32 * 32), which each store writes at once, and the tail
  UB[dst_end // 32 * 32, dst_end), which waits in the unaligned register until the next store of the
  stream continues it or the flush writes it (asc_storeunalign's example works this through for 64 u32
  at UB 8, twice);
- asc_squeeze_with_status + the AR-addressed store: the lanes the mask keeps, in order, appended at
  dst + AR, AR advanced by their bytes (compact.s's header; docs/semantics.md "Squeeze and unaligned
  store streams").

Each program is checked three ways: its INIT data is what its header says, the model's final UB is its
`.expect` bit for bit, and on both executors the UB, the pending bytes of the stream's register and AR
(or the post-updated address) equal the model's after every stream instruction, not only at the end.
tests/test_programs.py runs the same programs in lockstep."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from ascasm import assemble, assemble_file
from ascasm.state import SPR_AR
from ascasm.vm import Machine, run_warnings

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
STREAM_OPS = ("vstus", "vstus.pu", "vstur", "vstas", "vstar")


class Stream:
    """One unaligned store stream over a model UB, as asc_storeunalign_post describes it."""

    def __init__(self, ub: np.ndarray):
        self.ub, self.addr, self.pending = ub, 0, np.zeros(0, np.uint8)

    def store(self, dst: int, data: np.ndarray):
        if self.pending.size:
            assert dst == self.addr + self.pending.size, "the model's streams are contiguous"
        else:
            self.addr = dst
        run = np.concatenate([self.pending, data.view(np.uint8)])
        main = max(0, (self.addr + run.size) // 32 * 32 - self.addr)       # the aligned main part
        self.ub[self.addr:self.addr + main] = run[:main]
        self.addr, self.pending = self.addr + main, run[main:]

    def flush(self, dst_end: int):
        assert dst_end == self.addr + self.pending.size
        self.ub[self.addr:dst_end] = self.pending
        self.pending = np.zeros(0, np.uint8)


@dataclass
class Event:
    op: str                 # the stream instruction this is the state after
    ureg: int               # its unaligned store register
    ub: np.ndarray          # the whole model UB
    pending: np.ndarray     # the bytes waiting in the register
    addr: int               # where they belong
    ar: int | None = None   # AR, for the AR-addressed forms
    sreg: tuple | None = None   # (register, value) for the post-update forms


def snapshot(op, ureg, stream, **extra) -> Event:
    return Event(op, ureg, stream.ub.copy(), stream.pending.copy(), stream.addr, **extra)


def run_against_model(program, engine: str, events: list[Event]) -> Machine:
    """Run `program` one instruction at a time; after each stream instruction compare with the next event."""
    machine = Machine(program, engine, strict=True)
    state, checked = machine.state, 0
    while machine.stop_name == "RUNNING":
        insn = program.insns[state.pc]
        machine.run(1)
        if insn.spec.mnemonic not in STREAM_OPS:
            continue
        want = events[checked]
        where = f"{engine}, stream instruction {checked} ({insn.loc.text.strip()})"
        assert insn.spec.mnemonic == want.op, where
        differ = np.flatnonzero(state.ub != want.ub)
        assert differ.size == 0, f"{where}: UB bytes {differ[:8]} differ"
        pending, addr = state.ureg_state[want.ureg]
        assert pending == want.pending.size, where
        if pending:
            assert addr == want.addr and (state.ureg[want.ureg, :pending] == want.pending).all(), where
        if want.ar is not None:
            assert state.spr[SPR_AR] == want.ar, where
        if want.sreg is not None:
            assert state.sreg[want.sreg[0]] == want.sreg[1], where
        checked += 1
    assert machine.stop_name == "HALTED", (engine, machine.fault())
    assert checked == len(events) and run_warnings(program, state) == []
    return machine


def expected(program, name: str) -> np.ndarray:
    return next(e.values for e in program.expects if e.buffer.name == name)


# ---------------------------------------------------------------- compact.s: W3's compaction loop

def compact_events(program) -> list[Event]:
    """compact.s's algorithm: per 64-lane chunk, the lanes > 0 appended at out + 4 + AR; one flush."""
    ub = program.initial_state().ub.copy()
    values, out = program.buffers["values"], program.buffers["out"].addr
    stream, ar, events = Stream(ub), 0, []
    for chunk in values.data.reshape(-1, 64):
        kept = chunk[chunk > 0]
        stream.store(out + 4 + ar, kept)
        ar += kept.nbytes
        events.append(snapshot("vstur", 0, stream, ar=ar))
    stream.flush(out + 4 + ar)
    events.append(snapshot("vstar", 0, stream, ar=ar))
    return events


def compact_with(values: np.ndarray):
    """The bundled compact.s, word for word, with other values (and no .expect, which is for its own)."""
    lines = (PROGRAMS / "compact.s").read_text().splitlines()
    lines = [f".ub values f32[256] = [{', '.join(map(str, values))}]" if line.startswith(".ub values") else line
             for line in lines if not line.startswith(".expect")]
    return assemble("\n".join(lines) + "\n", "compact_variant.s")


def test_compact_model_is_the_expectation():
    program = assemble_file(PROGRAMS / "compact.s")
    i = np.arange(256)
    assert np.array_equal(program.buffers["values"].data, ((i % 8) - 3.5).astype(np.float32))
    final = compact_events(program)[-1]
    out = program.buffers["out"]
    got = final.ub[out.addr:out.addr + out.nbytes].view(np.float32)
    assert np.array_equal(got.view(np.uint32), expected(program, "out").view(np.uint32))
    # what the kernel is for: the positive values, in order, one slot after the sentinel
    assert final.ar == 512 and got[0] == -1 and (got[129:] == -1).all()
    assert list(got[1:129]) == [0.5, 1.5, 2.5, 3.5] * 32


def test_compact_stores_block_by_block_as_the_model(engine):
    program = assemble_file(PROGRAMS / "compact.s")
    machine = run_against_model(program, engine, compact_events(program))
    assert all(e.mismatches(machine.state.ub).size == 0 for e in program.expects)


def test_compact_with_uneven_chunks_as_the_model(engine):
    # the bundled values keep 32 lanes of every chunk, so 4 bytes are always pending: here the same
    # program keeps 0, 64 and two uneven counts (0.0 is not > 0), so the tail varies from store to store
    rng = np.random.default_rng(113)
    values = np.concatenate([np.full(64, -0.25), np.arange(1, 65) / 16,
                             rng.integers(-8, 8, 64) / 8, rng.integers(-12, 4, 64) / 8]).astype(np.float32)
    counts = [int((chunk > 0).sum()) for chunk in values.reshape(-1, 64)]
    assert counts[:2] == [0, 64] and sum(counts) <= 135 and len({4 * c % 32 for c in counts[2:]}) == 2
    program = compact_with(values)
    events = compact_events(program)
    run_against_model(program, engine, events)
    out = program.buffers["out"]
    got = events[-1].ub[out.addr:out.addr + out.nbytes].view(np.float32)
    kept = values[values > 0]
    assert np.array_equal(got[1:1 + kept.size], kept) and (np.delete(got, np.s_[1:1 + kept.size]) == -1).all()


# ---------------------------------------------------------------- storeunalign.s: the page's example

def storeunalign_events(program) -> list[Event]:
    """The page's example twice: 64 u32 at dst + i * count (in bytes: 8, 264), flushed at the stream's
    end 8 + 128 * 4; then from 1032 with post-update, the register following the stream's end."""
    ub = program.initial_state().ub.copy()
    src = program.buffers["src"].data
    events = []
    first = Stream(ub)
    for i in range(2):
        first.store(8 + i * 256, src)
        events.append(snapshot("vstus", 0, first))
    first.flush(8 + 128 * 4)
    events.append(snapshot("vstas", 0, first))
    second, dst = Stream(ub), 1024 + 8
    for _ in range(2):
        second.store(dst, src)
        dst += 64 * 4                                          # the post-update: count elements of u32
        events.append(snapshot("vstus.pu", 1, second, sreg=(1, dst)))
    second.flush(dst)
    events.append(snapshot("vstas", 1, second, sreg=(1, dst)))
    return events


def test_storeunalign_model_follows_the_page_and_is_the_expectation():
    program = assemble_file(PROGRAMS / "storeunalign.s")
    src = program.buffers["src"].data
    assert np.array_equal(src, np.arange(1, 65, dtype=np.uint32))
    assert (program.buffers["ub"].data == 0xEEEEEEEE).all() and (program.buffers["ub2"].data == 0xEEEEEEEE).all()
    events = storeunalign_events(program)
    # the page's comments: 1st store src[0:62] -> UB[8:256], src[62:64] kept; 2nd: those two and
    # src[0:62] -> UB[256:512], src[62:64] kept; the flush: them -> UB[512:520]
    words = [e.ub[:1024].view(np.uint32) for e in events[:3]]
    assert list(words[0][2:64]) == list(src[:62]) and (words[0][64:] == 0xEEEEEEEE).all()
    assert list(events[0].pending.view(np.uint32)) == [63, 64] and events[0].addr == 256
    assert list(words[1][64:128]) == [63, 64] + list(src[:62]) and (words[1][128:] == 0xEEEEEEEE).all()
    assert list(words[2][128:130]) == [63, 64] and (words[2][130:] == 0xEEEEEEEE).all()
    assert events[2].pending.size == 0 and (words[2][:2] == 0xEEEEEEEE).all()
    final = events[-1].ub
    for name in ("ub", "ub2"):
        buffer = program.buffers[name]
        got = final[buffer.addr:buffer.addr + buffer.nbytes].view(np.uint32)
        assert np.array_equal(got, expected(program, name)), name
    assert events[-1].sreg == (1, 1032 + 512)


def test_storeunalign_stores_block_by_block_as_the_model(engine):
    program = assemble_file(PROGRAMS / "storeunalign.s")
    machine = run_against_model(program, engine, storeunalign_events(program))
    assert all(e.mismatches(machine.state.ub).size == 0 for e in program.expects)
    assert machine.state.sreg[2] == 8 + 512                     # the vstus loop's own dst + i * count
