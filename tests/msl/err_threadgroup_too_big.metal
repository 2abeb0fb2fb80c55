// 36000 bytes of threadgroup memory declared in the kernel: over Metal's
// 32 KB.
//@ expect_error "kernel 'k': threadgroup memory exceeds Metal's 32 KB limit"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    threadgroup float big[9000];
    big[i] = 1.0f;
    out[i] = big[i];
}
