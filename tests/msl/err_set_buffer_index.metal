// setBuffer at index 31 (the 32nd binding) is rejected when encoding.
//@ buffer a float 4
//@ run k groups=1 threads=4 bind=a:0,a:31 error="setBuffer: index 31 is out of range (Metal has 31 slots, 0-30)"
#include <metal_stdlib>
using namespace metal;

kernel void k(device float *a [[buffer(0)]], uint i [[thread_position_in_grid]])
{
    a[i] = 1.0f;
}
