/*
 * barrier.cu — the cost of one __syncthreads and of one warp shuffle, per
 * thread, in a single block of 256 threads.
 *
 * On the software device the barrier kernel runs in passes, barrier to
 * barrier (each thread returns at the barrier with its live values saved
 * and is re-entered after it), and the shuffle kernel runs its threads as
 * fibers on one OS thread per block: a shuffle switches through the 32 of a
 * warp, so that row is the fiber switch cost plus the scheduler's
 * bookkeeping.
 *
 * Per repetition (9, after a warm-up): one block of 256 threads doing K
 * barriers (resp. K shuffles) in a loop, minus the same kernel with K = 0
 * (launch, fiber set-up and teardown), divided by 256 K; and the reference,
 * one host memcpy of 4 KB between cache-resident buffers, as in launch.cu.
 * Ratios: barrier (shuffle) per thread / memcpy, from medians.  K is
 * argv[1] (default 2000).
 *
 * Two more rows: the shuffle loop under `if (threadIdx.x / 32 == 0)` (one
 * warp of the block; per thread of that warp), and a loop of
 * __ballot_sync over the whole block.  On the software device both run in
 * passes since issue 19's second step (before: fibers); the whole-block
 * shuffle and ballot kernels run in lane form since full-mask warp
 * operations without barriers take it (bench/README.md).
 */
#include "bench.h"

#define THREADS 256

__global__ void barriers(int k, int *out)
{
   for (int i = 0; i < k; i++)
      __syncthreads();
   if (threadIdx.x == 0)
      out[blockIdx.x] = k;
}

__global__ void shuffles(int k, int *out)
{
   unsigned v = threadIdx.x;
   for (int i = 0; i < k; i++)
      v += __shfl_xor_sync(0xffffffffu, v, 1);
   out[threadIdx.x] = (int)v;
}

__global__ void shuffles_warp0(int k, int *out)
{
   unsigned v = threadIdx.x;
   if (threadIdx.x / 32 == 0)
      for (int i = 0; i < k; i++)
         v += __shfl_xor_sync(0xffffffffu, v, 1);
   out[threadIdx.x] = (int)v;
}

__global__ void ballots(int k, int *out)
{
   unsigned v = threadIdx.x;
   for (int i = 0; i < k; i++)
      v += __ballot_sync(0xffffffffu, (v >> 3) & 1);
   out[threadIdx.x] = (int)v;
}

static double launch_sync(void (*kernel)(int, int *), int k, int *d)
{
   double t0 = now_s();
   kernel<<<1, THREADS>>>(k, d);
   BENCH_CHECK(cudaGetLastError());
   BENCH_CHECK(cudaDeviceSynchronize());
   return now_s() - t0;
}

int main(int argc, char **argv)
{
   const int reps = 9, K = argc > 1 ? atoi(argv[1]) : 2000, M = 200000;
   print_device();
   int *d, h[THREADS];
   BENCH_CHECK(cudaMalloc(&d, THREADS * sizeof(int)));
   static char src[4096], dst[2][4096];
   memset(src, 1, sizeof(src));

   launch_sync(barriers, K, d);   /* warm-up: translation, compilation, fiber stacks */
   launch_sync(shuffles, K, d);
   launch_sync(shuffles_warp0, K, d);
   launch_sync(ballots, K, d);
   double tb[reps], ts[reps], tc[reps], tw[reps], tv[reps];
   for (int r = 0; r < reps; r++) {
      double b = launch_sync(barriers, K, d), b0 = launch_sync(barriers, 0, d);
      double s = launch_sync(shuffles, K, d), s0 = launch_sync(shuffles, 0, d);
      double w = launch_sync(shuffles_warp0, K, d), w0 = launch_sync(shuffles_warp0, 0, d);
      double v = launch_sync(ballots, K, d), v0 = launch_sync(ballots, 0, d);
      double t0 = now_s();
      for (int k = 0; k < M; k++) {
         memcpy(dst[k & 1], src, sizeof(src));
         clobber(dst[k & 1]);
      }
      tc[r] = (now_s() - t0) / M;
      tb[r] = (b - b0) / ((double)THREADS * K);
      ts[r] = (s - s0) / ((double)THREADS * K);
      tw[r] = (w - w0) / (32.0 * K);
      tv[r] = (v - v0) / ((double)THREADS * K);
   }
   /* the kernels ran: thread 0 wrote K; the shuffle chain of 0..255 */
   launch_sync(barriers, K, d);
   BENCH_CHECK(cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost));
   if (h[0] != K) {
      fprintf(stderr, "barrier.cu: the barrier kernel wrote %d, expected %d\n", h[0], K);
      return 1;
   }
   launch_sync(shuffles, K, d);
   BENCH_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++) {
      unsigned v[2] = {(unsigned)(t & ~1), (unsigned)(t | 1)};   /* the pair exchanging */
      for (int i = 0; i < K; i++) {
         unsigned a = v[0] + v[1], b = v[1] + v[0];
         v[0] = a, v[1] = b;
      }
      if ((unsigned)h[t] != v[t & 1]) {
         fprintf(stderr, "barrier.cu: shuffle kernel thread %d gave %d, expected %d\n", t, h[t], (int)v[t & 1]);
         return 1;
      }
   }
   /* warp 0 ran the chain above; the others kept their index */
   launch_sync(shuffles_warp0, K, d);
   BENCH_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++) {
      unsigned v[2] = {(unsigned)(t & ~1), (unsigned)(t | 1)};
      for (int i = 0; i < K && t < 32; i++) {
         unsigned a = v[0] + v[1], b = v[1] + v[0];
         v[0] = a, v[1] = b;
      }
      unsigned want = t < 32 ? v[t & 1] : (unsigned)t;
      if ((unsigned)h[t] != want) {
         fprintf(stderr, "barrier.cu: warp-0 shuffle kernel thread %d gave %d, expected %d\n", t, h[t], (int)want);
         return 1;
      }
   }
   /* each warp's ballot chain, on the host */
   launch_sync(ballots, K, d);
   BENCH_CHECK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
   for (int w = 0; w < THREADS / 32; w++) {
      unsigned v[32];
      for (int l = 0; l < 32; l++)
         v[l] = (unsigned)(32 * w + l);
      for (int i = 0; i < K; i++) {
         unsigned bal = 0;
         for (int l = 0; l < 32; l++)
            bal |= ((v[l] >> 3) & 1u) << l;
         for (int l = 0; l < 32; l++)
            v[l] += bal;
      }
      for (int l = 0; l < 32; l++)
         if ((unsigned)h[32 * w + l] != v[l]) {
            fprintf(stderr, "barrier.cu: ballot kernel thread %d gave %d, expected %d\n", 32 * w + l, h[32 * w + l],
                    (int)v[l]);
            return 1;
         }
   }
   double b = median(tb, reps), s = median(ts, reps), c = median(tc, reps);
   double w = median(tw, reps), vo = median(tv, reps);
   char v[64], ref[64];
   snprintf(ref, sizeof(ref), "memcpy 4 KB: %.3f us", c * 1e6);
   snprintf(v, sizeof(v), "%.1f ns per thread", b * 1e9);
   row("__syncthreads, 256 threads, per thread", v, ref, b / c, "memcpys of 4 KB per thread-barrier; lower is better");
   snprintf(v, sizeof(v), "%.1f ns per thread", s * 1e9);
   row("__shfl_xor_sync, per thread", v, ref, s / c, "memcpys of 4 KB per thread-shuffle; lower is better");
   snprintf(v, sizeof(v), "%.1f ns per thread", w * 1e9);
   row("__shfl_xor_sync under if (threadIdx.x / 32 == 0), per thread of warp 0", v, ref, w / c,
       "memcpys of 4 KB per thread-shuffle; lower is better");
   snprintf(v, sizeof(v), "%.1f ns per thread", vo * 1e9);
   row("__ballot_sync, per thread", v, ref, vo / c, "memcpys of 4 KB per thread-ballot; lower is better");
   printf("NOTE one block of %d threads, %d barriers or shuffles minus 0, %d repetitions, medians\n", THREADS, K,
          reps);
   cudaFree(d);
   return 0;
}
