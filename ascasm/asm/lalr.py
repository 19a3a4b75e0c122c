"""The LALR loop over tables that tools/gen_parser.py made with Lark (grammar/*.lark): shift a
token, or reduce a rule, which calls the builder's method for it, after doing to its children what
Lark's tree builder would (see tools/gen_parser.py). Both parsers run it: the assembler's
(ascasm/asm/parser.py) and the debugger's expressions' (ascasm/expr/parser.py)."""
from __future__ import annotations


class UnexpectedToken(Exception):
    """`token` cannot come here; `expected` are the terminals that could."""

    def __init__(self, token, expected: set[str]):
        super().__init__(token.type)
        self.token, self.expected = token, expected


def parse(tokens, states: list, reductions: list, end_state: int):
    """Run the tables over `tokens` (an iterable ending with the token $END) until the end state;
    the value of the rule reduced last."""
    stack, values = [0], []
    for token in tokens:
        kind = token.type
        while True:
            action = states[stack[-1]].get(kind)
            if action is None:
                raise UnexpectedToken(token, {name for name in states[stack[-1]] if name.isupper()})
            if action >= 0:
                stack.append(action)
                values.append(token)
                break
            name, length, reduce = reductions[-1 - action]
            if length:
                children = values[-length:]
                del values[-length:], stack[-length:]
            else:
                children = []
            values.append(reduce(children))
            stack.append(states[stack[-1]][name])
            if stack[-1] == end_state:
                return values[-1]


def reductions(builder, rules) -> list:
    """(rule name, length, what reducing it does) for each of the tables' RULES."""
    return [(name, length, _reduction(builder, method, expand1, children))
            for name, length, method, expand1, children in rules]


def _reduction(builder, method: str | None, expand1: bool, children):
    """What reducing a rule does with its children: a `?rule` with one child is that child; a helper
    rule (no method) hands its children to the rule that holds it, which splices them in."""
    if expand1:                 # (always one child, no placeholders: tools/gen_parser.py checks)
        return _only_child
    call = getattr(builder, method) if method else list
    if children is None:
        return call
    plan, nones_after = children
    # a helper rule that starts with the list of its own left recursion (`a + b + c ...`) extends that
    # list in place: copying it at every step made a long line quadratic. No one else holds it.
    grows = call is list and bool(plan) and plan[0] == (0, True, 0)
    steps = plan[1:] if grows else plan

    def filtered(values):
        kept = values[0] if grows else []
        for index, splice, nones in steps:
            kept += [None] * nones
            if splice:
                kept += values[index]
            else:
                kept.append(values[index])
        kept += [None] * nones_after
        return kept if grows else call(kept)
    return filtered


def _only_child(values):
    return values[0]
