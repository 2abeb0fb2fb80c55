/*
 * devlaunch.cu — the cost of a kernel launched from the device (dynamic
 * parallelism) against the same kernel launched from the host.
 *
 * K = 64 small kernels (each adds its index to one cell of an array: the
 * result is checked) launched two ways, in each repetition (9, after a
 * warm-up):
 *   host     K <<<>>> launches on a stream, then a synchronisation;
 *   device   one parent grid of K threads, each launching one of them
 *            (<<<>>> in device code), then a synchronisation.
 * Reports host time / device time per child kernel, to completion (higher
 * is better).  metalcuda runs the children after the parent's grid from
 * the host (src/core/devrt.c), so the device form costs the parent's
 * launch and its wait on top of the same launches.
 */
// nvcc-flags: -rdc=true -lcudadevrt
#include "bench.h"

__global__ void cell(int *p, int i) { p[i] += i + 1; }

__global__ void parent(int *p)
{
   cell<<<1, 1>>>(p, (int)threadIdx.x);
}

int main(int argc, char **argv)
{
   const int reps = 9, K = argc > 1 ? atoi(argv[1]) : 64;
   print_device();
   int *d;
   BENCH_CHECK(cudaMalloc(&d, K * sizeof(int)));
   BENCH_CHECK(cudaMemset(d, 0, K * sizeof(int)));
   cudaStream_t s;
   BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   long long rounds = 0;
   double t_host[reps], t_dev[reps];
   for (int r = -1; r < reps; r++) {   /* -1: warm-up (translation) */
      double t0 = now_s();
      for (int k = 0; k < K; k++)
         cell<<<1, 1, 0, s>>>(d, k);
      BENCH_CHECK(cudaStreamSynchronize(s));
      double t1 = now_s();
      parent<<<1, K, 0, s>>>(d);
      BENCH_CHECK(cudaStreamSynchronize(s));
      double t2 = now_s();
      rounds += 2;
      if (r >= 0) {
         t_host[r] = (t1 - t0) / K;
         t_dev[r] = (t2 - t1) / K;
      }
   }
   int *h = (int *)malloc(K * sizeof(int));
   BENCH_CHECK(cudaMemcpy(h, d, K * sizeof(int), cudaMemcpyDeviceToHost));
   for (int k = 0; k < K; k++)
      if (h[k] != (long long)(k + 1) * rounds) {
         fprintf(stderr, "devlaunch.cu: cell %d is %d, expected %lld\n", k, h[k], (long long)(k + 1) * rounds);
         return 1;
      }
   double th = median(t_host, reps), td = median(t_dev, reps);
   char v[64], ref[64];
   snprintf(ref, sizeof(ref), "host: %.3f us per kernel", th * 1e6);
   snprintf(v, sizeof(v), "device: %.3f us per kernel", td * 1e6);
   row("device-side launches vs host launches, to completion", v, ref, th / td,
       "host time / device-launch time per child; higher is better");
   printf("NOTE %d children x %d repetitions, medians\n", K, reps);
   free(h);
   BENCH_CHECK(cudaStreamDestroy(s));
   BENCH_CHECK(cudaFree(d));
   return 0;
}
