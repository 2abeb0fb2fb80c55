// float arithmetic and metal_math functions.  exact: correctly rounded
// results (IEEE: -ffp-contract=off, no fast math); approx: transcendental
// functions within a relative 4e-7.
//@ buffer in float 4 = {1.000244140625, -1.00048828125, 2, 0}
//@ buffer exact float 28
//@ buffer approx float 8
//@ run float_math groups=1 threads=1 bind=in:0,exact:1,approx:2
//@ expect exact = {0, 5.9604644775390625e-08, 1.4142135623730951, 0.33333333333333333, 2, -3, 3, 2, -2, 3, 1, 1, -2, 1, 0, 1, 1, 0, 1.00000011920928955, 0.75, 0.5, 4, 1, 0, 0.5, 2, 0x1p-149, 7}
//@ expect approx ~4e-7 = {1024, 3, 1024, 0, 1, 0.8414709848078965, 2.718281828459045, 0.7615941559557649}
#include <metal_stdlib>
using namespace metal;

kernel void float_math(device const float *in [[buffer(0)]],
                       device float *exact [[buffer(1)]],
                       device float *approx [[buffer(2)]],
                       uint i [[thread_position_in_grid]])
{
    float a = in[0], c = in[1], two = in[2], zero = in[3];
    float nan_ = zero / zero;
    exact[0] = a * a + c;                 // not contracted: the product rounds first
    exact[1] = fma(a, a, c);              // fused: 2^-24
    exact[2] = sqrt(two);
    exact[3] = 1.0f / (two + 1.0f);
    exact[4] = rint(2.5f + zero);
    exact[5] = round(-2.5f + zero);
    exact[6] = round(2.5f + zero);
    exact[7] = floor(2.75f + zero);
    exact[8] = trunc(-2.75f + zero);
    exact[9] = ceil(2.25f + zero);
    exact[10] = fmin(nan_, 1.0f);         // IEEE minNum: the number wins
    exact[11] = fmax(1.0f, nan_);
    exact[12] = copysign(2.0f, c);
    exact[13] = isnan(nan_) ? 1.0f : 0.0f;
    exact[14] = isinf(nan_) ? 1.0f : 0.0f;
    exact[15] = isinf(1.0f / zero) ? 1.0f : 0.0f;
    exact[16] = signbit(-zero) ? 1.0f : 0.0f;
    exact[17] = isfinite(1.0f / zero) ? 1.0f : 0.0f;
    exact[18] = nextafter(1.0f + zero, two);
    exact[19] = fract(-0.25f + zero);
    exact[20] = rsqrt(4.0f + zero);
    exact[21] = max(two, 4.0f);
    exact[22] = clamp(3.0f + zero, 0.0f, 1.0f);
    exact[23] = select(1.0f, 0.0f, two > 1.0f);
    exact[24] = abs(-0.5f + zero);
    exact[25] = min3(2.0f, two + 1.0f, 5.0f);
    exact[26] = as_type<float>(1u + as_type<uint>(zero));   // smallest denormal survives
    exact[27] = fmod(15.0f + zero, 8.0f);
    approx[0] = exp2(10.0f + zero);
    approx[1] = log2(8.0f + zero);
    approx[2] = pow(two, 10.0f);
    approx[3] = sin(zero);
    approx[4] = cos(zero);
    approx[5] = sin(1.0f + zero);
    approx[6] = exp(1.0f + zero);
    approx[7] = tanh(1.0f + zero);
}
