"""What the front end computes at translation time: numeric_limits through the stub's own class
template, constexpr helper functions, traits on a class template's parameter inside a method's block."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("clang.cindex")
sys.path.insert(0, str(Path(__file__).parent))
import cpp_run  # noqa: E402  (tests/cpp_run.py)
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
