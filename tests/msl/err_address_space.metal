// Address spaces are real: a device pointer does not convert to a thread
// pointer (the parameter of sum is in the thread address space).
//@ expect_error "cannot pass pointer to address space '1' as a pointer to generic address space"
#include <metal_stdlib>
using namespace metal;

float sum(thread float *p) { return p[0] + p[1]; }

kernel void k(device float *out [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    out[i] = sum(out);
}
