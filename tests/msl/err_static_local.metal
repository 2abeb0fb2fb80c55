// A static local variable is writable program-lifetime storage too.
//@ expect_error "'calls' is a writable program-scope or static variable"
#include <metal_stdlib>
using namespace metal;

uint bump(uint x)
{
    static uint calls;
    return x + calls++;
}

kernel void k(device uint *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    out[i] = bump(i);
}
