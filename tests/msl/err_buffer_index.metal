// Metal has 31 buffer slots (0-30): [[buffer(31)]] is out of range.
//@ expect_error "program_source:8:40: error: buffer index 31 is out of range: Metal has 31 buffer slots (0-30)"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *a [[buffer(0)]],
              device float *b [[buffer(30)]],
              device float *c [[buffer(31)]],
              uint i [[thread_position_in_grid]])
{
    a[i] = b[i] + c[i];
}
