"""Squeeze and the unaligned streams: vsqz/vusqz, the special registers AR and SQZN, the unaligned store
streams of the u registers and the unaligned load streams of the q registers (docs/semantics.md "Squeeze and
unaligned store streams")."""
from __future__ import annotations

import numpy as np

from ..isa.table import INSNS
from ..program import Addr, Insn
from ..state import LOG_READ, LOG_WRITE, SPR_AR, SPR_SQZN, SPR_SQZN_SET, UREG_ADDR, UREG_PENDING, VL
from .machine import Fault, Machine, wrap64


def vsqz(m: Machine, insn: Insn):
    # vsqz|vsqz.st vD.T, vS.T, pM  -- the active lanes in order -> the lowest lanes, the rest 0;
    # vsqz.st also sets SQZN to the bytes kept
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    kept = m.lanes(insn.operand("vS"), etype).view(etype.bits)[active]
    packed = np.zeros(etype.lanes, etype.bits)
    packed[:kept.size] = kept
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = packed
    if insn.spec.sub == "status":
        m.state.spr[SPR_SQZN] = kept.size * etype.width
        m.state.spr[SPR_SQZN_SET] = 1


def vusqz(m: Machine, insn: Insn):
    # vusqz vD.T, pM  -- lane i = the number of active lanes below i (lane 0: 0)
    (etype,) = insn.types
    active = m.active_lanes(insn.operand("pM"), etype.width)[:etype.lanes]
    below = np.concatenate(([0], np.cumsum(active)[:-1]))
    m.lanes(insn.operand("vD"), etype).view(etype.bits)[:] = below.astype(etype.bits)


def spr_clear(m: Machine, insn: Insn):
    # sprclr.ar  -- AR = 0
    m.state.spr[SPR_AR] = 0


def _stream_append(m: Machine, insn: Insn, u: int, address: int, data: np.ndarray, width: int, source="vS"):
    """Append the bytes `data` at `address` to the stream of unaligned store register u: the bytes
    pending in u followed by `data` form one run; the 32-byte blocks it completes are written now, the
    bytes of its last incomplete block stay pending in u."""
    state = m.state.ureg_state[u]
    pending, pending_at = int(state[UREG_PENDING]), int(state[UREG_ADDR])
    m.check_aligned(address, width)
    if pending and address != pending_at + pending:
        raise Fault("STREAM_BREAK", u, address, pending_at, pending)
    m.check_range(address, data.size)
    start = pending_at if pending else address
    end = address + data.size
    written_up_to = max(start, end - end % 32)
    run = np.concatenate([m.state.ureg[u, :pending], data])
    if written_up_to > start:
        m.check_in_ub(start, written_up_to - start)
        m.check_hazards()
        m.write_ub(start, run[:written_up_to - start])
        if pending:
            held = min(address, written_up_to) - start
            m.log_access(LOG_WRITE, insn, start, held, 1, held, -1, "uS")
        if written_up_to > address:
            m.log_access(LOG_WRITE, insn, address, width, (written_up_to - address) // width, width, 0, source)
    rest = run[written_up_to - start:]
    m.state.ureg[u] = 0
    m.state.ureg[u, :rest.size] = rest
    state[:] = (rest.size, written_up_to if rest.size else 0)


def vstus(m: Machine, insn: Insn):
    # vstus [addr], uS, vS.T, X  -- the low X lanes of vS appended to the stream of uS at addr
    (etype,) = insn.types
    count = m.value(insn.operand("X"))
    if not 0 <= count <= etype.lanes:
        raise Fault("BAD_COUNT", count, etype.lanes)
    data = m.state.vreg[insn.operand("vS")][:count * etype.width].copy()
    _stream_append(m, insn, insn.operand("uS"), m.address(insn.operand("[addr]")), data, etype.width)


def vstus_mask(m: Machine, insn: Insn):
    # vstus.pu [sB], uS, pS.T  -- element i's bit of pS (bit i*W), packed: 256/W bits appended at sB;
    # then sB += 32/W bytes
    width = insn.types[0].width
    register = insn.operand("[sB]")
    address = m.sreg(register)
    packed = np.packbits(m.mask_bits(insn.operand("pS"))[::width], bitorder="little")
    _stream_append(m, insn, insn.operand("uS"), address, packed, packed.size, "pS")
    m.set_sreg(register, wrap64(address + packed.size))


def vstur(m: Machine, insn: Insn):
    # vstur [base], uS, vS.T  -- the low SQZN bytes of vS appended at base + AR; then AR += SQZN
    (etype,) = insn.types
    spr = m.state.spr
    if not spr[SPR_SQZN_SET]:
        raise Fault("SPR_UNSET", SPR_SQZN)
    size = int(spr[SPR_SQZN])
    address = wrap64(m.address(insn.operand("[base]")) + int(spr[SPR_AR]))
    data = m.state.vreg[insn.operand("vS")][:size].copy()
    _stream_append(m, insn, insn.operand("uS"), address, data, etype.width)
    spr[SPR_AR] = wrap64(int(spr[SPR_AR]) + size)


def vstas(m: Machine, insn: Insn):
    # vstas|vstar [addr], uS  -- flush: the bytes pending in uS, which must end at addr (vstar: addr + AR)
    u = insn.operand("uS")
    state = m.state.ureg_state[u]
    pending, start = int(state[UREG_PENDING]), int(state[UREG_ADDR])
    end = m.address(insn.operand("[addr]"))
    if insn.spec.sub == "ar":
        end = wrap64(end + int(m.state.spr[SPR_AR]))
    if pending == 0:
        return
    if end != start + pending:
        raise Fault("STREAM_BREAK", u, end, start, pending)
    m.check_in_ub(start, pending)
    m.check_hazards()
    m.write_ub(start, m.state.ureg[u, :pending].copy())
    m.log_access(LOG_WRITE, insn, start, pending, 1, pending, -1, "uS")
    m.state.ureg[u] = 0
    state[:] = 0


def vstas_post(m: Machine, insn: Insn):
    # vstas.pu [sB], uS.T, X  -- asc_storeunalign_post_postupdate: the flush (vstas) at the stream's end
    # address sB + X elements of T; then sB holds that end
    register, width = insn.operand("[sB]"), insn.types[0].width
    start = m.sreg(register)
    m.check_aligned(start, width)
    end = wrap64(start + m.value(insn.operand("X")) * width)
    flush_spec = next(spec for spec in INSNS if spec.family == "vstas" and spec.sub == "plain")
    vstas(m, Insn(flush_spec, (), (Addr(end), insn.operand("uS")), insn.loc))
    m.set_sreg(register, end)


def _hold_block(m: Machine, insn: Insn, q: int, position: int):
    """q := the block holding `position` (zeros when position is 32-byte aligned), for that position."""
    m.state.qreg[q] = 0
    if position % 32:
        block = position - position % 32
        m.state.qreg[q] = m.state.ub[block:block + 32]
        m.log_access(LOG_READ, insn, block, 32, 1, 32, -1, "qL")
    m.state.qreg_state[q] = (1, position)


def vldas(m: Machine, insn: Insn):
    # vldas qL, [addr]  -- start an unaligned load stream at addr
    q, address = insn.operand("qL"), m.address(insn.operand("[addr]"))
    m.check_range(address, 0)
    if address % 32:
        m.check_in_ub(address - address % 32, 32, start=address)
        m.check_hazards()
    _hold_block(m, insn, q, address)


def _load_unaligned(m: Machine, insn: Insn, address: int, advance: int):
    """vD = the 256 bytes from address: those below the next 32-byte boundary from q's block, the rest
    from the UB; then q holds the block of address + advance."""
    (etype,) = insn.types
    q = insn.operand("qL")
    loaded_for, position = (int(x) for x in m.state.qreg_state[q])
    if not loaded_for:
        raise Fault("ALIGN_UNSET", q)
    if address != position:
        raise Fault("ALIGN_BREAK", q, address, position)
    m.check_aligned(address, etype.width)
    head = -address % 32
    m.check_in_ub(address + head, VL - head, start=address)
    following = wrap64(address + advance)
    if following % 32:
        m.check_in_ub(following - following % 32, 32, start=address)     # read with this vector
    m.check_hazards()
    loaded = np.concatenate([m.state.qreg[q, address % 32:address % 32 + head], m.state.ub[address + head:address + VL]])
    m.state.vreg[insn.operand("vD")] = loaded
    m.log_access(LOG_READ, insn, address + head, etype.width, (VL - head) // etype.width, etype.width,
                 head // etype.width, "vD")
    _hold_block(m, insn, q, following)


def vldus(m: Machine, insn: Insn):
    # vldus vD.T, qL, [addr]  -- the next position is addr + 256
    _load_unaligned(m, insn, m.address(insn.operand("[addr]")), VL)


def vldus_post(m: Machine, insn: Insn):
    # vldus.pu vD.T, qL, [sB], X  -- at the address in sB; sB and the stream advance by X elements
    register = insn.operand("[sB]")
    advance = wrap64(m.value(insn.operand("X")) * insn.types[0].width)
    _load_unaligned(m, insn, m.sreg(register), advance)
    m.set_sreg(register, m.sreg(register) + advance)
