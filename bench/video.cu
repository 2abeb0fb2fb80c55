/*
 * video.cu — the SIMD video intrinsics nvcc writes as PTX video
 * instructions (__vabsdiffu4: vabsdiff4; __vsadu4: vabsdiff4.add) against
 * the same arithmetic written as plain integer code.  metalcuda runs each
 * video instruction through one prelude helper (video.metal: selectors,
 * lane loop, saturation, merge or accumulate) with a constant control word
 * the Metal compiler folds; the plain code is whatever nvcc made of the
 * byte loops.
 *
 * Per repetition (7, after a warm-up): 256 blocks of 256 threads, each
 * running a dependent chain of K steps (a sum of absolute byte
 * differences and a byte-wise absolute difference per step, the
 * operands updated from both); launch + synchronise.  Ratio: video time /
 * plain time, from medians.  K is argv[1] (default 256).  Both kernels'
 * results are checked against the host's.
 */
#include "bench.h"

#define BLOCKS 256
#define THREADS 256
#define N (BLOCKS * THREADS)

static __host__ __device__ unsigned plain_absdiffu4(unsigned x, unsigned y)
{
   unsigned d = 0;
   for (int k = 0; k < 32; k += 8) {
      unsigned p = (x >> k) & 0xffu, q = (y >> k) & 0xffu;
      d |= (p > q ? p - q : q - p) << k;
   }
   return d;
}

static __host__ __device__ unsigned plain_sadu4(unsigned x, unsigned y)
{
   unsigned s = 0;
   for (int k = 0; k < 32; k += 8) {
      unsigned p = (x >> k) & 0xffu, q = (y >> k) & 0xffu;
      s += p > q ? p - q : q - p;
   }
   return s;
}

template <bool VIDEO> static __host__ __device__ unsigned chain(unsigned x, unsigned y, int k)
{
   unsigned acc = 0;
   for (int r = 0; r < k; r++) {
#ifdef __CUDA_ARCH__
      unsigned d = VIDEO ? __vabsdiffu4(x, y) : plain_absdiffu4(x, y);
      acc += VIDEO ? __vsadu4(x, y) : plain_sadu4(x, y);
#else
      unsigned d = plain_absdiffu4(x, y);
      acc += plain_sadu4(x, y);
#endif
      x = d + acc;
      y = y * 1664525u + 1013904223u;
   }
   return acc ^ x;
}

template <bool VIDEO> __global__ void sad_kernel(const unsigned *a, const unsigned *b, unsigned *out, int k)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   out[i] = chain<VIDEO>(a[i], b[i], k);
}

template <bool VIDEO> static double run(const unsigned *a, const unsigned *b, unsigned *out, int k)
{
   BENCH_CHECK(cudaDeviceSynchronize());
   double t0 = now_s();
   sad_kernel<VIDEO><<<BLOCKS, THREADS>>>(a, b, out, k);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

static int check(const unsigned *d, const unsigned *a, const unsigned *b, int k, const char *what)
{
   unsigned *h = (unsigned *)malloc(N * sizeof(unsigned));
   BENCH_CHECK(cudaMemcpy(h, d, N * sizeof(unsigned), cudaMemcpyDeviceToHost));
   int bad = 0;
   for (int i = 0; i < N && !bad; i++)
      if (h[i] != chain<false>(a[i], b[i], k)) {
         fprintf(stderr, "video.cu: %s result %d is %#x, expected %#x\n", what, i, h[i], chain<false>(a[i], b[i], k));
         bad = 1;
      }
   free(h);
   return bad;
}

int main(int argc, char **argv)
{
   const int reps = 7, K = argc > 1 ? atoi(argv[1]) : 256;
   print_device();
   static unsigned a[N], b[N];
   for (int i = 0; i < N; i++) {
      a[i] = (unsigned)i * 2654435761u;
      b[i] = ((unsigned)i ^ 0x5bd1e995u) * 2246822519u;
   }
   unsigned *da, *db, *dv, *dp;
   BENCH_CHECK(cudaMalloc(&da, sizeof(a)));
   BENCH_CHECK(cudaMalloc(&db, sizeof(b)));
   BENCH_CHECK(cudaMalloc(&dv, sizeof(a)));
   BENCH_CHECK(cudaMalloc(&dp, sizeof(a)));
   BENCH_CHECK(cudaMemcpy(da, a, sizeof(a), cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice));
   run<true>(da, db, dv, K);   /* warm-up: translation, compilation */
   run<false>(da, db, dp, K);
   double tv[reps], tp[reps];
   for (int r = 0; r < reps; r++) {
      tv[r] = run<true>(da, db, dv, K);
      tp[r] = run<false>(da, db, dp, K);
   }
   if (check(dv, a, b, K, "video") || check(dp, a, b, K, "plain"))
      return 1;
   double v = median(tv, reps), p = median(tp, reps), n = (double)N * K;
   char val[64], ref[64];
   snprintf(val, sizeof(val), "%.2f ns per step", v / n * 1e9);
   snprintf(ref, sizeof(ref), "plain: %.2f ns per step", p / n * 1e9);
   row("__vsadu4 + __vabsdiffu4 (video instructions) vs plain integer code", val, ref, v / p,
       "video time / plain time; lower is better");
   printf("NOTE %d blocks of %d threads, %d steps each, %d repetitions, medians\n", BLOCKS, THREADS, K, reps);
   cudaFree(da);
   cudaFree(db);
   cudaFree(dv);
   cudaFree(dp);
   return 0;
}
