// Threadgroup memory lengths must be multiples of 16 bytes.
//@ buffer out float 4
//@ run k groups=1 threads=4 bind=out:0 tg=0:100 error="setThreadgroupMemoryLength: 100 bytes is not a multiple of 16"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *out [[buffer(0)]],
              threadgroup float *tg [[threadgroup(0)]],
              uint i [[thread_position_in_grid]])
{
    tg[i] = 1.0f;
    out[i] = tg[i];
}
