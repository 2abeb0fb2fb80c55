/*
 * f64stencil.cu — a double-precision stencil in the manner of LULESH's
 * element loops, through metalcuda against the same loop in serial C.
 *
 * Each interior point of an N^3 grid (N = 128, argv[1]) reads its six
 * neighbours in two fields (energy e, pressure p) and computes a new
 * energy: a Laplacian, a viscosity-like term with a division, a sound
 * speed with a square root, 30-odd double operations per point (about
 * the mix of LULESH's CalcEnergyForElems and CalcSoundSpeedForElems).
 * The kernel runs one thread per point (blocks of 32x4x2); the reference
 * is the same function in a triple loop compiled by the host compiler
 * (nvcc -O2: gcc -O2, one core).  Per repetition (5, after a warm-up)
 * the kernel (launch + synchronise) and the C loop are timed alternately;
 * ratio = median kernel time / median C time.  The kernel's result is
 * checked against the C loop's to a relative 1e-12 (nvcc contracts the
 * device code into fmas, the host code is not contracted).
 *
 * On the software device every .f64 operation used to be integer code
 * (src/compiler/msl/prelude/f64.metal); with the host's double arithmetic
 * (metal_stdlib's __mc_f64_*) it is one instruction plus NVIDIA's NaN
 * rule.  METALCUDA_THREADS=1 gives the kernel the one core the C loop has.
 */
#include "bench.h"

#include <math.h>

__host__ __device__ static inline double point(const double *e, const double *p, long i, long nx, long nxy)
{
   double c = e[i];
   double lap = e[i - 1] + e[i + 1] + e[i - nx] + e[i + nx] + e[i - nxy] + e[i + nxy] - 6.0 * c;
   double pc = p[i];
   double dp = (p[i + 1] - p[i - 1]) * (p[i + nx] - p[i - nx]) + (p[i + nxy] - p[i - nxy]) * 0.25;
   double q = 0.5 * lap * lap / (1.0 + lap * lap + dp * dp);
   double ss = sqrt(pc * pc * 0.4 + c * 1.0e-3 + 1.0e-9);
   return c + 0.125 * lap - 0.0625 * q + 1.0e-3 * ss * pc;
}

__global__ void stencil(const double *e, const double *p, double *out, int n)
{
   int x = blockIdx.x * blockDim.x + threadIdx.x + 1;
   int y = blockIdx.y * blockDim.y + threadIdx.y + 1;
   int z = blockIdx.z * blockDim.z + threadIdx.z + 1;
   if (x >= n - 1 || y >= n - 1 || z >= n - 1)
      return;
   long nx = n, nxy = (long)n * n;
   long i = z * nxy + y * nx + x;
   out[i] = point(e, p, i, nx, nxy);
}

static void stencil_c(const double *e, const double *p, double *out, int n)
{
   long nx = n, nxy = (long)n * n;
   for (int z = 1; z < n - 1; z++)
      for (int y = 1; y < n - 1; y++)
         for (int x = 1; x < n - 1; x++) {
            long i = z * nxy + y * nx + x;
            out[i] = point(e, p, i, nx, nxy);
         }
}

int main(int argc, char **argv)
{
   const int reps = 5, n = argc > 1 ? atoi(argv[1]) : 128;
   if (n < 3 || n > 1024) {
      fprintf(stderr, "f64stencil.cu: the grid side must be 3..1024\n");
      return 2;
   }
   print_device();
   size_t cnt = (size_t)n * n * n, bytes = cnt * sizeof(double);
   double *e = (double *)malloc(bytes), *p = (double *)malloc(bytes), *ref = (double *)calloc(cnt, 8),
          *got = (double *)calloc(cnt, 8);
   if (!e || !p || !ref || !got) {
      fprintf(stderr, "f64stencil.cu: out of memory\n");
      return 1;
   }
   for (size_t i = 0; i < cnt; i++) {
      e[i] = 1.0 + (double)(i % 1013) * 1.0e-3;
      p[i] = 0.5 + (double)(i % 877) * 2.0e-3;
   }
   double *de, *dp, *dout;
   BENCH_CHECK(cudaMalloc(&de, bytes));
   BENCH_CHECK(cudaMalloc(&dp, bytes));
   BENCH_CHECK(cudaMalloc(&dout, bytes));
   BENCH_CHECK(cudaMemcpy(de, e, bytes, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dp, p, bytes, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemset(dout, 0, bytes));
   dim3 block(32, 4, 2), grid((n - 2 + 31) / 32, (n - 2 + 3) / 4, (n - 2 + 1) / 2);
   double tk[reps], tc[reps];
   for (int r = -1; r < reps; r++) {   /* r = -1: the warm-up (translation, compilation, page faults) */
      double t0 = now_s();
      stencil<<<grid, block>>>(de, dp, dout, n);
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaDeviceSynchronize());
      double t1 = now_s();
      stencil_c(e, p, ref, n);
      clobber(ref);
      double t2 = now_s();
      if (r >= 0) {
         tk[r] = t1 - t0;
         tc[r] = t2 - t1;
      }
   }
   BENCH_CHECK(cudaMemcpy(got, dout, bytes, cudaMemcpyDeviceToHost));
   for (size_t i = 0; i < cnt; i++)
      if (!(fabs(got[i] - ref[i]) <= 1.0e-12 * fabs(ref[i]))) {
         fprintf(stderr, "f64stencil.cu: point %zu: got %.17g, the C loop %.17g\n", i, got[i], ref[i]);
         return 1;
      }
   double mk = median(tk, reps), mc = median(tc, reps);
   double pts = (double)(n - 2) * (n - 2) * (n - 2);
   char v[64], r[64];
   snprintf(v, sizeof(v), "%.3g Mpoint/s", pts / mk * 1e-6);
   snprintf(r, sizeof(r), "%.3g Mpoint/s serial C", pts / mc * 1e-6);
   row("f64 stencil (LULESH-like), kernel / serial C", v, r, mk / mc,
       "kernel time / the same loop in serial C. Lower is better (issue 19: <= 1.5 on one core)");
   cudaFree(de);
   cudaFree(dp);
   cudaFree(dout);
   free(e);
   free(p);
   free(ref);
   free(got);
   return 0;
}
