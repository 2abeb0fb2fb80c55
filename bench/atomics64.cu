/*
 * atomics64.cu — contended 64-bit atomicAdd against contended 32-bit
 * atomicAdd.  Metal has no 64-bit read-modify-write: metalcuda runs a
 * 64-bit atomic under a lock of a table in device memory (a compare-
 * exchange to take it, two 32-bit atomic loads and stores, two fences, a
 * store to release it), a 32-bit add is one native atomic.
 *
 * Per repetition (7, after a warm-up): 64 blocks of 256 threads, each
 * thread adding K times to one of 16 counters (thread index mod 16: every
 * counter contended by the whole grid), once with unsigned long long and
 * once with unsigned; launch + synchronise.  Ratio: 64-bit time / 32-bit
 * time, from medians.  K is argv[1] (default 64).  The final counters are
 * checked (every order gives the same sums).
 */
#include "bench.h"

#define BLOCKS 64
#define THREADS 256
#define COUNTERS 16

template <class T> __global__ void add_many(T *c, int k)
{
   T *mine = &c[threadIdx.x % COUNTERS];
   for (int i = 0; i < k; i++)
      atomicAdd(mine, (T)(i + 1));
}

template <class T> static double run(T *d, int k)
{
   BENCH_CHECK(cudaMemset(d, 0, COUNTERS * sizeof(T)));
   BENCH_CHECK(cudaDeviceSynchronize());
   double t0 = now_s();
   add_many<T><<<BLOCKS, THREADS>>>(d, k);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

/* Every counter gets THREADS / COUNTERS * BLOCKS threads' 1 + 2 + ... + k. */
template <class T> static int check(const T *d, int k, const char *what)
{
   T h[COUNTERS];
   BENCH_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   unsigned long long want = (unsigned long long)(THREADS / COUNTERS) * BLOCKS * k * (k + 1) / 2;
   for (int i = 0; i < COUNTERS; i++)
      if ((unsigned long long)h[i] != (T)want) {
         fprintf(stderr, "atomics64.cu: %s counter %d is %llu, expected %llu\n", what, i,
                 (unsigned long long)h[i], (unsigned long long)(T)want);
         return 1;
      }
   return 0;
}

int main(int argc, char **argv)
{
   const int reps = 7, K = argc > 1 ? atoi(argv[1]) : 64;
   print_device();
   unsigned long long *d64;
   unsigned *d32;
   BENCH_CHECK(cudaMalloc(&d64, COUNTERS * sizeof(*d64)));
   BENCH_CHECK(cudaMalloc(&d32, COUNTERS * sizeof(*d32)));
   run(d64, K);   /* warm-up: translation, compilation */
   run(d32, K);
   double t64[reps], t32[reps];
   for (int r = 0; r < reps; r++) {
      t64[r] = run(d64, K);
      t32[r] = run(d32, K);
   }
   if (check(d64, K, "64-bit") || check(d32, K, "32-bit"))
      return 1;
   double a = median(t64, reps), b = median(t32, reps), n = (double)BLOCKS * THREADS * K;
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.1f ns per atomicAdd", a / n * 1e9);
   snprintf(ref, sizeof(ref), "32-bit: %.1f ns per atomicAdd", b / n * 1e9);
   row("contended atomicAdd, 64-bit vs 32-bit", v, ref, a / b, "64-bit time / 32-bit time; lower is better");
   printf("NOTE %d blocks of %d threads, %d adds each onto %d counters, %d repetitions, medians\n", BLOCKS, THREADS,
          K, COUNTERS, reps);
   cudaFree(d64);
   cudaFree(d32);
   return 0;
}
