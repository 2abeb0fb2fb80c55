// half <-> float <-> int conversions at the edges: zeros, the largest
// half (65504) and the overflow threshold (65520 rounds to infinity, a tie
// broken towards the even infinity), subnormals and their rounding, ties
// to even, infinities, NaN.  Inputs and expected outputs are bit patterns
// worked out by hand (comments give the values); NaN results are checked
// with isnan, since NaN payloads may differ between devices.
//@ requires half
//@ buffer f32 uint 27 = {0x00000000, 0x80000000, 0x3f800000, 0x477fe000, 0x477ff000, 0x477fefff, 0xc77ff000, 0x7f800000, 0xff800000, 0x38800000, 0x33800000, 0x33000000, 0x33000001, 0x33c00000, 0x34200000, 0x387fc000, 0x387fe000, 0x3f801000, 0x3f803000, 0x3f801001, 0x3dcccccd, 0xc0490fdb, 0x00000001, 0x7f7fffff, 0x38000000, 0x477fe001, 0x7fc00000}
//@ buffer f32_to_h ushort 27
//@ buffer h16 ushort 15 = {0x0000, 0x8000, 0x0001, 0x03ff, 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x3c00, 0xc248, 0x8001, 0x0200, 0x3555, 0x7e00, 0xfe00}
//@ buffer h_to_f32 uint 15
//@ buffer i32 int 7 = {2049, 2051, 65519, 65520, -3, -65520, 0}
//@ buffer i32_to_h ushort 7
//@ buffer h_int ushort 4 = {0x7bff, 0xc248, 0x3e00, 0x8001}
//@ buffer h_to_i32 int 4
//@ run f32_to_half groups=1 threads=27 bind=f32:0,f32_to_h:1
//@ run half_to_f32 groups=1 threads=15 bind=h16:0,h_to_f32:1
//@ run int_half groups=1 threads=7 bind=i32:0,i32_to_h:1,h_int:2,h_to_i32:3
//
// float -> half, one line per input above:
//   +0, -0, 1, 65504 (largest half), 65520 (tie: inf), 65519.998 (65504),
//   -65520 (-inf), +inf, -inf, 2^-14 (smallest normal), 2^-24 (smallest
//   subnormal), 2^-25 (tie: 0), 2^-25 + 1 ulp (2^-24), 1.5 * 2^-24 (tie:
//   2 * 2^-24), 2.5 * 2^-24 (tie: 2 * 2^-24), 1023 * 2^-24 (largest
//   subnormal), 1023.5 * 2^-24 (tie: 2^-14), 1 + 2^-11 (tie: 1),
//   1 + 3 * 2^-11 (tie: 1 + 2^-9), 1 + 2^-11 + 1 ulp (1 + 2^-10), 0.1f,
//   -pi (-3.140625), float's smallest subnormal (0), FLT_MAX (inf), 2^-15
//   (subnormal 0x0200), 65504 + 1 ulp (65504), NaN (1 = isnan).
//@ expect f32_to_h = {0x0000, 0x8000, 0x3c00, 0x7bff, 0x7c00, 0x7bff, 0xfc00, 0x7c00, 0xfc00, 0x0400, 0x0001, 0x0000, 0x0001, 0x0002, 0x0002, 0x03ff, 0x0400, 0x3c00, 0x3c02, 0x3c01, 0x2e66, 0xc248, 0x0000, 0x7c00, 0x0200, 0x7bff, 1}
// half -> float (exact): the NaNs give 1 (isnan).
//@ expect h_to_f32 = {0x00000000, 0x80000000, 0x33800000, 0x387fc000, 0x38800000, 0x477fe000, 0x7f800000, 0xff800000, 0x3f800000, 0xc0490000, 0xb3800000, 0x38000000, 0x3eaaa000, 1, 1}
// int -> half: 2049 (tie: 2048), 2051 (tie: 2052), 65519 (65504), 65520
// (inf), -3, -65520 (-inf), 0.
//@ expect i32_to_h = {0x6800, 0x6802, 0x7bff, 0x7c00, 0xc200, 0xfc00, 0x0000}
// half -> int (truncates): 65504, -3.140625, 1.5, -2^-24.
//@ expect h_to_i32 = {65504, -3, 1, 0}
#include <metal_stdlib>
using namespace metal;

kernel void f32_to_half(device const uint *in [[buffer(0)]],
                        device ushort *out [[buffer(1)]],
                        uint i [[thread_position_in_grid]])
{
    half h = half(as_type<float>(in[i]));
    out[i] = isnan(h) ? ushort(1) : as_type<ushort>(h);
}

kernel void half_to_f32(device const ushort *in [[buffer(0)]],
                        device uint *out [[buffer(1)]],
                        uint i [[thread_position_in_grid]])
{
    float f = float(as_type<half>(in[i]));
    out[i] = isnan(f) ? 1u : as_type<uint>(f);
}

kernel void int_half(device const int *in [[buffer(0)]],
                     device ushort *out [[buffer(1)]],
                     device const ushort *h [[buffer(2)]],
                     device int *hi [[buffer(3)]],
                     uint i [[thread_position_in_grid]])
{
    out[i] = as_type<ushort>(half(in[i]));
    if (i < 4)
        hi[i] = int(as_type<half>(h[i]));
}
