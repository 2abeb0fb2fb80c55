/*
 * batch_copy.cu — cudaMemcpyBatchAsync of N small buffers against N
 * cudaMemcpyAsync calls of the same buffers, measured in the same run.
 *
 * N = 256 copies of 256 bytes (argv[1], argv[2] override), device to
 * device and pinned host to device, on one non-blocking stream; each
 * measurement is the host time from the first call to the end of
 * cudaStreamSynchronize, median of 15 after a warm-up, the two ways
 * alternated so that drifting machine load hits both alike.  The ratio is
 * N calls' time / the batch's time: how much faster the batch gets the same
 * copies done (higher is better).  metalcuda makes a batch between arena
 * memory one command buffer of N blits, where N cudaMemcpyAsync calls
 * commit N command buffers (src/core/memory.c).  Every copy is checked.
 */
#include "bench.h"

#include <vector>

static double run(bool batch, void **dsts, const void **srcs, size_t *sizes, int n, size_t bytes,
                  cudaStream_t s)
{
   cudaMemcpyAttributes at;
   memset(&at, 0, sizeof at);
   at.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
   size_t zero = 0;
   double t0 = now_s();
   if (batch) {
      BENCH_CHECK(cudaMemcpyBatchAsync(dsts, srcs, sizes, n, &at, &zero, 1, s));
   } else {
      for (int i = 0; i < n; i++)
         BENCH_CHECK(cudaMemcpyAsync(dsts[i], srcs[i], bytes, cudaMemcpyDefault, s));
   }
   BENCH_CHECK(cudaStreamSynchronize(s));
   return now_s() - t0;
}

static void measure(const char *what, char *src, char *dst, int n, size_t bytes, cudaStream_t s, int reps)
{
   std::vector<void *> dsts(n);
   std::vector<const void *> srcs(n);
   std::vector<size_t> sizes(n, bytes);
   for (int i = 0; i < n; i++) {   /* every other slot: not one contiguous copy */
      srcs[i] = src + (size_t)i * 2 * bytes;
      dsts[i] = dst + (size_t)(n - 1 - i) * 2 * bytes;
   }
   run(true, dsts.data(), srcs.data(), sizes.data(), n, bytes, s);
   run(false, dsts.data(), srcs.data(), sizes.data(), n, bytes, s);
   std::vector<double> tb(reps), tn(reps);
   for (int r = 0; r < reps; r++) {
      tb[r] = run(true, dsts.data(), srcs.data(), sizes.data(), n, bytes, s);
      tn[r] = run(false, dsts.data(), srcs.data(), sizes.data(), n, bytes, s);
   }
   double mb = median(tb.data(), reps), mn = median(tn.data(), reps);
   /* the copies happened: dst slot n-1-i holds src slot i */
   std::vector<char> got((size_t)n * 2 * bytes), want((size_t)n * 2 * bytes);
   BENCH_CHECK(cudaMemcpy(got.data(), dst, got.size(), cudaMemcpyDefault));
   BENCH_CHECK(cudaMemcpy(want.data(), src, want.size(), cudaMemcpyDefault));
   for (int i = 0; i < n; i++)
      if (memcmp(&got[(size_t)(n - 1 - i) * 2 * bytes], &want[(size_t)i * 2 * bytes], bytes) != 0) {
         fprintf(stderr, "batch_copy.cu: copy %d did not arrive\n", i);
         exit(1);
      }
   char name[96], v[64], ref[64];
   snprintf(name, sizeof(name), "cudaMemcpyBatchAsync %d x %zu B, %s", n, bytes, what);
   snprintf(v, sizeof(v), "%.1f us", mb * 1e6);
   snprintf(ref, sizeof(ref), "%d cudaMemcpyAsync: %.1f us", n, mn * 1e6);
   row(name, v, ref, mn / mb, "N calls' time / the batch's; higher is better");
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 256;
   size_t bytes = argc > 2 ? (size_t)atoi(argv[2]) : 256;
   const int reps = 15;
   print_device();
   cudaStream_t s;
   BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   size_t span = (size_t)n * 2 * bytes;
   char *d1, *d2, *h;
   BENCH_CHECK(cudaMalloc(&d1, span));
   BENCH_CHECK(cudaMalloc(&d2, span));
   BENCH_CHECK(cudaMallocHost(&h, span));
   for (size_t i = 0; i < span; i++)
      h[i] = (char)(i * 131 + 7);
   BENCH_CHECK(cudaMemcpy(d1, h, span, cudaMemcpyHostToDevice));
   measure("device to device", d1, d2, n, bytes, s, reps);
   measure("pinned host to device", h, d2, n, bytes, s, reps);
   printf("NOTE %d copies of %zu bytes a batch, %d repetitions, medians; one non-blocking stream\n", n, bytes,
          reps);
   cudaFree(d1), cudaFree(d2), cudaFreeHost(h);
   cudaStreamDestroy(s);
   return 0;
}
