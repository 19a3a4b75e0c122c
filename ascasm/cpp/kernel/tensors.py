"""GlobalTensor and LocalTensor: addresses, operator[], GetValue/SetValue and the other methods."""
from __future__ import annotations

from .. import ir
from ..clang import error_at
from ..cpptypes import S64, U32, U64, CType
from ..values import Const
from .objects import ALIGN, GM_SCALAR_SCRATCH, UB_BYTES, GlobalTensorObj, LocalTensorObj, UbRegion, \
    global_ctype, tensor_ctype


class TensorAccess:
    """Mixin of KernelLowering: the GlobalTensor and LocalTensor methods."""
    def api_GlobalTensorObj_SetGlobalBuffer(self, c, tensor, callee, args):
        address = self.expr(args[0])
        reg = ir.RV(self.new_reg("s", "gm address"), U64)
        self.store(reg, address if not isinstance(address, ir.RV) else ir.RV(address.reg, U64))
        tensor.addr = reg
        return Const(0, S64)

    def api_GlobalTensorObj_GetPhyAddr(self, c, tensor, callee, args):
        return ir.RV(self.offset(tensor, args).reg, CType("ptr", tensor.etype.etype))

    def api_subscript(self, c, tensor, callee, args):
        if isinstance(tensor, GlobalTensorObj):
            self.check_global(c, tensor)
            return Const(GlobalTensorObj(tensor.etype, self.offset(tensor, args)), global_ctype(tensor.etype))
        return Const(self.local_at(c, tensor, args), tensor_ctype(tensor.etype))

    def api_GlobalTensorObj_GetValue(self, c, tensor, callee, args):
        """One element of GM read by the scalar side: no row reads GM but the data moves, so it is a
        one-element move into a scratch block at the UB's end, then `ld` (docs/frontend.md)."""
        scratch, burst = self.gm_scalar_move(c, tensor)
        address = self.offset(tensor, args[:1])
        self.emit("gm2ub.align.b8", ir.Mem(ir.view(scratch.reg)), ir.Mem(ir.view(address.reg)), *burst)
        self.emit("membar")         # the scalar read waits for its move
        reg = self.new_reg("s")
        self.emit("ld", ir.view(reg, tensor.etype.etype), ir.Mem(ir.view(scratch.reg)))
        return ir.RV(reg, tensor.etype)

    def api_GlobalTensorObj_SetValue(self, c, tensor, callee, args):
        scratch, burst = self.gm_scalar_move(c, tensor)
        value = self.materialize(self.convert(self.expr(args[1]), tensor.etype), tensor.etype)
        address = self.offset(tensor, args[:1])
        self.emit("st", ir.Mem(ir.view(scratch.reg)), ir.view(value.reg, tensor.etype.etype))
        count, length, _lp, _rp, _c, gm_stride, ub_stride = burst
        self.emit("ub2gm.align", ir.Mem(ir.view(address.reg)), ir.Mem(ir.view(scratch.reg)), count, length,
                  gm_stride, ub_stride)
        return Const(0, S64)

    def gm_scalar_move(self, c, tensor):
        """The scratch block's address and the operands of a one-element burst (count 1, the element's
        bytes, no padding, strides of one burst)."""
        self.check_global(c, tensor)
        if not any(r.name == GM_SCALAR_SCRATCH for r in self.ub_regions):
            self.ub_regions.append(UbRegion(GM_SCALAR_SCRATCH, UB_BYTES - ALIGN, ALIGN))
        scratch = self.materialize(Const(UB_BYTES - ALIGN, U64))
        regs = [self.materialize(Const(v, U64)) for v in (1, tensor.etype.width, 0, 0, 0, tensor.etype.width, ALIGN)]
        return scratch, [r.reg for r in regs]

    def offset(self, tensor, args):
        """The tensor's address plus args[0] elements, in a new s register."""
        self.check_global(None, tensor)
        result = ir.RV(self.new_reg("s"), U64)
        if not args:
            self.store(result, tensor.addr)
            return result
        index = self.expr(args[0])
        scaled = self.arith(None, "*", self.convert(index, U64), Const(tensor.etype.width, U64))
        self.store(result, self.arith(None, "+", ir.RV(tensor.addr.reg, U64), scaled))
        return result

    def check_global(self, c, tensor):
        if tensor.addr is None:
            raise error_at(c, "a GlobalTensor used before SetGlobalBuffer")

    # LocalTensor
    def local_at(self, c, tensor, args) -> LocalTensorObj:
        if tensor.addr is None:
            raise error_at(c, "a LocalTensor used before it was allocated (AllocTensor, DeQue or TBuf::Get)")
        index = self.expr(args[0]) if args else Const(0, U64)
        if isinstance(index, Const) and isinstance(tensor.addr, Const):
            delta = int(self.const_number(index)) * tensor.etype.width
            return LocalTensorObj(tensor.etype, Const(int(tensor.addr.value) + delta, U64),
                                  max(0, tensor.nbytes - delta))
        scaled = self.arith(None, "*", self.convert(index, U64), Const(tensor.etype.width, U64))
        addr = ir.RV(self.new_reg("s"), U64)
        self.store(addr, self.arith(None, "+", self.scalar_reg(tensor.addr), scaled))
        return LocalTensorObj(tensor.etype, addr, tensor.nbytes)

    def address_reg(self, tensor) -> ir.RV:
        return self.scalar_reg(tensor.addr)     # callers checked that it has one

    def api_LocalTensorObj_GetPhyAddr(self, c, tensor, callee, args):
        return ir.RV(self.address_reg(self.local_at(c, tensor, args)).reg, U64)   # local_at checks the address

    def api_LocalTensorObj_ReinterpretCast(self, c, tensor, callee, args):
        etype = self.template_type(c, callee)
        return Const(LocalTensorObj(etype, tensor.addr, tensor.nbytes, tensor.queue, tensor.slot, tensor.where),
                     tensor_ctype(etype))

    def api_LocalTensorObj_GetValue(self, c, tensor, callee, args):
        address = self.address_reg(self.local_at(c, tensor, args))
        reg = self.new_reg("s")
        self.emit("ld", ir.view(reg, tensor.etype.etype), ir.Mem(ir.view(address.reg)))
        return ir.RV(reg, tensor.etype)

    def api_LocalTensorObj_SetValue(self, c, tensor, callee, args):
        address = self.address_reg(self.local_at(c, tensor, args[:1]))
        value = self.materialize(self.convert(self.expr(args[1]), tensor.etype), tensor.etype)
        self.emit("st", ir.Mem(ir.view(address.reg)), ir.view(value.reg, tensor.etype.etype))
        return Const(0, S64)

    def api_LocalTensorObj_GetSize(self, c, tensor, callee, args):
        return Const(tensor.nbytes // tensor.etype.width, U32)

    api_LocalTensorObj_GetLength = api_LocalTensorObj_GetSize
