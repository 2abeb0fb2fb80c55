/*
 * sfu.cu — CUDA's fast-math intrinsics (__expf, __logf, rsqrtf: the PTX
 * ex2.approx, lg2.approx and rsqrt.approx that BlackScholes-style kernels
 * are made of) as a ratio to the same kernel with the accurate functions
 * (expf, logf, 1 / sqrtf).
 *
 * On an NVIDIA GPU the intrinsics are one special-function-unit
 * instruction each and the faster; metalcuda computes them bit for bit as
 * an H200's unit does (src/compiler/msl/prelude/sfu.metal: a table of
 * quadratics and a truncated square), so the ratio shows what that
 * exactness costs on the device that runs it.
 *
 * n = 2^20 floats in [1, 2), each through `iters` steps of
 * v = exp(log(v) * 0.75) + 1 / sqrt(v) * 0.25 (stays in [1, 2)); launch +
 * synchronise, 5 repetitions after a warm-up, the two kernels timed
 * alternately; ratio = median intrinsic time / median accurate time.  The
 * results are checked against each other (within 1e-4 relative).  iters is
 * argv[1] (default 16).
 */
#include "bench.h"

#include <math.h>

#define N (1 << 20)
#define THREADS 256

__global__ void k_fast(const float *in, float *out, int iters)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   float v = in[i];
   for (int k = 0; k < iters; k++)
      v = __expf(__logf(v) * 0.75f) + rsqrtf(v) * 0.25f;
   out[i] = v;
}

__global__ void k_accurate(const float *in, float *out, int iters)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   float v = in[i];
   for (int k = 0; k < iters; k++)
      v = expf(logf(v) * 0.75f) + 1.0f / sqrtf(v) * 0.25f;
   out[i] = v;
}

static double time_kernel(bool fast, const float *in, float *out, int iters)
{
   double t0 = now_s();
   if (fast)
      k_fast<<<N / THREADS, THREADS>>>(in, out, iters);
   else
      k_accurate<<<N / THREADS, THREADS>>>(in, out, iters);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

int main(int argc, char **argv)
{
   const int reps = 5, iters = argc > 1 ? atoi(argv[1]) : 16;
   print_device();
   float *h = (float *)malloc(N * sizeof(float)), *hf = (float *)malloc(N * sizeof(float));
   for (int i = 0; i < N; i++)
      h[i] = 1.0f + (float)(i % 8191) / 8192.0f;
   float *din, *dfast, *dacc;
   BENCH_CHECK(cudaMalloc(&din, N * sizeof(float)));
   BENCH_CHECK(cudaMalloc(&dfast, N * sizeof(float)));
   BENCH_CHECK(cudaMalloc(&dacc, N * sizeof(float)));
   BENCH_CHECK(cudaMemcpy(din, h, N * sizeof(float), cudaMemcpyHostToDevice));
   time_kernel(true, din, dfast, iters);   /* warm-up: translation and compilation */
   time_kernel(false, din, dacc, iters);
   double tf[reps], ta[reps];
   for (int r = 0; r < reps; r++) {
      tf[r] = time_kernel(true, din, dfast, iters);
      ta[r] = time_kernel(false, din, dacc, iters);
   }
   BENCH_CHECK(cudaMemcpy(hf, dfast, N * sizeof(float), cudaMemcpyDeviceToHost));
   BENCH_CHECK(cudaMemcpy(h, dacc, N * sizeof(float), cudaMemcpyDeviceToHost));
   for (int i = 0; i < N; i++)
      if (!(fabsf(hf[i] - h[i]) <= 1e-4f * fabsf(h[i]))) {
         fprintf(stderr, "sfu.cu: element %d: intrinsics %.9g, accurate %.9g\n", i, hf[i], h[i]);
         return 1;
      }
   double mf = median(tf, reps), ma = median(ta, reps), n = (double)N * iters;
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.3g Gelem-steps/s intrinsics", n / mf * 1e-9);
   snprintf(ref, sizeof(ref), "%.3g Gelem-steps/s accurate", n / ma * 1e-9);
   row("__expf/__logf/rsqrtf / expf/logf/1/sqrtf", v, ref, mf / ma,
       "intrinsic time / accurate time, lower is better (a GPU's special-function unit makes it < 1)");
   cudaFree(din);
   cudaFree(dfast);
   cudaFree(dacc);
   free(h);
   free(hf);
   return 0;
}
