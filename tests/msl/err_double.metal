// double does not exist in Metal.
//@ expect_error "program_source:9:5: error: 'double' is not supported in Metal"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    double d = out[i];
    out[i] = float(d);
}
