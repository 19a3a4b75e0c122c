"""Squeeze (vsqz, vsqz.st, vusqz), the special registers AR and SQZN (sprclr.ar), and unaligned store
streams (vstus, vstur, vstas, vstar): c-api-reg asc_squeeze, asc_squeeze_with_status, asc_unsqueeze,
asc_clear_ar_spr, asc_storeunalign, asc_storeunalign_post. Expected values are worked by hand or come
from the pages' examples and small numpy models written here."""
import json

import numpy as np
import pytest
from conftest import run_cli, run_source

from ascasm import AssemblyFailed, assemble
from ascasm.isa.table import BY_CAPI
from ascasm.state import SPR_AR, SPR_SQZN, SPR_SQZN_SET


def buffer(machine, name):
    return machine.program.buffers[name].view(machine.state.ub)


def test_squeeze_packs_the_active_lanes_low_and_zeroes_the_rest(engine):
    # facts §11 (the squeeze example): an M4 mask over 64 floats keeps x[0::4]
    machine = run_source("""
        .ub x   f32[64] = 0.5 * i - 3
        .ub out f32[64] = 99
            mask p0.b32, ALL
            mask p1.b32, M4
            vld  v0.f32, [x]
            vsqz v0.f32, v0.f32, p1          ; in place: vD is vS
            vsta [out], v0.f32, p0
            halt
    """, engine)
    x = 0.5 * np.arange(64, dtype=np.float32) - 3
    assert list(buffer(machine, "out")) == list(x[0::4]) + [0.0] * 48
    assert not machine.state.spr[SPR_SQZN_SET], "vsqz (asc_squeeze) leaves SQZN alone"


@pytest.mark.parametrize("etype, pattern, kept", [("u8", "VL16", 16), ("s16", "M3", 43), ("f32", "ALLF", 0)])
def test_squeeze_with_status_sets_sqzn_to_the_bytes_kept(engine, etype, pattern, kept):
    width = {"u8": 1, "s16": 2, "f32": 4}[etype]
    machine = run_source(f"""
            mask p1.b{8 * width}, {pattern}
            vci  v0.{"s8" if etype == "u8" else etype}, 1             ; (asc_arange has no u8)
            vsqz.st v1.{etype}, v0.{etype}, p1
            halt
    """, engine)
    assert machine.state.spr[SPR_SQZN] == kept * width and machine.state.spr[SPR_SQZN_SET] == 1
    lanes = machine.state.vreg[1].view({"u8": np.uint8, "s16": np.int16, "f32": np.float32}[etype])
    step = 3 if pattern == "M3" else 1
    assert list(lanes[:kept]) == [1 + step * k for k in range(kept)] and not lanes[kept:].any()


def test_unsqueeze_counts_the_active_lanes_below_each_lane(engine):
    # asc_unsqueeze: dst[0] = 0, dst[i] = dst[i-1] + mask[i-1]; with VL3 on u32: 0 1 2 3 3 3 ...
    machine = run_source("""
            mask  p1.b32, VL3
            vusqz v2.u32, p1
            mask  p2.b8, M4
            vusqz v3.u8, p2
            halt
    """, engine)
    assert list(machine.state.vreg[2].view(np.uint32)) == [0, 1, 2] + [3] * 61
    active = np.arange(256) % 4 == 0
    expected = np.concatenate(([0], np.cumsum(active)[:-1]))      # 64 active: the top lane reads 64
    assert (machine.state.vreg[3] == expected).all() and machine.state.vreg[3][255] == 64


def test_storeunalign_page_example(engine):
    # asc_storeunalign's example: 64 u32 at UB 8, twice, then the residue flushed with offset 128 elements:
    # UB 8..519 hold the lanes twice; nothing outside is touched
    machine = run_source("""
        .ub ub  u8[1024] = 0xEE @ 0
        .ub src u32[64] = i + 1
            vld   v0.u32, [src]
            vstus [8], u0, v0.u32, 64
            vstus [8 + 256], u0, v0.u32, 64
            vstas [8 + 512], u0
            halt
    """, engine)
    ub = machine.state.ub
    lanes = np.arange(1, 65, dtype=np.uint32).view(np.uint8)
    assert (ub[8:264] == lanes).all() and (ub[264:520] == lanes).all()
    assert (ub[:8] == 0xEE).all() and (ub[520:1024] == 0xEE).all()
    assert machine.state.ureg_state.tolist()[0] == [0, 0] and not machine.state.ureg.any()


def test_a_stream_writes_whole_blocks_and_keeps_the_residue(engine):
    # after the first store of the page's example: UB 8..255 written, src[62:64] wait in u0 for UB 256
    machine = run_source("""
        .ub ub  u8[512] = 0xEE @ 0
        .ub src u32[64] = i + 1
            vld   v0.u32, [src]
            vstus [8], u0, v0.u32, 64
            halt
    """, engine)
    ub = machine.state.ub
    assert (ub[8:256] == np.arange(1, 63, dtype=np.uint32).view(np.uint8)).all()
    assert (ub[256:512] == 0xEE).all() and (ub[:8] == 0xEE).all()
    assert machine.state.ureg_state.tolist()[0] == [8, 256]
    assert list(machine.state.ureg[0, :8].view(np.uint32)) == [63, 64] and not machine.state.ureg[0, 8:].any()


def compaction_source(data: list, threshold: float) -> str:
    return f"""
        .ub x   f32[{len(data)}] = {data}
        .ub out f32[{len(data) + 8}] = -1
            mask    p0.b32, ALL
            vdup    v3.f32, {threshold}
            sprclr.ar
            mov     s0, 0
        loop:
            vld     v0.f32, [x + s0]
            vcmp.gt p1, v0.f32, v3.f32, p0
            vsqz.st v1.f32, v0.f32, p1
            vstur   [out], u0, v1.f32
            add     s0, s0, 256
            blt     s0, {4 * len(data)}, loop
            vstar   [out], u0
            halt
    """


def test_compaction_stores_the_active_lanes_contiguously(engine):
    # W3 in small: compare, squeeze with status, AR-addressed unaligned store, one flush at the end
    rng = np.random.default_rng(11)
    data = rng.integers(0, 8, 256).astype(np.float32) / 8
    machine = run_source(compaction_source(data.tolist(), 0.5), engine)
    kept = data[data > 0.5]
    out = buffer(machine, "out")
    assert list(out[:kept.size]) == list(kept) and (out[kept.size:] == -1).all()
    assert machine.state.spr[SPR_AR] == 4 * kept.size


def test_clear_ar_spr_page_example_in_halves(engine):
    # asc_clear_ar_spr's example: PAT_M4 on halves, squeeze with status, AR-addressed stores
    machine = run_source("""
        .ub src half[256] = i
        .ub dst half[64] = -1
            mask    p0.b16, M4
            sprclr.ar
            mov     s0, 0
        loop:
            vld     v0.f16, [src + s0]
            vsqz.st v1.f16, v0.f16, p0
            vstur   [dst], u2, v1.f16
            add     s0, s0, 256
            blt     s0, 512, loop
            vstar   [dst], u2
            halt
    """, engine)
    assert list(buffer(machine, "dst")) == list(range(0, 256, 4))


def test_sprclr_restarts_the_offset(engine):
    machine = run_source("""
        .ub out u8[64]
            mask    p0.b8, VL4
            vci     v0.s8, 1
            vsqz.st v1.u8, v0.u8, p0
            vstur   [out], u0, v1.u8
            vstar   [out], u0
            sprclr.ar
            vstur   [out + 32], u0, v1.u8
            vstar   [out + 32], u0
            halt
    """, engine)
    assert list(buffer(machine, "out")[:36]) == [1, 2, 3, 4] + [0] * 28 + [1, 2, 3, 4]
    assert machine.state.spr[SPR_AR] == 4


def test_a_flush_of_an_empty_stream_writes_nothing(engine):
    machine = run_source("""
        .ub out u8[64] = 5
            vstas [out + 3], u3
            halt
    """, engine)
    assert (buffer(machine, "out") == 5).all() and machine.fault() is None


def test_stream_faults_write_nothing(engine):
    # a flush that does not end where the pending bytes do; the 4 pending bytes stay pending
    machine = run_source("""
        .ub out u32[64] = 9
            vdup  v0.u32, 7
            vstus [out + 8], u1, v0.u32, 1
            vstas [out + 16], u1
            halt
    """, engine)
    fault = machine.fault()
    assert fault.kind == "STREAM_BREAK" and fault.step == 3
    out_addr = machine.program.buffers["out"].addr
    assert (buffer(machine, "out") == 9).all() and machine.state.ureg_state.tolist()[1] == [4, out_addr + 8]


def test_misaligned_and_out_of_range_stream_stores_fault(engine):
    misaligned = run_source("""
            vstus [2], u0, v0.u32, 1
    """, engine)
    assert misaligned.fault().kind == "MISALIGNED"
    past_end = run_source("""
            vstus [253952 - 8], u0, v0.u32, 4
    """, engine)
    assert past_end.fault().kind == "UB_RANGE" and not past_end.state.ub.any()


def test_stream_stores_after_a_store_without_membar_warn(engine):
    machine = run_source("""
        .ub out u32[128]
            mask  p0.b32, ALL
            vdup  v0.u32, 3
            vsta  [out], v0.u32, p0
            vstus [out], u0, v0.u32, 64
            halt
    """, engine)
    assert machine.state.hazard_warn[3][0] == 1


def test_ureg_operands_are_checked_when_assembling():
    with pytest.raises(AssemblyFailed) as failed:
        assemble("    vstus [0], u4, v0.u32, 1\n")
    assert "there is no register u4" in str(failed.value)
    with pytest.raises(AssemblyFailed) as failed:
        assemble("    vstas [0], v1\n")
    assert "must be an unaligned store register" in str(failed.value)


def test_explain_finds_the_rows_by_their_c_api_names():
    for name, mnemonic in (("asc_squeeze", "vsqz"), ("asc_squeeze_with_status", "vsqz.st"),
                           ("asc_unsqueeze", "vusqz"), ("asc_clear_ar_spr", "sprclr.ar"),
                           ("asc_storeunalign", "vstus"), ("asc_storeunalign_post", "vstas")):
        assert mnemonic in BY_CAPI[name]
    result = run_cli("explain", "asc_squeeze_with_status")
    assert result.returncode == 0 and "vsqz.st vD.T, vS.T, pM" in result.stdout and "SQZN" in result.stdout


def test_trace_shows_the_special_and_unaligned_store_registers(tmp_path):
    source = tmp_path / "c.s"
    source.write_text(compaction_source([0.25, 0.75] * 32, 0.5))
    result = run_cli("run", source, "--trace=-")
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    squeeze = next(r for r in records if r["insn"] == "vsqz.st")
    store = next(r for r in records if r["insn"] == "vstur")
    assert {"reg": "SQZN", "value": 128} in squeeze["regs"]
    assert {"reg": "AR", "value": 128} in store["regs"]
    assert {"reg": "u0", "pending": 0, "addr": 0, "hex": ""} in store["regs"]
