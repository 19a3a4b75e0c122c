"""Whole kernels: a `__global__ __aicore__` entry translated with its scalar code (docs/frontend.md
"Whole kernels").

The kernel-side API lives at translation time. A kernel class object, a TPipe, a TQue, a TBuf and a
LocalTensor are Python objects the translator holds (every method is inlined): a LocalTensor is a UB
address, placed when TPipe::InitBuffer runs; a GlobalTensor is a GM address in an s register. Scalar
members of a kernel class live in s registers. The data moves, flags and system variables become the
machine's rows (gm2ub, ub2gm, setflag, blkidx, ...), where their semantics live.

KernelLowering is the vector-function lowering plus one mixin per part of the kernel-side API, each in
its own module of this package (the package's __init__ lists them)."""
from __future__ import annotations

from ..clang import error_at
from ..cpptypes import CType, split_template_args
from ..lower import Lowering
from .control import QueueBalance
from .datamoves import DataMoves
from .dispatch import ApiCalls
from .members import KernelClasses
from .objects import api_class
from .placement import UbPlacement
from .sync import SyncAndSystem
from .tensors import TensorAccess


class KernelLowering(KernelClasses, QueueBalance, ApiCalls, UbPlacement, TensorAccess, DataMoves, SyncAndSystem,
                     Lowering):
    """The lowering of a whole kernel: the vector-function lowering plus the kernel-side API."""
    whole_kernel = True

    def __init__(self, index, file, clang_errors=(), tiling=None, tiling_key=None):
        super().__init__(index, file, clang_errors)
        self.tiling = tiling            # {field: value} from --tiling, or None
        self.tiling_key = tiling_key
        self.tiling_bytes = None        # (tiling parameter, bytes) once GET_TILING_DATA read them
        self.this: list = []            # the objects whose methods are being inlined
        self.vector_depth = 0           # inside a __simd_vf__ function or a __VEC_SCOPE__ block
        self.ub_next = 0
        self.ub_regions: list = []
        self.queues: list = []
        self.writes: dict = {}          # class -> {member: how many places assign it}
        self.pending_inits: dict = {}   # a constructor body's hash -> (object, its member initialisers)

    # --- types and declarations -----------------------------------------------------------
    def resolve_type(self, ctype, cursor=None):
        found = api_class(ctype.spelling) or api_class(ctype.get_canonical().spelling)
        if found is not None:
            return CType("struct", name="AscendC::" + found[0] + (f"<{found[1]}>" if found[1] else ""))
        return super().resolve_type(ctype, cursor)

    def element_of(self, ctype: CType, c) -> CType:
        args = api_class(ctype.name)[1]
        element = self.type_from_text(split_template_args(args)[0]) if args else None
        if element is None or not element.is_scalar:
            raise error_at(c, f"{ctype.name}: the element type must be a scalar type")
        return element
