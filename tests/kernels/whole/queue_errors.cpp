// Kernels that break the queue rules, one per entry: each must be a located translation error.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void deque_empty(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> que;
    pipe.InitBuffer(que, 1, 256);
    LocalTensor<float> t = que.DeQue<float>();
    que.FreeTensor(t);
}

extern "C" __global__ __aicore__ void never_freed(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> que;
    pipe.InitBuffer(que, 2, 256);
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    LocalTensor<float> t = que.AllocTensor<float>();
    DataCopy(t, xGm, 64);
    que.EnQue(t);
    t = que.DeQue<float>();
}

extern "C" __global__ __aicore__ void tensor_op(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    Adds(t, t, 1.0f, 64);
}

extern "C" __global__ __aicore__ void unbalanced_loop(GM_ADDR x, uint32_t n)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> que;
    pipe.InitBuffer(que, 2, 256);
    for (uint32_t i = 0; i < n; ++i) {
        LocalTensor<float> t = que.AllocTensor<float>();
        que.EnQue(t);
    }
}
