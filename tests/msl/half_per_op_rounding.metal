// half arithmetic rounds to half after every operation, as on a GPU, not
// once at the end of the expression (C's excess precision, which clang
// uses for _Float16 on x86 unless told otherwise, and __fp16's promotion
// to float).  Additions only: a product followed by a sum could be fused
// into an fma by Metal's compiler.
//   (2048 + 1) + 1: 2049 is a tie, rounds to 2048; 2048 + 1 again -> 2048
//                   (computed in float and rounded once: 2050).
//   (1 + 2^-11) - 1: 1 + 2^-11 is a tie, rounds to 1; 1 - 1 -> 0
//                   (rounded once: 2^-11, bits 0x1000).
//@ requires half
//@ buffer in half 3 = {2048, 1, 0.00048828125}
//@ buffer out ushort 4
//@ run per_op groups=1 threads=1 bind=in:0,out:1
//@ expect out = {0x6800, 0x0000, 0x6800, 0x0000}
#include <metal_stdlib>
using namespace metal;

kernel void per_op(device const half *in [[buffer(0)]],
                   device ushort *out [[buffer(1)]],
                   uint i [[thread_position_in_grid]])
{
    half big = in[0], one = in[1], tiny = in[2];
    out[0] = as_type<ushort>((big + one) + one);
    out[1] = as_type<ushort>((one + tiny) - one);
    half2 v = half2(big, one) + half2(one, tiny);
    v = v + half2(one, -one);
    out[2] = as_type<ushort>(v.x);
    out[3] = as_type<ushort>(v.y);
}
