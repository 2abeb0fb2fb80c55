/*
 * fft.cu — a 1-D batch of 2^LOGN-point C2C transforms (default 2^20,
 * batch 4, forward, out of place) through libcufft against FFTW (float,
 * libfftw3f with its threads library, as many threads as cores, which the
 * software device's worker pool also has) on the same cores, in one run
 * (bench/cufft.sh).  FFTW plans with FFTW_MEASURE limited to 20 s.  Each
 * side is the median of 5 repetitions after a warm-up, timed alternately;
 * the results are checked against each other (relative RMS difference
 * within 1e-5) so that a fast wrong answer cannot win.
 */
#include <cufft.h>
#include <dlfcn.h>
#include <math.h>
#include <unistd.h>
#include "../bench.h"

typedef void *(*plan_many_fn)(int, const int *, int, void *, const int *, int, int, void *, const int *, int, int,
                              int, unsigned);

int main(int argc, char **argv)
{
   int logn = argc > 1 ? atoi(argv[1]) : 20, batch = argc > 2 ? atoi(argv[2]) : 4;
   int n = 1 << logn;
   size_t total = (size_t)n * batch;
   print_device();
   void *fw = dlopen("libfftw3f.so.3", RTLD_NOW | RTLD_GLOBAL);
   if (!fw)
      fw = dlopen("libfftw3f.3.dylib", RTLD_NOW | RTLD_GLOBAL);
   void *ft = dlopen("libfftw3f_threads.so.3", RTLD_NOW);
   if (!ft)
      ft = dlopen("libfftw3f_threads.3.dylib", RTLD_NOW);
   if (!fw) {
      printf("SKIP FFTW (libfftw3f) not found\n");
      return 0;
   }
   plan_many_fn plan_many = (plan_many_fn)dlsym(fw, "fftwf_plan_many_dft");
   void (*execute)(void *) = (void (*)(void *))dlsym(fw, "fftwf_execute");
   void *(*fmalloc)(size_t) = (void *(*)(size_t))dlsym(fw, "fftwf_malloc");
   void (*timelimit)(double) = (void (*)(double))dlsym(fw, "fftwf_set_timelimit");
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   if (ft) {
      int (*init)(void) = (int (*)(void))dlsym(ft, "fftwf_init_threads");
      void (*nth)(int) = (void (*)(int))dlsym(ft, "fftwf_plan_with_nthreads");
      if (init && nth && init())
         nth((int)cores);
   }
   float *x = (float *)fmalloc(total * 8), *y = (float *)fmalloc(total * 8), *z = (float *)malloc(total * 8);
   timelimit(20.0);
   void *fp = plan_many(1, &n, batch, x, NULL, 1, n, y, NULL, 1, n, -1, 0 /* FFTW_MEASURE */);
   for (size_t i = 0; i < 2 * total; i++)
      x[i] = (float)((i * 2654435761u % 2001) / 1000.0 - 1.0);

   cufftComplex *dx, *dy;
   BENCH_CHECK(cudaMalloc(&dx, total * 8));
   BENCH_CHECK(cudaMalloc(&dy, total * 8));
   BENCH_CHECK(cudaMemcpy(dx, x, total * 8, cudaMemcpyHostToDevice));
   cufftHandle plan;
   if (cufftPlan1d(&plan, n, CUFFT_C2C, batch) != CUFFT_SUCCESS) {
      printf("FAIL cufftPlan1d\n");
      return 1;
   }
   /* warm-up (translation, first launch, page faults) */
   cufftExecC2C(plan, dx, dy, CUFFT_FORWARD);
   BENCH_CHECK(cudaDeviceSynchronize());
   execute(fp);
   double tc[5], tf[5];
   for (int r = 0; r < 5; r++) {
      double t0 = now_s();
      cufftExecC2C(plan, dx, dy, CUFFT_FORWARD);
      BENCH_CHECK(cudaDeviceSynchronize());
      tc[r] = now_s() - t0;
      t0 = now_s();
      execute(fp);
      tf[r] = now_s() - t0;
   }
   double c = median(tc, 5), f = median(tf, 5);
   BENCH_CHECK(cudaMemcpy(z, dy, total * 8, cudaMemcpyDeviceToHost));
   double num = 0, den = 0;
   for (size_t i = 0; i < 2 * total; i++) {
      num += ((double)z[i] - y[i]) * ((double)z[i] - y[i]);
      den += (double)y[i] * y[i];
   }
   double diff = sqrt(num / den);
   if (!(diff < 1e-5)) {
      printf("FAIL cuFFT and FFTW differ: relative RMS %.3g\n", diff);
      return 1;
   }
   char name[96], val[64], ref[64];
   snprintf(name, sizeof(name), "cufftExecC2C 2^%d x %d vs FFTW (%ld threads)", logn, batch, cores);
   snprintf(val, sizeof(val), "%.1f ms", c * 1e3);
   snprintf(ref, sizeof(ref), "%.1f ms", f * 1e3);
   row(name, val, ref, c / f, "cuFFT time / FFTW time, lower is better (issue 20's target <= 3)");
   cufftDestroy(plan);
   return 0;
}
