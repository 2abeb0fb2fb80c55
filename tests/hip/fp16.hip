/* fp16.hip — hip_fp16.h: __half and __half2 arithmetic (+ - * / fma, min,
 * max, comparisons, negation), conversions both ways, and atomicAdd on
 * __half; the host reference computes each operation exactly in double and
 * rounds once to half (its own rounding, by integer steps). */
#include "hip_check.h"
#include <hip/hip_fp16.h>

#define OPS 9

__global__ void half_ops(const float *a, const float *b, const float *c, unsigned short *out, int n, __half *sum)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   __half x = __float2half(a[i]), y = __float2half(b[i]), z = __float2half(c[i]);
   unsigned short *o = out + i * OPS;
   o[0] = __half_as_ushort(x + y);
   o[1] = __half_as_ushort(x - y);
   o[2] = __half_as_ushort(x * y);
   o[3] = __half_as_ushort(__hdiv(x, y));
   o[4] = __half_as_ushort(__hfma(x, y, z));
   o[5] = __half_as_ushort(__hmax(x, y));
   o[6] = (unsigned short)((x < y) | (x == y) << 1 | (x >= z) << 2);
   __half2 p = __halves2half2(x, y), q = __halves2half2(z, x);
   __half2 r = __hmul2(p, q) + p;
   o[7] = __half_as_ushort(__low2half(r));
   o[8] = __half_as_ushort(__high2half(r));
   atomicAdd(sum, __float2half(1.0f));
}

/* the nearest half to d (ties to even), as bits: d is a double holding the
 * exact value (or within 2^-40 of it, far from every tie the inputs make) */
static unsigned short to_half(double d)
{
   if (d != d)
      return 0x7e00;
   unsigned short s = d < 0 ? 0x8000 : 0;
   d = fabs(d);
   if (d == 0)
      return s;
   if (d >= 65520.0)
      return s | 0x7c00;
   int e;
   frexp(d, &e);                       /* d = m 2^e, m in [0.5, 1) */
   int q = e - 11 < -24 ? -24 : e - 11; /* the half's unit at this size */
   double units = ldexp(d, -q), f = floor(units), rem = units - f;
   unsigned long long n = (unsigned long long)f;
   if (rem > 0.5 || (rem == 0.5 && (n & 1)))
      n++;
   /* n units of 2^q: encode */
   if (q == -24)
      return (unsigned short)(s | (n >= 1024 ? (1u << 10) | (n - 1024) : n));
   while (n >= 2048) {
      n >>= 1;
      q++;
   }
   return (unsigned short)(s | ((q + 25) << 10 | (n - 1024)));   /* n 2^q = 1.f 2^(q+10): exponent field q + 25 */
}

static double from_half(unsigned short h)
{
   int e = h >> 10 & 31, m = h & 1023;
   double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
   return h & 0x8000 ? -v : v;
}

int main()
{
   hc_begin("fp16");
   enum { N = 3000 };
   float a[N], b[N], c[N];
   for (int i = 0; i < N; i++) {
      uint32_t r = hc_mix((uint32_t)i);
      /* values that are halves already: an exponent in [-14, 8] and 11 bits */
      a[i] = ldexpf((float)(1024 + (r & 1023)), (int)(r >> 10) % 23 - 24) * (r >> 31 ? -1.0f : 1.0f);
      b[i] = ldexpf((float)(1024 + (r >> 11 & 1023)), (int)(r >> 21) % 23 - 24);
      c[i] = ldexpf((float)(1024 + (r >> 3 & 1023)), (int)(r >> 13) % 10 - 14);
   }
   float *da, *db, *dc;
   unsigned short *dout;
   __half *dsum;
   CHECK_HIP(hipMalloc(&da, sizeof(a)));
   CHECK_HIP(hipMalloc(&db, sizeof(b)));
   CHECK_HIP(hipMalloc(&dc, sizeof(c)));
   CHECK_HIP(hipMalloc(&dout, N * OPS * 2));
   CHECK_HIP(hipMalloc(&dsum, 2));
   CHECK_HIP(hipMemset(dsum, 0, 2));
   CHECK_HIP(hipMemcpy(da, a, sizeof(a), hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(db, b, sizeof(b), hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(dc, c, sizeof(c), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(half_ops, dim3((N + 127) / 128), dim3(128), 0, 0, da, db, dc, dout, N, dsum);
   CHECK_HIP(hipGetLastError());
   static unsigned short got[N * OPS], want[N * OPS];
   CHECK_HIP(hipMemcpy(got, dout, sizeof(got), hipMemcpyDeviceToHost));
   for (int i = 0; i < N; i++) {
      double x = a[i], y = b[i], z = c[i];
      unsigned short *w = want + i * OPS;
      w[0] = to_half(x + y);   /* exact in double: the exponents are within 53 bits */
      w[1] = to_half(x - y);
      w[2] = to_half(x * y);
      w[3] = to_half(x / y);   /* not exact, but 2^-53 from it: no half tie is that close */
      w[4] = to_half(x * y + z);
      w[5] = to_half(x > y ? x : y);
      w[6] = (unsigned short)((x < y) | (x == y) << 1 | (x >= z) << 2);
      double lo = from_half(to_half(x * z)), hi = from_half(to_half(y * x));
      w[7] = to_half(lo + x);
      w[8] = to_half(hi + y);
   }
   CHECK_ARRAY("half results", got, want, N * OPS, "%#06x");
   unsigned short s;
   CHECK_HIP(hipMemcpy(&s, dsum, 2, hipMemcpyDeviceToHost));
   CHECK_INT(s, to_half(2048.0));   /* 3000 ones: the sum stops where 1 is below half an ulp */
   hipFree(da), hipFree(db), hipFree(dc), hipFree(dout), hipFree(dsum);
   return hc_end();
}
