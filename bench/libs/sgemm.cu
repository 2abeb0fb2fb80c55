/*
 * sgemm.cu — SGEMM and DGEMM through libcublas against OpenBLAS on the same
 * cores, and against a CUDA-sample-style shared-memory GEMM (matrixMul:
 * 32 x 32 tiles of A and B in shared memory, one element of C per thread)
 * run by the same runtime, in one run (bench/cublas.sh); and STRSM and
 * STRMM (left, lower, no transpose, TN x TN, TN default 512) against
 * OpenBLAS; cublasXtSsyrk (lower, N, TN x TN, matrices in host memory, so
 * the copies count) against OpenBLAS's ssyrk.
 *
 * Square n x n x n, column-major, alpha 1, beta 0; each the median of
 * several repetitions after a warm-up.  Results are checked against each
 * other (relative difference within 1e-3 for float) so that a fast wrong
 * answer cannot win.  OpenBLAS is dlopen'ed and given as many threads as
 * the machine has cores, as the software device's worker pool has.
 */
#include <cublasXt.h>
#include <cublas_v2.h>
#include <dlfcn.h>
#include <math.h>
#include <unistd.h>
#include "../bench.h"

#define TILE 32
/* C = A B, the CUDA samples' matrixMul shape (column-major here) */
__global__ void sample_gemm(int n, const float *A, const float *B, float *C)
{
   __shared__ float As[TILE][TILE], Bs[TILE][TILE];
   int tx = threadIdx.x, ty = threadIdx.y;
   int row = blockIdx.x * TILE + tx, col = blockIdx.y * TILE + ty;
   float acc = 0;
   for (int t = 0; t < n; t += TILE) {
      As[ty][tx] = A[row + (size_t)(t + ty) * n];
      Bs[ty][tx] = B[(t + tx) + (size_t)col * n];
      __syncthreads();
      for (int k = 0; k < TILE; k++)
         acc += As[k][tx] * Bs[ty][k];
      __syncthreads();
   }
   C[row + (size_t)col * n] = acc;
}

typedef void (*sgemm_fn)(int, int, int, int, int, int, float, const float *, int, const float *, int, float, float *,
                         int);
typedef void (*strsm_fn)(int, int, int, int, int, int, int, float, const float *, int, float *, int);
typedef strsm_fn strmm_fn;   /* the same arguments */
typedef void (*ssyrk_fn)(int, int, int, int, int, float, const float *, int, float, float *, int);
typedef void (*dgemm_fn)(int, int, int, int, int, int, double, const double *, int, const double *, int, double,
                         double *, int);

int main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 1024, dn = argc > 2 ? atoi(argv[2]) : 256, tn = argc > 3 ? atoi(argv[3]) : 512;
   print_device();
   void *ob = open_openblas();
   if (!ob)
      return 1;
   sgemm_fn osgemm = (sgemm_fn)dlsym(ob, "cblas_sgemm");
   dgemm_fn odgemm = (dgemm_fn)dlsym(ob, "cblas_dgemm");
   void (*setthreads)(int) = (void (*)(int))dlsym(ob, "openblas_set_num_threads");
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   if (setthreads)
      setthreads((int)cores);
   size_t N = (size_t)n * n;
   float *A = (float *)malloc(N * 4), *B = (float *)malloc(N * 4), *C = (float *)malloc(N * 4),
         *C1 = (float *)malloc(N * 4), *C2 = (float *)malloc(N * 4);
   for (size_t i = 0; i < N; i++) {
      A[i] = (float)((i * 7) % 13) / 13 - 0.5f;
      B[i] = (float)((i * 5) % 11) / 11 - 0.5f;
   }
   float *dA, *dB, *dC;
   BENCH_CHECK(cudaMalloc(&dA, N * 4));
   BENCH_CHECK(cudaMalloc(&dB, N * 4));
   BENCH_CHECK(cudaMalloc(&dC, N * 4));
   BENCH_CHECK(cudaMemcpy(dA, A, N * 4, cudaMemcpyHostToDevice));
   BENCH_CHECK(cudaMemcpy(dB, B, N * 4, cudaMemcpyHostToDevice));
   cublasHandle_t h;
   if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS)
      return 1;
   float one = 1, zero = 0;
   int reps = 5;
   double t_ob = 0, t_cb = 0, t_sm = 0;
   /* interleaved, so that load changes hit all three alike */
   double tob[5], tcb[5], tsm[5];
   for (int r = -1; r < reps; r++) {
      double a = timed_median(1, [&] { osgemm(102, 111, 111, n, n, n, 1.f, A, n, B, n, 0.f, C, n); });
      double b = timed_median(1, [&] {
         cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n);
         BENCH_CHECK(cudaDeviceSynchronize());
      });
      double c = timed_median(1, [&] {
         sample_gemm<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(n, dA, dB, dC);
         BENCH_CHECK(cudaDeviceSynchronize());
      });
      if (r >= 0) {
         tob[r] = a;
         tcb[r] = b;
         tsm[r] = c;
      }
   }
   t_ob = median(tob, reps);
   t_cb = median(tcb, reps);
   t_sm = median(tsm, reps);
   BENCH_CHECK(cudaMemcpy(C2, dC, N * 4, cudaMemcpyDeviceToHost));   /* the sample's */
   cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n);
   BENCH_CHECK(cudaMemcpy(C1, dC, N * 4, cudaMemcpyDeviceToHost));
   double e1 = maxrel(C1, C, N), e2 = maxrel(C2, C, N);
   if (e1 > 1e-3 || e2 > 1e-3) {
      printf("NOTE results differ from OpenBLAS (cuBLAS %.3g, sample %.3g): not reported\n", e1, e2);
      return 1;
   }
   double fl = 2.0 * n * n * n;
   char v[96], ref[96];
   snprintf(v, sizeof(v), "%.1f GFLOP/s", fl / t_cb * 1e-9);
   snprintf(ref, sizeof(ref), "OpenBLAS %ld threads %.1f GFLOP/s", cores, fl / t_ob * 1e-9);
   char name[96];
   snprintf(name, sizeof(name), "cublasSgemm %dx%dx%d vs OpenBLAS", n, n, n);
   row(name, v, ref, t_ob / t_cb, "OpenBLAS time / cuBLAS time, higher is better (target >= 0.5)");
   snprintf(ref, sizeof(ref), "sample GEMM %.1f GFLOP/s", fl / t_sm * 1e-9);
   snprintf(name, sizeof(name), "cublasSgemm %dx%dx%d vs shared-memory GEMM", n, n, n);
   row(name, v, ref, t_sm / t_cb, "sample time / cuBLAS time, higher is better (target > 1)");
   /* DGEMM (smaller: fp64 is software on Metal) */
   if (dn > 0) {
      size_t M = (size_t)dn * dn;
      double *a = (double *)malloc(M * 8), *b = (double *)malloc(M * 8), *c = (double *)malloc(M * 8), *da, *db, *dc;
      for (size_t i = 0; i < M; i++) {
         a[i] = A[i];
         b[i] = B[i];
      }
      BENCH_CHECK(cudaMalloc(&da, M * 8));
      BENCH_CHECK(cudaMalloc(&db, M * 8));
      BENCH_CHECK(cudaMalloc(&dc, M * 8));
      BENCH_CHECK(cudaMemcpy(da, a, M * 8, cudaMemcpyHostToDevice));
      BENCH_CHECK(cudaMemcpy(db, b, M * 8, cudaMemcpyHostToDevice));
      double d1 = 1, d0 = 0;
      double x = timed_median(3, [&] { odgemm(102, 111, 111, dn, dn, dn, 1., a, dn, b, dn, 0., c, dn); });
      double y = timed_median(3, [&] {
         cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, dn, dn, dn, &d1, da, dn, db, dn, &d0, dc, dn);
         BENCH_CHECK(cudaDeviceSynchronize());
      });
      double dfl = 2.0 * dn * dn * dn;
      snprintf(v, sizeof(v), "%.2f GFLOP/s", dfl / y * 1e-9);
      snprintf(ref, sizeof(ref), "OpenBLAS %.1f GFLOP/s", dfl / x * 1e-9);
      snprintf(name, sizeof(name), "cublasDgemm %dx%dx%d vs OpenBLAS", dn, dn, dn);
      row(name, v, ref, x / y, "OpenBLAS time / cuBLAS time, higher is better (fp64 is integer code on Metal)");
   }
   /* STRSM: B = A^-1 B in place, A lower triangular and well conditioned
    * (off-diagonal entries small against a diagonal of 1..2); B is
    * restored before each run, outside the timing */
   strsm_fn ostrsm = (strsm_fn)dlsym(ob, "cblas_strsm");
   if (tn > 0 && ostrsm) {
      size_t M = (size_t)tn * tn;
      float *ta = (float *)malloc(M * 4), *tb = (float *)malloc(M * 4), *tr = (float *)malloc(M * 4),
            *tg = (float *)malloc(M * 4), *da, *db;
      for (int j = 0; j < tn; j++)
         for (int i = 0; i < tn; i++) {
            size_t e = i + (size_t)j * tn;
            ta[e] = i == j ? 1.f + (float)((e * 3) % 7) / 7 : i > j ? (A[e % N] / tn) : 0.f;
            tb[e] = B[e % N];
         }
      BENCH_CHECK(cudaMalloc(&da, M * 4));
      BENCH_CHECK(cudaMalloc(&db, M * 4));
      BENCH_CHECK(cudaMemcpy(da, ta, M * 4, cudaMemcpyHostToDevice));
      double to[5], tc[5];
      for (int r = -1; r < reps; r++) {
         memcpy(tr, tb, M * 4);
         double t0 = now_s();
         ostrsm(102, 141, 122, 111, 131, tn, tn, 1.f, ta, tn, tr, tn);   /* left, lower, N, non-unit */
         double t1 = now_s();
         BENCH_CHECK(cudaMemcpy(db, tb, M * 4, cudaMemcpyHostToDevice));
         double t2 = now_s();
         cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, tn, tn, &one, da,
                     tn, db, tn);
         BENCH_CHECK(cudaDeviceSynchronize());
         double t3 = now_s();
         if (r >= 0) {
            to[r] = t1 - t0;
            tc[r] = t3 - t2;
         }
      }
      BENCH_CHECK(cudaMemcpy(tg, db, M * 4, cudaMemcpyDeviceToHost));
      double e = maxrel(tg, tr, M);
      if (e > 1e-3) {
         printf("NOTE STRSM differs from OpenBLAS (%.3g): not reported\n", e);
         return 1;
      }
      double x = median(to, reps), y = median(tc, reps), tfl = (double)tn * tn * tn;
      snprintf(v, sizeof(v), "%.2f GFLOP/s", tfl / y * 1e-9);
      snprintf(ref, sizeof(ref), "OpenBLAS %.1f GFLOP/s", tfl / x * 1e-9);
      snprintf(name, sizeof(name), "cublasStrsm %dx%d left lower vs OpenBLAS", tn, tn);
      row(name, v, ref, x / y, "OpenBLAS time / cuBLAS time, higher is better (64-row blocks, GEMM updates)");
      /* STRMM, the same A and B: C = A B out of place (cuBLAS's form;
       * BLAS's is in place, so OpenBLAS gets a fresh B each run) */
      strmm_fn ostrmm = (strmm_fn)dlsym(ob, "cblas_strmm");
      float *dc2;
      BENCH_CHECK(cudaMalloc(&dc2, M * 4));
      BENCH_CHECK(cudaMemcpy(db, tb, M * 4, cudaMemcpyHostToDevice));
      for (int r = -1; ostrmm && r < reps; r++) {
         memcpy(tr, tb, M * 4);
         double t0 = now_s();
         ostrmm(102, 141, 122, 111, 131, tn, tn, 1.f, ta, tn, tr, tn);
         double t1 = now_s();
         cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, tn, tn, &one, da,
                     tn, db, tn, dc2, tn);
         BENCH_CHECK(cudaDeviceSynchronize());
         double t2 = now_s();
         if (r >= 0) {
            to[r] = t1 - t0;
            tc[r] = t2 - t1;
         }
      }
      if (ostrmm) {
         BENCH_CHECK(cudaMemcpy(tg, dc2, M * 4, cudaMemcpyDeviceToHost));
         e = maxrel(tg, tr, M);
         if (e > 1e-3) {
            printf("NOTE STRMM differs from OpenBLAS (%.3g): not reported\n", e);
            return 1;
         }
         x = median(to, reps);
         y = median(tc, reps);
         snprintf(v, sizeof(v), "%.2f GFLOP/s", tfl / y * 1e-9);
         snprintf(ref, sizeof(ref), "OpenBLAS %.1f GFLOP/s", tfl / x * 1e-9);
         snprintf(name, sizeof(name), "cublasStrmm %dx%d left lower vs OpenBLAS", tn, tn);
         row(name, v, ref, x / y, "OpenBLAS time / cuBLAS time, higher is better (64-row blocks, GEMM updates)");
      }
   }
   /* cublasXtSsyrk: C = A A^T on C's lower triangle, host matrices */
   ssyrk_fn ossyrk = (ssyrk_fn)dlsym(ob, "cblas_ssyrk");
   cublasXtHandle_t xh;
   int dev0 = 0;
   if (tn > 0 && ossyrk && cublasXtCreate(&xh) == CUBLAS_STATUS_SUCCESS &&
       cublasXtDeviceSelect(xh, 1, &dev0) == CUBLAS_STATUS_SUCCESS) {
      size_t M = (size_t)tn * tn;
      float *sa = (float *)malloc(M * 4), *so = (float *)calloc(M, 4), *sx = (float *)calloc(M, 4);
      for (size_t e = 0; e < M; e++)
         sa[e] = A[e % N];
      double to[5], tc[5];
      for (int r = -1; r < reps; r++) {
         double t0 = now_s();
         ossyrk(102, 122, 111, tn, tn, 1.f, sa, tn, 0.f, so, tn);   /* lower, N */
         double t1 = now_s();
         cublasXtSsyrk(xh, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, tn, tn, &one, sa, tn, &zero, sx, tn);
         double t2 = now_s();
         if (r >= 0) {
            to[r] = t1 - t0;
            tc[r] = t2 - t1;
         }
      }
      double e = 0;
      for (int j = 0; j < tn; j++)
         for (int i = j; i < tn; i++) {
            size_t k = i + (size_t)j * tn;
            double d = fabs((double)sx[k] - so[k]) / (fabs((double)so[k]) + 1);
            e = d > e ? d : e;
         }
      if (e > 1e-3) {
         printf("NOTE cublasXtSsyrk differs from OpenBLAS (%.3g): not reported\n", e);
         return 1;
      }
      double x = median(to, reps), y = median(tc, reps), sfl = (double)tn * tn * tn;
      snprintf(v, sizeof(v), "%.2f GFLOP/s", sfl / y * 1e-9);
      snprintf(ref, sizeof(ref), "OpenBLAS %.1f GFLOP/s", sfl / x * 1e-9);
      snprintf(name, sizeof(name), "cublasXtSsyrk %dx%d lower host matrices vs OpenBLAS", tn, tn);
      row(name, v, ref, x / y, "OpenBLAS time / cublasXt time, higher is better (copies in and out included)");
      cublasXtDestroy(xh);
      free(sa);
      free(so);
      free(sx);
   }
   cublasDestroy(h);
   return 0;
}
