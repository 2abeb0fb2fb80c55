// coherent(device) memory is MSL 3.2 (macOS 15): refused at MSL 3.1.
//@ device soft
//@ msl_version 310
//@ expect_error "coherent_needs_msl_3_2"
#include <metal_stdlib>
using namespace metal;

kernel void k(coherent(device) device uint *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i] = i;
}
