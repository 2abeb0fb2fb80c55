// Half, bfloat16 and fp8 arithmetic and conversions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#if __CUDA_ARCH__ >= 890 || !defined(__CUDA_ARCH__)
#include <cuda_fp8.h>
#endif

__global__ void halfk(__half *h, __half2 *h2, __nv_bfloat16 *bf, __nv_bfloat162 *bf2, float *f)
{
   int i = threadIdx.x;
   __half a = h[i], b = h[i + 1];
   __half r = __hadd(a, b) + __hmul(a, b) - __hsub(a, b) + __hdiv(a, b);
   r = __hfma(a, b, r);
   r = __hmax(r, a) + __hmin(a, b) + __hneg(r) + __habs(b) + hsqrt(a) + hexp(b) + hsin(a);
   __half2 p = __hadd2(h2[i], h2[i + 1]);
   p = __hfma2(p, h2[i], __hmul2(p, p));
   p = __hmax2(p, h2[i]);
   p = __hmul2_sat(p, __floats2half2_rn(1.f, 2.f));
   __nv_bfloat16 c = __hadd(bf[i], bf[i + 1]);
   c = __hfma(c, bf[i], __hmul(c, c));
   __nv_bfloat162 q = __hmul2(bf2[i], bf2[i + 1]);
   q = __hfma2(q, q, bf2[i]);
   f[i] = __half2float(r) + __low2float(p) + __high2float(p) + __bfloat162float(c) +
          __low2float(q) + (float)__float2half_rz(f[i]) + __bfloat162float(__float2bfloat16_rn(f[i]));
   h[i] = __float2half_rn(f[i] * 2.f) + __int2half_rn(i) + __ushort2half_rd((unsigned short)i);
   bf[i] = __float2bfloat16(f[i]) + __int2bfloat16_rz(i);
   h2[i] = __float22half2_rn(make_float2(f[i], f[i + 1]));
   bf2[i] = __floats2bfloat162_rn(f[i], -f[i]);
   if (__hisnan(a) || __hisinf(b) || __hbeq2(p, p) || __hlt(a, b))
      f[0] = 0;
#if __CUDA_ARCH__ >= 890
   __nv_fp8_e4m3 e(f[i]);
   __nv_fp8_e5m2 e5(f[i + 1]);
   __nv_fp8x2_e4m3 e2(make_float2(f[i], f[i + 2]));
   f[i] += float(e) + float(e5) + float(__half(e)) + float2(e2).x;
#endif
}
