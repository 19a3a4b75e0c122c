// GET_TILING_DATA reading the struct a host tiling header registers (its definitions given with
// -D ASCASM_TILING_HEADER): y[i] = value + i for i < count, then pair[0] and pair[1].
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void fill(GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y);
    for (int64_t i = 0; i < tilingData.count; ++i) {
        yGm.SetValue(i, tilingData.value + (float)i);
    }
    yGm.SetValue(tilingData.count, (float)tilingData.pair[0]);
    yGm.SetValue(tilingData.count + 1, (float)tilingData.pair[1]);
}
