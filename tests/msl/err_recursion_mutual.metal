// Recursion through another function is refused as well.
//@ expect_error "is recursive (it calls itself, directly or through other functions); Metal does not support recursion"
#include <metal_stdlib>
using namespace metal;

uint odd(uint n, device uint *trace);

uint even(uint n, device uint *trace)
{
    trace[n] = 1u;
    return n == 0u ? 1u : odd(n - 1u, trace);
}

uint odd(uint n, device uint *trace)
{
    trace[n] = 2u;
    return n == 0u ? 0u : even(n - 1u, trace);
}

kernel void k(device uint *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    out[i] = even(i & 7u, out + 64);
}
