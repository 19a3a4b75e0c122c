"""One instruction checked against the ISA table without source text: the C++ front end builds each
instruction it emits from typed operands (ascasm/cpp/ir.py) and checks it here, with the assembler's
own rules (the row whose operand count and kinds fit, the types the row accepts, immediates in range,
keywords), so that a mapping error is reported at the C++ call that made it.

The operands are the parser's nodes, made by the functions below: register("v3.f32"),
number("-1.5"), word("ALL") (a keyword or a label), address(register("s1"), register("a0"))."""
from __future__ import annotations

from ..expr.tree import Binary, ExprError, Token, Unary
from .assembler import _Assembler, _Failed, _Skipped
from .statements import Address, Instruction


class RowError(Exception):
    """No row takes the instruction as given: the assembler's message and notes."""

    def __init__(self, message: str, notes=()):
        super().__init__(message)
        self.message, self.notes = message, list(notes)


def register(name: str) -> Token:
    return Token("NAME", name, 1, 1)


def word(text: str) -> Token:
    return Token("NAME", text, 1, 1)


def number(text: str):
    """An immediate as the assembler reads it: a number, inf or nan, possibly negated."""
    negative = text.startswith("-")
    digits = text[1:] if negative else text
    token = Token("NUMBER" if digits[:1].isdigit() else "NAME", digits, 1, 1)
    return Unary(Token("SIGN", "-", 1, 1), token) if negative else token


def address(base: Token, offset: Token | None = None) -> Address:
    expr = base if offset is None else Binary("+", base, offset)
    return Address(Token("LSQB", "[", 1, 1), expr, Token("RSQB", "]", 1, 1))


class _AnyLabel(dict):
    """Every label is known: a branch's target is placed later (the program's assembly checks it)."""

    def __contains__(self, name) -> bool:
        return True

    def __getitem__(self, name) -> int:
        return 0


class _RowChecker(_Assembler):
    def __init__(self):
        super().__init__("", "<instruction>", 0)
        self.labels = _AnyLabel()

    def check_loop_operands(self, spec, operands, nodes, mnemonic_token):
        if spec.family != "iter_loops":          # vag's enclosing loops are the program's structure
            super().check_loop_operands(spec, operands, nodes, mnemonic_token)

    def check(self, mnemonic: str, operands: list):
        self.branches.clear()
        try:
            self.instruction(Instruction(Token("NAME", mnemonic, 1, 1), tuple(operands)))
        except _Failed as failure:
            raise RowError(failure.error.message, failure.error.notes) from None
        except ExprError as exc:
            raise RowError(str(exc)) from None
        except _Skipped:                         # (a name of a failed declaration: none here)
            raise RowError(f"'{mnemonic}': an operand names nothing") from None


_CHECKER = None


def check(mnemonic: str, operands: list):
    """Raise RowError unless a row of `mnemonic` takes `operands` (nodes made by this module)."""
    global _CHECKER
    if _CHECKER is None:
        _CHECKER = _RowChecker()
    _CHECKER.check(mnemonic, operands)
