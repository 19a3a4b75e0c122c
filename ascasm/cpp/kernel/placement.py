"""UB placement and queues: TPipe::InitBuffer places each queue's blocks and each TBuf in the UB in call
order; TQue AllocTensor/EnQue/DeQue/FreeTensor hand out and take back those blocks; TBuf::Get and
LocalMemAllocator::Alloc give tensors at fixed places."""
from __future__ import annotations

from .. import ir
from ..clang import error_at
from ..cpptypes import BOOL, S64, U64
from ..values import Const
from .objects import ALIGN, UB_BYTES, BufObj, LocalTensorObj, QueueObj, UbRegion, aligned, tensor_ctype


class UbPlacement:
    """Mixin of KernelLowering: TPipe, TQue, TBuf and LocalMemAllocator."""
    def api_PipeObj_InitBuffer(self, c, pipe, callee, args):
        target = self.object_of(args[0])
        if isinstance(target, QueueObj) and len(args) == 3:
            num = self.const_arg(c, args[1], "InitBuffer's block count")
            length = self.const_arg(c, args[2], "InitBuffer's length")
            target.length = aligned(length)
            target.blocks = [self.place_ub(f"{target.name}_{k}" if num > 1 else target.name, target.length, c)
                             for k in range(num)]
        elif isinstance(target, BufObj) and len(args) == 2:
            target.length = aligned(self.const_arg(c, args[1], "InitBuffer's length"))
            target.addr = self.place_ub(target.name, target.length, c)
        else:
            raise error_at(c, "InitBuffer(queue, num, len) or InitBuffer(buf, len) is supported")
        return Const(1, BOOL)

    def place_ub(self, name, nbytes, c) -> int:
        """The next `nbytes` of the UB, in InitBuffer's call order from address 0."""
        addr = self.ub_next
        if addr + nbytes > UB_BYTES - ALIGN:
            raise error_at(c, f"InitBuffer: {addr + nbytes:,} bytes of UB needed; the queues and buffers may use "
                              f"{UB_BYTES - ALIGN:,} (the usable UB less the scratch block of GlobalTensor::GetValue)")
        names = {r.name for r in self.ub_regions}
        unique = name if name not in names else \
            next(f"{name}_{k}" for k in range(2, 1000) if f"{name}_{k}" not in names)
        self.ub_regions.append(UbRegion(unique, addr, nbytes))
        self.ub_next = addr + nbytes
        return addr

    # TQue
    def api_QueueObj_AllocTensor(self, c, queue, callee, args):
        etype = self.template_type(c, callee)
        if not queue.blocks:
            raise error_at(c, f"AllocTensor from queue '{queue.name}' before TPipe::InitBuffer gave it memory")
        free = [k for k in range(len(queue.blocks)) if k not in queue.allocated]
        if not free:
            raise error_at(c, f"AllocTensor: every block of queue '{queue.name}' ({len(queue.blocks)}) is allocated "
                              "and not yet freed")
        slot = free[0]
        queue.allocated[slot] = c
        return Const(LocalTensorObj(etype, Const(queue.blocks[slot], U64), queue.length, queue, slot, c),
                     tensor_ctype(etype))

    def api_QueueObj_EnQue(self, c, queue, callee, args):
        tensor = self.tensor_arg(args[0], LocalTensorObj)
        if tensor.queue is not queue or tensor.slot not in queue.allocated:
            raise error_at(c, f"EnQue of a tensor that was not allocated from queue '{queue.name}'")
        queue.queued.append(tensor)
        return Const(1, BOOL)

    def api_QueueObj_DeQue(self, c, queue, callee, args):
        if not queue.queued:
            raise error_at(c, f"DeQue of the empty queue '{queue.name}': no tensor was enqueued on it (EnQue)")
        tensor = queue.queued.pop(0)
        etype = self.template_type(c, callee, tensor.etype)
        # DeQue waits for the tensor's producer (a data move, or the vector pipe): a wait of every pipe here
        self.emit("pipebar", ir.Word("PIPE_ALL"))
        return Const(LocalTensorObj(etype, tensor.addr, tensor.nbytes, queue, tensor.slot, tensor.where),
                     tensor_ctype(etype))

    def api_QueueObj_FreeTensor(self, c, queue, callee, args):
        tensor = self.tensor_arg(args[0], LocalTensorObj)
        if tensor.queue is not queue or tensor.slot not in queue.allocated:
            raise error_at(c, f"FreeTensor of a tensor that is not allocated from queue '{queue.name}'")
        if any(t.slot == tensor.slot for t in queue.queued):
            raise error_at(c, f"FreeTensor of a tensor still enqueued on '{queue.name}' (DeQue it first)")
        del queue.allocated[tensor.slot]
        return Const(0, S64)

    # TBuf
    def api_BufObj_Get(self, c, buf, callee, args):
        etype = self.template_type(c, callee)
        if buf.addr < 0:
            raise error_at(c, f"Get from TBuf '{buf.name}' before TPipe::InitBuffer gave it memory")
        nbytes = buf.length
        if args:
            nbytes = self.const_arg(c, args[0], "TBuf::Get's length") * etype.width
            if nbytes > buf.length:
                raise error_at(c, f"TBuf::Get of {nbytes} bytes from '{buf.name}', which has {buf.length}")
        return Const(LocalTensorObj(etype, Const(buf.addr, U64), nbytes), tensor_ctype(etype))

    # LocalMemAllocator
    def api_AllocatorObj_Alloc(self, c, allocator, callee, args):
        """A LocalTensor of tileSize elements (a template argument or the argument), placed after the UB
        taken so far, rounded up to 32 bytes as InitBuffer's blocks."""
        texts = [t for t in (self.explicit_template_args(callee) if callee is not None else [])
                 if "TPosition" not in t]
        etype = self.type_from_text(texts[0]) if texts else None
        if etype is None or not etype.is_scalar:
            raise error_at(c, "Alloc<T, tileSize>() or Alloc<T>(tileSize): give the element type")
        count = self.const_arg(c, args[0], "Alloc's tile size") if args else \
            int(self.const_number(self.template_arg_value(texts[1], c))) if len(texts) > 1 else None
        if count is None:
            raise error_at(c, "Alloc<T, tileSize>() or Alloc<T>(tileSize): give the tile size")
        allocator.count += 1
        addr = self.place_ub(f"{allocator.name}_{allocator.count}", aligned(count * etype.width), c)
        return Const(LocalTensorObj(etype, Const(addr, U64), count * etype.width), tensor_ctype(etype))
