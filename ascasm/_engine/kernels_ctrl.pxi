# The CTRL special register (issue 12; reg-api Cast.md table 5, docs/semantics.md "The CTRL register"),
# included by core.pyx after the conversion kernels, which ask it whether to saturate.

from libc.math cimport ldexp

from ascasm.state import (CTRL_FLOAT_NO_SAT as _CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT as _CTRL_GLOBAL_SAT,
                          CTRL_INT_NO_SAT as _CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN as _CTRL_SAT_KEEPS_NAN)

cdef enum:
    CTRL_GLOBAL_SAT = 60            # 1: the saturation mode is global, each conversion's `sat` is ignored
    CTRL_FLOAT_NO_SAT = 48          # then 1: float results do not saturate
    CTRL_INT_NO_SAT = 59            # then 1: float->integer and integer->integer conversions do not
    CTRL_SAT_KEEPS_NAN = 50         # 1: a saturating conversion to e4m3/e5m2 gives NaN for NaN, not 0

assert (CTRL_GLOBAL_SAT, CTRL_FLOAT_NO_SAT, CTRL_INT_NO_SAT, CTRL_SAT_KEEPS_NAN) == \
    (_CTRL_GLOBAL_SAT, _CTRL_FLOAT_NO_SAT, _CTRL_INT_NO_SAT, _CTRL_SAT_KEEPS_NAN)


cdef inline bint ctrl_bit(Machine* m, int bit) noexcept nogil:
    return (m.ctrlreg[0] >> bit) & 1


cdef inline double largest_value(const Numeric* n) noexcept nogil:
    """The largest finite value of a lane type (exact in double but for 64-bit integers)."""
    cdef ExactValue x
    if n.hif8:
        return 32768.0
    if not n.is_float:
        return <double>(low_bits(n.width) >> 1 if n.signed else low_bits(n.width))
    x = number_of(n.f.max_finite, n)
    return ldexp(<double>x.magnitude, <int>x.exponent)


cdef inline bint conversion_saturates(Machine* m, bint keyword, const Numeric* ns, const Numeric* nd) noexcept nogil:
    """Whether a conversion saturates: its `sat` keyword, unless CTRL makes the mode global. The global
    mode governs the pairs whose page has _sat forms, which are exactly those that can overflow (the
    destination's largest value is below the source's; tests/test_ctrl.py checks this on the table)."""
    if not ctrl_bit(m, CTRL_GLOBAL_SAT) or largest_value(nd) >= largest_value(ns):
        return keyword
    return not ctrl_bit(m, CTRL_FLOAT_NO_SAT if nd.is_float else CTRL_INT_NO_SAT)


cdef inline bint saturation_keeps_nan(Machine* m, int32_t destination) noexcept nogil:
    return (destination == T_E4M3 or destination == T_E5M2) and ctrl_bit(m, CTRL_SAT_KEEPS_NAN)


# sprset.ctrl X  -- CTRL = X, all 64 bits
cdef inline int k_spr_set_ctrl(Machine* m, const Ins* ins, const Args_spr_set_ctrl* a) noexcept nogil:
    m.ctrlreg[0] = <uint64_t>sval(&a.x)
    return STOP_RUNNING
