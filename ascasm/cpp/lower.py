"""Lowering C++ to the translator's IR (ir.py): the statements and expressions of a vector function,
walked on libclang's AST of the template pattern with the template's arguments bound in frames.

The Lowering is one object whose methods come from one module per part of the walk (docs/frontend.md
draws them and says where each kind of change goes):

  scope.py          frames of inlined calls, variables bound to values, the parameters' slots
  conversions.py    C++ types resolved with the frames' template arguments; C's conversions
  consteval.py      the constant evaluator (`try_const`): template arguments, traits, folding
  statements.py     statements by kind (STATEMENT_HANDLERS), `if`, `return`, break/continue
  declarations.py   local variables, typedefs, static_assert; structs and unions as constant values
  loops.py          for/while/do loops, and counted loops as hardware loops (vloop)
  conditions.py     branching on a condition; comparisons as values
  expressions.py    expressions by kind (the `x_<cursor kind>` methods): literals, names, casts, sizeof
  operators.py      unary, binary, assignment and ?: operators on scalars and pointers
  captures.py       the inputs of a __VEC_SCOPE__ block: captured locals, members, tensor addresses
  call_lowering.py  calls by kind (CALL_HANDLERS over calls.classify's CallKind)
  inlining.py       a helper's call inlined: template arguments deduced, parameters bound, its body
  forms.py          Reg:: and asc_* calls through the typed forms of ascasm/isa/regapi.py
  cursors.py        questions about libclang cursors that need no lowering state

Scalars keep their C type's width: a value held in a 64-bit s register is always in its type's range
(wrapped, sign- or zero-extended) after each operation. Register allocation (regalloc.py) maps the
virtual registers (`%s3`, `%v1`, ...) to machine registers afterwards."""
from __future__ import annotations

from . import ir
from .call_lowering import CallLowering
from .captures import Captures
from .clang import check_recovered, diagnostics_error, errors_inside, skipped_text
from .conditions import Conditions
from .consteval import ConstantEvaluation
from .conversions import Conversions
from .declarations import Declarations
from .expressions import Expressions
from .forms import FormCalls
from .inlining import Inlining
from .loops import Loop, Loops
from .operators import Operators
from .scope import Frame, ParamSlot, Scope
from .statements import Statements
from .values import NotConstant
from .ir import VReg


class Lowering(Scope, Conversions, ConstantEvaluation, Statements, Declarations, Loops, Conditions, Expressions,
               Operators, Captures, CallLowering, Inlining, FormCalls):
    """The lowering of one translation: its state, and the emission every part uses."""

    def __init__(self, index, file: str, clang_errors=()):
        self.index = index          # name lookups over the translation unit (translate.TUIndex)
        self.file = file
        self.clang_errors = list(clang_errors)   # clang's errors anywhere in the file (check_clang_errors)
        self.checked: set = set()   # functions check_recovered passed
        self.skipped = None         # clang.skipped_text, once needed
        self.lines: list = []       # the IR (ir.py): instructions, labels, debug directives
        self.loops: list[Loop] = []
        self.regs: list[VReg] = []
        self.frames: list[Frame] = []
        self.params: list[ParamSlot] = []
        self.captures: dict = {}    # decl hash -> RV for a block's captured locals and members
        self.unfoldable: set = set()  # outer variables whose initialiser is not a constant
        self.narrowed: set = set()    # hashes of double arithmetic whose result C converts to a float type
        self.outer_decls: dict = {}   # name -> declaration of the locals and parameters around a block
        self.labels = 0
        self.const_only = 0
        self.hw_depth = 0
        self.cur_loc = None
        self.ctrl: dict = {}
        self.loop_stack: list = []       # (break label, continue label); None inside a hardware loop
        # debug information (ascasm/cpp/debugvars.py): every variable bound, with the line it was bound
        # at and its inline depth; the .frame push lines of the inlined calls open now
        self.bindings: list = []         # (name, value, line index, depth, is a parameter)
        self.open_frames: list = []

    def check_clang_errors(self, function):
        """clang's errors inside a function the translation reads, raised: those elsewhere in the file
        (host code, other kernels) do not stop it."""
        inside = errors_inside(self.clang_errors, function)
        if inside:
            raise diagnostics_error(inside, self.file)
        if self.clang_errors and function.hash not in self.checked:
            if self.skipped is None:
                self.skipped = skipped_text(self.index.tu)
            check_recovered(function, self.clang_errors, self.skipped)
            self.checked.add(function.hash)

    # --- emission ---------------------------------------------------------------------------
    def emit(self, mnemonic: str, *operands, tag=None):
        """Append an instruction to the IR. Operands: virtual registers (VReg; ir.view(reg, type) for one
        read as a type), ir.Mem, ints, labels (a branch's last operand) and the text of a scalar operand
        (self.operand's). `tag`: a loop's start or end marker."""
        if self.const_only:
            raise NotConstant
        self.lines.append(ir.instruction(mnemonic, operands, self.regs, self.cur_loc, tag))

    def emit_text(self, text: str):
        """Append an instruction written as assembly text (a Reg form's filled-in template)."""
        if self.const_only:
            raise NotConstant
        self.lines.append(ir.parse(text, self.regs, self.cur_loc))

    def new_reg(self, file: str, name: str = "", loc=None) -> VReg:
        if self.const_only:
            raise NotConstant
        reg = VReg(file, len(self.regs), name, loc or self.cur_loc, len(self.lines))
        self.regs.append(reg)
        return reg

    def label(self, hint: str) -> str:
        self.labels += 1
        return f"L{self.labels}_{hint}"

    def place(self, label: str):
        if self.const_only:
            raise NotConstant
        self.lines.append(ir.LabelDef(label, self.cur_loc))
