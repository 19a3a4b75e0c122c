"""The kernel-side API's objects as the translator holds them: a LocalTensor is a UB address, a
GlobalTensor a GM address in an s register, a queue its UB blocks and what is allocated and enqueued
from them; and the constants of the UB's layout."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..cpptypes import CType, strip_qualifiers
from ...state import UB_USABLE_DEFAULT


ALIGN = 32                      # InitBuffer rounds each block up to 32 bytes (the page)
UB_BYTES = UB_USABLE_DEFAULT      # the usable UB a kernel runs with by default (docs/language.md)
GM_SCALAR_SCRATCH = "gm_scalar_scratch"     # the UB block GlobalTensor::GetValue/SetValue move through
_API_CLASS = re.compile(r"^(?:AscendC::)?(TPipe|TQue|TQueBind|TBuf|LocalMemAllocator|GlobalTensor|LocalTensor|"
                        r"DataCopyExtParams|DataCopyPadExtParams)\b(?:<(.*)>)?$")
# The parameter structs of the data moves, their fields in declaration order with the pages' defaults
PARAM_FIELDS = {
    "DataCopyExtParams": (("blockCount", 1), ("blockLen", 0), ("srcStride", 0), ("dstStride", 0), ("rsv", 0)),
    "DataCopyPadExtParams": (("isPad", 0), ("leftPadding", 0), ("rightPadding", 0), ("paddingValue", 0)),
}
# HardEvent's halves (MTE2_V: from MTE2 to V) and pipe_t's names, as the setflag rows write them


@dataclass
class GlobalTensorObj:
    etype: CType
    addr: object = None             # RV: the GM byte address (an s register)


@dataclass
class LocalTensorObj:
    etype: CType
    addr: object                    # Const (an address known at translation time) or RV
    nbytes: int                     # the bytes it may use, from its address on
    queue: object = None            # the QueueObj it came from (AllocTensor), for EnQue/FreeTensor
    slot: int = -1
    where: object = None            # the AllocTensor call, for the never-freed error


@dataclass
class QueueObj:
    name: str
    blocks: list = field(default_factory=list)      # UB address of each block
    length: int = 0
    allocated: dict = field(default_factory=dict)   # slot -> the AllocTensor call
    queued: list = field(default_factory=list)      # LocalTensorObj, oldest first

    def state(self):
        return (tuple(sorted(self.allocated)), tuple(t.slot for t in self.queued))


@dataclass
class BufObj:
    name: str
    addr: int = -1
    length: int = 0


@dataclass
class PipeObj:
    events: dict = field(default_factory=dict)      # HardEvent name -> the ids AllocEventID holds


@dataclass
class AllocatorObj:
    name: str
    count: int = 0


@dataclass
class KObject:
    """An object of a kernel's own class: its members by name, and a class template's arguments."""
    name: str
    fields: dict = field(default_factory=dict)
    targs: dict = field(default_factory=dict)
    defaulted: set = field(default_factory=set)   # members with an initialiser that one assignment may fold


API_OBJECTS = (LocalTensorObj, GlobalTensorObj, QueueObj, BufObj, PipeObj, AllocatorObj)


@dataclass
class UbRegion:
    name: str
    addr: int
    nbytes: int


def api_class(spelling: str):
    """(class name, template arguments text) of a kernel-side API class spelling, else None."""
    text = strip_qualifiers(spelling.replace("&", "").strip())
    m = _API_CLASS.match(text.strip())
    return (m.group(1), m.group(2) or "") if m else None



@dataclass
class Unset:
    """A member assigned in one place, before that assignment runs."""
    ctype: CType



def aligned(nbytes: int) -> int:
    return -(-nbytes // ALIGN) * ALIGN


def copy_object(obj):
    """C++ copies a tensor object: the copy has the same place (and, from a queue, the same block)."""
    return obj.__class__(**obj.__dict__)


def tensor_ctype(etype: CType) -> CType:
    return CType("struct", name=f"AscendC::LocalTensor<{etype}>")


def global_ctype(etype: CType) -> CType:
    return CType("struct", name=f"AscendC::GlobalTensor<{etype}>")
