/*
 * fp_accum.cu — float accumulators carried round a loop (dot products,
 * GEMM tiles, reductions' partial sums): the kernel against the same
 * arithmetic in a plain host loop on as many threads as the machine has
 * cores (the software device's worker pool).
 *
 * What it measures on metalcuda: an NVIDIA GPU's f32 arithmetic gives one
 * canonical NaN, a CPU's does not, so metalcuda makes the bits of a float
 * result right wherever they can be seen (src/compiler/msl/nan_loose.c).
 * Since the accumulator's bits are seen only where it is stored, that
 * costs one compare and select per thread, not one per step; before, each
 * step's fma result going round the loop was canonicalised (a compare and
 * a select in the loop-carried chain).
 *
 * Each thread runs 4 independent chains acc = fma(a, acc, b) of `iters`
 * steps (a latency-bound loop) and stores the 4 results directly; 256
 * blocks of 256 threads.  Launch + synchronise, median of 5 after a
 * warm-up, alternated with the host loop (std::thread, one share of the
 * threads each, the CPU's fma instruction).  Every result is checked bit for
 * bit against the host's.  iters is argv[1] (default 2000).
 */
#include "bench.h"

#include <math.h>
#include <thread>
#include <vector>

#define BLOCKS 256
#define THREADS 256
#define CHAINS 4

__host__ __device__ static inline float coef(int t, int k)
{
   return 0.5f + (float)((t * CHAINS + k) % 61) * 0.0078125f;
}

/* Thread t's chains (the same code on host and device).  On the host the
 * CPU's own fma instruction where it has one (nvcc's host compiler is not
 * told the CPU, and libm's fmaf is a call): the reference is what a C
 * programmer gets with the same chains. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__CUDA_ARCH__)
__attribute__((target("fma")))
#endif
__host__ __device__ static inline void chains(int t, int iters, float *out)
{
   float acc[CHAINS], a[CHAINS];
   for (int k = 0; k < CHAINS; k++) {
      a[k] = coef(t, k);
      acc[k] = 0.0f;
   }
   for (int i = 0; i < iters; i++)
      for (int k = 0; k < CHAINS; k++)
         acc[k] = fmaf(a[k], acc[k], 0.25f);
   for (int k = 0; k < CHAINS; k++)
      out[t * CHAINS + k] = acc[k];
}

__global__ void accum(int iters, float *out)
{
   chains(blockIdx.x * blockDim.x + threadIdx.x, iters, out);
}

static void host_range(int iters, float *out, int t0, int t1)
{
   for (int t = t0; t < t1; t++)
      chains(t, iters, out);
}

static void host_all(int iters, float *out, int nthreads)
{
   const int n = BLOCKS * THREADS;
   std::vector<std::thread> pool;
   for (int w = 0; w < nthreads; w++)
      pool.emplace_back(host_range, iters, out, (int)((long)n * w / nthreads), (int)((long)n * (w + 1) / nthreads));
   for (auto &p : pool)
      p.join();
}

int main(int argc, char **argv)
{
   int iters = argc > 1 ? atoi(argv[1]) : 2000;
   int ncpu = (int)std::thread::hardware_concurrency();
   if (ncpu < 1)
      ncpu = 1;
   const size_t n = (size_t)BLOCKS * THREADS * CHAINS;
   std::vector<float> want(n), got(n);
   float *d;
   BENCH_CHECK(cudaMalloc(&d, n * sizeof(float)));
   accum<<<BLOCKS, THREADS>>>(10, d);   /* warm-up: translation, first launch */
   BENCH_CHECK(cudaDeviceSynchronize());
   host_all(10, want.data(), ncpu);
   enum { REPS = 5 };
   double td[REPS], th[REPS];
   for (int r = 0; r < REPS; r++) {
      double t = now_s();
      accum<<<BLOCKS, THREADS>>>(iters, d);
      BENCH_CHECK(cudaDeviceSynchronize());
      td[r] = now_s() - t;
      t = now_s();
      host_all(iters, want.data(), ncpu);
      th[r] = now_s() - t;
   }
   BENCH_CHECK(cudaMemcpy(got.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
   size_t bad = 0;
   for (size_t i = 0; i < n; i++)
      bad += memcmp(&got[i], &want[i], sizeof(float)) != 0;
   if (bad) {
      printf("ROW float accumulators vs host loop|FAIL|%zu of %zu results differ from the host's|0|\n", bad, n);
      return 1;
   }
   double dev = median(td, REPS), host = median(th, REPS);
   char v[64], ref[96];
   snprintf(v, sizeof(v), "%.1f ms", dev * 1e3);
   snprintf(ref, sizeof(ref), "host loop %d threads %.1f ms", ncpu, host * 1e3);
   row("float accumulators (4 fma chains, 2000 steps) vs host loop", v, ref, dev / host,
       "kernel time / host time, lower is better");
   cudaFree(d);
   return 0;
}
