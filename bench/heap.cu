/*
 * heap.cu — the device heap's throughput: blocks from malloc/free (and
 * __nv_aligned_device_malloc) in a kernel against the same work on blocks
 * carved from a buffer the host allocated beforehand, in the same run.
 *
 * metalcuda's heap (src/compiler/msl/prelude/heap.metal) is a segregated
 * allocator in device memory: a block is a bit claimed with an atomic OR
 * in a superblock of its size class, found from a per-class hint word; the
 * pool kernel is what a program does to avoid the heap: thread t uses
 * slot t of a cudaMalloc'd buffer.
 *
 * Per repetition (7, after a warm-up): 64 blocks of 256 threads, each
 * doing R rounds (argv[1], default 16) of: get a block of 16 to 256 bytes,
 * write 16 bytes of it, read them back, give it back; launch +
 * synchronise, the three kernels alternately.  Ratios: malloc / pool and
 * aligned (64-byte) malloc / pool time, from medians; every kernel's count
 * of wrong bytes and NULLs must be 0.
 */
#include "bench.h"

#define BLOCKS 64
#define THREADS 256
#define SLOT 256

__device__ static inline unsigned block_size(unsigned t, unsigned r) { return 16u << ((t + r) % 5); }

__device__ static inline unsigned use(unsigned char *p, unsigned t, unsigned r)
{
   for (unsigned k = 0; k < 16; k++)
      p[k] = (unsigned char)(t + r + k);
   unsigned wrong = 0;
   for (unsigned k = 0; k < 16; k++)
      wrong += p[k] != (unsigned char)(t + r + k);
   return wrong;
}

/* malloc, or __nv_aligned_device_malloc at 64 bytes */
template <bool ALIGNED> __global__ void k_heap(unsigned *bad, unsigned char *pool, int rounds)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x, wrong = 0;
   for (int r = 0; r < rounds; r++) {
      unsigned n = block_size(t, r);
      unsigned char *p = (unsigned char *)(ALIGNED ? __nv_aligned_device_malloc(n, 64) : malloc(n));
      if (!p || ((unsigned long long)p & (ALIGNED ? 63 : 15))) {
         wrong++;
         continue;
      }
      wrong += use(p, t, r);
      free(p);
   }
   if (wrong)
      atomicAdd(bad, wrong);
}

__global__ void k_pool(unsigned *bad, unsigned char *pool, int rounds)
{
   unsigned t = blockIdx.x * blockDim.x + threadIdx.x, wrong = 0;
   for (int r = 0; r < rounds; r++)
      wrong += use(pool + (size_t)t * SLOT, t, r);
   if (wrong)
      atomicAdd(bad, wrong);
}

typedef void (*kernel_fn)(unsigned *, unsigned char *, int);

static double launch_sync(kernel_fn k, unsigned *bad, unsigned char *pool, int rounds)
{
   double t0 = now_s();
   k<<<BLOCKS, THREADS>>>(bad, pool, rounds);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

int main(int argc, char **argv)
{
   const int reps = 7, R = argc > 1 ? atoi(argv[1]) : 16;
   print_device();
   unsigned *bad, hbad = 0;
   unsigned char *pool;
   BENCH_CHECK(cudaMalloc(&bad, sizeof(unsigned)));
   BENCH_CHECK(cudaMemset(bad, 0, sizeof(unsigned)));
   BENCH_CHECK(cudaMalloc(&pool, (size_t)BLOCKS * THREADS * SLOT));
   const kernel_fn k[3] = { k_heap<false>, k_heap<true>, k_pool };
   for (int i = 0; i < 3; i++)   /* warm-up: translation, compilation */
      launch_sync(k[i], bad, pool, R);
   double t[3][reps];
   for (int r = 0; r < reps; r++)
      for (int i = 0; i < 3; i++)
         t[i][r] = launch_sync(k[i], bad, pool, R);
   BENCH_CHECK(cudaMemcpy(&hbad, bad, sizeof(unsigned), cudaMemcpyDeviceToHost));
   if (hbad) {
      fprintf(stderr, "heap.cu: %u wrong bytes or NULL blocks\n", hbad);
      return 1;
   }
   double m = median(t[0], reps), a = median(t[1], reps), p = median(t[2], reps);
   char v[64], ref[64];
   snprintf(ref, sizeof(ref), "pool: %.2f ms", p * 1e3);
   snprintf(v, sizeof(v), "%.2f ms", m * 1e3);
   row("device malloc/free vs a pre-allocated pool", v, ref, m / p, "malloc time / pool time; lower is better");
   snprintf(v, sizeof(v), "%.2f ms", a * 1e3);
   row("aligned device malloc (64 B) vs a pre-allocated pool", v, ref, a / p,
       "aligned malloc time / pool time; lower is better");
   printf("NOTE %d blocks of %d threads, %d rounds of 16-256 byte blocks each, %d repetitions, medians\n", BLOCKS,
          THREADS, R, reps);
   cudaFree(bad);
   cudaFree(pool);
   return 0;
}
