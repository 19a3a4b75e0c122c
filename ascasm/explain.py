"""What `ascasm explain` and the debugger's `help MNEMONIC` print: the ISA table's rows for one
mnemonic, the mask patterns where an instruction takes one, a key to the kinds of source the rows
cite, and the list of every instruction by group."""
from __future__ import annotations

from .isa import BY_MNEMONIC, INSNS, PATTERNS, Kind
from .isa.table import BY_CAPI, describe

# The instruction groups of listings and the cheat sheet, by the family prefix of a row.
GROUPS = (("scalar and control", ("scalar", "branch", "cond_branch", "membar", "halt", "loop", "endloop")),
          ("loads", ("vld", "mask_load", "vgat")),
          ("stores", ("vst", "mask_store", "vsct")),
          ("masks and address registers", ("mask_", "iter", "pcnt")),
          ("reductions", ("reduce", "vpairsum")),
          ("vector compute", ("",)))

# CreateMask patterns (docs/language.md §7): which elements of the mask's width each selects.
PATTERN_MEANINGS = {
    "ALL": "every element", "VL1": "element 0 only", "ALLF": "no element",
    "M3": "the elements whose index is a multiple of 3", "M4": "the elements whose index is a multiple of 4",
    "H": "the lowest half of the elements", "Q": "the lowest quarter of the elements",
}

# The kinds of source a row cites, spelled out.
SOURCE_KEY = {
    "asc_": '"asc_NAME": the public Ascend C API reference page of the register-level function asc_NAME '
            "(Huawei's asc-devkit documentation, SIMD-API); `ascasm explain asc_NAME` finds the instructions that "
            "implement it",
    "Reg::": '"Reg::NAME": the public Ascend C Reg-layer (C++) reference page of NAME (the same documentation), '
             "and the algorithm or table of it the row follows",
    "appendix": '"the ... appendix": an appendix table of the same API reference (precision, boundary values, '
                "merging modes)",
    "docs/": '"docs/language.md", "docs/semantics.md": ascasm\'s own documentation (in its source repository), '
             "which describes the language and decides what the pages leave open; docs/isa.md lists every "
             "instruction",
}


def group_of(spec) -> str:
    return next(name for name, prefixes in GROUPS if spec.family.startswith(prefixes))


def pattern_meaning(name: str) -> str:
    if name in PATTERN_MEANINGS:
        return PATTERN_MEANINGS[name]
    n = int(name[2:])                                  # VLn
    return f"the lowest {n} elements (all of them when the width has fewer)"


def mnemonics_of(name: str) -> list[str]:
    """The mnemonics `ascasm explain NAME` shows: NAME itself, or those implementing the C-API function
    NAME (asc_and -> vand); none when NAME is neither."""
    name = name.lower()
    return [name] if name in BY_MNEMONIC else BY_CAPI.get(name, [])


def explain_lines(name: str) -> list[str]:
    """Every form of a mnemonic (or of the mnemonics implementing C-API function `name`) from the
    table, its patterns, and the key to its sources."""
    mnemonics = mnemonics_of(name)
    if mnemonics != [name.lower()]:
        return [f"{name}: implemented by {', '.join(mnemonics)}", ""] + \
            [line for mnemonic in mnemonics for line in explain_lines(mnemonic) + [""]][:-1]
    mnemonic = mnemonics[0]
    specs = BY_MNEMONIC[mnemonic]
    lines = describe(mnemonic)
    if any(op.kind is Kind.PAT for spec in specs for op in spec.operands):
        lines.append("patterns (PAT), for the elements of width W:")
        lines += [f"  {name:<5} {pattern_meaning(name)}" for name in PATTERNS]
    cited = [key for key in SOURCE_KEY if any(key in spec.ref for spec in specs)]
    if cited:
        lines.append("sources:")
        lines += [f"  {SOURCE_KEY[key]}" for key in cited]
    return lines


def instruction_list() -> list[str]:
    """`ascasm explain` without a mnemonic: every instruction form by group, with its summary's first
    clause."""
    width = max(len(spec.text) for spec in INSNS)
    lines = [f"{len(BY_MNEMONIC)} instructions ({len(INSNS)} forms); `ascasm explain MNEMONIC` for one, "
             "docs/isa.md for all of them"]
    for group, _prefixes in GROUPS:
        specs = [spec for spec in INSNS if group_of(spec) == group]
        lines += ["", f"{group}:"]
        lines += [f"  {spec.text:<{width}}  {first_clause(spec.summary)}" for spec in specs]
    return lines


def first_clause(summary: str, limit: int = 72) -> str:
    """The summary up to its first ';' or '. ' (and at most `limit` characters)."""
    text = summary.split("; ")[0].split(". ")[0]
    return text if len(text) <= limit else text[:limit - 3].rstrip() + "..."
