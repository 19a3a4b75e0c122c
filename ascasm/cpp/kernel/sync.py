"""Synchronisation (SetFlag/WaitFlag, PipeBarrier, SyncAll), the system variables (GetBlockIdx,
GetBlockNum) and the tiling macros' calls."""
from __future__ import annotations

from .. import ir
from ..clang import error_at
from ..cpptypes import BOOL, S64
from ..values import Const

# HardEvent's halves (MTE2_V: from MTE2 to V) and pipe_t's names, as the setflag rows write them

_PIPES = {"S": "PIPE_S", "V": "PIPE_V", "M": "PIPE_M", "MTE1": "PIPE_MTE1", "MTE2": "PIPE_MTE2",
          "MTE3": "PIPE_MTE3", "FIX": "PIPE_FIX"}


class SyncAndSystem:
    """Mixin of KernelLowering: flags, barriers, system variables and tiling."""
    def api_SetFlag(self, c, _obj, callee, args):
        return self.flag(c, callee, args, "setflag")

    def api_WaitFlag(self, c, _obj, callee, args):
        return self.flag(c, callee, args, "waitflag")

    def flag(self, c, callee, args, mnemonic):
        texts = self.explicit_template_args(callee) if callee is not None else []
        event = texts[0].split("::")[-1].strip() if texts else ""
        source, _, target = event.partition("_")
        if source not in _PIPES or target not in _PIPES:
            raise error_at(c, f"{mnemonic}: the HardEvent '{event}' is not one of pipe_pipe (MTE2_V, V_MTE3, ...)")
        number = self.const_arg(c, args[0], "the event id") if args else 0
        self.emit(mnemonic, ir.Word(_PIPES[source]), ir.Word(_PIPES[target]), number)
        return Const(0, S64)

    # TPipe's event ids: the lowest id of the HardEvent that AllocEventID does not hold (the pages leave
    # which to the library; the flags' rows take 0..7)
    def api_PipeObj_FetchEventID(self, c, pipe, callee, args):
        return Const(self.free_event_id(c, pipe, self.hard_event(c, callee, args)), S64)

    def api_PipeObj_AllocEventID(self, c, pipe, callee, args):
        event = self.hard_event(c, callee, args)
        number = self.free_event_id(c, pipe, event)
        pipe.events.setdefault(event, set()).add(number)
        return Const(number, S64)

    def api_PipeObj_ReleaseEventID(self, c, pipe, callee, args):
        event = self.hard_event(c, callee, [])
        pipe.events.get(event, set()).discard(self.const_arg(c, args[0], "ReleaseEventID's event id"))
        return Const(0, S64)

    def hard_event(self, c, callee, args) -> str:
        """The HardEvent named by the call's template argument or its first argument (`HardEvent::V_S`)."""
        texts = self.explicit_template_args(callee) if callee is not None else []
        text = texts[0] if texts else "".join(t.spelling for t in args[0].get_tokens()) if args else ""
        event = text.split("::")[-1].strip()
        source, _, target = event.partition("_")
        if source not in _PIPES or target not in _PIPES:
            raise error_at(c, f"the HardEvent '{event}' is not one of pipe_pipe (MTE2_V, V_MTE3, ...)")
        return event

    def free_event_id(self, c, pipe, event) -> int:
        held = pipe.events.get(event, set())
        free = [number for number in range(8) if number not in held]
        if not free:
            raise error_at(c, f"every event id of HardEvent {event} (0..7) is held by AllocEventID")
        return free[0]

    def api_PipeBarrier(self, c, _obj, callee, args):
        texts = self.explicit_template_args(callee) if callee is not None else []
        pipe = texts[0].split("::")[-1].strip() if texts else ""
        if pipe not in _PIPES.values() and pipe != "PIPE_ALL":
            raise error_at(c, f"PipeBarrier<{pipe}>: a pipe_t (PIPE_V, PIPE_ALL, ...) is expected")
        self.emit("pipebar", ir.Word(pipe))
        return Const(0, S64)

    def api_SyncAll(self, c, _obj, callee, args):
        self.emit("syncall")
        return Const(0, S64)

    def api_GetBlockIdx(self, c, _obj, callee, args):
        reg = self.new_reg("s", "block index")
        self.emit("blkidx", reg)
        return ir.RV(reg, S64)

    def api_GetBlockNum(self, c, _obj, callee, args):
        reg = self.new_reg("s", "block count")
        self.emit("blknum", reg)
        return ir.RV(reg, S64)

    def api___ascasm_tiling(self, c, _obj, callee, args):
        from .. import tiling
        return tiling.tiling_value(self, c, callee, args)

    def api___ascasm_tiling_key_is(self, c, _obj, callee, args):
        if self.tiling_key is None:
            raise error_at(c, "TILING_KEY_IS: give the tiling key (--tiling-key K)")
        key = self.const_arg(c, args[0], "TILING_KEY_IS's key")
        return Const(key == self.tiling_key, BOOL)
