// Buffers at scattered indices (0, 3, 7, 30 = the last slot), device and
// constant, pointer and reference.
//@ buffer a int 64 = i - 20
//@ buffer b int 64 = 3 * i + 1
//@ buffer k int 1 = {5}
//@ buffer c int 64
//@ buffer d int 64
//@ run combine groups=2 threads=32 bind=a:0,b:3,c:7,d:30,k:12
//@ expect c = (i - 20) * (3 * i + 1) + 5
//@ expect d = (i - 20) - (3 * i + 1)
#include <metal_stdlib>
using namespace metal;

kernel void combine(device const int *a [[buffer(0)]],
                    constant int *b [[buffer(3)]],
                    device int *c [[buffer(7)]],
                    device int *d [[buffer(30)]],
                    constant int &k [[buffer(12)]],
                    uint i [[thread_position_in_grid]])
{
    c[i] = a[i] * b[i] + k;
    d[i] = a[i] - b[i];
}
