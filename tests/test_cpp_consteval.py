"""What the front end computes at translation time: numeric_limits through the stub's own class
template, constexpr helper functions, traits on a class template's parameter inside a method's block;
and the constant evaluator on its own, over a probe function's expressions (values as C++ defines
them, nothing emitted, a run-time expression not constant)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")
sys.path.insert(0, str(Path(__file__).parent))
import cpp_run  # noqa: E402  (tests/cpp_run.py)
from ascasm.cpp import clang, cpptypes  # noqa: E402
from ascasm.cpp.lower import Lowering  # noqa: E402
from ascasm.cpp.scope import Frame  # noqa: E402
from ascasm.cpp.translate import TUIndex  # noqa: E402
from ascasm.cpp.values import Const, NotConstant  # noqa: E402
from test_cpp_translate import tr  # noqa: E402

LIMITS = """
#include <limits>
template <typename T>
__simd_vf__ void Limits(__ubuf__ T* top, __ubuf__ T* bottom, __ubuf__ T* low)
{
    constexpr T big = std::numeric_limits<T>::max();
    Reg::RegTensor<T> x;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::Duplicate(x, big, m);
    Reg::StoreAlign(top, x, m);
    Reg::Duplicate(x, std::numeric_limits<T>::min(), m);
    Reg::StoreAlign(bottom, x, m);
    Reg::Duplicate(x, std::numeric_limits<T>::lowest(), m);
    Reg::StoreAlign(low, x, m);
}
"""


def _limits(dtype):
    """(max, min, lowest) as the C++ standard defines them: min is the smallest normal for a float."""
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return info.max, info.min, info.min
    info = np.finfo(dtype)
    return info.max, info.tiny, -info.max


@pytest.mark.parametrize("ctype, dtype", [("int32_t", np.int32), ("uint16_t", np.uint16), ("int8_t", np.int8),
                                          ("uint32_t", np.uint32), ("float", np.float32), ("half", np.float16)])
def test_numeric_limits_of_a_template_parameter_fold_in_the_stub(tmp_path, engine, ctype, dtype):
    t = tr(tmp_path, LIMITS, f"Limits<{ctype}>")
    lanes = 256 // np.dtype(dtype).itemsize
    buffers = {name: np.zeros(lanes, dtype) for name in ("top", "bottom", "low")}
    result = cpp_run.run(t, engine, **buffers)
    for name, value in zip(("top", "bottom", "low"), _limits(dtype)):
        assert result[name].tobytes() == np.full(lanes, value, dtype).tobytes(), name


CONSTEXPR_HELPER = """
constexpr uint32_t RowsOf(uint32_t bytes, uint32_t width) { return (bytes + width - 1) / width * 2 + 1; }
template <typename T>
__simd_vf__ void Rows(__ubuf__ T* out)
{
    constexpr uint32_t rows = RowsOf(sizeof(T) * 10, 4);
    static_assert(RowsOf(7, 4) == 5, "a constexpr helper in a static_assert");
    Reg::RegTensor<T> x;
    Reg::MaskReg m = Reg::CreateMask<T>();
    Reg::Duplicate(x, (T)rows, m);
    Reg::StoreAlign(out, x, m);
}
"""


@pytest.mark.parametrize("ctype, dtype, rows", [("float", np.float32, 21), ("int16_t", np.int16, 11)])
def test_a_constexpr_helper_function_folds(tmp_path, engine, ctype, dtype, rows):
    # ceil(40 / 4) * 2 + 1 = 21 for 4-byte T, ceil(20 / 4) * 2 + 1 = 11 for 2-byte T
    t = tr(tmp_path, CONSTEXPR_HELPER, f"Rows<{ctype}>")
    lanes = 256 // np.dtype(dtype).itemsize
    result = cpp_run.run(t, engine, out=np.zeros(lanes, dtype))
    assert result["out"].tobytes() == np.full(lanes, rows, dtype).tobytes()


CLASS_BLOCK = """
#include <limits>
template <typename T>
class Fill {
public:
    __aicore__ inline void Process(__ubuf__ T* out)
    {
        __VEC_SCOPE__ {
            Reg::RegTensor<T> x;
            Reg::MaskReg m = Reg::CreateMask<T>();
            if constexpr (std::is_same<T, half>::value && sizeof(T) == 2) {
                Reg::Duplicate(x, (T)-1.5f, m);
            } else if constexpr (std::is_signed_v<T>) {
                Reg::Duplicate(x, std::numeric_limits<T>::max(), m);
            } else {
                Reg::Duplicate(x, (T)7, m);
            }
            Reg::StoreAlign(out, x, m);
        }
    }
};
"""


@pytest.mark.parametrize("ctype, dtype, value", [("half", np.float16, -1.5), ("int16_t", np.int16, 32767),
                                                 ("uint8_t", np.uint8, 7)])
def test_traits_of_a_class_template_parameter_fold_in_a_method_block(tmp_path, engine, ctype, dtype, value):
    t = tr(tmp_path, CLASS_BLOCK, f"Fill<{ctype}>::Process#1")
    lanes = 256 // np.dtype(dtype).itemsize
    result = cpp_run.run(t, engine, out=np.zeros(lanes, dtype))
    assert result["out"].tobytes() == np.full(lanes, value, dtype).tobytes()



BUILTIN_TRAITS = """
template <typename T>
__simd_vf__ void Pick(__ubuf__ T* out)
{
    Reg::RegTensor<T> x;
    Reg::MaskReg m = Reg::CreateMask<T>();
    if constexpr (__is_same(T, half) || (__is_signed(T) && !__is_floating_point(T))) {
        Reg::Duplicate(x, (T)1, m);
    } else {
        Reg::Duplicate(x, (T)2, m);
    }
    Reg::StoreAlign(out, x, m);
}
"""


@pytest.mark.parametrize("ctype, dtype, value", [("half", np.float16, 1), ("int32_t", np.int32, 1),
                                                 ("uint16_t", np.uint16, 2), ("float", np.float32, 2)])
def test_clang_type_trait_builtins_fold(tmp_path, engine, ctype, dtype, value):
    # the stubs' <limits> and <type_traits> are written with them
    t = tr(tmp_path, BUILTIN_TRAITS, f"Pick<{ctype}>")
    lanes = 256 // np.dtype(dtype).itemsize
    result = cpp_run.run(t, engine, out=np.zeros(lanes, dtype))
    assert result["out"].tobytes() == np.full(lanes, value, dtype).tobytes()


# The evaluator on its own: each expression statement of a probe function evaluated over the AST, with
# its template argument bound (T = half) and its parameters in registers.

PROBE = """
#include "kernel_operator.h"
#include <limits>
#include <type_traits>
enum class Mode { Low = 2, High = 7 };
constexpr int kRows = 6;
constexpr int Square(int v) { return v * v; }
constexpr int Pick(int v) { if (v > 3) { return v - 3; } return v + 3; }
struct Shape { static constexpr int width = 16; };
template <typename T>
void Probe(T x, int n)
{
    -7 / 2;
    -7 % 2;
    (unsigned char)300;
    1u - 2;
    ~0u;
    static_cast<int8_t>(200);
    (3 > 2) ? 10 : 20;
    true && 0;
    !kRows;
    kRows * 4 + 1;
    Square(kRows);
    Pick(5) + Pick(1);
    Shape::width / 4;
    static_cast<int>(Mode::High);
    sizeof(T);
    std::numeric_limits<int16_t>::max();
    std::numeric_limits<uint8_t>::max();
    std::is_same<T, half>::value;
    std::is_integral<T>::value;
    0.1f;
    (1 << 4) | 3;
    n + 1;
    x * 2;
    n++;
    kRows > 2 && n > 0;
}
"""
# each expression's value as C++ defines it, worked by hand (None: known only at run time)
PROBE_VALUES = [-3, -1, 44, 4294967295, 4294967295, -56, 10, 0, 0, 25, 36, 6, 4, 7, 2, 32767, 255, 1, 0,
                float(np.float32(0.1)), 19, None, None, None, None]


def _probe_lowering(tmp_path):
    path = tmp_path / "probe.cpp"
    path.write_text(PROBE)
    tu, errors = clang.parse(str(path))
    index = TUIndex(tu, str(path))
    probe = next(f for f in index.functions if f.spelling == "Probe")
    lowering = Lowering(index, str(path), errors)
    lowering.frames.append(Frame(targs={"T": Const(cpptypes.scalar("f16"), None)}))
    params = [p for p in probe.get_children() if p.kind.name == "PARM_DECL"]
    for param in params:           # run-time parameters: values in registers
        lowering.bind(param, lowering.materialize(Const(1, lowering.resolve_type(param.type, param))))
    emitted = len(lowering.lines)
    body = next(ch for ch in probe.get_children() if ch.kind.name == "COMPOUND_STMT")
    return lowering, list(body.get_children()), emitted


def test_the_evaluator_folds_as_cpp_does_and_emits_nothing(tmp_path):
    lowering, expressions, emitted = _probe_lowering(tmp_path)
    assert len(expressions) == len(PROBE_VALUES)
    regs = len(lowering.regs)
    for expression, expected in zip(expressions, PROBE_VALUES):
        value = lowering.try_const(expression)
        where = expression.extent.start.line
        if expected is None:
            assert value is None, where
        else:
            assert value is not None and lowering.const_number(value) == expected, (where, value)
    assert len(lowering.lines) == emitted and len(lowering.regs) == regs and not lowering.params


def test_a_run_time_expression_is_not_constant(tmp_path):
    lowering, expressions, _ = _probe_lowering(tmp_path)
    with pytest.raises(NotConstant):
        lowering.constant(expressions[PROBE_VALUES.index(None)])
