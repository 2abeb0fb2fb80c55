// A dispatch with a zero dimension is rejected.
//@ buffer out uint 4
//@ run k groups=0,1,1 threads=4 bind=out:0 error="a dimension is zero"
//@ run k groups=1 threads=4,0 bind=out:0 error="a dimension is zero"
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i] = i;
}
