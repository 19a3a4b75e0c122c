"""Objects of a kernel's own classes: their members (scalars in s registers, API objects, nested
structs), constructors and methods inlined on `this`, member assignments, and the kernel-side API
objects a declaration creates."""
from __future__ import annotations

import re

from .. import ir, templates
from ..clang import error_at, loc_of, operator_of, strip_parens, tokens
from ..cpptypes import CType, split_template_args, strip_qualifiers
from ..cursors import initializer, is_auto
from ..scope import Frame
from ..values import Const
from .objects import (PARAM_FIELDS, AllocatorObj, BufObj, GlobalTensorObj, KObject, LocalTensorObj, PipeObj,
                      QueueObj, Unset, api_class, copy_object)


class KernelClasses:
    """Mixin of KernelLowering: declarations of kernel-class objects and API objects, and their members."""

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
                return Const(copy_object(value.value), ctype)
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
                obj.fields[member.spelling] = Unset(ctype)       # its one assignment gives its value
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
                        field = field_of(target)
                        if field is not None:
                            counts[field] = counts.get(field, 0) + (1 if op == "=" else 2)
                elif c.kind.name == "CONSTRUCTOR":       # its initialiser list writes each member once
                    for member, _ in _member_initialisers(c):
                        counts[member.spelling] = counts.get(member.spelling, 0) + 1
                elif c.kind.name == "CALL_EXPR":         # passed by reference: written there
                    for arg in list(c.get_children())[1:]:
                        field = field_of(arg)
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
        body = next((ch for ch in definition.get_children() if ch.kind.name == "COMPOUND_STMT"), None)
        if definition.kind.name == "CONSTRUCTOR" and body is not None:
            inits = _member_initialisers(definition)
            if inits:
                self.pending_inits[body.hash] = (obj, inits)
            self.this.append(obj)
            try:
                super().inline(call, None, definition, list(call.get_children()))
            finally:
                self.this.pop()

    # --- members, methods and assignments ---------------------------------------------------
    def x_member_ref_expr(self, c):
        name = field_of(c)
        children = [ch for ch in c.get_children() if ch.kind.is_expression()]
        if name is not None:
            owner = self.owner_of(children)
            if owner is not None and name in owner.fields:
                value = owner.fields[name]
                if isinstance(value, Unset):
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


    def assign(self, c, a, b):
        target = strip_parens(a)
        field = field_of(target)
        owner = self.owner_of([ch for ch in target.get_children() if ch.kind.is_expression()]) \
            if field is not None else None
        if owner is not None and isinstance(owner.fields.get(field), Unset):
            return self.settle(owner, field, b, target)
        if target.kind.name in ("DECL_REF_EXPR", "MEMBER_REF_EXPR"):
            current = self.expr(target)
            if isinstance(current, Const) and isinstance(current.value, (LocalTensorObj, GlobalTensorObj)):
                value = self.expr(b)
                if not (isinstance(value, Const) and type(value.value) is type(current.value)):
                    raise error_at(c, "a tensor is assigned only another tensor of its kind")
                self.rebind(target, Const(copy_object(value.value), current.ctype))
                return value
        return super().assign(c, a, b)

    def settle(self, owner, field, expr, where):
        """A member written in one place takes the value written there: a constant stays a constant,
        anything else is copied into an s register of its own."""
        ctype = owner.fields[field].ctype
        value = self.convert(self.expr(expr), ctype) if ctype.is_scalar else self.expr(expr)
        if not isinstance(value, Const):
            copy = ir.RV(self.new_reg("s", f"{owner.name}.{field}", loc_of(where)), ctype)
            self.store(copy, value)
            value = copy
        owner.fields[field] = value
        return value

    def stmt(self, c):
        if self.pending_inits:                  # a constructor's body: its member initialisers run first
            pending = self.pending_inits.pop(c.hash, None)
            if pending is not None:
                self.init_members(*pending)
        return super().stmt(c)

    def init_members(self, obj, inits):
        """A constructor's member initialiser list, in its order, with the constructor's parameters bound:
        each is the member's assignment (a scalar or pointer member's)."""
        for member, expr in inits:
            current = obj.fields.get(member.spelling)
            if isinstance(current, Unset):
                self.settle(obj, member.spelling, expr, member)
            elif isinstance(current, ir.RV):
                self.store(current, self.convert(self.expr(expr), current.ctype))
            else:
                raise error_at(member, f"member '{member.spelling}' in an initialiser list: only scalar and "
                                       "pointer members are initialised there (assign the others in the body)")

    def rebind(self, target, value):
        decl = target.referenced
        if field_of(target) is not None:
            owner = self.owner_of([ch for ch in target.get_children() if ch.kind.is_expression()])
            if owner is not None:
                owner.fields[field_of(target)] = value
                return
        for frame in reversed(self.frames):
            if decl.hash in frame.vars:
                frame.vars[decl.hash] = value
                frame.vars[("name", decl.spelling)] = value
                return
        raise error_at(target, f"'{decl.spelling}' cannot be assigned here")


def field_of(expr):
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


def _member_initialisers(constructor) -> list:
    """(member, expression) of a constructor's initialiser list: libclang lists each member's MEMBER_REF
    followed by its initialiser among the constructor's children."""
    children = list(constructor.get_children())
    return [(ch, children[k + 1]) for k, ch in enumerate(children[:-1]) if ch.kind.name == "MEMBER_REF"]


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



def _has_methods(cls) -> bool:
    return any(ch.kind.name in ("CXX_METHOD", "CONSTRUCTOR") for ch in cls.get_children())


def _default_construction(init) -> bool:
    init = strip_parens(init)
    return init.kind.name == "CALL_EXPR" and init.referenced is not None and \
        init.referenced.kind.name == "CONSTRUCTOR" and not list(init.get_children())
