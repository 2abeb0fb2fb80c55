// Metal's SIMD-group functions take no 64-bit (nor bool) values: the
// library fails to compile, saying so.
//@ buffer out ulong 32
//@ expect_error "Metal's SIMD-group functions do not take 64-bit types"
#include <metal_stdlib>
using namespace metal;

kernel void wide(device ulong *out [[buffer(0)]], uint tid [[thread_index_in_threadgroup]])
{
    out[tid] = simd_shuffle(ulong(tid) << 40, 3);
}
