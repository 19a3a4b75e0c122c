"""Running a translated vector function in the tests: buffers for its pointer parameters, a prologue
that puts each parameter in its s register, then the translation's lines (the harness of the `run`
command does the same for users; this stays independent of it)."""
from __future__ import annotations

import numpy as np

import ascasm
from ascasm.isa import dtypes



def program_text(t, buffers: dict, scalars: dict, prologue: str = "") -> str:
    """buffers: {param: ndarray (its contents) }; scalars: {param: number}; prologue: assembly run first
    (what host code does before the call, e.g. `sprset.mask` for SetVectorMask)."""
    out = []
    for p in t.params:
        if p.kind == "pointer":
            out.append(f".ub {p.name} {p.etype}[{buffers[p.name].size}]")
    out += ["        " + line.strip() for line in prologue.splitlines() if line.strip()]
    for p in t.params:
        if p.kind == "pointer":
            out.append(f"        mov s{p.sreg}, {p.name}")
        else:
            value = scalars[p.name]
            etype = dtypes.BY_SPELLING[p.etype]
            if etype.kind == "float":
                bits = int(np.array(value, etype.np_dtype).view(etype.bits))
                out.append(f"        mov s{p.sreg}, {bits}")
            else:
                out.append(f"        mov s{p.sreg}, {int(value)}")
    out += [line.text if line.text.endswith(":") else "        " + line.text for line in t.lines]
    return "\n".join(out) + "\n"


def run(t, engine="ref", prologue="", **args):
    buffers = {k: v for k, v in args.items() if isinstance(v, np.ndarray)}
    scalars = {k: v for k, v in args.items() if not isinstance(v, np.ndarray)}
    program = ascasm.assemble(program_text(t, buffers, scalars, prologue), filename="<translation>")
    return ascasm.run(program, inputs=buffers, engine=engine)
