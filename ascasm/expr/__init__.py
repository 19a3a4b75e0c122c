"""The expression language shared by the assembler's constant expressions and the debugger: the tree
(tree.py), the parser of an expression typed on its own (parser.py, tables generated from
grammar/expr.lark), the one evaluator (evaluate.py) and its two domains: exact constants for the
assembler (constant.py) and the machine's values for the debugger (machine.py, with the C++
variables of a translated kernel from cvars.py)."""
