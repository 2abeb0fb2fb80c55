/*
 * recursion.cu — the cost of a recursive device function: the same walk
 * of a complete binary tree (every node's value a hash of its index),
 * written recursively and iteratively (an explicit stack of nodes in a
 * local array), in the same run.
 *
 * metalcuda has no recursive MSL functions: a recursive call pushes a frame
 * on an explicit per-thread stack (the live values saved, the arguments
 * written) and returns to a driver loop, which re-enters the function just
 * after the call once the callee returned (src/compiler/msl/emit_rec.c).
 * The iterative kernel is what a programmer would write instead.
 *
 * Per repetition (7, after a warm-up): 64 blocks of 64 threads, each
 * walking a tree of depth D (2^(D+1) - 1 nodes, argv[1], default 10),
 * launch + synchronise, recursive and iterative alternately.  Ratio:
 * recursive / iterative time, from medians; both kernels' sums are checked
 * against the host's.
 */
#include "bench.h"

#define BLOCKS 64
#define THREADS 64

__host__ __device__ static inline unsigned val(unsigned node, unsigned seed)
{
   unsigned x = node * 2654435761u ^ seed;
   x ^= x >> 15;
   return x * 2246822519u;
}

__host__ __device__ __noinline__ unsigned walk_rec(unsigned node, int depth, unsigned seed)
{
   unsigned v = val(node, seed);
   if (depth == 0)
      return v;
   unsigned l = walk_rec(2 * node + 1, depth - 1, seed);
   unsigned r = walk_rec(2 * node + 2, depth - 1, seed);
   return v + 3u * l + r;
}

__global__ void k_rec(unsigned *out, int depth)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   out[t] = walk_rec(0, depth, (unsigned)t);
}

/* the same sum, post-order, with an explicit stack: a frame is (node,
 * depth, state, partial sum) */
__global__ void k_iter(unsigned *out, int depth)
{
   int t = blockIdx.x * blockDim.x + threadIdx.x;
   unsigned seed = (unsigned)t;
   unsigned node[32], acc[32];
   int dep[32], state[32], sp = 0;
   node[0] = 0, dep[0] = depth, state[0] = 0, acc[0] = 0;
   unsigned ret = 0;
   while (sp >= 0) {
      if (dep[sp] == 0) {
         ret = val(node[sp], seed);
         sp--;
      } else if (state[sp] == 0) {
         state[sp] = 1;
         node[sp + 1] = 2 * node[sp] + 1, dep[sp + 1] = dep[sp] - 1, state[sp + 1] = 0;
         sp++;
         continue;
      } else if (state[sp] == 1) {
         acc[sp] = val(node[sp], seed) + 3u * ret;
         state[sp] = 2;
         node[sp + 1] = 2 * node[sp] + 2, dep[sp + 1] = dep[sp] - 1, state[sp + 1] = 0;
         sp++;
         continue;
      } else {
         ret = acc[sp] + ret;
         sp--;
      }
   }
   out[t] = ret;
}

static double launch_sync(void (*kernel)(unsigned *, int), unsigned *d, int depth)
{
   double t0 = now_s();
   kernel<<<BLOCKS, THREADS>>>(d, depth);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

int main(int argc, char **argv)
{
   const int reps = 7, D = argc > 1 ? atoi(argv[1]) : 10, n = BLOCKS * THREADS;
   print_device();
   unsigned *d, *h = (unsigned *)malloc(n * sizeof(unsigned));
   BENCH_CHECK(cudaMalloc(&d, n * sizeof(unsigned)));
   launch_sync(k_rec, d, D);   /* warm-up: translation, compilation */
   launch_sync(k_iter, d, D);
   double tr[reps], ti[reps];
   for (int r = 0; r < reps; r++) {
      tr[r] = launch_sync(k_rec, d, D);
      ti[r] = launch_sync(k_iter, d, D);
   }
   for (int pass = 0; pass < 2; pass++) {
      BENCH_CHECK(cudaMemset(d, 0, n * sizeof(unsigned)));
      launch_sync(pass ? k_iter : k_rec, d, D);
      BENCH_CHECK(cudaMemcpy(h, d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
      for (int t = 0; t < n; t += 97) {
         unsigned want = walk_rec(0, D, (unsigned)t);
         if (h[t] != want) {
            fprintf(stderr, "recursion.cu: the %s kernel gave %#x for thread %d, expected %#x\n",
                    pass ? "iterative" : "recursive", h[t], t, want);
            return 1;
         }
      }
   }
   double a = median(tr, reps), b = median(ti, reps);
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.2f ms", a * 1e3);
   snprintf(ref, sizeof(ref), "iterative: %.2f ms", b * 1e3);
   row("recursive tree walk vs the same walk iterative", v, ref, a / b,
       "recursive time / iterative time; lower is better");
   printf("NOTE %d blocks of %d threads, trees of depth %d (%d nodes), %d repetitions, medians\n", BLOCKS, THREADS,
          D, (2 << D) - 1, reps);
   cudaFree(d);
   free(h);
   return 0;
}
