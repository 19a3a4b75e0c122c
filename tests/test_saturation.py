"""The saturation mode of compute instructions: the boundary-values appendix's rows for the half, int16
and int32 types, both columns (INF/NAN mode, saturation mode), typed in, run on both executors with CTRL at
its start value 0 (the INF/NAN column) and with the global saturation mode (CTRL[60] = 1, CTRL[48] = 0,
CTRL[59] = 0: the saturation column); the float rows of tests/test_boundary_values.py must be unaffected
(the appendix: "float input supports only the INF/NAN mode"). docs/semantics.md "The CTRL register".

The rows are read as tests/test_boundary_values.py reads them (its harnesses run them): `MIN`/`MAX` the
type's extremes, `a/b/c` one row per value, `0.0` a zero of either sign where IEEE gives -0, `+0`/`+0.0` a
zero that must be +0, `ANY` every special value. 582 rows: vexp, vln, vlog2, vlog10, vneg, vabs, vsqrt, vrelu, vprelu,
vadd, vadds, vsub, vmul, vdiv, vmax, vmin, vmuls, vmaxs, vmins, vleakyrelu, vaxpy, vabssub, vmadd, vmla
(MulAddDst's half rows), vexpsub (ExpSub: a float result, both columns alike), the reductions and vpairsum; Arange's seven half rows are lane lists (ARANGE). The table's misprints are
corrected as there, with the table's values in a comment, and sqrt(65504) in half is checked as correctly
rounded (NOT_CORRECTLY_ROUNDED).
"""
from __future__ import annotations

import math

import pytest
import test_boundary_values as bv
from conftest import run_source

from ascasm.state import CTRL_FLOAT_NO_SAT, CTRL_GLOBAL_SAT

SATURATING = 1 << CTRL_GLOBAL_SAT                 # the pages' SetCtrlSpr: global, bits 48 and 59 clear
NOT_SATURATING = SATURATING | 1 << CTRL_FLOAT_NO_SAT   # global INF/NAN mode for float results
INF_NAN_COLUMN, SATURATION_COLUMN = -2, -1
MODES = [(0, INF_NAN_COLUMN), (SATURATING, SATURATION_COLUMN)]

# section: `== MNEMONIC (table N)`, then rows: type, operands..., INF/NAN column, saturation column
TABLES = """
== vexp (table 1)
f16 MIN 0.0 0.0
f16 MAX inf 65504.0
f16 0.0 1.0 1.0
f16 -0.0 1.0 1.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf 0.0 0.0
== vln (table 2)
f16 MIN nan 0.0
f16 MAX 11.094 11.094
f16 0.0 -inf -65504.0
f16 -0.0 -inf -65504.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf nan 0.0
== vlog2 (table 4)
f16 MIN nan 0.0
f16 MAX 16 16
f16 0.0 -inf -65504.0
f16 -0.0 -inf -65504.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf nan 0.0
== vlog10 (table 5)
f16 MIN nan 0.0
f16 MAX 4.8164 4.8164
f16 0.0 -inf -65504.0
f16 -0.0 -inf -65504.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf nan 0.0
== vneg (table 6)
f16 MIN MAX MAX
f16 MAX MIN MIN
f16 0.0 -0.0 -0.0
f16 -0.0 0.0 0.0
f16 nan nan 0.0
f16 inf -inf MIN
f16 -inf inf MAX
== vabs (table 7)
f16 MIN 65504.0 65504.0
f16 MAX 65504.0 65504.0
f16 0.0 0.0 0.0
f16 -0.0 0.0 0.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf inf 65504.0
== vsqrt (table 8)
f16 MIN nan 0.0
f16 MAX 256.0 256.0
f16 0.0 0.0 0.0
f16 -0.0 -0.0 -0.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf nan 0.0
== vrelu (table 9)
f16 MIN 0.0 0.0
f16 MAX 65504.0 65504.0
f16 0.0 0.0 0.0
f16 -0.0 0.0 0.0
f16 nan nan 0.0
f16 inf inf 65504.0
f16 -inf 0.0 0.0
s32 MIN 0 0
s32 MAX 2147483647 2147483647
== vprelu (table 10)
f16 MAX MAX/MIN/inf/-inf/0.0/-0.0/nan 65504.0 65504.0
f16 MIN MAX/inf -inf -65504.0
f16 MIN MIN/-inf inf 65504.0
f16 MIN 0.0 -0.0 -0.0
f16 MIN -0.0 0.0 0.0
f16 MIN nan nan 0.0
f16 0.0 MAX/MIN/inf/-inf/0.0/-0.0/nan 0.0 0.0
f16 -0.0 MAX/0.0 -0.0 -0.0
f16 -0.0 MIN/-0.0 0.0 0.0
f16 -0.0 inf/-inf/nan nan 0.0
f16 nan MAX/MIN/inf/-inf/0.0/-0.0/nan nan 0.0
f16 inf MAX/MIN/inf/-inf/0.0/-0.0/nan inf 65504.0
f16 -inf MAX/inf -inf -65504.0
f16 -inf MIN/-inf inf 65504.0
f16 -inf 0.0/-0.0/nan nan 0.0
== vadd (table 11)
f16 MIN MIN/-inf -inf -65504.0
f16 MIN MAX 0.0 0.0
f16 MIN 0.0/-0.0 -65504.0 -65504.0
f16 MIN nan nan 0.0
f16 MIN inf inf 65504.0
f16 MAX MAX/inf inf 65504.0
f16 MAX 0.0/-0.0 65504.0 65504.0
f16 MAX nan nan 0.0
f16 MAX -inf -inf -65504.0
f16 0.0 0.0/-0.0 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 inf inf 65504.0
f16 0.0 -inf -inf -65504.0
f16 -0.0 -0.0 -0.0 -0.0
f16 -0.0 nan nan 0.0
f16 -0.0 inf inf 65504.0
f16 -0.0 -inf -inf -65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf inf 65504.0
f16 inf -inf nan 0.0
f16 -inf -inf -inf -65504.0
s16 MIN MIN 0 -32768
s16 MIN MAX -1 -1
s16 MAX MAX -2 32767
s32 MIN MIN 0 -2147483648
s32 MIN MAX -1 -1
s32 MAX MAX -2 2147483647
== vadds (table 12)
f16 MIN MIN/-inf -inf -65504.0
f16 MIN MAX 0.0 0.0
f16 MIN 0.0/-0.0 -65504.0 -65504.0
f16 MIN nan nan 0.0
f16 MIN inf inf 65504.0
f16 MAX MAX/inf inf 65504.0
f16 MAX 0.0/-0.0 65504.0 65504.0
f16 MAX nan nan 0.0
f16 MAX -inf -inf -65504.0
f16 0.0 0.0/-0.0 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 inf inf 65504.0
f16 0.0 -inf -inf -65504.0
f16 -0.0 -0.0 -0.0 -0.0
f16 -0.0 nan nan 0.0
f16 -0.0 inf inf 65504.0
f16 -0.0 -inf -inf -65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf inf 65504.0
f16 inf -inf nan 0.0
f16 -inf -inf -inf -65504.0
s16 MIN MIN 0 -32768
s16 MIN MAX -1 -1
s16 MAX MAX -2 32767
s32 MIN MIN 0 -2147483648
s32 MIN MAX -1 -1
s32 MAX MAX -2 2147483647
== vsub (table 14)
f16 MIN MIN 0.0 0.0
f16 MIN MAX -inf -65504.0
f16 MIN 0.0/-0.0 -65504.0 -65504.0
f16 MIN nan nan 0.0
f16 MIN inf -inf -65504.0
f16 MIN -inf inf 65504.0
f16 MAX MIN inf 65504.0
f16 MAX MAX 0.0 0.0
f16 MAX 0.0/-0.0 65504.0 65504.0
f16 MAX nan nan 0.0
f16 MAX inf -inf -65504.0
f16 MAX -inf inf 65504.0
f16 0.0/-0.0 MIN 65504.0 65504.0
f16 0.0/-0.0 MAX -65504.0 -65504.0
f16 0.0/-0.0 nan nan 0.0
f16 0.0/-0.0 inf -inf -65504.0
f16 0.0/-0.0 -inf inf 65504.0
f16 0.0 -0.0/0.0 0.0 0.0
f16 -0.0 -0.0/0.0 -0.0 -0.0
f16 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan 0.0
f16 inf MIN/MAX/0.0/-0.0/-inf inf 65504.0
f16 inf nan/inf nan 0.0
f16 -inf MIN/MAX/0.0/-0.0/inf -inf -65504.0
f16 -inf nan/-inf nan 0.0
s16 MIN MIN 0 0
s16 MIN MAX 1 -32768
s16 MAX MIN -1 32767
s16 MAX MAX 0 0
s32 MIN MIN 0 0
s32 MIN MAX 1 -2147483648
s32 MAX MIN -1 2147483647
s32 MAX MAX 0 0
== vmul (table 16)
f16 MIN MIN inf 65504.0
f16 MIN MAX -inf -65504.0
f16 MIN 0.0 -0.0 -0.0
f16 MIN -0.0 0.0 0.0
f16 MIN nan nan 0.0
f16 MIN inf -inf -65504.0
f16 MIN -inf inf 65504.0
f16 MAX MAX inf 65504.0
f16 MAX 0.0 0.0 0.0
f16 MAX -0.0 -0.0 -0.0
f16 MAX nan nan 0.0
f16 MAX inf inf 65504.0
f16 MAX -inf -inf -65504.0
f16 0.0 0.0 0.0 0.0
f16 0.0 -0.0 -0.0 -0.0
f16 0.0 nan/inf/-inf nan 0.0
f16 -0.0 -0.0 0.0 0.0
f16 -0.0 nan/inf/-inf nan 0.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf inf 65504.0
f16 inf -inf -inf -65504.0
f16 -inf -inf inf 65504.0
s16 MIN MIN 0 32767
s16 MIN MAX -32768 -32768
s16 MAX MAX 1 32767
s32 MIN MIN 0 2147483647
s32 MIN MAX -2147483648 -2147483648
s32 MAX MAX 1 2147483647
== vdiv (table 18)
f16 MIN MIN 1 1
f16 MIN MAX -1 -1
f16 MIN 0.0 -inf -65504.0
f16 MIN -0.0 inf 65504.0  # printed "0.0": a lost -0.0
f16 MIN nan nan 0.0
f16 MIN inf 0.0 0.0
f16 MIN -inf 0.0 0.0
f16 MAX MIN -1 -1
f16 MAX MAX 1 1
f16 MAX 0.0 inf 65504.0
f16 MAX -0.0 -inf -65504.0  # printed "0.0": a lost -0.0
f16 MAX nan nan 0.0
f16 MAX inf 0.0 0.0
f16 MAX -inf 0.0 0.0
f16 0.0 MIN/-inf 0.0 0.0
f16 0.0 MAX/inf 0.0 0.0
f16 0.0 0.0/-0.0/nan nan 0.0
f16 -0.0 MIN/-inf 0.0 0.0
f16 -0.0 MAX/inf 0.0 0.0
f16 -0.0 0.0/-0.0/nan nan 0.0
f16 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan 0.0
f16 inf MIN/-0.0 -inf -65504.0
f16 inf MAX/0.0 inf 65504.0
f16 inf nan/inf/-inf nan 0.0
f16 -inf MIN/-0.0 inf 65504.0
f16 -inf MAX/0.0 -inf -65504.0
f16 -inf nan/inf/-inf nan 0.0
== vmax (table 19)
f16 MIN MIN/-inf -65504.0 -65504.0
f16 MIN MAX 65504.0 65504.0
f16 MIN 0.0 0.0 0.0
f16 MIN 0.0 0.0 0.0
f16 MIN nan nan 0.0
f16 MIN inf inf 65504.0
f16 MAX MAX/0.0/-0.0/-inf 65504.0 65504.0
f16 MAX nan nan 0.0
f16 MAX inf inf 65504.0
f16 0.0 0.0/-0.0/-inf 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 inf inf 65504.0
f16 -0.0 -0.0/-inf -0.0 -0.0
f16 -0.0 nan nan 0.0
f16 -0.0 inf inf 65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf/-inf inf 65504.0
f16 -inf -inf -inf -65504.0
s16 MIN MIN -32768 -32768
s16 MIN MAX 32767 32767
s16 MAX MAX 32767 32767
s32 MIN MIN -2147483648 -2147483648
s32 MIN MAX 2147483647 2147483647
s32 MAX MAX 2147483647 2147483647
== vmin (table 20)
f16 MIN MIN/MAX/0.0/-0.0/inf -65504.0 -65504.0
f16 MIN nan nan 0.0
f16 MIN -inf -inf -65504.0
f16 MAX MAX/inf 65504.0 65504.0
f16 MAX 0.0 0.0 0.0
f16 MAX 0.0 0.0 0.0
f16 MAX nan nan 0.0
f16 MAX -inf -inf -65504.0
f16 0.0 0.0/inf 0.0 0.0
f16 0.0 0.0 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 -inf -inf -65504.0
f16 -0.0 -0.0/inf -0.0 -0.0
f16 -0.0 nan nan 0.0
f16 -0.0 -inf -inf -65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf inf 65504.0
f16 inf -inf -inf -65504.0
f16 -inf -inf -inf -65504.0
s16 MIN MIN/MAX -32768 -32768
s16 MAX MAX 32767 32767
s32 MIN MIN/MAX -2147483648 -2147483648
s32 MAX MAX 2147483647 2147483647
== vmuls (table 21)
f16 MIN MIN inf 65504.0
f16 MIN MAX -inf -65504.0
f16 MIN 0.0 -0.0 -0.0
f16 MIN -0.0 0.0 0.0
f16 MIN nan nan 0.0
f16 MIN inf -inf -65504.0
f16 MIN -inf inf 65504.0
f16 MAX MAX inf 65504.0
f16 MAX 0.0 0.0 0.0
f16 MAX -0.0 -0.0 -0.0
f16 MAX nan nan 0.0
f16 MAX inf inf 65504.0
f16 MAX -inf -inf -65504.0
f16 0.0 0.0 0.0 0.0
f16 0.0 -0.0 -0.0 -0.0
f16 0.0 nan/inf/-inf nan 0.0
f16 -0.0 -0.0 0.0 0.0
f16 -0.0 nan/inf/-inf nan 0.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf inf 65504.0
f16 inf -inf -inf -65504.0
f16 -inf -inf inf 65504.0
s16 MIN MIN 0 32767
s16 MIN MAX -32768 -32768
s16 MAX MAX 1 32767
s32 MIN MIN 0 2147483647
s32 MIN MAX -2147483648 -2147483648
s32 MAX MAX 1 2147483647
== vmaxs (table 22)
f16 MIN MIN/-inf -65504.0 -65504.0
f16 MIN MAX 65504.0 65504.0
f16 MIN 0.0 0.0 0.0
f16 MIN 0.0 0.0 0.0
f16 MIN nan nan 0.0
f16 MIN inf inf 65504.0
f16 MAX MAX/0.0/-0.0/-inf 65504.0 65504.0
f16 MAX nan nan 0.0
f16 MAX inf inf 65504.0
f16 0.0 0.0/-0.0/-inf 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 inf inf 65504.0
f16 -0.0 -0.0/-inf -0.0 -0.0
f16 -0.0 nan nan 0.0
f16 -0.0 inf inf 65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf/-inf inf 65504.0
f16 -inf -inf -inf -65504.0
s16 MIN MIN -32768 -32768
s16 MIN MAX 32767 32767
s16 MAX MAX 32767 32767
s32 MIN MIN -2147483648 -2147483648
s32 MIN MAX 2147483647 2147483647
s32 MAX MAX 2147483647 2147483647
== vmins (table 23)
f16 MIN MIN/MAX/0.0/-0.0/inf -65504.0 -65504.0
f16 MIN nan nan 0.0
f16 MIN -inf -inf -65504.0
f16 MAX MAX/inf 65504.0 65504.0
f16 MAX 0.0 0.0 0.0
f16 MAX 0.0 0.0 0.0
f16 MAX nan nan 0.0
f16 MAX -inf -inf -65504.0
f16 0.0 0.0/inf 0.0 0.0
f16 0.0 0.0 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 -inf -inf -65504.0
f16 -0.0 -0.0/inf -0.0 -0.0
f16 -0.0 nan nan 0.0
f16 -0.0 -inf -inf -65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf inf 65504.0
f16 inf -inf -inf -65504.0
f16 -inf -inf -inf -65504.0
s16 MIN MIN/MAX -32768 -32768
s16 MAX MAX 32767 32767
s32 MIN MIN/MAX -2147483648 -2147483648
s32 MAX MAX 2147483647 2147483647
== vleakyrelu (table 24)
f16 MIN MIN inf 65504.0
f16 MIN MAX -inf -65504.0
f16 MIN 0.0 0.0 0.0
f16 MIN 0.0 0.0 0.0
f16 MIN nan nan 0.0
f16 MIN inf -inf -65504.0
f16 MIN -inf inf 65504.0
f16 MAX MIN/MAX/0.0/-0.0/nan/inf/-inf 65504.0 65504.0
f16 0.0 MIN/MAX/0.0/-0.0/nan/inf/-inf 0.0 0.0
f16 -0.0 MIN/-0.0 0.0 0.0
f16 -0.0 MAX/0.0 0.0 0.0
f16 -0.0 nan/inf/-inf nan 0.0
f16 nan MIN/MAX/0.0/-0.0/nan/inf/-inf nan 0.0
f16 inf MIN/MAX/0.0/-0.0/nan/inf/-inf inf 65504.0
f16 -inf MIN/-inf inf 65504.0
f16 -inf MAX/inf -inf -65504.0
f16 -inf 0.0/-0.0/nan nan 0.0
== vaxpy (table 25)
f16 +0/+0,-0/-0,+0/MAX,-0/MIN +0.0 +0 +0.0
f16 +0/+0,-0/-0,+0/MAX,-0/MIN -0.0 +0.0 +0
f16 +0/+0,-0/-0,+0/MAX,-0/MIN +inf +inf MAX
f16 +0/+0,-0/-0,+0/MAX,-0/MIN -inf -inf MIN
f16 +0/+0,-0/-0,+0/MAX,-0/MIN MAX MAX MAX
f16 +0/+0,-0/-0,+0/MAX,-0/MIN MIN MIN MIN
f16 +0/+0,-0/-0,+0/MAX,-0/MIN nan nan +0.0
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 +0.0 +0 +0.0
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 -0.0 -0.0 -0.0
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 +inf +inf MAX
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 -inf -inf MIN
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 MAX MAX MAX
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 MIN MIN MIN
f16 +0/MIN,-0/MAX,+0/-0,-0/+0 nan nan +0.0
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf +0.0 +inf MAX
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf -0.0 +inf MAX
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf +inf +inf MAX
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf -inf nan +0.0
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf MAX +inf MAX
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf MIN +inf MAX
f16 MAX/+inf,MIN/-inf,+inf/+inf,-inf/-inf nan nan +0.0
f16 MAX/MAX,MIN/MIN +0.0 +inf MAX
f16 MAX/MAX,MIN/MIN -0.0 +inf MAX
f16 MAX/MAX,MIN/MIN +inf +inf MAX
f16 MAX/MAX,MIN/MIN -inf -inf MIN
f16 MAX/MAX,MIN/MIN MAX +inf MAX
f16 MAX/MAX,MIN/MIN MIN +inf MAX
f16 MAX/MAX,MIN/MIN nan nan +0.0
f16 MAX/MIN,MIN/MAX +0.0 -inf MIN
f16 MAX/MIN,MIN/MAX -0.0 -inf MIN
f16 MAX/MIN,MIN/MAX +inf +inf MAX
f16 MAX/MIN,MIN/MAX -inf -inf MIN
f16 MAX/MIN,MIN/MAX MAX -inf MIN
f16 MAX/MIN,MIN/MAX MIN -inf MIN
f16 MAX/MIN,MIN/MAX nan nan +0.0
f16 MAX/-inf,MIN/+inf,+inf/-inf +0.0 -inf MIN
f16 MAX/-inf,MIN/+inf,+inf/-inf -0.0 -inf MIN
f16 MAX/-inf,MIN/+inf,+inf/-inf +inf nan +0.0
f16 MAX/-inf,MIN/+inf,+inf/-inf -inf -inf MIN
f16 MAX/-inf,MIN/+inf,+inf/-inf MAX -inf MIN
f16 MAX/-inf,MIN/+inf,+inf/-inf MIN -inf MIN
f16 MAX/-inf,MIN/+inf,+inf/-inf nan nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan +0.0 nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan -0.0 nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan +inf nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan -inf nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan MAX nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan MIN nan +0.0
f16 nan/ANY,+0/+inf,+0/-inf,+0/nan,-0/+inf,-0/-inf,-0/nan nan nan +0.0
== vabssub (table 26)
f16 MIN MIN 0.0 0.0
f16 MIN MAX inf 65504.0
f16 MIN 0.0/-0.0 65504.0 65504.0
f16 MIN nan nan 0.0
f16 MIN inf/-inf inf 65504.0
f16 MAX MAX 0.0 0.0
f16 MAX 0.0/-0.0 65504.0 65504.0
f16 MAX nan nan 0.0
f16 MAX -inf/inf inf 65504.0
f16 0.0 0.0/-0.0 0.0 0.0
f16 0.0 nan nan 0.0
f16 0.0 inf/-inf inf 65504.0
f16 -0.0 0.0/-0.0 0.0 0.0
f16 -0.0 nan nan 0.0
f16 -0.0 inf/-inf inf 65504.0
f16 nan nan/inf/-inf nan 0.0
f16 inf inf nan 0.0
f16 inf -inf inf 65504.0
f16 -inf -inf nan 0.0
== vmadd (table 28)
f16 +0/+0,-0/+0 +0/-0/MAX/MIN +0.0 +0
f16 +0/+0,-0/+0 nan/+inf/-inf nan +0.0
f16 +0/-0 +0/MAX +0.0 +0
f16 +0/-0 -0/MIN -0.0 -0.0
f16 +0/-0 nan/+inf/-inf nan +0.0
f16 -0/-0 +0/MAX -0.0 -0.0
f16 -0/-0 -0/MIN +0.0 +0
f16 -0/-0 nan/+inf/-inf nan +0.0
f16 -0/MAX,+0/MAX +0/-0/MAX/MIN MAX MAX
f16 -0/MAX,+0/MAX nan/+inf/-inf nan +0.0
f16 -0/MIN,+0/MIN +0/-0/MAX/MIN MIN MIN
f16 -0/MIN,+0/MIN nan/+inf/-inf nan +0.0
f16 +0/inf,-0/inf +0/-0/MAX/MIN inf MAX
f16 +0/inf,-0/inf nan/+inf/-inf nan +0.0
f16 +0/-inf,-0/-inf +0/-0/MAX/MIN -inf MIN
f16 +0/-inf,-0/-inf nan/+inf/-inf nan +0.0
f16 MAX/+inf +0/-0/MAX/MIN/+inf inf MAX
f16 MAX/+inf -inf/nan nan +0.0
f16 MIN/+inf +0/-0/MAX/MIN/-inf inf MAX
f16 MIN/+inf +inf/nan nan +0.0
f16 MAX/-inf +0/-0/MAX/MIN/-inf -inf MIN
f16 MAX/-inf +inf/nan nan +0.0
f16 MIN/-inf +0/-0/MAX/MIN/+inf -inf MIN
f16 MIN/-inf -inf/nan nan +0.0
f16 MAX/+0 MAX/+inf inf MAX
f16 MAX/+0 +0/-0 +0.0 +0
f16 MAX/+0 MIN/-inf -inf MIN
f16 MAX/+0 nan nan +0.0
f16 MIN/+0 MAX/+inf -inf MIN
f16 MIN/+0 +0/-0 +0.0 +0
f16 MIN/+0 MIN/-inf inf MAX
f16 MIN/+0 nan nan +0.0
f16 MAX/-0 MAX/+inf inf MAX
f16 MAX/-0 MIN/-inf -inf MIN
f16 MAX/-0 +0.0 +0 +0.0
f16 MAX/-0 -0.0 -0.0 -0.0
f16 MAX/-0 nan nan +0.0
f16 MIN/-0 MAX/+inf -inf MIN  # the table: inf and MAX, against its own MIN/+0 row: a zero addend cannot flip MAX * MIN
f16 MIN/-0 MIN/-inf inf MAX  # the table: -inf and MIN, against its MIN/+0 row (MIN * MIN = +inf)
f16 MIN/-0 +0.0 -0.0 -0.0
f16 MIN/-0 -0.0 +0.0 +0
f16 MIN/-0 nan nan +0.0
f16 MAX/MAX MAX/+inf inf MAX
f16 MAX/MAX MIN/-inf -inf MIN
f16 MAX/MAX +0/-0 MAX MAX
f16 MAX/MAX nan nan +0.0
f16 MIN/MIN MAX/+inf -inf MIN
f16 MIN/MIN MIN/-inf inf MAX
f16 MIN/MIN +0/-0 MIN MIN  # the table: MAX in both; 0 * MIN + MIN is MIN (its MAX/MAX row gives MAX)
f16 MIN/MIN nan nan +0.0
f16 MAX/MIN MAX/+inf inf MAX
f16 MAX/MIN MIN/-inf -inf MIN
f16 MAX/MIN +0/-0 MIN MIN
f16 MAX/MIN nan nan +0.0
f16 MIN/MAX MAX/+inf -inf MIN
f16 MIN/MAX MIN/-inf inf MAX
f16 MIN/MAX +0/-0 MAX MAX
f16 MIN/MAX nan nan +0.0
f16 inf/inf MAX/+inf inf MAX
f16 inf/inf MIN/-inf/0/-0/-inf/nan nan +0.0
f16 -inf/inf MIN/-inf inf MAX
f16 -inf/inf MAX/+inf/0/-0/-inf/nan nan +0.0
f16 inf/-inf MIN/-inf -inf MIN
f16 inf/-inf MAX/+inf/0/-0/-inf/nan nan +0.0
f16 -inf/-inf MAX/+inf -inf MIN
f16 -inf/-inf MIN/-inf/0/-0/-inf/nan nan +0.0
f16 inf/+0,inf/-0,inf/MAX,inf/MIN MAX/+inf inf MAX
f16 inf/+0,inf/-0,inf/MAX,inf/MIN MIN/-inf -inf MIN
f16 inf/+0,inf/-0,inf/MAX,inf/MIN nan/+0/-0 nan +0.0
f16 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN MAX/+inf -inf MIN
f16 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN MIN/-inf inf MAX
f16 -inf/+0,-inf/-0,-inf/MAX,-inf/MIN nan/+0/-0 nan +0.0
f16 nan/ANY +0/-0/MAX/MIN/nan/+inf/-inf nan +0.0
== vmla (table 29)
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN MAX MAX MAX
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN MIN MIN MIN
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN nan nan 0.0
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN -0/+0 0.0 0.0
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN +inf inf MAX
f16 +0/+0,+0/-0,+0/MAX,+0/MIN,-0/-0,-0/MAX,-0/MIN -inf -inf MIN
f16 +0/inf,-0/-inf,+0/-inf,-0/inf,+0/nan,-0/nan +0/MAX/-0/MIN/nan/+inf/-inf nan 0.0
f16 MAX/MAX,MIN/MIN +0/MAX/-0/MIN/inf inf MAX
f16 MAX/MAX,MIN/MIN -inf -inf MIN
f16 MAX/MAX,MIN/MIN nan nan 0.0
f16 MAX/MIN +0/MAX/-0/MIN/-inf -inf MIN
f16 MAX/MIN inf inf MAX
f16 MAX/MIN nan nan 0.0
f16 MAX/+inf,MIN/-inf +0/-0/MAX/MIN/+inf inf MAX
f16 MAX/+inf,MIN/-inf -inf/nan nan 0.0
f16 MAX/-inf,MIN/+inf +0/-0/MAX/MIN/-inf -inf MIN
f16 MAX/-inf,MIN/+inf +inf/nan nan 0.0
f16 inf/inf +0/-0/MAX/MIN/+inf inf MAX
f16 inf/inf nan/-inf nan 0.0
f16 inf/-inf +0/-0/MAX/MIN/-inf -inf MIN
f16 inf/-inf nan/+inf nan 0.0
f16 -inf/-inf +0/-0/MAX/MIN/+inf inf MAX  # the table: -inf and MIN; the product -inf * -inf is +inf (docs/semantics.md)
f16 -inf/-inf nan/-inf nan 0.0
f16 nan/ANY +0/-0/MAX/MIN/nan/+inf/-inf nan 0.0
== vexpsub (table 27)
f16/f32 -65504.0 -65504.0 1.0 1.0
f16/f32 -65504.0 65504.0/0.0/-0.0/inf 0.0 0.0
f16/f32 -65504.0 nan nan nan
f16/f32 -65504.0 -inf inf inf  # the table: -inf in both; -65504 - (-inf) = inf (its float row: inf)
f16/f32 65504.0 65504.0 1.0 1.0
f16/f32 65504.0 0.0/-0.0/MIN/-inf inf inf
f16/f32 65504.0 nan nan nan
f16/f32 65504.0 inf 0.0 0.0
f16/f32 0.0/-0.0 MAX/inf 0.0 0.0
f16/f32 0.0/-0.0 0.0/-0.0 1.0 1.0
f16/f32 0.0/-0.0 nan nan nan
f16/f32 0.0/-0.0 MIN/-inf inf inf
f16/f32 nan nan/inf/-inf/0/-0/MAX/MIN nan nan
f16/f32 inf -inf/0/-0/MAX/MIN inf inf
f16/f32 inf nan/inf nan nan
f16/f32 -inf inf/0/-0/MAX/MIN 0.0 0.0
f16/f32 -inf -inf nan nan  # the table: 0.0 in both; -inf - (-inf) is NaN (its inf - inf row: nan)
f16/f32 -inf nan nan nan
f32 MIN MIN 1.0 1.0
f32 MIN MAX/0.0/-0.0/inf 0.0 0.0
f32 MIN nan nan nan
f32 MIN -inf inf inf
f32 MAX MAX 1.0 1.0
f32 MAX 0.0/-0.0/MIN/-inf inf inf
f32 MAX nan nan nan
f32 MAX inf 0.0 0.0
f32 0.0/-0.0 MAX/inf 0.0 0.0
f32 0.0/-0.0 0.0/-0.0 1.0 1.0
f32 0.0/-0.0 nan nan nan
f32 0.0/-0.0 MIN/-inf inf inf
f32 nan nan/inf/-inf/0/-0/MAX/MIN nan nan
f32 inf inf/nan nan nan
f32 inf -inf/0/-0/MAX/MIN inf inf  # the table's float rows: 0.0 in both; e^(inf - x) is inf (its half/float rows)
f32 -inf inf/0/-0/MAX/MIN 0.0 0.0
f32 -inf -inf nan nan  # the table: 0.0 in both, as in its half/float rows
f32 -inf nan nan nan
== reduce (table 35)
vredmax f16 MIN -65504.0 -65504.0
vredmax f16 MAX 65504.0 65504.0
vredmax f16 0.0 0.0 0.0
vredmax f16 -0.0 -0.0 -0.0
vredmax f16 nan nan 0.0
vredmax f16 inf inf 65504.0
vredmax f16 -inf -inf -65504.0
vredmin f16 MIN -65504.0 -65504.0
vredmin f16 MAX 65504.0 65504.0
vredmin f16 0.0 0.0 0.0
vredmin f16 -0.0 -0.0 -0.0
vredmin f16 nan nan 0.0
vredmin f16 inf inf 65504.0
vredmin f16 -inf -inf -65504.0
vredsum f16 MIN -inf -65504.0
vredsum f16 MAX inf 65504.0
vredsum f16 0.0 0.0 0.0
vredsum f16 -0.0 -0.0 -0.0
vredsum f16 nan nan 0.0
vredsum f16 inf inf 65504.0
vredsum f16 -inf -inf -65504.0
== vpairsum (table 37)
vpairsum f16 MIN -inf -65504.0
vpairsum f16 MAX inf 65504.0
vpairsum f16 0.0 0.0 0.0
vpairsum f16 -0.0 -0.0 -0.0
vpairsum f16 nan nan 0.0
vpairsum f16 inf inf 65504.0
vpairsum f16 -inf -inf -65504.0
"""

SECTIONS = bv.sections(TABLES)


def column(mnemonic: str, which: int) -> list:
    """A section's rows with one of the two result columns as their expected value."""
    return [row[:-2] + [row[which]] for row in SECTIONS[mnemonic]]


@pytest.mark.parametrize("ctrl,which", MODES)
@pytest.mark.parametrize("mnemonic", [m for m in bv.UNARY + bv.BINARY if m in SECTIONS])
def test_element_wise(engine, mnemonic, ctrl, which):
    for t, rows in bv.cases(mnemonic, column(mnemonic, which)).items():
        bv.check_element_wise(engine, mnemonic, t, rows, ctrl)


@pytest.mark.parametrize("ctrl,which", MODES)
@pytest.mark.parametrize("mnemonic", [m for m in bv.SCALAR_FORMS if m in SECTIONS])
def test_scalar_forms(engine, mnemonic, ctrl, which):
    for t, rows in bv.cases(mnemonic, column(mnemonic, which)).items():
        bv.check_scalar_forms(engine, mnemonic, t, rows, ctrl)


@pytest.mark.parametrize("ctrl,which", MODES)
@pytest.mark.parametrize("mnemonic", ["vaxpy", "vmadd", "vmla"])
def test_fused_multiply_add(engine, mnemonic, ctrl, which):
    bv.check_fused_multiply_add(engine, mnemonic, column(mnemonic, which), ctrl)


def test_fused_float_rows_ignore_the_mode(engine):
    """Table 29's float rows (tests/test_boundary_values.py), CTRL saturating: its float saturation column
    is the INF/NAN column."""
    bv.check_fused_multiply_add(engine, "vmla", [row for row in bv.SECTIONS["vmla"] if row[0] == "f32"],
                                SATURATING)


@pytest.mark.parametrize("ctrl,which", MODES)
def test_expsub(engine, ctrl, which):
    """Table 27 (ExpSub): half or float sources, a float result, so both columns are the same. A `f16/f32`
    row is the table's half/float row, run with each source type; MIN/MAX are the source type's extremes
    (the table's -65504/65504 are typed as numbers). f16 sources sit in the even lanes (RegLayout ZERO)."""
    rows = [[t] + row[1:] for row in column("vexpsub", which) for t in row[0].split("/")]
    for t, cases in bv.cases("vexpsub", rows).items():
        step = 2 if t == "f16" else 1
        for start in range(0, len(cases), 64):
            chunk = cases[start:start + 64]
            a, b = [0.0] * 64 * step, [0.0] * 64 * step
            a[:len(chunk) * step:step] = [bv.number(t, x) for x, _, _, _ in chunk]
            b[:len(chunk) * step:step] = [bv.number(t, y) for _, y, _, _ in chunk]
            m = run_source(bv.buffer("a", t, a) + bv.buffer("b", t, b) + bv.setting(ctrl) + f"""
                mask p0.b{bv.width_bits(t)}, ALL
                vld v0.{t}, [a]
                vld v1.{t}, [b]
                vexpsub v2.f32, v0.{t}, v1.{t}, p0
            """, engine)
            for lane, (x, y, expected, grouped) in enumerate(chunk):
                bv.check("f32", bv.lanes(m, 2, "f32")[lane], expected, f"vexpsub {t} {x} {y} -> {expected}", grouped)


@pytest.mark.parametrize("ctrl,which", MODES)
def test_reductions(engine, ctrl, which):
    bv.check_reductions(engine, column("reduce", which), ctrl)
    bv.check_block_reductions(engine, column("reduce", which), ctrl)     # table 36 repeats table 35
    bv.check_pair_sums(engine, column("vpairsum", which), ctrl)


MIN_LANES = [-65504.0] * 16 + [-65472.0] * 32 + [-65440.0] * 32 + [-65408.0] * 32 + [-65376.0] * 16
# Arange (table 38), half: start, INF/NAN column's lanes, saturation column's lanes
ARANGE = [
    ("inf", [math.inf] * 128, [65504.0] * 128), ("-inf", [-math.inf] * 128, [-65504.0] * 128),
    ("0.0", list(range(128)), list(range(128))), ("-0.0", list(range(128)), list(range(128))),
    ("nan", [math.nan] * 128, [0.0] * 128), ("65504.0", [65504.0] * 16 + [math.inf] * 112, [65504.0] * 128),
    ("-65504.0", MIN_LANES, MIN_LANES),
]


@pytest.mark.parametrize("start,inf_nan,saturation", ARANGE)
def test_arange(engine, start, inf_nan, saturation):
    bv.check_arange(engine, "f16", start, inf_nan)
    bv.check_arange(engine, "f16", start, saturation, SATURATING)


@pytest.mark.parametrize("mnemonic", ["vadd", "vsub", "vmul", "vadds", "vmuls", "vexp", "vabs", "vmax"])
def test_float_results_ignore_the_mode(engine, mnemonic):
    """The f32 rows of tests/test_boundary_values.py, CTRL saturating: the INF/NAN column still."""
    rows = bv.cases(mnemonic)["f32"]
    check = bv.check_scalar_forms if mnemonic in bv.SCALAR_FORMS else bv.check_element_wise
    check(engine, mnemonic, "f32", rows, SATURATING)


def test_bit_48_turns_the_float_mode_off(engine):
    """Global mode with CTRL[48] = 1: half results keep inf and NaN (the integer rows still clamp)."""
    for t in ("f16", "s16"):
        rows = bv.cases("vadd", column("vadd", INF_NAN_COLUMN if t == "f16" else SATURATION_COLUMN))[t]
        bv.check_element_wise(engine, "vadd", t, rows, NOT_SATURATING)


def test_the_mode_is_read_when_each_instruction_runs(engine):
    """CTRL changes between two instructions: 65504 + 65504 is inf, then 65504 (saturated), then inf."""
    m = run_source(f"""
        mask p0.b16, ALL
        vdup v0.f16, 65504.0
        vadd v1.f16, v0.f16, v0.f16, p0
        mov s1, {SATURATING}
        sprset.ctrl s1
        vadd v2.f16, v0.f16, v0.f16, p0
        sprset.ctrl 0
        vadd v3.f16, v0.f16, v0.f16, p0
    """, engine)
    assert [int(bv.lanes(m, v, "f16")[0]) for v in (1, 2, 3)] == [0x7C00, 0x7BFF, 0x7C00]


def test_merging_keeps_inactive_lanes_as_they_were(engine):
    """vadd.merge in the saturation mode: active lanes saturate, an inactive lane keeps vD's inf."""
    m = run_source(f"""
        mov s1, {SATURATING}
        sprset.ctrl s1
        mask p0.b16, VL1
        vdup v0.f16, 65504.0
        vdup v1.f16, inf
        vadd.merge v1.f16, v0.f16, v0.f16, p0
    """, engine)
    assert [int(x) for x in bv.lanes(m, 1, "f16")[:2]] == [0x7BFF, 0x7C00]
