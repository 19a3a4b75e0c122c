// A vector function in the style of the public kernels, for the harness tests: dst = relu(src * scale)
// over count floats, 64 per repeat. Its translation is written by hand in tests/test_cpp_harness.py.
template <typename T>
__simd_vf__ inline void ScaleReluVF(__ubuf__ T* dstAddr, __ubuf__ T* srcAddr, T scale, uint32_t count)
{
    RegTensor<T> x, y;
    MaskReg mask;
    uint16_t repeats = CeilDivision(count, 64);
    for (uint16_t i = 0; i < repeats; i++) {
        mask = UpdateMask<T>(count);
        LoadAlign(x, srcAddr + i * 64);
        Muls(y, x, scale, mask);
        Relu(y, y, mask);
        StoreAlign(dstAddr + i * 64, y, mask);
    }
}
