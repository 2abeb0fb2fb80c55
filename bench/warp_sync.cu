/*
 * warp_sync.cu — what running warp-synchronous code in lockstep costs.
 *
 * Three forms of the same block reduction (256 blocks of 256 threads, a
 * grid-stride loop over the input, a tree in shared memory, one partial
 * sum per block, summed and checked on the host), on 16M unsigned ints
 * and on 64K (one per thread: the tree dominates):
 *   barriers   a __syncthreads at every level of the tree: no warp-
 *              synchronous code, nothing for metalcuda's lockstep
 *              treatment to do (its MSL is what it was without it; the
 *              software device runs it barrier to barrier, in passes);
 *   volatile   barriers down to 64, then the last warp unrolled on
 *              volatile shared memory with no synchronisation (CUDA's
 *              early samples, LULESH): the software device makes the
 *              warp's lanes meet before each access, as a GPU runs them in
 *              lockstep (fibers);
 *   syncwarp   the same last warp written as CUDA 9 asks, a __syncwarp
 *              between the steps (values through registers).
 * Rows: volatile / barriers and syncwarp / barriers, time of launch +
 * synchronise, medians of 7 repetitions, the three interleaved.  The
 * first row is the price of the lockstep treatment on the kernel that
 * needs it; the barrier form is the kernel that does not.
 */
#include "bench.h"

#define N_BIG (16u << 20)
#define BLOCKS 256
#define THREADS 256

/* The thread's part of the input into s[t], then the tree with a barrier
 * at every level down to `last` sums. */
__device__ void load_and_tree(const unsigned *in, unsigned *s, unsigned n, unsigned last)
{
   unsigned t = threadIdx.x, v = 0;
   for (unsigned i = blockIdx.x * THREADS + t; i < n; i += BLOCKS * THREADS)
      v += in[i];
   s[t] = v;
   __syncthreads();
   for (unsigned d = THREADS / 2; d >= last; d >>= 1) {
      if (t < d)
         s[t] += s[t + d];
      __syncthreads();
   }
}

__global__ void reduce_barriers(const unsigned *in, unsigned *out, unsigned n)
{
   __shared__ unsigned s[THREADS];
   unsigned t = threadIdx.x;
   load_and_tree(in, s, n, 1);
   if (t == 0)
      out[blockIdx.x] = s[0];
}

__global__ void reduce_volatile(const unsigned *in, unsigned *out, unsigned n)
{
   __shared__ unsigned s[THREADS];
   unsigned t = threadIdx.x;
   load_and_tree(in, s, n, 64);
   if (t < 32) {
      volatile unsigned *v = s;
      v[t] += v[t + 32];
      v[t] += v[t + 16];
      v[t] += v[t + 8];
      v[t] += v[t + 4];
      v[t] += v[t + 2];
      v[t] += v[t + 1];
   }
   if (t == 0)
      out[blockIdx.x] = s[0];
}

__global__ void reduce_syncwarp(const unsigned *in, unsigned *out, unsigned n)
{
   __shared__ unsigned s[THREADS];
   unsigned t = threadIdx.x;
   load_and_tree(in, s, n, 64);
   if (t < 32) {
      unsigned v = s[t];
      for (unsigned d = 32; d > 0; d >>= 1) {
         v += s[t + d];
         __syncwarp();
         s[t] = v;
         __syncwarp();
      }
   }
   if (t == 0)
      out[blockIdx.x] = s[0];
}

typedef void (*kernel_fn)(const unsigned *, unsigned *, unsigned);

static double run(kernel_fn k, const unsigned *in, unsigned n, unsigned *out, unsigned *host, unsigned want,
                  const char *name)
{
   double t0 = now_s();
   k<<<BLOCKS, THREADS>>>(in, out, n);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   double t = now_s() - t0;
   BENCH_CHECK(cudaMemcpy(host, out, BLOCKS * sizeof(unsigned), cudaMemcpyDeviceToHost));
   unsigned sum = 0;
   for (int b = 0; b < BLOCKS; b++)
      sum += host[b];
   if (sum != want) {
      fprintf(stderr, "warp_sync.cu: %s summed to %u, expected %u\n", name, sum, want);
      exit(1);
   }
   return t;
}

/* Times the three forms on the first n inputs and prints their rows. */
static void measure(const unsigned *h, const unsigned *d_in, unsigned n, unsigned *d_out, const char *what)
{
   enum { REPS = 7 };
   unsigned want = 0, part[BLOCKS];
   for (unsigned i = 0; i < n; i++)
      want += h[i];
   /* warm-up: translation, compilation, fiber stacks, page faults */
   run(reduce_barriers, d_in, n, d_out, part, want, "barriers");
   run(reduce_volatile, d_in, n, d_out, part, want, "volatile");
   run(reduce_syncwarp, d_in, n, d_out, part, want, "syncwarp");
   double tb[REPS], tv[REPS], ts[REPS];
   for (int r = 0; r < REPS; r++) {
      tb[r] = run(reduce_barriers, d_in, n, d_out, part, want, "barriers");
      tv[r] = run(reduce_volatile, d_in, n, d_out, part, want, "volatile");
      ts[r] = run(reduce_syncwarp, d_in, n, d_out, part, want, "syncwarp");
   }
   double b = median(tb, REPS), v = median(tv, REPS), s = median(ts, REPS);
   char name[128], val[64], ref[64];
   snprintf(ref, sizeof(ref), "barrier tree: %.3f ms", b * 1e3);
   snprintf(name, sizeof(name), "reduction %s, volatile last warp (lockstep) vs barrier tree", what);
   snprintf(val, sizeof(val), "%.3f ms", v * 1e3);
   row(name, val, ref, v / b, "time / barrier tree's; lower is better");
   snprintf(name, sizeof(name), "reduction %s, __syncwarp last warp vs barrier tree", what);
   snprintf(val, sizeof(val), "%.3f ms", s * 1e3);
   row(name, val, ref, s / b, "time / barrier tree's; lower is better");
}

int main(void)
{
   print_device();
   unsigned *h = (unsigned *)malloc(N_BIG * sizeof(unsigned));
   for (unsigned i = 0; i < N_BIG; i++)
      h[i] = (i * 2654435761u) >> 20;
   unsigned *d_in, *d_out;
   BENCH_CHECK(cudaMalloc(&d_in, N_BIG * sizeof(unsigned)));
   BENCH_CHECK(cudaMalloc(&d_out, BLOCKS * sizeof(unsigned)));
   BENCH_CHECK(cudaMemcpy(d_in, h, N_BIG * sizeof(unsigned), cudaMemcpyHostToDevice));
   measure(h, d_in, N_BIG, d_out, "of 16M");
   measure(h, d_in, BLOCKS * THREADS, d_out, "of 64K (the tree alone)");
   printf("NOTE %d blocks of %d threads, launch + synchronise, medians of 7, the three forms interleaved\n", BLOCKS,
          THREADS);
   free(h);
   cudaFree(d_in);
   cudaFree(d_out);
   return 0;
}
