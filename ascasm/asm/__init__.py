"""Assembler: Lark parse, two passes, bytecode."""
