"""`ascasm draw FILE --step N -o out.svg` and the debugger's `draw FILE.svg`: one step as an SVG picture.

The header binds the row's type letters to this instruction's types and keeps only the summary's
clauses that concern them. The registers the instruction reads are drawn as rows of lanes before the
step, the ones it writes after it (changed lanes highlighted), masks as bars of active/inactive lanes
(the lanes an inactive mask bit leaves alone are greyed in the data registers too), and for loads and
stores the UB bytes touched, each lane linked to the address it went to (or came from); for a squeeze,
each kept lane to the lane it lands in. The lane -> address mapping is read from the step's record
(effects.StepLog: the executor's write log as Spans), the lane moves from the ISA table's mask rule;
nothing here knows what an instruction does. The links are arrows only where no arrow would cross
another cell: each runs straight down (or up) its column between the two rows that face each other
(one row of 64-bit lanes and its UB row). Any other map (a scatter, a gather, a squeeze, or a store of
more than one row of lanes, whose first rows' arrows would run under the rows below) is drawn as a
small label in the cell at each link's head naming its tail: the lane that wrote a UB cell, the UB
address a lane was loaded from, the lane a kept lane came from.
"""
from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import partial
from html import escape as html_escape

import numpy as np

from ..formatting import cell_text
from ..explain import summary_for_types
from ..isa import Kind, dtypes
from ..lanes import governed_lanes, lane_width
from ..state import SPR_AR, SPR_NAMES, SPR_SQZN, VL
from .effects import StepLog, lane_type
from .trace import source_text
from ..vm import run_warnings

# XML text escaping (&, <, >), as xml.sax.saxutils.escape does without its import of urllib (0.1 s)
escape = partial(html_escape, quote=False)

MARGIN, ROW_H, BAR_H, GAP = 20, 22, 10, 18
MARK_H = 9                         # extra height of a row whose cells carry a label (8px text)
PER_ROW = 32                       # lanes (and UB cells) per row
HEAD = 6                           # length of the arrowhead's segment drawn over the cells
# The mask rules under which an inactive lane concerns the destination (it is zeroed or kept), so that
# the written register's lanes are greyed too; under the others (vsqz drops them, reductions skip them)
# only the registers read are.
DESTINATION_MODES = ("zero", "zero-bits", "merge")
SPECIAL_INDEX = {name: index for index, name in zip((SPR_AR, SPR_SQZN), SPR_NAMES)}
FONT = "font-family:monospace;font-size:11px"
MARK_FONT = "font-family:monospace;font-size:8px"
COLORS = {"cell": "#ffffff", "inactive": "#e4e4e4", "changed": "#fff2a8", "active": "#3b7dd8",
          "ub": "#e8f4e8", "touched": "#bfe3bf", "arrow": "#d0342c", "text": "#222222", "grey": "#999999"}


@dataclass
class Grid:
    """A row of cells to draw: a register's lanes or a stretch of the UB."""
    title: str
    cells: list                    # text per cell
    fills: list                    # colour per cell
    labels: list = field(default_factory=list)     # (row, text) at the left of a row (UB: addresses)
    bar: bool = False              # a mask: thin cells, no text
    y: float = 0.0                 # set by the layout: top of the first row
    rows: list = field(default_factory=list)       # the row each cell is on (UB: only rows with cells)
    cols: list = field(default_factory=list)
    addrs: list = field(default_factory=list)        # UB: each cell's address
    marks: dict = field(default_factory=dict)        # cell -> small label naming where its value came from

    @property
    def height(self) -> int:
        """A row's height: a mask's bar is thin; a row of labelled cells has room for the label."""
        return BAR_H if self.bar else ROW_H + (MARK_H if self.marks else 0)

    def top(self, cell: int) -> float:
        return self.y + self.rows[cell] * (self.height + 4)


@dataclass
class Step:
    """One executed (or faulting) instruction: the states around it and its trace record."""
    program: object
    insn: object
    before: object                 # MachineState before the step
    after: object                  # ... and after it (the machine's own state)
    effects: object                # effects.Effects; None when the step did not execute
    active: object                 # its mask's lanes (lanes.governed_lanes), or None
    fault: object                  # the MachineFault it stopped on, or None


def picture_step(program, machine) -> str:
    """Execute the instruction at the machine's pc (one step, with the engine) and return its SVG."""
    state = machine.state
    before = state.copy()
    if state.pc >= len(program.insns):
        raise ValueError("the pc is past the last instruction: there is no step to draw")
    insn = program.insns[state.pc]
    active = governed_lanes(insn, before)
    _pc, effects, _records = StepLog(program, machine).step()
    executed = state.steps > before.steps
    return _svg(Step(program, insn, before, state, effects if executed else None, active,
                     None if executed else machine.fault()))


def draw_step(program, machine, step: int) -> str:
    """Run the machine to just before step `step` (1-based) and picture that step."""
    if step < 1:
        raise ValueError("steps are numbered from 1")
    if step - 1 > machine.state.steps:
        machine.run(step - 1 - machine.state.steps)
    if machine.state.steps != step - 1 or machine.stop_name != "RUNNING":
        raise ValueError(f"the program stopped after {machine.state.steps} steps "
                         f"({machine.stop_name.lower()}): there is no step {step}")
    return picture_step(program, machine)


def _svg(step: Step) -> str:
    insn, before, after = step.insn, step.before, step.after
    spans = [] if step.effects is None else list(step.effects.ub_reads) + list(step.effects.ub_writes or [])
    lane_spans = [s for s in spans if s.lane >= 0 and s.src >= 0]
    is_store = step.effects is not None and bool(step.effects.ub_writes)
    register_grids, texts = {}, {}         # texts: one line per scalar or special register, by name
    mask = insn.spec.mask
    greys_destination = mask is not None and mask.inactive in DESTINATION_MODES
    for position, (operand, value) in enumerate(zip(insn.spec.operands, insn.operands)):
        when = ("unwritten: the step faulted" if step.fault else "after") if operand.writes else "before"
        state = after if operand.writes else before
        if operand.kind is Kind.VREG:
            etype = lane_type(insn, operand) if operand.writes else _read_type(insn, operand)
            greyed = etype.width == lane_width(insn) and (greys_destination or not operand.writes)
            register_grids[position] = _vector_grid(value, etype, state, before if operand.writes else None,
                                                    step.active if greyed else None, when)
        elif operand.kind is Kind.PREG and state.preg_set[value]:
            register_grids[position] = _mask_grid(value, lane_width(insn) if insn.types else 1, state, when)
        elif operand.kind in (Kind.SREG, Kind.AREG):
            part = "sreg" if operand.kind is Kind.SREG else "areg"
            name = f"{part[0]}{value}"             # add s1, s1, 256 names s1 twice: one line
            texts[name] = _change_text(name, int(getattr(before, part)[value]), int(getattr(after, part)[value]))
        elif operand.kind is Kind.UREG:            # a stream's bytes that wait for the next store or flush
            (old, _), (new, at) = (int(x) for x in before.ureg_state[value]), (int(x) for x in after.ureg_state[value])
            texts[f"u{value}"] = _change_text(f"u{value}", old, new) + " bytes pending" + (f" for UB {at:#x}" if new else "")
    for name in insn.spec.specials:
        if name in SPECIAL_INDEX:
            texts[name] = _change_text(name, int(before.spr[SPECIAL_INDEX[name]]), int(after.spr[SPECIAL_INDEX[name]]))
    # the register whose lanes map to the UB goes next to the UB rows: stores above them, loads below
    mapped = {s.src for s in lane_spans}
    others = [grid for p, grid in register_grids.items() if p not in mapped]
    adjacent = [grid for p, grid in register_grids.items() if p in mapped]
    element = insn.types[0] if insn.types else dtypes.lookup("u8")
    ub = _ub_grid(step.program, spans, after if is_store else before, element) if spans else None
    if ub is None:
        grids = others + adjacent
    elif is_store:
        grids = others + adjacent + [ub]
    else:
        grids = [ub] + adjacent + others
    moves = _lane_moves(step, register_grids)
    links = moves or (_ub_links(lane_spans, register_grids, ub, is_store) if ub else [])
    kind = "the kept lanes' moves" if moves else "lane -> UB address" if is_store else "UB address -> lane"
    return _layout(step, grids, list(texts.values()), links, kind)


def _change_text(name: str, old: int, new: int) -> str:
    return f"{name} = {new}" if old == new else f"{name}: {old} -> {new}"


def _lane_moves(step: Step, register_grids) -> list:
    """For a mask that drops its inactive lanes (vsqz): the link (source grid, lane, destination grid,
    lane) of each kept lane, the k-th active lane landing in lane k (the mask rule of the ISA table)."""
    insn = step.insn
    if step.effects is None or step.active is None or insn.spec.mask.inactive != "dropped":
        return []
    operands = insn.spec.operands
    destination = next((p for p, op in enumerate(operands) if op.writes and p in register_grids), None)
    source = next((p for p, op in enumerate(operands) if op.kind is Kind.VREG and not op.writes), None)
    if destination is None or source is None:
        return []
    kept = np.flatnonzero(step.active)
    return [(register_grids[source], int(lane), register_grids[destination], k) for k, lane in enumerate(kept)]


def _read_type(insn, operand):
    """The lanes a read register is viewed as: its type slot's type (u8 when it has none)."""
    return insn.types[operand.type_slot] if operand.type_slot is not None else dtypes.lookup("u8")


def _vector_grid(number: int, etype, state, old_state, active, when: str) -> Grid:
    lanes = state.vreg[number].view(etype.np_dtype)
    cells = [cell_text(x, etype) for x in lanes]
    fills = [COLORS["cell"]] * len(cells)
    if old_state is not None:
        changed = lanes.view(etype.bits) != old_state.vreg[number].view(etype.bits)
        fills = [COLORS["changed"] if c else COLORS["cell"] for c in changed]
    if active is not None and len(active) == len(cells):
        fills = [f if a else COLORS["inactive"] for f, a in zip(fills, active)]
    grid = Grid(f"v{number}.{etype.name} ({when})", cells, fills)
    grid.rows = [k // PER_ROW for k in range(len(cells))]
    grid.cols = [k % PER_ROW for k in range(len(cells))]
    return grid


def _mask_grid(number: int, width: int, state, when: str) -> Grid:
    bits = np.unpackbits(state.preg[number], bitorder="little").astype(bool)[::width][:VL // width]
    grid = Grid(f"p{number}.b{8 * width} ({when}): {int(bits.sum())} of {bits.size} lanes active", [""] * bits.size,
                [COLORS["active"] if b else COLORS["inactive"] for b in bits], bar=True)
    grid.rows = [k // PER_ROW for k in range(bits.size)]
    grid.cols = [k % PER_ROW for k in range(bits.size)]
    return grid


def _ub_grid(program, spans, state, element) -> Grid:
    """The UB cells the spans touch, in rows of PER_ROW cells; only the rows that hold a touched cell
    are drawn. A cell is a lane's bytes (the narrowest span), or an element of the instruction's type
    `element` when spans are wider than a number (a mask store's 32 bytes). Cells of the element's
    width show its values, others their bits in hex."""
    width = min(s.width for s in spans)
    if width > 8:
        width = element.width
    touched = {}
    for span in spans:
        for k in range(span.count):
            for offset in range(0, span.width, width):
                touched[span.addr + k * (span.pitch or span.width) + offset] = True
    base = min(touched) // (PER_ROW * width) * (PER_ROW * width)
    rows = sorted({(a - base) // (PER_ROW * width) for a in touched})
    cells, fills, row_of, col_of, labels, addrs = [], [], [], [], [], []
    bits = np.dtype(f"u{width}")
    for r, row in enumerate(rows):
        start = base + row * PER_ROW * width
        labels.append((r, f"{start:#x}"))
        for c in range(PER_ROW):
            addr = start + c * width
            if addr + width > state.ub.size:
                break
            raw = state.ub[addr:addr + width]
            cells.append(cell_text(raw.view(element.np_dtype)[0], element) if width == element.width
                         else f"{int(raw.view(bits)[0]):x}")
            fills.append(COLORS["touched"] if addr in touched else COLORS["ub"])
            row_of.append(r)
            col_of.append(c)
            addrs.append(addr)
    names = sorted({_buffer_name(program, a) for a in touched} - {""})
    what = f"{element.name} elements" if width == element.width else f"{width}-byte cells in hex"
    title = f"UB, {what}" + (f": {', '.join(names)}" if names else "")
    return Grid(title, cells, fills, labels, rows=row_of, cols=col_of, addrs=addrs)


def _buffer_name(program, addr: int) -> str:
    for buf in program.buffers.values():
        if buf.space == "ub" and buf.addr <= addr < buf.addr + buf.nbytes:
            return buf.name
    return ""


def _layout(step: Step, grids, texts, links, kind) -> str:
    program, insn, before = step.program, step.insn, step.before
    clear = all(_clear_path(link, grids) for link in links)      # (then a row of at most 32 arrows)
    several = len({id(tail) for tail, _t, _head, _h in links}) > 1      # vsta.intlv: v1's and v2's lanes
    if not clear:                          # each link as a label at its head, naming its tail
        for tail, t, head, h in links:
            head.marks[h] = f"@{tail.addrs[t]:x}" if tail.addrs else \
                f"{_register(tail) if several else ''}[{t}]"
    cell_w = max(26, 7 * max((len(c) for g in grids for c in g.cells), default=1) + 8,
                 5 * max((len(m) for g in grids for m in g.marks.values()), default=0) + 4)
    label_w = 64
    width = 2 * MARGIN + label_w + PER_ROW * cell_w
    body, y = [], MARGIN
    header = [f"step {before.steps + 1}, line {insn.loc.line}: {source_text(insn.loc)}",
              *textwrap.wrap(_this_instruction(insn), (width - 2 * MARGIN) // 7)]
    if step.fault is not None:
        header.append(f"fault: {step.fault.message}")
    for k, line in enumerate(header):
        style = "font-weight:bold" if k == 0 else ("fill:#c00" if line.startswith("fault") else "")
        body.append(f'<text x="{MARGIN}" y="{y + 12}" style="{FONT};{style}">{escape(line)}</text>')
        y += 16
    if texts:
        body.append(f'<text x="{MARGIN}" y="{y + 12}" style="{FONT}">{escape("   ".join(texts))}</text>')
        y += 16
    y += GAP
    x0 = MARGIN + label_w
    beneath = len(body)                    # the arrows' lines go here, under the cells and the titles
    for grid in grids:
        body.append(f'<text x="{MARGIN}" y="{y + 11}" style="{FONT};font-weight:bold">{escape(grid.title)}</text>')
        y += 16
        grid.y = y
        h = grid.height
        row_count = max(grid.rows, default=-1) + 1
        for r in range(row_count):
            label = next((text for row, text in grid.labels if row == r), None) if grid.labels else f"[{r * PER_ROW}]"
            size = "font-size:9px" if grid.bar else ""
            body.append(f'<text x="{MARGIN}" y="{y + r * (h + 4) + h - (1 if grid.bar else 6)}" '
                        f'style="{FONT};{size};fill:{COLORS["grey"]}">{escape(label or "")}</text>')
        for k, (text, fill, c) in enumerate(zip(grid.cells, grid.fills, grid.cols)):
            cx, cy = x0 + c * cell_w, grid.top(k)
            body.append(f'<rect x="{cx}" y="{cy}" width="{cell_w - 2}" height="{h}" fill="{fill}" '
                        f'stroke="#888" stroke-width="0.5"/>')
            if text:
                body.append(f'<text x="{cx + cell_w / 2 - 1}" y="{cy + h - 7}" text-anchor="middle" '
                            f'style="{FONT}">{escape(text)}</text>')
            if k in grid.marks:
                body.append(f'<text x="{cx + cell_w / 2 - 1}" y="{cy + 8}" text-anchor="middle" '
                            f'style="{MARK_FONT};fill:{COLORS["arrow"]}">{escape(grid.marks[k])}</text>')
        y += row_count * (h + 4) + GAP
    ends = [_arrow_ends(link, x0, cell_w) for link in links] if clear else []
    lines, marks = _arrow_svg(ends)
    body[beneath:beneath] = lines
    body += marks
    for line in textwrap.wrap(_legend(grids, links, bool(ends), kind, several), (width - 2 * MARGIN) // 7):
        body.append(f'<text x="{MARGIN}" y="{y + 10}" style="{FONT};fill:{COLORS["grey"]}">{escape(line)}</text>')
        y += 16
    warnings = [message for loc, message, _notes in run_warnings(program, step.after) if loc.line == insn.loc.line]
    for message in warnings:
        y += 16
        body.append(f'<text x="{MARGIN}" y="{y + 10}" style="{FONT};fill:#b60">warning: {escape(message)}</text>')
    height = y + 8 + MARGIN
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<title>{escape(program.filename)}, step {before.steps + 1}</title>',
        '<defs><marker id="head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
        f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{COLORS["arrow"]}"/></marker></defs>',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa"/>',
        *body, "</svg>", ""])


# What each fill colour means, in the legend's order; a legend names only the colours its picture uses.
LEGEND = (("changed", "yellow: lanes this step changed"), ("inactive", "grey: lanes the mask leaves inactive"),
          ("active", "blue: active mask lanes"), ("touched", "green: UB bytes touched"))


def _legend(grids, links, arrows: bool, kind: str, several: bool) -> str:
    used = {fill for grid in grids for fill in grid.fills}
    parts = [text for colour, text in LEGEND if COLORS[colour] in used]
    if arrows:
        parts.append(f"arrows: {kind}")
    elif links:
        tail = links[0][0]
        parts.append("red @a: the lane holds the element at UB address a (hex)" if tail.addrs else
                     "red vN[k]: the cell holds lane k of vN" if several else
                     f"red [k]: the cell holds lane k of {tail.title.split(' (')[0]}")
    return "; ".join(parts)


def _clear_path(link, grids) -> bool:
    """Whether a link's arrow would cross no other cell: straight down (or up) its column, from the
    tail grid's row next to the head grid to the head grid's row next to the tail grid, the two
    grids drawn one after the other."""
    tail, t, head, h = link
    order = [id(grid) for grid in grids]
    below = order.index(id(head)) - order.index(id(tail))
    if tail.cols[t] != head.cols[h] or abs(below) != 1:
        return False
    near_tail, near_head = (max(tail.rows), 0) if below == 1 else (0, max(head.rows))
    return tail.rows[t] == near_tail and head.rows[h] == near_head


def _register(grid) -> str:
    """The register a grid of lanes shows ("v1" for "v1.u8 (before)")."""
    return grid.title.split(".")[0]


def _this_instruction(insn) -> str:
    """The row's syntax with its type letters bound to this instruction's types, and the row's
    summary without the clauses about other types ("b8 data: ...", "signed T: ...")."""
    bound = {}
    for operand in insn.spec.operands:
        if operand.type_slot is not None and operand.type_text:
            bound.setdefault(operand.type_text, insn.types[operand.type_slot].name)
    syntax = insn.spec.text + (" with " + ", ".join(f"{k} = {v}" for k, v in bound.items()) if bound else "")
    return f"{syntax}: {summary_for_types(insn.spec.summary, insn.types)}"


def _ub_links(lane_spans, register_grids, ub, is_store) -> list:
    """A link (tail grid, cell, head grid, cell) between each lane of the lane spans and its first UB
    cell, lane -> UB for a store, UB -> lane for a load, in the order of the lanes."""
    cell_of = {addr: k for k, addr in enumerate(ub.addrs)}
    pairs = []
    for span in lane_spans:
        grid = register_grids.get(span.src)
        for k in range(span.count if grid is not None else 0):
            cell = cell_of.get(span.addr + k * (span.pitch or span.width))
            if span.lane + k < len(grid.cells) and cell is not None:
                pairs.append((span.lane + k, grid, cell))
    pairs.sort(key=lambda pair: pair[0])
    return [(grid, lane, ub, cell) if is_store else (ub, cell, grid, lane) for lane, grid, cell in pairs]


def _arrow_ends(link, x0, cell_w) -> tuple:
    """The (start, end) of a link's arrow: from the tail cell's edge facing the head to the head
    cell's edge facing the tail."""
    tail, t, head, h = link
    centre = lambda grid, cell: x0 + grid.cols[cell] * cell_w + cell_w / 2 - 1
    if head.y > tail.y:
        return (centre(tail, t), tail.top(t) + tail.height), (centre(head, h), head.top(h))
    return (centre(tail, t), tail.top(t)), (centre(head, h), head.top(h) + head.height)


def _arrow_svg(ends) -> tuple[list[str], list[str]]:
    """Each arrow as a line drawn beneath the cells and titles (a grid's title may stand between the
    two rows it joins) and, on top of them, a dot where it starts and its head where it ends."""
    lines, marks = [], []
    for (x1, y1), (x2, y2) in ends:
        lines.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                     f'stroke="{COLORS["arrow"]}" stroke-width="1" stroke-opacity="0.6"/>')
        length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-9)
        back = min(HEAD, length)
        hx, hy = x2 - (x2 - x1) * back / length, y2 - (y2 - y1) * back / length
        marks.append(f'<circle cx="{x1:.1f}" cy="{y1:.1f}" r="2" fill="{COLORS["arrow"]}"/>')
        marks.append(f'<path d="M {hx:.1f} {hy:.1f} L {x2:.1f} {y2:.1f}" stroke="{COLORS["arrow"]}" '
                     f'stroke-width="1" marker-end="url(#head)"/>')
    return lines, marks
