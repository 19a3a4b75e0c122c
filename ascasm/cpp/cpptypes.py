"""The C++ types the translator understands, as ascasm sees them: integer and float scalars (an
ascasm element type each), `__ubuf__` pointers, the register types of the Reg API, and the
compile-time-only enums and trait structs. Spellings are resolved here, so that a template's
dependent types (`RegTensor<T>`, `__ubuf__ T*`) are read with the template's arguments bound."""
from __future__ import annotations

import re

from dataclasses import dataclass

from ..isa import dtypes


@dataclass(frozen=True)
class CType:
    kind: str           # "int", "float", "bool", "ptr", "vec", "mask", "addr", "ustore", "uload", "unalign",
    #                     "enum", "struct", "void"
    etype: str = ""     # the ascasm element type: of the scalar, the pointee, the vector's lanes
    name: str = ""      # an enum's or struct's name; "void" for an untyped pointer

    @property
    def width(self) -> int:
        """Bytes of the scalar or element (sizeof)."""
        if self.kind == "bool":
            return 1
        if self.kind == "ptr":
            return 8
        return dtypes.BY_SPELLING[self.etype].width

    @property
    def signed(self) -> bool:
        return self.kind == "int" and self.etype.startswith("s")

    @property
    def is_scalar(self) -> bool:
        return self.kind in ("int", "float", "bool")

    def __str__(self) -> str:
        if self.kind in ("int", "float"):
            return C_NAME.get(self.etype, self.etype)
        if self.kind == "ptr":
            return f"__ubuf__ {self.name or C_NAME.get(self.etype, self.etype)}*"
        if self.kind == "vec":
            return f"RegTensor<{C_NAME.get(self.etype, self.etype)}>"
        return {"mask": "MaskReg", "addr": "AddrReg", "ustore": "UnalignRegForStore", "uload": "UnalignRegForLoad",
                "unalign": "UnalignReg",
                "bool": "bool", "void": "void"}.get(self.kind, self.name or self.kind)


def scalar(etype: str) -> CType:
    return CType("float" if dtypes.BY_SPELLING[etype].kind == "float" else "int", etype)


BOOL = CType("bool", "u8")
VOID = CType("void")
UNTYPED = CType("ptr", "u8", "void")     # __ubuf__ void*
S32, U32, S64, U64 = (CType("int", n) for n in ("s32", "u32", "s64", "u64"))

# C/C++ and Ascend C spellings of the scalar types -> ascasm element types
SCALAR_NAMES = {
    "signed char": "s8", "char": "s8", "int8_t": "s8", "unsigned char": "u8", "uint8_t": "u8",
    "short": "s16", "short int": "s16", "int16_t": "s16", "unsigned short": "u16", "unsigned short int": "u16",
    "uint16_t": "u16", "int": "s32", "signed": "s32", "signed int": "s32", "int32_t": "s32",
    "unsigned": "u32", "unsigned int": "u32", "uint32_t": "u32",
    "long": "s64", "long int": "s64", "long long": "s64", "long long int": "s64", "int64_t": "s64",
    "ptrdiff_t": "s64", "ssize_t": "s64",
    "unsigned long": "u64", "unsigned long int": "u64", "unsigned long long": "u64", "unsigned long long int": "u64",
    "uint64_t": "u64", "size_t": "u64", "uintptr_t": "u64",
    "float": "f32", "half": "f16", "__fp16": "f16", "_Float16": "f16", "bfloat16_t": "bf16", "__bf16": "bf16",
    "float8_e4m3_t": "e4m3", "fp8_e4m3fn_t": "e4m3", "float8_e5m2_t": "e5m2", "fp8_e5m2_t": "e5m2",
    "fp8_e8m0_t": "e8m0", "float8_e8m0_t": "e8m0", "hifloat8_t": "hif8",
    "fp4x2_e2m1_t": "e2m1x2", "fp4x2_e1m2_t": "e1m2x2", "int4x2_t": "s4x2", "int4b_t": "s4x2",
}
C_NAME = {"s8": "int8_t", "u8": "uint8_t", "s16": "int16_t", "u16": "uint16_t", "s32": "int32_t",
          "u32": "uint32_t", "s64": "int64_t", "u64": "uint64_t", "f32": "float", "f16": "half",
          "bf16": "bfloat16_t", "e4m3": "fp8_e4m3fn_t", "e5m2": "fp8_e5m2_t", "e8m0": "fp8_e8m0_t",
          "hif8": "hifloat8_t"}
REGISTER_TYPES = {"MaskReg": "mask", "AddrReg": "addr", "UnalignRegForStore": "ustore", "UnalignReg": "unalign",
                  "UnalignRegForLoad": "uload"}
_QUALIFIERS = ("const ", "volatile ", "struct ", "class ", "enum ", "typename ", "__ubuf__ ", "constexpr ",
               "static ", "inline ")


_MEMBER_OF_TEMPLATE = re.compile(r"^(.*>)\s*::\s*([A-Za-z_]\w*)$")


def split_template_args(text: str) -> list[str]:
    """`a, B<c, d>, e` -> ["a", "B<c, d>", "e"] (top-level commas only). A comparison is not a bracket:
    `<=`, `>=` and a `<`/`>` with a space on each side (as clang spells `sizeof(T) <= 2` and `a < b`)."""
    args, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "<>" and _is_comparison(text, i):
            continue
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
    if text.strip():
        args.append(text[start:].strip())
    return args


def _is_comparison(text: str, i: int) -> bool:
    after = text[i + 1:i + 2]
    before = text[i - 1:i] if i else ""
    return after == "=" or (before == " " and after == " ")


def strip_qualifiers(text: str) -> str:
    text = text.strip()
    changed = True
    while changed:
        changed = False
        for q in _QUALIFIERS:
            if text.startswith(q):
                text, changed = text[len(q):].strip(), True
        for q in (" const", "&", " volatile"):
            if text.endswith(q):
                text, changed = text[: -len(q)].strip(), True
    return text


def parse_spelling(text: str, lookup) -> CType | None:
    """The CType a type spelling names, or None. `lookup(name, args, member=None)` resolves a name the
    table does not know (a template parameter, a typedef, a member type of a template's
    specialisation), returning a CType or None."""
    text = strip_qualifiers(text)
    member = _MEMBER_OF_TEMPLATE.match(text)     # Trait<args>::name: a member type the arguments choose
    if member:
        text = member.group(1)
    elif text.endswith("::type"):
        text = text[: -len("::type")]
    if text.endswith("*"):
        pointee = parse_spelling(text[:-1], lookup)
        if pointee == VOID:     # an untyped UB address: counted in bytes, as GNU C's void* arithmetic
            return UNTYPED
        return CType("ptr", pointee.etype) if pointee is not None and pointee.is_scalar else None
    if text in SCALAR_NAMES:
        return scalar(SCALAR_NAMES[text])
    if text == "bool":
        return BOOL
    if text == "void":
        return VOID
    args = []
    if text.endswith(">") and "<" in text:
        cut = text.index("<")
        base, args = text[:cut], split_template_args(text[cut + 1:-1])
    else:
        base = text
    name = base.split("::")[-1].strip()
    if member:
        return lookup(name, args, member.group(2))
    if name in ("RegTensor",) and args:
        if len(args) > 1 and args[1].split("::")[-1].strip() == "RegTraitNumTwo":
            return None         # a register pair: not translated (docs/semantics.md "64-bit lanes")
        lanes = parse_spelling(args[0], lookup)
        return CType("vec", lanes.etype) if lanes is not None and lanes.is_scalar else None
    if name in REGISTER_TYPES:
        return CType(REGISTER_TYPES[name])
    if name in SCALAR_NAMES and not args:
        return scalar(SCALAR_NAMES[name])
    return lookup(name, args)
