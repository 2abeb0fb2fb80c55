// Program-scope variables must be in the constant address space.
//@ expect_error "'counter' is a writable program-scope or static variable"
#include <metal_stdlib>
using namespace metal;

constant uint scale = 3;     // fine: constant
uint counter;                // not allowed

kernel void k(device uint *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    counter += i;
    out[i] = counter * scale;
}
