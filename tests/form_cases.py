"""The cases of tests/test_cpp_forms.py, one or more for every form of the Reg API mapping table
(ascasm/isa/regapi.py): for each form, a small kernel of our own that calls it, its inputs, and the
output numpy computes from the form's page definition (the formula of the page, masked lanes per the
merge mode). Every form is either covered by a case or listed in PENDING with the reason it has no case
yet; tools/gen_form_cases.py reads COVERED and PENDING, so a new form without a case fails
`python tools/regen.py --check`. Building the cases needs numpy only (no libclang)."""
from __future__ import annotations

from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

from ascasm.isa import regapi

HEADER = '#include "kernel_operator.h"\nusing namespace AscendC;\n'
NP = {"float": np.float32, "half": np.float16, "bfloat16_t": ml_dtypes.bfloat16, "int8_t": np.int8,
      "uint8_t": np.uint8, "int16_t": np.int16, "uint16_t": np.uint16, "int32_t": np.int32, "uint32_t": np.uint32,
      "int64_t": np.int64, "uint64_t": np.uint64}
LANES = {np.dtype(t).itemsize: 256 // np.dtype(t).itemsize for t in NP.values()}
COUNT_SHORT = 7                       # active lanes below a whole register: inactive lanes are checked too


def form_key(api: regapi.RegApi, form: regapi.Form) -> str:
    when = "".join(f" {k}={v}" for k, v in form.when)
    return f"{api.name}({form.args}){when}"


ALL_FORMS = {form_key(api, form): (api, form) for api in regapi.APIS for form in api.forms}


@dataclass
class Case:
    key: str                     # the form it exercises
    ctype: str
    kernel: str                  # a __simd_vf__ FormVF(...)
    inputs: dict                 # parameter -> ndarray or scalar
    expect: dict                 # output parameter -> ndarray
    ulps: int = 0                # allowed distance in units in the last place (the page's precision)
    lanes: int | None = None     # compare only the first `lanes` elements (the ones the page defines)
    extra: tuple = field(default=())
    instruction: str | None = None  # the mnemonic, where the row leaves part of it to the call (Cast's rounding)
    prologue: str = ""           # assembly run before the function: what the kernel's host code does first

    @property
    def mnemonic(self) -> str:
        return self.instruction or ALL_FORMS[self.key][1].asm[0].split()[0]

    @property
    def id(self) -> str:
        return f"{self.key} T={self.ctype}"


def values(ctype, n, low, high, seed, integers=False):
    rng = np.random.default_rng(seed)
    dtype = NP[ctype]
    if integers or np.issubdtype(np.dtype(dtype), np.integer):
        return rng.integers(low, high, n).astype(dtype)
    return rng.uniform(low, high, n).astype(np.float32).astype(dtype)


def masked(result, old, count, merging):
    """The register after a masked operation on the first `count` lanes: inactive lanes 0 (ZEROING)
    or their old value (MERGING)."""
    out = old.copy() if merging else np.zeros_like(result)
    out[:count] = result[:count]
    return out


# --- vector (dst, src0, src1, mask): the page formulas; z is dst's value before the call ---
BINARY = {
    "Add": (lambda a, b, z: a + b, ("float", "half", "int16_t")),
    "Sub": (lambda a, b, z: a - b, ("float", "int32_t")),
    "Mul": (lambda a, b, z: a * b, ("float", "half", "int16_t")),
    "Div": (lambda a, b, z: a / b, ("float", "half")),
    "Max": (lambda a, b, z: np.maximum(a, b), ("float", "int16_t")),
    "Min": (lambda a, b, z: np.minimum(a, b), ("half", "int32_t")),
    "Prelu": (lambda a, b, z: np.where(a > 0, a, a * b), ("float", "half")),
    "AbsSub": (lambda a, b, z: np.abs(a - b), ("float", "half")),
    "MulDstAdd": (lambda a, b, z: z * a + b, ("float",)),
    "MulAddDst": (lambda a, b, z: a * b + z, ("float", "int16_t")),
    "And": (lambda a, b, z: a & b, ("uint16_t", "int32_t")),
    "Or": (lambda a, b, z: a | b, ("uint16_t", "int32_t")),
    "Xor": (lambda a, b, z: a ^ b, ("uint16_t", "int32_t")),
    "ShiftRight": (lambda a, b, z: a >> b, ("int16_t",)),
    "ShiftLeft": (lambda a, b, z: a << b.astype(a.dtype), ("uint16_t",)),
}
# the multiply-adds are checked on small integers, exact under one rounding or two
_FMA = ("MulDstAdd", "MulAddDst")
# a *SpecificMode struct selects an algorithm: {struct, algo enum}
SPECIFIC = {"Div": ("DivSpecificMode", "DivAlgo"), "Sqrt": ("SqrtSpecificMode", "SqrtAlgo"),
            "Exp": ("ExpSpecificMode", "ExpAlgo"), "Ln": ("LnSpecificMode", "LnAlgo"),
            "Log": ("LogSpecificMode", "LogAlgo"), "Log2": ("LogSpecificMode", "LogAlgo"),
            "Log10": ("LogSpecificMode", "LogAlgo")}


def template_options(api_name, form, ctype) -> tuple[str, str]:
    """The call's template arguments for the form's `when`, and a declaration they need."""
    when = dict(form.when)
    if "mode.algo" in when:
        struct, enum = SPECIFIC[api_name]
        flag = ", true" if api_name in ("Div", "Sqrt") else ""
        decl = f"static constexpr Reg::{struct} spec = {{Reg::MaskMergeMode::ZEROING{flag}, {enum}::{when['mode.algo']}}};"
        return f"<{ctype}, &spec>", decl
    if when.get("mode") == "MERGING":
        return f"<{ctype}, Reg::MaskMergeMode::MERGING>", ""
    return "", ""


def binary_case(api_name, form, ctype, seed) -> Case:
    fn, _ = BINARY[api_name]
    shift = api_name.startswith("Shift")
    utype = "int16_t" if shift else ctype
    n = LANES[np.dtype(NP[ctype]).itemsize]
    targs, decl = template_options(api_name, form, ctype)
    if api_name in _FMA or np.issubdtype(np.dtype(NP[ctype]), np.integer):
        a, z = values(ctype, n, -20, 20, seed, True), values(ctype, n, -20, 20, seed + 2, True)
        b = values(utype, n, 0, 15, seed + 1, True) if shift else values(ctype, n, -20, 20, seed + 1, True)
    else:
        a, b, z = (values(ctype, n, -8, 8, seed + k) for k in range(3))
    if api_name == "Div":
        b = np.where(np.abs(b.astype(np.float32)) < 0.25, NP[ctype](1.5), b).astype(NP[ctype])
    merging = dict(form.when).get("mode") == "MERGING"
    with np.errstate(all="ignore"):
        result = fn(a, b, z).astype(NP[ctype])
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src0, __ubuf__ {utype}* src1, uint32_t count)
    {{
        {decl}
        Reg::RegTensor<{ctype}> x, z;
        Reg::RegTensor<{utype}> y;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src0);
        Reg::LoadAlign(y, src1);
        Reg::LoadAlign(z, dst);
        Reg::{api_name}{targs}(z, x, y, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), ctype, kernel,
                {"dst": z, "src0": a, "src1": b, "count": COUNT_SHORT},
                {"dst": masked(result, z, COUNT_SHORT, merging)})


UNARY = {
    "Abs": (np.abs, ("float", "int16_t"), (-9, 9), 0),
    "Neg": (np.negative, ("half", "int32_t"), (-9, 9), 0),
    "Relu": (lambda x: np.maximum(x, 0), ("float", "int32_t"), (-9, 9), 0),
    "Not": (np.invert, ("uint16_t", "int32_t"), (-99, 99), 0),
    "Sqrt": (np.sqrt, ("float", "half"), (0, 50), 0),
    "Exp": (np.exp, ("float", "half"), (-5, 5), 1),
    "Ln": (np.log, ("float", "half"), (0.01, 50), 1),
    "Log": (np.log, ("float",), (0.01, 50), 1),
    "Log2": (np.log2, ("float", "half"), (0.01, 50), 1),
    "Log10": (np.log10, ("float",), (0.01, 50), 1),
}


def unary_case(api_name, form, ctype, seed) -> Case:
    fn, _, (low, high), ulps = UNARY[api_name]
    n = LANES[np.dtype(NP[ctype]).itemsize]
    x = values(ctype, n, low, high, seed)
    z = values(ctype, n, low, high, seed + 1)
    # the transcendental pages allow 1 ulp; numpy computes in float64 and rounds once here
    result = fn(x.astype(np.float64)).astype(NP[ctype]) if ulps else fn(x)
    targs, decl = template_options(api_name, form, ctype)
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src, uint32_t count)
    {{
        {decl}
        Reg::RegTensor<{ctype}> x, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src);
        Reg::LoadAlign(z, dst);
        Reg::{api_name}{targs}(z, x, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), ctype, kernel, {"dst": z, "src": x, "count": COUNT_SHORT},
                {"dst": masked(result, z, COUNT_SHORT, False)}, ulps=ulps)


SCALAR = {
    "Adds": (lambda a, s, z: a + s, ("float", "int16_t")),
    "Muls": (lambda a, s, z: a * s, ("float", "half")),
    "Maxs": (lambda a, s, z: np.maximum(a, s), ("float", "int32_t")),
    "Mins": (lambda a, s, z: np.minimum(a, s), ("half", "int16_t")),
    "LeakyRelu": (lambda a, s, z: np.where(a > 0, a, a * s), ("float", "half")),
    "Axpy": (lambda a, s, z: s * a + z, ("float",)),
    "ShiftLefts": (lambda a, s, z: a << s, ("uint16_t", "int32_t")),
    "ShiftRights": (lambda a, s, z: a >> s, ("int16_t", "uint32_t")),
}


def scalar_case(api_name, form, ctype, seed) -> Case:
    fn, _ = SCALAR[api_name]
    n = LANES[np.dtype(NP[ctype]).itemsize]
    integer = np.issubdtype(np.dtype(NP[ctype]), np.integer)
    shift = api_name.startswith("Shift")
    stype = "int16_t" if shift else ctype
    a = values(ctype, n, 0 if shift else -20, 99 if shift else 20, seed, integer or api_name == "Axpy")
    z = values(ctype, n, -20, 20, seed + 1, integer or api_name == "Axpy")
    s = 3 if shift or integer or api_name == "Axpy" else -0.375
    result = fn(a, NP[ctype](s), z).astype(NP[ctype])
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src, {stype} s, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> x, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src);
        Reg::LoadAlign(z, dst);
        Reg::{api_name}(z, x, s, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), ctype, kernel,
                {"dst": z, "src": a, "s": s, "count": COUNT_SHORT}, {"dst": masked(result, z, COUNT_SHORT, False)})


COMPARE = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater,
           "GE": np.greater_equal}


def compare_case(api_name, form, ctype, seed) -> Case:
    """Compare(s) makes a mask over the active lanes (inactive bits clear); Select(z, x, y, that mask)
    picks x where it is set, y elsewhere: the output shows every bit."""
    mode = dict(form.when)["mode"]
    n = LANES[np.dtype(NP[ctype]).itemsize]
    x, y = values(ctype, n, -3, 3, seed, True), values(ctype, n, -3, 3, seed + 1, True)
    scalar = api_name == "Compares"
    bits = COMPARE[mode](x, NP[ctype](1) if scalar else y)
    bits[COUNT_SHORT:] = False
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src0, __ubuf__ {ctype}* src1, {ctype} s,
                                   uint32_t count)
    {{
        Reg::RegTensor<{ctype}> x, y, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::MaskReg p;
        Reg::LoadAlign(x, src0);
        Reg::LoadAlign(y, src1);
        Reg::{api_name}<{ctype}, Reg::CMPMODE::{mode}>(p, x, {"s" if scalar else "y"}, m);
        Reg::Select(z, x, y, p);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    inputs = {"dst": np.zeros(n, NP[ctype]), "src0": x, "src1": y, "s": 1, "count": COUNT_SHORT}
    return Case(form_key(regapi.BY_NAME[api_name], form), ctype, kernel, inputs, {"dst": np.where(bits, x, y)},
                extra=("vsel",))


def duplicate_case(api_name, form, ctype, seed) -> Case:
    n = LANES[np.dtype(NP[ctype]).itemsize]
    z = values(ctype, n, -9, 9, seed, True)
    x = values(ctype, n, -9, 9, seed + 1, True)
    when, args = dict(form.when), form.args
    merging = when.get("mode") == "MERGING"
    if api_name == "Arange":
        order = when["order"]
        call = f"Reg::Arange<{ctype}, Reg::IndexOrder::{order}>(z, s);"
        # the page: increasing from scalarValue, or decreasing down to scalarValue in the last lane
        lanes = np.arange(n) if order == "INCREASE_ORDER" else np.arange(n)[::-1]
        expect = (5 + lanes).astype(NP[ctype])
    elif args == "dst:v scalar:s":
        call, expect = "Reg::Duplicate(z, s);", np.full(n, 5, NP[ctype])
    elif args == "dst:v scalar:s mask:p":
        mode = "MERGING" if merging else "ZEROING"
        call = f"Reg::Duplicate<{ctype}, Reg::MaskMergeMode::{mode}>(z, s, m);"
        expect = masked(np.full(n, 5, NP[ctype]), z, COUNT_SHORT, merging)
    else:                                   # the register form: lane 0 of src (pos=LOWEST) to the active lanes
        mode = "MERGING" if merging else "ZEROING"
        call = f"Reg::Duplicate<{ctype}, Reg::HighLowPart::LOWEST, Reg::MaskMergeMode::{mode}>(z, x, m);"
        expect = masked(np.full(n, x[0], NP[ctype]), z, COUNT_SHORT, merging)
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src, {ctype} s, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> x, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src);
        Reg::LoadAlign(z, dst);
        {call}
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), ctype, kernel,
                {"dst": z, "src": x, "s": 5, "count": COUNT_SHORT}, {"dst": expect})


# --- memory forms: each distribution's layout, from the pages' tables (LoadDist / StoreDist) ---
# (pointer type T, register type R, bytes the load reads): the widths the distribution names
LOAD_TYPES = {"DIST_NORM": ("float", "float", 256), "DIST_BRC_B8": ("uint8_t", "uint8_t", 1),
              "DIST_BRC_B16": ("half", "half", 2), "DIST_BRC_B32": ("float", "float", 4),
              "DIST_US_B8": ("uint8_t", "uint8_t", 128), "DIST_US_B16": ("half", "half", 128),
              "DIST_DS_B8": ("uint8_t", "uint8_t", 512), "DIST_DS_B16": ("half", "half", 512),
              "DIST_UNPACK_B8": ("uint8_t", "uint16_t", 128), "DIST_UNPACK_B16": ("uint16_t", "uint32_t", 128),
              "DIST_UNPACK_B32": ("uint32_t", "uint64_t", 128),
              "DIST_UNPACK4_B8": ("uint8_t", "uint32_t", 64), "DIST_BLK": ("float", "float", 32),
              "DIST_E2B_B16": ("half", "half", 16), "DIST_E2B_B32": ("float", "float", 32),
              "DIST_DINTLV_B8": ("uint8_t", "uint8_t", 512), "DIST_DINTLV_B16": ("half", "half", 512),
              "DIST_DINTLV_B32": ("float", "float", 512)}


def loaded(dist, src, rtype):
    """The register(s) a LoadAlign with this distribution fills from the elements at src (a T array)."""
    n = 256 // np.dtype(NP[rtype]).itemsize
    if dist == "DIST_NORM":
        return [src[:n]]
    if dist.startswith("DIST_BRC"):
        return [np.full(n, src[0])]
    if dist.startswith("DIST_US"):
        return [np.repeat(src[:n // 2], 2)]
    if dist.startswith("DIST_DS"):
        return [src[:2 * n:2]]
    if dist.startswith(("DIST_UNPACK", "DIST_UNPACK4")):
        return [src[:n].astype(NP[rtype])]               # zero-extended: unsigned types
    if dist == "DIST_BLK":
        return [np.tile(src[:32 // src.itemsize], 8)]
    if dist.startswith("DIST_E2B"):
        return [np.repeat(src[:8], n // 8)]
    if dist.startswith("DIST_DINTLV"):
        return [src[:2 * n:2], src[1:2 * n:2]]
    raise KeyError(dist)


def load_case(form) -> Case:
    """LoadAlign in its three addressings: at src; post-update, twice, the second load where the first
    moved the pointer; at src + an AddrReg offset. Each register read is stored whole to dst."""
    when = dict(form.when)
    dist = when["dist"]
    ctype, rtype, nbytes = LOAD_TYPES[dist]
    size = np.dtype(NP[ctype]).itemsize
    step = max(32, nbytes) // size                      # elements of T: each dist's alignment holds
    src = (np.arange(2048 // size) * 7 + 3).astype(NP[ctype])
    two = dist.startswith("DIST_DINTLV")
    regs = "x, y" if two else "x"
    n = 256 // np.dtype(NP[rtype]).itemsize
    if "post" in when:
        call = (f"Reg::LoadAlign<{ctype}, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::{dist}>({regs}, p, step);"
                "\n        STORE(0)\n"
                f"        Reg::LoadAlign<{ctype}, Reg::PostLiteral::POST_MODE_UPDATE, Reg::LoadDist::{dist}>({regs}, p, step);"
                "\n        STORE(1)")
        reads = [src, src[step:]]
    elif "off:a" in form.args:
        call = (f"Reg::AddrReg off = Reg::CreateAddrReg<{ctype}>(count, {step});\n"
                f"        Reg::LoadAlign<{ctype}, Reg::LoadDist::{dist}>({regs}, src, off);\n        STORE(0)")
        reads = [src[step:]]
    else:
        call = f"Reg::LoadAlign<{ctype}, Reg::LoadDist::{dist}>({regs}, src);\n        STORE(0)"
        reads = [src]
    per = 2 if two else 1

    def store(k):
        out = f"Reg::StoreAlign(dst + {per * k * n}, x, all);"
        return out + (f" Reg::StoreAlign(dst + {per * k * n + n}, y, all);" if two else "")
    for k in range(2):
        call = call.replace(f"STORE({k})", store(k))
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {rtype}* dst, __ubuf__ {ctype}* src, int32_t step, uint32_t count)
    {{
        Reg::RegTensor<{rtype}> x, y;
        Reg::MaskReg all = Reg::CreateMask<{rtype}>();
        __ubuf__ {ctype}* p = src;
        {call}
    }}
    """
    expect = np.concatenate([r for read in reads for r in loaded(dist, read, rtype)]).astype(NP[rtype])
    dst = np.zeros(per * 2 * n, NP[rtype])
    full = dst.copy()
    full[:expect.size] = expect
    return Case(form_key(regapi.BY_NAME["LoadAlign"], form), ctype, kernel,
                {"dst": dst, "src": src, "step": step, "count": 1}, {"dst": full})


# (pointer type T, register type R) per StoreDist; the stored bytes of each lane, from the page's table 3
STORE_TYPES = {"DIST_NORM": ("float", "float"), "DIST_NORM_B8": ("uint8_t", "uint8_t"),
               "DIST_NORM_B16": ("half", "half"), "DIST_NORM_B32": ("float", "float"),
               "DIST_FIRST_ELEMENT_B8": ("uint8_t", "uint8_t"), "DIST_FIRST_ELEMENT_B16": ("half", "half"),
               "DIST_FIRST_ELEMENT_B32": ("float", "float"), "DIST_PACK_B16": ("uint8_t", "uint16_t"),
               "DIST_PACK_B32": ("uint16_t", "uint32_t"), "DIST_PACK_B64": ("uint32_t", "uint64_t"),
               "DIST_PACK4_B32": ("uint8_t", "uint32_t"),
               "DIST_INTLV_B8": ("uint8_t", "uint8_t"), "DIST_INTLV_B16": ("half", "half"),
               "DIST_INTLV_B32": ("float", "float")}


def stored(dist, x, y, count, ctype):
    """What a StoreAlign with this distribution writes at dst, as T elements (None: left alone)."""
    t = NP[ctype]
    if dist.startswith("DIST_NORM"):
        return x[:count].astype(t)                           # the active lanes
    if dist.startswith("DIST_FIRST"):
        return x[:1].astype(t)                               # lane 0, whatever the mask
    if dist.startswith(("DIST_PACK_", "DIST_PACK4")):
        return x[:count].astype(t)       # the low half (quarter) of active lane i at slot i (docs/semantics.md)
    if dist.startswith("DIST_INTLV"):
        out = np.empty(2 * x.size, t)
        out[0::2], out[1::2] = x, y
        return out
    raise KeyError(dist)


def store_case(form) -> Case:
    when = dict(form.when)
    dist = when["dist"]
    ctype, rtype = STORE_TYPES[dist]
    n = 256 // np.dtype(NP[rtype]).itemsize
    two = dist.startswith("DIST_INTLV")
    count = COUNT_SHORT
    regs = "x, y" if two else "x"
    mask = ", m"                                                 # INTLV takes a mask and ignores it (its page)
    size = np.dtype(NP[ctype]).itemsize
    step = 1024 // size                                          # past the widest store (INTLV: 512 bytes)
    if "post" in when:
        # a packing store's run-time stride in T is not a whole number of its view's elements: the
        # translator then stores without post-update (tests/test_cpp_units.py); a constant keeps the form
        stride = step if dist.startswith("DIST_PACK") else "step"
        call = (f"Reg::StoreAlign<{ctype}, Reg::PostLiteral::POST_MODE_UPDATE, Reg::StoreDist::{dist}>(p, {regs}, {stride}{mask});\n"
                f"        Reg::StoreAlign<{ctype}, Reg::PostLiteral::POST_MODE_UPDATE, Reg::StoreDist::{dist}>(p, {regs}, {stride}{mask});")
        at = [0, step]
    elif "off:a" in form.args:
        call = (f"Reg::AddrReg off = Reg::CreateAddrReg<{ctype}>(one, {step});\n"
                f"        Reg::StoreAlign<{ctype}, Reg::StoreDist::{dist}>(dst, {regs}, off{mask});")
        at = [step]
    else:
        call = f"Reg::StoreAlign<{ctype}, Reg::StoreDist::{dist}>(dst, {regs}{mask});"
        at = [0]
    wide = np.arange(n, dtype=np.uint64) * 0x01030507 + 0x0A0B0C0D      # every byte of a lane differs
    a = (wide % 251).astype(NP[rtype]) if rtype in ("float", "half") else wide.astype(NP[rtype])
    b = (wide % 241).astype(NP[rtype]) if rtype in ("float", "half") else (wide * 3).astype(NP[rtype])
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {rtype}* src0, __ubuf__ {rtype}* src1, int32_t step,
                                   uint32_t count, uint32_t one)
    {{
        Reg::RegTensor<{rtype}> x, y;
        Reg::MaskReg m = Reg::UpdateMask<{rtype}>(count);
        __ubuf__ {ctype}* p = dst;
        Reg::LoadAlign(x, src0);
        Reg::LoadAlign(y, src1);
        {call}
    }}
    """
    dst = np.full(3 * step, 0x55, NP[ctype]) if np.issubdtype(np.dtype(NP[ctype]), np.integer) \
        else np.full(3 * step, -1.5, NP[ctype])
    expect = dst.copy()
    for offset in at:
        data = stored(dist, a, b, count, ctype)
        expect[offset:offset + data.size] = data
    return Case(form_key(regapi.BY_NAME["StoreAlign"], form), ctype, kernel,
                {"dst": dst, "src0": a, "src1": b, "step": step, "count": count, "one": 1}, {"dst": expect})


# --- reductions (the Reduce page, the seed of this product, and the ...WithDataBlock pages) ---
def reduce_case(api_name, form, ctype, seed) -> Case:
    """SUM: lane 0 = the sum of the active lanes; MAX/MIN: lane 0 the extreme, lane 1 the index of its
    first occurrence as T's raw bits (inactive lanes count as T's lowest/highest); the per-block forms do
    the same in each 32-byte block, one result per block in lanes 0..7; PairReduceElem adds neighbours."""
    when = dict(form.when)
    kind = when.get("type") or api_name.removeprefix("Reduce").removesuffix("WithDataBlock").upper()
    per_block = "DataBlock" in api_name or form.asm[0].split()[0].endswith(".blk")
    n = LANES[np.dtype(NP[ctype]).itemsize]
    x = values(ctype, n, -50, 50, seed, True)                  # small integers: every sum order is exact
    count = n - 5
    active = x[:count]
    out = np.zeros(n, NP[ctype])
    if api_name == "PairReduceElem":
        padded = np.concatenate([active, np.zeros(n - count, NP[ctype])])
        out[:n // 2] = padded[0::2] + padded[1::2]
        lanes = n // 2
    elif per_block:
        block = 32 // x.itemsize
        reduce = {"SUM": np.sum, "MAX": np.max, "MIN": np.min}[kind]
        for k in range(8):
            part = x[k * block:min((k + 1) * block, count)]
            out[k] = reduce(part) if part.size else 0
        lanes = 7                                                # the last block has no active lane: its value is the rule's
    elif kind == "SUM":
        out[0], lanes = active.sum(), 1
    else:
        index = int(np.argmax(active) if kind == "MAX" else np.argmin(active))
        out[0] = active[index]
        out[1:2] = np.array([index], {2: np.uint16, 4: np.uint32}[x.itemsize]).view(NP[ctype])
        lanes = 2
    enum = "PairReduce" if api_name == "PairReduceElem" else "ReduceType"
    targs = f"<Reg::{enum}::{kind}>" if "type" in when else ""
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> x, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src);
        Reg::{api_name}{targs}(z, x, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), ctype, kernel,
                {"dst": np.full(n, 3, NP[ctype]), "src": x, "count": count}, {"dst": out}, lanes=lanes)


REDUCTIONS = ("Reduce", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceSumWithDataBlock", "ReduceMaxWithDataBlock",
              "ReduceMinWithDataBlock", "ReduceDataBlock", "PairReduceElem")


# --- mask registers: loads and stores of their 256 bits (the MaskReg pages; offsets in bytes), and the
# bitwise forms. A mask in memory is 32 bytes, bit j of the register in byte j // 8, bit j % 8 ---
def bits_of(data):
    return np.unpackbits(data, bitorder="little")


def bytes_of(bits):
    return np.packbits(bits.astype(np.uint8), bitorder="little")


MASK_LOAD_BYTES = {"DIST_NORM": 32, "DIST_US": 16, "DIST_DS": 64}


def mask_loaded(dist, data):
    """The register's 256 bits after a mask load with this distribution from the bytes at data."""
    bits = bits_of(data[:MASK_LOAD_BYTES[dist]])
    return {"DIST_NORM": bits, "DIST_US": np.repeat(bits, 2), "DIST_DS": bits[0::2]}[dist]


def mask_memory_case(api_name, form) -> Case:
    """A MaskReg LoadAlign (then a NORM store of it) or a StoreAlign (of a NORM-loaded mask), in the
    three addressings: plain, post-update twice by 64 bytes, and an AddrReg offset of 64 bytes."""
    when = dict(form.when)
    dist, load = when["dist"], api_name == "LoadAlign"
    src = ((np.arange(256, dtype=np.uint32) * 0x9E3779B1) >> 13).astype(np.uint8)
    enum = "MaskDist"
    post = "post" in when
    if "off:a" in form.args:
        access = "ACCESS(src, off)" if load else "ACCESS(dst, off)"
        prologue = "Reg::AddrReg off = Reg::CreateAddrReg<uint8_t>(one, 64);"
        offsets = [64]
    elif post:
        access = "ACCESS(q, 64)"
        prologue = ""
        offsets = [0, 64]
    else:
        access = "ACCESS(src)" if load else "ACCESS(dst)"
        prologue = ""
        offsets = [0]
    targs = f"<uint8_t, Reg::PostLiteral::POST_MODE_UPDATE, Reg::{enum}::{dist}>" if post else f"<uint8_t, Reg::{enum}::{dist}>"
    dst = np.full(256, 0xA5, np.uint8)
    expect = dst.copy()
    if load:
        calls = []
        for k, at in enumerate(offsets):
            call = f"Reg::LoadAlign{targs}(pm, " + access[len("ACCESS("):]
            calls.append(call + ";")
            calls.append(f"Reg::StoreAlign(dst + {32 * k}, pm);")
            expect[32 * k:32 * k + 32] = bytes_of(mask_loaded(dist, src[at:]))
        body = "__ubuf__ uint8_t* q = src;\n        " + "\n        ".join(calls)
    else:
        calls = ["Reg::LoadAlign(pm, src);"]
        for at in offsets:
            pointer, _, rest = access[len("ACCESS("):-1].partition(", ")
            calls.append(f"Reg::StoreAlign{targs}({pointer}, pm{', ' + rest if rest else ''});")
            stored_bits = bits_of(src[:32]) if dist == "DIST_NORM" else bits_of(src[:32])[0::2]
            data = bytes_of(stored_bits)
            expect[at:at + data.size] = data
        body = "__ubuf__ uint8_t* q = dst;\n        " + "\n        ".join(calls)
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ uint8_t* dst, __ubuf__ uint8_t* src, uint32_t one)
    {{
        Reg::MaskReg pm;
        {prologue}
        {body}
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), "uint8_t", kernel, {"dst": dst, "src": src, "one": 1},
                {"dst": expect})


MASK_LOGIC = {"And": lambda a, b, g: a & b & g, "Or": lambda a, b, g: (a | b) & g,
              "Xor": lambda a, b, g: (a ^ b) & g, "Not": lambda a, b, g: ~a & g,
              "Select": lambda a, b, g: (a & g) | (b & ~g)}


def mask_logic_case(api_name, form) -> Case:
    """The MaskReg forms of And, Or, Xor, Not, Select and Move, on all 256 bits (bytewise here: the
    operations are bit by bit, so the bit order does not matter)."""
    rng = np.random.default_rng(len(api_name))
    a, b, g = (rng.integers(0, 256, 32).astype(np.uint8) for _ in range(3))
    args = form.args.split()
    if api_name == "Move":
        expect = (a & g) if len(args) == 3 else a
        call = "Reg::Move(z, pa, pg);" if len(args) == 3 else "Reg::Move(z, pa);"
    else:
        expect = MASK_LOGIC[api_name](a, b, g).astype(np.uint8)
        call = f"Reg::{api_name}(z, pa, pg);" if api_name == "Not" else f"Reg::{api_name}(z, pa, pb, pg);"
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ uint8_t* dst, __ubuf__ uint8_t* a, __ubuf__ uint8_t* b, __ubuf__ uint8_t* g)
    {{
        Reg::MaskReg pa, pb, pg, z;
        Reg::LoadAlign(pa, a);
        Reg::LoadAlign(pb, b);
        Reg::LoadAlign(pg, g);
        {call}
        Reg::StoreAlign(dst, z);
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), "uint8_t", kernel,
                {"dst": np.zeros(32, np.uint8), "a": a, "b": b, "g": g}, {"dst": expect})


TRUNCATE = {"CAST_RINT": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil, "CAST_TRUNC": np.trunc,
            "CAST_ROUND": lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5)}     # ties away from zero


def truncate_case(form, ctype, seed) -> Case:
    mode = dict(form.when)["roundMode"]
    n = LANES[np.dtype(NP[ctype]).itemsize]
    x = (values(ctype, n, -40, 40, seed, True).astype(np.float32) / 4).astype(NP[ctype])   # quarters: ties occur
    z = np.zeros(n, NP[ctype])
    result = TRUNCATE[mode](x.astype(np.float64)).astype(NP[ctype])
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> x, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src);
        Reg::Truncate<{ctype}, RoundMode::{mode}>(z, x, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return Case(form_key(regapi.BY_NAME["Truncate"], form), ctype, kernel, {"dst": z, "src": x, "count": COUNT_SHORT},
                {"dst": masked(result, z, COUNT_SHORT, False)})


# --- index-addressed and rearranging forms (the Gather, Scatter, Interleave, DeInterleave and Move pages) ---
def rearrange_case(api_name, form, seed) -> Case:
    """Gather from UB (lane i = src[index[i]], element indices, inactive lanes 0) or from a register
    (lane i = src lane index[i] mod lanes, no mask); Scatter (dst[index[i]] = lane i for active lanes);
    Interleave (A0 B0 A1 B1 ..., the first register's worth to dst0) and DeInterleave (its inverse);
    Move with MERGING (active lanes copied, the others kept)."""
    rng = np.random.default_rng(seed)
    n = 64
    x = values("float", 2 * n, -50, 50, seed)
    y = values("float", 2 * n, -50, 50, seed + 1)
    count = COUNT_SHORT
    out = np.full(2 * n, -1.5, np.float32)
    index = rng.permutation(128)[:n].astype(np.uint32)
    expect = out.copy()
    if form.args == "dst:v src:ub index:v mask:p":
        call = "Reg::Gather(z, src0, idx, m); Reg::StoreAlign(dst, z, all);"
        expect[:n] = np.where(np.arange(n) < count, x[index], 0)
    elif api_name == "Gather":
        index = rng.integers(0, 256, n).astype(np.uint32)          # beyond 63 wraps, as the page's example
        call = "Reg::LoadAlign(a, src0); Reg::Gather(z, a, idx); Reg::StoreAlign(dst, z, all);"
        expect[:n] = x[index % n]
    elif api_name == "Scatter":
        call = "Reg::LoadAlign(a, src0); Reg::Scatter(dst, a, idx, m);"
        expect[index[:count]] = x[:count]
    elif api_name == "Interleave":
        call = ("Reg::LoadAlign(a, src0); Reg::LoadAlign(b, src1); Reg::Interleave(z, w, a, b);"
                " Reg::StoreAlign(dst, z, all); Reg::StoreAlign(dst + 64, w, all);")
        pairs = np.stack([x[:n], y[:n]], 1).reshape(-1)
        expect[:] = pairs
    elif api_name == "DeInterleave":
        call = ("Reg::LoadAlign(a, src0); Reg::LoadAlign(b, src1); Reg::DeInterleave(z, w, a, b);"
                " Reg::StoreAlign(dst, z, all); Reg::StoreAlign(dst + 64, w, all);")
        both = np.concatenate([x[:n], y[:n]])
        expect[:] = np.concatenate([both[0::2], both[1::2]])
    else:                                                           # Move, MERGING
        call = ("Reg::LoadAlign(a, src0); Reg::LoadAlign(z, src1);"
                " Reg::Move<float, Reg::MaskMergeMode::MERGING>(z, a, m); Reg::StoreAlign(dst, z, all);")
        expect[:n] = np.where(np.arange(n) < count, x[:n], y[:n])
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src0, __ubuf__ float* src1,
                                   __ubuf__ uint32_t* index, uint32_t count)
    {{
        Reg::RegTensor<float> a, b, z, w;
        Reg::RegTensor<uint32_t> idx;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(idx, index);
        {call}
    }}
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), "float", kernel,
                {"dst": out, "src0": x, "src1": y, "index": index, "count": count}, {"dst": expect})


def pack_case(api_name, form, seed) -> Case:
    """UnPack: the low or high half of src's int16 lanes, sign-extended to int32 (the page: signed types
    keep the sign); Pack LOWEST: the low 16 bits of each uint32 lane into the low half of dst (the page
    does not say what the other half holds: only the written half is compared)."""
    part = dict(form.when)["part"]
    rng = np.random.default_rng(seed)
    wide = rng.integers(0, 2 ** 32, 64).astype(np.uint32)
    narrow = rng.integers(-2 ** 15, 2 ** 15, 128).astype(np.int16)
    if api_name == "UnPack":
        half = narrow[:64] if part == "LOWEST" else narrow[64:]
        kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ int32_t* dst, __ubuf__ int16_t* src)
    {{
        Reg::RegTensor<int16_t> x;
        Reg::RegTensor<int32_t> z;
        Reg::MaskReg all = Reg::CreateMask<int32_t>();
        Reg::LoadAlign(x, src);
        Reg::UnPack<int32_t, int16_t, Reg::HighLowPart::{part}>(z, x);
        Reg::StoreAlign(dst, z, all);
    }}
    """
        return Case(form_key(regapi.BY_NAME[api_name], form), "int32_t", kernel,
                    {"dst": np.zeros(64, np.int32), "src": narrow}, {"dst": half.astype(np.int32)})
    kernel = """
    __simd_vf__ inline void FormVF(__ubuf__ uint16_t* dst, __ubuf__ uint32_t* src)
    {
        Reg::RegTensor<uint32_t> x;
        Reg::RegTensor<uint16_t> z;
        Reg::MaskReg all = Reg::CreateMask<uint16_t>();
        Reg::LoadAlign(x, src);
        Reg::Pack<uint16_t, uint32_t, Reg::HighLowPart::LOWEST>(z, x);
        Reg::StoreAlign(dst, z, all);
    }
    """
    return Case(form_key(regapi.BY_NAME[api_name], form), "uint16_t", kernel,
                {"dst": np.zeros(128, np.uint16), "src": wide}, {"dst": (wide & 0xFFFF).astype(np.uint16)}, lanes=64)


PACK_FORMS = {"UnPack(dst:v src:v) part=LOWEST", "UnPack(dst:v src:v) part=HIGHEST", "Pack(dst:v src:v) part=LOWEST"}


REARRANGE_FORMS = {"Gather(dst:v src:ub index:v mask:p)", "Gather(dst:v src:v index:v)",
                   "Scatter(dst:ub src:v index:v mask:p)", "Interleave(dst0:v dst1:v src0:v src1:v)",
                   "DeInterleave(dst0:v dst1:v src0:v src1:v)", "Move(dst:v src:v mask:p) mode=MERGING"}


# --- unaligned streams (the LoadUnAlign, StoreUnAlign and Squeeze pages) ---
STREAM_COPY = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::RegTensor<float> x;
        Reg::UnalignRegForLoad in;
        Reg::UnalignRegForStore out;
        __ubuf__ float* from = src + 3;
        __ubuf__ float* to = dst + 5;
        Reg::LoadUnAlignPre(in, from);
        for (uint16_t i = 0; i < 3; ++i) {
            Reg::LoadUnAlign(x, in, from, 40);      // 64 lanes from `from`, then from += 40
            Reg::StoreUnAlign(to, x, out, 40);      // its first 40 lanes continue the stream, to += 40
        }
        Reg::StoreUnAlignPost(to, out, 0);          // the pending bytes, ending at `to`
    }
    """
STREAM_LOAD = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::RegTensor<float> x;
        Reg::UnalignRegForLoad in;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::LoadUnAlignPre(in, src + 3);
        Reg::LoadUnAlign(x, in, src + 3);
        Reg::StoreAlign(dst, x, all);
    }
    """
STREAM_SQUEEZE = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::RegTensor<float> x, kept;
        Reg::UnalignRegForStore out;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg positive;
        Reg::ClearSpr<Reg::SpecialPurposeReg::AR>();
        for (uint16_t i = 0; i < 2; ++i) {
            Reg::LoadAlign(x, src + i * 64);
            Reg::Compares<float, CMPMODE::GT>(positive, x, 0.0f, all);
            Reg::Squeeze<float, Reg::GatherMaskMode::STORE_REG>(kept, x, positive);
            Reg::StoreUnAlign(dst, kept, out);      // the kept lanes at dst + AR; AR advances by them
        }
        Reg::StoreUnAlignPost(dst, out);            // the pending bytes, ending at dst + AR
    }
    """
STREAM_FORMS = {
    "LoadUnAlignPre(ureg:q src:ub)": STREAM_COPY,
    "LoadUnAlign(dst:v ureg:q src:ub& stride:n) post=POST_MODE_UPDATE": STREAM_COPY,
    "StoreUnAlign(dst:ub& src:v ureg:u stride:n) post=POST_MODE_UPDATE": STREAM_COPY,
    "StoreUnAlignPost(dst:ub& ureg:u stride:n) post=POST_MODE_UPDATE": STREAM_COPY,
    "LoadUnAlign(dst:v ureg:q src:ub)": STREAM_LOAD,
    "Squeeze(dst:v src:v mask:p) store=STORE_REG": STREAM_SQUEEZE,
    "StoreUnAlign(dst:ub src:v ureg:u)": STREAM_SQUEEZE,
    "StoreUnAlignPost(dst:ub ureg:u)": STREAM_SQUEEZE,
    "ClearSpr() spr=AR": STREAM_SQUEEZE,
}


def stream_case(key, seed) -> Case:
    """The unaligned streams as their pages define them: LoadUnAlign reads a whole register from any
    element address (after LoadUnAlignPre at that address); the post-update forms advance the pointer by
    `stride` elements; StoreUnAlign appends the first `stride` lanes to the stream and StoreUnAlignPost
    writes what is pending, so the copy is exact, nothing written outside it. Squeeze<STORE_REG> keeps the
    active lanes in order and the count-less StoreUnAlign appends them at dst + AR (AR cleared first)."""
    kernel = STREAM_FORMS[key]
    x = values("float", 192, -50, 50, seed)
    out = np.full(192, -1.5, np.float32)
    expect = out.copy()
    if kernel is STREAM_COPY:
        expect[5:125] = x[3:123]
    elif kernel is STREAM_LOAD:
        expect[:64] = x[3:67]
    else:
        kept = np.concatenate([x[:64][x[:64] > 0], x[64:128][x[64:128] > 0]])
        expect[:kept.size] = kept
    return Case(key, "float", kernel, {"dst": out, "src": x}, {"dst": expect})


# --- block gather, compaction, two-result and carry forms (the GatherB, Squeeze, Unsqueeze, Mull, AddC
# and SubC pages), and the MaskReg rearrangements (the MaskReg Pack, UnPack, Interleave and DeInterleave
# pages; a mask in memory as above: bit j in byte j // 8) ---
def gatherb_case(form, seed) -> list[Case]:
    """Block k of dst is the 32-byte block at src + index[k] bytes (only index lanes 0-7 count) when bit
    4k of the mask is set (the page: the mask read as b32, bits 0, 4, ..., 28), whatever T; a block whose
    bit is clear is 0 (docs/semantics.md). A full mask, then masks of 3 float lanes (bits 0, 4, 8: blocks
    0-2) and of 5 half lanes (bits 0, 2, 4, 6, 8: blocks 0-2 again, their odd bits ignored)."""
    rng = np.random.default_rng(seed)
    index = np.zeros(64, np.uint32)
    blocks = rng.choice(64, 8, replace=False)
    index[:8] = blocks * 32
    index[8:] = 0xFFFFFFE0                                           # ignored: beyond every buffer if read
    cases = []
    for ctype, count in (("float", 64), ("float", 3), ("half", 5)):
        width = np.dtype(NP[ctype]).itemsize
        src = values(ctype, 512 * 4 // width, -50, 50, seed)         # 64 blocks
        bits = np.zeros(256, bool)
        bits[::width][:count] = True                                 # UpdateMask<T>(count): bit i*W of lane i
        per_block = 32 // width
        expect = np.zeros(8 * per_block, NP[ctype])
        for k in np.flatnonzero(bits[0:32:4]):
            expect[k * per_block:(k + 1) * per_block] = src[blocks[k] * per_block:(blocks[k] + 1) * per_block]
        kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src, __ubuf__ uint32_t* index, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> z;
        Reg::RegTensor<uint32_t> idx;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(idx, index);
        Reg::GatherB(z, src, idx, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
        cases.append(Case(form_key(regapi.BY_NAME["GatherB"], form), f"{ctype} count={count}", kernel,
                          {"dst": np.full(8 * per_block, -1.5, NP[ctype]), "src": src, "index": index,
                           "count": count}, {"dst": expect}))
    return cases


def squeeze_case(form, seed) -> list[Case]:
    """Squeeze: the active lanes, in order, to lanes 0, 1, ...; the lanes above 0 (the page's figure)."""
    x = values("float", 64, -50, 50, seed)
    kernel = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::RegTensor<float> x, z;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg positive;
        Reg::LoadAlign(x, src);
        Reg::Compares<float, CMPMODE::GT>(positive, x, 0.0f, all);
        Reg::Squeeze<float, Reg::GatherMaskMode::NO_STORE_REG>(z, x, positive);
        Reg::StoreAlign(dst, z, all);
    }
    """
    kept = x[x > 0]
    expect = np.zeros(64, np.float32)
    expect[:kept.size] = kept
    return [Case(form_key(regapi.BY_NAME["Squeeze"], form), "float", kernel,
                 {"dst": np.full(64, -1.5, np.float32), "src": x}, {"dst": expect})]


def unsqueeze_case(form, seed) -> list[Case]:
    """Unsqueeze: lane 0 is 0, lane i the number of set mask lanes below i (the top lane never counts)."""
    cases = []
    for ctype in ("int32_t", "uint16_t"):
        n = LANES[np.dtype(NP[ctype]).itemsize]
        x = values(ctype, n, 0, 3, seed, True)
        active = (x > 0).astype(np.int64)
        expect = np.concatenate([[0], np.cumsum(active)[:-1]]).astype(NP[ctype])
        kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src)
    {{
        Reg::RegTensor<{ctype}> x, z;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg positive;
        Reg::LoadAlign(x, src);
        Reg::LoadAlign(z, dst);
        Reg::Compares<{ctype}, CMPMODE::GT>(positive, x, 0, all);
        Reg::Unsqueeze(z, positive);
        Reg::StoreAlign(dst, z, all);
    }}
    """
        cases.append(Case(form_key(regapi.BY_NAME["Unsqueeze"], form), ctype, kernel,
                          {"dst": np.full(n, 7, NP[ctype]), "src": x}, {"dst": expect}))
    return cases


def mull_case(form, seed) -> list[Case]:
    """Mull: the exact product; its low word to dst0, its high word to dst1 (inactive lanes 0)."""
    cases = []
    for ctype in ("int32_t", "uint32_t"):
        rng = np.random.default_rng(seed)
        info = np.iinfo(NP[ctype])
        a = rng.integers(info.min, info.max, 64, endpoint=True).astype(NP[ctype])
        b = rng.integers(info.min, info.max, 64, endpoint=True).astype(NP[ctype])
        a[:2], b[:2] = (info.min, info.max), (info.max, info.max)     # the extremes of the boundary table
        product = [int(p) * int(q) for p, q in zip(a, b)]
        low = np.array([p & 0xFFFFFFFF for p in product], np.uint32).view(NP[ctype])
        high = np.array([(p >> 32) & 0xFFFFFFFF for p in product], np.uint32).view(NP[ctype])
        kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, __ubuf__ {ctype}* src0, __ubuf__ {ctype}* src1, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> x, y, lo, hi;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::MaskReg m = Reg::UpdateMask<{ctype}>(count);
        Reg::LoadAlign(x, src0);
        Reg::LoadAlign(y, src1);
        Reg::Mull(lo, hi, x, y, m);
        Reg::StoreAlign(dst, lo, all);
        Reg::StoreAlign(dst + 64, hi, all);
    }}
    """
        zero = np.zeros(64, NP[ctype])
        expect = np.concatenate([masked(low, zero, COUNT_SHORT, False), masked(high, zero, COUNT_SHORT, False)])
        cases.append(Case(form_key(regapi.BY_NAME["Mull"], form), ctype, kernel,
                          {"dst": np.full(128, 3, NP[ctype]), "src0": a, "src1": b, "count": COUNT_SHORT},
                          {"dst": expect}))
    return cases


def carry_case(api_name, form, seed) -> list[Case]:
    """AddC: {carry, dst} = src0 + src1 + carrySrc; SubC: {carry, dst} = src0 + ~src1 + carrySrc (carry:
    nothing borrowed). The carry-in is the `carry` input's lanes; the carry-out is shown by a Select of
    all-ones where it is set. Inactive lanes: dst 0, no carry."""
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2 ** 32, 64, dtype=np.uint64)
    b = rng.integers(0, 2 ** 32, 64, dtype=np.uint64)
    a[:4], b[:4] = (0xFFFFFFFF, 5, 0, 0xFFFFFFFF), (0, 5, 0, 0xFFFFFFFF)   # carries exactly at the edge
    c = rng.integers(0, 2, 64).astype(np.uint64)
    c[:4] = (1, 0, 1, 1)
    other = b if api_name == "AddC" else (~b & 0xFFFFFFFF)
    total = a + other + c
    dst = (total & 0xFFFFFFFF).astype(np.uint32)
    carry = (total >> 32).astype(np.uint32)
    count = 40
    dst[count:], carry[count:] = 0, 0
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src0, __ubuf__ uint32_t* src1,
                                   __ubuf__ uint32_t* cin, uint32_t count)
    {{
        Reg::RegTensor<uint32_t> x, y, c, z, ones, zeros, flags;
        Reg::MaskReg all = Reg::CreateMask<uint32_t>();
        Reg::MaskReg m = Reg::UpdateMask<uint32_t>(count);
        Reg::MaskReg carryIn, carryOut;
        Reg::LoadAlign(x, src0);
        Reg::LoadAlign(y, src1);
        Reg::LoadAlign(c, cin);
        Reg::Compares<uint32_t, CMPMODE::NE>(carryIn, c, 0, all);
        Reg::{api_name}(carryOut, z, x, y, carryIn, m);
        Reg::Duplicate(ones, 1);
        Reg::Duplicate(zeros, 0);
        Reg::Select(flags, ones, zeros, carryOut);
        Reg::StoreAlign(dst, z, all);
        Reg::StoreAlign(dst + 64, flags, all);
    }}
    """
    return [Case(form_key(regapi.BY_NAME[api_name], form), "uint32_t", kernel,
                 {"dst": np.full(128, 9, np.uint32), "src0": a.astype(np.uint32), "src1": b.astype(np.uint32),
                  "cin": c.astype(np.uint32), "count": count}, {"dst": np.concatenate([dst, carry])},
                 extra=("vsel",))]


def vector_pack_high_case(form, seed) -> list[Case]:
    """Pack HIGHEST: the low 16 bits of uint32 lane i to uint16 lane 64 + i; the page leaves the low half
    unsaid, ascasm writes 0 there (docs/semantics.md)."""
    rng = np.random.default_rng(seed)
    wide = rng.integers(0, 2 ** 32, 64).astype(np.uint32)
    kernel = """
    __simd_vf__ inline void FormVF(__ubuf__ uint16_t* dst, __ubuf__ uint32_t* src)
    {
        Reg::RegTensor<uint32_t> x;
        Reg::RegTensor<uint16_t> z;
        Reg::MaskReg all = Reg::CreateMask<uint16_t>();
        Reg::LoadAlign(x, src);
        Reg::Pack<uint16_t, uint32_t, Reg::HighLowPart::HIGHEST>(z, x);
        Reg::StoreAlign(dst, z, all);
    }
    """
    expect = np.concatenate([np.zeros(64, np.uint16), (wide & 0xFFFF).astype(np.uint16)])
    return [Case(form_key(regapi.BY_NAME["Pack"], form), "uint16_t", kernel,
                 {"dst": np.full(128, 7, np.uint16), "src": wide}, {"dst": expect})]


def mask_rearrange_case(api_name, form, seed) -> list[Case]:
    """MaskReg Pack: the even bits of src (bit 2j -> bit j) to the low or high 128 bits, the other half
    0; UnPack: the low or high 128 bits, bit j -> bit 2j, the odd bits 0 (the page: "high bit zeroed");
    Interleave<T>: the W-bit groups of each source (W = T's bytes: uint32_t, 4 bits) as A0 B0 A1 B1 ...,
    the first 256 bits to dst0, the rest to dst1; DeInterleave its inverse."""
    rng = np.random.default_rng(seed)
    a, b = (rng.integers(0, 256, 32).astype(np.uint8) for _ in range(2))
    bits_a, bits_b = bits_of(a), bits_of(b)
    part = dict(form.when).get("part")
    if api_name in ("Pack", "UnPack"):
        out = np.zeros(256, np.uint8)
        if api_name == "Pack":
            at = 0 if part == "LOWEST" else 128
            out[at:at + 128] = bits_a[0::2]
        else:
            half = bits_a[:128] if part == "LOWEST" else bits_a[128:]
            out[0::2] = half
        call = f"Reg::{api_name}<Reg::HighLowPart::{part}>(z0, pa);"
        stores = "Reg::StoreAlign(dst, z0);"
        expect = bytes_of(out)
    else:
        groups_a, groups_b = bits_a.reshape(-1, 4), bits_b.reshape(-1, 4)
        if api_name == "Interleave":
            both = np.stack([groups_a, groups_b], 1).reshape(-1)
        else:
            joined = np.concatenate([groups_a, groups_b])
            both = np.concatenate([joined[0::2].reshape(-1), joined[1::2].reshape(-1)])
        call = f"Reg::{api_name}<uint32_t>(z0, z1, pa, pb);"
        stores = "Reg::StoreAlign(dst, z0); Reg::StoreAlign(dst + 32, z1);"
        expect = bytes_of(both)
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ uint8_t* dst, __ubuf__ uint8_t* a, __ubuf__ uint8_t* b)
    {{
        Reg::MaskReg pa, pb, z0, z1;
        Reg::LoadAlign(pa, a);
        Reg::LoadAlign(pb, b);
        {call}
        {stores}
    }}
    """
    size = expect.size
    return [Case(form_key(regapi.BY_NAME[api_name], form), "uint8_t", kernel,
                 {"dst": np.full(size, 0xA5, np.uint8), "a": a, "b": b}, {"dst": expect})]


def histograms_case(form, seed) -> list[Case]:
    """Histograms over the active uint8 lanes, added to dst's uint16 lanes: bin 0 counts the values
    0-127, bin 1 the values 128-255 (lane v - base). FREQUENCY: lane n gains how many active lanes hold
    base + n; ACCUMULATE: how many hold a value of the bin no greater than base + n."""
    when = dict(form.when)
    base = 0 if when["mode"] == "BIN0" else 128
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 256, 256).astype(np.uint8)
    x[:40] = base + 3                                               # a value many times
    old = rng.integers(0, 1000, 128).astype(np.uint16)
    count = 200
    active = x[:count].astype(np.int64)
    frequency = np.bincount(active, minlength=256)[base:base + 128]
    gained = frequency if when["type"] == "FREQUENCY" else np.cumsum(frequency)
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ uint16_t* dst, __ubuf__ uint8_t* src, uint32_t count)
    {{
        Reg::RegTensor<uint8_t> x;
        Reg::RegTensor<uint16_t> z;
        Reg::MaskReg all = Reg::CreateMask<uint16_t>();
        Reg::MaskReg m = Reg::UpdateMask<uint8_t>(count);
        Reg::LoadAlign(x, src);
        Reg::LoadAlign(z, dst);
        Reg::Histograms<uint8_t, uint16_t, Reg::HistogramsBinType::{when["mode"]}, Reg::HistogramsType::{when["type"]}>(z, x, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return [Case(form_key(regapi.BY_NAME["Histograms"], form), "uint16_t", kernel,
                 {"dst": old, "src": x, "count": count}, {"dst": (old + gained).astype(np.uint16)})]


def expsub_case(form, seed) -> list[Case]:
    """ExpSub: e^(src0 - src1) in float (the page allows the exponential's 1 ulp). From half sources
    the layout picks the even (ZERO) or odd (ONE) half lanes, widened; the mask is read at the sources'
    width, so float lane i is active when half lane 2i + part is."""
    layout = dict(form.when)["layout"]
    part = 0 if layout == "ZERO" else 1
    cases = []
    for stype in (("float", "half") if layout == "ZERO" else ("half",)):
        n = LANES[np.dtype(NP[stype]).itemsize]
        a, b = values(stype, n, -4, 4, seed), values(stype, n, -4, 4, seed + 1)
        diff = (a.astype(np.float32) - b.astype(np.float32))[part::2 if stype == "half" else 1]
        result = np.exp(diff.astype(np.float64)).astype(np.float32)
        count = 2 * COUNT_SHORT if stype == "half" else COUNT_SHORT       # source lanes: float lanes 0-6
        targs = f"<float, {stype}, Reg::RegLayout::{layout}>"
        kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ {stype}* src0, __ubuf__ {stype}* src1, uint32_t count)
    {{
        Reg::RegTensor<{stype}> x, y;
        Reg::RegTensor<float> z;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg m = Reg::UpdateMask<{stype}>(count);
        Reg::LoadAlign(x, src0);
        Reg::LoadAlign(y, src1);
        Reg::ExpSub{targs}(z, x, y, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
        cases.append(Case(form_key(regapi.BY_NAME["ExpSub"], form), stype, kernel,
                          {"dst": np.full(64, -1.5, np.float32), "src0": a, "src1": b, "count": count},
                          {"dst": masked(result, np.zeros(64, np.float32), COUNT_SHORT, False)}, ulps=1))
    return cases


def round_half_away(x64, dtype):
    """x (float64) to dtype, to nearest with ties away from zero (CAST_ROUND)."""
    near = x64.astype(dtype)
    other = np.where(near.astype(np.float64) < x64, np.nextafter(near, dtype(np.inf)),
                     np.nextafter(near, dtype(-np.inf)))
    gap_near, gap_other = np.abs(near.astype(np.float64) - x64), np.abs(other.astype(np.float64) - x64)
    away = (gap_near == gap_other) & (np.abs(other.astype(np.float64)) > np.abs(near.astype(np.float64)))
    return np.where(away, other, near)


def mulscast_case(form, seed) -> list[Case]:
    """MulsCast: src * scalar rounded to float, then to half as CAST_ROUND (ties away from zero), float
    lane i into half lane 2i + part (RegLayout ZERO: even, ONE: odd); the other half lanes and the
    lanes of inactive sources 0."""
    part = 0 if dict(form.when)["layout"] == "ZERO" else 1
    x = values("float", 64, -300, 300, seed)
    x[:2] = (1 + 2 ** -11) * 0.5, -(1 + 3 * 2 ** -11) * 0.5          # ties in half once scaled by 2
    scalar = 2.0
    product = (x * np.float32(scalar)).astype(np.float32)
    result = round_half_away(product.astype(np.float64), np.float16)
    expect = np.zeros(128, np.float16)
    expect[part:2 * COUNT_SHORT:2] = result[:COUNT_SHORT]
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ half* dst, __ubuf__ float* src, float s, uint32_t count)
    {{
        Reg::RegTensor<float> x;
        Reg::RegTensor<half> z;
        Reg::MaskReg all = Reg::CreateMask<half>();
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        Reg::LoadAlign(x, src);
        Reg::MulsCast<half, float, float, Reg::RegLayout::{dict(form.when)["layout"]}>(z, x, s, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
    return [Case(form_key(regapi.BY_NAME["MulsCast"], form), "half", kernel,
                 {"dst": np.full(128, -1.5, np.float16), "src": x, "s": scalar, "count": COUNT_SHORT},
                 {"dst": expect})]


def block_strided_case(api_name, form, seed) -> list[Case]:
    """DATA_BLOCK_COPY: block k (32 bytes, 8 floats) of the register is at addr + k * blockStride * 32
    bytes. Load: a block with an active lane is read whole, one with none is 0; store: the active lanes
    go to their places, the rest of the UB is left alone. The post-update forms access twice, the second
    time at addr + repeatStride * 32 bytes."""
    post = "post" in dict(form.when)
    load = api_name == "LoadAlign"
    block_stride, repeat_stride, count = 2, 20, 20                  # 20 lanes: blocks 0, 1 and half of 2
    x = values("float", 256, -50, 50, seed)
    out = np.full(256, -1.5, np.float32)
    expect = out.copy()
    starts = (0, 8 * repeat_stride) if post else (0,)
    for k, start in enumerate(starts):
        for block in range(8):
            at = start + 8 * block * block_stride
            if load and block <= (count - 1) // 8:
                expect[64 * k + 8 * block:64 * k + 8 * block + 8] = x[at:at + 8]
            elif load:
                expect[64 * k + 8 * block:64 * k + 8 * block + 8] = 0
            else:
                active = max(0, min(8, count - 8 * block))
                expect[at:at + active] = x[8 * block:8 * block + active]
    mode = "Reg::DataCopyMode::DATA_BLOCK_COPY"
    targs = f"<float, {mode}, Reg::PostLiteral::POST_MODE_UPDATE>" if post else f"<float, {mode}>"
    if load:
        access = [f"Reg::LoadAlign{targs}(x, p, bs{', rs' if post else ''}, m); Reg::StoreAlign(dst + {64 * k}, x, all);"
                  for k in range(len(starts))]
        pointer = "src"
    else:
        access = [f"Reg::StoreAlign{targs}(p, x, bs{', rs' if post else ''}, m);" for _ in starts]
        pointer = "dst"
    kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src, uint32_t bs, uint32_t rs, uint32_t count)
    {{
        Reg::RegTensor<float> x;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::MaskReg m = Reg::UpdateMask<float>(count);
        __ubuf__ float* p = {pointer};
        {"" if load else "Reg::LoadAlign(x, src);"}
        {chr(10).join("        " + line for line in access).strip()}
    }}
    """
    return [Case(form_key(regapi.BY_NAME[api_name], form), "float", kernel,
                 {"dst": out, "src": x, "bs": block_stride, "rs": repeat_stride, "count": count}, {"dst": expect})]


LOAD_STORE_ANYWHERE = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src, uint32_t count)
    {
        Reg::RegTensor<float> x;
        Reg::Load(x, src + 3);              // 64 lanes from an address off 32 bytes
        Reg::Store(dst + 5, x);             // all of them, at another such address
        Reg::Store(dst + 70, x, count);     // the low `count` lanes
    }
    """


def load_store_case(form, seed) -> list[Case]:
    """Load and Store at addresses aligned only to an element (the Load and Store pages)."""
    x = values("float", 128, -50, 50, seed)
    out = np.full(128, -1.5, np.float32)
    expect = out.copy()
    expect[5:69] = x[3:67]
    expect[70:81] = x[3:14]
    api = regapi.BY_NAME["Load"] if form.asm[0].startswith("vldu") else regapi.BY_NAME["Store"]
    return [Case(form_key(api, form), "float", LOAD_STORE_ANYWHERE,
                 {"dst": out, "src": x, "count": 11}, {"dst": expect})]


def lane_flags(call, ctype) -> str:
    """A kernel that shows the mask(s) `call` makes as 1 in the active lanes of a ctype vector, 0 elsewhere."""
    return f"""
    __simd_vf__ inline void FormVF(__ubuf__ {ctype}* dst, uint32_t count)
    {{
        Reg::RegTensor<{ctype}> ones, zeros, flags;
        Reg::MaskReg all = Reg::CreateMask<{ctype}>();
        Reg::Duplicate(ones, 1);
        Reg::Duplicate(zeros, 0);
        {call}
    }}
    """


# (pattern, the active lanes of n) from the MaskReg page's MaskPattern list
PATTERNS = {"ALL": lambda n: np.arange(n) < n, "VL3": lambda n: np.arange(n) < 3, "VL32": lambda n: np.arange(n) < 32,
            "M3": lambda n: np.arange(n) % 3 == 0, "M4": lambda n: np.arange(n) % 4 == 0,
            "H": lambda n: np.arange(n) < n // 2, "Q": lambda n: np.arange(n) < n // 4,
            "ALLF": lambda n: np.arange(n) < 0}


def create_mask_case(form, seed) -> list[Case]:
    cases = []
    for ctype in ("uint16_t", "uint32_t"):
        n = LANES[np.dtype(NP[ctype]).itemsize]
        calls, expect = [], []
        for k, (pattern, lanes) in enumerate(PATTERNS.items()):
            calls.append(f"Reg::MaskReg p{k} = Reg::CreateMask<{ctype}, Reg::MaskPattern::{pattern}>();\n"
                         f"        Reg::Select(flags, ones, zeros, p{k});\n"
                         f"        Reg::StoreAlign(dst + {k * n}, flags, all);")
            expect.append(lanes(n).astype(NP[ctype]))
        kernel = lane_flags("\n        ".join(calls), ctype)
        cases.append(Case(form_key(regapi.BY_NAME["CreateMask"], form), ctype, kernel,
                          {"dst": np.full(len(PATTERNS) * n, 7, NP[ctype]), "count": 0},
                          {"dst": np.concatenate(expect)}, extra=("vsel",)))
    return cases


def update_mask_case(form, seed) -> list[Case]:
    """UpdateMask: the first min(count, VL_T) lanes active, then count -= VL_T (down to 0): three calls
    from 150 uint32 lanes give 64, 64 and 22 active lanes, a fourth none."""
    calls = "\n        ".join(f"Reg::MaskReg p{k} = Reg::UpdateMask<uint32_t>(count);\n"
                               f"        Reg::Select(flags, ones, zeros, p{k});\n"
                               f"        Reg::StoreAlign(dst + {64 * k}, flags, all);" for k in range(4))
    expect = np.concatenate([(np.arange(64) < active).astype(np.uint32) for active in (64, 64, 22, 0)])
    return [Case(form_key(regapi.BY_NAME["UpdateMask"], form), "uint32_t",
                 lane_flags(calls, "uint32_t"),
                 {"dst": np.full(256, 7, np.uint32), "count": 150}, {"dst": expect}, extra=("vsel",))]


def addr_reg_case(form, seed) -> list[Case]:
    """CreateAddrReg<T>(index, stride): an offset of index * stride elements of T (the AddrReg page),
    here a loop's index and a run-time stride of 72 floats (288 bytes, whole blocks)."""
    x = values("float", 512, -50, 50, seed)
    kernel = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src, uint32_t stride)
    {
        Reg::RegTensor<float> x;
        Reg::MaskReg all = Reg::CreateMask<float>();
        for (uint16_t i = 0; i < 3; ++i) {
            Reg::AddrReg off = Reg::CreateAddrReg<float>(i, stride);
            Reg::LoadAlign(x, src, off);
            Reg::StoreAlign(dst + i * 64, x, all);
        }
    }
    """
    expect = np.concatenate([x[72 * i:72 * i + 64] for i in range(3)])
    return [Case(form_key(regapi.BY_NAME["CreateAddrReg"], form), "float", kernel,
                 {"dst": np.zeros(192, np.float32), "src": x, "stride": 72}, {"dst": expect})]


def membar_case(form, seed) -> list[Case]:
    """LocalMemBar<VEC_STORE, VEC_LOAD> between a store and a load of the same bytes: the load sees the
    stored values."""
    x = values("float", 64, -50, 50, seed)
    kernel = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src, __ubuf__ float* tmp)
    {
        Reg::RegTensor<float> x, y;
        Reg::MaskReg all = Reg::CreateMask<float>();
        Reg::LoadAlign(x, src);
        Reg::Adds(x, x, 1.0f, all);
        Reg::StoreAlign(tmp, x, all);
        Reg::LocalMemBar<Reg::MemType::VEC_STORE, Reg::MemType::VEC_LOAD>();
        Reg::LoadAlign(y, tmp);
        Reg::StoreAlign(dst, y, all);
    }
    """
    return [Case(form_key(regapi.BY_NAME["LocalMemBar"], form), "float", kernel,
                 {"dst": np.zeros(64, np.float32), "src": x, "tmp": np.zeros(64, np.float32)},
                 {"dst": (x + np.float32(1)).astype(np.float32)})]


def mask_from_vector_case(form, seed) -> list[Case]:
    """MaskGenWithRegTensor<T, offset>: the register cut into blocks of 32 / sizeof(T) bytes (16 for b16,
    8 for b32); each bit of block `offset` becomes sizeof(T) mask bits (the page: "broadcast to 2 (4)
    bits")."""
    rng = np.random.default_rng(seed)
    data = rng.integers(0, 256, 256).astype(np.uint8)
    cases = []
    for ctype, offset in (("uint16_t", 11), ("uint32_t", 27)):
        width = np.dtype(NP[ctype]).itemsize
        block = data[offset * 32 // width:(offset + 1) * 32 // width]
        kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ uint8_t* dst, __ubuf__ {ctype}* src)
    {{
        Reg::RegTensor<{ctype}> x;
        Reg::MaskReg p;
        Reg::LoadAlign(x, src);
        Reg::MaskGenWithRegTensor<{ctype}, {offset}>(p, x);
        Reg::StoreAlign(dst, p);
    }}
    """
        cases.append(Case(form_key(regapi.BY_NAME["MaskGenWithRegTensor"], form), ctype, kernel,
                          {"dst": np.full(32, 0xA5, np.uint8), "src": data.view(NP[ctype])},
                          {"dst": bytes_of(np.repeat(bits_of(block), width))}))
    return cases


ROUNDINGS = ("CAST_RINT", "CAST_ROUND", "CAST_FLOOR", "CAST_CEIL", "CAST_TRUNC")
LAYOUT_PART = {"UNKNOWN": 0, "ZERO": 0, "ONE": 1, "TWO": 2, "THREE": 3}


def round_float(x64, ctype, mode):
    """x (float64, exact in float32) rounded to the float type ctype as the round mode says."""
    if ctype == "bfloat16_t":                   # bf16 is float32's high half: round its low 16 bits away
        raw = x64.astype(np.float32).view(np.uint32).astype(np.int64)
        low, toward_zero = raw & 0xFFFF, raw & ~0xFFFF
        away = np.where(low == 0, toward_zero, toward_zero + 0x10000)
        positive = x64 > 0
        pick = {"CAST_TRUNC": toward_zero, "CAST_FLOOR": np.where(positive, toward_zero, away),
                "CAST_CEIL": np.where(positive, away, toward_zero),
                "CAST_ROUND": np.where(low >= 0x8000, away, toward_zero),
                "CAST_RINT": x64.astype(np.float32).astype(ml_dtypes.bfloat16).astype(np.float32)
                .view(np.uint32).astype(np.int64)}[mode]
        return (pick.astype(np.uint32) >> 16).astype(np.uint16).view(ml_dtypes.bfloat16)
    dtype = NP[ctype]
    near = x64.astype(dtype)                                       # to nearest, ties to even
    below = np.where(near.astype(np.float64) > x64, np.nextafter(near, dtype(-np.inf)), near)
    above = np.where(near.astype(np.float64) < x64, np.nextafter(near, dtype(np.inf)), near)
    return {"CAST_RINT": near, "CAST_ROUND": round_half_away(x64, dtype), "CAST_FLOOR": below,
            "CAST_CEIL": above, "CAST_TRUNC": np.where(x64 >= 0, below, above)}[mode]


def converted(x, stype, dtype, mode, sat):
    """The page's conversion of the source values x (table 4 of the Cast page): float to integer rounds
    as the mode says and then, saturating, clamps to the type's range, else keeps the low bits (half
    257 -> uint8 1; SAT: 255), inf to the type's extreme and nan to 0 either way; integer to integer
    keeps the low bits (int32 256 -> uint8 0) or clamps; int16 -> uint32 always clamps (negative -> 0);
    to a float type, rounded by the mode, clamped to its finite range when saturating."""
    d = NP[dtype]
    x64 = x.astype(np.float64)
    if np.issubdtype(np.dtype(d), np.integer):
        info = np.iinfo(d)
        r = TRUNCATE[mode](x64) if stype in ("float", "half", "bfloat16_t") else x64
        if sat or (stype, dtype) == ("int16_t", "uint32_t"):
            out = np.clip(np.nan_to_num(r, nan=0), info.min, info.max)
            return np.array([int(v) for v in out], np.int64).astype(d)
        bits = 8 * np.dtype(d).itemsize
        whole = [0 if np.isnan(v) else info.max if v == np.inf else info.min if v == -np.inf else int(v) for v in r]
        return np.array([v & ((1 << bits) - 1) for v in whole], np.uint64).astype(f"u{np.dtype(d).itemsize}").view(d)
    with np.errstate(over="ignore"):                             # past the range: inf, clamped below
        out = round_float(x64, dtype, mode or "CAST_RINT").astype(np.float64)
    if sat:
        top = float(np.finfo(np.float16).max) if dtype == "half" else np.inf
        out = np.clip(out, -top, top)
    return out.astype(d)


# The Cast page's tables 6-9: (source, destination, layout, satMode, round modes); every source and
# destination width, layouts ZERO to THREE, saturation on and off where the row has it, every round mode
# where the row takes one
CAST_ROWS = [
    ("float", "int32_t", "UNKNOWN", "SAT", ROUNDINGS),
    ("half", "int16_t", "UNKNOWN", "NO_SAT", ROUNDINGS),
    ("int32_t", "float", "UNKNOWN", "UNKNOWN", ROUNDINGS),
    ("int16_t", "half", "UNKNOWN", "UNKNOWN", ROUNDINGS),
    ("half", "bfloat16_t", "UNKNOWN", "UNKNOWN", ROUNDINGS),
    ("bfloat16_t", "half", "UNKNOWN", "SAT", ("CAST_RINT",)),
    ("float", "half", "ZERO", "NO_SAT", ROUNDINGS),
    ("float", "half", "ONE", "SAT", ("CAST_RINT",)),
    ("half", "uint8_t", "ZERO", "NO_SAT", ("CAST_RINT",)),
    ("half", "uint8_t", "ONE", "SAT", ("CAST_TRUNC",)),
    ("int32_t", "int16_t", "ZERO", "NO_SAT", ("",)),
    ("int32_t", "int16_t", "ONE", "SAT", ("",)),
    ("int32_t", "uint8_t", "THREE", "NO_SAT", ("",)),
    ("half", "float", "ZERO", "UNKNOWN", ("",)),
    ("half", "float", "ONE", "UNKNOWN", ("",)),
    ("bfloat16_t", "float", "ONE", "UNKNOWN", ("",)),
    ("int16_t", "int32_t", "ZERO", "UNKNOWN", ("",)),
    ("int16_t", "uint32_t", "ONE", "UNKNOWN", ("",)),
    ("uint8_t", "uint16_t", "ONE", "UNKNOWN", ("",)),
    ("int8_t", "int32_t", "TWO", "UNKNOWN", ("",)),
    ("int16_t", "float", "ONE", "UNKNOWN", ("",)),
]


def cast_sources(stype, dtype, n, rng):
    """Source lanes that show the conversion: quarters (ties) for float to integer, with the Cast
    page's worked values first (257 and -inf for uint8, out of range, nan); integers past the float
    type's precision for integer to float; values with more digits than the destination for float to
    float; values past the destination's range for integer to integer."""
    if stype in ("float", "half", "bfloat16_t") and np.issubdtype(np.dtype(NP[dtype]), np.integer):
        x = rng.integers(-400, 400, n) / 4
        if dtype == "uint8_t":
            x = np.abs(x)
        x[:4] = {"uint8_t": (257, -np.inf, np.nan, 300.5), "int16_t": (40000, -np.inf, np.nan, -40000.5),
                 "int32_t": (3e9, -np.inf, np.nan, -3e9)}[dtype]
        return x.astype(NP[stype])
    if stype in ("float", "half", "bfloat16_t"):
        x = rng.uniform(-100, 100, n).astype(np.float32)
        if dtype == "half" and stype == "bfloat16_t":
            x[:2] = (1e5, -1e5)                                   # past half's range: clamped (SAT)
        if (stype, dtype) == ("float", "half"):
            x[:2] = (1 + 2 ** -11) * 0.5, -(1 + 3 * 2 ** -11) * 0.5     # ties in half
        return x.astype(NP[stype])
    info = np.iinfo(NP[stype])
    low, high = (max(info.min, -2 ** 30), min(info.max, 2 ** 30)) if np.dtype(NP[stype]).itemsize >= 4 \
        else (info.min, info.max)
    x = rng.integers(low, high, n, endpoint=True).astype(NP[stype])
    if dtype == "uint8_t" and stype == "int32_t":
        x[:2] = (256, 257)                                        # the page: int32 256 -> uint8 0
    return x


def cast_case(form, seed) -> list[Case]:
    """Cast for each row of CAST_ROWS: the page's conversion of each active source lane (the mask read
    at the source's width), placed as the layout says (the RegLayout page: narrowing, source lane i to
    destination lane ratio * i + layout, every other lane 0; widening, destination lane i from source lane
    ratio * i + layout). Seven active destination lanes (ZEROING: the others 0)."""
    rng = np.random.default_rng(seed)
    cases = []
    for stype, dtype, layout, sat, modes in CAST_ROWS:
        ws, wd = np.dtype(NP[stype]).itemsize, np.dtype(NP[dtype]).itemsize
        ratio, part = max(ws, wd) // min(ws, wd), LAYOUT_PART[layout]
        n_src, n_dst = 256 // ws, 256 // wd
        for mode in modes:
            x = cast_sources(stype, dtype, n_src, rng)
            want = np.zeros(n_dst, NP[dtype])
            if ws > wd:                                  # narrowing: active source lanes 0-6
                count = COUNT_SHORT
                want[part:ratio * count:ratio] = converted(x[:count], stype, dtype, mode, sat == "SAT")
            else:                                        # same width or widening: destination lanes 0-6
                count = ratio * COUNT_SHORT
                want[:COUNT_SHORT] = converted(x[part::ratio][:COUNT_SHORT], stype, dtype, mode, sat == "SAT")
            round_mode = mode or "UNKNOWN"
            kernel = f"""
    __simd_vf__ inline void FormVF(__ubuf__ {dtype}* dst, __ubuf__ {stype}* src, uint32_t count)
    {{
        static constexpr Reg::CastTrait trait = {{Reg::RegLayout::{layout}, Reg::SatMode::{sat},
                                                 Reg::MaskMergeMode::ZEROING, RoundMode::{round_mode}}};
        Reg::RegTensor<{stype}> x;
        Reg::RegTensor<{dtype}> z;
        Reg::MaskReg all = Reg::CreateMask<{dtype}>();
        Reg::MaskReg m = Reg::UpdateMask<{stype}>(count);
        Reg::LoadAlign(x, src);
        Reg::Cast<{dtype}, {stype}, trait>(z, x, m);
        Reg::StoreAlign(dst, z, all);
    }}
    """
            cases.append(Case(form_key(regapi.BY_NAME["Cast"], form), f"{stype}->{dtype} {layout} {sat} {round_mode}",
                              kernel, {"dst": np.full(n_dst, 3, NP[dtype]), "src": x, "count": count},
                              {"dst": want}, instruction="vcvt" + (f".{mode.removeprefix('CAST_').lower()}" if mode else "")))
    return cases


STREAM_AT_OFFSETS = """
    __simd_vf__ inline void FormVF(__ubuf__ float* dst, __ubuf__ float* src)
    {
        Reg::RegTensor<float> x;
        Reg::UnalignRegForLoad in;
        Reg::MaskReg all = Reg::CreateMask<float>();
        __ubuf__ float* from = src + 3;
        for (uint16_t i = 0; i < 3; ++i) {
            Reg::AddrReg off = Reg::CreateAddrReg<float>(i, 40);
            Reg::LoadUnAlignPre(in, from, off);         // the stream starts at from + 40 i
            Reg::LoadUnAlign(x, in, from, off, 0);      // 64 lanes from there (inc: unused, 0)
            Reg::StoreAlign(dst + i * 64, x, all);
        }
    }
    """


def stream_at_offsets_case(form, seed) -> list[Case]:
    """The AddrReg forms of LoadUnAlignPre and LoadUnAlign (the LoadUnAlign page's third example): each
    iteration reads the 64 floats at src + 3 + 40 i."""
    x = values("float", 192, -50, 50, seed)
    expect = np.concatenate([x[3 + 40 * i:67 + 40 * i] for i in range(3)])
    api = regapi.BY_NAME["LoadUnAlignPre" if form.asm[0].startswith("vldas") else "LoadUnAlign"]
    return [Case(form_key(api, form), "float", STREAM_AT_OFFSETS,
                 {"dst": np.zeros(192, np.float32), "src": x}, {"dst": expect})]


def mask_stream_case(form, seed) -> list[Case]:
    """The MaskReg StoreUnAlign<uint32_t>: the lowest bit of each of the mask's 64 four-bit groups,
    packed (element i: bit i % 8 of byte i / 8), 8 bytes appended per call at an 8-byte aligned address
    that advances by itself; StoreUnAlignPost writes what is pending."""
    x = values("uint32_t", 192, 0, 100, seed)
    kernel = """
    __simd_vf__ inline void FormVF(__ubuf__ uint32_t* dst, __ubuf__ uint32_t* src)
    {
        Reg::RegTensor<uint32_t> x;
        Reg::UnalignRegForStore out;
        Reg::MaskReg all = Reg::CreateMask<uint32_t>();
        Reg::MaskReg big;
        __ubuf__ uint32_t* to = dst + 2;
        for (uint16_t i = 0; i < 3; ++i) {
            Reg::LoadAlign(x, src + i * 64);
            Reg::Compares<uint32_t, CMPMODE::GT>(big, x, 50, all);
            Reg::StoreUnAlign<uint32_t>(to, big, out);
        }
        Reg::StoreUnAlignPost(to, out, 0);
    }
    """
    out = np.full(16, 0x55555555, np.uint32)
    expect = out.view(np.uint8).copy()
    expect[8:32] = bytes_of(x > 50)
    return [Case(form_key(regapi.BY_NAME["StoreUnAlign"], form), "uint32_t", kernel,
                 {"dst": out, "src": x}, {"dst": expect.view(np.uint32)})]


MASK_HIGH, MASK_LOW = 0x0123_4567_89AB_CDEF, 0x8000_0000_F0F0_0005


def move_mask_case(form, seed) -> list[Case]:
    """MoveMask<T>() reads {MASK1, MASK0} as SetVectorMask(maskHigh, maskLow) left it, outside the
    vector function (here the prologue, in the host code's place): b16, all 128 bits, bit i of the pair
    repeated twice (uint16_t lane i); b32, MASK0's 64 bits repeated four times (uint32_t lane i). The
    mask shown as 1 / 0 lanes by a Select."""
    prologue = f"mov s1, {MASK_HIGH}\nmov s2, {MASK_LOW - (1 << 64)}\nsprset.mask s1, s2"
    pair = MASK_HIGH << 64 | MASK_LOW
    cases = []
    for ctype, value in (("uint16_t", pair), ("uint32_t", MASK_LOW)):
        n = LANES[np.dtype(NP[ctype]).itemsize]
        call = (f"Reg::MaskReg m = Reg::MoveMask<{ctype}>();\n        Reg::Select(flags, ones, zeros, m);\n"
                f"        Reg::StoreAlign(dst, flags, all);")
        cases.append(Case(form_key(regapi.BY_NAME["MoveMask"], form), ctype, lane_flags(call, ctype),
                          {"dst": np.full(n, 7, NP[ctype]), "count": 0},
                          {"dst": np.array([(value >> i) & 1 for i in range(n)], NP[ctype])},
                          extra=("vsel",), prologue=prologue))
    return cases


def _page_case_builders():
    """form key -> a function of (form, seed) returning its cases."""
    builders = {"GatherB(dst:v base:ub index:v mask:p)": gatherb_case,
                "Squeeze(dst:v src:v mask:p) store=NO_STORE_REG": squeeze_case,
                "Unsqueeze(dst:v mask:p)": unsqueeze_case,
                "Mull(dst0:v dst1:v src0:v src1:v mask:p)": mull_case,
                "Pack(dst:v src:v) part=HIGHEST": vector_pack_high_case,
                "Load(dst:v src:ub)": load_store_case, "Store(dst:ub src:v)": load_store_case,
                "Store(dst:ub src:v count:n)": load_store_case,
                "CreateMask() regTrait=RegTraitNumOne": create_mask_case,
                "UpdateMask(count:s&) regTrait=RegTraitNumOne": update_mask_case,
                "CreateAddrReg(index:n stride:n)": addr_reg_case,
                "MaskGenWithRegTensor(dst:p src:v)": mask_from_vector_case,
                "Cast(dst:v src:v mask:p)": cast_case,
                "LoadUnAlignPre(ureg:q src:ub off:a)": stream_at_offsets_case,
                "LoadUnAlign(dst:v ureg:q src:ub off:a inc:s)": stream_at_offsets_case,
                "StoreUnAlign(dst:ub& src:p ureg:u)": mask_stream_case, "LocalMemBar()": membar_case,
                "MoveMask()": move_mask_case}
    for name in ("AddC", "SubC"):
        builders[f"{name}(carry:p dst:v src0:v src1:v carrySrc:p mask:p)"] = \
            lambda form, seed, name=name: carry_case(name, form, seed)
    every_form_of = {"Histograms": histograms_case, "ExpSub": expsub_case, "MulsCast": mulscast_case}
    for key, (api, form) in ALL_FORMS.items():
        if api.name in every_form_of:
            builders[key] = every_form_of[api.name]
        if "blkstride" in form.args:
            builders[key] = lambda form, seed, name=api.name: block_strided_case(name, form, seed)
        if api.name in ("Pack", "UnPack", "Interleave", "DeInterleave") and form.args.startswith("dst:p") \
                or api.name in ("Interleave", "DeInterleave") and form.args.startswith("dst0:p"):
            builders[key] = lambda form, seed, name=api.name: mask_rearrange_case(name, form, seed)
    return builders


PAGE_CASES = _page_case_builders()


def _cases():
    cases = []
    for key, (api, form) in ALL_FORMS.items():
        seed = sum(map(ord, key))
        vector_form = "dst:v" in form.args and "mask:p" in form.args
        if api.name in BINARY and form.args == "dst:v src0:v src1:v mask:p":
            types = BINARY[api.name][1]
            if "mode.algo" in dict(form.when) or dict(form.when).get("T") == "float":
                types = ("float",)
            cases += [binary_case(api.name, form, t, seed) for t in types]
        elif api.name in UNARY and form.args == "dst:v src:v mask:p":
            types = ("float",) if len(form.when) > 1 or "mode.algo" in dict(form.when) else UNARY[api.name][1]
            cases += [unary_case(api.name, form, t, seed) for t in types]
        elif api.name in SCALAR and vector_form:
            cases += [scalar_case(api.name, form, t, seed) for t in SCALAR[api.name][1]]
        elif api.name in ("Compare", "Compares") and form.args.startswith("dst:p"):
            cases += [compare_case(api.name, form, t, seed) for t in ("float", "int16_t")]
        elif api.name == "LoadAlign" and form.args.startswith(("dst:v", "dst0:v")) and "blkstride" not in form.args:
            cases.append(load_case(form))
        elif api.name == "StoreAlign" and ":v" in form.args and "blkstride" not in form.args:
            cases.append(store_case(form))
        elif api.name in ("LoadAlign", "StoreAlign") and ":p" in form.args.split()[0 if api.name == "LoadAlign" else 1]:
            cases.append(mask_memory_case(api.name, form))
        elif form.args.startswith("dst:p src") and ":p" in form.args.split()[1] and api.name in ("Move", *MASK_LOGIC):
            cases.append(mask_logic_case(api.name, form))
        elif api.name == "Truncate":
            cases += [truncate_case(form, t, seed) for t in ("float", "half")]
        elif api.name in REDUCTIONS:
            types = ("float", "half") if api.name == "PairReduceElem" else ("float", "int32_t")
            cases += [reduce_case(api.name, form, t, seed) for t in types]
        elif api.name in ("Duplicate", "Arange"):
            cases += [duplicate_case(api.name, form, t, seed) for t in ("int32_t", "half")]
        elif key in REARRANGE_FORMS:
            cases.append(rearrange_case(api.name, form, seed))
        elif key in PACK_FORMS:
            cases.append(pack_case(api.name, form, seed))
        elif key in STREAM_FORMS:
            cases.append(stream_case(key, seed))
        elif key in PAGE_CASES:
            cases += PAGE_CASES[key](form, seed)
    return cases


CASES = _cases()
COVERED = {case.key for case in CASES} | {"Select(dst:v src0:v src1:v mask:p)"}     # Select: every compare case

# Forms with no case yet, by function, and why. Shrink this; never grow it without a reason a reader can check.
# Every one of these rows is tested at the instruction level (tests/test_*.py); what is missing is the case
# through the C++ call.
PENDING_REASONS: dict[tuple, str] = {}
PENDING = {key: reason for names, reason in PENDING_REASONS.items()
           for key, (api, form) in ALL_FORMS.items() if api.name in names and key not in COVERED}
