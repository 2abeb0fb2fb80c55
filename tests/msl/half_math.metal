// half: storage through device pointers, arithmetic rounded to half, the
// 0.5h literal suffix, half2 vectors and conversions.
//@ requires half
//@ buffer in half 4 = {1.5, 2049, 65504, 0.1}
//@ buffer out half 8
//@ buffer bits ushort 2
//@ run half_math groups=1 threads=1 bind=in:0,out:1,bits:2
//@ expect out = {2.25, 2048, inf, 0.0999755859375, 0.75, 3, 4.5, 2050}
//@ expect bits = {0x3c00, 0x3555}
#include <metal_stdlib>
using namespace metal;

kernel void half_math(device const half *in [[buffer(0)]],
                      device half *out [[buffer(1)]],
                      device ushort *bits [[buffer(2)]],
                      uint i [[thread_position_in_grid]])
{
    half a = in[0];
    out[0] = a * a;                     // 2.25 exactly
    out[1] = in[1];                     // 2049 is not a half: stored as 2048 (even)
    out[2] = in[2] * 2.0h;              // overflows to infinity
    out[3] = in[3];                     // 0.1 rounded to half
    out[4] = a * 0.5h;
    half2 v = half2(a, a) * half2(2.0h, 1.0h);
    out[5] = v.x;
    out[6] = v.x + v.y;
    out[7] = half(float(in[1]) + 2.0f); // 2050 is a half
    bits[0] = as_type<ushort>(half(1.0f));
    bits[1] = as_type<ushort>(half(1.0f / 3.0f));
}
