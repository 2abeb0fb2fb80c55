/* atomics.hip — a histogram with atomicAdd, and every atomic HIP has on
 * one word from all threads: atomicAdd (int, unsigned long long, float with
 * exact sums, double), atomicSub, atomicMin/Max (signed and unsigned),
 * atomicAnd/Or/Xor, atomicInc/Dec, atomicExch and an atomicCAS counter;
 * the host computes each result. */
#include "hip_check.h"

__global__ void histogram(const unsigned *in, int n, unsigned *bins)
{
   for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
      atomicAdd(&bins[in[i] % 64], 1u);
}

__global__ void all_atomics(const unsigned *in, int *w, unsigned *u, unsigned long long *ull, float *f, double *d)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned v = in[i];
   atomicAdd(&w[0], (int)(v % 1000) - 500);
   atomicSub(&w[1], (int)(v % 7));
   atomicMin(&w[2], (int)v);
   atomicMax(&w[3], (int)v);
   atomicMin(&u[0], v);
   atomicMax(&u[1], v);
   atomicAnd(&u[2], v | 0x0f0f0f0fu);
   atomicOr(&u[3], v & 0x80402010u);
   atomicXor(&u[4], v);
   atomicInc(&u[5], 100u);
   atomicDec(&u[6], 37u);
   atomicExch(&u[7], 12345u);
   atomicAdd(&ull[0], (unsigned long long)v << 20);
   unsigned old = u[8], seen;
   while ((seen = atomicCAS(&u[8], old, old + 3u)) != old)
      old = seen;
   atomicAdd(&f[0], (float)(v % 64) * 0.5f);   /* halves: every partial sum exact */
   atomicAdd(&d[0], (double)(v % 1024) * 0.125);
}

int main()
{
   hc_begin("atomics");
   enum { N = 4096, H = 100000 };
   unsigned *h = (unsigned *)malloc(H * 4);
   for (int i = 0; i < H; i++)
      h[i] = hc_mix((uint32_t)i * 5u + 1u);
   unsigned *din, *dbins;
   CHECK_HIP(hipMalloc(&din, H * 4));
   CHECK_HIP(hipMalloc(&dbins, 64 * 4));
   CHECK_HIP(hipMemcpy(din, h, H * 4, hipMemcpyHostToDevice));
   CHECK_HIP(hipMemset(dbins, 0, 64 * 4));
   hipLaunchKernelGGL(histogram, dim3(32), dim3(128), 0, 0, din, H, dbins);
   unsigned bins[64], wbins[64] = { 0 };
   CHECK_HIP(hipMemcpy(bins, dbins, sizeof(bins), hipMemcpyDeviceToHost));
   for (int i = 0; i < H; i++)
      wbins[h[i] % 64]++;
   CHECK_ARRAY("histogram", bins, wbins, 64, "%u");

   int w[4] = { 0, 0, 0x7fffffff, (int)0x80000000 };
   unsigned u[9] = { 0xffffffffu, 0, 0xffffffffu, 0, 0, 0, 0, 0, 0 };
   unsigned long long ull = 0;
   float f = 0;
   double d = 0;
   int *dw;
   unsigned *du;
   unsigned long long *dull;
   float *df;
   double *dd;
   CHECK_HIP(hipMalloc(&dw, sizeof(w)));
   CHECK_HIP(hipMalloc(&du, sizeof(u)));
   CHECK_HIP(hipMalloc(&dull, 8));
   CHECK_HIP(hipMalloc(&df, 4));
   CHECK_HIP(hipMalloc(&dd, 8));
   CHECK_HIP(hipMemcpy(dw, w, sizeof(w), hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(du, u, sizeof(u), hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(dull, &ull, 8, hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(df, &f, 4, hipMemcpyHostToDevice));
   CHECK_HIP(hipMemcpy(dd, &d, 8, hipMemcpyHostToDevice));
   hipLaunchKernelGGL(all_atomics, dim3(N / 256), dim3(256), 0, 0, din, dw, du, dull, df, dd);
   CHECK_HIP(hipGetLastError());
   int gw[4];
   unsigned gu[9];
   CHECK_HIP(hipMemcpy(gw, dw, sizeof(gw), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(gu, du, sizeof(gu), hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(&ull, dull, 8, hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(&f, df, 4, hipMemcpyDeviceToHost));
   CHECK_HIP(hipMemcpy(&d, dd, 8, hipMemcpyDeviceToHost));
   /* host reference: the order-independent results */
   long long sum = 0, sub = 0;
   int mn = 0x7fffffff, mx = (int)0x80000000;
   unsigned umn = 0xffffffffu, umx = 0, a = 0xffffffffu, o = 0, x = 0;
   unsigned long long usum = 0;
   double fs = 0, ds = 0;
   for (int i = 0; i < N; i++) {
      unsigned v = h[i];
      sum += (int)(v % 1000) - 500;
      sub -= (int)(v % 7);
      mn = (int)v < mn ? (int)v : mn;
      mx = (int)v > mx ? (int)v : mx;
      umn = v < umn ? v : umn;
      umx = v > umx ? v : umx;
      a &= v | 0x0f0f0f0fu;
      o |= v & 0x80402010u;
      x ^= v;
      usum += (unsigned long long)v << 20;
      fs += (double)(v % 64) * 0.5;
      ds += (double)(v % 1024) * 0.125;
   }
   CHECK_INT(gw[0], sum);
   CHECK_INT(gw[1], sub);
   CHECK_INT(gw[2], mn);
   CHECK_INT(gw[3], mx);
   CHECK_INT(gu[0], umn);
   CHECK_INT(gu[1], umx);
   CHECK_INT(gu[2], a);
   CHECK_INT(gu[3], o);
   CHECK_INT(gu[4], x);
   CHECK_INT(gu[5], N % 101);                 /* inc wraps past 100 */
   unsigned dec = 0;                          /* dec: 0 or above the bound wraps to it */
   for (int i = 0; i < N; i++)
      dec = (dec == 0 || dec > 37) ? 37 : dec - 1;
   CHECK_INT(gu[6], dec);
   CHECK_INT(gu[7], 12345);
   CHECK_INT(gu[8], 3u * N);
   CHECK(ull == usum);
   CHECK((double)f == fs);
   CHECK(d == ds);
   hipFree(din), hipFree(dbins), hipFree(dw), hipFree(du), hipFree(dull), hipFree(df), hipFree(dd);
   free(h);
   return hc_end();
}
