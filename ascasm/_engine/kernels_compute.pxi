# Reduction and vector-compute kernels (included by core.pyx; seed 003 Reduce, facts §8, §2.3;
# docs/semantics.md "Reductions", "Vector compute", "Floating point"). Element-wise kernels read lane i
# of their sources before writing lane i of the destination, so a destination may be a source.

cdef inline bint active(const Machine* m, int64_t p, int64_t lane, int64_t width) noexcept nogil:
    return mask_bit(m, p, lane * width)


# vredsum vD.T, vS.U, pM  -- a pairwise tree over all lanes, inactive lanes +0, each partial rounded to T
cdef inline int k_reduce_sum(Machine* m, const Ins* ins, const Args_reduce_sum* a, reduce_sum_U* u) noexcept nogil:
    cdef const reduce_sum_U* src = <const reduce_sum_U*>vreg(m, a.vS)
    cdef int64_t lanes = VL // sizeof(reduce_sum_U)
    cdef uint8_t* dst = vreg(m, a.vD)
    cdef float single[LANES_B32]
    cdef double level[LANES_B16]
    cdef FloatFormat f
    cdef uint64_t total = 0
    cdef int64_t i, n = lanes
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    if reduce_sum_U is float:
        for i in range(lanes):
            single[i] = src[i] if active(m, a.pM, i, 4) else 0.0
        while n > 1:                                # (x0+x1), (x2+x3), ... each rounded to f32
            n >>= 1
            for i in range(n):
                single[i] = single[2 * i] + single[2 * i + 1]
        total = bits_of_float(canonical_f32(single[0]))
    elif reduce_sum_U is F16:
        f = float_format(<F16*>NULL)
        for i in range(lanes):
            level[i] = lane_value(src[i]) if active(m, a.pM, i, 2) else 0.0
        while n > 1:                                # each partial rounded to f16
            n >>= 1
            for i in range(n):
                level[i] = decode_bits(encode_double(level[2 * i] + level[2 * i + 1], &f), &f)
        total = encode_double(level[0], &f)         # a NaN becomes the canonical NaN
    elif reduce_sum_U is int16_t or reduce_sum_U is int32_t or reduce_sum_U is int64_t:
        for i in range(lanes):                      # integers wrap: the tree order does not matter
            if active(m, a.pM, i, sizeof(reduce_sum_U)):
                total += <uint64_t><int64_t>src[i]  # sign-extended
    elif reduce_sum_U is uint16_t or reduce_sum_U is uint32_t or reduce_sum_U is uint64_t:
        for i in range(lanes):
            if active(m, a.pM, i, sizeof(reduce_sum_U)):
                total += <uint64_t>src[i]
    memset(dst, 0, VL)
    memcpy(dst, &total, ins.tw)                     # the low bytes of the sum (little-endian host)
    return STOP_RUNNING


cdef inline Lane maxmin_identity(bint want_max, Lane* tag) noexcept nogil:
    """The max (min) identity: -inf (+inf) for floats, the type's minimum (maximum) for integers."""
    cdef FloatFormat f
    cdef uint64_t sign = ONE << (8 * sizeof(Lane) - 1)
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        f = float_format(<Lane*>NULL)
        return lane_of_bits(sign | f.overflow if want_max else f.overflow, <Lane*>NULL)
    elif Lane is int8_t or Lane is int16_t or Lane is int32_t or Lane is int64_t:
        return lane_of_bits(sign if want_max else sign - 1, <Lane*>NULL)
    else:
        return lane_of_bits(0 if want_max else low_bits(sizeof(Lane)), <Lane*>NULL)


cdef inline bint all_active(const Machine* m, int64_t p, int64_t width) noexcept nogil:
    """Every lane of `width` active: the common case, worth a loop with no mask test."""
    cdef int64_t w
    for w in range(MASK_WORDS):
        if (mask_word(m, p, w) & stride_bits(width)) != stride_bits(width):
            return False
    return True


ctypedef fused SignedKey:
    int16_t
    int32_t
    int64_t


cdef inline bint is_unsigned(Lane x) noexcept nogil:
    return Lane is uint8_t or Lane is uint16_t or Lane is uint32_t or Lane is uint64_t


cdef inline int64_t first_best_16(const uint8_t* lanes, bint is_float, bint is_unsigned_type, bint want_max,
                                  int64_t inf_bits) noexcept nogil:
    """first_best for 16-bit lanes in one pass: each lane's key (as in first_best) times 2^16 plus its lane
    number (for a max, the complement, so that the first lane wins a tie) in an int32; the max (min) of
    those holds the best key and its first lane. A NaN is searched lane by lane."""
    cdef const int16_t* v = <const int16_t*>lanes
    cdef int64_t n = VL // 2
    cdef int16_t top = <int16_t>0x8000
    cdef int16_t magnitude = 0x7FFF
    cdef int32_t low = 0xFFFF
    cdef int32_t best = INT32_MIN if want_max else INT32_MAX
    cdef int32_t packed
    cdef int16_t key
    cdef bint any_nan = False
    cdef int64_t i
    for i in range(n):
        if is_float:
            key = v[i] ^ ((v[i] >> 15) & magnitude)
            any_nan |= (v[i] & magnitude) > <int16_t>inf_bits
        elif is_unsigned_type:
            key = v[i] ^ top
        else:
            key = v[i]
        packed = <int32_t>key * 65536 + <int32_t>(low - i if want_max else i)   # exact: no overflow
        if want_max:
            best = packed if packed > best else best
        else:
            best = packed if packed < best else best
    if any_nan:
        for i in range(n):
            if (v[i] & magnitude) > <int16_t>inf_bits:
                return i
    return (low - (best & low)) if want_max else (best & low)


cdef inline int64_t first_best(SignedKey* tag, const uint8_t* lanes, bint is_float, bint is_unsigned_type,
                               bint want_max, int64_t inf_bits) noexcept nogil:
    """The first of all VL/W lanes holding the max (min), or the first NaN if there is one: lanes as
    signed integers of their width, mapped so that signed order is the values' order (floats: the
    magnitude bits of negatives flipped, so -0 is below +0; unsigned: the top bit flipped). Written
    without data-dependent branches so the compiler can vectorise the two passes."""
    cdef const SignedKey* v = <const SignedKey*>lanes
    cdef int64_t n = VL // sizeof(SignedKey)
    cdef SignedKey top = <SignedKey>(ONE << (8 * sizeof(SignedKey) - 1))    # the sign bit
    cdef SignedKey magnitude = ~top
    cdef SignedKey best, key
    cdef bint any_nan = False
    cdef int64_t i
    best = v[0] ^ ((v[0] >> (8 * sizeof(SignedKey) - 1)) & magnitude) if is_float else \
        (v[0] ^ top if is_unsigned_type else v[0])
    for i in range(n):
        if is_float:
            key = v[i] ^ ((v[i] >> (8 * sizeof(SignedKey) - 1)) & magnitude)
            any_nan |= (v[i] & magnitude) > <SignedKey>inf_bits
        elif is_unsigned_type:
            key = v[i] ^ top
        else:
            key = v[i]
        if want_max:
            best = key if key > best else best
        else:
            best = key if key < best else best
    for i in range(n):
        if any_nan:
            if (v[i] & magnitude) > <SignedKey>inf_bits:
                return i
        elif is_float:
            if v[i] ^ ((v[i] >> (8 * sizeof(SignedKey) - 1)) & magnitude) == best:
                return i
        elif (v[i] ^ top if is_unsigned_type else v[i]) == best:
            return i
    return 0


# vredmax|vredmin vD.T, vS.T, pM  -- lane 0 = the value, lane 1 = its first index (raw bits), rest 0
cdef inline int k_reduce_maxmin(Machine* m, const Ins* ins, const Args_reduce_maxmin* a, reduce_maxmin_T* t,
                                reduce_maxmin_sub* op) noexcept nogil:
    cdef const reduce_maxmin_T* src = <const reduce_maxmin_T*>vreg(m, a.vS)
    cdef int64_t width = sizeof(reduce_maxmin_T)
    cdef int64_t lanes = VL // width
    cdef bint want_max = reduce_maxmin_sub is Op_max
    cdef reduce_maxmin_T best = maxmin_identity(want_max, <reduce_maxmin_T*>NULL)
    cdef uint64_t key, best_key = 0, bits
    cdef int64_t w, i, best_index = 0
    cdef bint found = False, any_nan = False
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    if all_active(m, a.pM, width):
        if width == 2:
            best_index = first_best_16(vreg(m, a.vS), reduce_maxmin_T is F16, is_unsigned(src[0]), want_max,
                                       <int64_t>float_format(<reduce_maxmin_T*>NULL).overflow)
        elif width == 4:                            # (packed in 64 bits it is slower here)
            best_index = first_best(<int32_t*>NULL, vreg(m, a.vS), reduce_maxmin_T is float, is_unsigned(src[0]),
                                    want_max, <int64_t>float_format(<reduce_maxmin_T*>NULL).overflow)
        else:
            best_index = first_best(<int64_t*>NULL, vreg(m, a.vS), False, is_unsigned(src[0]), want_max, 0)
        best = src[best_index]
    else:
        w = 0
        while w < MASK_WORDS:                       # the active lanes, in order
            bits = mask_word(m, a.pM, w) & stride_bits(width)
            while bits:
                i = (64 * w + __builtin_ctzll(bits)) // width
                bits &= bits - 1
                if lane_is_nan(src[i]):             # the first active NaN wins with its own bits
                    best, best_index = src[i], i
                    w = MASK_WORDS
                    break
                key = lane_key(src[i])
                # the first active lane, then only a strictly better one (-0 below +0)
                if not found or (key > best_key if want_max else key < best_key):
                    best, best_key, best_index, found = src[i], key, i, True
            w += 1
    memset(vreg(m, a.vD), 0, VL)
    (<reduce_maxmin_T*>vreg(m, a.vD))[0] = best
    memcpy(vreg(m, a.vD) + width, &best_index, width)   # the index as the lane's raw bits
    return STOP_RUNNING


# vdup vD.T, X.T  -- every lane = X
cdef inline int k_vdup(Machine* m, const Ins* ins, const Args_vdup* a, vdup_T* t) noexcept nogil:
    cdef vdup_T x = tval(&a.x, <vdup_T*>NULL)
    cdef vdup_T* dst = <vdup_T*>vreg(m, a.vD)
    cdef int64_t i
    for i in range(VL // sizeof(vdup_T)):
        dst[i] = x
    return STOP_RUNNING


# vdup vD.T, X.T, pM  -- active lanes = X, inactive lanes 0
cdef inline int k_vdup_masked(Machine* m, const Ins* ins, const Args_vdup_masked* a, vdup_masked_T* t) noexcept nogil:
    cdef vdup_masked_T x = tval(&a.x, <vdup_masked_T*>NULL)
    cdef vdup_masked_T zero = lane_of_bits(0, <vdup_masked_T*>NULL)
    cdef vdup_masked_T* dst = <vdup_masked_T*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vdup_masked_T)):
        dst[i] = x if active(m, a.pM, i, sizeof(vdup_masked_T)) else zero
    return STOP_RUNNING


# vci vD.T, X.T  -- lane i = X + i (integers wrap; floats: X + i rounded once)
cdef inline int k_vci(Machine* m, const Ins* ins, const Args_vci* a, vci_T* t) noexcept nogil:
    cdef vci_T x = tval(&a.x, <vci_T*>NULL)
    cdef vci_T* dst = <vci_T*>vreg(m, a.vD)
    cdef int64_t i
    for i in range(VL // sizeof(vci_T)):
        dst[i] = arange_lane(x, i)
    return STOP_RUNNING


cdef inline Lane arange_lane(Lane x, int64_t i) noexcept nogil:
    """X + i: integers wrap; floats to nearest, ties toward +inf (the Arange table), exact in double
    wherever a tie is possible."""
    cdef Lane nearest, up
    cdef double exact
    cdef uint64_t bits
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2 or Lane is float:
        exact = lane_value(x) + <double>i
        nearest = lane_of_double(exact, <Lane*>NULL)
        if lane_value(nearest) < exact:             # rounded down: the value above may be as near
            bits = lane_bits(nearest)
            up = lane_of_bits(bits - 1 if bits >> (8 * sizeof(Lane) - 1) else bits + 1, <Lane*>NULL)
            if lane_value(up) - exact == exact - lane_value(nearest):
                nearest = up
        return nearest
    else:
        return <Lane>(<uint64_t>x + <uint64_t>i)


cdef inline Lane binary_op(Lane x, Lane y, bint is_add, bint is_sub, bint is_mul, bint is_div, bint is_max,
                           bint flush) noexcept nogil:
    """One lane of a binary operation; `flush`: subnormal inputs and result become zeros (vdiv's default)."""
    if is_add:
        return lane_add(x, y)
    if is_sub:
        return lane_sub(x, y)
    if is_mul:
        return lane_mul(x, y)
    if is_div and flush:
        return lane_ftz(lane_div(lane_ftz(x), lane_ftz(y)))
    if is_div:
        return lane_div(x, y)
    if is_max:
        return lane_max(x, y)
    return lane_min(x, y)


# vadd|vsub|vmul|vdiv|vmax|vmin vD.T, vA.T, vB.T, pM  -- inactive lanes 0; vadd.merge|vmax.merge|vmin.merge
# (the `_merge` sub-operations: appendix merge-mode.md table 2) leave inactive lanes as vD held them
cdef inline int k_vbinary(Machine* m, const Ins* ins, const Args_vbinary* a, vbinary_T* t, vbinary_sub* op) noexcept nogil:
    cdef const vbinary_T* x = <const vbinary_T*>vreg(m, a.vA)
    cdef const vbinary_T* y = <const vbinary_T*>vreg(m, a.vB)
    cdef vbinary_T* dst = <vbinary_T*>vreg(m, a.vD)
    cdef vbinary_T zero = lane_of_bits(0, <vbinary_T*>NULL)
    cdef bint merging = vbinary_sub is Op_add_merge or vbinary_sub is Op_max_merge or vbinary_sub is Op_min_merge
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vbinary_T)):
        if active(m, a.pM, i, sizeof(vbinary_T)):
            dst[i] = binary_op(x[i], y[i], vbinary_sub is Op_add or vbinary_sub is Op_add_merge, vbinary_sub is Op_sub,
                               vbinary_sub is Op_mul, vbinary_sub is Op_div or vbinary_sub is Op_div_nftz,
                               vbinary_sub is Op_max or vbinary_sub is Op_max_merge, vbinary_sub is Op_div)
        elif not merging:
            dst[i] = zero
    return STOP_RUNNING


# vadds|vmuls|vmaxs|vmins vD.T, vA.T, X.T, pM  -- every lane's second operand is X; inactive lanes 0
cdef inline int k_vbinary_x(Machine* m, const Ins* ins, const Args_vbinary_x* a, vbinary_x_T* t,
                            vbinary_x_sub* op) noexcept nogil:
    cdef const vbinary_x_T* x = <const vbinary_x_T*>vreg(m, a.vA)
    cdef vbinary_x_T y = tval(&a.x, <vbinary_x_T*>NULL)
    cdef vbinary_x_T* dst = <vbinary_x_T*>vreg(m, a.vD)
    cdef vbinary_x_T zero = lane_of_bits(0, <vbinary_x_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vbinary_x_T)):
        if active(m, a.pM, i, sizeof(vbinary_x_T)):
            dst[i] = binary_op(x[i], y, vbinary_x_sub is Op_add, False, vbinary_x_sub is Op_mul, False,
                               vbinary_x_sub is Op_max, False)
        else:
            dst[i] = zero
    return STOP_RUNNING


# vabs|vneg|vexp|vsqrt|vln vD.T, vA.T, pM  -- inactive lanes 0; vexp/vsqrt/vln flush subnormal inputs
# and results to zero, vexp.nftz/vsqrt.nftz keep them
cdef inline int k_vunary(Machine* m, const Ins* ins, const Args_vunary* a, vunary_T* t, vunary_sub* op) noexcept nogil:
    cdef const vunary_T* x = <const vunary_T*>vreg(m, a.vA)
    cdef vunary_T* dst = <vunary_T*>vreg(m, a.vD)
    cdef vunary_T zero = lane_of_bits(0, <vunary_T*>NULL)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vunary_T)):
        if not active(m, a.pM, i, sizeof(vunary_T)):
            dst[i] = zero
        elif vunary_sub is Op_abs:
            dst[i] = lane_abs(x[i])
        elif vunary_sub is Op_neg:
            dst[i] = lane_neg(x[i])
        elif vunary_sub is Op_exp:
            dst[i] = lane_ftz(lane_exp(lane_ftz(x[i])))
        elif vunary_sub is Op_exp_nftz:
            dst[i] = lane_exp(x[i])
        elif vunary_sub is Op_sqrt:
            dst[i] = lane_ftz(lane_sqrt(lane_ftz(x[i])))
        elif vunary_sub is Op_ln:
            dst[i] = lane_ftz(lane_ln(lane_ftz(x[i])))
        elif vunary_sub is Op_relu:
            dst[i] = lane_max(x[i], zero)       # max(x, +0): -0 -> +0, NaN -> the hardware NaN
        else:
            dst[i] = lane_sqrt(x[i])
    return STOP_RUNNING


ctypedef fused Number:          # the lanes C can compare directly, and double for the narrow floats
    int8_t
    uint8_t
    int16_t
    uint16_t
    int32_t
    uint32_t
    int64_t
    uint64_t
    float
    double


cdef inline bint compare_numbers(Number a, Number b, bint is_eq, bint is_ne, bint is_lt, bint is_le,
                                 bint is_gt) noexcept nogil:
    """a CC b as C compares numbers: NaN is false except for ne, -0 == +0; no branch."""
    if is_eq:
        return a == b
    if is_ne:
        return a != b
    if is_lt:
        return a < b
    if is_le:
        return a <= b
    if is_gt:
        return a > b
    return a >= b


cdef inline bint compare(Lane a, Lane b, bint is_eq, bint is_ne, bint is_lt, bint is_le, bint is_gt) noexcept nogil:
    """vcmp.CC on one lane: values compared (narrow floats widened to double exactly first)."""
    if Lane is F16 or Lane is BF16 or Lane is E4M3 or Lane is E5M2:
        return compare_numbers(lane_value(a), lane_value(b), is_eq, is_ne, is_lt, is_le, is_gt)
    else:
        return compare_numbers(a, b, is_eq, is_ne, is_lt, is_le, is_gt)


cdef inline void set_verdict(uint8_t* verdicts, int64_t i, bint holds, int64_t width) noexcept nogil:
    """Lane i's `width` bytes (a constant where this is inlined) all 0xFF when `holds`, else all 0: the
    compiler turns a loop of these into vector compares stored as they come."""
    if width == 1:
        verdicts[i] = <uint8_t>(0 - holds)
    elif width == 2:
        (<uint16_t*>verdicts)[i] = <uint16_t>(0 - holds)
    elif width == 4:
        (<uint32_t*>verdicts)[i] = <uint32_t>(0 - holds)
    else:
        (<uint64_t*>verdicts)[i] = <uint64_t>(0 - holds)


# vcmp.CC pD, vA.T, vB.T, pM  -- bit i*W set for active lanes where the comparison holds
cdef inline int k_vcmp(Machine* m, const Ins* ins, const Args_vcmp* a, vcmp_T* t, vcmp_sub* op) noexcept nogil:
    cdef const vcmp_T* x = <const vcmp_T*>vreg(m, a.vA)
    cdef const vcmp_T* y = <const vcmp_T*>vreg(m, a.vB)
    cdef uint8_t verdicts[VL]
    cdef int64_t i
    for i in range(VL // sizeof(vcmp_T)):
        set_verdict(verdicts, i, compare(x[i], y[i], vcmp_sub is Op_eq, vcmp_sub is Op_ne, vcmp_sub is Op_lt,
                                         vcmp_sub is Op_le, vcmp_sub is Op_gt), sizeof(vcmp_T))
    return verdicts_into_mask(m, a.pD, a.pM, verdicts, sizeof(vcmp_T))


cdef inline int verdicts_into_mask(Machine* m, int32_t pD, int32_t pM, const uint8_t* verdicts, int64_t width) noexcept nogil:
    """pD = bit i*W for each active lane i whose verdict bytes are 0xFF (set_verdict): each byte's top
    bit as a mask bit (signs.h), then the bits at lane starts, then the active ones."""
    cdef uint64_t words[MASK_WORDS]             # pD may be pM: read every lane first
    cdef int64_t w
    cdef int status = check_mask(m, pM)
    if status:
        return status
    ascasm_sign_bits(verdicts, words)
    for w in range(MASK_WORDS):
        words[w] &= stride_bits(width) & mask_word(m, pM, w)
    set_mask(m, pD, words)
    return STOP_RUNNING


# vsel vD.T, vA.T, vB.T, pM  -- raw bits of vA where active, of vB elsewhere
cdef inline int k_vsel(Machine* m, const Ins* ins, const Args_vsel* a, vsel_TW* t) noexcept nogil:
    cdef const vsel_TW* x = <const vsel_TW*>vreg(m, a.vA)
    cdef const vsel_TW* y = <const vsel_TW*>vreg(m, a.vB)
    cdef vsel_TW* dst = <vsel_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vsel_TW)):
        dst[i] = x[i] if active(m, a.pM, i, sizeof(vsel_TW)) else y[i]
    return STOP_RUNNING


# vand|vor|vxor vD.T, vA.T, vB.T, pM  -- on the lanes' bits (floats too); inactive lanes 0
cdef inline int k_vlogic(Machine* m, const Ins* ins, const Args_vlogic* a, vlogic_TW* t, vlogic_sub* op) noexcept nogil:
    cdef const vlogic_TW* x = <const vlogic_TW*>vreg(m, a.vA)
    cdef const vlogic_TW* y = <const vlogic_TW*>vreg(m, a.vB)
    cdef vlogic_TW* dst = <vlogic_TW*>vreg(m, a.vD)
    cdef int64_t i
    cdef int status = check_mask(m, a.pM)
    if status:
        return status
    for i in range(VL // sizeof(vlogic_TW)):
        if not active(m, a.pM, i, sizeof(vlogic_TW)):
            dst[i] = 0
        elif vlogic_sub is Op_and:
            dst[i] = x[i] & y[i]
        elif vlogic_sub is Op_or:
            dst[i] = x[i] | y[i]
        else:
            dst[i] = x[i] ^ y[i]
    return STOP_RUNNING
