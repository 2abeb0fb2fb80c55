// Metal has no recursion: a function that calls itself is a compile error.
//@ expect_error "function 'fact' is recursive (it calls itself, directly or through other functions); Metal does not support recursion"
#include <metal_stdlib>
using namespace metal;

uint fact(uint n, device uint *trace)
{
    trace[n] = n;    // keeps the compiler from turning the recursion into a loop
    return n <= 1u ? 1u : n * fact(n - 1u, trace);
}

kernel void k(device uint *out [[buffer(0)]],
              uint i [[thread_position_in_grid]])
{
    out[i] = fact(i & 7u, out + 64);
}
