"""Random valid programs over every row of the ISA table, for differential testing: the hypothesis
property in tests/test_random_programs.py and the fuzzer tools/fuzz.py draw from this one generator.

Operands are generated from each row's syntax and type list (ascasm/isa/operands.py), so a row added
to the table is fuzzed without touching this file. Registers hold boundary values, divisors may be
zero, addresses may be misaligned or outside the usable UB (a data move's GM side: in or past the
prologue's .gm buffer) or in `fresh`, whose bytes start never written (v4 starts loaded from them),
mask registers p3 and p7 start unset, and scatter/gather indices come from tame tables (v1, v2) or from random bytes, so a good share
of the programs fault: every fault path is compared too.

The generator draws through a `Chooser` (integer, choice), so it runs on a seeded random.Random (the
fuzzer: fast, reproducible from a seed) or on a hypothesis data object (the test: shrinking).
"""
from __future__ import annotations

from typing import Protocol, Sequence


from .isa import dtypes
from .isa.operands import Kind
from .isa.table import BARRIER_KINDS, INSNS, KEYWORDS, PATTERNS, keyword_choices
from .state import (CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN, NUM_LOOPS, PIPES,
                    UB_USABLE_DEFAULT)

CTRL_BITS = (CTRL_GLOBAL_SAT, CTRL_FLOAT_NO_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN)

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
MAX_INSTRUCTIONS = 40

PROLOGUE = f"""\
.ub data  u8[2048] = (i * 37 + 11) % 256
.ub idx16 u16[128] = (i * 7) % 300
.ub idx32 u32[64]  = (i * 13) % 200
.ub tail  u8[256]  = 255 - i @ {UB_USABLE_DEFAULT - 256}
.ub fresh u8[256]  = undef @ {UB_USABLE_DEFAULT - 512}
.gm gmem  u8[2048] = (i * 29 + 3) % 256
        vld v1.u16, [idx16]
        vld v2.u32, [idx32]
        vld v4.b32, [fresh]
        mask p0.b16, ALL
        mask p1.b32, M3
        mask p2.b8, VL16
        mov s1, 64
        mov s2, 32
        mov s3, 5
"""

INTERESTING = (0, 1, -1, 2, 3, 7, 31, 32, 63, 64, 255, 256, 1000, 2047, 65535, 1 << 32, INT64_MIN, INT64_MAX,
               INT64_MIN + 1, UB_USABLE_DEFAULT, UB_USABLE_DEFAULT - 8, -64)
FLOAT_IMMEDIATES = ("0.0", "-0.0", "1.5", "-2.25", "inf", "-inf", "nan", "0.1", "-7", "3.0e-3")
# p0-p2 are set by the prologue; p3 and p7 start unset (MASK_UNSET unless something writes them):
# rare enough that most programs run on past their mask operands
MASK_REGISTERS = ("p0", "p1", "p2") * 10 + ("p3", "p7")
TAIL_OFFSETS = (0, 32, 128, 224, 240, 248, 255, 256)


class Chooser(Protocol):
    def integer(self, low: int, high: int) -> int: ...        # low..high inclusive
    def choice(self, items: Sequence): ...


class RandomChooser:
    """A Chooser over random.Random (the fuzzer)."""

    def __init__(self, rng):
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, items: Sequence):
        return items[self.rng.randrange(len(items))]


def immediate(c: Chooser) -> int:
    form = c.integer(0, 2)
    if form == 0:
        return c.choice(INTERESTING)
    return c.integer(-300, 300) if form == 1 else c.integer(INT64_MIN, INT64_MAX)


def scalar_register(c: Chooser) -> str:
    return f"s{c.integer(0, 7)}"


def float_immediates(etype) -> tuple:
    """Immediates every float type takes, plus T's own extremes: largest, smallest normal and subnormal."""
    info = dtypes.finfo(etype)
    if etype.name == "e8m0":          # powers of two only: no sign, no zero
        return ("1.0", "0.25", "2.0", "nan") + tuple(repr(float(v)) for v in (info.max, info.tiny))
    return FLOAT_IMMEDIATES + tuple(repr(float(v)) for v in (info.max, -info.max, info.tiny, info.smallest_subnormal))


def typed_value(c: Chooser, etype) -> str:
    """An X.T operand: a scalar register (an integer to convert, or written sN.T: T's bits) or an
    immediate that fits T (ascasm/isa/operands.py)."""
    if c.integer(0, 3) == 0:
        held_as_bits = c.integer(0, 1) or etype.name == "e8m0"        # e8m0 registers are always bits
        return scalar_register(c) + (f".{etype.name}" if held_as_bits else "")
    if etype.kind == "float":
        return c.choice(float_immediates(etype))
    bits = 8 * etype.width
    low, high = -(1 << (bits - 1)), (1 << bits) - 1
    if c.integer(0, 1):
        return str(c.choice((low, -1, 0, 1, high, high >> 1)))
    return str(c.integer(low, high))


def address(c: Chooser) -> str:
    """An address operand: mostly 32-byte aligned offsets inside `data`, sometimes anything."""
    offset = c.integer(0, 2047) if c.integer(0, 11) == 0 else 32 * c.integer(0, 2048 // 32 - 1)
    form = c.integer(0, 11)
    if form <= 6:
        return f"[data + {offset}]"
    if form <= 8:
        return f"[data + {offset} + a{c.integer(0, 3)}]"
    if form == 9:
        return f"[data + {scalar_register(c)}]"
    if form == 10:
        return f"[{scalar_register(c)} + {scalar_register(c)} + a{c.integer(0, 3)}]"
    return f"[{c.choice(('tail', 'fresh'))} + {c.choice(TAIL_OFFSETS)}]"     # (fresh: bytes never written)


SYNC_FAMILIES = ("sync_flag", "sync_pipe")
CROSS_FAMILIES = ("cross_set", "cross_wait")
MOVE_FAMILIES = ("gm2ub", "gm2ub_size", "gm2ub_align", "gm2ub_align_cache", "ub2gm", "ub2gm_size", "ub2gm_cache",
                 "mte_set")
CACHE_FAMILIES = ("gm2ub_align_cache", "ub2gm_cache")


def pipe_or_event(c: Chooser, name: str) -> str:
    """An operand of setflag/waitflag/pipebar: an event (X2), else a pipe's name; one in 16 out of range."""
    if c.integer(0, 15) == 0:
        return "8" if name == "X2" else "9"
    if name == "X2":
        return str(c.integer(0, 7))
    return c.choice(tuple(p for p in PIPES if p != ("PIPE_S" if name == "X" else "PIPE_ALL")))


def ctrl_value(c: Chooser) -> str:
    """Any mix of the bits CTRL's saturation switch reads (a quarter of them the global saturation mode)."""
    return str(sum(c.choice((0, 1 << bit)) for bit in CTRL_BITS))


def _typed(register: str, operand, types) -> str:
    return f"{register}.{types[operand.type_slot].name}" if operand.type_slot is not None else register


# Hardware loops come from loop(): vloop and endloop in pairs, vag only inside. A loop body holds no
# branch and no label, since no branch may enter or leave a loop.
_LOOP_FAMILIES = ("loop", "endloop", "iter_loops")
TOP_LEVEL_ROWS = tuple(spec for spec in INSNS if spec.family not in _LOOP_FAMILIES)
LOOP_BODY_ROWS = tuple(spec for spec in INSNS if spec.family not in ("loop", "endloop")
                       and not any(op.kind is Kind.LABEL for op in spec.operands))


def instruction(c: Chooser, n_labels: int, depth: int = 0) -> str:
    """Any row of the ISA table with any of its type combinations, operands drawn by kind; `depth`: how
    many hardware loops enclose it (inside one: no branches, and vag with a stride per enclosing loop
    at most)."""
    spec = c.choice(LOOP_BODY_ROWS if depth else TOP_LEVEL_ROWS)
    types = c.choice(spec.types) if spec.types else ()
    operands = []
    for operand in spec.operands:
        kind = operand.kind
        if kind is Kind.VREG:
            text = _typed(f"v{c.integer(0, 5)}", operand, types)
        elif kind is Kind.PREG:
            text = _typed(c.choice(MASK_REGISTERS), operand, types)
        elif kind is Kind.AREG:
            text = _typed(f"a{c.integer(0, 3)}", operand, types)
        elif kind is Kind.SREG and spec.family in MOVE_FAMILIES and c.integer(0, 3):
            text = c.choice(("s1", "s2", "s3"))      # the prologue's 64, 32, 5: counts that often fit
        elif kind is Kind.SREG:
            text = _typed(scalar_register(c), operand, types)
        elif kind is Kind.UREG:                 # two of the four, so that streams meet
            text = _typed(f"u{c.integer(0, 1)}", operand, types)
        elif kind is Kind.QREG:
            text = f"q{c.integer(0, 1)}"
        elif kind is Kind.BASE:
            text = f"[{scalar_register(c)}]"
        elif kind is Kind.SVAL and spec.family in SYNC_FAMILIES:   # mostly pipes and events that exist
            text = pipe_or_event(c, operand.name)
        elif kind is Kind.SVAL and spec.family in CROSS_FAMILIES:  # a pipe (X0), else a flag (beyond 15 too)
            text = pipe_or_event(c, "X1") if operand.name == "X0" else str(c.integer(0, 20))
        elif kind is Kind.SVAL and spec.family in CACHE_FAMILIES:  # the L2 cache mode: 3 and 7 fault
            text = str(c.integer(0, 7))
        elif kind is Kind.SVAL and spec.specials == ("CTRL",):
            text = ctrl_value(c)
        elif operand.name == "BLOCK":     # movvp: one of the register's 8W blocks, or a register (may fault)
            text = scalar_register(c) if c.integer(0, 3) == 0 else str(c.integer(0, 8 * types[0].width - 1))
        elif kind is Kind.SVAL:
            text = scalar_register(c) if c.integer(0, 1) else str(immediate(c))
        elif kind is Kind.TVAL:
            text = typed_value(c, types[operand.type_slot])
        elif kind is Kind.ADDR and operand.name == "[gm]":     # the data moves' GM side
            text = f"[gmem + {c.choice((0, 1, 32, 100, 2000, 2048))}]"
        elif kind is Kind.ADDR:
            text = address(c)
        elif kind is Kind.LABEL:
            text = f"L{c.integer(0, n_labels - 1)}"
        elif kind is Kind.PAT:
            text = c.choice(sorted(PATTERNS))
        elif kind is Kind.BARRIER:
            text = c.choice(("",) + BARRIER_KINDS)
        elif kind in KEYWORDS:       # left out, or one the row takes with these types
            text = c.choice(("",) + keyword_choices(spec, kind, types))
        else:
            raise AssertionError(f"no generator for operand kind {kind}")
        operands.append(text)
    if spec.family == "iter_loops":
        operands = operands[:1 + c.integer(1, depth)]
    return f"{spec.mnemonic} {', '.join(t for t in operands if t)}".strip()


def loop(c: Chooser, depth: int) -> list[str]:
    """A hardware loop at nesting `depth` (1 for an outermost one): a small count (now and then a scalar
    register, whose value may be out of range: a LOOP_COUNT fault), a body of 1..3 instructions or
    nested loops, at most NUM_LOOPS deep, so a program still ends (or meets the step limit)."""
    count = scalar_register(c) if c.integer(0, 7) == 0 else str(c.integer(0, 3))
    body = []
    for _ in range(c.integer(1, 3)):
        if depth < NUM_LOOPS and c.integer(0, 4) == 0:
            body += loop(c, depth + 1)
        else:
            body.append(instruction(c, 0, depth))
    return [f"vloop {count}", *body, "endloop"]


def program(c: Chooser) -> str:
    """The prologue, in one program of four a CTRL setting (so that compute runs in the saturation mode
    often), then 1..MAX_INSTRUCTIONS labelled items, each an instruction or a hardware loop (branches may
    go to any label, the one after the last item included; loop bodies hold no label)."""
    n = c.integer(1, MAX_INSTRUCTIONS)
    body = [f"        sprset.ctrl {ctrl_value(c)}"] if c.integer(0, 3) == 0 else []
    for k in range(n):
        if c.integer(0, 9) == 0:            # a hardware loop: the label on its vloop, none inside
            first, *rest = loop(c, 1)
            body += [f"L{k}: {first}", *(f"    {line}" for line in rest)]
        else:
            body.append(f"L{k}: {instruction(c, n + 1)}")
    return PROLOGUE + "\n".join(body) + f"\nL{n}:\n"
