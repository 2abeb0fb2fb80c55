// Float and double math, rounding-mode intrinsics, conversions.
#include <cuda_runtime.h>

__global__ void dmath(double *x, double *y, long long *l, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   double a = x[i], b = y[i];
   double r = sin(a) + cos(b) + tan(a) + exp(a) + log(b) + pow(a, b) + sqrt(a) + cbrt(b);
   r += erf(a) + erfc(b) + lgamma(a) + tgamma(b) + atan2(a, b) + hypot(a, b) + fmod(a, b);
   r += fma(a, b, r) + __dadd_rz(a, b) + __dmul_rd(a, b) + __ddiv_ru(a, b) + __dsqrt_rn(a);
   r += __drcp_rz(a) + __fma_rd(a, b, r) + rsqrt(a) + floor(a) + ceil(b) + trunc(a) + round(b);
   r += ldexp(a, 3) + scalbn(b, -2) + copysign(a, b) + fmax(a, b) + fmin(a, b) + fdim(a, b);
   int e;
   r += frexp(a, &e) + e + ilogb(b) + logb(a) + nextafter(a, b) + remainder(a, b);
   l[i] = __double2ll_rz(r) + llrint(a) + __double_as_longlong(b) + __double2hiint(a);
   x[i] = r + __longlong_as_double(l[i]) + __ll2double_rd(l[i]) + __uint2double_rn(i);
   y[i] = isnan(r) + isinf(a) + signbit(b) + isfinite(r) + j0(a) + y1(b) + normcdf(a);
}

__global__ void fmath(float *x, float *y, int *k, unsigned *u)
{
   int i = threadIdx.x;
   float a = x[i], b = y[i];
   float r = sinf(a) + cosf(b) + expf(a) + logf(b) + powf(a, b) + sqrtf(a) + rsqrtf(b);
   r += __sinf(a) + __cosf(b) + __expf(a) + __logf(b) + __powf(a, b) + __fdividef(a, b);
   r += __fadd_rz(a, b) + __fmul_rn(a, b) + __fdiv_rd(a, b) + __fsqrt_ru(a) + __frcp_rz(b);
   r += __fmaf_rn(a, b, r) + __saturatef(a) + fabsf(b) + fminf(a, b) + fmaxf(a, b);
   r += exp2f(a) + log2f(b) + exp10f(a) + tanhf(b) + erff(a) + normf(2, x) + norm3df(a, b, r);
   sincospif(a, &a, &b);
   r += a + b;
   k[i] = __float2int_rn(r) + __float2int_rz(a) + __float2int_rd(b) + __float2int_ru(r);
   u[i] = __float2uint_rn(r) + __float_as_uint(a) + __float2ll_rz(b);
   x[i] = __int2float_rz(k[i]) + __uint2float_ru(u[i]) + __int_as_float(k[i]) + rintf(r) +
          nearbyintf(a) + roundf(b) + truncf(r) + (float)(double)r + __ll2float_rd(k[i]);
   y[i] = 1.0f / r + 1e-30f * r + 3.4e38f + (r > 0.5f ? 1.25f : -0.0f);
}
