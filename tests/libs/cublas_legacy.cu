/*
 * cublas_legacy.cu — cuBLAS's legacy API (cublas.h): cublasInit and
 * cublasShutdown, cublasAlloc/cublasFree, cublasSetKernelStream,
 * cublasGetError (the last routine's status; first use without
 * cublasInit, also after cublasShutdown), and BLAS routines of each level with
 * char modes (either case), scalars by value and results returned: dot,
 * nrm2, asum, iamax, axpy, scal, rot, rotg (s and c: b by value), cdotc,
 * gemv, ger, trsv, gemm (every transpose pair), symm, syrk, cherk (real
 * alpha and beta), trmm (in place) and trsm; bad modes and sizes.
 *
 * Expected values: double loops on the host from the BLAS definitions,
 * within 2(k+2)u of the magnitudes (solves by their residual); iamax and
 * the copies exactly.  Statuses: an H200's.
 */
#include <cublas.h>
#include "../cuda/check.h"
#include "transfer.h"

#include <math.h>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))
static const double UF = 0x1p-24, UD = 0x1p-53;

static bool near(double got, double want, double bound, const char *what)
{
   bool ok = fabs(got - want) <= bound;
   if (!ok)
      printf("  %s: got %.17g, want %.17g (bound %.3g)\n", what, got, want, bound);
   return CHECK(ok);
}

/* column-major element (i, j) with leading dimension ld */
#define AT(A, i, j, ld) (A)[(size_t)(j) * (ld) + (i)]

static std::vector<float> fill(int n, int seed)
{
   std::vector<float> v(n);
   for (int i = 0; i < n; i++)
      v[i] = (float)(((i + 1) * (seed * 7 + 13)) % 23 - 11) / 8.0f;
   return v;
}

/* op(A)(i, l) of an m-by-k product for a char mode */
static double opA(const std::vector<float> &A, int lda, char t, int i, int l)
{
   return (t == 'N' || t == 'n') ? AT(A, i, l, lda) : AT(A, l, i, lda);
}

static void level1(void)
{
   const int n = 100;
   std::vector<float> x = fill(n, 1), y = fill(n, 2);
   float *dx = NULL, *dy = NULL;
   CHECK_ST(cublasAlloc(n, sizeof(float), (void **)&dx), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasAlloc(n, sizeof(float), (void **)&dy), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetVector(n, sizeof(float), x.data(), 1, dx, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetVector(n, sizeof(float), y.data(), 1, dy, 1), CUBLAS_STATUS_SUCCESS);
   double dot = 0, nrm = 0, asum = 0, mag = 0;
   int imax = 0;
   for (int i = 0; i < n; i++) {
      dot += (double)x[i] * y[i];
      mag += fabs((double)x[i] * y[i]);
      nrm += (double)x[i] * x[i];
      asum += fabs(x[i]);
      if (fabs(x[i]) > fabs(x[imax]))
         imax = i;
   }
   near(cublasSdot(n, dx, 1, dy, 1), dot, 2 * n * UF * mag, "Sdot");
   near(cublasSnrm2(n, dx, 1), sqrt(nrm), 2 * n * UF * sqrt(nrm), "Snrm2");
   near(cublasSasum(n, dx, 1), asum, 2 * n * UF * asum, "Sasum");
   CHECK_INT(cublasIsamax(n, dx, 1), imax + 1);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   cublasSaxpy(n, 0.5f, dx, 1, dy, 1);
   cublasSscal(n, -2.0f, dx, 1);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   std::vector<float> gx(n), gy(n);
   CHECK_ST(cublasGetVector(n, sizeof(float), dx, 1, gx.data(), 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetVector(n, sizeof(float), dy, 1, gy.data(), 1), CUBLAS_STATUS_SUCCESS);
   for (int i = 0; i < n; i++) {
      CHECK_F32(gx[i], -2.0f * x[i]);
      near(gy[i], 0.5 * x[i] + y[i], 2 * UF * (fabs(x[i]) + fabs(y[i])), "Saxpy");
   }
   /* rot with c, s by value */
   cublasSrot(n, dx, 1, dy, 1, 0.6f, 0.8f);
   std::vector<float> rx(n), ry(n);
   CHECK_ST(cublasGetVector(n, sizeof(float), dx, 1, rx.data(), 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetVector(n, sizeof(float), dy, 1, ry.data(), 1), CUBLAS_STATUS_SUCCESS);
   for (int i = 0; i < n; i++) {
      double b = 4 * UF * (fabs(gx[i]) + fabs(gy[i]));
      near(rx[i], 0.6 * gx[i] + 0.8 * gy[i], b, "Srot x");
      near(ry[i], 0.6 * gy[i] - 0.8 * gx[i], b, "Srot y");
   }
   float a = 3, bb = 4, c, s;
   cublasSrotg(&a, &bb, &c, &s);
   near(a, 5, 20 * UF, "Srotg r");
   near(c, 0.6, 4 * UF, "Srotg c");
   near(s, 0.8, 4 * UF, "Srotg s");
   cuComplex ca = make_cuComplex(3, 4), cs;
   float cc;
   cublasCrotg(&ca, make_cuComplex(0, 5), &cc, &cs);
   /* |a| = 5, |b| = 5: c = 1/sqrt2, s = (a/|a|) conj(b) / norm, r = (a/|a|) norm */
   double norm = 5 * sqrt(2.0);
   near(cc, 5 / norm, 8 * UF, "Crotg c");
   near(cs.x, (0.6 * 0 + 0.8 * 5) / norm, 8 * UF, "Crotg s.re");
   near(cs.y, (0.8 * 0 - 0.6 * 5) / norm, 8 * UF, "Crotg s.im");
   near(ca.x, 0.6 * norm, 8 * UF * norm, "Crotg r.re");
   near(ca.y, 0.8 * norm, 8 * UF * norm, "Crotg r.im");
   /* a complex result by value */
   std::vector<cuComplex> zx(n), zy(n);
   for (int i = 0; i < n; i++) {
      zx[i] = make_cuComplex(x[i], y[i]);
      zy[i] = make_cuComplex(y[i], -x[i] / 2);
   }
   cuComplex *dzx = dev(zx), *dzy = dev(zy);
   cd want = 0;
   double zm = 0;
   for (int i = 0; i < n; i++) {
      want += std::conj(toc(zx[i])) * toc(zy[i]);
      zm += abs(toc(zx[i])) * abs(toc(zy[i]));
   }
   cuComplex got = cublasCdotc(n, dzx, 1, dzy, 1);
   near(got.x, want.real(), 4 * n * UF * zm, "Cdotc re");
   near(got.y, want.imag(), 4 * n * UF * zm, "Cdotc im");
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasFree(dx), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasFree(dy), CUBLAS_STATUS_SUCCESS);
   cudaFree(dzx);
   cudaFree(dzy);
}

static void level2(void)
{
   const int m = 37, n = 29, lda = 40;
   std::vector<float> A = fill(lda * n, 3), x = fill(n, 4), y = fill(m, 5);
   float *dA = dev(A), *dx = dev(x), *dy = dev(y);
   cublasSgemv('n', m, n, 1.5f, dA, lda, dx, 1, -0.5f, dy, 1);
   std::vector<float> g = host(dy, m);
   for (int i = 0; i < m; i++) {
      double w = 0, mg = 0;
      for (int j = 0; j < n; j++) {
         w += (double)AT(A, i, j, lda) * x[j];
         mg += fabs((double)AT(A, i, j, lda) * x[j]);
      }
      near(g[i], 1.5 * w - 0.5 * y[i], 2 * (n + 2) * UF * (1.5 * mg + 0.5 * fabs(y[i])), "Sgemv");
   }
   /* ger: A += alpha y x^T */
   std::vector<float> y2 = host(dy, m);
   cublasSger(m, n, 0.25f, dy, 1, dx, 1, dA, lda);
   std::vector<float> gA = host(dA, (size_t)lda * n);
   for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
         double w = AT(A, i, j, lda) + 0.25 * y2[i] * x[j];
         near(AT(gA, i, j, lda), w, 4 * UF * (fabs(AT(A, i, j, lda)) + fabs(0.25 * y2[i] * x[j])), "Sger");
      }
   /* trsv: solve U^T z = b (upper, transposed, non-unit) and check the residual */
   const int k = 33;
   std::vector<float> U((size_t)k * k, 0.0f), b = fill(k, 6);
   for (int j = 0; j < k; j++)
      for (int i = 0; i <= j; i++)
         AT(U, i, j, k) = i == j ? 4.0f + (float)(j % 3) : (float)(((i * 5 + j * 3) % 7) - 3) / 16.0f;
   float *dU = dev(U), *db = dev(b);
   cublasStrsv('U', 'T', 'N', k, dU, k, db, 1);
   std::vector<float> z = host(db, k);
   for (int i = 0; i < k; i++) {
      double r = 0, mg = 0;
      for (int l = 0; l <= i; l++) {
         r += (double)AT(U, l, i, k) * z[l];
         mg += fabs((double)AT(U, l, i, k) * z[l]);
      }
      near(r, b[i], 2 * (k + 2) * UF * mg, "Strsv residual");
   }
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   cudaFree(dA);
   cudaFree(dx);
   cudaFree(dy);
   cudaFree(dU);
   cudaFree(db);
}

static void gemm_case(char ta, char tb)
{
   const int m = 19, n = 23, k = 17, ld = 30;
   std::vector<float> A = fill(ld * 30, 7), B = fill(ld * 30, 8), C = fill(ld * n, 9);
   float *dA = dev(A), *dB = dev(B), *dC = dev(C);
   cublasSgemm(ta, tb, m, n, k, 0.75f, dA, ld, dB, ld, 1.25f, dC, ld);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   std::vector<float> g = host(dC, (size_t)ld * n);
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ld; i++) {
         if (i >= m) {   /* padding rows untouched */
            CHECK_F32(AT(g, i, j, ld), AT(C, i, j, ld));
            continue;
         }
         double w = 0, mg = 0;
         for (int l = 0; l < k; l++) {
            double p = opA(A, ld, ta, i, l) * ((tb == 'N' || tb == 'n') ? AT(B, l, j, ld) : AT(B, j, l, ld));
            w += p;
            mg += fabs(p);
         }
         near(AT(g, i, j, ld), 0.75 * w + 1.25 * AT(C, i, j, ld),
              2 * (k + 2) * UF * (0.75 * mg + 1.25 * fabs(AT(C, i, j, ld))), "Sgemm");
      }
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
}

static void level3(void)
{
   const char modes[] = { 'N', 't', 'C' };
   for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++)
         gemm_case(modes[a], modes[b]);
   /* trmm in place: B = alpha L B (left, lower, no transpose, unit diagonal) */
   const int m = 21, n = 13;
   std::vector<double> L((size_t)m * m), B((size_t)m * n);
   for (size_t i = 0; i < L.size(); i++)
      L[i] = (double)((i * 11) % 9) / 4 - 1;
   for (size_t i = 0; i < B.size(); i++)
      B[i] = (double)((i * 5) % 13) / 8 - 0.75;
   double *dL = dev(L), *dB = dev(B);
   cublasDtrmm('l', 'L', 'N', 'U', m, n, 2.0, dL, m, dB, m);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   std::vector<double> g = host(dB, B.size());
   for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
         double w = AT(B, i, j, m), mg = fabs(w);
         for (int l = 0; l < i; l++) {
            w += AT(L, i, l, m) * AT(B, l, j, m);
            mg += fabs(AT(L, i, l, m) * AT(B, l, j, m));
         }
         near(AT(g, i, j, m), 2 * w, 2 * (m + 2) * UD * 2 * mg, "Dtrmm in place");
      }
   /* trsm: solve X L^T = alpha B (right, lower, transposed), by the residual */
   std::vector<double> B2 = B;
   double *dB2 = dev(B2), *dL2 = NULL;
   std::vector<double> L2((size_t)n * n, 0.0);
   for (int j = 0; j < n; j++)
      for (int i = j; i < n; i++)
         AT(L2, i, j, n) = i == j ? 3.0 + j % 2 : (double)((i + 2 * j) % 5 - 2) / 8;
   dL2 = dev(L2);
   cublasDtrsm('R', 'L', 'T', 'N', m, n, 1.0, dL2, n, dB2, m);
   std::vector<double> X = host(dB2, B2.size());
   for (int i = 0; i < m; i++)
      for (int j = 0; j < n; j++) {
         double r = 0, mg = 0;
         for (int l = 0; l <= j; l++) {   /* (X L^T)(i, j) = sum_l X(i, l) L(j, l) */
            r += AT(X, i, l, m) * AT(L2, j, l, n);
            mg += fabs(AT(X, i, l, m) * AT(L2, j, l, n));
         }
         near(r, AT(B2, i, j, m), 2 * (n + 2) * UD * mg, "Dtrsm residual");
      }
   /* syrk: C = alpha A A^T + beta C, upper triangle; the lower one untouched */
   const int nn = 15, kk = 9;
   std::vector<float> A = fill(nn * kk, 10), C = fill(nn * nn, 11);
   float *dA = dev(A), *dC = dev(C);
   cublasSsyrk('U', 'N', nn, kk, 1.0f, dA, nn, 0.5f, dC, nn);
   std::vector<float> gc = host(dC, C.size());
   for (int j = 0; j < nn; j++)
      for (int i = 0; i < nn; i++) {
         if (i > j) {
            CHECK_F32(AT(gc, i, j, nn), AT(C, i, j, nn));
            continue;
         }
         double w = 0, mg = 0;
         for (int l = 0; l < kk; l++) {
            w += (double)AT(A, i, l, nn) * AT(A, j, l, nn);
            mg += fabs((double)AT(A, i, l, nn) * AT(A, j, l, nn));
         }
         near(AT(gc, i, j, nn), w + 0.5 * AT(C, i, j, nn), 2 * (kk + 2) * UF * (mg + fabs(AT(C, i, j, nn))), "Ssyrk");
      }
   /* cherk with real alpha and beta by value */
   std::vector<cuComplex> Z(nn * kk), H(nn * nn);
   for (int i = 0; i < nn * kk; i++)
      Z[i] = make_cuComplex(A[i], A[(i * 7) % (nn * kk)]);
   for (int i = 0; i < nn * nn; i++)
      H[i] = make_cuComplex(C[i], 0);
   cuComplex *dZ = dev(Z), *dH = dev(H);
   cublasCherk('L', 'N', nn, kk, 2.0f, dZ, nn, 0.0f, dH, nn);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   std::vector<cuComplex> gh = host(dH, H.size());
   for (int j = 0; j < nn; j++)
      for (int i = j; i < nn; i++) {
         cd w = 0;
         double mg = 0;
         for (int l = 0; l < kk; l++) {
            w += toc(AT(Z, i, l, nn)) * std::conj(toc(AT(Z, j, l, nn)));
            mg += abs(toc(AT(Z, i, l, nn))) * abs(toc(AT(Z, j, l, nn)));
         }
         near(toc(AT(gh, i, j, nn)).real(), 2 * w.real(), 4 * (kk + 2) * UF * 2 * mg, "Cherk re");
         near(toc(AT(gh, i, j, nn)).imag(), i == j ? 0 : 2 * w.imag(), 4 * (kk + 2) * UF * 2 * mg, "Cherk im");
      }
   cudaFree(dL);
   cudaFree(dB);
   cudaFree(dB2);
   cudaFree(dL2);
   cudaFree(dA);
   cudaFree(dC);
   cudaFree(dZ);
   cudaFree(dH);
}

/* cublasGetError answers the last routine's status (a success included)
 * and clears it; bad modes (as an H200 answers) */
static void errors(void)
{
   float *d = NULL;
   CHECK_ST(cublasAlloc(64, sizeof(float), (void **)&d), CUBLAS_STATUS_SUCCESS);
   void *bad = NULL;   /* (NVIDIA's cublasAlloc may write it even when it fails) */
   CHECK_ST(cublasAlloc(0, sizeof(float), &bad), CUBLAS_STATUS_INVALID_VALUE);
   cublasSgemm('X', 'N', 2, 2, 2, 1.0f, d, 2, d, 2, 0.0f, d, 2);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   cublasSgemm('N', 'X', 2, 2, 2, 1.0f, d, 2, d, 2, 0.0f, d, 2);
   cublasSaxpy(4, 1.0f, d, 1, d + 8, 1);   /* a success replaces it */
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   cublasStrsm('L', 'Q', 'N', 'N', 2, 2, 1.0f, d, 2, d, 2);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasFree(d), CUBLAS_STATUS_SUCCESS);
}

/* the legacy handle's stream */
static void stream(void)
{
   cudaStream_t s;
   CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   CHECK_ST(cublasSetKernelStream(s), CUBLAS_STATUS_SUCCESS);
   std::vector<float> x = fill(1000, 12);
   float *dx = dev(x);
   cublasSscal(1000, 2.0f, dx, 1);
   CHECK_CUDA(cudaStreamSynchronize(s));
   std::vector<float> g = host(dx, 1000);
   for (int i = 0; i < 1000; i++)
      CHECK_F32(g[i], 2.0f * x[i]);
   CHECK_ST(cublasSetKernelStream(0), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaStreamDestroy(s));
   cudaFree(dx);
}

int main(void)
{
   check_begin("cublas_legacy");
   /* before cublasInit: the first call makes the handle */
   float *early = NULL, ones[4] = { 1, -2, 3, -4 };
   CHECK_ST(cublasAlloc(4, sizeof(float), (void **)&early), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetVector(4, sizeof(float), ones, 1, early, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_F32(cublasSasum(4, early, 1), 10.0f);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasInit(), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasInit(), CUBLAS_STATUS_SUCCESS);
   level1();
   level2();
   level3();
   errors();
   stream();
   CHECK_ST(cublasShutdown(), CUBLAS_STATUS_SUCCESS);
   /* after cublasShutdown the next call makes a handle again; a second
    * shutdown succeeds */
   CHECK_F32(cublasSasum(4, early, 1), 10.0f);
   CHECK_ST(cublasGetError(), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasShutdown(), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasShutdown(), CUBLAS_STATUS_SUCCESS);
   cudaFree(early);
   return check_end();
}
