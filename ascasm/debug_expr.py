"""The debugger's expressions: `p v3.f16 / p0`, `b loop if any(v3.f16 > 6e4)`, `w output[0:16]`.

A tokenizer and a recursive-descent parser turn the text into a tree of tuples; `evaluate` walks the
tree over the machine state with numpy. There is no Python eval anywhere: only the names, operators
and functions below exist.

    expr    := or
    or      := and (("or" | "||") and)*
    and     := not (("and" | "&&") not)*
    not     := ("not" | "!") not | cmp
    cmp     := bits (("==" | "!=" | "<" | "<=" | ">" | ">=") bits)?
    bits    := shift (("&" | "|" | "^") shift)*
    shift   := sum (("<<" | ">>") sum)*
    sum     := prod (("+" | "-") prod)*
    prod    := unary (("*" | "/" | "//" | "%") unary)*     X / pN: X's lanes under mask pN
    unary   := ("-" | "+" | "~") unary | postfix
    postfix := primary ("[" expr (":" expr)? "]")*
    primary := NUMBER | "inf" | "nan" | "true" | "false" | FUNC "(" expr ")" | "(" expr ")"
             | vN["." TYPE] | pN["." bW] | sN["." TYPE] | aN | ("ub"|"gm")["." TYPE] | BUFFER | LABEL | "pc" | "steps"
             | CVAR ("." MEMBER)*           a translated C++ kernel's variable (ascasm/cvars.py)
    FUNC    := any | all | count | sum | min | max

A name may start with `$`, as in gdb: `$pc`, `$s0`, `$v1.f16` are pc, s0, v1.f16.
Indexing: `vN.T[I]`, `vN.T[I:J]` (lanes I..J-1), `NAME[I]`, `NAME[I:J]` (elements), and for the UB
`ub[ADDR]` (one byte), `ub[ADDR:LEN]` (LEN bytes from ADDR), `ub.T[ADDR:COUNT]` (COUNT elements).
"""
from __future__ import annotations

import math
import operator
import re
from dataclasses import dataclass, replace

import numpy as np

from .asm.expr import parse_number
from .isa import dtypes
from .limits import MAX_NESTING, shown
from .state import MASK_SPR_NAME, MASK_SPR_SET, SPR_AR, SPR_SQZN, SPR_SQZN_SET, UB_SIZE, VL


class ExprError(Exception):
    """A one-line message for the user: a bad expression, or one that cannot be evaluated now."""


# ---------------------------------------------------------------------------------------------
# Tokens and parser
# ---------------------------------------------------------------------------------------------

_TOKEN = re.compile(r"""
    \s*(?:
      (?P<num>0[xX][0-9a-fA-F_]+ | 0[bB][01_]+ | (?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)
    | \$?(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    | (?P<op>==|!=|<=|>=|<<|>>|//|&&|\|\||[-+*/%&|^~<>()\[\]:,.!])
    )""", re.VERBOSE)
_REGISTER = re.compile(r"^([vpsa])(\d+)$", re.IGNORECASE)
_REGISTER_COUNT = {"v": 32, "p": 8, "s": 32, "a": 8}
FUNCTIONS = ("any", "all", "count", "sum", "min", "max")
_CMP = ("==", "!=", "<", "<=", ">", ">=")


def tokenize(text: str) -> list[str]:
    tokens, pos = [], 0
    text = text.rstrip()
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            bad = text[pos:].strip()[:1] or text[pos]
            raise ExprError(f"unexpected character {bad!r} in expression")
        tokens.append(m.group("num") or m.group("name") or m.group("op"))
        pos = m.end()
    return tokens


class _Parser:
    def __init__(self, text: str):
        self.tokens, self.i = tokenize(text), 0
        if not self.tokens:
            raise ExprError("empty expression")

    def peek(self, k: int = 0) -> str | None:
        return self.tokens[self.i + k] if self.i + k < len(self.tokens) else None

    def take(self) -> str:
        token = self.peek()
        if token is None:
            raise ExprError("the expression ends too early")
        self.i += 1
        return token

    def expect(self, token: str):
        got = self.peek()
        if got != token:
            raise ExprError(f"expected {token!r}" + (f" but found {shown(got)!r}" if got else " at the end"))
        self.i += 1

    def parse(self):
        node = self.or_()
        if self.peek() is not None:
            raise ExprError(f"unexpected {shown(self.peek())!r} after a complete expression")
        return node

    def or_(self):
        node = self.and_()
        while self.peek() in ("or", "||"):
            self.take()
            node = ("or", node, self.and_())
        return node

    def and_(self):
        node = self.not_()
        while self.peek() in ("and", "&&"):
            self.take()
            node = ("and", node, self.not_())
        return node

    def not_(self):
        if self.peek() in ("not", "!"):
            self.take()
            return ("not", self.not_())
        node = self.bits()
        if self.peek() in _CMP:
            op = self.take()
            node = ("cmp", op, node, self.bits())
            if self.peek() in _CMP:
                raise ExprError("chained comparisons are not supported; combine them with 'and'")
        return node

    def _binary(self, ops, operand):
        node = operand()
        while self.peek() in ops:
            op = self.take()
            node = ("bin", op, node, operand())
        return node

    def bits(self):
        return self._binary(("&", "|", "^"), self.shift)

    def shift(self):
        return self._binary(("<<", ">>"), self.sum)

    def sum(self):
        return self._binary(("+", "-"), self.prod)

    def prod(self):
        return self._binary(("*", "/", "//", "%"), self.unary)

    def unary(self):
        if self.peek() in ("-", "+", "~"):
            op = self.take()
            operand = self.unary()
            if op == "-" and operand[0] == "num" and type(operand[1]) is int:
                return ("num", -operand[1])       # -9223372036854775808 is an int64, not -(2^63 as a u64)
            return ("neg" if op == "-" else "inv" if op == "~" else "pos", operand)
        return self.postfix()

    def postfix(self):
        node = self.primary()
        while self.peek() == "[":
            self.take()
            low = self.or_()
            high = None
            if self.peek() == ":":
                self.take()
                high = self.or_()
            self.expect("]")
            node = ("index", node, low, high)
        return node

    def primary(self):
        token = self.take()
        if token == "(":
            node = self.or_()
            self.expect(")")
            return node
        if _is_number(token):
            return ("num", _number(token))
        if not re.match(r"^[A-Za-z_]", token):
            raise ExprError(f"unexpected {shown(token)!r}")
        lower = token.lower()
        if lower in FUNCTIONS and self.peek() == "(":
            self.take()
            arg = self.or_()
            self.expect(")")
            return ("call", lower, arg)
        m = _REGISTER.match(token)
        if m:
            file, number = m.group(1).lower(), int(m.group(2))
            if number >= _REGISTER_COUNT[file]:
                raise ExprError(f"no register {token}: {file}0-{file}{_REGISTER_COUNT[file] - 1} exist")
            return ("reg", file, number, self._type_suffix(token))
        if lower in ("ub", "gm"):
            return (lower, self._type_suffix(token))
        if lower in ("inf", "nan"):
            return ("num", float(lower))
        if lower in ("true", "false"):
            return ("num", lower == "true")
        while self.peek() == "." and re.match(r"^[A-Za-z_]\w*$", self.peek(1) or ""):
            self.take()
            token += "." + self.take()          # a C++ struct member: tile.count
        return ("name", token)

    def _type_suffix(self, owner: str):
        if self.peek() != ".":
            return None
        self.take()
        name = self.take()
        etype = dtypes.lookup(name)
        if etype is None:
            raise ExprError(f"unknown type '{shown(name)}' after {owner} (types: "
                            + " ".join(t.name for t in dtypes.TYPES[:19]) + ")")
        return etype


def _is_number(token: str) -> bool:
    return bool(re.match(r"^(\d|\.\d)", token))


def _number(token: str):
    value, problem = parse_number(token)        # the assembler's rules and bounds
    if problem:
        raise ExprError(problem)
    return value


def parse(text: str):
    """Parse an expression; raises ExprError. The tree is at most MAX_NESTING deep, so the recursive
    walks over it (evaluate, reads, compile_scalar) stay far from Python's recursion limit."""
    try:
        node = _Parser(text).parse()
    except RecursionError:
        node = None
    if node is None or _depth(node) > MAX_NESTING:
        raise ExprError(f"expression deeper than {MAX_NESTING} levels of operators and parentheses")
    return node


def _depth(node) -> int:
    deepest, stack = 0, [(node, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        stack.extend((child, level + 1) for child in item[1:] if isinstance(child, tuple))
    return deepest


def reads(node, buffers=frozenset(), labels=frozenset()) -> set[str]:
    """What an expression reads: "ub", "gm", "vN", "pN", "sN", "aN", and "ctrl" for pc and steps (a watch
    is re-evaluated only after steps that can write one of these). A name in `buffers` reads its space,
    one in `labels` nothing; any other name (pc, steps, unknown) is assumed to read both."""
    kind = node[0]
    if kind == "reg":
        return {f"{node[1]}{node[2]}"}
    if kind in ("ub", "gm"):
        return {kind}
    if kind == "name":
        if node[1] in buffers:
            return {getattr(buffers[node[1]], "space", "ub") if isinstance(buffers, dict) else "ub"}
        return set() if node[1] in labels else {"ub", "gm", "ctrl"}
    found = set()
    for child in node[1:]:
        if isinstance(child, tuple):
            found |= reads(child, buffers, labels)
    return found


def check_names(node, program) -> None:
    """Raise ExprError for a name that is no buffer, label, pc or steps: `watch nonsense` is refused
    when it is set, not reported as an error at every stop."""
    if node[0] == "name":
        name = node[1]
        if name not in program.buffers and name not in program.labels and not program.debug.known(name) and \
                name.lower() not in ("pc", "steps", "step"):
            raise _unknown_name(name, program)
        return
    for child in node[1:]:
        if isinstance(child, tuple):
            check_names(child, program)


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
    return _Evaluator(env, addresses).eval(node)


def evaluate_text(text: str, env: Env, addresses: bool = False) -> Value:
    return evaluate(parse(text), env, addresses)


class _Evaluator:
    def __init__(self, env: Env, addresses: bool):
        self.env, self.addresses = env, addresses

    def eval(self, node) -> Value:
        return getattr(self, "_" + node[0])(*node[1:])

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

    def _ub(self, etype):
        raise ExprError("the UB needs an index: ub[ADDR], ub[ADDR:LEN] or ub.T[ADDR:COUNT]")

    def _gm(self, etype):
        raise ExprError("global memory needs an index: gm[ADDR], gm[ADDR:LEN] or gm.T[ADDR:COUNT]")

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
    def _index(self, target, low, high):
        if target[0] in ("ub", "gm"):
            return self._memory_index(target[0], target[1], low, high)
        value = self.eval(target)
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

    def _int(self, node, what: str) -> int:
        value = self.eval(node)
        if value.is_array or value.data.dtype.kind not in "iub":
            raise ExprError(f"the {what} must be a single integer, not {value.label}")
        return int(value.data)

    # --- operators ---
    def _neg(self, operand):
        value = self.eval(operand)
        with np.errstate(all="ignore"):
            return _computed(-_numeric(value), f"-{value.label}", value)

    def _pos(self, operand):
        return self.eval(operand)

    def _inv(self, operand):
        value = self.eval(operand)
        data = _numeric(value)
        if data.dtype.kind not in "iu":
            raise ExprError(f"~ needs integers, not {value.label}")
        return _computed(~data, f"~{value.label}", value)

    def _not(self, operand):
        value = self.eval(operand)
        return _computed(~_truth(value), f"not {value.label}", value, kind="bool")

    def _and(self, left, right):
        return self._logic(left, right, "and", np.logical_and)

    def _or(self, left, right):
        return self._logic(left, right, "or", np.logical_or)

    def _logic(self, left, right, word, fn):
        a, b = self.eval(left), self.eval(right)
        return _combine(a, b, fn(_truth(a), _truth(b)), f"{a.label} {word} {b.label}", "bool")

    def _cmp(self, op, left, right):
        a, b = self.eval(left), self.eval(right)
        if a.data.ndim == 0 and b.data.ndim == 0 and a.active is None and b.active is None:
            result = _COMPARE[op](_python_number(a), _python_number(b))     # (no numpy on the way)
            return Value(np.bool_(result), f"{a.label} {op} {b.label}", None, None, 0, "bool")
        x, y = _numeric(a), _numeric(b)
        _check_lengths(a, b)
        fn = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
              ">=": np.greater_equal}[op]
        with np.errstate(all="ignore"):
            return _combine(a, b, fn(x, y), f"{a.label} {op} {b.label}", "bool")

    def _bin(self, op, left, right):
        a, b = self.eval(left), self.eval(right)
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

    def _call(self, name, arg):
        value = self.eval(arg)
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
    kind = node[0]
    state = env.state
    if kind == "num":
        value = node[1]
        return lambda: value
    if kind == "reg" and node[3] is None and node[1] in "sa":
        array, number = (state.sreg if node[1] == "s" else state.areg), node[2]
        return lambda: int(array[number])
    if kind == "name":
        name = node[1]
        if name in env.program.buffers or env.program.debug.known(name):
            return None
        if name in env.program.labels:
            value = env.program.labels[name]
            return lambda: value
        ctrl = state.ctrl
        if name.lower() == "pc":
            return lambda: int(ctrl[0])
        if name.lower() in ("steps", "step"):
            return lambda: int(ctrl[1])
        return None
    if kind == "index" and node[3] is None and node[2][0] == "num" and isinstance(node[2][1], int):
        target, index = node[1], node[2][1]
        if target[0] == "name" and env.program.debug.known(target[1]):
            return None                 # a C++ variable: where it lives depends on the row
        if target[0] == "name" and target[1] in env.program.buffers:
            buf = env.program.buffers[target[1]]
            if not 0 <= index < buf.count:
                return None
            view = buf.view(state)
            as_number = float if buf.etype.kind == "float" else int
            return lambda: as_number(view[index])
        if target[0] == "ub" and target[1] is None and 0 <= index < UB_SIZE:
            ub = state.ub
            return lambda: int(ub[index])
        return None
    if kind == "cmp":
        compare, left, right = _COMPARE[node[1]], compile_scalar(node[2], env), compile_scalar(node[3], env)
        if left is None or right is None:
            return None
        return lambda: compare(left(), right())
    if kind in ("and", "or"):
        left, right = compile_scalar(node[1], env), compile_scalar(node[2], env)
        if left is None or right is None:
            return None
        if kind == "and":
            return lambda: bool(left()) and bool(right())
        return lambda: bool(left()) or bool(right())
    if kind == "not":
        operand = compile_scalar(node[1], env)
        return None if operand is None else (lambda: not operand())
    if kind == "neg":
        operand = compile_scalar(node[1], env)
        return None if operand is None else (lambda: _wrap_int(-operand()))
    if kind == "bin" and node[1] in _SCALAR_OPS:
        fn, left, right = _SCALAR_OPS[node[1]], compile_scalar(node[2], env), compile_scalar(node[3], env)
        if left is None or right is None or (node[1] in "&|^" and not _integer_only(node)):
            return None
        return lambda: fn(left(), right())
    return None


def _integer_only(node) -> bool:
    """Bitwise operators need integers: only registers, pc/steps/labels and integer literals."""
    kind = node[0]
    if kind == "num":
        return isinstance(node[1], int)
    if kind in ("reg", "name"):
        return True
    return all(_integer_only(child) for child in node[1:] if isinstance(child, tuple))


# ---------------------------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------------------------

def float_text(value, np_dtype) -> str:
    """The shortest decimal that reads back as the same value of its own type; integers without '.0'."""
    f = float(value)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    if f == 0:
        return "-0" if math.copysign(1.0, f) < 0 else "0"
    if f.is_integer() and abs(f) < 1e7:
        return str(int(f))
    dtype = np.dtype(np_dtype)
    for digits in range(1, 18):
        text = f"{f:.{digits}g}"
        if float(np.array(float(text)).astype(dtype)) == f:
            return text
    return repr(f)


# Print formats (`p/x`, `x/16xh`), gdb's letters. Each reinterprets the element's own bits: /x of an
# f16 lane shows its 16 bits, /f of a u32 lane reads its bits as an f32.
FORMATS = {"x": "hex", "t": "binary", "d": "signed decimal", "u": "unsigned decimal", "f": "float"}
_FLOAT_OF_WIDTH = {2: np.float16, 4: np.float32, 8: np.float64}


def format_bits(x, fmt: str) -> str:
    """One element in print format `fmt` (a key of FORMATS), from its raw bits."""
    raw = np.asarray(x)
    width = raw.dtype.itemsize
    bits = int(raw.view(f"u{width}"))
    if fmt == "x":
        return f"{bits:#0{2 + 2 * width}x}"
    if fmt == "t":
        return f"{bits:0{8 * width}b}"
    if fmt == "d":
        return str(bits - (1 << 8 * width) if bits >> (8 * width - 1) else bits)
    if fmt == "u":
        return str(bits)
    if width not in _FLOAT_OF_WIDTH:
        raise ExprError(f"/f needs 2-, 4- or 8-byte elements, not {width}-byte ones")
    as_float = np.array(bits, f"u{width}").view(_FLOAT_OF_WIDTH[width])
    return float_text(as_float, _FLOAT_OF_WIDTH[width])


PAIR_TYPES = ("s4x2", "e2m1x2", "e1m2x2")       # two 4-bit values a byte, shown as both


def pair_text(byte: int, etype) -> str:
    """A byte of a 4-bit pair type as its two values, low half first: `1|-2` (s4x2), `0.5|6` (fp4)."""
    from .ref.conversion import nibble_values
    return "|".join(f"{v:g}" for v in nibble_values(np.array([byte & 0xF, byte >> 4]), etype).tolist())


def cell_text(x, etype, kind: str = "value", fmt: str = "") -> str:
    if kind in ("bool", "mask") or isinstance(x, (bool, np.bool_)):
        return "1" if x else "0"
    if fmt:
        return format_bits(x, fmt)
    if etype is not None and etype.name in PAIR_TYPES:
        return pair_text(int(x), etype)
    if etype is not None and etype.kind == "float":
        return float_text(x, etype.np_dtype)
    if isinstance(x, (float, np.floating)):
        return float_text(x, np.float64)
    return str(int(x))


def _single_line(value: Value, fmt: str = "") -> str:
    x = value.data[()]
    if value.kind == "bool":
        text = "true" if x else "false"
    else:
        text = cell_text(x, value.etype, value.kind, fmt)
    etype = value.etype
    if etype is not None and value.kind == "value" and not fmt:
        bits = int(np.asarray(x).astype(etype.np_dtype).view(etype.bits))
        if etype.kind == "float":
            text += f" (bits {bits:#0{2 + 2 * etype.width}x})"
        elif etype.name in PAIR_TYPES or not 0 <= int(x) <= 9:
            text += f" ({bits:#x})"
    if value.active is not None and not value.active:
        text += " (inactive)"
    return f"{value.label} = {text}"


def format_value(value: Value, per_row: int = 16, fmt: str = "") -> list[str]:
    """A value as the user sees it: one line for a single value, rows of lanes with their numbers;
    numbers in print format `fmt` (FORMATS) when given."""
    if not value.is_array:
        return [_single_line(value, fmt)]
    data, n = value.data, value.data.size
    active = value.active
    header = f"{value.label}: "
    if value.kind == "mask":
        header += f"{int(np.count_nonzero(data))} of {n} lanes active"
    else:
        if value.etype is not None:
            header += f"{value.etype.name}, "
        header += f"{n} {value.noun}"
        if value.where is not None and value.where.kind == "ub" and not value.hex_index:
            header += f" at {value.where.number:#x}"
    if active is not None:
        header += f", {int(np.count_nonzero(active))} active (inactive shown as .)"
    lines = [header]
    if n == 0:                      # (u0 with nothing pending)
        return lines
    compact = value.kind in ("mask", "bool")
    row = 64 if compact else per_row if fmt != "t" else max(1, 8 // data.dtype.itemsize)
    cells = []
    for k in range(n):
        if active is not None and not active[k]:
            cells.append(".")
        elif value.kind == "mask":
            cells.append("1" if data[k] else ".")
        else:
            cells.append(cell_text(data[k], value.etype, value.kind, fmt))
    width = max(len(c) for c in cells)
    last = value.first + n - 1
    for start in range(0, n, row):
        number = value.first + start
        label = f"{number:#07x}" if value.hex_index else f"{number:>{len(str(last))}}"
        chunk = cells[start:start + row]
        if compact:
            text = " ".join("".join(chunk[i:i + 8]) for i in range(0, len(chunk), 8))
        else:
            text = " ".join(c.rjust(width) for c in chunk)
        lines.append(f"  [{label}] {text}")
    return lines


def format_memory(ub: np.ndarray, addr: int, count: int, etype=None, per_row: int | None = None,
                  fmt: str = "", space: str = "ub") -> list[str]:
    """`x/N.T ADDR`: N elements of type T from ADDR of `ub` (the UB, or global memory: space "gm") in rows
    with their addresses, in print format `fmt` when given; no type: a hexdump of N bytes."""
    width = etype.width if etype is not None else 1
    end = addr + count * width
    if addr < 0 or end > ub.size:
        whole = "the UB" if space == "ub" else "global memory (its .gm buffers)"
        raise ExprError(f"[{addr:#x}, {end:#x}) is outside {whole} (0x0..{ub.size:#x})")
    prefix = "gm " if space == "gm" else ""          # (GM rows say so: the UB has the same addresses)
    if etype is None:
        lines = []
        for start in range(addr, end, 16):
            chunk = ub[start:min(start + 16, end)]
            hexes = " ".join(f"{b:02x}" for b in chunk)
            if len(chunk) > 8:
                hexes = hexes[:23] + "  " + hexes[24:]
            lines.append(f"{prefix}{start:#07x}:  {hexes}")
        return lines
    values = ub[addr:end].view(etype.np_dtype)
    per_row = per_row or max(1, 16 // width if width < 4 else 8)
    if width == 1:
        per_row = 16
    if fmt == "t":
        per_row = max(1, 8 // width)
    cells = [cell_text(v, etype, fmt=fmt) for v in values]
    cell_width = max(len(c) for c in cells)
    lines = []
    for k in range(0, count, per_row):
        lines.append(f"{prefix}{addr + k * width:#07x}:  " + " ".join(c.rjust(cell_width) for c in cells[k:k + per_row]))
    return lines
