/*
 * memcpy.cu — cudaMemcpy bandwidth against plain memcpy of the same size,
 * measured in the same run.
 *
 * For 64 MB (argv[1] in MB overrides): host→device, device→host and
 * device→device cudaMemcpy, and memcpy between two host buffers, each
 * repeated 7 times after a warm-up that touches every page; the median
 * time of each gives its bandwidth.  The ratio is memcpy time / cudaMemcpy
 * time (= cudaMemcpy bandwidth / memcpy bandwidth): 1 means as fast as a
 * host memcpy, 0.5 half as fast.  Host buffers are ordinary (pageable)
 * malloc memory.
 */
#include "bench.h"

static double time_copies(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, bool cuda, double *t,
                          int reps)
{
   for (int r = 0; r < reps; r++) {
      double t0 = now_s();
      if (cuda) {
         BENCH_CHECK(cudaMemcpy(dst, src, bytes, kind));
      } else {
         memcpy(dst, src, bytes);
         clobber(dst);
      }
      t[r] = now_s() - t0;
   }
   return median(t, reps);
}

int main(int argc, char **argv)
{
   const int reps = 7;
   size_t mb = argc > 1 ? (size_t)atoi(argv[1]) : 64, bytes = mb << 20;
   print_device();

   char *h1 = (char *)malloc(bytes), *h2 = (char *)malloc(bytes);
   void *d1, *d2;
   BENCH_CHECK(cudaMalloc(&d1, bytes));
   BENCH_CHECK(cudaMalloc(&d2, bytes));
   memset(h1, 0x3c, bytes);   /* touch every page */
   memset(h2, 0x5a, bytes);
   double t[reps];
   /* warm-up: every path once */
   time_copies(h2, h1, bytes, cudaMemcpyHostToHost, false, t, 1);
   time_copies(d1, h1, bytes, cudaMemcpyHostToDevice, true, t, 1);
   time_copies(h2, d1, bytes, cudaMemcpyDeviceToHost, true, t, 1);
   time_copies(d2, d1, bytes, cudaMemcpyDeviceToDevice, true, t, 1);
   BENCH_CHECK(cudaDeviceSynchronize());

   /* interleave the measurements so drifting machine load hits all alike */
   double hh[reps], hd[reps], dh[reps], dd[reps];
   for (int r = 0; r < reps; r++) {
      time_copies(h2, h1, bytes, cudaMemcpyHostToHost, false, &hh[r], 1);
      time_copies(d1, h1, bytes, cudaMemcpyHostToDevice, true, &hd[r], 1);
      time_copies(h2, d1, bytes, cudaMemcpyDeviceToHost, true, &dh[r], 1);
      time_copies(d2, d1, bytes, cudaMemcpyDeviceToDevice, true, &dd[r], 1);
   }
   double thh = median(hh, reps), thd = median(hd, reps), tdh = median(dh, reps), tdd = median(dd, reps);
   /* the copies really happened */
   if (memcmp(h1, h2, 4096) != 0 || memcmp(h1 + bytes - 4096, h2 + bytes - 4096, 4096) != 0) {
      fprintf(stderr, "memcpy.cu: the round trip did not bring the data back\n");
      return 1;
   }

   char ref[64], v[64];
   snprintf(ref, sizeof(ref), "memcpy %zu MB: %.2f GB/s", mb, bytes / thh / 1e9);
   const char *how = "of memcpy's bandwidth; higher is better";
   snprintf(v, sizeof(v), "%.2f GB/s", bytes / thd / 1e9);
   row("cudaMemcpy host to device", v, ref, thh / thd, how);
   snprintf(v, sizeof(v), "%.2f GB/s", bytes / tdh / 1e9);
   row("cudaMemcpy device to host", v, ref, thh / tdh, how);
   snprintf(v, sizeof(v), "%.2f GB/s", bytes / tdd / 1e9);
   row("cudaMemcpy device to device", v, ref, thh / tdd, how);
   printf("NOTE %zu MB per copy, %d repetitions, medians; pageable host memory\n", mb, reps);
   cudaFree(d1), cudaFree(d2);
   free(h1), free(h2);
   return 0;
}
