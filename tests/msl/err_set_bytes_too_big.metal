// setBytes is limited to 4 KB.
//@ bytes big uchar 5000
//@ buffer out uint 4
//@ run k groups=1 threads=4 bind=big:0,out:1 error="setBytes: 5000 bytes exceeds Metal's 4 KB limit"
#include <metal_stdlib>
using namespace metal;

kernel void k(constant uchar *big [[buffer(0)]],
              device uint *out [[buffer(1)]],
              uint i [[thread_position_in_grid]])
{
    out[i] = big[i];
}
