// as_type: bit reinterpretation between types of the same size.
//@ buffer in float 2 = {1, -0.0}
//@ buffer out uint 10
//@ run bits groups=1 threads=1 bind=in:0,out:1
//@ expect out = {0x3f800000, 0x80000000, 0x40490fdb, 1, 2, 3, 4, 0x3f800000, 0, 0xcdcdcdcd}
#include <metal_stdlib>
using namespace metal;

kernel void bits(device const float *in [[buffer(0)]],
                 device uint *out [[buffer(1)]],
                 uint i [[thread_position_in_grid]])
{
    out[0] = as_type<uint>(in[0]);
    out[1] = as_type<uint>(in[1]);
    out[2] = as_type<uint>(as_type<float>(0x40490fdbu + i));   // pi
    uchar4 b = as_type<uchar4>(0x04030201u + i);
    out[3] = b.x;
    out[4] = b.y;
    out[5] = b.z;
    out[6] = b.w;
    uint2 halves = as_type<uint2>(ulong(0x3f800000ul) | (ulong(i) << 32));
    out[7] = halves.x;
    out[8] = halves.y;
}
