/*
 * half2.cu — a __half2 kernel (h2exp and __hfma2 over an array, two
 * halves per thread) as a ratio to the same kernel in float (expf and
 * fmaf on two floats per thread).
 *
 * On an NVIDIA GPU the half2 form runs packed f16x2 instructions
 * (ex2.approx.f16x2, fma.rn.f16x2) and is the faster; metalcuda computes
 * each half lane in float and rounds (cuda_fp16.h's operations through
 * float; f16x2 PTX as two lanes in the MSL), so the ratio shows what the
 * packed type costs or saves on the device that runs it.
 *
 * n = 2^16 __half2 (2^17 values), each through `iters` steps of
 * v = fma(exp(v), -1, 0), which stays in [-1, -0.37] from v in [-1, 0];
 * launch + synchronise, 5 repetitions after a warm-up, the two kernels
 * timed alternately; ratio = median half2 time / median float time.  The
 * half2 results are checked against the float ones (within 2^-8: a
 * contracting map, rounded to half at each step).  iters is argv[1]
 * (default 8).
 */
#include "bench.h"

#include <cuda_fp16.h>
#include <math.h>

#define N (1 << 16)
#define THREADS 256

__global__ void k_half2(const __half2 *in, __half2 *out, int iters)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   __half2 v = in[i], m = __float2half2_rn(-1.0f), z = __float2half2_rn(0.0f);
   for (int k = 0; k < iters; k++)
      v = __hfma2(h2exp(v), m, z);
   out[i] = v;
}

__global__ void k_float(const float2 *in, float2 *out, int iters)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   float2 v = in[i];
   for (int k = 0; k < iters; k++) {
      v.x = fmaf(expf(v.x), -1.0f, 0.0f);
      v.y = fmaf(expf(v.y), -1.0f, 0.0f);
   }
   out[i] = v;
}

static double time_half2(const __half2 *in, __half2 *out, int iters)
{
   double t0 = now_s();
   k_half2<<<N / THREADS, THREADS>>>(in, out, iters);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

static double time_float(const float2 *in, float2 *out, int iters)
{
   double t0 = now_s();
   k_float<<<N / THREADS, THREADS>>>(in, out, iters);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

int main(int argc, char **argv)
{
   const int reps = 5, iters = argc > 1 ? atoi(argv[1]) : 8;
   print_device();
   float2 *hf = (float2 *)malloc(N * sizeof(float2));
   __half2 *hh = (__half2 *)malloc(N * sizeof(__half2));
   for (int i = 0; i < N; i++) {
      /* inputs exact in half: -k/1024, k in [0, 1024] */
      float a = -(float)(i % 1025) / 1024.0f, b = -(float)((i * 7) % 1025) / 1024.0f;
      hf[i] = make_float2(a, b);
      hh[i] = __floats2half2_rn(a, b);
   }
   float2 *dfi, *dfo;
   __half2 *dhi, *dho;
   BENCH_CHECK(cudaMalloc(&dfi, N * sizeof(float2)));
   BENCH_CHECK(cudaMalloc(&dfo, N * sizeof(float2)));
   BENCH_CHECK(cudaMalloc(&dhi, N * sizeof(__half2)));
   BENCH_CHECK(cudaMalloc(&dho, N * sizeof(__half2)));
   BENCH_CHECK(cudaMemcpy(dfi, hf, N * sizeof(float2), cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dhi, hh, N * sizeof(__half2), cudaMemcpyHostToDevice));
   time_half2(dhi, dho, iters);   /* warm-up: translation and compilation */
   time_float(dfi, dfo, iters);
   double th[reps], tf[reps];
   for (int r = 0; r < reps; r++) {
      th[r] = time_half2(dhi, dho, iters);
      tf[r] = time_float(dfi, dfo, iters);
   }
   BENCH_CHECK(cudaMemcpy(hf, dfo, N * sizeof(float2), cudaMemcpyDeviceToHost));
   BENCH_CHECK(cudaMemcpy(hh, dho, N * sizeof(__half2), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++) {
      float2 g = __half22float2(hh[i]);
      if (fabsf(g.x - hf[i].x) > 1.0f / 256 || fabsf(g.y - hf[i].y) > 1.0f / 256) {
         fprintf(stderr, "half2.cu: element %d: half2 (%g, %g), float (%g, %g)\n", i, g.x, g.y, hf[i].x, hf[i].y);
         return 1;
      }
   }
   double mh = median(th, reps), mf = median(tf, reps), n = 2.0 * N * iters;
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.3g Gelem-steps/s half2", n / mh * 1e-9);
   snprintf(ref, sizeof(ref), "%.3g Gelem-steps/s float", n / mf * 1e-9);
   row("__half2 h2exp+__hfma2 / float expf+fmaf", v, ref, mh / mf,
       "half2 time / float time, lower is better (a GPU's packed f16x2 makes it < 1)");
   cudaFree(dfi);
   cudaFree(dfo);
   cudaFree(dhi);
   cudaFree(dho);
   free(hf);
   free(hh);
   return 0;
}
