// 16 KB static plus 20 KB dynamic threadgroup memory exceeds 32 KB at
// dispatch time.
//@ buffer out float 4
//@ run k groups=1 threads=1 bind=out:0 tg=0:20480 error="36864 bytes of threadgroup memory (16384 static + 20480 dynamic) exceeds Metal's 32 KB limit"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *out [[buffer(0)]],
              threadgroup float *dyn [[threadgroup(0)]],
              uint i [[thread_position_in_grid]])
{
    threadgroup float fixed[4096];
    fixed[i] = 1.0f;
    dyn[i] = 2.0f;
    out[i] = fixed[i] + dyn[i];
}
