"""Every worked value of appendix/boundary-values.md (the INF/NAN column) for the instructions ascasm
has, typed in from its tables, on both executors: Exp (table 1), Neg (6), Abs (7), Sqrt (8), Add (11),
Adds (12), Sub (14), Mul (16), Div (18), Max (19), Min (20), Muls (21), Maxs (22), Mins (23), Compare
(31), Compares (32), Reduce (35), ReduceDataBlock (36) and Arange (38); Ln (2), Relu (9), Prelu (10),
LeakyRelu (24), Axpy (25), AbsSub (26, its int64 rows left out: no page lists int64 abs-sub), MulDstAdd
(28), MulAddDst (29, `vmla`: dst = src0 * src1 + dst) and PairReduceElem (37); Log2 (4) and Log10 (5).

Reading the tables:
- `MIN`/`MAX` are the type's lowest and largest finite values; `a/b/c` in an operand column is one row
  per value; in Compare the result column lists the result for each of them in turn.
- A float written with five digits (3.40282E+38) is the table's rounding of the exact value.
- NaN: the tables print `nan`; the bits are the hardware NaN (docs/semantics.md "Floating point").
- Zeros: the tables print `0.0` for a zero of either sign where IEEE gives -0.0 (0.0 / MIN -> 0.0,
  page-ambiguities 8), so `0.0` accepts either sign; a printed `-0.0` must be -0.0, except in a row
  with alternatives (Sub: -0.0 - (-0.0/0.0) -> -0.0, where IEEE gives +0 for one of them).
- Values the hardware does not round correctly (precision.md allows 1 ulp; the algorithms are not
  public): ascasm keeps the correctly rounded value, listed in NOT_CORRECTLY_ROUNDED with the table's.
- Div table 18 prints `MIN / 0.0` and `MAX / 0.0` twice with opposite infinities: one divisor is -0.0
  (page-ambiguities 8); those rows are typed with -0.0.
- Reduce: the table gives one value per row, read as every lane holding it (page-ambiguities 14).
- Axpy and MulDstAdd list several `src0/src1` pairs in one cell (typed comma-separated here); `ANY`
  (the table's "任意值", any value) stands for every special value. MulDstAdd is `vmadd`:
  dst = dst * src0 + src1, the order every row of table 28 agrees with; Axpy is `vaxpy`: dst = src * value + dst.
- `+0`/`+0.0` in a result must be +0.
- MulDstAdd table 28 gives `MIN/-0` with dst MAX (MIN) the result inf (-inf), the opposite of its
  `MIN/+0` rows; adding a zero cannot change the sign of the infinite product, so those two rows per
  type are typed with the IEEE result and the table's value in a comment; so is `MIN/MIN` with a zero
  dst, printed MAX where 0 * MIN + MIN is MIN. AbsSub table 26 prints |-0.0 - (-inf)| as -inf
  (page-ambiguities 11): typed as inf.
- MulAddDst table 29 gives -inf * -inf + (+0, -0, MAX, MIN, +inf) as -inf; the product is +inf and
  the table's note says this column is IEEE 754's: typed as +inf.
- Saturation mode (the tables' last column, set through the control register): tests/test_saturation.py
  runs these harnesses on its rows with CTRL set both ways.
"""
from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal

import numpy as np
import pytest
from conftest import run_source

# section: `== MNEMONIC (table N)`, then rows: type, operands..., expected (INF/NAN column)
TABLES = """
== vexp (table 1)
f16 MIN 0.0
f16 MAX inf
f16 0.0 1.0
f16 -0.0 1.0
f16 nan nan
f16 inf inf
f16 -inf 0.0
f32 MIN 0.0
f32 MAX inf
f32 0.0 1.0
f32 -0.0 1.0
f32 nan nan
f32 inf inf
f32 -inf 0.0
== vneg (table 6)
f16 MIN MAX
f16 MAX MIN
f16 0.0 -0.0
f16 -0.0 0.0
f16 nan nan
f16 inf -inf
f16 -inf inf
f32 MIN MAX
f32 MAX MIN
f32 0.0 -0.0
f32 -0.0 0.0
f32 nan nan
f32 inf -inf
f32 -inf inf
== vabs (table 7)
f16 MIN 65504.0
f16 MAX 65504.0
f16 0.0 0.0
f16 -0.0 0.0
f16 nan nan
f16 inf inf
f16 -inf inf
f32 MIN 3.40282E+38
f32 MAX 3.40282E+38
f32 0.0 0.0
f32 -0.0 0.0
f32 nan nan
f32 inf inf
f32 -inf inf
== vsqrt (table 8)
f16 MIN nan
f16 MAX 256.0
f16 0.0 0.0
f16 -0.0 -0.0
f16 nan nan
f16 inf inf
f16 -inf nan
f32 MIN nan
f32 MAX 1.84467E+19
f32 0.0 0.0
f32 -0.0 -0.0
f32 nan nan
f32 inf inf
f32 -inf nan
== vadd (table 11)
f16 MIN MIN/-inf -inf
f16 MIN MAX 0.0
f16 MIN 0.0/-0.0 -65504.0
f16 MIN nan nan
f16 MIN inf inf
f16 MAX MAX/inf inf
f16 MAX 0.0/-0.0 65504.0
f16 MAX nan nan
f16 MAX -inf -inf
f16 0.0 0.0/-0.0 0.0
f16 0.0 nan nan
f16 0.0 inf inf
f16 0.0 -inf -inf
f16 -0.0 -0.0 -0.0
f16 -0.0 nan nan
f16 -0.0 inf inf
f16 -0.0 -inf -inf
f16 nan nan/inf/-inf nan
f16 inf inf inf
f16 inf -inf nan
f16 -inf -inf -inf
f32 MIN MIN/-inf -inf
f32 MIN MAX 0.0
f32 MIN 0.0/-0.0 -3.40282E+38
f32 MIN nan nan
f32 MIN inf inf
f32 MAX MAX/inf inf
f32 MAX 0.0/-0.0 3.40282E+38
f32 MAX nan nan
f32 MAX -inf -inf
f32 0.0 0.0/-0.0 0.0
f32 0.0 nan nan
f32 0.0 inf inf
f32 0.0 -inf -inf
f32 -0.0 -0.0 -0.0
f32 -0.0 nan nan
f32 -0.0 inf inf
f32 -0.0 -inf -inf
f32 nan nan/inf/-inf nan
f32 inf inf inf
f32 inf -inf nan
f32 -inf -inf -inf
s16 MIN MIN 0
s16 MIN MAX -1
s16 MAX MAX -2
s32 MIN MIN 0
s32 MIN MAX -1
s32 MAX MAX -2
== vadds (table 12)
f16 MIN MIN/-inf -inf
f16 MIN MAX 0.0
f16 MIN 0.0/-0.0 -65504.0
f16 MIN nan nan
f16 MIN inf inf
f16 MAX MAX/inf inf
f16 MAX 0.0/-0.0 65504.0
f16 MAX nan nan
f16 MAX -inf -inf
f16 0.0 0.0/-0.0 0.0
f16 0.0 nan nan
f16 0.0 inf inf
f16 0.0 -inf -inf
f16 -0.0 -0.0 -0.0
f16 -0.0 nan nan
f16 -0.0 inf inf
f16 -0.0 -inf -inf
f16 nan nan/inf/-inf nan
f16 inf inf inf
f16 inf -inf nan
f16 -inf -inf -inf
f32 MIN MIN/-inf -inf
f32 MIN MAX 0.0
f32 MIN 0.0/-0.0 -3.40282E+38
f32 MIN nan nan
f32 MIN inf inf
f32 MAX MAX/inf inf
f32 MAX 0.0/-0.0 3.40282E+38
f32 MAX nan nan
f32 MAX -inf -inf
f32 0.0 0.0/-0.0 0.0
f32 0.0 nan nan
f32 0.0 inf inf
f32 0.0 -inf -inf
f32 -0.0 -0.0 -0.0
f32 -0.0 nan nan
f32 -0.0 inf inf
f32 -0.0 -inf -inf
f32 nan nan/inf/-inf nan
f32 inf inf inf
f32 inf -inf nan
f32 -inf -inf -inf
s16 MIN MIN 0
s16 MIN MAX -1
s16 MAX MAX -2
s32 MIN MIN 0
s32 MIN MAX -1
s32 MAX MAX -2
== vsub (table 14)
f16 MIN MIN 0.0
f16 MIN MAX -inf
f16 MIN 0.0/-0.0 -65504.0
f16 MIN nan nan
f16 MIN inf -inf
f16 MIN -inf inf
f16 MAX MIN inf
f16 MAX MAX 0.0
f16 MAX 0.0/-0.0 65504.0
f16 MAX nan nan
f16 MAX inf -inf
f16 MAX -inf inf
f16 0.0/-0.0 MIN 65504.0
f16 0.0/-0.0 MAX -65504.0
f16 0.0/-0.0 nan nan
f16 0.0/-0.0 inf -inf
f16 0.0/-0.0 -inf inf
f16 0.0 -0.0/0.0 0.0
f16 -0.0 -0.0/0.0 -0.0
f16 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan
f16 inf MIN/MAX/0.0/-0.0/-inf inf
f16 inf nan/inf nan
f16 -inf MIN/MAX/0.0/-0.0/inf -inf
f16 -inf nan/-inf nan
f32 MIN MIN 0.0
f32 MIN MAX -inf
f32 MIN 0.0/-0.0 -3.40282E+38
f32 MIN nan nan
f32 MIN inf -inf
f32 MIN -inf inf
f32 MAX MIN inf
f32 MAX MAX 0.0
f32 MAX 0.0/-0.0 3.40282E+38
f32 MAX nan nan
f32 MAX inf -inf
f32 MAX -inf inf
f32 0.0/-0.0 MIN 3.40282E+38
f32 0.0/-0.0 MAX -3.40282E+38
f32 0.0/-0.0 nan nan
f32 0.0/-0.0 inf -inf
f32 0.0/-0.0 -inf inf
f32 0.0 0.0/-0.0 0.0
f32 -0.0 0.0/-0.0 -0.0
f32 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan
f32 inf MIN/MAX/0.0/-0.0/-inf inf
f32 inf nan/inf nan
f32 -inf MIN/MAX/0.0/-0.0/inf -inf
f32 -inf nan/-inf nan
s16 MIN MIN 0
s16 MIN MAX 1
s16 MAX MIN -1
s16 MAX MAX 0
s32 MIN MIN 0
s32 MIN MAX 1
s32 MAX MIN -1
s32 MAX MAX 0
== vmul (table 16)
f16 MIN MIN inf
f16 MIN MAX -inf
f16 MIN 0.0 -0.0
f16 MIN -0.0 0.0
f16 MIN nan nan
f16 MIN inf -inf
f16 MIN -inf inf
f16 MAX MAX inf
f16 MAX 0.0 0.0
f16 MAX -0.0 -0.0
f16 MAX nan nan
f16 MAX inf inf
f16 MAX -inf -inf
f16 0.0 0.0 0.0
f16 0.0 -0.0 -0.0
f16 0.0 nan/inf/-inf nan
f16 -0.0 -0.0 0.0
f16 -0.0 nan/inf/-inf nan
f16 nan nan/inf/-inf nan
f16 inf inf inf
f16 inf -inf -inf
f16 -inf -inf inf
f32 MIN MIN inf
f32 MIN MAX -inf
f32 MIN 0.0 -0.0
f32 MIN 0.0 -0.0
f32 MIN nan nan
f32 MIN inf -inf
f32 MIN -inf inf
f32 MAX MAX inf
f32 MAX 0.0 0.0
f32 MAX 0.0 0.0
f32 MAX nan nan
f32 MAX inf inf
f32 MAX -inf -inf
f32 0.0 0.0 0.0
f32 0.0 -0.0 -0.0
f32 0.0 nan/inf/-inf nan
f32 -0.0 -0.0 0.0
f32 -0.0 nan/inf/-inf nan
f32 nan nan/inf/-inf nan
f32 inf inf inf
f32 inf -inf -inf
f32 -inf -inf inf
s16 MIN MIN 0
s16 MIN MAX -32768
s16 MAX MAX 1
s32 MIN MIN 0
s32 MIN MAX -2147483648
s32 MAX MAX 1
== vdiv (table 18)
f16 MIN MIN 1
f16 MIN MAX -1
f16 MIN 0.0 -inf
f16 MIN -0.0 inf  # printed "0.0": a lost -0.0 (page-ambiguities 8)
f16 MIN nan nan
f16 MIN inf 0.0
f16 MIN -inf 0.0
f16 MAX MIN -1
f16 MAX MAX 1
f16 MAX 0.0 inf
f16 MAX -0.0 -inf  # printed "0.0": a lost -0.0
f16 MAX nan nan
f16 MAX inf 0.0
f16 MAX -inf 0.0
f16 0.0 MIN/-inf 0.0
f16 0.0 MAX/inf 0.0
f16 0.0 0.0/-0.0/nan nan
f16 -0.0 MIN/-inf 0.0
f16 -0.0 MAX/inf 0.0
f16 -0.0 0.0/-0.0/nan nan
f16 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan
f16 inf MIN/-0.0 -inf
f16 inf MAX/0.0 inf
f16 inf nan/inf/-inf nan
f16 -inf MIN/-0.0 inf
f16 -inf MAX/0.0 -inf
f16 -inf nan/inf/-inf nan
f32 MIN MIN 1
f32 MIN MAX -1
f32 MIN 0.0 -inf
f32 MIN -0.0 inf  # printed "0.0": a lost -0.0
f32 MIN nan nan
f32 MIN inf 0.0
f32 MIN -inf 0.0
f32 MAX MIN -1
f32 MAX MAX 1
f32 MAX 0.0 inf
f32 MAX -0.0 -inf  # printed "0.0": a lost -0.0
f32 MAX nan nan
f32 MAX inf 0.0
f32 MAX -inf 0.0
f32 0.0 MIN/-inf 0.0
f32 0.0 MAX/inf 0.0
f32 0.0 0.0/-0.0/nan nan
f32 -0.0 MIN/-inf 0.0
f32 -0.0 MAX/inf 0.0
f32 -0.0 0.0/-0.0/nan nan
f32 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan
f32 inf MIN/-0.0 -inf
f32 inf MAX/0.0 inf
f32 inf nan/inf/-inf nan
f32 -inf MIN/-0.0 inf
f32 -inf MAX/0.0 -inf
f32 -inf nan/inf/-inf nan
== vmax (table 19)
f16 MIN MIN/-inf -65504.0
f16 MIN MAX 65504.0
f16 MIN 0.0 0.0
f16 MIN 0.0 0.0
f16 MIN nan nan
f16 MIN inf inf
f16 MAX MAX/0.0/-0.0/-inf 65504.0
f16 MAX nan nan
f16 MAX inf inf
f16 0.0 0.0/-0.0/-inf 0.0
f16 0.0 nan nan
f16 0.0 inf inf
f16 -0.0 -0.0/-inf -0.0
f16 -0.0 nan nan
f16 -0.0 inf inf
f16 nan nan/inf/-inf nan
f16 inf inf/-inf inf
f16 -inf -inf -inf
f32 MIN MIN/-inf -3.40282E+38
f32 MIN MAX 3.40282E+38
f32 MIN 0.0 0.0
f32 MIN 0.0 0.0
f32 MIN nan nan
f32 MIN inf inf
f32 MAX MAX/0.0/-0.0/-inf 3.40282E+38
f32 MAX nan nan
f32 MAX inf inf
f32 0.0 0.0/-0.0/-inf 0.0
f32 0.0 nan nan
f32 0.0 inf inf
f32 -0.0 -0.0/-inf -0.0
f32 -0.0 nan nan
f32 -0.0 inf inf
f32 nan nan/inf/-inf nan
f32 inf inf/-inf inf
f32 -inf -inf -inf
s16 MIN MIN -32768
s16 MIN MAX 32767
s16 MAX MAX 32767
s32 MIN MIN -2147483648
s32 MIN MAX 2147483647
s32 MAX MAX 2147483647
== vmin (table 20)
f16 MIN MIN/MAX/0.0/-0.0/inf -65504.0
f16 MIN nan nan
f16 MIN -inf -inf
f16 MAX MAX/inf 65504.0
f16 MAX 0.0 0.0
f16 MAX 0.0 0.0
f16 MAX nan nan
f16 MAX -inf -inf
f16 0.0 0.0/inf 0.0
f16 0.0 0.0 0.0
f16 0.0 nan nan
f16 0.0 -inf -inf
f16 -0.0 -0.0/inf -0.0
f16 -0.0 nan nan
f16 -0.0 -inf -inf
f16 nan nan/inf/-inf nan
f16 inf inf inf
f16 inf -inf -inf
f16 -inf -inf -inf
f32 MIN MIN/MAX/0.0/-0.0/inf -3.40282E+38
f32 MIN nan nan
f32 MIN -inf -inf
f32 MAX MAX/inf 3.40282E+38
f32 MAX 0.0 0.0
f32 MAX 0.0 0.0
f32 MAX nan nan
f32 MAX -inf -inf
f32 0.0 0.0/inf 0.0
f32 0.0 0.0 0.0
f32 0.0 nan nan
f32 0.0 -inf -inf
f32 -0.0 -0.0/inf -0.0
f32 -0.0 nan nan
f32 -0.0 -inf -inf
f32 nan nan/inf/-inf nan
f32 inf inf inf
f32 inf -inf -inf
f32 -inf -inf -inf
s16 MIN MIN/MAX -32768
s16 MAX MAX 32767
s32 MIN MIN/MAX -2147483648
s32 MAX MAX 2147483647
== vmuls (table 21)
f16 MIN MIN inf
f16 MIN MAX -inf
f16 MIN 0.0 -0.0
f16 MIN -0.0 0.0
f16 MIN nan nan
f16 MIN inf -inf
f16 MIN -inf inf
f16 MAX MAX inf
f16 MAX 0.0 0.0
f16 MAX -0.0 -0.0
f16 MAX nan nan
f16 MAX inf inf
f16 MAX -inf -inf
f16 0.0 0.0 0.0
f16 0.0 -0.0 -0.0
f16 0.0 nan/inf/-inf nan
f16 -0.0 -0.0 0.0
f16 -0.0 nan/inf/-inf nan
f16 nan nan/inf/-inf nan
f16 inf inf inf
f16 inf -inf -inf
f16 -inf -inf inf
f32 MIN MIN inf
f32 MIN MAX -inf
f32 MIN 0.0 -0.0
f32 MIN 0.0 -0.0
f32 MIN nan nan
f32 MIN inf -inf
f32 MIN -inf inf
f32 MAX MAX inf
f32 MAX 0.0 0.0
f32 MAX 0.0 0.0
f32 MAX nan nan
f32 MAX inf inf
f32 MAX -inf -inf
f32 0.0 0.0 0.0
f32 0.0 0.0 0.0
f32 0.0 nan/inf/-inf nan
f32 -0.0 0.0 -0.0
f32 -0.0 nan/inf/-inf nan
f32 nan nan/inf/-inf nan
f32 inf inf inf
f32 inf -inf -inf
f32 -inf -inf inf
s16 MIN MIN 0
s16 MIN MAX -32768
s16 MAX MAX 1
s32 MIN MIN 0
s32 MIN MAX -2147483648
s32 MAX MAX 1
== vmaxs (table 22)
f16 MIN MIN/-inf -65504.0
f16 MIN MAX 65504.0
f16 MIN 0.0 0.0
f16 MIN 0.0 0.0
f16 MIN nan nan
f16 MIN inf inf
f16 MAX MAX/0.0/-0.0/-inf 65504.0
f16 MAX nan nan
f16 MAX inf inf
f16 0.0 0.0/-0.0/-inf 0.0
f16 0.0 nan nan
f16 0.0 inf inf
f16 -0.0 -0.0/-inf -0.0
f16 -0.0 nan nan
f16 -0.0 inf inf
f16 nan nan/inf/-inf nan
f16 inf inf/-inf inf
f16 -inf -inf -inf
f32 MIN MIN/-inf -3.40282E+38
f32 MIN MAX 3.40282E+38
f32 MIN 0.0 0.0
f32 MIN 0.0 0.0
f32 MIN nan nan
f32 MIN inf inf
f32 MAX MAX/0.0/-0.0/-inf 3.40282E+38
f32 MAX nan nan
f32 MAX inf inf
f32 0.0 0.0/-0.0/-inf 0.0
f32 0.0 nan nan
f32 0.0 inf inf
f32 -0.0 -0.0/-inf -0.0
f32 -0.0 nan nan
f32 -0.0 inf inf
f32 nan nan/inf/-inf nan
f32 inf inf/-inf inf
f32 -inf -inf -inf
s16 MIN MIN -32768
s16 MIN MAX 32767
s16 MAX MAX 32767
s32 MIN MIN -2147483648
s32 MIN MAX 2147483647
s32 MAX MAX 2147483647
== vmins (table 23)
f16 MIN MIN/MAX/0.0/-0.0/inf -65504.0
f16 MIN nan nan
f16 MIN -inf -inf
f16 MAX MAX/inf 65504.0
f16 MAX 0.0 0.0
f16 MAX 0.0 0.0
f16 MAX nan nan
f16 MAX -inf -inf
f16 0.0 0.0/inf 0.0
f16 0.0 0.0 0.0
f16 0.0 nan nan
f16 0.0 -inf -inf
f16 -0.0 -0.0/inf -0.0
f16 -0.0 nan nan
f16 -0.0 -inf -inf
f16 nan nan/inf/-inf nan
f16 inf inf inf
f16 inf -inf -inf
f16 -inf -inf -inf
f32 MIN MIN/MAX/0.0/-0.0/inf -3.40282E+38
f32 MIN nan nan
f32 MIN -inf -inf
f32 MAX MAX/inf 3.4e+38
f32 MAX 0.0 0.0
f32 MAX 0.0 0.0
f32 MAX nan nan
f32 MAX -inf -inf
f32 0.0 0.0/inf 0.0
f32 0.0 0.0 0.0
f32 0.0 nan nan
f32 0.0 -inf -inf
f32 -0.0 -0.0/inf -0.0
f32 -0.0 nan nan
f32 -0.0 -inf -inf
f32 nan nan/inf/-inf nan
f32 inf inf inf
f32 inf -inf -inf
f32 -inf -inf -inf
s16 MIN MIN/MAX -32768
s16 MAX MAX 32767
s32 MIN MIN/MAX -2147483648
s32 MAX MAX 2147483647
== vcmp (table 31)
f16 eq MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/0
f16 eq MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/0/0
f16 eq +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f16 eq -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f16 eq nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 eq +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f16 eq -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f16 ge MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f16 ge MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f16 ge +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f16 ge -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f16 ge nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 ge +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f16 ge -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f16 gt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f16 gt MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f16 gt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f16 gt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f16 gt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 gt +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f16 gt -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 le MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f16 le MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f16 le +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f16 le -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f16 le nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 le +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f16 le -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f16 lt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f16 lt MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f16 lt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f16 lt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f16 lt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 lt +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 lt -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f16 ne MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/1/1/1
f16 ne MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/1/1/1
f16 ne +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f16 ne -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f16 ne nan MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/1
f16 ne +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/0/1
f16 ne -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/0
f32 eq MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/0
f32 eq MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/0/0
f32 eq +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f32 eq -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f32 eq nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 eq +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f32 eq -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f32 ge MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f32 ge MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f32 ge +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f32 ge -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f32 ge nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 ge +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f32 ge -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f32 gt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f32 gt MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f32 gt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f32 gt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f32 gt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 gt +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f32 gt -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 le MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f32 le MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f32 le +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f32 le -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f32 le nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 le +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f32 le -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f32 lt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f32 lt MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f32 lt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f32 lt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f32 lt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 lt +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 lt -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f32 ne MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/1/1/1
f32 ne MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/1/1/1
f32 ne +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f32 ne -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f32 ne nan MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/1
f32 ne +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/0/1
f32 ne -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/0
s32 eq MIN MIN/MAX 1/0
s32 eq MAX MIN/MAX 0/1
== vcmps (table 32)
f16 eq MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/0
f16 eq MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/0/0
f16 eq +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f16 eq -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f16 eq nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 eq +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f16 eq -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f16 ge MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f16 ge MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f16 ge +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f16 ge -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f16 ge nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 ge +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f16 ge -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f16 gt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f16 gt MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f16 gt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f16 gt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f16 gt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 gt +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f16 gt -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 le MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f16 le MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f16 le +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f16 le -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f16 le nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 le +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f16 le -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f16 lt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f16 lt MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f16 lt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f16 lt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f16 lt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 lt +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f16 lt -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f16 ne MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/1/1/1
f16 ne MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/1/1/1
f16 ne +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f16 ne -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f16 ne nan MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/1
f16 ne +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/0/1
f16 ne -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/0
f32 eq MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/0
f32 eq MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/0/0
f32 eq +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f32 eq -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/0/1/1/0/0/0
f32 eq nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 eq +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f32 eq -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f32 ge MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f32 ge MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f32 ge +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f32 ge -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f32 ge nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 ge +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f32 ge -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f32 gt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/1
f32 gt MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/0/0/1
f32 gt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f32 gt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/0/0/0/0/0/1
f32 gt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 gt +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/0/1
f32 gt -inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 le MIN MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f32 le MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f32 le +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f32 le -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f32 le nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 le +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f32 le -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/1
f32 lt MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/0/1/0
f32 lt MAX MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/1/0
f32 lt +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f32 lt -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 0/1/0/0/0/1/0
f32 lt nan MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 lt +inf MIN/MAX/+0/-0/nan/+inf/-inf 0/0/0/0/0/0/0
f32 lt -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/0/1/0
f32 ne MIN MIN/MAX/+0/-0/nan/+inf/-inf 0/1/1/1/1/1/1
f32 ne MAX MIN/MAX/+0/-0/nan/+inf/-inf 1/0/1/1/1/1/1
f32 ne +0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f32 ne -0.0 MIN/MAX/+0/-0/nan/+inf/-inf 1/1/0/0/1/1/1
f32 ne nan MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/1
f32 ne +inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/0/1
f32 ne -inf MIN/MAX/+0/-0/nan/+inf/-inf 1/1/1/1/1/1/0
s32 eq MIN MIN/MAX 1/0
s32 eq MAX MIN/MAX 0/1
== vln (table 2)
f16 MIN nan
f16 MAX 11.094
f16 0.0 -inf
f16 -0.0 -inf
f16 nan nan
f16 inf inf
f16 -inf nan
f32 MIN nan
f32 MAX 88.723
f32 0.0 -inf
f32 -0.0 -inf
f32 nan nan
f32 inf inf
f32 -inf nan
== vlog2 (table 4)
f16 MIN nan
f16 MAX 16
f16 0.0 -inf
f16 -0.0 -inf
f16 nan nan
f16 inf inf
f16 -inf nan
f32 MIN nan
f32 MAX 128
f32 0.0 -inf
f32 -0.0 -inf
f32 nan nan
f32 inf inf
f32 -inf nan
== vlog10 (table 5)
f16 MIN nan
f16 MAX 4.8164
f16 0.0 -inf
f16 -0.0 -inf
f16 nan nan
f16 inf inf
f16 -inf nan
f32 MIN nan
f32 MAX 38.5318
f32 0.0 -inf
f32 -0.0 -inf
f32 nan nan
f32 inf inf
f32 -inf nan
== vaxpy (table 25)
f16 +0/+0,-0/-0,+0/MAX,-0/MIN +0.0 +0
f16 +0/+0,-0/-0,+0/MAX,-0/MIN -0.0 +0.0
f16 +0/+0,-0/-0,+0/MAX,-0/MIN +inf +inf
f16 +0/+0,-0/-0,+0/MAX,-0/MIN -inf -inf
f16 +0/+0,-0/-0,+0/MAX,-0/MIN MAX MAX
f16 +0/+0,-0/-0,+0/MAX,-0/MIN MIN MIN
f16 +0/+0,-0/-0,+0/MAX,-0/MIN nan nan
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 +0.0 +0
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 -0.0 -0.0
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 +inf +inf
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 -inf -inf
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 MAX MAX
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 MIN MIN
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 nan nan
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf +0.0 +inf
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf -0.0 +inf
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf +inf +inf
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf -inf nan
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf MAX +inf
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf MIN +inf
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf nan nan
f16 MAX/MAX,MIN/MIN +0.0 +inf
f16 MAX/MAX,MIN/MIN -0.0 +inf
f16 MAX/MAX,MIN/MIN +inf +inf
f16 MAX/MAX,MIN/MIN -inf -inf
f16 MAX/MAX,MIN/MIN MAX +inf
f16 MAX/MAX,MIN/MIN MIN +inf
f16 MAX/MAX,MIN/MIN nan nan
f16 MAX/MIN,MIN/MAX +0.0 -inf
f16 MAX/MIN,MIN/MAX -0.0 -inf
f16 MAX/MIN,MIN/MAX +inf +inf
f16 MAX/MIN,MIN/MAX -inf -inf
f16 MAX/MIN,MIN/MAX MAX -inf
f16 MAX/MIN,MIN/MAX MIN -inf
f16 MAX/MIN,MIN/MAX nan nan
f16 MAX/-inf,MIN/+inf,+inf/-inf +0.0 -inf
f16 MAX/-inf,MIN/+inf,+inf/-inf -0.0 -inf
f16 MAX/-inf,MIN/+inf,+inf/-inf +inf nan
f16 MAX/-inf,MIN/+inf,+inf/-inf -inf -inf
f16 MAX/-inf,MIN/+inf,+inf/-inf MAX -inf
f16 MAX/-inf,MIN/+inf,+inf/-inf MIN -inf
f16 MAX/-inf,MIN/+inf,+inf/-inf nan nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan +0.0 nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan -0.0 nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan +inf nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan -inf nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan MAX nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan MIN nan
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan nan nan
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 +0.0 +0
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 -0.0 +0.0
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 +inf +inf
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 -inf -inf
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 MAX MAX
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 MIN MIN
f32 -0/MIN,+0/+0,+0/MAX,-0/-0 nan nan
f32 -0/MAX,+0/-0,+0/MIN +0.0 +0
f32 -0/MAX,+0/-0,+0/MIN -0.0 -0.0
f32 -0/MAX,+0/-0,+0/MIN +inf +inf
f32 -0/MAX,+0/-0,+0/MIN -inf -inf
f32 -0/MAX,+0/-0,+0/MIN MAX MAX
f32 -0/MAX,+0/-0,+0/MIN MIN MIN
f32 -0/MAX,+0/-0,+0/MIN nan nan
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf +0.0 +inf
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf -0.0 +inf
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf +inf +inf
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf -inf nan
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf MAX +inf
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf MIN +inf
f32 +inf/+inf,+inf/MAX,-inf/MIN,-inf/-inf nan nan
f32 +inf/-inf,+inf/MIN,-inf/MAX +0.0 -inf
f32 +inf/-inf,+inf/MIN,-inf/MAX -0.0 -inf
f32 +inf/-inf,+inf/MIN,-inf/MAX +inf nan
f32 +inf/-inf,+inf/MIN,-inf/MAX -inf -inf
f32 +inf/-inf,+inf/MIN,-inf/MAX MAX -inf
f32 +inf/-inf,+inf/MIN,-inf/MAX MIN -inf
f32 +inf/-inf,+inf/MIN,-inf/MAX nan nan
f32 MAX/MAX,MIN/MIN +0.0 +inf
f32 MAX/MAX,MIN/MIN -0.0 +inf
f32 MAX/MAX,MIN/MIN +inf +inf
f32 MAX/MAX,MIN/MIN -inf -inf
f32 MAX/MAX,MIN/MIN MAX +inf
f32 MAX/MAX,MIN/MIN MIN +inf
f32 MAX/MAX,MIN/MIN nan nan
f32 MAX/MIN +0.0 -inf
f32 MAX/MIN -0.0 -inf
f32 MAX/MIN +inf +inf
f32 MAX/MIN -inf -inf
f32 MAX/MIN MAX -inf
f32 MAX/MIN MIN -inf
f32 MAX/MIN nan nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf +0.0 nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf -0.0 nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf +inf nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf -inf nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf MAX nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf MIN nan
f32 nan/ANY,+0/+inf,+0/-inf,-0/+inf,-0/-inf nan nan
== vmadd (table 28)
f32 +0/+0,-0/+0 +0/-0/MAX/MIN +0.0
f32 +0/+0,-0/+0 nan/+inf/-inf nan
f32 +0/-0 +0/MAX +0.0
f32 +0/-0 -0/MIN -0.0
f32 +0/-0 nan/+inf/-inf nan
f32 -0/-0 +0/MAX -0.0
f32 -0/-0 -0/MIN +0.0
f32 -0/-0 nan/+inf/-inf nan
f32 -0/MAX,+0/MAX +0/-0/MAX/MIN MAX
f32 -0/MAX,+0/MAX nan/+inf/-inf nan
f32 -0/MIN,+0/MIN +0/-0/MAX/MIN MIN
f32 -0/MIN,+0/MIN nan/+inf/-inf nan
f32 +0/inf,-0/inf +0/-0/MAX/MIN inf
f32 +0/inf,-0/inf nan/+inf/-inf nan
f32 +0/-inf,-0/-inf +0/-0/MAX/MIN -inf
f32 +0/-inf,-0/-inf nan/+inf/-inf nan
f32 MAX/+inf +0/-0/MAX/MIN/+inf inf
f32 MAX/+inf -inf/nan nan
f32 MIN/+inf +0/-0/MAX/MIN/-inf inf
f32 MIN/+inf +inf/nan nan
f32 MAX/-inf +0/-0/MAX/MIN/-inf -inf
f32 MAX/-inf +inf/nan nan
f32 MIN/-inf +0/-0/MAX/MIN/+inf -inf
f32 MIN/-inf -inf/nan nan
f32 MAX/+0 MAX/+inf inf
f32 MAX/+0 +0/-0 +0.0
f32 MAX/+0 MIN/-inf -inf
f32 MAX/+0 nan nan
f32 MIN/+0 MAX/+inf -inf
f32 MIN/+0 +0/-0 +0.0
f32 MIN/+0 MIN/-inf inf
f32 MIN/+0 nan nan
f32 MAX/-0 MAX/+inf inf
f32 MAX/-0 MIN/-inf -inf
f32 MAX/-0 +0.0 +0
f32 MAX/-0 -0.0 -0.0
f32 MAX/-0 nan nan
f32 MIN/-0 MAX/+inf -inf  # the table: inf, against its own MIN/+0 row: a zero addend cannot flip MAX * MIN
f32 MIN/-0 MIN/-inf inf  # the table: -inf, against its MIN/+0 row (MIN * MIN = +inf)
f32 MIN/-0 +0.0 -0.0
f32 MIN/-0 -0.0 +0.0
f32 MIN/-0 nan nan
f32 MAX/MAX MAX/+inf inf
f32 MAX/MAX MIN/-inf -inf
f32 MAX/MAX +0/-0 MAX
f32 MAX/MAX nan nan
f32 MIN/MIN MAX/+inf -inf
f32 MIN/MIN MIN/-inf inf
f32 MIN/MIN +0/-0 MIN  # the table: MAX; 0 * MIN + MIN is MIN (its MAX/MAX row gives MAX)
f32 MIN/MIN nan nan
f32 MAX/MIN MAX/+inf inf
f32 MAX/MIN MIN/-inf -inf
f32 MAX/MIN +0/-0 MIN
f32 MAX/MIN nan nan
f32 MIN/MAX MAX/+inf -inf
f32 MIN/MAX MIN/-inf inf
f32 MIN/MAX +0/-0 MAX
f32 MIN/MAX nan nan
f32 inf/inf MAX/+inf inf
f32 inf/inf MIN/-inf/0/-0/-inf/nan nan
f32 -inf/inf MIN/-inf inf
f32 -inf/inf MAX/+inf/0/-0/-inf/nan nan
f32 inf/-inf MIN/-inf -inf
f32 inf/-inf MAX/+inf/0/-0/-inf/nan nan
f32 -inf/-inf MAX/+inf -inf
f32 -inf/-inf MIN/-inf/0/-0/-inf/nan nan
f32 inf/+0,inf/-0,inf/MAX,inf/MIN MAX/+inf inf
f32 inf/+0,inf/-0,inf/MAX,inf/MIN MIN/-inf -inf
f32 inf/+0,inf/-0,inf/MAX,inf/MIN nan/+0/-0 nan
f32 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN MAX/+inf -inf
f32 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN MIN/-inf inf
f32 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN nan/+0/-0 nan
f32 nan/ANY +0/-0/MAX/MIN/nan/+inf/-inf nan
f16 +0/+0,-0/+0 +0/-0/MAX/MIN +0.0
f16 +0/+0,-0/+0 nan/+inf/-inf nan
f16 +0/-0 +0/MAX +0.0
f16 +0/-0 -0/MIN -0.0
f16 +0/-0 nan/+inf/-inf nan
f16 -0/-0 +0/MAX -0.0
f16 -0/-0 -0/MIN +0.0
f16 -0/-0 nan/+inf/-inf nan
f16 -0/MAX,+0/MAX +0/-0/MAX/MIN MAX
f16 -0/MAX,+0/MAX nan/+inf/-inf nan
f16 -0/MIN,+0/MIN +0/-0/MAX/MIN MIN
f16 -0/MIN,+0/MIN nan/+inf/-inf nan
f16 +0/inf,-0/inf +0/-0/MAX/MIN inf
f16 +0/inf,-0/inf nan/+inf/-inf nan
f16 +0/-inf,-0/-inf +0/-0/MAX/MIN -inf
f16 +0/-inf,-0/-inf nan/+inf/-inf nan
f16 MAX/+inf +0/-0/MAX/MIN/+inf inf
f16 MAX/+inf -inf/nan nan
f16 MIN/+inf +0/-0/MAX/MIN/-inf inf
f16 MIN/+inf +inf/nan nan
f16 MAX/-inf +0/-0/MAX/MIN/-inf -inf
f16 MAX/-inf +inf/nan nan
f16 MIN/-inf +0/-0/MAX/MIN/+inf -inf
f16 MIN/-inf -inf/nan nan
f16 MAX/+0 MAX/+inf inf
f16 MAX/+0 +0/-0 +0.0
f16 MAX/+0 MIN/-inf -inf
f16 MAX/+0 nan nan
f16 MIN/+0 MAX/+inf -inf
f16 MIN/+0 +0/-0 +0.0
f16 MIN/+0 MIN/-inf inf
f16 MIN/+0 nan nan
f16 MAX/-0 MAX/+inf inf
f16 MAX/-0 MIN/-inf -inf
f16 MAX/-0 +0.0 +0
f16 MAX/-0 -0.0 -0.0
f16 MAX/-0 nan nan
f16 MIN/-0 MAX/+inf -inf  # the table: inf, against its own MIN/+0 row: a zero addend cannot flip MAX * MIN
f16 MIN/-0 MIN/-inf inf  # the table: -inf, against its MIN/+0 row (MIN * MIN = +inf)
f16 MIN/-0 +0.0 -0.0
f16 MIN/-0 -0.0 +0.0
f16 MIN/-0 nan nan
f16 MAX/MAX MAX/+inf inf
f16 MAX/MAX MIN/-inf -inf
f16 MAX/MAX +0/-0 MAX
f16 MAX/MAX nan nan
f16 MIN/MIN MAX/+inf -inf
f16 MIN/MIN MIN/-inf inf
f16 MIN/MIN +0/-0 MIN  # the table: MAX; 0 * MIN + MIN is MIN (its MAX/MAX row gives MAX)
f16 MIN/MIN nan nan
f16 MAX/MIN MAX/+inf inf
f16 MAX/MIN MIN/-inf -inf
f16 MAX/MIN +0/-0 MIN
f16 MAX/MIN nan nan
f16 MIN/MAX MAX/+inf -inf
f16 MIN/MAX MIN/-inf inf
f16 MIN/MAX +0/-0 MAX
f16 MIN/MAX nan nan
f16 inf/inf MAX/+inf inf
f16 inf/inf MIN/-inf/0/-0/-inf/nan nan
f16 -inf/inf MIN/-inf inf
f16 -inf/inf MAX/+inf/0/-0/-inf/nan nan
f16 inf/-inf MIN/-inf -inf
f16 inf/-inf MAX/+inf/0/-0/-inf/nan nan
f16 -inf/-inf MAX/+inf -inf
f16 -inf/-inf MIN/-inf/0/-0/-inf/nan nan
f16 inf/+0,inf/-0,inf/MAX,inf/MIN MAX/+inf inf
f16 inf/+0,inf/-0,inf/MAX,inf/MIN MIN/-inf -inf
f16 inf/+0,inf/-0,inf/MAX,inf/MIN nan/+0/-0 nan
f16 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN MAX/+inf -inf
f16 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN MIN/-inf inf
f16 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN nan/+0/-0 nan
f16 nan/ANY +0/-0/MAX/MIN/nan/+inf/-inf nan
== vrelu (table 9)
f16 MIN 0.0
f16 MAX 65504.0
f16 0.0 0.0
f16 -0.0 0.0
f16 nan nan
f16 inf inf
f16 -inf 0.0
f32 MIN 0.0
f32 MAX 3.40282E+38
f32 0.0 0.0
f32 -0.0 0.0
f32 nan nan
f32 inf inf
f32 -inf 0.0
s32 MIN 0
s32 MAX 2147483647
== vprelu (table 10)
f16 MAX MAX/MIN/inf/-inf/0.0/-0.0/nan 65504.0
f16 MIN MAX/inf -inf
f16 MIN MIN/-inf inf
f16 MIN 0.0 -0.0
f16 MIN -0.0 0.0
f16 MIN nan nan
f16 0.0 MAX/MIN/inf/-inf/0.0/-0.0/nan 0.0
f16 -0.0 MAX/0.0 -0.0
f16 -0.0 MIN/-0.0 0.0
f16 -0.0 inf/-inf/nan nan
f16 nan MAX/MIN/inf/-inf/0.0/-0.0/nan nan
f16 inf MAX/MIN/inf/-inf/0.0/-0.0/nan inf
f16 -inf MAX/inf -inf
f16 -inf MIN/-inf inf
f16 -inf 0.0/-0.0/nan nan
f32 MIN MAX/inf -inf
f32 MIN MIN/-inf inf
f32 MIN 0.0 -0.0
f32 MIN -0.0 0.0
f32 MIN nan nan
f32 MAX MAX/MIN/inf/-inf/0.0/-0.0/nan 3.40282E+38
f32 0.0 MAX/MIN/inf/-inf/0.0/-0.0/nan 0.0
f32 -0.0 MAX/0.0 -0.0
f32 -0.0 MIN/-0.0 0.0
f32 -0.0 inf/-inf/nan nan
f32 nan MAX/MIN/inf/-inf/0.0/-0.0/nan nan
f32 inf MAX/MIN/inf/-inf/0.0/-0.0/nan inf
f32 -inf MAX/inf -inf
f32 -inf MIN/-inf inf
f32 -inf 0.0/-0.0/nan nan
== vmla (table 29)
f32 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN MAX MAX
f32 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN MIN MIN
f32 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN nan nan
f32 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN -0/+0 0.0
f32 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN +inf +inf
f32 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN -inf -inf
f32 +0/inf,-0/-inf,+0/-inf,-0/inf,+0/nan,-0/nan +0/MAX/-0/MIN/nan/+inf/-inf nan
f32 MAX/MAX,MIN/MIN +0/MAX/-0/MIN/+inf +inf
f32 MAX/MAX,MIN/MIN -inf -inf
f32 MAX/MAX,MIN/MIN nan nan
f32 MAX/MIN +0/MAX/-0/MIN/-inf -inf
f32 MAX/MIN +inf +inf
f32 MAX/MIN nan nan
f32 MAX/+inf,MIN/-inf +0/-0/MAX/MIN/+inf +inf
f32 MAX/+inf,MIN/-inf -inf/nan nan
f32 MAX/-inf,MIN/+inf +0/-0/MAX/MIN/-inf -inf
f32 MAX/-inf,MIN/+inf +inf/nan nan
f32 +inf/+inf +0/-0/MAX/MIN/+inf +inf
f32 +inf/+inf nan/-inf nan
f32 +inf/-inf +0/-0/MAX/MIN/-inf -inf
f32 +inf/-inf nan/+inf nan
f32 -inf/-inf +0/-0/MAX/MIN/+inf +inf  # the table prints -inf: the product is +inf (docs/semantics.md)
f32 -inf/-inf nan/-inf nan
f32 nan/ANY +0/-0/MAX/MIN/nan/+inf/-inf nan
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN MAX MAX
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN MIN MIN
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN nan nan
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN -0/+0 0.0
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN +inf +inf
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN -inf -inf
f16 +0/inf,-0/-inf,+0/-inf,-0/inf,+0/nan,-0/nan +0/MAX/-0/MIN/nan/+inf/-inf nan
f16 MAX/MAX,MIN/MIN +0/MAX/-0/MIN/+inf +inf
f16 MAX/MAX,MIN/MIN -inf -inf
f16 MAX/MAX,MIN/MIN nan nan
f16 MAX/MIN +0/MAX/-0/MIN/-inf -inf
f16 MAX/MIN +inf +inf
f16 MAX/MIN nan nan
f16 MAX/+inf,MIN/-inf +0/-0/MAX/MIN/+inf +inf
f16 MAX/+inf,MIN/-inf -inf/nan nan
f16 MAX/-inf,MIN/+inf +0/-0/MAX/MIN/-inf -inf
f16 MAX/-inf,MIN/+inf +inf/nan nan
f16 +inf/+inf +0/-0/MAX/MIN/+inf +inf
f16 +inf/+inf nan/-inf nan
f16 +inf/-inf +0/-0/MAX/MIN/-inf -inf
f16 +inf/-inf nan/+inf nan
f16 -inf/-inf +0/-0/MAX/MIN/+inf +inf  # the table prints -inf: the product is +inf (docs/semantics.md)
f16 -inf/-inf nan/-inf nan
f16 nan/ANY +0/-0/MAX/MIN/nan/+inf/-inf nan
== vleakyrelu (table 24)
f16 MIN MIN inf
f16 MIN MAX -inf
f16 MIN 0.0 0.0
f16 MIN 0.0 0.0
f16 MIN nan nan
f16 MIN inf -inf
f16 MIN -inf inf
f16 MAX MIN/MAX/0.0/-0.0/nan/inf/-inf 65504.0
f16 0.0 MIN/MAX/0.0/-0.0/nan/inf/-inf 0.0
f16 -0.0 MIN/-0.0 0.0
f16 -0.0 MAX/0.0 0.0
f16 -0.0 nan/inf/-inf nan
f16 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan
f16 inf MIN/MAX/0.0/-0.0/nan/inf/-inf inf
f16 -inf MIN/-inf inf
f16 -inf MAX/inf -inf
f16 -inf 0.0/-0.0/nan nan
f32 MIN MIN inf
f32 MIN MAX -inf
f32 MIN 0.0 0.0
f32 MIN 0.0 0.0
f32 MIN nan nan
f32 MIN inf -inf
f32 MIN -inf inf
f32 MAX MIN/MAX/0.0/-0.0/nan/inf/-inf 3.4e+38
f32 0.0 MIN/MAX/0.0/-0.0/nan/inf/-inf 0.0
f32 -0.0 MIN/-0.0 0.0
f32 -0.0 MAX/0.0 0.0
f32 -0.0 nan/inf/-inf nan
f32 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan
f32 inf MIN/MAX/0.0/-0.0/nan/inf/-inf inf
f32 -inf MIN/-inf inf
f32 -inf MAX/inf -inf
f32 -inf 0.0/-0.0/nan nan
== vabssub (table 26)
f16 MIN MIN 0.0
f16 MIN MAX inf
f16 MIN 0.0/-0.0 65504.0
f16 MIN nan nan
f16 MIN inf/-inf inf
f16 MAX MAX 0.0
f16 MAX 0.0/-0.0 65504.0
f16 MAX nan nan
f16 MAX -inf/inf inf
f16 0.0 0.0/-0.0 0.0
f16 0.0 nan nan
f16 0.0 inf/-inf inf
f16 -0.0 0.0/-0.0 0.0
f16 -0.0 nan nan
f16 -0.0 inf/-inf inf
f16 nan nan/inf/-inf nan
f16 inf inf nan
f16 inf -inf inf
f16 -inf -inf nan
f32 MIN MIN 0.0
f32 MIN MAX inf
f32 MIN 0.0/-0.0 MAX
f32 MIN nan nan
f32 MIN inf/-inf inf
f32 MAX MAX 0.0
f32 MAX 0.0/-0.0 3.40282E+38
f32 MAX nan nan
f32 MAX -inf/inf inf
f32 0.0 0.0/-0.0 0.0
f32 0.0 nan nan
f32 0.0 inf/-inf inf
f32 -0.0 0.0/-0.0 0.0
f32 -0.0 nan nan
f32 -0.0 inf inf
f32 -0.0 -inf inf  # the table: -inf for |-0.0 - (-inf)| (page-ambiguities 11); an absolute value is never negative
f32 nan nan/inf/-inf nan
f32 inf inf nan
f32 inf -inf inf
f32 -inf -inf nan
== reduce (table 35)
vredmax f16 MIN -65504.0
vredmax f16 MAX 65504.0
vredmax f16 0.0 0.0
vredmax f16 -0.0 -0.0
vredmax f16 nan nan
vredmax f16 inf inf
vredmax f16 -inf -inf
vredmax f32 MIN -3.4028235e+38
vredmax f32 MAX 3.4028235e+38
vredmax f32 0.0 0.0
vredmax f32 -0.0 -0.0
vredmax f32 nan nan
vredmax f32 inf inf
vredmax f32 -inf -inf
vredmin f16 MIN -65504.0
vredmin f16 MAX 65504.0
vredmin f16 0.0 0.0
vredmin f16 -0.0 -0.0
vredmin f16 nan nan
vredmin f16 inf inf
vredmin f16 -inf -inf
vredmin f32 MIN -3.4028235e+38
vredmin f32 MAX 3.4028235e+38
vredmin f32 0.0 0.0
vredmin f32 -0.0 -0.0
vredmin f32 nan nan
vredmin f32 inf inf
vredmin f32 -inf -inf
vredsum f16 MIN -inf
vredsum f16 MAX inf
vredsum f16 0.0 0.0
vredsum f16 -0.0 -0.0
vredsum f16 nan nan
vredsum f16 inf inf
vredsum f16 -inf -inf
vredsum f32 MIN -inf
vredsum f32 MAX inf
vredsum f32 0.0 0.0
vredsum f32 -0.0 -0.0
vredsum f32 nan nan
vredsum f32 inf inf
vredsum f32 -inf -inf
"""

NP = {"f16": np.float16, "f32": np.float32, "s8": np.int8, "s16": np.int16, "s32": np.int32}
UNARY = ("vexp", "vneg", "vabs", "vsqrt", "vln", "vrelu", "vlog2", "vlog10")
BINARY = ("vadd", "vsub", "vmul", "vdiv", "vmax", "vmin", "vprelu", "vabssub")
SCALAR_FORMS = ("vadds", "vmuls", "vmaxs", "vmins", "vleakyrelu")


def sections(tables: str = TABLES) -> dict:
    """{mnemonic: [row fields, ...]} from a table text (comments after # dropped)."""
    out, name = {}, None
    for line in tables.splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("=="):
            name = line.split()[1]
            out[name] = []
        elif line:
            out[name].append(line.split())
    return out


SECTIONS = sections()


def number(t, token) -> float:
    """A table entry as a number of type t (MIN/MAX: the type's extremes)."""
    info = np.finfo(NP[t]) if t.startswith("f") else np.iinfo(NP[t])
    if token in ("MIN", "MAX"):
        return float(info.min if token == "MIN" else info.max) if t.startswith("f") else int(
            info.min if token == "MIN" else info.max)
    if not t.startswith("f"):
        return int(token)
    return float({"+0": "0.0", "-0": "-0.0", "+inf": "inf", "+0.0": "0.0"}.get(token, token))


def bits_of(t, value) -> int:
    dtype = NP[t]
    width = np.dtype(dtype).itemsize
    return int(np.array(value, dtype).view(f"u{width}"))


def literal(t, token) -> str:
    """An assembly immediate for a table entry."""
    value = number(t, token)
    return repr(value) if t.startswith("f") else str(value)


# (mnemonic, type, operand): (the table's value, the correctly rounded value ascasm gives)
NOT_CORRECTLY_ROUNDED = {
    ("vsqrt", "f16", "MAX"): ("256.0", "255.875"),   # sqrt(65504) = 255.93749.., just below the midpoint 255.9375
}


def printed_tolerance(token: str) -> float:
    """Half a unit in the last digit the table prints (3.40282E+38: 5e32)."""
    return float(Decimal(1).scaleb(Decimal(token).as_tuple().exponent)) / 2


def check(t, got_bits, expected, what, grouped=False):
    """One lane against the table's entry; `grouped`: the entry stands for several inputs."""
    width = np.dtype(NP[t]).itemsize
    got = np.array(got_bits, f"u{width}").view(NP[t])[()]
    if not t.startswith("f"):
        assert int(got) == number(t, expected), what
        return
    want = number(t, expected)
    got = float(got)
    if math.isnan(want):
        assert math.isnan(got), what
    elif want == 0:
        positive = expected.startswith("+")
        assert got == 0 and (expected == "0.0" or grouped or math.copysign(1, got) == (1 if positive else -1)), what
    elif expected in ("MIN", "MAX") or math.isinf(want):
        assert got == want, what
    else:
        assert abs(got - want) <= printed_tolerance(expected), what


def lanes(machine, vreg, t):
    return machine.state.vreg[vreg].view(f"u{np.dtype(NP[t]).itemsize}")


def buffer(name, t, values) -> str:
    width = np.dtype(NP[t]).itemsize
    bits = [bits_of(t, v) for v in values]
    return f".ub {name} u{8 * width}[{len(bits)}] = [{', '.join(map(str, bits))}]\n"


def cases(mnemonic, table=None):
    """{type: [(a token, b token or None, expected, grouped), ...]} with alternatives expanded, from a
    section's rows (TABLES' by default)."""
    by_type = defaultdict(list)
    for row in SECTIONS[mnemonic] if table is None else table:
        t, *operands, expected = row
        grouped = any("/" in op for op in operands)
        if len(operands) == 1:
            corrected = NOT_CORRECTLY_ROUNDED.get((mnemonic, t, operands[0]))
            if corrected:
                assert corrected[0] == expected
                expected = corrected[1]
            by_type[t].append((operands[0], None, expected, grouped))
        else:
            by_type[t] += [(a, b, expected, grouped) for a in operands[0].split("/") for b in operands[1].split("/")]
    return by_type


def width_bits(t):
    return 8 * np.dtype(NP[t]).itemsize


def setting(ctrl: int) -> str:
    """The lines that set CTRL first (nothing for its start value 0)."""
    return f"mov s31, {ctrl}\nsprset.ctrl s31\n" if ctrl else ""


@pytest.mark.parametrize("mnemonic,t", [(m, t) for m in UNARY + BINARY for t in cases(m)])
def test_element_wise(engine, mnemonic, t):
    check_element_wise(engine, mnemonic, t, cases(mnemonic)[t])


def check_element_wise(engine, mnemonic, t, rows, ctrl=0):
    a = [number(t, x) for x, _, _, _ in rows]
    b = [number(t, y) if y is not None else 0 for _, y, _, _ in rows]
    operands = f"v0.{t}, v1.{t}" if mnemonic in BINARY else f"v0.{t}"
    m = run_source(buffer("a", t, a) + buffer("b", t, b) + setting(ctrl) + f"""
        mask p0.b{width_bits(t)}, ALL
        vld v0.{t}, [a]
        vld v1.{t}, [b]
        {mnemonic} v2.{t}, {operands}, p0
    """, engine)
    got = lanes(m, 2, t)
    for lane, (x, y, expected, grouped) in enumerate(rows):
        check(t, got[lane], expected, f"{mnemonic}.{t} {x} {y or ''} -> {expected}", grouped)


@pytest.mark.parametrize("mnemonic,t", [(m, t) for m in SCALAR_FORMS for t in cases(m)])
def test_scalar_forms(engine, mnemonic, t):
    check_scalar_forms(engine, mnemonic, t, cases(mnemonic)[t])


def check_scalar_forms(engine, mnemonic, t, rows, ctrl=0):
    scalars = sorted({y for _, y, _, _ in rows})
    a = [number(t, x) for x, _, _, _ in rows]
    body = "".join(f"{mnemonic} v{2 + k}.{t}, v0.{t}, {literal(t, y)}, p0\n" for k, y in enumerate(scalars))
    m = run_source(buffer("a", t, a) + setting(ctrl) + f"mask p0.b{width_bits(t)}, ALL\nvld v0.{t}, [a]\n" + body, engine)
    for lane, (x, y, expected, grouped) in enumerate(rows):
        check(t, lanes(m, 2 + scalars.index(y), t)[lane], expected, f"{mnemonic}.{t} {x} {y} -> {expected}", grouped)


def test_compare_rows(engine):
    for row in SECTIONS["vcmp"]:
        t, cc, a, bs, results = row
        bs, results = bs.split("/"), results.split("/")
        m = run_source(buffer("a", t, [number(t, a)] * len(bs)) + buffer("b", t, [number(t, b) for b in bs]) + f"""
            mask p0.b{width_bits(t)}, ALL
            vld v0.{t}, [a]
            vld v1.{t}, [b]
            vcmp.{cc} p1, v0.{t}, v1.{t}, p0
        """, engine)
        bits = np.unpackbits(m.state.preg[1], bitorder="little")[::width_bits(t) // 8]
        assert bits[:len(bs)].tolist() == [int(r) for r in results], (t, cc, a, bs)


def test_compare_with_scalar_rows(engine):
    for row in SECTIONS["vcmps"]:
        t, cc, a, bs, results = row
        bs, results = bs.split("/"), results.split("/")
        body = "".join(f"vcmps.{cc} p{1 + k}, v0.{t}, {literal(t, b)}, p0\n" for k, b in enumerate(bs))
        m = run_source(buffer("a", t, [number(t, a)]) + f"mask p0.b{width_bits(t)}, VL1\nvld v0.{t}, [a]\n" + body,
                       engine)
        got = [int(np.unpackbits(m.state.preg[1 + k], bitorder="little")[0]) for k in range(len(bs))]
        assert got == [int(r) for r in results], (t, cc, a, bs)


SPECIALS = "MIN/MAX/+0/-0/nan/+inf/-inf"


@pytest.mark.parametrize("mnemonic", ["vaxpy", "vmadd", "vmla"])
def test_fused_multiply_add_rows(engine, mnemonic):
    check_fused_multiply_add(engine, mnemonic, SECTIONS[mnemonic])


def check_fused_multiply_add(engine, mnemonic, table, ctrl=0):
    """One program per row and operand pair: the dst alternatives in the lanes. A dst value a later row
    lists again for the same pair keeps the first row's result (table 28 lists -inf twice for -inf/inf
    and inf/-inf, with opposite results; the first agrees with IEEE)."""
    seen = set()
    for t, pairs, dsts, expected in table:
        for pair in pairs.replace("ANY", SPECIALS).split(","):
            first, *rest = pair.split("/")
            seconds = rest                                       # `nan/ANY`: every special second
            for second in seconds:
                dst_values = [d for d in dsts.split("/") if (t, first, second, repr(number(t, d))) not in seen]
                seen.update((t, first, second, repr(number(t, d))) for d in dst_values)
                if not dst_values:
                    continue
                source = buffer("d", t, [number(t, v) for v in dst_values]) + setting(ctrl) + f"""
                    mask p0.b{width_bits(t)}, ALL
                    vld v0.{t}, [d]
                """
                if mnemonic == "vaxpy":             # dst = src * value + dst
                    source += f"vdup v1.{t}, {literal(t, first)}\nvaxpy v0.{t}, v1.{t}, {literal(t, second)}, p0\n"
                else:                               # vmadd: dst = dst * src0 + src1; vmla: src0 * src1 + dst
                    source += (f"vdup v1.{t}, {literal(t, first)}\nvdup v2.{t}, {literal(t, second)}\n"
                               f"{mnemonic} v0.{t}, v1.{t}, v2.{t}, p0\n")
                got = lanes(run_source(source, engine), 0, t)
                for lane, d in enumerate(dst_values):
                    check(t, got[lane], expected, f"{mnemonic}.{t} {first}/{second} dst {d} -> {expected}")


def test_pair_sum_rows(engine):
    check_pair_sums(engine, [row for row in SECTIONS["reduce"] if row[0] == "vredsum"])


def check_pair_sums(engine, table, ctrl=0):
    """Table 37 (PairReduceElem): every lane `value`, so every pair sum is value + value."""
    for _, t, value, expected in table:
        count = 256 // np.dtype(NP[t]).itemsize
        m = run_source(buffer("a", t, [number(t, value)] * count) + setting(ctrl) + f"""
            mask p0.b{width_bits(t)}, ALL
            vld v0.{t}, [a]
            vpairsum v2.{t}, v0.{t}, p0
        """, engine)
        for lane in range(count // 2):
            check(t, lanes(m, 2, t)[lane], expected, f"vpairsum.{t} every lane {value} -> {expected}")
        assert not lanes(m, 2, t)[count // 2:].any()


def test_reduce_rows(engine):
    check_reductions(engine, SECTIONS["reduce"])


def check_reductions(engine, table, ctrl=0):
    for mnemonic, t, value, expected in table:
        sum_form = mnemonic == "vredsum"
        count = 256 // np.dtype(NP[t]).itemsize
        m = run_source(buffer("a", t, [number(t, value)] * count) + setting(ctrl) + f"""
            mask p0.b{width_bits(t)}, ALL
            vld v0.{t}, [a]
            {mnemonic} v2.{t}, v0.{t}, p0
        """, engine)
        check(t, lanes(m, 2, t)[0], expected, f"{mnemonic}.{t} every lane {value} -> {expected}")
        assert sum_form or lanes(m, 2, t)[1] == 0                     # the first lane holds it


def test_reduce_datablock_rows(engine):
    check_block_reductions(engine, SECTIONS["reduce"])


def check_block_reductions(engine, table, ctrl=0):
    """Table 36 (ReduceDataBlock) repeats table 35's rows: every block of every-lane-`value` gives them."""
    for mnemonic, t, value, expected in table:
        count = 256 // np.dtype(NP[t]).itemsize
        m = run_source(buffer("a", t, [number(t, value)] * count) + setting(ctrl) + f"""
            mask p0.b{width_bits(t)}, ALL
            vld v0.{t}, [a]
            {mnemonic}.blk v2.{t}, v0.{t}, p0
        """, engine)
        for block in range(8):
            check(t, lanes(m, 2, t)[block], expected, f"{mnemonic}.blk.{t} every lane {value} -> {expected}")


# Arange (table 38): vci from the scalar; each row as the lanes the table lists.
def arange_rows():
    f16_min = [-65504.0] * 16 + [-65472.0] * 32 + [-65440.0] * 32 + [-65408.0] * 32 + [-65376.0] * 16
    return [
        ("f16", "inf", [math.inf] * 128), ("f16", "-inf", [-math.inf] * 128),
        ("f16", "0.0", list(range(128))), ("f16", "-0.0", list(range(128))),
        ("f16", "nan", [math.nan] * 128), ("f16", "65504.0", [65504.0] * 16 + [math.inf] * 112),
        ("f16", "-65504.0", f16_min),
        ("f32", "inf", [math.inf] * 64), ("f32", "-inf", [-math.inf] * 64),
        ("f32", "0.0", list(range(64))), ("f32", "-0.0", list(range(64))), ("f32", "nan", [math.nan] * 64),
        ("f32", "3.4028234663852886e+38", [float(np.finfo(np.float32).max)] * 64),
        ("f32", "-3.4028234663852886e+38", [float(np.finfo(np.float32).min)] * 64),
        ("s8", "127", [127] + list(range(-128, 127))), ("s8", "-128", list(range(-128, 128))),
        ("s16", "32767", [32767] + list(range(-32768, -32641))), ("s16", "-32768", list(range(-32768, -32640))),
        ("s32", "-2147483648", list(range(-2147483648, -2147483584))),
        ("s32", "2147483647", [2147483647] + list(range(-2147483648, -2147483585))),
    ]


@pytest.mark.parametrize("t,start,expected", arange_rows())
def test_arange_rows(engine, t, start, expected):
    check_arange(engine, t, start, expected)


def check_arange(engine, t, start, expected, ctrl=0):
    m = run_source(setting(ctrl) + f"vci v0.{t}, {start}\n", engine)
    got = np.array(lanes(m, 0, t)).view(NP[t]).astype(np.float64 if t.startswith("f") else np.int64)
    assert len(expected) == len(got)
    for lane, (g, e) in enumerate(zip(got.tolist(), expected)):
        assert (math.isnan(g) and math.isnan(e)) or g == e, (t, start, lane, g, e)
