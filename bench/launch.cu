/*
 * launch.cu — the host-side cost of launching an empty kernel.
 *
 * Measures, per repetition (9, after a warm-up of 200 launches):
 *   launch   N launches of empty<<<1,1>>>() back to back, no sync inside
 *            the loop: the host time spent in the launch calls, per launch;
 *   drain    the cudaDeviceSynchronize that follows, per launch: the part of
 *            the work the device (or its worker threads) had left;
 *   small    N launches of scale<<<8,128>>>() on 1000 doubles, then the
 *            sync: per launch, launch and completion of a grid of a few
 *            threadgroups whose work is a microsecond (the size of most of
 *            LULESH's launches), where waking more worker threads than
 *            the one that submits costs more than it gains;
 *   memcpy   M host memcpy of 4 KB (between two cache-resident buffers),
 *            per copy: the reference.
 * Reports launch / memcpy, (launch + drain) / memcpy and small / memcpy,
 * each from medians.
 */
#include "bench.h"

__global__ void empty(void) {}

__global__ void scale(double *a, int n)
{
   int i = blockIdx.x * blockDim.x + threadIdx.x;
   if (i < n)
      a[i] = a[i] * 0.5 + 1.0;
}

int main(int argc, char **argv)
{
   const int reps = 9, N = argc > 1 ? atoi(argv[1]) : 2000, M = 200000;
   print_device();

   static char src[4096], dst[2][4096];
   memset(src, 1, sizeof(src));
   double t_launch[reps], t_drain[reps], t_copy[reps], t_small[reps];
   const int n = 1000;
   double *a;
   BENCH_CHECK(cudaMalloc(&a, n * sizeof(double)));
   BENCH_CHECK(cudaMemset(a, 0, n * sizeof(double)));

   for (int k = 0; k < 200; k++)   /* warm-up: translation, first launch, queues */
      empty<<<1, 1>>>();
   BENCH_CHECK(cudaDeviceSynchronize());
   for (int k = 0; k < M; k++) {
      memcpy(dst[k & 1], src, sizeof(src));
      clobber(dst[k & 1]);
   }

   for (int r = 0; r < reps; r++) {
      double t0 = now_s();
      for (int k = 0; k < N; k++)
         empty<<<1, 1>>>();
      double t1 = now_s();
      BENCH_CHECK(cudaDeviceSynchronize());
      double t2 = now_s();
      BENCH_CHECK(cudaGetLastError());
      for (int k = 0; k < N; k++)
         scale<<<(n + 127) / 128, 128>>>(a, n);
      BENCH_CHECK(cudaDeviceSynchronize());
      double t3s = now_s();
      t_small[r] = (t3s - t2) / N;
      t2 = t3s;
      for (int k = 0; k < M; k++) {
         memcpy(dst[k & 1], src, sizeof(src));
         clobber(dst[k & 1]);
      }
      double t3 = now_s();
      t_launch[r] = (t1 - t0) / N;
      t_drain[r] = (t2 - t1) / N;
      t_copy[r] = (t3 - t2) / M;
   }
   double launch = median(t_launch, reps), drain = median(t_drain, reps), copy = median(t_copy, reps);
   char v[64], ref[64];
   snprintf(ref, sizeof(ref), "memcpy 4 KB: %.3f us", copy * 1e6);
   snprintf(v, sizeof(v), "%.3f us per launch", launch * 1e6);
   row("empty kernel launch <<<1,1>>>, host time", v, ref, launch / copy, "memcpys of 4 KB per launch; lower is better");
   snprintf(v, sizeof(v), "%.3f us per launch", (launch + drain) * 1e6);
   row("launch + run to completion, per launch", v, ref, (launch + drain) / copy,
       "memcpys of 4 KB per launch; lower is better");
   double small = median(t_small, reps);
   snprintf(v, sizeof(v), "%.3f us per launch", small * 1e6);
   row("<<<8,128>>> on 1000 doubles, launch + completion", v, ref, small / copy,
       "memcpys of 4 KB per launch; lower is better");
   BENCH_CHECK(cudaFree(a));
   printf("NOTE %d launches x %d repetitions, medians\n", N, reps);
   return 0;
}
