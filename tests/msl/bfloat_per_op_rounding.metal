// bfloat arithmetic rounds to bfloat (8 significant bits) after every
// operation, not once at the end of the expression as clang's default
// excess precision for __bf16 would.
//   (256 + 1) + 1: 257 is a tie between 256 and 258, rounds to 256 (even);
//                  256 + 1 again -> 256 (rounded once: 258, bits 0x4381).
//   bits of 256: 0x4380 (float 0x43800000 cut to its top 16 bits).
//@ requires bfloat
//@ buffer in bfloat 2 = {256, 1}
//@ buffer out ushort 2
//@ run per_op groups=1 threads=1 bind=in:0,out:1
//@ expect out = {0x4380, 0x4380}
#include <metal_stdlib>
using namespace metal;

kernel void per_op(device const bfloat *in [[buffer(0)]],
                   device ushort *out [[buffer(1)]],
                   uint i [[thread_position_in_grid]])
{
    bfloat big = in[0], one = in[1];
    out[0] = as_type<ushort>((big + one) + one);
    bfloat2 v = bfloat2(big, big) + bfloat2(one, one);
    v = v + bfloat2(one, one);
    out[1] = as_type<ushort>(v.y);
}
