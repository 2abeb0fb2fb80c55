/* math.hip — device math and integer intrinsics in HIP code: sqrtf and
 * divisions correctly rounded (compared bit for bit with the host's), sinf,
 * expf, logf within CUDA's documented bounds (2, 2, 1 ulp against the
 * host's double-precision value), __popc, __clz, __brev, __ffs, __mul24,
 * __umulhi, min/max on mixed types. */
#include "hip_check.h"

#define IW 8

__global__ void fmath(const float *x, float *o, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   float v = x[i];
   o[i * 5 + 0] = sqrtf(fabsf(v));
   o[i * 5 + 1] = 1.0f / (v + 3.0f);
   o[i * 5 + 2] = sinf(v);
   o[i * 5 + 3] = expf(v * 0.05f);
   o[i * 5 + 4] = logf(fabsf(v) + 1.0f);
}

__global__ void imath(const unsigned *x, unsigned *o, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i >= n)
      return;
   unsigned v = x[i], *p = o + i * IW;
   p[0] = __popc(v);
   p[1] = __clz((int)v);
   p[2] = __brev(v);
   p[3] = __ffs((int)v);
   p[4] = (unsigned)__mul24((int)(v & 0xffffff), 7);
   p[5] = __umulhi(v, 0x9e3779b9u);
   p[6] = min(v, 0x80000000u);            /* unsigned compare */
   p[7] = (unsigned)max((int)v, -5);
}

static double ulps(float got, double want)
{
   int e;
   frexp(want, &e);
   return fabs((double)got - want) / ldexp(1.0, e - 24);
}

int main()
{
   hc_begin("math");
   enum { N = 4000 };
   static float x[N], o[N * 5];
   static unsigned u[N], uo[N * IW];
   for (int i = 0; i < N; i++) {
      x[i] = ((float)(int)(hc_mix((uint32_t)i) % 200001) - 100000.0f) / 1000.0f;   /* [-100, 100] */
      u[i] = hc_mix((uint32_t)i * 3u);
   }
   u[0] = 0;
   float *dx, *dout;
   unsigned *du, *duo;
   CHECK_HIP(hipMalloc(&dx, sizeof(x)));
   CHECK_HIP(hipMalloc(&dout, sizeof(o)));
   CHECK_HIP(hipMalloc(&du, sizeof(u)));
   CHECK_HIP(hipMalloc(&duo, sizeof(uo)));
   CHECK_HIP(hipMemcpy(dx, x, sizeof(x), hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(du, u, sizeof(u), hipMemcpyHostToDevice));
   hipLaunchKernelGGL(fmath, dim3((N + 127) / 128), dim3(128), 0, 0, dx, dout, N);
   hipLaunchKernelGGL(imath, dim3((N + 127) / 128), dim3(128), 0, 0, du, duo, N);
   CHECK_HIP(hipGetLastError());
   CHECK_HIP(hipMemcpy(o, dout, sizeof(o), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(uo, duo, sizeof(uo), hipMemcpyDeviceToHost));
   int exact_bad = 0;
   double worst_sin = 0, worst_exp = 0, worst_log = 0;
   for (int i = 0; i < N; i++) {
      float v = x[i];
      exact_bad += o[i * 5 + 0] != sqrtf(fabsf(v));
      exact_bad += o[i * 5 + 1] != 1.0f / (v + 3.0f);
      worst_sin = fmax(worst_sin, ulps(o[i * 5 + 2], sin((double)v)));
      worst_exp = fmax(worst_exp, ulps(o[i * 5 + 3], exp((double)(v * 0.05f))));
      worst_log = fmax(worst_log, ulps(o[i * 5 + 4], log((double)(fabsf(v) + 1.0f))));
   }
   printf("  worst ulp: sinf %.2f, expf %.2f, logf %.2f\n", worst_sin, worst_exp, worst_log);
   CHECK_INT(exact_bad, 0);
   CHECK(worst_sin <= 2.5 && worst_exp <= 2.5 && worst_log <= 1.5);   /* bound + the half ulp of rounding */
   static unsigned want[N * IW];
   for (int i = 0; i < N; i++) {
      unsigned v = u[i], *p = want + i * IW, r = 0;
      for (int b = 0; b < 32; b++)
         r |= (v >> b & 1u) << (31 - b);
      p[0] = (unsigned)__builtin_popcount(v);
      p[1] = v ? (unsigned)__builtin_clz(v) : 32u;
      p[2] = r;
      p[3] = v ? (unsigned)__builtin_ctz(v) + 1 : 0u;
      p[4] = (unsigned)(((int)((v & 0xffffff) ^ 0x800000) - 0x800000) * 7);   /* a 24-bit signed operand */
      p[5] = (unsigned)(((unsigned long long)v * 0x9e3779b9ull) >> 32);
      p[6] = v < 0x80000000u ? v : 0x80000000u;
      p[7] = (unsigned)((int)v > -5 ? (int)v : -5);
   }
   CHECK_ARRAY("integer intrinsics", uo, want, N * IW, "%#x");
   hipFree(dx), hipFree(dout), hipFree(du), hipFree(duo);
   return hc_end();
}
