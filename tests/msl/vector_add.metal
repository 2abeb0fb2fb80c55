// Vector add: the smallest end-to-end case.
//@ buffer a float 1000 = i * 0.5
//@ buffer b float 1000 = 1000 - i
//@ buffer c float 1000
//@ run vadd groups=4 threads=250 bind=a:0,b:1,c:2
//@ expect c = i * 0.5 + 1000 - i
#include <metal_stdlib>
using namespace metal;

kernel void vadd(device const float *a [[buffer(0)]],
                 device const float *b [[buffer(1)]],
                 device float *c [[buffer(2)]],
                 uint i [[thread_position_in_grid]])
{
    c[i] = a[i] + b[i];
}
