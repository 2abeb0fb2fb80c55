/*
 * fft_cb.cu — the cost of a cuFFT LTO load callback: a 1-D batch of
 * 2^LOGN-point C2C transforms (default 2^20, batch 4, forward, out of
 * place) with a load callback that scales each element by 2 (FATBIN:
 * bench/libs/fft_cb_lto.cu as LTO-IR, built by bench/cufft.sh) against the
 * same plan without it, in one run.  Each side is the median of 5
 * repetitions after a warm-up, timed alternately; the callback's result
 * must be twice the plain one (relative RMS difference within 1e-6).
 */
#include <cufftXt.h>
#include "../bench.h"

int main(int argc, char **argv)
{
   if (argc < 2) {
      printf("usage: fft_cb FATBIN [LOGN [BATCH]]\n");
      return 2;
   }
   int logn = argc > 2 ? atoi(argv[2]) : 20, batch = argc > 3 ? atoi(argv[3]) : 4;
   int n = 1 << logn;
   size_t total = (size_t)n * batch;
   print_device();
   FILE *f = fopen(argv[1], "rb");
   if (!f) {
      printf("SKIP %s not found\n", argv[1]);
      return 0;
   }
   fseek(f, 0, SEEK_END);
   size_t nfb = (size_t)ftell(f);
   rewind(f);
   char *fb = (char *)malloc(nfb);
   if (fread(fb, 1, nfb, f) != nfb)
      return 1;
   fclose(f);
   float *x = (float *)malloc(total * 8), *y0 = (float *)malloc(total * 8), *y1 = (float *)malloc(total * 8);
   for (size_t i = 0; i < 2 * total; i++)
      x[i] = (float)((i * 2654435761u % 2001) / 1000.0 - 1.0);
   cufftComplex *dx, *dy0, *dy1;
   BENCH_CHECK(cudaMalloc(&dx, total * 8));
   BENCH_CHECK(cudaMalloc(&dy0, total * 8));
   BENCH_CHECK(cudaMalloc(&dy1, total * 8));
   BENCH_CHECK(cudaMemcpy(dx, x, total * 8, cudaMemcpyHostToDevice));
   cufftHandle plain, cb;
   size_t ws;
   int s0 = cufftPlan1d(&plain, n, CUFFT_C2C, batch), s1 = cufftCreate(&cb),
       s2 = cufftXtSetJITCallback(cb, "bench_ld", fb, nfb, CUFFT_CB_LD_COMPLEX, NULL),
       s3 = cufftMakePlan1d(cb, n, CUFFT_C2C, batch, &ws);
   if (s0 || s1 || s2 || s3) {
      printf("FAIL the plans: cufftPlan1d %d, cufftCreate %d, cufftXtSetJITCallback %d, cufftMakePlan1d %d\n", s0, s1,
             s2, s3);
      return 1;
   }
   /* warm-up (translation, first launch, page faults) */
   cufftExecC2C(plain, dx, dy0, CUFFT_FORWARD);
   cufftExecC2C(cb, dx, dy1, CUFFT_FORWARD);
   BENCH_CHECK(cudaDeviceSynchronize());
   double t0s[5], t1s[5];
   for (int r = 0; r < 5; r++) {
      double t0 = now_s();
      cufftExecC2C(plain, dx, dy0, CUFFT_FORWARD);
      BENCH_CHECK(cudaDeviceSynchronize());
      t0s[r] = now_s() - t0;
      t0 = now_s();
      cufftExecC2C(cb, dx, dy1, CUFFT_FORWARD);
      BENCH_CHECK(cudaDeviceSynchronize());
      t1s[r] = now_s() - t0;
   }
   double a = median(t0s, 5), b = median(t1s, 5);
   BENCH_CHECK(cudaMemcpy(y0, dy0, total * 8, cudaMemcpyDeviceToHost));
   BENCH_CHECK(cudaMemcpy(y1, dy1, total * 8, cudaMemcpyDeviceToHost));
   double num = 0, den = 0;
   for (size_t i = 0; i < 2 * total; i++) {
      num += ((double)y1[i] - 2.0 * y0[i]) * ((double)y1[i] - 2.0 * y0[i]);
      den += 4.0 * y0[i] * y0[i];
   }
   if (!(sqrt(num / den) < 1e-6)) {
      printf("FAIL the callback's result is not twice the plain one: relative RMS %.3g\n", sqrt(num / den));
      return 1;
   }
   char name[96], val[64], ref[64];
   snprintf(name, sizeof(name), "cufftExecC2C 2^%d x %d with an LTO load callback vs without", logn, batch);
   snprintf(val, sizeof(val), "%.2f ms", b * 1e3);
   snprintf(ref, sizeof(ref), "%.2f ms", a * 1e3);
   row(name, val, ref, b / a, "time with / time without, lower is better (1 = free)");
   cufftDestroy(plain);
   cufftDestroy(cb);
   return 0;
}
