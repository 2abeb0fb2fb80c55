/*
 * streams.cu — do two streams run at the same time?
 *
 * Two kernels of one threadgroup each (64 threads, a long dependent chain
 * of integer multiply-adds per thread: compute only, no memory traffic),
 * per repetition (7, after a warm-up), interleaved:
 *   serial    both kernels on one stream, then cudaStreamSynchronize;
 *   parallel  one kernel on each of two streams, then both synchronised.
 * A threadgroup runs on one core of the software device (one SM on a GPU),
 * so with two cores free the parallel pair takes the time of one kernel:
 * the ratio serial / parallel is 2 when the streams overlap fully, 1 when
 * they serialise.  The results are checked against a host reference.
 */
#include "bench.h"

enum { THREADS = 64 };

__global__ void busy(unsigned *out, int iters, unsigned seed)
{
   unsigned v = seed + threadIdx.x;
   for (int k = 0; k < iters; k++)
      v = v * 1664525u + 1013904223u + (v >> 13);
   out[threadIdx.x] = v;
}

static unsigned busy_ref(int t, int iters, unsigned seed)
{
   unsigned v = seed + (unsigned)t;
   for (int k = 0; k < iters; k++)
      v = v * 1664525u + 1013904223u + (v >> 13);
   return v;
}

static void check(const unsigned *d, int iters, unsigned seed)
{
   unsigned got[THREADS];
   BENCH_CHECK(cudaMemcpy(got, d, sizeof(got), cudaMemcpyDeviceToHost));
   for (int t = 0; t < THREADS; t++)
      if (got[t] != busy_ref(t, iters, seed)) {
         fprintf(stderr, "busy: thread %d got %u, expected %u\n", t, got[t], busy_ref(t, iters, seed));
         exit(1);
      }
}

int main(int argc, char **argv)
{
   const int reps = 7, iters = argc > 1 ? atoi(argv[1]) : 400000;
   print_device();
   cudaStream_t s1, s2;
   BENCH_CHECK(cudaStreamCreate(&s1));
   BENCH_CHECK(cudaStreamCreate(&s2));
   unsigned *a, *b;
   BENCH_CHECK(cudaMalloc(&a, THREADS * sizeof(unsigned)));
   BENCH_CHECK(cudaMalloc(&b, THREADS * sizeof(unsigned)));
   busy<<<1, THREADS, 0, s1>>>(a, 1000, 1);   /* warm-up: translation, queues */
   busy<<<1, THREADS, 0, s2>>>(b, 1000, 2);
   BENCH_CHECK(cudaDeviceSynchronize());

   double t_serial[reps], t_parallel[reps];
   for (int r = 0; r < reps; r++) {
      double t0 = now_s();
      busy<<<1, THREADS, 0, s1>>>(a, iters, 3);
      busy<<<1, THREADS, 0, s1>>>(b, iters, 4);
      BENCH_CHECK(cudaStreamSynchronize(s1));
      double t1 = now_s();
      busy<<<1, THREADS, 0, s1>>>(a, iters, 5);
      busy<<<1, THREADS, 0, s2>>>(b, iters, 6);
      BENCH_CHECK(cudaStreamSynchronize(s1));
      BENCH_CHECK(cudaStreamSynchronize(s2));
      double t2 = now_s();
      t_serial[r] = t1 - t0;
      t_parallel[r] = t2 - t1;
   }
   BENCH_CHECK(cudaGetLastError());
   check(a, iters, 5);
   check(b, iters, 6);
   double serial = median(t_serial, reps), parallel = median(t_parallel, reps);
   char v[64], ref[64];
   snprintf(v, sizeof(v), "%.2f ms on 2 streams", parallel * 1e3);
   snprintf(ref, sizeof(ref), "%.2f ms on 1 stream", serial * 1e3);
   row("two 1-threadgroup kernels: 1 stream / 2 streams", v, ref, serial / parallel,
       "one stream's time over two streams'; 2 = the streams overlap fully, 1 = they serialise");
   printf("NOTE %d iterations per thread, %d threads, %d repetitions, medians\n", iters, THREADS, reps);
   BENCH_CHECK(cudaStreamDestroy(s1));
   BENCH_CHECK(cudaStreamDestroy(s2));
   return 0;
}
