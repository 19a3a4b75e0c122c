"""A whole kernel's tiling: the values of its tiling struct's fields, given by name (`--tiling FILE.json`
or `--tiling FIELD=VALUE,...`), laid out with the struct's C++ layout as libclang gives it (each field's
offset, nested structs and arrays) into the bytes of the kernel's tiling buffer.

GET_TILING_DATA / GET_TILING_DATA_WITH_STRUCT read the struct: the translator takes the fields as
constants (a kernel's tiling is fixed for a launch), so loops over tiles have known bounds and
TILING_KEY_IS (--tiling-key) selects its branch at translation time."""
from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np

from ..isa import dtypes
from ..limits import shown
from .clang import CppError, error_at
from .values import Const

_FLAT = re.compile(r"^\s*([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*=\s*(\S+)\s*$")


class TilingError(ValueError):
    """A --tiling option that cannot be read (the command line's usage error)."""


def parse_option(text: str, base: Path = Path(".")) -> dict:
    """`FILE.json` (an object: fields by name, nested structs as objects, arrays as lists) or
    `FIELD=VALUE,...` (a nested field as `outer.inner=VALUE`) -> {field: value}."""
    if text.endswith(".json"):
        try:
            values = json.loads((base / text).read_text())
        except OSError as exc:
            raise TilingError(f"--tiling {shown(text)}: cannot read it ({exc.strerror})") from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise TilingError(f"--tiling {shown(text)}: not JSON ({exc})") from None
        if not isinstance(values, dict):
            raise TilingError(f"--tiling {shown(text)}: the file must hold one object, fields by name")
        return values
    values: dict = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        m = _FLAT.match(item)
        if not m:
            raise TilingError(f"--tiling {shown(item)}: write FIELD=VALUE,... or FILE.json")
        *outer, name = m.group(1).split(".")
        target = values
        for part in outer:
            target = target.setdefault(part, {})
            if not isinstance(target, dict):
                raise TilingError(f"--tiling: {m.group(1)} names a member of a field that is not a struct")
        try:
            target[name] = json.loads(m.group(2))
        except ValueError:
            raise TilingError(f"--tiling {shown(item)}: the value is not a number") from None
    return values


def tiling_value(lowering, c, callee, args):
    """`__ascasm_tiling<T>(tiling)`, which GET_TILING_DATA... expands to: T's fields from the given
    values, as a constant struct; the bytes of T's layout are recorded for the tiling buffer."""
    struct_type = c.type.get_canonical()
    decl = struct_type.get_declaration()
    if decl is None or decl.kind.name not in ("STRUCT_DECL", "CLASS_DECL"):
        raise error_at(c, f"the tiling type {c.type.spelling} is not a struct this file defines")
    if lowering.tiling is None:
        raise error_at(c, f"this kernel reads its tiling ({decl.spelling}: {_field_list(decl)}): give the values "
                          "with --tiling FILE.json or --tiling FIELD=VALUE,...")
    raw = bytearray(max(0, struct_type.get_size()))
    value = _struct(lowering, c, struct_type, lowering.tiling, raw, 0, decl.spelling)
    param = _param_name(args[0]) if args else None
    if param is not None:
        lowering.tiling_bytes = (param, bytes(raw))
    return value


def _struct(lowering, c, struct_type, given, raw, base, path):
    decl = struct_type.get_declaration()
    if not isinstance(given, dict):
        raise error_at(c, f"tiling {path}: a struct ({decl.spelling}) takes an object of fields")
    fields = [f for f in decl.get_children() if f.kind.name == "FIELD_DECL"]
    names = {f.spelling for f in fields}
    unknown = [k for k in given if k not in names]
    if unknown:
        raise error_at(c, f"tiling field '{path}.{unknown[0]}' is not a member of {decl.spelling} "
                          f"(its fields: {_field_list(decl)})")
    members = {}
    for f in fields:
        if f.spelling not in given:
            raise error_at(c, f"the tiling gives no value for '{path}.{f.spelling}' ({decl.spelling}'s fields: "
                              f"{_field_list(decl)})")
        offset = base + struct_type.get_offset(f.spelling) // 8
        members[f.spelling] = _value(lowering, c, f.type.get_canonical(), given[f.spelling], raw, offset,
                                     f"{path}.{f.spelling}", f)
    return Const(members, lowering.resolve_type(struct_type, c))


def _value(lowering, c, ftype, given, raw, offset, path, cursor):
    try:
        kind = ftype.kind.name
    except ValueError:              # libclang 18 has no TypeKind for _Float16 (half): a scalar
        kind = "SCALAR"
    if kind == "RECORD":
        return _struct(lowering, c, ftype, given, raw, offset, path)
    if kind == "CONSTANTARRAY":
        count, element = ftype.element_count, ftype.element_type.get_canonical()
        if not isinstance(given, list) or len(given) != count:
            raise error_at(c, f"tiling {path}: an array of {count} takes a list of {count} values")
        size = element.get_size()
        return Const([_value(lowering, c, element, item, raw, offset + k * size, f"{path}[{k}]", cursor)
                      for k, item in enumerate(given)], None)
    ctype = lowering.resolve_type(ftype, cursor)
    etype = dtypes.lookup(ctype.etype) if ctype.is_scalar else None
    if etype is None:
        raise error_at(c, f"tiling {path}: fields of type {ftype.spelling} are not supported")
    if isinstance(given, bool) or not isinstance(given, (int, float)) or \
            (etype.kind != "float" and not float(given).is_integer()):
        raise error_at(c, f"tiling {path} ({ftype.spelling}) takes a number, not {shown(repr(given))}")
    number = given if etype.kind == "float" else int(given)
    if etype.kind != "float":
        bits = 8 * etype.width
        low, high = (-(1 << (bits - 1)), 1 << (bits - 1)) if etype.kind == "int" else (0, 1 << bits)
        if not low <= number < high:
            raise error_at(c, f"tiling {path} = {number} is outside {ftype.spelling}'s range {low}..{high - 1}")
    data = np.array([number]).astype(etype.np_dtype).tobytes()
    raw[offset:offset + len(data)] = data
    return lowering.convert(Const(number, ctype), ctype)


def _field_list(decl) -> str:
    return ", ".join(f"{f.spelling} ({f.type.spelling})" for f in decl.get_children()
                     if f.kind.name == "FIELD_DECL") or "none"


def _param_name(arg):
    for ch in arg.walk_preorder():
        if ch.kind.name == "DECL_REF_EXPR" and ch.referenced is not None and ch.referenced.kind.name == "PARM_DECL":
            return ch.spelling
    return None


__all__ = ["parse_option", "tiling_value", "TilingError", "CppError"]
