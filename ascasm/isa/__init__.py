"""The ISA table and element types: the single source every other part derives from."""
from .dtypes import TYPES, ElemType, lookup
from .operands import Kind, OperandSpec
from .table import (BARRIER_KINDS, BY_MNEMONIC, BY_OPCODE, DIRECTIVES, INSNS, OPCODES, PATTERNS, ROW_HEADER,
                    ROW_WIDTH, STOP_CODES, InsnSpec, accepted_types_text, opcode,
                    types_source_text)

__all__ = ["TYPES", "ElemType", "lookup", "Kind", "OperandSpec", "BARRIER_KINDS", "BY_MNEMONIC", "BY_OPCODE",
           "DIRECTIVES", "INSNS", "OPCODES", "PATTERNS", "ROW_HEADER", "ROW_WIDTH", "STOP_CODES", "InsnSpec",
           "accepted_types_text", "opcode", "types_source_text"]
