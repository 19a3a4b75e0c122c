// Reads a nested tiling struct (with an array) and the tiling key, and writes what it read to y through
// LocalTensor::SetValue / GetValue and DataCopy.
#include "kernel_operator.h"
using namespace AscendC;

struct Inner {
    uint16_t a;
    float b;
};

struct ProbeTiling {
    uint8_t flag;
    Inner inner;
    uint32_t arr[3];
    half h;
};

extern "C" __global__ __aicore__ void probe(GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ProbeTiling, t, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8 * sizeof(float));
    LocalTensor<float> out = buf.Get<float>();
    out.SetValue(0, t.inner.b);
    out.SetValue(1, t.inner.a);
    out.SetValue(2, t.flag);
    if (TILING_KEY_IS(2)) {
        out.SetValue(3, 2.0f);
    } else {
        out.SetValue(3, -1.0f);
    }
    float first = out.GetValue(0);
    out.SetValue(4, first + 1.0f);
    out.SetValue(5, t.arr[1]);
    out[6].SetValue(0, 6.0f);
    out.ReinterpretCast<uint32_t>().SetValue(7, 7);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(yGm, out, 8);
}

// GlobalTensor::GetValue / SetValue and GET_TILING_DATA with REGISTER_TILING_DEFAULT: y[k] = x[n-1-k]
// for the first `count` elements, one scalar at a time.
struct ReverseTiling {
    uint32_t count;
};

extern "C" __global__ __aicore__ void reverse(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ReverseTiling);
    GET_TILING_DATA(t, tiling);
    GlobalTensor<int16_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int16_t*)x, t.count);
    yGm.SetGlobalBuffer((__gm__ int16_t*)y, t.count);
    for (uint32_t k = 0; k < t.count; ++k) {
        yGm.SetValue(k, xGm.GetValue(t.count - 1 - k));
    }
}
