"""The one evaluator of expressions: a walk over a tree of ascasm/expr/tree.py that computes each
node from the values of its parts.

What a value is belongs to a domain, an object with one method per kind of node:

    enter(node)                 called on the way down, before any part is computed: refuses a node
                                the domain has no meaning for (the assembler refuses calls, indexing)
    leaf(token)                 a NAME, NUMBER or STRING token's value
    unary(node, operand)        -x, +x, ~x, not x
    binary(node, left, right)   node.op between the two values
    index(node, target, low, high)      high is None without a `:`
    call(node, argument)        node.function names the function

The assembler's domain (ascasm/expr/constant.py) computes exact numbers, arrays of them for the
element index of an INIT; the debugger's (ascasm/expr/machine.py) computes values of the machine
(lanes, masks, buffer elements) with numpy. The walk is iterative, so a long chain of operators
cannot exhaust Python's recursion limit; a group's value is its inner expression's.
"""
from __future__ import annotations

_DONE = object()        # marks a node whose parts have been computed


def evaluate(root, domain):
    """The value of the expression `root` in `domain`."""
    if root.type in ("NAME", "NUMBER"):
        return domain.leaf(root)
    values = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node is _DONE:
            node = stack.pop()
            count = len(node.parts)
            parts = values[-count:]
            del values[-count:]
            values.append(getattr(domain, node.type)(node, *parts))
        elif node is None:                              # an absent part (a slice without its end)
            values.append(None)
        elif not node.parts:
            values.append(domain.leaf(node))
        elif node.type == "group":
            stack.append(node.inner)
        else:
            domain.enter(node)
            stack += (node, _DONE)
            stack.extend(reversed(node.parts))
    return values[0]
