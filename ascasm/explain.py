"""What `ascasm explain` and the debugger's `help MNEMONIC` print: the ISA table's rows for one
mnemonic, the mask patterns where an instruction takes one, a key to the sources the rows cite (files
that do not ship with ascasm), and the list of every instruction by group."""
from __future__ import annotations

import re
from dataclasses import replace

from .isa import BY_MNEMONIC, INSNS, PATTERNS, Kind
from .isa.table import BY_CAPI, CONVERSIONS, describe, spec_facts

# The instruction groups of listings and the cheat sheet, by the family prefix of a row.
GROUPS = (("scalar and control", ("scalar", "branch", "cond_branch", "membar", "halt", "loop", "endloop")),
          ("loads", ("vld", "mask_load", "vgat")),
          ("stores", ("vsta", "mask_store", "vsct")),
          ("masks and address registers", ("mask_", "iter", "pcnt")),
          ("reductions", ("reduce",)),
          ("vector compute", ("",)))

# CreateMask patterns (LANGUAGE.md §4 Setup): which elements of the mask's width each selects.
PATTERN_MEANINGS = {
    "ALL": "every element", "VL1": "element 0 only", "ALLF": "no element",
    "M3": "the elements whose index is a multiple of 3", "M4": "the elements whose index is a multiple of 4",
    "H": "the lowest half of the elements", "Q": "the lowest quarter of the elements",
}

# The abbreviations rows use in `source:`, spelled out.
SOURCE_KEY = {
    "seed": '"seed NNN NAME": the Ascend C API reference page NAME (Huawei\'s public asc-devkit '
            "documentation, docs/zh/api/SIMD-API), one of the pages ascasm was built and checked against",
    "facts": '"facts §N": section N of ascasm\'s research notes on the Ascend 950 vector ISA '
             "(ascend-vf-facts.md, compiled from the asc-devkit documentation and library source; kept with "
             "the project's specification, not installed)",
    "c-api-reg": '"c-api-reg/DIR/asc_NAME.md": the public Ascend C API reference page of the register-level '
                 "function asc_NAME (Huawei's asc-devkit documentation, SIMD-API); `ascasm explain asc_NAME` "
                 "finds the instructions that implement it",
    "reg-api": '"reg-api NAME ALGO": the public Ascend C Reg-layer (C++) reference page NAME, and the algorithm '
               "(template mode) of it that the row implements (Huawei's asc-devkit documentation, SIMD-API)",
    "appendix": '"appendix NAME": an appendix table of the Ascend C API reference (precision, boundary values)',
    "LANGUAGE.md": '"LANGUAGE.md §N": the ascasm language specification, kept with the project; what it '
                   "leaves open is decided in docs/semantics.md, and docs/isa.md lists every instruction",
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
    pairs = page_pairs(name)
    if pairs:
        return _page_lines(name, mnemonics, pairs)
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


def page_pairs(name: str) -> list[tuple]:
    """The (destination, source) type names of the conversions whose page is C-API function `name`
    (asc_float2half: f16 <- f32); none for a function that is not a conversion's page."""
    return [pair for pair, conversion in CONVERSIONS.items()
            if re.search(rf"\b{re.escape(name.lower())}\b", conversion.page)]


def _page_lines(name: str, mnemonics: list[str], pairs: list[tuple]) -> list[str]:
    """A conversion page's rows: each mnemonic's form narrowed to the page's type pairs, citing it."""
    pages = "; ".join(dict.fromkeys(CONVERSIONS[pair].page for pair in pairs))
    shown_pairs = ", ".join(f"{d}/{s} (vD.{d}, vS.{s})" for d, s in pairs)
    lines = [f"{name}: {shown_pairs}, implemented by {', '.join(mnemonics)}"]
    for spec in (spec for mnemonic in mnemonics for spec in BY_MNEMONIC[mnemonic]):
        combos = tuple(combo for combo in spec.types if tuple(t.name for t in combo) in pairs)
        if combos:
            narrowed = replace(spec, types=combos, ref=pages)
            lines += ["", spec.text, f"  {spec.summary}"] + [f"  {label}: {text}" for label, text in spec_facts(narrowed)]
    return lines + ["sources:", f"  {SOURCE_KEY['c-api-reg']}"] if "c-api-reg" in pages else lines


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
