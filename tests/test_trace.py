"""`ascasm run --trace` (ascasm.observers.trace.write_trace): one JSON object per executed instruction, validated
against the schema documented in docs/debugger.md, checked against the machine state it describes;
and the recorder's last-writer maps (what `why` answers) cross-checked with the trace.
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ascasm import assemble, assemble_file
from ascasm.isa import STOP_CODES, dtypes
from ascasm.isa.operands import Kind
from ascasm.state import SPR_NAMES, UB_SIZE, VL
from ascasm.observers.effects import StepLog, written_bytes
from ascasm.observers.history import Recorder
from ascasm.observers.trace import write_trace
from ascasm.vm import Machine
from test_random_programs import programs

ENGINE = "cy"
PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
# derandomize: the same programs on every run, so that a failure is reproducible and the suite does not fail
# at random (tools/fuzz.py explores new programs)
SETTINGS = settings(max_examples=60, deadline=None, database=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# ---------------------------------------------------------------------------------------------
# the schema of a trace line (docs/debugger.md "Trace JSON schema"), as a small validator
# ---------------------------------------------------------------------------------------------

TOP_KEYS = {"step", "pc", "line", "text", "insn", "regs", "ub_writes", "ub_reads", "status"}
SPAN_KEYS = {"addr", "end", "width", "count", "pitch", "src", "lane"}
TYPE_NAMES = {t.name for t in dtypes.TYPES}


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_lane_value(x) -> bool:
    return _is_int(x) or isinstance(x, float) or x in ("nan", "inf", "-inf")


def schema_errors(record) -> list[str]:
    """Every way `record` (a parsed trace line) violates the documented schema; [] when it conforms."""
    errors = []
    if not isinstance(record, dict):
        return ["a line is not a JSON object"]
    keys = set(record)
    if not TOP_KEYS <= keys or keys - TOP_KEYS - {"fault", "file", "asm"}:
        errors.append(f"keys {sorted(keys)}; expected {sorted(TOP_KEYS)} (+ fault, file and asm)")
        return errors
    if ("file" in record) != ("asm" in record) or not all(isinstance(record.get(k, ""), str) and
                                                          (k not in record or record[k]) for k in ("file", "asm")):
        errors.append("file and asm (a row of a .loc source) come together, as non-empty strings")
    for key in ("step", "pc", "line"):
        if not _is_int(record[key]) or record[key] < (0 if key == "pc" else 1):
            errors.append(f"{key} must be a non-negative (step, line: positive) integer")
    for key in ("text", "insn"):
        if not isinstance(record[key], str) or not record[key]:
            errors.append(f"{key} must be a non-empty string")
    if record["status"] not in STOP_CODES:
        errors.append(f"status {record['status']!r} is not a stop name")
    if "fault" in record:
        if not isinstance(record["fault"], str) or record["status"] in ("RUNNING", "HALTED"):
            errors.append("fault must be a message, on a line whose status is a fault")
        if record["regs"] or record["ub_writes"] or record["ub_reads"]:
            errors.append("a faulting instruction writes nothing")
    for reg in record["regs"] if isinstance(record["regs"], list) else [None]:
        errors += _reg_errors(reg)
    for key in ("ub_writes", "ub_reads"):
        for span in record[key] if isinstance(record[key], list) else [None]:
            errors += _span_errors(span, key)
    return errors


def _reg_errors(reg) -> list[str]:
    if not isinstance(reg, dict) or not isinstance(reg.get("reg"), str):
        return ["a regs entry must be an object with a reg name"]
    if reg["reg"] == "MASK":
        ok = set(reg) == {"reg", "mask0", "mask1"} and _is_int(reg["mask0"]) and _is_int(reg["mask1"])
        return [] if ok else ["MASK: expected {reg, mask0: int, mask1: int}"]
    if reg["reg"] in ("AR", "SQZN", "CTRL"):
        ok = set(reg) == {"reg", "value"} and _is_int(reg["value"])
        return [] if ok else [f"{reg['reg']}: expected {{reg, value: int}}"]
    if reg["reg"] == "LOOP":
        ok = (set(reg) == {"reg", "index", "count"} and all(_is_int(x) for x in reg["index"] + reg["count"])
              and len(reg["index"]) == len(reg["count"]) <= 4)
        return [] if ok else ["LOOP: expected {reg, index: [int], count: [int]}, at most 4 each"]
    m = re.fullmatch(r"([vpasuq])(\d+)", reg["reg"])
    if not m:
        return [f"bad register name {reg['reg']!r}"]
    file = m.group(1)
    if file == "u":
        ok = (set(reg) == {"reg", "pending", "addr", "hex"} and _is_int(reg["pending"]) and 0 <= reg["pending"] < 32
              and _is_int(reg["addr"]) and isinstance(reg["hex"], str) and len(reg["hex"]) == 2 * reg["pending"])
        return [] if ok else [f"{reg['reg']}: expected {{reg, pending: 0..31, addr, hex: 2*pending digits}}"]
    if file == "q":
        ok = (set(reg) == {"reg", "position", "hex"} and _is_int(reg["position"])
              and isinstance(reg["hex"], str) and re.fullmatch(r"[0-9a-f]{64}", reg["hex"]))
        return [] if ok else [f"{reg['reg']}: expected {{reg, position, hex: 64 digits}}"]
    if file in "sa":
        ok = set(reg) == {"reg", "value"} and _is_int(reg["value"])
        return [] if ok else [f"{reg['reg']}: expected {{reg, value: int}}"]
    if file == "p":
        if set(reg) != {"reg", "type", "active", "hex"} or reg["type"] not in ("b8", "b16", "b32", "b64"):
            return [f"{reg['reg']}: expected {{reg, type: bW, active, hex}}"]
        lanes = VL // (int(reg["type"][1:]) // 8)
        active = reg["active"]
        if not (isinstance(active, list) and all(_is_int(a) and 0 <= a < lanes for a in active)
                and active == sorted(set(active))):
            return [f"{reg['reg']}: active must be ascending lane numbers below {lanes}"]
        if not (isinstance(reg["hex"], str) and re.fullmatch(r"[0-9a-f]{64}", reg["hex"])):
            return [f"{reg['reg']}: hex must be 64 hex digits"]
        return []
    if set(reg) != {"reg", "type", "lanes"} or reg["type"] not in TYPE_NAMES:
        return [f"{reg['reg']}: expected {{reg, type, lanes}}"]
    width = dtypes.lookup(reg["type"]).width
    if not (isinstance(reg["lanes"], list) and len(reg["lanes"]) == VL // width
            and all(_is_lane_value(x) for x in reg["lanes"])):
        return [f"{reg['reg']}: lanes must be {VL // width} numbers"]
    return []


def _span_errors(span, key) -> list[str]:
    if not isinstance(span, dict) or not SPAN_KEYS <= set(span) or set(span) - SPAN_KEYS - {"index"}:
        return [f"{key}: an entry must have keys {sorted(SPAN_KEYS)} (+ index)"]
    errors = []
    for name in ("addr", "end", "width", "count", "pitch"):
        if not _is_int(span[name]) or (name in ("width", "count", "pitch") and span[name] <= 0):
            errors.append(f"{key}.{name} must be an integer (width, count, pitch positive)")
    if errors:
        return errors
    if span["end"] != span["addr"] + (span["count"] - 1) * span["pitch"] + span["width"]:
        errors.append(f"{key}: end != addr + (count-1)*pitch + width")
    if not (span["src"] is None or (isinstance(span["src"], str) and re.fullmatch(r"[vpasuq]\d+", span["src"]))):
        errors.append(f"{key}.src must be a register name or null")
    if not (span["lane"] is None or (_is_int(span["lane"]) and span["lane"] >= 0)):
        errors.append(f"{key}.lane must be a lane number or null")
    if "index" in span and not (_is_int(span["index"]) and span["index"] >= 0):
        errors.append(f"{key}.index must be a non-negative integer")
    return errors


def test_validator_rejects_bad_lines():
    good = {"step": 1, "pc": 0, "line": 3, "text": "mov s0, 1", "insn": "mov",
            "regs": [{"reg": "s0", "value": 1}], "ub_writes": [], "ub_reads": [], "status": "RUNNING"}
    assert schema_errors(good) == []
    assert schema_errors({**good, "extra": 1})
    assert schema_errors({**good, "step": 0})
    assert schema_errors({**good, "status": "DONE"})
    assert schema_errors({**good, "regs": [{"reg": "v0", "type": "u16", "lanes": [1, 2]}]})
    assert schema_errors({**good, "ub_writes": [{"addr": 0, "end": 3, "width": 2, "count": 1, "pitch": 2,
                                                 "src": "v0", "lane": 0}]})
    assert schema_errors({**good, "fault": "x"})


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

def trace_of(program, engine: str = ENGINE, **machine_options) -> tuple[list[dict], Machine]:
    machine = Machine(program, engine, **machine_options)
    out = io.StringIO()
    write_trace(program, machine, out)
    text = out.getvalue()
    assert text.endswith("\n") or text == ""
    return [json.loads(line) for line in text.splitlines()], machine


def span_bytes(span: dict):
    """(address, lane) of every byte a trace span covers."""
    for k in range(span["count"]):
        start = span["addr"] + k * span["pitch"]
        lane = None if span["lane"] is None else span["lane"] + k
        for address in range(start, start + span["width"]):
            yield address, lane


# ---------------------------------------------------------------------------------------------
# the bundled programs
# ---------------------------------------------------------------------------------------------

def test_scatter_trace():
    program = assemble_file(PROGRAMS / "scatter.s")
    lines, machine = trace_of(program)
    assert machine.stop_name == "HALTED"
    assert [line["step"] for line in lines] == list(range(1, 19))     # 5 setup + 3 * 4 loop + halt
    for line in lines:
        assert schema_errors(line) == [], line
    first = lines[0]
    assert first["pc"] == 0 and first["line"] == 8 and first["text"] == "vld      v0.u16, [input]"
    assert first["regs"] == [{"reg": "v0", "type": "u16", "lanes": list(range(1, 129))}]
    assert first["ub_reads"] == [{"addr": 0x300, "end": 0x400, "width": 2, "count": 128, "pitch": 2,
                                  "src": "v0", "lane": 0}]
    mask = lines[2]["regs"][0]
    assert mask["reg"] == "p0" and mask["type"] == "b16" and mask["active"] == list(range(0, 128, 4))
    assert mask["hex"] == "01" * 32                   # bit 8j of the 256: bit 0 of every byte
    vsct = lines[5]
    assert (vsct["step"], vsct["insn"], vsct["line"], vsct["regs"]) == (6, "vsct", 13, [])
    assert vsct["ub_writes"] == [{"addr": 2 * ((3 * lane) % 128), "end": 2 * ((3 * lane) % 128) + 2, "width": 2,
                                  "count": 1, "pitch": 2, "src": "v0", "lane": lane, "index": (3 * lane) % 128}
                                 for lane in range(0, 128, 4)]
    second = lines[9]                                  # the second vsct: s1 = 256, the next 128 elements
    assert second["step"] == 10 and second["ub_writes"][1]["addr"] == 256 + 2 * 12
    assert lines[6]["regs"] == [{"reg": "s1", "value": 256}]
    assert lines[-1]["insn"] == "halt" and lines[-1]["status"] == "HALTED"


def test_gather_trace_maps_lanes_to_addresses():
    program = assemble_file(PROGRAMS / "gather.s")
    lines, _ = trace_of(program)
    gathers = [line for line in lines if line["insn"] == "vgat"]
    reversed_copy, widened = gathers
    x = program.buffers["x"].addr
    assert reversed_copy["ub_reads"] == [{"addr": x + 2 * (127 - lane), "end": x + 2 * (127 - lane) + 2, "width": 2,
                                          "count": 1, "pitch": 2, "src": "v0", "lane": lane, "index": 127 - lane}
                                         for lane in range(128)]
    assert reversed_copy["regs"] == [{"reg": "v0", "type": "u16", "lanes": [3 * (127 - i) for i in range(128)]}]
    # b8 data rides in 16-bit lanes: the lanes are shown as u16, each byte zero-extended
    assert widened["regs"][0]["type"] == "u16" and widened["regs"][0]["lanes"][:4] == [216, 5, 216, 0]
    assert [(s["lane"], s["width"], s["index"]) for s in widened["ub_reads"]] == [(0, 1, 0), (1, 1, 1), (2, 1, 0)]


def test_store_modes_trace():
    program = assemble_file(PROGRAMS / "store_modes.s")
    lines, _ = trace_of(program)
    by_insn = {line["insn"]: line for line in lines}
    packed, woven, first = (program.buffers[n].addr for n in ("packed", "woven", "first"))
    assert by_insn["vsta.pack"]["ub_writes"] == [{"addr": packed, "end": packed + 4, "width": 1, "count": 4,
                                                 "pitch": 1, "src": "v0", "lane": 0}]
    assert by_insn["vsta.intlv"]["ub_writes"] == [
        {"addr": woven, "end": woven + 511, "width": 1, "count": 256, "pitch": 2, "src": "v1", "lane": 0},
        {"addr": woven + 1, "end": woven + 512, "width": 1, "count": 256, "pitch": 2, "src": "v2", "lane": 0}]
    assert by_insn["vsta.1st"]["ub_writes"] == [{"addr": first + 4, "end": first + 8, "width": 4, "count": 1,
                                                "pitch": 4, "src": "v4", "lane": 0}]
    unpacked = next(line for line in lines if line["insn"] == "vld.unpk")
    assert unpacked["regs"][0]["type"] == "u16" and unpacked["regs"][0]["lanes"][:3] == [0, 1, 2]


def test_store_inactive_zero_writes_every_slot():
    source = """
    .ub out u16[128] = 7
        mask p0.b16, VL4
        vld v0.u16, [out]
        vsta [out], v0.u16, p0
    """
    program = assemble(source, "zero.s")
    keep, _ = trace_of(program)
    machine = Machine(program, ENGINE, store_inactive="zero")
    out = io.StringIO()
    write_trace(program, machine, out)
    zero = [json.loads(line) for line in out.getvalue().splitlines()]
    assert keep[-1]["ub_writes"] == [{"addr": 0, "end": 8, "width": 2, "count": 4, "pitch": 2, "src": "v0", "lane": 0}]
    assert zero[-1]["ub_writes"] == [{"addr": 0, "end": 256, "width": 2, "count": 128, "pitch": 2, "src": "v0",
                                      "lane": 0}]


def test_fault_is_the_last_line():
    source = """
    .ub out u16[128]
        mov s0, 2
        mask p0.b16, ALL
        vsta [out + s0], v0.u16, p0
        halt
    """
    program = assemble(source, "fault.s")
    lines, machine = trace_of(program)
    assert machine.stop_name == "MISALIGNED"
    assert [line["step"] for line in lines] == [1, 2, 3]
    last = lines[-1]
    assert schema_errors(last) == []
    assert last["status"] == "MISALIGNED" and last["pc"] == 2 and last["line"] == 5
    assert last["fault"] == machine.fault().message
    assert "fault" not in lines[0]


def test_floats_in_json():
    source = """
    .ub x f16[128] = [1.5, -0.0, inf, -inf, nan, 65504]
        vld v0.f16, [x]
    """
    lines, _ = trace_of(assemble(source, "f.s"))
    assert lines[0]["regs"][0]["lanes"][:7] == [1.5, -0.0, "inf", "-inf", "nan", 65504.0, 0.0]


# ---------------------------------------------------------------------------------------------
# random programs over the whole ISA table (the generator of the lockstep fuzzer)
# ---------------------------------------------------------------------------------------------

MAX_STEPS = 80


@SETTINGS
@given(programs())
def test_random_trace_matches_state(source):
    """Every line validates; steps are consecutive; the UB bytes a step changes lie inside its
    ub_writes; the registers it changes are listed in regs with their new values."""
    program = assemble(source, "random.s")
    lines, machine = trace_of(program, max_steps=MAX_STEPS)
    replay = Machine(program, ENGINE, max_steps=MAX_STEPS)
    state = replay.state
    for number, line in enumerate(lines, start=1):
        assert schema_errors(line) == [], line
        assert line["step"] == number
        if "fault" in line:
            assert number == len(lines) and line["status"] == machine.stop_name
            break
        before = state.copy()
        replay.run(1)
        assert state.steps == number and line["pc"] == before.pc
        covered = {address for span in line["ub_writes"] for address, _lane in span_bytes(span)}
        changed = set(np.flatnonzero(before.ub != state.ub).tolist())
        assert changed <= covered, (line["text"], sorted(changed - covered)[:4])
        listed = {reg["reg"]: reg for reg in line["regs"]}
        for file, array, before_array in (("v", state.vreg, before.vreg), ("s", state.sreg, before.sreg),
                                         ("a", state.areg, before.areg), ("p", state.preg, before.preg)):
            for n in range(array.shape[0]):
                if not np.array_equal(array[n], before_array[n]):
                    assert f"{file}{n}" in listed, (line["text"], f"{file}{n}")
        for n in range(state.ureg.shape[0]):
            if not (np.array_equal(state.ureg[n], before.ureg[n]) and np.array_equal(state.ureg_state[n], before.ureg_state[n])):
                assert f"u{n}" in listed, (line["text"], f"u{n}")
        for n in range(state.qreg.shape[0]):
            if not (np.array_equal(state.qreg[n], before.qreg[n]) and np.array_equal(state.qreg_state[n], before.qreg_state[n])):
                assert f"q{n}" in listed, (line["text"], f"q{n}")
        for k, name in enumerate(SPR_NAMES):
            if state.spr[k] != before.spr[k]:
                assert name in listed, (line["text"], name)
        if not np.array_equal(state.hwloop, before.hwloop):
            assert "LOOP" in listed, (line["text"], "LOOP")
        if state.ctrlreg[0] != before.ctrlreg[0]:
            assert "CTRL" in listed, line["text"]
        if not np.array_equal(state.mask_spr, before.mask_spr):
            assert "MASK" in listed, line["text"]
        for name, reg in listed.items():
            if name == "MASK":
                assert [reg["mask0"], reg["mask1"]] == state.mask_spr[:2].view(np.uint64).tolist()
                continue
            if name in SPR_NAMES:
                assert reg["value"] == int(state.spr[SPR_NAMES.index(name)])
                continue
            if name == "CTRL":
                assert reg["value"] == int(state.ctrlreg[0])
                continue
            if name == "LOOP":
                active = [row for row in state.hwloop.tolist() if row[1]]
                assert [reg["index"], reg["count"]] == [[i for i, _ in active], [c for _, c in active]]
                continue
            n = int(name[1:])
            if name[0] == "q":
                assert reg["position"] == state.qreg_state[n][1] and reg["hex"] == state.qreg[n].tobytes().hex()
            elif name[0] == "u":
                assert [reg["pending"], reg["addr"]] == state.ureg_state[n].tolist()
                assert reg["hex"] == state.ureg[n, :reg["pending"]].tobytes().hex()
            elif name[0] in "sa":
                assert reg["value"] == int((state.sreg if name[0] == "s" else state.areg)[n])
            elif name[0] == "p":
                assert reg["hex"] == state.preg[n].tobytes().hex()
            else:
                etype = dtypes.lookup(reg["type"])
                expected = state.vreg[n].view(etype.np_dtype)
                got = np.array([float(x) if isinstance(x, str) else x for x in reg["lanes"]])
                assert np.array_equal(got, expected.astype(got.dtype), equal_nan=True)
    assert machine.stop_name != "RUNNING"


@SETTINGS
@given(programs())
def test_both_executors_log_the_same_accesses(source):
    """The write log is a fact of execution: the reference executor and the engine log the same
    records, step by step, on random programs (faults, gathers and scatters included)."""
    program = assemble(source, "random.s")
    ref, cy = Machine(program, "ref", max_steps=MAX_STEPS), Machine(program, "cy", max_steps=MAX_STEPS)
    ref_log, cy_log = StepLog(program, ref), StepLog(program, cy)
    while ref.stop_name == "RUNNING":
        _pc, _effects, ref_records = ref_log.step()
        _pc, _effects, cy_records = cy_log.step()
        assert ref_records.tolist() == cy_records.tolist()
    assert cy.stop_name == ref.stop_name


@SETTINGS
@given(programs(), st.sampled_from(("ref", "cy")))
def test_the_log_names_every_ub_byte_a_step_changes(source, engine):
    """Everything a step changes in the UB and its per-byte bookkeeping lies in the bytes its log
    says it wrote, so an undo log built from it is complete."""
    program = assemble(source, "random.s")
    machine = Machine(program, engine, max_steps=MAX_STEPS)
    log = StepLog(program, machine)
    while machine.stop_name == "RUNNING":
        before = machine.state.copy()
        _pc, _effects, records = log.step()
        written = set(written_bytes(records).tolist())
        changed = np.flatnonzero((machine.state.ub != before.ub) | (machine.state.ub_write_row != before.ub_write_row))
        assert set(changed.tolist()) <= written


@SETTINGS
@given(programs(), st.sampled_from(("ref", "cy")), st.sampled_from(("keep", "zero")))
def test_back_restores_the_whole_state_after_every_step(source, engine, store_inactive):
    """Every byte a step changed comes back, whatever the instruction and store mode: the undo log is
    built from the executor's own account of its writes (its write log), not from a prediction."""
    program = assemble(source, "random.s")
    machine = Machine(program, engine, max_steps=MAX_STEPS, store_inactive=store_inactive)
    recorder = Recorder(program, machine)
    states = [machine.state.copy()]
    while machine.stop_name == "RUNNING":
        recorder.step()
        states.append(machine.state.copy())
    for expected in reversed(states[:-1]):
        assert recorder.back(1) == 1
        assert machine.state.first_difference(expected) is None


def trace_last_writers(lines: list[dict]) -> tuple[dict, dict]:
    """From a trace: {UB byte: (step, lane, src)} and {register name: step} of the last writes."""
    ub, regs = {}, {}
    for line in lines:
        for span in line["ub_writes"]:
            for address, lane in span_bytes(span):
                ub[address] = (line["step"], -1 if lane is None else lane, span["src"])
        for reg in line["regs"]:
            regs[reg["reg"]] = line["step"]
    return ub, regs


# the register file of each operand kind a UB write can come from (docs/debugger.md "Trace JSON schema":
# a flush of an unaligned store stream writes from its u register)
SOURCE_FILES = {Kind.VREG: "v", Kind.SREG: "s", Kind.PREG: "p", Kind.UREG: "u"}


def check_writers_against_trace(recorder: Recorder, program, lines: list[dict]):
    ub, regs = trace_last_writers(lines)
    addresses = np.arange(UB_SIZE)
    rows = recorder.last_writers("ub", addresses)
    written = np.flatnonzero(rows["step"] >= 0)
    assert set(written.tolist()) == set(ub)
    for address in written.tolist():
        row = rows[address]
        step, lane, src = ub[address]
        insn = program.insns[int(row["pc"])]
        src_name = None if row["src"] < 0 else (
            SOURCE_FILES[insn.spec.operands[row["src"]].kind] + str(insn.operands[row["src"]]))
        assert (int(row["step"]), int(row["lane"]), src_name) == (step, lane, src), hex(address)
        assert lines[step - 1]["pc"] == int(row["pc"])
    for file, count in (("s", 32), ("a", 8), ("p", 8), ("u", 4), ("q", 4)):
        rows = recorder.last_writers(file, np.arange(count))
        for n in range(count):
            assert int(rows[n]["step"]) == regs.get(f"{file}{n}", -1), f"{file}{n}"
    rows = recorder.last_writers("v", np.arange(32) * VL)
    for n in range(32):
        assert int(rows[n]["step"]) == regs.get(f"v{n}", -1), f"v{n}"


# bytes written from a u register: an unaligned stream store of 40 bytes from dst + 6 writes up to the
# 32-byte block boundary and leaves the other 14 pending in u1, which the flush writes
STREAM_FLUSH = """
.ub src f16[256] = i
.ub dst u16[256] = 0
    vld v0.f16, [src]
    vstus [dst + 6], u1, v0.f16, 20
    vstas [dst + 46], u1
    halt
"""


@SETTINGS
@given(programs(), st.integers(0, 3))
@example(STREAM_FLUSH, 0)
@example(STREAM_FLUSH, 1)
def test_why_agrees_with_trace(source, mode):
    """The last writer of every UB byte and register, as `why` answers it, is the last trace line that
    wrote it: recorded step by step (mode 0), run fast (1), run checked (2), or mixed (3)."""
    program = assemble(source, "random.s")
    lines, _ = trace_of(program, max_steps=MAX_STEPS)
    machine = Machine(program, ENGINE, max_steps=MAX_STEPS)
    recorder = Recorder(program, machine)
    if mode == 0:
        while machine.stop_name == "RUNNING":
            recorder.step()
    elif mode == 1:
        recorder.run_fast()
    elif mode == 2:
        recorder.run_checked(lambda pc: False)
    else:
        for _ in range(7):
            recorder.step()
        recorder.run_fast(5)
        for _ in range(3):
            recorder.step()
        recorder.run_checked(lambda pc: False)
    check_writers_against_trace(recorder, program, lines)


def test_why_search_in_a_long_fast_run():
    """A segment longer than one search chunk: the last writers come from its last chunk."""
    source = """
    .ub out u16[16]
        mov s0, 0
    loop:
        st [out], s0.u16
        add s0, s0, 1
        blt s0, 3000, loop
        st [out + 2], s0.u16
        halt
    """
    program = assemble(source, "long.s")
    machine = Machine(program, ENGINE)
    recorder = Recorder(program, machine)
    recorder.run_fast()
    assert machine.state.steps == 1 + 3 * 3000 + 2
    rows = recorder.last_writers("ub", np.arange(4))
    assert rows["step"].tolist() == [3 * 3000 - 1, 3 * 3000 - 1, 3 * 3000 + 2, 3 * 3000 + 2]
    assert rows["pc"].tolist() == [1, 1, 4, 4]
    assert recorder.last_writers("s", np.array([0]))["step"].tolist() == [3 * 3000]
    assert machine.state.steps == 1 + 3 * 3000 + 2      # the search leaves the state where it was
