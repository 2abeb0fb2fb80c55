/*
 * level2.cu — cuBLAS Level 2 and the Hermitian rank-k update through
 * libcublas against OpenBLAS on the same cores, in one run
 * (bench/cublas.sh): SGEMV N and T, SSYMV, CHEMV, SGBMV (bandwidth 16) on
 * an n x n matrix (default 2048) and CHERK n/4 x n/4 with k = n/4.
 *
 * Each the median of several interleaved repetitions after a warm-up
 * (launch + synchronise for cuBLAS); results are checked against
 * OpenBLAS's (relative difference within 1e-3) so that a fast wrong answer
 * cannot win.  OpenBLAS is dlopen'ed and given as many threads as the
 * machine has cores, as the software device's worker pool has.
 */
#include <cublas_v2.h>
#include <dlfcn.h>
#include <math.h>
#include <unistd.h>
#include <functional>
#include <vector>
#include "../bench.h"

static void *ob;
static cublasHandle_t h;

/* times OpenBLAS's run and cuBLAS's, interleaved; compares the outputs
 * (OUT floats on the host and at DOUT after cuBLAS's run) and prints the
 * row */
static int measure(const char *name, double flops, const std::function<void()> &oblas,
                   const std::function<void()> &cublas, const float *out, const float *dout, size_t nout)
{
   const int reps = 5;
   double to[reps], tc[reps];
   for (int r = -1; r < reps; r++) {
      double t0 = now_s();
      oblas();
      double t1 = now_s();
      cublas();
      BENCH_CHECK(cudaDeviceSynchronize());
      double t2 = now_s();
      if (r >= 0) {
         to[r] = t1 - t0;
         tc[r] = t2 - t1;
      }
   }
   std::vector<float> got(nout);
   BENCH_CHECK(cudaMemcpy(got.data(), dout, nout * 4, cudaMemcpyDeviceToHost));
   double e = maxrel(got.data(), out, nout);
   if (e > 1e-3) {
      printf("NOTE %s differs from OpenBLAS (%.3g): not reported\n", name, e);
      return 1;
   }
   double x = median(to, reps), y = median(tc, reps);
   char v[96], ref[96];
   snprintf(v, sizeof(v), "%.2f GFLOP/s", flops / y * 1e-9);
   snprintf(ref, sizeof(ref), "OpenBLAS %.2f GFLOP/s", flops / x * 1e-9);
   row(name, v, ref, x / y, "OpenBLAS time / cuBLAS time, higher is better (an element of y or C per thread)");
   return 0;
}

template <class F> static F sym(const char *name)
{
   F f = (F)dlsym(ob, name);
   if (!f) {
      printf("NOTE OpenBLAS has no %s: nothing measured\n", name);
      exit(1);
   }
   return f;
}

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 2048;
   print_device();
   ob = open_openblas();
   if (!ob)
      return 1;
   void (*setthreads)(int) = (void (*)(int))dlsym(ob, "openblas_set_num_threads");
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   if (setthreads)
      setthreads((int)cores);
   typedef void (*sgemv_fn)(int, int, int, int, float, const float *, int, const float *, int, float, float *, int);
   typedef void (*ssymv_fn)(int, int, int, float, const float *, int, const float *, int, float, float *, int);
   typedef void (*sgbmv_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float,
                            float *, int);
   typedef void (*chemv_fn)(int, int, int, const void *, const void *, int, const void *, int, const void *, void *,
                            int);
   typedef void (*cherk_fn)(int, int, int, int, int, float, const void *, int, float, void *, int);
   sgemv_fn sgemv = sym<sgemv_fn>("cblas_sgemv");
   ssymv_fn ssymv = sym<ssymv_fn>("cblas_ssymv");
   sgbmv_fn sgbmv = sym<sgbmv_fn>("cblas_sgbmv");
   chemv_fn chemv = sym<chemv_fn>("cblas_chemv");
   cherk_fn cherk = sym<cherk_fn>("cblas_cherk");
   size_t N = (size_t)n * n;
   std::vector<float> A(2 * N), x(2 * n), y(2 * n);
   for (size_t i = 0; i < A.size(); i++)
      A[i] = (float)((i * 7) % 13) / 13 - 0.5f;
   for (int i = 0; i < 2 * n; i++)
      x[i] = (float)((i * 5) % 11) / 11 - 0.5f;
   float *dA, *dx, *dy;
   BENCH_CHECK(cudaMalloc(&dA, 2 * N * 4));
   BENCH_CHECK(cudaMalloc(&dx, 2 * n * 4));
   BENCH_CHECK(cudaMalloc(&dy, 2 * n * 4));
   BENCH_CHECK(cudaMemcpy(dA, A.data(), 2 * N * 4, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dx, x.data(), 2 * n * 4, cudaMemcpyHostToDevice));
   if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      return 1;
   float one = 1, zero = 0;
   float cone[2] = { 1, 0 }, czero[2] = { 0, 0 };
   char name[96];
   int bad = 0;
   for (int t = 0; t < 2; t++) {
      snprintf(name, sizeof(name), "cublasSgemv %s %dx%d vs OpenBLAS", t ? "T" : "N", n, n);
      bad |= measure(name, 2.0 * N, [&] { sgemv(102, t ? 112 : 111, n, n, 1.f, A.data(), n, x.data(), 1, 0.f, y.data(), 1); },
                     [&] { cublasSgemv(h, t ? CUBLAS_OP_T : CUBLAS_OP_N, n, n, &one, dA, n, dx, 1, &zero, dy, 1); },
                     y.data(), dy, n);
   }
   snprintf(name, sizeof(name), "cublasSsymv lower %d vs OpenBLAS", n);
   bad |= measure(name, 2.0 * N, [&] { ssymv(102, 122, n, 1.f, A.data(), n, x.data(), 1, 0.f, y.data(), 1); },
                  [&] { cublasSsymv(h, CUBLAS_FILL_MODE_LOWER, n, &one, dA, n, dx, 1, &zero, dy, 1); }, y.data(), dy, n);
   int kb = 16;   /* gbmv: kl = ku = kb, lda = 2 kb + 1 */
   snprintf(name, sizeof(name), "cublasSgbmv N %d kl=ku=%d vs OpenBLAS", n, kb);
   bad |= measure(name, 2.0 * n * (2 * kb + 1),
                  [&] { sgbmv(102, 111, n, n, kb, kb, 1.f, A.data(), 2 * kb + 1, x.data(), 1, 0.f, y.data(), 1); },
                  [&] { cublasSgbmv(h, CUBLAS_OP_N, n, n, kb, kb, &one, dA, 2 * kb + 1, dx, 1, &zero, dy, 1); },
                  y.data(), dy, n);
   /* complex: A, x as n x n and n complex numbers */
   snprintf(name, sizeof(name), "cublasChemv lower %d vs OpenBLAS", n);
   bad |= measure(name, 8.0 * N, [&] { chemv(102, 122, n, cone, A.data(), n, x.data(), 1, czero, y.data(), 1); },
                  [&] {
                     cublasChemv(h, CUBLAS_FILL_MODE_LOWER, n, (cuComplex *)cone, (cuComplex *)dA, n, (cuComplex *)dx,
                                 1, (cuComplex *)czero, (cuComplex *)dy, 1);
                  },
                  y.data(), dy, 2 * n);
   int hn = n / 4;   /* cherk: C = A A^H, hn x hn, k = hn */
   std::vector<float> C(2 * (size_t)hn * hn, 0.f);
   float *dC;
   BENCH_CHECK(cudaMalloc(&dC, C.size() * 4));
   BENCH_CHECK(cudaMemset(dC, 0, C.size() * 4));
   snprintf(name, sizeof(name), "cublasCherk lower %dx%d k=%d vs OpenBLAS", hn, hn, hn);
   /* OpenBLAS writes only the lower triangle too: compare all of C (upper zero in both) */
   bad |= measure(name, 4.0 * hn * hn * hn, [&] { cherk(102, 122, 111, hn, hn, 1.f, A.data(), hn, 0.f, C.data(), hn); },
                  [&] {
                     cublasCherk(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, hn, hn, &one, (cuComplex *)dA, hn, &zero,
                                 (cuComplex *)dC, hn);
                  },
                  C.data(), dC, C.size());
   cublasDestroy(h);
   return bad;
}
