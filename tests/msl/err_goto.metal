// goto is not part of MSL.
//@ expect_error "program_source:12:9: error: 'goto' is not allowed in Metal Shading Language"
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    uint n = 0;
again:
    if (++n < i)
        goto again;
    out[i] = n;
}
