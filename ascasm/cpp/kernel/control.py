"""Control flow in a whole kernel: where vector units end, and where the queues must balance.

Queues are checked at translation time: a DeQue of an empty queue and a tensor allocated and never
freed are located errors, and a run-time loop or `if` must leave every queue as it found it (each
iteration frees what it allocates), since a tensor's place is decided once, not per iteration."""
from __future__ import annotations

from ..clang import error_at


class QueueBalance:
    """Mixin of KernelLowering: scalar loops and ifs, __VEC_SCOPE__ blocks, and the queues' balance."""

    def end_vector_unit(self):
        """After a vector function or block, its loads and stores are done before the scalar side goes on
        (the queues' flags order the pipes on the hardware; a membar orders the unit's own stores here)."""
        self.emit("membar")

    def try_hardware_loop(self, c, cond, inc, body) -> bool:
        return self.vector_depth > 0 and super().try_hardware_loop(c, cond, inc, body)

    def loop(self, c, cond, inc, body, test_first):
        before = self.queue_states()
        super().loop(c, cond, inc, body, test_first)
        self.check_balanced(c, before, "loop body")

    def if_stmt(self, c):
        parts = [p for p in c.get_children() if p.kind.name != "DECL_STMT"]
        if parts and _is_vec_scope(parts[0]):            # __VEC_SCOPE__ { ... }: the block, in place
            self.vector_depth += 1
            try:
                self.stmt(parts[1])
                if self.vector_depth == 1:
                    self.end_vector_unit()
            finally:
                self.vector_depth -= 1
            return
        runtime = bool(parts) and self.try_const(parts[0]) is None
        before = self.queue_states()
        super().if_stmt(c)
        if runtime:
            self.check_balanced(c, before, "run-time 'if'")

    def queue_states(self):
        return [q.state() for q, _ in self.queues]

    def check_balanced(self, c, before, what):
        for (queue, _), state in zip(self.queues, before):
            if queue.state() != state:
                raise error_at(c, f"this {what} leaves queue '{queue.name}' with other tensors allocated or "
                                  "enqueued than it found: ascasm places each tensor once, at translation time, "
                                  "so every iteration and branch must free what it allocates and dequeue what it "
                                  "enqueues")

    def finish(self):
        """At the entry's end: every tensor allocated was freed."""
        for queue, _ in self.queues:
            for slot, where in sorted(queue.allocated.items()):
                raise error_at(where, f"the tensor allocated here from queue '{queue.name}' is never freed "
                                      "(TQue::FreeTensor)")


def _is_vec_scope(cond) -> bool:
    return any(ch.kind.name == "CALL_EXPR" and ch.spelling == "__ascasm_vec_scope" for ch in cond.walk_preorder())
