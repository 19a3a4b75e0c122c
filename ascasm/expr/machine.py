"""The debugger's expressions: `p v3.f16 / p0`, `b loop if any(v3.f16 > 6e4)`, `w output[0:16]`.

ascasm/expr/parser.py turns the text into a tree (grammar/expr.lark); the one evaluator
(ascasm/expr/evaluate.py) walks it in this module's domain, the values of the machine state, computed
with numpy. There is no Python eval anywhere: only the names, operators and functions below exist.
Operators have Python's precedence, the same as in the assembler's constant expressions.

    expr    := or
    or      := and (("or" | "||") and)*
    and     := not (("and" | "&&") not)*
    not     := ("not" | "!") not | cmp
    cmp     := bor (("==" | "!=" | "<" | "<=" | ">" | ">=") bor)?
    bor     := bxor ("|" bxor)*
    bxor    := band ("^" band)*
    band    := shift ("&" shift)*
    shift   := sum (("<<" | ">>") sum)*
    sum     := prod (("+" | "-") prod)*
    prod    := unary (("*" | "/" | "//" | "%") unary)*     X / pN: X's lanes under mask pN
    unary   := ("-" | "+" | "~") unary | postfix
    postfix := primary ("[" expr (":" expr)? "]")*
    primary := NUMBER | "inf" | "nan" | "true" | "false" | FUNC "(" expr ")" | "(" expr ")"
             | vN["." TYPE] | pN["." bW] | sN["." TYPE] | aN | ("ub"|"gm")["." TYPE] | BUFFER | LABEL | "pc" | "steps"
             | CVAR ("." MEMBER)*           a translated C++ kernel's variable (ascasm/expr/cvars.py)
    FUNC    := any | all | count | sum | min | max

A name may start with `$`, as in gdb: `$pc`, `$s0`, `$v1.f16` are pc, s0, v1.f16.
Indexing: `vN.T[I]`, `vN.T[I:J]` (lanes I..J-1), `NAME[I]`, `NAME[I:J]` (elements), and for the UB
`ub[ADDR]` (one byte), `ub[ADDR:LEN]` (LEN bytes from ADDR), `ub.T[ADDR:COUNT]` (COUNT elements).
"""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass, replace

import numpy as np

from ..isa import dtypes
from ..limits import shown
from ..state import MASK_SPR_NAME, MASK_SPR_SET, SPR_AR, SPR_SQZN, SPR_SQZN_SET, UB_SIZE, VL
from . import evaluate as walk
from .constant import parse_number
from .parser import parse
from .tree import COMPARISONS, ExprError

__all__ = ["ExprError", "parse", "Env", "Value", "Where", "evaluate", "evaluate_name", "evaluate_text", "reads", "check_names",
           "compile_scalar", "FUNCTIONS"]

_REGISTER = re.compile(r"^([vpsa])(\d+)$", re.IGNORECASE)
_REGISTER_COUNT = {"v": 32, "p": 8, "s": 32, "a": 8}
FUNCTIONS = ("any", "all", "count", "sum", "min", "max")
_CONSTANTS = {"inf": float("inf"), "nan": float("nan"), "true": True, "false": False}


def classify(name: str) -> tuple:
    """What a NAME token means: ("reg", file, number, type or None) for vN, pN, sN, aN with an
    optional `.T`; ("ub" or "gm", type or None): a memory before its index; ("const", value) for inf, nan, true, false; else ("name",
    name) (a buffer, label, pc, steps, special register or C++ variable, with its members). A
    leading `$` is dropped, as in gdb. Raises ExprError for a register that does not exist or an
    unknown type."""
    name = name.removeprefix("$")
    head, dot, suffix = name.partition(".")
    m = _REGISTER.match(head)
    if m:
        file, number = m.group(1).lower(), int(m.group(2))
        if number >= _REGISTER_COUNT[file]:
            raise ExprError(f"no register {head}: {file}0-{file}{_REGISTER_COUNT[file] - 1} exist")
        return "reg", file, number, _type(suffix, head) if dot else None
    if head.lower() in ("ub", "gm"):
        return head.lower(), _type(suffix, head) if dot else None
    if not dot and name.lower() in _CONSTANTS:
        return "const", _CONSTANTS[name.lower()]
    return "name", name


def _type(name: str, owner: str):
    etype = dtypes.lookup(name)
    if etype is None:
        raise ExprError(f"unknown type '{shown(name)}' after {owner} (types: "
                        + " ".join(t.name for t in dtypes.TYPES[:19]) + ")")
    return etype


def _number(token: str):
    value, problem = parse_number(token)        # the assembler's rules and bounds
    if problem:
        raise ExprError(problem)
    return value


def reads(node, buffers=frozenset(), labels=frozenset()) -> set[str]:
    """What an expression reads: "ub", "gm", "vN", "pN", "sN", "aN", and "ctrl" for pc and steps (a watch
    is re-evaluated only after steps that can write one of these). A name in `buffers` reads its space,
    one in `labels` nothing; any other name (pc, steps, unknown) is assumed to read both."""
    if node.type == "NAME":
        meaning = classify(node.value)
        if meaning[0] == "reg":
            return {f"{meaning[1]}{meaning[2]}"}
        if meaning[0] in ("ub", "gm", "const"):
            return set() if meaning[0] == "const" else {meaning[0]}
        name = meaning[1]
        if name in buffers:
            return {getattr(buffers[name], "space", "ub") if isinstance(buffers, dict) else "ub"}
        return set() if name in labels else {"ub", "gm", "ctrl"}
    found = set()
    for part in node.parts:
        if part is not None:
            found |= reads(part, buffers, labels)
    return found


def check_names(node, program) -> None:
    """Raise ExprError for a name that is no register, buffer, label, pc or steps: `watch nonsense`
    is refused when it is set, not reported as an error at every stop."""
    if node.type == "NAME":
        meaning = classify(node.value)
        name = meaning[1]
        if meaning[0] == "name" and name not in program.buffers and name not in program.labels and \
                not program.debug.known(name) and name.lower() not in ("pc", "steps", "step"):
            raise _unknown_name(name, program)
        return
    for part in node.parts:
        if part is not None:
            check_names(part, program)


def _unknown_name(name: str, program) -> ExprError:
    hint = ", ".join(sorted(program.buffers)) or "none"
    return ExprError(f"unknown name '{shown(name)}' (registers v0-v31 p0-p7 s0-s31 a0-a7, ub, pc, steps; "
                     f"buffers: {hint})")


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Where:
    """Where a value lives, for `why` and for labelling: kind "ub" (addr = byte address of element
    `first`... no: of element 0 of the value), "gm" (the same in global memory), "v"/"p"/"s"/"a" (number)."""
    kind: str
    number: int = 0          # register number, or the UB byte address of the value's element 0
    width: int = 1           # bytes per element
    name: str = ""           # buffer name for buffer views


@dataclass(slots=True)
class Value:
    data: np.ndarray                  # 0-d or 1-d
    label: str
    etype: object = None              # ElemType of a typed view; None for computed values
    active: np.ndarray | None = None  # per element; None: all active
    first: int = 0                    # number of element 0: lane, element index or byte address
    kind: str = "value"               # "value", "mask" (lanes of a mask register), "bool"
    noun: str = "values"              # "lanes", "elements", "bytes"
    hex_index: bool = False           # number elements as hex addresses (UB views)
    where: Where | None = None        # set while the value is a plain location

    @property
    def is_array(self) -> bool:
        return self.data.ndim == 1


@dataclass
class Env:
    """What expressions can see: the program (buffers, labels) and the machine state. `vtype(n)` is
    the type a bare `vN` is shown as."""
    program: object
    state: object
    vtype: object = None
    scope: object = None            # C++ variables by name (ascasm/cvars.Scope), for a translated kernel

    def default_vtype(self, number: int):
        etype = self.vtype(number) if self.vtype else None
        return etype or dtypes.lookup("u8")


def _scalar(value, label: str, etype=None, kind: str = "value", where=None) -> Value:
    return Value(np.asarray(value), label, etype, None, 0, kind, "values", False, where)


def evaluate(node, env: Env, addresses: bool = False) -> Value:
    """Evaluate a parsed expression. With `addresses`, a bare buffer name is its byte address."""
    return _plain(walk.evaluate(node, MachineValues(env, addresses)))


def evaluate_name(name: str, env: Env) -> Value:
    """The value of a variable, buffer or label by its name as written (a C++ variable's may be beyond
    ASCII, or look like a register), without parsing it."""
    return MachineValues(env, False)._name(name)


def evaluate_text(text: str, env: Env, addresses: bool = False) -> Value:
    return evaluate(parse(text), env, addresses)


@dataclass(frozen=True)
class _Memory:
    """`ub`, `gm` or `ub.T`/`gm.T` before its index: memory is only ever read through one."""
    space: str              # "ub" or "gm"
    etype: object


def _plain(*values):
    """The values, refusing a memory without its index."""
    for value in values:
        if isinstance(value, _Memory):
            whole = "the UB" if value.space == "ub" else "global memory"
            raise ExprError(f"{whole} needs an index: {value.space}[ADDR], {value.space}[ADDR:LEN] "
                            f"or {value.space}.T[ADDR:COUNT]")
    return values[0] if len(values) == 1 else values


class MachineValues:
    """The evaluator's domain (ascasm/expr/evaluate.py) for the debugger: Values of the machine state."""

    def __init__(self, env: Env, addresses: bool):
        self.env, self.addresses = env, addresses

    def enter(self, node):
        if node.type == "call" and node.function.value.lower() not in FUNCTIONS:
            raise ExprError(f"unknown function '{shown(node.function.value)}' (functions: {' '.join(FUNCTIONS)})")

    def leaf(self, token):
        if token.type == "NUMBER":
            return self._num(_number(token.value))
        if token.type != "NAME":
            raise ExprError(f"unexpected {shown(token.value)!r}")
        meaning = classify(token.value)
        if meaning[0] == "reg":
            return self._reg(*meaning[1:])
        if meaning[0] in ("ub", "gm"):
            return _Memory(meaning[0], meaning[1])
        if meaning[0] == "const":
            return self._num(meaning[1])
        return self._name(meaning[1])

    def unary(self, node, operand):
        operand, op = _plain(operand), node.op
        if op == "-" and node.operand.type == "NUMBER" and type(_number(node.operand.value)) is int:
            return self._num(-_number(node.operand.value))  # -9223372036854775808 is an int64, not -(2^63 as a u64)
        return {"-": self._neg, "+": self._pos, "~": self._inv, "not": self._not}[op](operand)

    def binary(self, node, left, right):
        left, right = _plain(left, right)
        op = node.op
        if op in ("and", "or"):
            return self._logic(left, right, op, np.logical_and if op == "and" else np.logical_or)
        if op in COMPARISONS:
            return self._cmp(op, left, right)
        return self._bin(op, left, right)

    # --- leaves ---
    def _num(self, value):
        if type(value) is int and not -(1 << 63) <= value < (1 << 64):
            raise ExprError(f"{value} does not fit in 64 bits ({-(1 << 63)}..{(1 << 64) - 1})")
        return _scalar(value, _number_text(value))

    def _reg(self, file, number, etype):
        state = self.env.state
        if file == "s":
            if etype is not None:       # sN.T: its low bits as a T value (a register holding a float's bits)
                bits = np.array([int(state.sreg[number]) % (1 << (8 * etype.width))], etype.bits)
                return _scalar(bits.view(etype.np_dtype)[0], f"s{number}.{etype.name}", etype,
                               where=Where("s", number, 8))
            return _scalar(np.int64(state.sreg[number]), f"s{number}", dtypes.lookup("s64"),
                           where=Where("s", number, 8))
        if file == "a":
            if etype is not None:
                raise ExprError(f"a{number} is an address register (a byte offset); it takes no type")
            return _scalar(np.uint32(state.areg[number]), f"a{number}", dtypes.lookup("u32"),
                           where=Where("a", number, 4))
        if file == "p":
            if not state.preg_set[number]:
                raise ExprError(f"p{number} is unset: no instruction has written it")
            width = etype.width if etype else 1
            bits = np.unpackbits(state.preg[number], bitorder="little").astype(bool)
            lanes = bits[::width][:VL // width]
            label = f"p{number}.{etype.name}" if etype else f"p{number}"
            return Value(lanes, label, dtypes.lookup(f"b{8 * width}"), None, 0, "mask", "lanes",
                         where=Where("p", number, width))
        etype = etype or self.env.default_vtype(number)
        lanes = state.vreg[number].view(etype.np_dtype)
        return Value(lanes, f"v{number}.{etype.name}", etype, None, 0, "value", "lanes",
                     where=Where("v", number, etype.width))

    def _name(self, name):
        program = self.env.program
        scope = self.env.scope
        variable = scope.value(name, self, self.addresses) if scope is not None else None
        if variable is not None:
            return variable
        if name in program.buffers:
            buf = program.buffers[name]
            if self.addresses:
                return _scalar(buf.addr, name)
            data = buf.view(self.env.state)
            return Value(data, name, buf.etype, None, 0, "value", "elements",
                         where=Where(buf.space, buf.addr, buf.etype.width, name))
        if name in program.labels:
            return _scalar(program.labels[name], name)
        if name.lower() == "pc":
            return _scalar(self.env.state.pc, "pc")
        if name.lower() in ("steps", "step"):
            return _scalar(self.env.state.steps, "steps")
        special = self._special(name)
        if special is not None:
            return special
        raise _unknown_name(name, program)

    def _special(self, name):
        """AR, SQZN, MASK (special registers), lidx0-lidx3 (the hardware loops' indices, innermost first),
        u0-u3 (the bytes pending in an unaligned store register) and q0-q3 (the block an unaligned load
        register holds), or None for any other name."""
        state = self.env.state
        if name.lower() == "ar":
            return _scalar(np.int64(state.spr[SPR_AR]), "AR", dtypes.lookup("s64"))
        if name.lower() == MASK_SPR_NAME.lower():        # the mask special register: MASK0, MASK1
            if not state.mask_spr[MASK_SPR_SET]:
                raise ExprError("MASK is unset: no sprset.mask has written it")
            return Value(state.mask_spr[:MASK_SPR_SET].view(np.uint64), "MASK (MASK0, MASK1)", dtypes.lookup("u64"),
                         None, 0, "value", "lanes")
        if name.lower() == "ctrl":
            return _scalar(np.uint64(state.ctrlreg[0]), "CTRL", dtypes.lookup("u64"))
        if name.lower() == "sqzn":
            if not state.spr[SPR_SQZN_SET]:
                raise ExprError("SQZN is unset: no vsqz.st has written it")
            return _scalar(np.int64(state.spr[SPR_SQZN]), "SQZN", dtypes.lookup("s64"))
        m = re.match(r"^lidx([0-3])$", name, re.IGNORECASE)
        if m is not None:                   # a hardware loop's index, innermost first
            level = int(m.group(1))
            index, count = (int(x) for x in state.hwloop[level])
            if not count:
                active = int(np.count_nonzero(state.hwloop[:, 1]))
                raise ExprError(f"lidx{level}: {active} hardware loop{'s are' if active != 1 else ' is'} active "
                                f"(lidx0 is the innermost)")
            return _scalar(np.int64(index), f"lidx{level} (of {count})", dtypes.lookup("s64"))
        m = re.match(r"^q([0-3])$", name, re.IGNORECASE)
        if m is not None:
            q = int(m.group(1))
            loaded, position = (int(x) for x in state.qreg_state[q])
            if not loaded:
                raise ExprError(f"q{q} is unset: no vldas has started its stream")
            return Value(state.qreg[q], f"q{q} (the block for stream position {position:#x})", dtypes.lookup("u8"),
                         None, position - position % 32, "value", "bytes", True)
        m = re.match(r"^u([0-3])$", name, re.IGNORECASE)
        if m is None:
            return None
        u = int(m.group(1))
        pending, at = (int(x) for x in state.ureg_state[u])
        label = f"u{u} ({pending} bytes pending for UB {at:#x})" if pending else f"u{u} (nothing pending)"
        return Value(state.ureg[u, :pending], label, dtypes.lookup("u8"), None, at, "value", "bytes", True)

    # --- indexing ---
    def index(self, node, target, low, high):
        if isinstance(target, _Memory):
            return self._memory_index(target.space, target.etype, low, high)
        value = target
        if not value.is_array:
            raise ExprError(f"{value.label} is a single value; it cannot be indexed")
        lo = self._int(low, "index")
        n = value.data.size
        if high is None:
            k = lo - value.first
            if not 0 <= k < n:
                raise ExprError(f"index {lo} is outside {value.label} "
                                f"({value.first}..{value.first + n - 1})")
            where = _shift_where(value.where, k)
            return replace(value, data=value.data[k], label=f"{value.label}[{lo}]",
                           active=None if value.active is None else value.active[k], first=lo,
                           where=where)
        hi = self._int(high, "slice end")
        a, b = lo - value.first, hi - value.first
        if not (0 <= a <= b <= n):
            raise ExprError(f"slice [{lo}:{hi}] is outside {value.label} "
                            f"({value.first}..{value.first + n - 1}; the end is exclusive)")
        if a == b:
            raise ExprError(f"slice [{lo}:{hi}] is empty")
        return replace(value, data=value.data[a:b], label=f"{value.label}[{lo}:{hi}]",
                       active=None if value.active is None else value.active[a:b], first=lo,
                       where=_shift_where(value.where, a))

    def _memory_index(self, space, etype, low, high):
        """ub[ADDR], ub.T[ADDR:COUNT] and the same in global memory (gm[...])."""
        memory = getattr(self.env.state, space)
        etype = etype or dtypes.lookup("u8")
        addr = self._int(low, "address")
        count = 1 if high is None else self._int(high, "length")
        if count <= 0:
            raise ExprError("the length must be positive")
        end = addr + count * etype.width
        if addr < 0 or end > memory.size:
            whole = "the UB" if space == "ub" else "global memory (its .gm buffers)"
            raise ExprError(f"{space}[{addr:#x}..{end:#x}) is outside {whole} (0x0..{memory.size:#x})")
        data = memory[addr:end].view(etype.np_dtype)
        name = space if etype.name == "u8" else f"{space}.{etype.name}"
        where = Where(space, addr, etype.width)
        if high is None:
            return Value(data[0], f"{name}[{addr:#x}]", etype, None, addr, "value", "bytes", True, where)
        noun = "bytes" if etype.width == 1 else "elements"
        return Value(data, f"{name}[{addr:#x}:{count}]", etype, None, addr, "value", noun, True, where)

    def _int(self, value, what: str) -> int:
        _plain(value)
        if value.is_array or value.data.dtype.kind not in "iub":
            raise ExprError(f"the {what} must be a single integer, not {value.label}")
        return int(value.data)

    # --- operators ---
    def _neg(self, value):
        with np.errstate(all="ignore"):
            return _computed(-_numeric(value), f"-{value.label}", value)

    def _pos(self, value):
        return value

    def _inv(self, value):
        data = _numeric(value)
        if data.dtype.kind not in "iu":
            raise ExprError(f"~ needs integers, not {value.label}")
        return _computed(~data, f"~{value.label}", value)

    def _not(self, value):
        return _computed(~_truth(value), f"not {value.label}", value, kind="bool")

    def _logic(self, a, b, word, fn):
        return _combine(a, b, fn(_truth(a), _truth(b)), f"{a.label} {word} {b.label}", "bool")

    def _cmp(self, op, a, b):
        if a.data.ndim == 0 and b.data.ndim == 0 and a.active is None and b.active is None:
            result = _COMPARE[op](_python_number(a), _python_number(b))     # (no numpy on the way)
            return Value(np.bool_(result), f"{a.label} {op} {b.label}", None, None, 0, "bool")
        x, y = _numeric(a), _numeric(b)
        _check_lengths(a, b)
        fn = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
              ">=": np.greater_equal}[op]
        with np.errstate(all="ignore"):
            return _combine(a, b, fn(x, y), f"{a.label} {op} {b.label}", "bool")

    def _bin(self, op, a, b):
        if op == "/" and b.kind == "mask":
            return _apply_mask(a, b)
        x, y = _numeric(a), _numeric(b)
        _check_lengths(a, b)
        if op in ("&", "|", "^", "<<", ">>") and "f" in (x.dtype.kind, y.dtype.kind):
            raise ExprError(f"'{op}' needs integers")
        integer = x.dtype.kind in "iub" and y.dtype.kind in "iub"
        if op in ("//", "%") and integer and np.any(y == 0):
            raise ExprError("integer division by zero")
        fn = {"+": np.add, "-": np.subtract, "*": np.multiply, "/": np.true_divide, "//": np.floor_divide,
              "%": np.remainder, "&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor,
              "<<": np.left_shift, ">>": np.right_shift}[op]
        with np.errstate(all="ignore"):
            try:
                data = fn(x, y)
            except (TypeError, OverflowError) as exc:
                raise ExprError(f"cannot compute {a.label} {op} {b.label}: {exc}") from None
        return _combine(a, b, data, f"{a.label} {op} {b.label}", "value")

    def call(self, node, value):
        value, name = _plain(value), node.function.value.lower()
        active = np.ones(value.data.shape, bool) if value.active is None else value.active
        if name in ("any", "all", "count"):
            truth = _truth(value)
            selected = truth[active] if truth.ndim else (truth if active else np.zeros(0, bool))
            result = {"any": np.any, "all": np.all, "count": np.count_nonzero}[name](selected)
            result = np.asarray(int(result) if name == "count" else bool(result))
            return _scalar(result, f"{name}({value.label})", kind="value" if name == "count" else "bool")
        data = _numeric(value)
        selected = data[active] if data.ndim else data.reshape(1)
        if selected.size == 0:
            raise ExprError(f"{name}({value.label}): no active element")
        fn = {"sum": np.sum, "min": np.min, "max": np.max}[name]
        with np.errstate(all="ignore"):
            return _scalar(fn(selected), f"{name}({value.label})")


def _shift_where(where: Where | None, k: int) -> Where | None:
    if where is None:
        return None
    if where.kind in ("ub", "gm"):
        return replace(where, number=where.number + k * where.width)
    return where


_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
            ">=": operator.ge}


def _python_number(value: Value):
    """A single value as a Python int or float (exact for every integer type)."""
    x = value.data[()]
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    return float(x)


def _numeric(value: Value) -> np.ndarray:
    """The value's numbers for arithmetic: integers as int64 (u64 as uint64), floats as float64."""
    data = np.asarray(value.data)
    if data.dtype == bool:
        return data.astype(np.int64)
    if data.dtype.kind in "iu":
        return data if data.dtype == np.uint64 else data.astype(np.int64)
    try:
        return data.astype(np.float64)
    except (TypeError, ValueError):
        raise ExprError(f"{value.label} is not a number") from None


def _truth(value: Value) -> np.ndarray:
    data = np.asarray(value.data)
    if data.dtype == bool:
        return data
    return _numeric(value) != 0


def _check_lengths(a: Value, b: Value):
    if a.is_array and b.is_array and a.data.size != b.data.size:
        raise ExprError(f"{a.label} has {a.data.size} {a.noun} but {b.label} has {b.data.size}")


def _combine(a: Value, b: Value, data, label: str, kind: str) -> Value:
    """An element-wise result: numbered like its array operand, active where both operands are."""
    shape_from = a if a.is_array else b
    active = a.active if b.active is None else b.active if a.active is None else a.active & b.active
    if not np.ndim(data):
        active = None
    return Value(np.asarray(data), label, None, active, shape_from.first, kind, shape_from.noun,
                 shape_from.hex_index)


def _computed(data, label: str, like: Value, kind: str = "value") -> Value:
    return Value(np.asarray(data), label, None, like.active, like.first, kind, like.noun, like.hex_index)


def _apply_mask(value: Value, mask: Value) -> Value:
    """`X / pN`: element k of X (number first+k) is active iff lane first+k of pN, the mask read at
    X's element width (bit i*W). `/ pN.bW` must name that same width."""
    if not value.is_array:
        raise ExprError(f"'/ {mask.label}' needs lanes on its left, not the single value {value.label}")
    width = value.etype.width if value.etype is not None else (value.where.width if value.where else 1)
    if mask.where.width == 1:
        bits = mask.data[::width]
    elif mask.where.width == width:
        bits = mask.data
    else:
        raise ExprError(f"{mask.label} reads {mask.where.width}-byte lanes but {value.label} has "
                        f"{width}-byte elements; write '/ p{mask.where.number}'")
    lanes = np.arange(value.first, value.first + value.data.size)
    inside = lanes < bits.size
    active = np.zeros(value.data.size, bool)
    active[inside] = bits[lanes[inside]]
    if value.active is not None:
        active &= value.active
    return replace(value, active=active, label=f"{value.label} / {mask.label}")


def _number_text(value) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    return repr(value)


# ---------------------------------------------------------------------------------------------
# Compiled scalar conditions (a breakpoint's `if s0 == 2` runs at every hit: no tree walk)
# ---------------------------------------------------------------------------------------------

def _wrap64(x: int) -> int:
    return ((x + (1 << 63)) & ((1 << 64) - 1)) - (1 << 63)


_SCALAR_OPS = {"+": lambda x, y: _wrap_int(x + y), "-": lambda x, y: _wrap_int(x - y),
               "*": lambda x, y: _wrap_int(x * y), "&": operator.and_, "|": operator.or_, "^": operator.xor}


def _wrap_int(result):
    """Integers compute in 64 bits (as lanes do, in int64); floats as Python floats (float64)."""
    return _wrap64(result) if isinstance(result, int) else result


def compile_scalar(node, env: Env):
    """A closure computing a scalar expression straight from the machine state, for the subset a
    loop condition uses (numbers, sN, aN, pc, steps, labels, NAME[CONSTANT], ub[CONSTANT], comparisons,
    + - * & | ^, and/or/not); None for anything else (then `evaluate` is used). Bound to env.state."""
    while node.type == "group":
        node = node.inner
    kind = node.type
    if kind == "NUMBER":
        value = _number(node.value)
        return lambda: value
    if kind == "NAME":
        return _compiled_name(classify(node.value), env)
    if kind == "index":
        return _compiled_element(node, env)
    if kind == "binary" and node.op in COMPARISONS:
        compare, left, right = _COMPARE[node.op], compile_scalar(node.left, env), compile_scalar(node.right, env)
        if left is None or right is None:
            return None
        return lambda: compare(left(), right())
    if kind == "binary" and node.op in ("and", "or"):
        left, right = compile_scalar(node.left, env), compile_scalar(node.right, env)
        if left is None or right is None:
            return None
        if node.op == "and":
            return lambda: bool(left()) and bool(right())
        return lambda: bool(left()) or bool(right())
    if kind == "unary" and node.op in ("not", "-"):
        operand = compile_scalar(node.operand, env)
        if operand is None:
            return None
        return (lambda: not operand()) if node.op == "not" else (lambda: _wrap_int(-operand()))
    if kind == "binary" and node.op in _SCALAR_OPS:
        fn, left, right = _SCALAR_OPS[node.op], compile_scalar(node.left, env), compile_scalar(node.right, env)
        if left is None or right is None or (node.op in "&|^" and not _integer_only(node)):
            return None
        return lambda: fn(left(), right())
    return None


def _compiled_name(meaning: tuple, env: Env):
    state, program = env.state, env.program
    if meaning[0] == "const":
        value = meaning[1]
        return lambda: value
    if meaning[0] == "reg" and meaning[3] is None and meaning[1] in "sa":
        array, number = (state.sreg if meaning[1] == "s" else state.areg), meaning[2]
        return lambda: int(array[number])
    if meaning[0] != "name":
        return None
    name = meaning[1]
    if name in program.buffers or program.debug.known(name):
        return None
    if name in program.labels:
        value = program.labels[name]
        return lambda: value
    ctrl = state.ctrl
    if name.lower() == "pc":
        return lambda: int(ctrl[0])
    if name.lower() in ("steps", "step"):
        return lambda: int(ctrl[1])
    return None


def _compiled_element(node, env: Env):
    """`BUFFER[N]` or `ub[N]` with N an integer literal."""
    if node.high is not None or node.low.type != "NUMBER" or node.target.type != "NAME":
        return None
    index = _number(node.low.value)
    if not isinstance(index, int):
        return None
    meaning = classify(node.target.value)
    if meaning[0] == "name" and env.program.debug.known(meaning[1]):
        return None                 # a C++ variable: where it lives depends on the row
    if meaning[0] == "name" and meaning[1] in env.program.buffers:
        buf = env.program.buffers[meaning[1]]
        if not 0 <= index < buf.count:
            return None
        view = buf.view(env.state)
        as_number = float if buf.etype.kind == "float" else int
        return lambda: as_number(view[index])
    if meaning == ("ub", None) and 0 <= index < UB_SIZE:
        ub = env.state.ub
        return lambda: int(ub[index])
    return None


def _integer_only(node) -> bool:
    """Bitwise operators need integers: only registers, pc/steps/labels and integer literals."""
    if node.type == "NUMBER":
        return isinstance(_number(node.value), int)
    if node.type == "NAME":
        meaning = classify(node.value)
        return meaning[0] != "const" or isinstance(meaning[1], int)
    return all(_integer_only(part) for part in node.parts if part is not None)
