// An unsuffixed literal is a double in C++: x * 1.5 computes in double,
// which Metal cannot do.  (Write 1.5f.)
//@ expect_error "Metal has no double"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    out[i] = out[i] * 1.5;
}
