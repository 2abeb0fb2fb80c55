// MSL programs cannot use the C++ standard library.
//@ expect_error "'vector' file not found"
#include <metal_stdlib>
#include <vector>
using namespace metal;

kernel void k(device float *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i] = 0.0f;
}
