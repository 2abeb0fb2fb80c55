// nvcc-flags: -arch=sm_80
/*
 * wmma.cu — integer and f64 GEMMs on the tensor cores through nvcuda::wmma,
 * each as a ratio to the same GEMM in plain arithmetic:
 *
 *   s8    wmma 16x16x16 tiles (signed char in, int accumulate), one warp a
 *         tile of C = A * B (128 x 128 x 128, A row-major, B column-major);
 *         reference: the same tiles in plain int multiply-adds, each lane
 *         the eight elements its accumulator fragment holds
 *   f64   wmma 8x8x4 tiles (double) of the same GEMM; reference: plain
 *         fma, each lane its two elements
 *
 * metalcuda runs wmma as mma.sync operations of its own fragment layout
 * (src/compiler/ir/build_mma.c): SIMD-group shuffles of the fragments and
 * the exact integer sum (s8) or the fma chain the H200 computes (f64,
 * src/compiler/msl/prelude/mma.metal), so the ratio is the price of
 * the tensor-core semantics without tensor cores.  Results are checked
 * against the host (s8: exact; f64: small integers, exact).  Per
 * repetition (5, after a warm-up) the two kernels of a row run alternately
 * (launch + synchronise); ratio = median wmma time / median plain time.
 */
#include "bench.h"

#include <mma.h>

using namespace nvcuda;

#define DIM 128

__global__ void s8_wmma(const signed char *A, const signed char *B, int *C)
{
   int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
   int tr = (warp / (DIM / 16)) * 16, tc = (warp % (DIM / 16)) * 16;
   wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
   wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
   wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
   wmma::fill_fragment(acc, 0);
   for (int k = 0; k < DIM; k += 16) {
      wmma::load_matrix_sync(fa, A + tr * DIM + k, DIM);
      wmma::load_matrix_sync(fb, B + tc * DIM + k, DIM);
      wmma::mma_sync(acc, fa, fb, acc);
   }
   wmma::store_matrix_sync(C + tr * DIM + tc, acc, DIM, wmma::mem_row_major);
}

__global__ void s8_plain(const signed char *A, const signed char *B, int *C)
{
   int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
   int tr = (warp / (DIM / 16)) * 16, tc = (warp % (DIM / 16)) * 16, g = lane / 4, t = lane % 4;
   int d[8] = { 0, 0, 0, 0, 0, 0, 0, 0 };
   for (int k = 0; k < DIM; k++) {
      int a0 = A[(tr + g) * DIM + k], a1 = A[(tr + g + 8) * DIM + k];
      for (int j = 0; j < 4; j++) {
         int b = B[(tc + 2 * t + (j & 1) + 8 * (j >> 1)) * DIM + k];
         d[j] += a0 * b;
         d[4 + j] += a1 * b;
      }
   }
   for (int j = 0; j < 4; j++) {
      int c = tc + 2 * t + (j & 1) + 8 * (j >> 1);
      C[(tr + g) * DIM + c] = d[j];
      C[(tr + g + 8) * DIM + c] = d[4 + j];
   }
}

__global__ void f64_wmma(const double *A, const double *B, double *C)
{
   int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
   int tr = (warp / (DIM / 8)) * 8, tc = (warp % (DIM / 8)) * 8;
   wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
   wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
   wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
   wmma::fill_fragment(acc, 0.0);
   for (int k = 0; k < DIM; k += 4) {
      wmma::load_matrix_sync(fa, A + tr * DIM + k, DIM);
      wmma::load_matrix_sync(fb, B + tc * DIM + k, DIM);
      wmma::mma_sync(acc, fa, fb, acc);
   }
   wmma::store_matrix_sync(C + tr * DIM + tc, acc, DIM, wmma::mem_row_major);
}

__global__ void f64_plain(const double *A, const double *B, double *C)
{
   int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
   int tr = (warp / (DIM / 8)) * 8, tc = (warp % (DIM / 8)) * 8, g = lane / 4, t = lane % 4;
   double d0 = 0.0, d1 = 0.0;
   for (int k = 0; k < DIM; k++) {
      double a = A[(tr + g) * DIM + k];
      d0 = fma(a, B[(tc + 2 * t) * DIM + k], d0);
      d1 = fma(a, B[(tc + 2 * t + 1) * DIM + k], d1);
   }
   C[(tr + g) * DIM + tc + 2 * t] = d0;
   C[(tr + g) * DIM + tc + 2 * t + 1] = d1;
}

/* launch + synchronise one kernel of warps warps */
template <class K, class... Args> static double run(int warps, K kern, Args... args)
{
   double t0 = now_s();
   kern<<<warps * 32 / 128, 128>>>(args...);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

/* the two kernels' results against the host's (want, bytes each) */
static bool same(const void *dC, const void *want, size_t bytes, const char *what)
{
   void *got = malloc(bytes);
   BENCH_CHECK(cudaMemcpy(got, dC, bytes, cudaMemcpyDeviceToHost));
   bool ok = memcmp(got, want, bytes) == 0;
   if (!ok)
      fprintf(stderr, "wmma.cu: the %s GEMM differs from the host's\n", what);
   free(got);
   return ok;
}

int main(void)
{
   const int reps = 5, n = DIM * DIM;
   print_device();
   signed char *hA = (signed char *)malloc(n), *hB = (signed char *)malloc(n);
   double *fA = (double *)malloc(n * 8), *fB = (double *)malloc(n * 8);
   int *wi = (int *)malloc(n * 4);
   double *wf = (double *)malloc(n * 8);
   for (int i = 0; i < n; i++) {
      hA[i] = (signed char)((i * 37 + 11) % 255 - 127);
      hB[i] = (signed char)((i * 53 + 5) % 255 - 127);   /* column-major: B(k, c) at c * DIM + k */
      fA[i] = (double)((i * 7 + 3) % 9) - 4.0;
      fB[i] = (double)((i * 5 + 1) % 7) - 3.0;
   }
   for (int r = 0; r < DIM; r++)
      for (int c = 0; c < DIM; c++) {
         int s = 0;
         double f = 0.0;   /* exact: small integers */
         for (int k = 0; k < DIM; k++) {
            s += hA[r * DIM + k] * hB[c * DIM + k];
            f += fA[r * DIM + k] * fB[c * DIM + k];
         }
         wi[r * DIM + c] = s;
         wf[r * DIM + c] = f;
      }
   signed char *dA, *dB;
   double *dfA, *dfB, *dfC;
   int *dC;
   BENCH_CHECK(cudaMalloc(&dA, n));
   BENCH_CHECK(cudaMalloc(&dB, n));
   BENCH_CHECK(cudaMalloc(&dC, n * 4));
   BENCH_CHECK(cudaMalloc(&dfA, n * 8));
   BENCH_CHECK(cudaMalloc(&dfB, n * 8));
   BENCH_CHECK(cudaMalloc(&dfC, n * 8));
   BENCH_CHECK(cudaMemcpy(dA, hA, n, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dB, hB, n, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dfA, fA, n * 8, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dfB, fB, n * 8, cudaMemcpyHostToDevice));
   const int w16 = (DIM / 16) * (DIM / 16), w8 = (DIM / 8) * (DIM / 8);
   /* warm-up (translation, compilation) and the checks */
   run(w16, s8_wmma, dA, dB, dC);
   if (!same(dC, wi, n * 4, "s8 wmma"))
      return 1;
   run(w16, s8_plain, dA, dB, dC);
   if (!same(dC, wi, n * 4, "s8 plain"))
      return 1;
   run(w8, f64_wmma, dfA, dfB, dfC);
   if (!same(dfC, wf, n * 8, "f64 wmma"))
      return 1;
   run(w8, f64_plain, dfA, dfB, dfC);
   if (!same(dfC, wf, n * 8, "f64 plain"))
      return 1;
   double ts[reps], tsp[reps], tf[reps], tfp[reps];
   for (int r = 0; r < reps; r++) {
      ts[r] = run(w16, s8_wmma, dA, dB, dC);
      tsp[r] = run(w16, s8_plain, dA, dB, dC);
      tf[r] = run(w8, f64_wmma, dfA, dfB, dfC);
      tfp[r] = run(w8, f64_plain, dfA, dfB, dfC);
   }
   double ops = 2.0 * DIM * DIM * DIM, ms = median(ts, reps), msp = median(tsp, reps);
   double mf = median(tf, reps), mfp = median(tfp, reps);
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.3g GOP/s wmma", ops / ms * 1e-9);
   snprintf(ref, sizeof(ref), "%.3g GOP/s plain int", ops / msp * 1e-9);
   row("GEMM 128^3 s8: wmma 16x16x16 / plain int", v, ref, ms / msp,
       "wmma time / plain time: the price of the tensor-core fragments without tensor cores. Lower is better");
   snprintf(v, sizeof(v), "%.3g GFLOP/s wmma", ops / mf * 1e-9);
   snprintf(ref, sizeof(ref), "%.3g GFLOP/s plain fma", ops / mfp * 1e-9);
   row("GEMM 128^3 f64: wmma 8x8x4 / plain fma", v, ref, mf / mfp,
       "wmma time / plain time. Lower is better");
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   cudaFree(dfA);
   cudaFree(dfB);
   cudaFree(dfC);
   free(hA);
   free(hB);
   free(fA);
   free(fB);
   free(wi);
   free(wf);
   return 0;
}
