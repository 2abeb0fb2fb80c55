// int * 0.5 computes in double too (no float is promoted here; the double
// result is narrowed).
//@ expect_error "Metal has no double"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    out[i] = int(i) * 0.5;
}
