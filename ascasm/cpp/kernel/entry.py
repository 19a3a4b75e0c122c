"""Finding a whole kernel's entry: the `__global__` function `--entry` names."""
from __future__ import annotations

import re

from ..cpptypes import split_template_args


def is_global_entry(function) -> bool:
    return any(ch.kind.name == "ANNOTATE_ATTR" and ch.spelling == "global" for ch in function.get_children())


def find_entry(index, entry: str | None):
    """(the `__global__` function `entry` names, its template arguments), or None: a whole kernel."""
    m = re.fullmatch(r"\s*([\w:]+)\s*(?:<(.*)>)?\s*", entry or "")
    if m is None:
        return None
    name = m.group(1).split("::")[-1]
    for function in index.functions:
        if function.spelling == name and is_global_entry(function) and \
                function.kind.name in ("FUNCTION_DECL", "FUNCTION_TEMPLATE"):
            return function, split_template_args(m.group(2)) if m.group(2) else []
    return None
