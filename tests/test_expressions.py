"""The one expression language: the assembler's constant expressions and the debugger's expressions
are parsed into the same tree, ordered by one precedence table (Python's), and computed by one
evaluator in two domains (exact constants; machine values). Expected values come from Python's own
arithmetic on the same text, which has the precedence the language documents."""
import re
from importlib import resources

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from lark import Lark

from ascasm import assemble
from ascasm.asm.parser import parse_source
from ascasm.expr import constant, evaluate, machine
from ascasm.expr.parser import parse
from ascasm.expr.tree import ExprError, Token

SETTINGS = settings(max_examples=150, deadline=None, database=None)


def grammar(name: str) -> str:
    return resources.files("ascasm.grammar").joinpath(name).read_text()


def test_expression_grammar_is_conflict_free_under_strict_mode():
    Lark(grammar("expr.lark"), parser="lalr", strict=True)


def test_both_grammars_spell_numbers_alike():
    number = re.compile(r"^NUMBER: (.*)$", re.MULTILINE)
    assert number.findall(grammar("expr.lark")) == number.findall(grammar("ascasm.lark"))


# Integer expressions of the part both languages share: literals, parentheses, unary minus and the
# binary operators of constant expressions. Shift counts and divisors are literals that keep every
# operation defined.
leaves = st.integers(0, 1000).map(str)


def combine(children):
    arithmetic = st.tuples(children, st.sampled_from(["+", "-", "*", "&", "|", "^"]), children).map(" ".join)
    shifts = st.tuples(children, st.sampled_from(["<<", ">>"]), st.integers(0, 8).map(str)).map(" ".join)
    divisions = st.tuples(children, st.sampled_from(["//", "%"]), st.integers(1, 9).map(str)).map(" ".join)
    return st.one_of(arithmetic, shifts, divisions, children.map("({})".format), children.map("-{}".format))


expressions = st.recursive(leaves, combine, max_leaves=8)


def python_value(text: str):
    """Python's value of the text, or the exception it raises (a negative shift count, a division by zero)."""
    try:
        return eval(text)       # (digits and operators only)
    except (ValueError, ZeroDivisionError) as exc:
        return exc


def exact_value(tree, domain=None):
    """The constant evaluator's value, or the ExprError it raises; values beyond MAX_INT_BITS are out
    of this test's scope."""
    try:
        return evaluate.evaluate(tree, domain or constant.Constants(no_names))
    except ExprError as exc:
        assume("wider than" not in str(exc))
        return exc


def assembler_tree(text: str):
    parsed = parse_source(f".equ x {text}\n", "t.s")
    assert not parsed.errors, parsed.errors
    return parsed.lines[0].statement.value


def shape(node):
    """The tree as nested tuples, parentheses left out (both parsers keep them as a group)."""
    if node.type == "group":
        return shape(node.inner)
    if isinstance(node, Token):
        return node.value
    return (node.type, getattr(node, "op", None), *(shape(part) for part in node.parts))


def no_names(token):
    raise ExprError(f"unknown name {token.value}", token)


@SETTINGS
@given(expressions)
def test_both_parsers_build_the_same_tree_and_compute_what_python_computes(text):
    tree = assembler_tree(text)
    assert shape(tree) == shape(parse(text))
    expected, value = python_value(text), exact_value(tree)
    if isinstance(expected, Exception):
        assert isinstance(value, ExprError)
    else:
        assert value == expected


@SETTINGS
@given(expressions)
def test_the_debugger_computes_what_the_assembler_computes_within_64_bits(text):
    class Widest(constant.Constants):
        """Exact constants, remembering the widest value met."""
        widest = 0

        def binary(self, node, left, right):
            result = super().binary(node, left, right)
            self.widest = max(self.widest, abs(result))
            return result

    exact = Widest(no_names)
    expected = exact_value(parse(text), exact)
    if not isinstance(expected, ExprError) and exact.widest < 1 << 62:          # (the debugger computes in 64 bits, as lanes do)
        program = assemble("halt\n", "t.s")
        value = machine.evaluate_text(text, machine.Env(program, program.initial_state()))
        assert int(value.data) == expected


@pytest.mark.parametrize("text, expected", [
    ("4 | 1 & 2", 4),             # & binds more tightly than |: the debugger once read (4 | 1) & 2
    ("1 | 6 & 4", 5),
    ("6 ^ 3 | 8", 13),
    ("1 | 2 ^ 3", 1 | 2 ^ 3),
    ("1 << 2 + 1", 8),
    ("-2 * 3 + 10 // 4", -4),
])
def test_operators_have_pythons_precedence_in_both(text, expected):
    assert constant.evaluate(assembler_tree(text), no_names) == expected
    program = assemble("halt\n", "t.s")
    assert int(machine.evaluate_text(text, machine.Env(program, program.initial_state())).data) == expected


@pytest.mark.parametrize("text, tree", [
    ("not a == b and c", ("binary", "and", ("unary", "not", ("binary", "==", "a", "b")), "c")),
    ("a && !b || c", ("binary", "or", ("binary", "and", "a", ("unary", "not", "b")), "c")),
    ("-x[1:2]", ("unary", "-", ("index", None, "x", "1", "2"))),
    ("any(v0.u16 > 3)", ("call", None, ("binary", ">", "v0.u16", "3"))),
])
def test_logic_indexing_and_calls_parse_as_in_python(text, tree):
    assert shape(parse(text)) == tree


@pytest.mark.parametrize("text, message", [
    ("1 < 2 < 3", "chained comparisons are not supported"),
    ("a == not b", "unexpected 'not'"),
    ("(1", "the expression ends too early"),
    ("1 2", "unexpected '2' after a complete expression"),
    ("0x_", "malformed number '0x_'"),
    ("1 # 2", "unexpected character '#'"),
    ("   ", "empty expression"),
])
def test_malformed_expressions_are_one_line_errors(text, message):
    with pytest.raises(ExprError, match=re.escape(message)):
        parse(text)


@pytest.mark.parametrize("text, message", [
    ('file("a.npy") + 1', "'file(...)' is not allowed here"),
    ("[1]", "an address [...] is not allowed in an expression"),
])
def test_constant_expressions_refuse_what_only_the_debugger_has(text, message):
    parsed = parse_source(f"    mov s0, {text}\n    halt\n", "t.s")
    operand = parsed.lines[0].statement.operands[1]
    with pytest.raises(ExprError, match=re.escape(message)):
        constant.evaluate(operand, no_names)


def test_the_walk_is_not_recursive():
    """A chain longer than Python's recursion limit evaluates (the assembler allows long lines)."""
    text = " + ".join(["1"] * 5000)
    assert constant.evaluate(assembler_tree(text), no_names) == 5000


def test_a_domain_sees_every_node_once_parts_first():
    class Recorder:
        def __init__(self):
            self.seen = []

        def enter(self, node):
            self.seen.append(("enter", node.type))

        def leaf(self, token):
            self.seen.append(token.value)
            return int(token.value)

        def unary(self, node, operand):
            self.seen.append(node.op)
            return -operand

        def binary(self, node, left, right):
            self.seen.append(node.op)
            return left * right

    recorder = Recorder()
    assert evaluate.evaluate(parse("2 * (-3)"), recorder) == -6
    assert recorder.seen == [("enter", "binary"), "2", ("enter", "unary"), "3", "-", "*"]
