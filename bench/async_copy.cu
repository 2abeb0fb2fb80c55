/*
 * async_copy.cu — how long cudaMemcpyAsync keeps the host, against how long
 * the copy takes.
 *
 * 64 MB (the first argument, in MB) between page-locked host memory
 * (cudaMallocHost) and device memory, each direction, per repetition (9,
 * after a warm-up): the host time of the cudaMemcpyAsync call, and the time
 * from the call to the end of the cudaStreamSynchronize after it (the
 * copy's duration as the program sees it).  Reports call / duration from
 * medians: an asynchronous copy returns at once, so the ratio is small
 * (issue 18's target: below 0.05); a copy done in the call gives about 1.
 */
#include "bench.h"

int main(int argc, char **argv)
{
   const int reps = 9;
   size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 64, n = mb << 20;
   print_device();
   char *h, *d;
   BENCH_CHECK(cudaMallocHost(&h, n));
   BENCH_CHECK(cudaMalloc(&d, n));
   memset(h, 1, n);
   cudaStream_t s;
   BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   for (int w = 0; w < 2; w++) {
      BENCH_CHECK(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s));
      BENCH_CHECK(cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s));
   }
   BENCH_CHECK(cudaStreamSynchronize(s));
   double call[2][reps], total[2][reps];
   for (int r = 0; r < reps; r++)
      for (int dir = 0; dir < 2; dir++) {
         double t0 = now_s();
         if (dir == 0)
            BENCH_CHECK(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s));
         else
            BENCH_CHECK(cudaMemcpyAsync(h, d, n, cudaMemcpyDeviceToHost, s));
         double t1 = now_s();
         BENCH_CHECK(cudaStreamSynchronize(s));
         double t2 = now_s();
         call[dir][r] = t1 - t0;
         total[dir][r] = t2 - t0;
      }
   const char *name[2] = { "cudaMemcpyAsync pinned host to device, call / copy",
                           "cudaMemcpyAsync device to pinned host, call / copy" };
   for (int dir = 0; dir < 2; dir++) {
      double c = median(call[dir], reps), t = median(total[dir], reps);
      char v[64], ref[64];
      snprintf(v, sizeof(v), "call: %.1f us", c * 1e6);
      snprintf(ref, sizeof(ref), "copy of %zu MB: %.1f us", mb, t * 1e6);
      row(name[dir], v, ref, c / t, "call time / copy time; lower is better (target < 0.05)");
   }
   printf("NOTE %zu MB x %d repetitions, medians\n", mb, reps);
   BENCH_CHECK(cudaStreamDestroy(s));
   BENCH_CHECK(cudaFree(d));
   BENCH_CHECK(cudaFreeHost(h));
   return 0;
}
