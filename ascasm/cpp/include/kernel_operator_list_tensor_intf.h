// ascasm header stub: kernel_operator_list_tensor_intf.h, the host-side descriptor of a list of
// GM tensors.
#pragma once
#include "kernel_operator.h"
namespace AscendC {
class ListTensorDesc {
public:
    __aicore__ inline ListTensorDesc() {}
    __aicore__ inline ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff, uint32_t shapeSize = 0xffffffff);
    template <typename T> __aicore__ inline __gm__ T* GetDataPtr(uint32_t index);
    __aicore__ inline uint32_t GetSize();
};
}  // namespace AscendC
