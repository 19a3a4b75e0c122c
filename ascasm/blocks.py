"""Several cores: a run of N blocks of one program (docs/semantics.md "Several cores"). Each block has
its own machine (UB, registers, flags), all of them share global memory; blocks run in a deterministic
schedule and meet at the cross-core waits (syncall, crosswait). `--jobs` runs blocks that never
synchronise across cores in parallel processes.
"""
from __future__ import annotations

import multiprocessing

import numpy as np

from .isa import STOP_CODES
from .program import Program
from .state import MAX_STEPS_DEFAULT, STATUS, UB_USABLE_DEFAULT
from .vm import DEADLOCK, WAITING, Machine, MachineFault, can_pass, deadlock_text, publish_rounds, run_warnings

RUNNING, HALTED = STOP_CODES["RUNNING"], STOP_CODES["HALTED"]
MAX_RUN_BLOCKS = 256        # blocks of one run: each holds a whole machine (about 2 MB)
CROSS_CORE_FAMILIES = frozenset({"cross_set", "cross_wait", "sync_all"})


def synchronising_line(program: Program) -> int | None:
    """The line of the program's first cross-core synchronisation, or None when its blocks never meet."""
    for insn in program.insns:
        if insn.spec.family in CROSS_CORE_FAMILIES:
            return insn.loc.line
    return None


class Blocks:
    """`count` blocks of `program`, block k reading k and count from blkidx and blknum, sharing one GM."""

    def __init__(self, program: Program, count: int, engine: str = "cy", ub_usable: int = UB_USABLE_DEFAULT,
                 max_steps: int = MAX_STEPS_DEFAULT, store_inactive: str = "keep", strict: bool = False,
                 first: int = 0, last: int | None = None):
        if not 1 <= count <= MAX_RUN_BLOCKS:
            raise ValueError(f"{count} blocks: a run has 1 to {MAX_RUN_BLOCKS}")
        self.program, self.count = program, count
        self.numbers = list(range(first, count if last is None else last))     # the blocks this run holds
        shared = program.initial_state()
        self.gm = shared.gm
        self.gm_writer = np.zeros(self.gm.size if count > 1 else 0, np.int64)
        self.machines = []
        for number in self.numbers:
            state = program.initial_state()
            state.gm, state.gm_writer = self.gm, self.gm_writer
            machine = Machine(program, engine, ub_usable, max_steps, store_inactive, strict, state=state,
                              alone=count == 1)
            machine.set_block(number, count)
            self.machines.append(machine)
        self.stopped: int | None = None          # index into machines of the block whose fault ended the run
        self.deadlocked: list = []
        self.turn, self.moved = 0, False         # the schedule: the block visited, whether any moved this round
        self.runners = None                      # per block, what runs it (default machine.run; stats counts)

    @property
    def states(self) -> list:
        return [machine.state for machine in self.machines]

    @property
    def state(self):
        """The first block's state (GM is every block's)."""
        return self.machines[0].state

    @property
    def steps(self) -> int:
        return sum(state.steps for state in self.states)

    @property
    def finished(self) -> bool:
        """Every block halted, or a fault (a deadlock included) ended the run."""
        return self.stopped is not None or all(state.status == HALTED for state in self.states)

    def _runnable(self, machine: Machine) -> bool:
        if machine.state.status == WAITING:
            publish_rounds(self.states)
            return can_pass(machine.state)
        return machine.state.status == RUNNING

    def run(self, budget: int | None = None):
        """Follow the schedule for at most `budget` steps (None: to the end): rounds that visit the
        blocks in order, each running until it halts, faults or waits at a cross-core wait that cannot
        pass yet. A fault ends the run; so does a round in which no block can move (a deadlock, faulted
        in every waiting block). A call may make no step (it moved past blocks that cannot run)."""
        left = budget
        while not self.finished and (left is None or left > 0):
            machine = self.machines[self.turn]
            if self._runnable(machine):
                self.moved = True
                machine.state.ctrl[STATUS] = RUNNING
                steps = machine.state.steps
                code = (machine.run if self.runners is None else self.runners[self.turn])(left)
                if left is not None:
                    left -= machine.state.steps - steps
                if code == RUNNING:
                    return                              # the budget is spent
                if code not in (HALTED, WAITING):
                    self.stopped = self.turn
                    return
                if code == WAITING and self._runnable(machine):
                    continue
            self._next_turn()

    def _next_turn(self):
        self.turn += 1
        if self.turn < len(self.machines):
            return
        states = self.states
        if not self.moved and not all(state.status == HALTED for state in states):
            self.deadlocked = [k for k, state in enumerate(states) if state.status == WAITING]
            for k in self.deadlocked:
                states[k].ctrl[STATUS] = DEADLOCK
            self.stopped = self.deadlocked[0]
        self.turn, self.moved = 0, False

    def warnings(self) -> list:
        """The run's warnings (vm.run_warnings) of every block, each once."""
        seen, out = set(), []
        for state in self.states:
            for warning in run_warnings(self.program, state):
                key = (warning[0].file, warning[0].line, warning[1])
                if key not in seen:
                    seen.add(key)
                    out.append(warning)
        return sorted(out, key=lambda w: (w[0].file, w[0].line, w[0].col))

    def fault(self) -> MachineFault | None:
        """The fault that ended the run, located in its block, or None."""
        if self.stopped is None:
            return None
        machine = self.machines[self.stopped]
        fault = machine.fault()
        if self.deadlocked:
            fault.message = deadlock_text(self.program, self.states, self.deadlocked)
        elif self.count > 1 and fault.kind != "GM_CONFLICT":
            fault.message = f"block {self.numbers[self.stopped]}: {fault.message}"
        return fault


def run_parallel(program: Program, count: int, jobs: int, **options) -> Blocks:
    """The blocks of a program that never synchronises across cores, in `jobs` processes, each running a
    contiguous share of the blocks from the initial GM; the GM bytes each block wrote are merged. When a
    block faults, or two wrote the same GM bytes, the blocks run again in one process (the sequential
    schedule), so the result and the located fault are those of a run without --jobs."""
    shares = np.array_split(np.arange(count), min(jobs, count))
    global _PARALLEL_TASK
    _PARALLEL_TASK = (program, count, options)
    with multiprocessing.get_context("fork").Pool(len(shares)) as pool:
        parts = pool.map(_run_share, [(int(s[0]), int(s[-1]) + 1) for s in shares])
    _PARALLEL_TASK = None
    whole = Blocks(program, count, **options)
    written = np.zeros(whole.gm.size, bool)
    for (first, last), states, gm, gm_writer, stopped in parts:
        mine = gm_writer != 0
        if stopped or (written & mine).any():
            sequential = Blocks(program, count, **options)
            sequential.run()
            return sequential
        whole.gm[mine] = gm[mine]
        whole.gm_writer[mine] = gm_writer[mine]
        written |= mine
        for number, state in zip(range(first, last), states):
            machine = whole.machines[number]
            for part in state.PARTS:
                if part not in ("gm", "gm_writer"):
                    setattr(machine.state, part, getattr(state, part))
    return whole


_PARALLEL_TASK = None       # (program, count, options) of run_parallel, inherited by its forked workers


def _run_share(span: tuple) -> tuple:
    program, count, options = _PARALLEL_TASK
    blocks = Blocks(program, count, first=span[0], last=span[1], **options)
    blocks.run()
    states = []
    for state in blocks.states:
        state.gm = state.gm_writer = np.zeros(0)       # (sent once for the share, below)
        states.append(state)
    return span, states, blocks.gm, blocks.gm_writer, blocks.stopped is not None
