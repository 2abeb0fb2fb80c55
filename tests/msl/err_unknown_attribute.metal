// A misspelled built-in attribute is an error, not an ignored attribute.
//@ expect_error "program_source:7:24: error: unknown attribute 'thread_position_in_grd' on a kernel parameter"
#include <metal_stdlib>
using namespace metal;

kernel void k(device uint *out [[buffer(0)]],
              uint i [[thread_position_in_grd]])
{
    out[i] = i;
}
