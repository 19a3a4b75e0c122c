"""Whole kernels: a `__global__ __aicore__` entry translated with its scalar code (docs/frontend.md
"Whole kernels").

The kernel-side API lives at translation time. A kernel class object, a TPipe, a TQue, a TBuf and a
LocalTensor are Python objects the translator holds (every method is inlined): a LocalTensor is a UB
address, placed when TPipe::InitBuffer runs; a GlobalTensor is a GM address in an s register. Scalar
members of a kernel class live in s registers. The data moves, flags and system variables become the
machine's rows (gm2ub, ub2gm, setflag, blkidx, ...), where their semantics live.

Queues are checked at translation time: a DeQue of an empty queue and a tensor allocated and never
freed are located errors, and a run-time loop or `if` must leave every queue as it found it (each
iteration frees what it allocates), since a tensor's place is decided once, not per iteration."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import calls, ir, templates
from .clang import callee_and_args, error_at, loc_of, operator_of, strip_parens, tokens
from .cpptypes import BOOL, S64, U32, U64, CType, split_template_args, strip_qualifiers
from .cursors import initializer, is_auto
from .lower import Lowering
from .scope import Frame
from .stubs import INCLUDE_DIR
from .values import Const
from ..state import UB_USABLE_DEFAULT

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
_PIPES = {"S": "PIPE_S", "V": "PIPE_V", "M": "PIPE_M", "MTE1": "PIPE_MTE1", "MTE2": "PIPE_MTE2",
          "MTE3": "PIPE_MTE3", "FIX": "PIPE_FIX"}
_HOST_HEADER = "host.h"


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
    pass


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


def is_global_entry(function) -> bool:
    return any(ch.kind.name == "ANNOTATE_ATTR" and ch.spelling == "global" for ch in function.get_children())


def find_entry(index, entry: str | None):
    """(the `__global__` function `entry` names, its template arguments), or None: a whole kernel."""
    m = re.fullmatch(r"\s*([\w:]+)\s*(?:<(.*)>)?\s*", entry or "")
    if m is None:
        return None
    name = m.group(1).split("::")[-1]
    for function in index.functions:
        if function.spelling == name and is_global_entry(function) and \
                function.kind.name in ("FUNCTION_DECL", "FUNCTION_TEMPLATE"):
            return function, split_template_args(m.group(2)) if m.group(2) else []
    return None


def _in_stubs(decl) -> bool:
    return decl.location.file is not None and str(INCLUDE_DIR.resolve()) in str(decl.location.file)


def _in_host_stub(decl) -> bool:
    return decl is not None and decl.location.file is not None and \
        str(decl.location.file).endswith(_HOST_HEADER) and str(INCLUDE_DIR.resolve()) in str(decl.location.file)


class KernelLowering(Lowering):
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

    def var_decl(self, decl):
        if decl.kind.name != "VAR_DECL":
            return super().var_decl(decl)
        init = initializer(decl)
        if is_auto(decl):
            if init is not None and self.api_call_name(init) is not None:
                return self.bind(decl, self.expr(init))
            return super().var_decl(decl)
        ctype = self.try_resolve(decl.type, decl)
        cls, targs = None, {}
        if ctype is None:                            # an instance of a class template, Kernel<float>
            spelling = strip_qualifiers(decl.type.spelling)
            m = re.fullmatch(r"([\w:]+)<(.*)>", spelling)
            if m is not None:
                cls, targs = templates.class_instance(self, m.group(1).split("::")[-1], split_template_args(m.group(2)))
                ctype = CType("struct", name=spelling)
        elif ctype.kind == "struct":
            found = api_class(ctype.name)
            if found is not None:
                return self.bind(decl, self.api_object(decl, ctype, found[0], init))
            cls = self.index.struct(ctype.name.split("::")[-1])
        if cls is not None and _has_methods(cls):
            obj = KObject(decl.spelling, targs=targs)
            self.frames.append(Frame(targs=targs))
            try:
                self.new_object(obj, cls)
                self.construct(decl, cls, obj, init)
            finally:
                self.frames.pop()
            self.bind(decl, Const(obj, ctype))
            return None
        return super().var_decl(decl)

    def api_object(self, decl, ctype, kind, init):
        """A new kernel-side API object (or the tensor its initialiser gives)."""
        if init is not None and not _default_construction(init):
            value = self.expr(init)
            if kind in PARAM_FIELDS:
                return Const(self.param_struct(kind, value, decl, ctype), ctype)
            if isinstance(value, Const) and isinstance(value.value, (LocalTensorObj, GlobalTensorObj)):
                return Const(_copy(value.value), ctype)
            raise error_at(decl, f"cannot initialise a {ctype.name} from this expression")
        if kind in PARAM_FIELDS:
            return Const(self.param_struct(kind, None, decl, ctype), ctype)
        if kind == "TPipe":
            return Const(PipeObj(), ctype)
        if kind in ("TQue", "TQueBind"):
            queue = QueueObj(decl.spelling)
            self.queues.append((queue, decl))
            return Const(queue, ctype)
        if kind == "TBuf":
            return Const(BufObj(decl.spelling), ctype)
        if kind == "LocalMemAllocator":
            return Const(AllocatorObj(decl.spelling), ctype)
        if kind == "GlobalTensor":
            return Const(GlobalTensorObj(self.element_of(ctype, decl)), ctype)
        return Const(LocalTensorObj(self.element_of(ctype, decl), None, 0), ctype)

    def param_struct(self, kind, value, decl, ctype=None) -> dict:
        """A data move's parameter struct: every field in an s register (the kernel may assign them);
        DataCopyPadExtParams<T>'s paddingValue a T."""
        element = self.element_of(ctype, decl) if ctype is not None and api_class(ctype.name)[1] else S64
        given = value.value if value is not None and isinstance(value.value, (list, dict)) else []
        fields = {}
        for k, (name, default) in enumerate(PARAM_FIELDS[kind]):
            if isinstance(given, dict):
                item = given.get(name, Const(default, S64))
            else:
                item = given[k] if k < len(given) else Const(default, S64)
            reg = ir.RV(self.new_reg("s", f"{decl.spelling}.{name}", loc_of(decl)),
                        element if name == "paddingValue" else S64)
            self.store(reg, item)
            fields[name] = reg
        return fields

    def new_object(self, obj, cls) -> KObject:
        name = obj.name
        for member in cls.get_children():
            if member.kind.name != "FIELD_DECL":
                continue
            ctype = self.resolve_type(member.type, member)
            found = api_class(ctype.name) if ctype.kind == "struct" else None
            if found is not None:
                obj.fields[member.spelling] = self.api_object(member, ctype, found[0], initializer(member))
            elif ctype.kind == "struct":
                inner = self.index.struct(ctype.name.split("::")[-1])
                if inner is None:
                    raise error_at(member, f"member '{member.spelling}' ({ctype}): no definition of its type")
                obj.fields[member.spelling] = Const(self.new_object(KObject(member.spelling), inner), ctype)
            elif (ctype.is_scalar or ctype.kind == "ptr") and self.written_once(cls, member) and \
                    initializer(member) is None:
                obj.fields[member.spelling] = _Unset(ctype)       # its one assignment gives its value
            elif ctype.is_scalar or ctype.kind == "ptr":
                reg = ir.RV(self.new_reg("s", f"{name}.{member.spelling}", loc_of(member)), ctype)
                init = initializer(member)
                self.store(reg, self.expr(init) if init is not None else Const(0, ctype))
                obj.fields[member.spelling] = reg
            else:
                raise error_at(member, f"member '{member.spelling}' ({ctype}) of a kernel class: members are "
                                       "scalars, pointers, structs and the kernel-side API's objects")
        return obj

    def written_once(self, cls, member) -> bool:
        """Whether the class's methods assign `member` in one place only: its value there is the
        member's (a constant stays a constant, so a tile length from the tiling sizes buffers)."""
        if cls.hash not in self.writes:
            counts: dict = {}
            for c in cls.walk_preorder():
                if c.kind.name in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR", "UNARY_OPERATOR"):
                    op = operator_of(c)
                    if op in ("=", "++", "--") or c.kind.name == "COMPOUND_ASSIGNMENT_OPERATOR":
                        target = next(c.get_children(), None)
                        field = _field_of(target)
                        if field is not None:
                            counts[field] = counts.get(field, 0) + (1 if op == "=" else 2)
                elif c.kind.name == "CALL_EXPR":         # passed by reference: written there
                    for arg in list(c.get_children())[1:]:
                        field = _field_of(arg)
                        if field is not None and not _by_value_or_const(c, arg):
                            counts[field] = 2
            self.writes[cls.hash] = counts
        return self.writes[cls.hash].get(member.spelling, 0) == 1

    def construct(self, decl, cls, obj, init):
        """Run a user-written constructor's body (with its arguments) on the new object."""
        call = strip_parens(init) if init is not None else None
        ctor = call.referenced if call is not None and call.kind.name == "CALL_EXPR" else None
        if ctor is None or ctor.kind.name != "CONSTRUCTOR":
            return
        definition = ctor.get_definition() or ctor
        if any(ch.kind.name == "MEMBER_REF" for ch in definition.get_children()):
            raise error_at(definition, "a kernel class's constructor with a member initialiser list: assign the "
                                       "members in its body")
        if definition.kind.name == "CONSTRUCTOR" and any(ch.kind.name == "COMPOUND_STMT"
                                                         for ch in definition.get_children()):
            self.this.append(obj)
            try:
                super().inline(call, None, definition, list(call.get_children()))
            finally:
                self.this.pop()

    # --- members, methods and assignments ---------------------------------------------------
    def x_member_ref_expr(self, c):
        name = _field_of(c)
        children = [ch for ch in c.get_children() if ch.kind.is_expression()]
        if name is not None:
            owner = self.owner_of(children)
            if owner is not None and name in owner.fields:
                value = owner.fields[name]
                if isinstance(value, _Unset):
                    raise error_at(c, f"member '{name}' is read before it is assigned")
                return value
        return super().x_member_ref_expr(c)

    def x_array_subscript_expr(self, c):
        """`tiling.arr[i]`: an element of a constant array (a tiling field), i a constant."""
        base, index = list(c.get_children())
        if _is_array(base):
            values = self.expr(base)
            position = self.expr(index)
            if isinstance(values, Const) and isinstance(values.value, list):
                if not isinstance(position, Const):
                    raise error_at(index, "a tiling array indexed at run time: the index must be a constant here")
                k = int(self.const_number(position))
                if not 0 <= k < len(values.value):
                    raise error_at(index, f"index {k} is outside the array of {len(values.value)}")
                return values.value[k]
        return super().x_array_subscript_expr(c)

    def owner_of(self, children):
        """The KObject a member reference reads: `this` (written or not), or a named object."""
        if not children or strip_parens(children[0]).kind.name == "CXX_THIS_EXPR":
            return self.this[-1] if self.this else None
        base = strip_parens(children[0])
        if base.kind.name in ("DECL_REF_EXPR", "MEMBER_REF_EXPR"):
            value = self.expr(base)
            if isinstance(value, Const) and isinstance(value.value, KObject):
                return value.value
        return None

    def inline(self, c, callee, decl, args):
        obj = None
        if callee is not None and callee.kind.name == "MEMBER_REF_EXPR":
            base = [ch for ch in callee.get_children() if ch.kind.is_expression()]
            obj = self.owner_of(base) if base else None
        vector = any(ch.kind.name == "ANNOTATE_ATTR" and ch.spelling == "simd_vf"
                     for ch in (decl.get_definition() or decl).get_children())
        if obj is not None:
            self.this.append(obj)
            self.frames.append(Frame(targs=obj.targs))      # its class template's arguments
        self.vector_depth += vector
        try:
            result = super().inline(c, callee, decl, args)
            if vector and self.vector_depth == 1:
                self.end_vector_unit()
            return result
        finally:
            self.vector_depth -= vector
            if obj is not None:
                self.frames.pop()
                self.this.pop()

    def end_vector_unit(self):
        """After a vector function or block, its loads and stores are done before the scalar side goes on
        (the queues' flags order the pipes on the hardware; ascasm's hazard check knows only membar)."""
        self.emit("membar")

    def assign(self, c, a, b):
        target = strip_parens(a)
        field = _field_of(target)
        owner = self.owner_of([ch for ch in target.get_children() if ch.kind.is_expression()]) \
            if field is not None else None
        if owner is not None and isinstance(owner.fields.get(field), _Unset):
            ctype = owner.fields[field].ctype
            value = self.convert(self.expr(b), ctype) if ctype.is_scalar else self.expr(b)
            if not isinstance(value, Const):
                copy = ir.RV(self.new_reg("s", f"{owner.name}.{field}", loc_of(target)), ctype)
                self.store(copy, value)
                value = copy
            owner.fields[field] = value
            return value
        if target.kind.name in ("DECL_REF_EXPR", "MEMBER_REF_EXPR"):
            current = self.expr(target)
            if isinstance(current, Const) and isinstance(current.value, (LocalTensorObj, GlobalTensorObj)):
                value = self.expr(b)
                if not (isinstance(value, Const) and type(value.value) is type(current.value)):
                    raise error_at(c, "a tensor is assigned only another tensor of its kind")
                self.rebind(target, Const(_copy(value.value), current.ctype))
                return value
        return super().assign(c, a, b)

    def rebind(self, target, value):
        decl = target.referenced
        if _field_of(target) is not None:
            owner = self.owner_of([ch for ch in target.get_children() if ch.kind.is_expression()])
            if owner is not None:
                owner.fields[_field_of(target)] = value
                return
        for frame in reversed(self.frames):
            if decl.hash in frame.vars:
                frame.vars[decl.hash] = value
                frame.vars[("name", decl.spelling)] = value
                return
        raise error_at(target, f"'{decl.spelling}' cannot be assigned here")

    # --- control flow: where the queues must balance ----------------------------------------
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

    # --- calls ------------------------------------------------------------------------------
    def call(self, c, dest=None):
        name = self.api_call_name(c)
        if name is None:
            return super().call(c, dest)
        obj, callee, args = self.api_operands(c)
        try:
            return getattr(self, "api_" + name)(c, obj, callee, args)
        except (IndexError, TypeError, AttributeError, ValueError):
            # arguments of a form the method does not take (too few, a struct where a number goes)
            raise error_at(c, f"'{name.split('_')[-1]}' called with arguments of a form ascasm does not take "
                              "(docs/frontend.md \"Whole kernels\" lists the supported ones)") from None

    def api_call_name(self, c):
        """The kernel-side API method this call is (`api_<name>` below), or None."""
        c = strip_parens(c)
        while c.kind.name == "UNEXPOSED_EXPR" and len(list(c.get_children())) == 1:
            c = strip_parens(next(c.get_children()))
        if c.kind.name != "CALL_EXPR":
            return None
        name, decl = c.spelling, c.referenced
        if name == "operator[]":
            return "subscript" if self.object_of(next(c.get_children())) is not None else None
        callee, _ = callee_and_args(c)
        if not name and callee is not None:          # a call a template leaves dependent
            name = calls.callee_name(callee, c)[0].split("::")[-1]
        if callee is not None and callee.kind.name == "MEMBER_REF_EXPR":
            base = [ch for ch in callee.get_children() if ch.kind.is_expression()]
            obj = self.object_of(base[0]) if base else None
            if obj is not None and hasattr(self, f"api_{type(obj).__name__}_{name}"):
                return f"{type(obj).__name__}_{name}"
            return None
        if name in _FREE_FUNCTIONS and (decl is None or _in_stubs(decl)):
            return name
        if _in_host_stub(decl) and name in _TENSOR_OPS:
            return "tensor_op"
        return None

    def object_of(self, expr):
        """The API object an expression names or an API call gives (`t[8]`, `t.ReinterpretCast<U>()`),
        or None."""
        expr = strip_parens(expr)
        while expr.kind.name == "UNEXPOSED_EXPR" and len(list(expr.get_children())) == 1:
            expr = strip_parens(next(expr.get_children()))
        if expr.kind.name == "CALL_EXPR" and self.api_call_name(expr) is not None:
            value = self.expr(expr)
            return value.value if isinstance(value, Const) else None
        if expr.kind.name not in ("DECL_REF_EXPR", "MEMBER_REF_EXPR"):
            return None
        decl, name = expr.referenced, _field_of(expr)
        value = self.lookup_var(decl) if decl is not None else None
        if value is None and name is not None:
            owner = self.owner_of([ch for ch in expr.get_children() if ch.kind.is_expression()])
            value = owner.fields.get(name) if owner is not None else None
        if isinstance(value, Const) and isinstance(value.value, (LocalTensorObj, GlobalTensorObj, QueueObj,
                                                                  BufObj, PipeObj, AllocatorObj)):
            return value.value
        return None

    def api_operands(self, c):
        """(the object or None, the callee cursor, the argument cursors) of an API call."""
        c = strip_parens(c)
        while c.kind.name == "UNEXPOSED_EXPR" and len(list(c.get_children())) == 1:
            c = strip_parens(next(c.get_children()))
        if c.spelling == "operator[]":
            children = list(c.get_children())
            return self.object_of(children[0]), None, children[-1:]
        callee, args = callee_and_args(c)
        obj = None
        if callee is not None and callee.kind.name == "MEMBER_REF_EXPR":
            base = [ch for ch in callee.get_children() if ch.kind.is_expression()]
            obj = self.object_of(base[0]) if base else None
        return obj, callee, args

    def template_type(self, c, callee, default=None) -> CType:
        texts = self.explicit_template_args(callee) if callee is not None else []
        if not texts:
            if default is None:
                raise error_at(c, "give the element type as a template argument (<T>)")
            return default
        element = self.type_from_text(texts[0])
        if element is None or not element.is_scalar:
            raise error_at(c, f"'{texts[0]}' is not a scalar element type")
        return element

    def const_arg(self, c, arg, what) -> int:
        value = self.expr(arg)
        if not isinstance(value, Const):
            raise error_at(arg, f"{what} must be known at translation time (a constant or a tiling field): "
                                "ascasm places the UB buffers once")
        return int(self.const_number(value))

    def scalar_reg(self, value, ctype=U64):
        return self.materialize(self.convert(value, ctype), ctype)

    # TPipe
    def api_PipeObj_InitBuffer(self, c, pipe, callee, args):
        target = self.object_of(args[0])
        if isinstance(target, QueueObj) and len(args) == 3:
            num = self.const_arg(c, args[1], "InitBuffer's block count")
            length = self.const_arg(c, args[2], "InitBuffer's length")
            target.length = _aligned(length)
            target.blocks = [self.place_ub(f"{target.name}_{k}" if num > 1 else target.name, target.length, c)
                             for k in range(num)]
        elif isinstance(target, BufObj) and len(args) == 2:
            target.length = _aligned(self.const_arg(c, args[1], "InitBuffer's length"))
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
                     _tensor_ctype(etype))

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
        return Const(LocalTensorObj(etype, tensor.addr, tensor.nbytes, queue, tensor.slot, tensor.where),
                     _tensor_ctype(etype))

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
        return Const(LocalTensorObj(etype, Const(buf.addr, U64), nbytes), _tensor_ctype(etype))

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
        addr = self.place_ub(f"{allocator.name}_{allocator.count}", _aligned(count * etype.width), c)
        return Const(LocalTensorObj(etype, Const(addr, U64), count * etype.width), _tensor_ctype(etype))

    def api_InitSocState(self, c, _obj, callee, args):
        return Const(0, S64)        # the machine starts in its documented state

    # GlobalTensor
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
            return Const(GlobalTensorObj(tensor.etype, self.offset(tensor, args)), _global_ctype(tensor.etype))
        return Const(self.local_at(c, tensor, args), _tensor_ctype(tensor.etype))

    def api_GlobalTensorObj_GetValue(self, c, tensor, callee, args):
        """One element of GM read by the scalar side: no row reads GM but the data moves, so it is a
        one-element move into a scratch block at the UB's end, then `ld` (docs/frontend.md)."""
        scratch, burst = self.gm_scalar_move(c, tensor)
        address = self.offset(tensor, args[:1])
        self.emit("gm2ub.align.b8", ir.Mem(ir.view(scratch.reg)), ir.Mem(ir.view(address.reg)), *burst)
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
                     _tensor_ctype(etype))

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

    def tensor_arg(self, arg, kind):
        obj = self.object_of(arg)
        if obj is None:
            value = self.expr(arg)
            obj = value.value if isinstance(value, Const) else None
        if not isinstance(obj, kind):
            raise error_at(arg, f"expected a {kind.__name__.replace('Obj', '')} here")
        if isinstance(obj, LocalTensorObj) and obj.addr is None:
            raise error_at(arg, "a LocalTensor used before it was allocated (AllocTensor, DeQue or TBuf::Get)")
        if isinstance(obj, GlobalTensorObj):
            self.check_global(arg, obj)
        return obj

    # data moves
    def api_DataCopy(self, c, _obj, callee, args):
        if len(args) != 3:
            raise error_at(c, "DataCopy(dst, src, count) between GM and the UB is supported (the contiguous form)")
        dst, src = (self.tensor_or_none(a) for a in args[:2])
        count = self.expr(args[2])
        if count.ctype is None or not count.ctype.is_scalar:
            raise error_at(args[2], "DataCopy with DataCopyParams (32-byte units) is not supported: give an element "
                                    "count, or use DataCopyPad with DataCopyExtParams")
        count = self.convert(count, U64)
        if isinstance(dst, LocalTensorObj) and isinstance(src, GlobalTensorObj):
            size = self.scalar_reg(self.arith(None, "*", count, Const(src.etype.width, U64)))
            self.emit("gm2ub", ir.Mem(ir.view(self.address_reg(dst).reg)), ir.Mem(ir.view(src.addr.reg)), size.reg)
        elif isinstance(dst, GlobalTensorObj) and isinstance(src, LocalTensorObj):
            size = self.scalar_reg(self.arith(None, "*", count, Const(src.etype.width, U64)))
            self.emit("ub2gm", ir.Mem(ir.view(dst.addr.reg)), ir.Mem(ir.view(self.address_reg(src).reg)), size.reg)
        else:
            raise error_at(c, "DataCopy between two LocalTensors (UB to UB) is not supported; GM and UB are")
        return Const(0, S64)

    def tensor_or_none(self, arg):
        value = self.expr(arg)
        obj = value.value if isinstance(value, Const) else None
        if isinstance(obj, LocalTensorObj) and obj.addr is None:
            raise error_at(arg, "a LocalTensor used before it was allocated (AllocTensor, DeQue or TBuf::Get)")
        if isinstance(obj, GlobalTensorObj):
            self.check_global(arg, obj)
        return obj if isinstance(obj, (LocalTensorObj, GlobalTensorObj)) else None

    def api_DataCopyPad(self, c, _obj, callee, args):
        if len(self.explicit_template_args(callee) if callee is not None else []) > 1:
            raise error_at(c, "DataCopyPad with a PaddingMode (Compact) is not supported; the Normal form is")
        dst, src = (self.tensor_or_none(a) for a in args[:2])
        params = self.param_values(args[2], "DataCopyExtParams")
        count, length = params["blockCount"], params["blockLen"]
        skip = self.label("nop")
        # a zero blockCount or blockLen is a NOP (the page); the rows take 1..4095 bursts
        for value in (count, length):
            self.emit("beq", value.reg, 0, skip)
        if isinstance(dst, LocalTensorObj) and isinstance(src, GlobalTensorObj) and len(args) == 4:
            pad = self.param_values(args[3], "DataCopyPadExtParams")
            width = dst.etype.width
            if width not in (1, 2, 4):
                raise error_at(c, f"DataCopyPad of {dst.etype} elements: the gm2ub.align rows move 8-, 16- and "
                                  "32-bit elements")
            left = self.scalar_reg(self.arith(None, "*", pad["leftPadding"], Const(width, S64)))
            right = self.scalar_reg(self.arith(None, "*", pad["rightPadding"], Const(width, S64)))
            padded = self.arith(None, "+", self.arith(None, "+", left, right), length)
            ub_stride = self.scalar_reg(self.arith(None, "+", _round_up(self, padded),
                                                   self.arith(None, "*", params["dstStride"], Const(32, S64))))
            gm_stride = self.scalar_reg(self.arith(None, "+", length, params["srcStride"]))
            self.emit("sprset.pad", pad["paddingValue"].reg)    # T's bits in the low bytes
            self.emit(f"gm2ub.align.b{8 * width}", ir.Mem(ir.view(self.address_reg(dst).reg)),
                      ir.Mem(ir.view(src.addr.reg)), count.reg, length.reg, pad["leftPadding"].reg,
                      pad["rightPadding"].reg, pad["isPad"].reg, gm_stride.reg, ub_stride.reg)
        elif isinstance(dst, GlobalTensorObj) and isinstance(src, LocalTensorObj) and len(args) == 3:
            ub_stride = self.scalar_reg(self.arith(None, "+", _round_up(self, length),
                                                   self.arith(None, "*", params["srcStride"], Const(32, S64))))
            gm_stride = self.scalar_reg(self.arith(None, "+", length, params["dstStride"]))
            self.emit("ub2gm.align", ir.Mem(ir.view(dst.addr.reg)), ir.Mem(ir.view(self.address_reg(src).reg)),
                      count.reg, length.reg, gm_stride.reg, ub_stride.reg)
        else:
            raise error_at(c, "DataCopyPad(LocalTensor, GlobalTensor, DataCopyExtParams, DataCopyPadExtParams) or "
                              "DataCopyPad(GlobalTensor, LocalTensor, DataCopyExtParams) is supported")
        self.place(skip)
        return Const(0, S64)

    def param_values(self, arg, kind) -> dict:
        value = self.expr(arg)
        fields = value.value if isinstance(value, Const) else None
        if isinstance(fields, list):
            fields = self.param_struct(kind, value, arg)
        if not isinstance(fields, dict):
            raise error_at(arg, f"expected a {kind} here")
        return {name: self.scalar_reg(fields.get(name, Const(default, S64)), S64)
                if not (name == "paddingValue" and isinstance(fields.get(name), ir.RV)) else fields[name]
                for name, default in PARAM_FIELDS[kind]}

    # synchronisation and system variables
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
        from . import tiling
        return tiling.tiling_value(self, c, callee, args)

    def api___ascasm_tiling_key_is(self, c, _obj, callee, args):
        if self.tiling_key is None:
            raise error_at(c, "TILING_KEY_IS: give the tiling key (--tiling-key K)")
        key = self.const_arg(c, args[0], "TILING_KEY_IS's key")
        return Const(key == self.tiling_key, BOOL)

    def api_asc_vf_call(self, c, _obj, callee, args):
        """`asc_vf_call<F<args>>(...)`: the vector function F called with those template arguments."""
        texts = self.explicit_template_args(callee) if callee is not None else []
        text = texts[0] + ">" * (texts[0].count("<") - texts[0].count(">")) if texts else ""   # `>>` is one token
        m = re.fullmatch(r"\s*&?\s*([\w:]+)\s*(?:<(.*)>)?\s*", text) if texts else None
        function = self.index.function(m.group(1).split("::")[-1], len(args), []) if m else None
        if function is None:
            raise error_at(c, f"asc_vf_call: no vector function '{texts[0] if texts else ''}' defined in the file")
        inner = split_template_args(m.group(2)) if m.group(2) else []
        # the call's own template argument names F; F's arguments are what its body binds
        self.explicit_template_args = \
            lambda cursor: inner if cursor is callee else type(self).explicit_template_args(cursor)
        try:
            return self.inline(c, callee, function, args)
        finally:
            del self.explicit_template_args

    api_VF_CALL = api_asc_vf_call

    def api_tensor_op(self, c, _obj, callee, args):
        raise error_at(c, f"AscendC::{c.spelling} on LocalTensors (the tensor-level API, page '{c.spelling}') is not "
                          "implemented: compute with the Reg API in a __simd_vf__ function or a __VEC_SCOPE__ block")


_FREE_FUNCTIONS = {"InitSocState", "asc_vf_call", "VF_CALL", "DataCopy", "DataCopyPad", "SetFlag", "WaitFlag",
                   "PipeBarrier", "SyncAll", "GetBlockIdx",
                   "GetBlockNum", "__ascasm_tiling", "__ascasm_tiling_key_is"}
_TENSOR_OPS = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Adds", "Subs", "Muls", "Divs", "Maxs", "Mins", "Exp", "Ln",
               "Log", "Sqrt", "Rsqrt", "Reciprocal", "Relu", "LeakyRelu", "Not", "And", "Or", "Xor", "ShiftLeft",
               "ShiftRight", "Cast", "Compare", "CompareScalar", "Select", "ReduceSum", "ReduceMax", "ReduceMin",
               "WholeReduceSum", "WholeReduceMax", "WholeReduceMin", "BlockReduceSum", "BlockReduceMax",
               "BlockReduceMin", "Brcb", "Gather", "GatherMask", "Transpose", "Copy", "Axpy", "Sort", "Duplicate",
               "Sign", "Floor", "Ceil", "Round", "Trunc", "FusedMulAdd", "MulAddDst", "Fill", "Abs"}


@dataclass
class _Unset:
    """A member assigned in one place, before that assignment runs."""
    ctype: CType


def _field_of(expr):
    """The member name a member reference (through casts) names, else None: a FIELD_DECL's, or the last
    word of `this->m` that a class template leaves dependent."""
    while expr is not None and expr.kind.name in ("UNEXPOSED_EXPR", "PAREN_EXPR"):
        expr = next(expr.get_children(), None)
    if expr is None or expr.kind.name != "MEMBER_REF_EXPR":
        return None
    if expr.referenced is not None:
        return expr.referenced.spelling if expr.referenced.kind.name == "FIELD_DECL" else None
    words = tokens(expr)
    return words[-1] if words and words[-1].isidentifier() else None


def _by_value_or_const(call, arg) -> bool:
    """Whether `arg` of `call` binds to a parameter by value or by const reference."""
    decl = call.referenced
    if decl is None:
        return False
    args = list(call.get_children())[1:]
    params = [p for p in decl.get_children() if p.kind.name == "PARM_DECL"]
    k = next((i for i, a in enumerate(args) if a == arg), None)
    if k is None or k >= len(params):
        return True
    ptype = params[k].type
    return ptype.kind.name != "LVALUEREFERENCE" or ptype.get_pointee().is_const_qualified()


def _is_array(expr) -> bool:
    try:
        return strip_parens(expr).type.get_canonical().kind.name == "CONSTANTARRAY" or \
            any(ch.type.get_canonical().kind.name == "CONSTANTARRAY" for ch in expr.get_children())
    except ValueError:              # a type libclang's bindings cannot name (_Float16)
        return False


def _round_up(lowering, value):
    """(value + 31) / 32 * 32, at run time."""
    total = lowering.arith(None, "+", value, Const(ALIGN - 1, S64))
    return lowering.arith(None, "*", lowering.arith(None, "/", total, Const(ALIGN, S64)), Const(ALIGN, S64))


def _aligned(nbytes: int) -> int:
    return -(-nbytes // ALIGN) * ALIGN


def _copy(obj):
    """C++ copies a tensor object: the copy has the same place (and, from a queue, the same block)."""
    return obj.__class__(**obj.__dict__)


def _tensor_ctype(etype: CType) -> CType:
    return CType("struct", name=f"AscendC::LocalTensor<{etype}>")


def _global_ctype(etype: CType) -> CType:
    return CType("struct", name=f"AscendC::GlobalTensor<{etype}>")


def _has_methods(cls) -> bool:
    return any(ch.kind.name in ("CXX_METHOD", "CONSTRUCTOR") for ch in cls.get_children())


def _default_construction(init) -> bool:
    init = strip_parens(init)
    return init.kind.name == "CALL_EXPR" and init.referenced is not None and \
        init.referenced.kind.name == "CONSTRUCTOR" and not list(init.get_children())


def _is_vec_scope(cond) -> bool:
    return any(ch.kind.name == "CALL_EXPR" and ch.spelling == "__ascasm_vec_scope" for ch in cond.walk_preorder())
