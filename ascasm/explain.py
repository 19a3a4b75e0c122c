"""What `ascasm explain` and the debugger's `help MNEMONIC` print: the ISA table's rows for one
mnemonic, the mask patterns where an instruction takes one, a key to the kinds of source the rows
cite, and the list of every instruction by group."""
from __future__ import annotations

import re
import textwrap
from dataclasses import replace

from .isa import BY_MNEMONIC, INSNS, PATTERNS, Kind, dtypes, regapi
from .isa.table import BY_CAPI, CONVERSIONS, describe, spec_facts

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
    NAME (asc_and -> vand) or the Reg API function NAME (Reg::Add, MicroAPI::Add -> vadd, vadd.merge);
    none when NAME is neither."""
    if _is_reg_name(name):
        return reg_mnemonics(name)
    name = name.lower()
    return [name] if name in BY_MNEMONIC else BY_CAPI.get(name, [])


def _is_reg_name(name: str) -> bool:
    return "::" in name and name.split("::")[-2] in ("Reg", "MicroAPI")


def reg_mnemonics(name: str) -> list[str]:
    """The mnemonics the forms of Reg API function `name` use, in order ("Reg::" alone: every API's)."""
    apis = regapi.APIS if name.split("::")[-1] == "" else regapi.meanings(name)
    found = []
    for api in apis:
        for form in api.forms:
            for template in form.templates:
                mnemonic = template.mnemonic
                if mnemonic in BY_MNEMONIC and mnemonic not in found:
                    found.append(mnemonic)
                elif mnemonic == "vcvt" and "vcvt" not in found:
                    found.append("vcvt")
    return found


def reg_api_lines(name: str) -> list[str]:
    """`ascasm explain Reg::NAME`: the function's forms, each with its row and the lane types it takes,
    then each instruction's summary (wrapped); `Reg::` alone lists every supported function."""
    if name.split("::")[-1] == "":
        return [f"{len(regapi.APIS)} Reg API functions translate to ascasm (`ascasm explain Reg::NAME` for one; "
                "MicroAPI:: is the same namespace):", ""] + \
            [f"  {api.name:<16} {', '.join(reg_mnemonics('Reg::' + api.name))}" for api in regapi.APIS]
    lines = regapi.explain_lines(name, form_types)
    lines += ["", "instructions:"]
    for mnemonic in reg_mnemonics(name):
        lines += wrapped(f"  {mnemonic:<12} ", BY_MNEMONIC[mnemonic][0].summary)
    return lines


def form_types(form) -> list[str]:
    """The lane types a Reg form takes, as lines: those of the ISA table rows its instruction template
    can assemble to (the kinds of the template's register operands matching), narrowed where the
    template fixes an operand's type (`{src/b16}`: any 16-bit type, moved as b16)."""
    head, _, operands = form.asm[0].partition(" ")
    mnemonic = head.split("{")[0]
    kinds = {arg.role: arg.kind for arg in form.operands + ((form.result,) if form.result else ())}
    fields = [re.findall(r"\{([^}]*)\}", text) for text in operands.split(", ")] if operands else []
    specs = [spec for m, specs in BY_MNEMONIC.items() if m == mnemonic or ("{cast}" in head and m.startswith(mnemonic + "."))
             for spec in specs if spec.types and _fits(spec, fields, kinds)]
    if not specs:
        return []
    spec = specs[0]
    fixed = {}                                   # type slot -> the type the template writes for it
    for operand, names in zip(spec.operands, fields):
        if operand.type_slot is not None and names:
            _role, _, as_type = names[0].partition(".")[0].partition("/")
            if dtypes.lookup(as_type) is not None:
                fixed[operand.type_slot] = dtypes.lookup(as_type)
    combos = [combo for s in specs for combo in s.types
              if all(combo[slot].name == etype.name for slot, etype in fixed.items())]
    combos = list(dict.fromkeys(tuple(t.name for t in combo) for combo in combos))
    slots = len(combos[0]) if combos else 0
    if fixed and len(fixed) == slots:
        return [f"      types: any {8 * etype.width}-bit type (moved as {etype.name})" for etype in fixed.values()][:1]
    letters = {op.type_slot: op.type_text for op in spec.operands if op.type_text in ("T", "U")}
    if not letters:                              # bW rows only (CreateMask): T's width picks the row
        return [f"      types: any type of {', '.join(str(8 * dtypes.lookup(c[0]).width) for c in combos)} bits "
                f"(as {' '.join(c[0] for c in combos)})"]
    label = "/".join(letters[slot] for slot in sorted(letters))
    if len(letters) > 1:
        label += " (" + ", ".join(op.text for op in spec.operands if op.type_text in ("T", "U")) + ")"
    return wrapped(f"      types {label}: ", " ".join("/".join(c) for c in combos), indent=8)


def _fits(spec, fields: list, kinds: dict) -> bool:
    """Whether a row's operands can take a template's: as many or more (the rest optional), and a
    vector or mask register wherever the template puts one."""
    if len(fields) > len(spec.operands) or any(not op.optional for op in spec.operands[len(fields):]):
        return False
    for operand, names in zip(spec.operands, fields):
        kind = kinds.get(names[0].partition(".")[0].partition("/")[0]) if names else None
        if kind in (Kind.VREG, Kind.PREG) and operand.kind is not kind:
            return False
    return True


def wrapped(first: str, text: str, width: int = 100, indent: int | None = None) -> list[str]:
    """`text` after `first`, wrapped at `width` columns under its own start (or `indent` spaces)."""
    hang = " " * (len(first) if indent is None else indent)
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=hang, break_on_hyphens=False) or [first]


def explain_lines(name: str) -> list[str]:
    """Every form of a mnemonic (or of the mnemonics implementing C-API function `name`) from the
    table, its patterns, and the key to its sources."""
    if _is_reg_name(name):
        return reg_api_lines(name)
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
    """A conversion page's rows: each mnemonic's form narrowed to the page's type pairs, citing it.
    The first row is shown whole; the others (the same conversion in another rounding mode) only
    where they differ from it, so that a page of six modes reads in one screen."""
    pages = "; ".join(dict.fromkeys(CONVERSIONS[pair].page for pair in pairs))
    shown_pairs = ", ".join(f"{d}/{s} (vD.{d}, vS.{s})" for d, s in pairs)
    lines = [f"{name}: {shown_pairs}, implemented by {', '.join(mnemonics)}"]
    first = None
    for spec in (spec for mnemonic in mnemonics for spec in BY_MNEMONIC[mnemonic]):
        combos = tuple(combo for combo in spec.types if tuple(t.name for t in combo) in pairs)
        if not combos:
            continue
        summary = summary_for_types(spec.summary, combos[0]) if len(combos) == 1 else spec.summary
        facts = [f"  {label}: {text}" for label, text in spec_facts(replace(spec, types=combos, ref=pages))]
        if first is None:
            first = spec.mnemonic, summary, facts
            lines += ["", spec.text, f"  {summary}"] + facts
        else:
            lines += ["", spec.text] + _differences(summary, facts, *first)
    return lines + ["sources:", f"  {SOURCE_KEY['asc_']}"]


def _differences(summary: str, facts: list[str], first: str, first_summary: str, first_facts: list[str]) -> list[str]:
    """A row's summary and facts where they differ from the first row's, then what it shares with it."""
    head, _, rest = summary.partition("; ")
    shown = [] if summary == first_summary else [f"  {head}"] if rest == first_summary.partition("; ")[2] \
        else [f"  {summary}"]
    shown += [fact for fact in facts if fact not in first_facts]
    return shown + [f"  ({'the rest' if shown else 'all'} as {first})"]


def summary_for_types(summary: str, types) -> str:
    """A row's summary without the clauses about other types than `types` ("b8 data: ...",
    "signed T: ..."), for one instruction or one page's type pair."""
    kept = [(sep, text) for sep, text in _clauses(summary) if _concerns(text, types)]
    return "".join(sep + text for sep, text in kept)[len(kept[0][0]) if kept else 0:]


def _clauses(summary: str) -> list[tuple[str, str]]:
    """The summary cut at each '; ' or '. ' outside parentheses: (the separator before, clause)."""
    pieces, depth, start, sep = [], 0, 0, ""
    for k, char in enumerate(summary):
        depth += (char == "(") - (char == ")")
        if depth == 0 and char in ";." and summary[k + 1:k + 2] == " ":
            pieces.append((sep, summary[start:k]))
            start, sep = k + 2, char + " "
    return pieces + [(sep, summary[start:])]


def _concerns(clause: str, types) -> bool:
    """Whether a summary's clause concerns an instruction of these types: a clause led by type names
    ("b64 data with u32 indices ...") only when it has each of them; "signed T:", "unsigned T:" and
    "to an integer:" only when T (the first type) is of that kind; "Width ratio 2 or 4:" only when
    the types' widths differ."""
    names = {t.name for t in types}
    first = types[0].kind if types else ""
    qualifier = clause.split(":")[0] if ":" in clause else " ".join(clause.split()[:5])
    if qualifier in KIND_QUALIFIERS:
        return first in KIND_QUALIFIERS[qualifier]
    if qualifier == "Width ratio 2 or 4":
        return len({t.width for t in types}) > 1
    words = qualifier.replace(",", " ").split()
    if not words or dtypes.lookup(words[0]) is None:
        return True
    return all(dtypes.lookup(word) is None or dtypes.lookup(word).name in names for word in words)


# The summary clauses that concern only a kind of destination type T, and those kinds.
KIND_QUALIFIERS = {"signed T": ("int",), "unsigned T": ("uint",), "to an integer": ("int", "uint")}


def instruction_list() -> list[str]:
    """`ascasm explain` without a mnemonic: every instruction form by group, with its summary's first
    clause."""
    width = max(len(spec.text) for spec in INSNS)
    lines = [f"{len(BY_MNEMONIC)} instructions ({len(INSNS)} forms); `ascasm explain MNEMONIC` for one, "
             "docs/isa.md for all of them"]
    for group, _prefixes in GROUPS:
        specs = [spec for spec in INSNS if group_of(spec) == group]
        lines += ["", f"{group}:"]
        for spec in specs:
            lines += wrapped(f"  {spec.text:<{width}}  ", first_clause(spec.summary))
    return lines


def first_clause(summary: str) -> str:
    """The summary up to its first '; ' or '. ' outside parentheses."""
    return _clauses(summary)[0][1]
