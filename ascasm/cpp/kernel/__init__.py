"""Whole kernels: the kernel-side API of a `__global__ __aicore__` entry (docs/frontend.md "Whole kernels").

    entry.py       finding the `__global__` entry `--entry` names
    lowering.py    KernelLowering: the vector-function lowering plus the mixins below
    objects.py     the API objects the translator holds (tensors, queues, buffers) and the UB's constants
    members.py     objects of the kernel's own classes: members, constructors, methods, assignments
    control.py     loops, ifs and __VEC_SCOPE__ blocks; queues balanced across them
    dispatch.py    which call is an API method, its operands, and the argument helpers
    placement.py   TPipe::InitBuffer, TQue, TBuf, LocalMemAllocator: UB placement and queues
    tensors.py     GlobalTensor and LocalTensor methods
    datamoves.py   DataCopy and DataCopyPad
    sync.py        flags, barriers, system variables, tiling calls
"""
from .entry import find_entry
from .lowering import KernelLowering

__all__ = ["KernelLowering", "find_entry"]
