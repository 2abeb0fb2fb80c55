/*
 * lu.c — batched factorisations: getrfBatched, getrsBatched,
 * getriBatched, matinvBatched, geqrfBatched and gelsBatched (s d c z),
 * cuBLAS's routines for many small systems (no _64 forms in cuBLAS).
 *
 * getrf factors each matrix in place as P A = L U, LAPACK's getf2 by one
 * thread per matrix (partial pivoting on the largest |re| + |im| of the
 * column, the first on ties; P NULL: none), info per matrix the first
 * zero pivot (1-based).  getrs solves op(A) X = B with those factors and
 * getri forms C = A^-1 column by column (e_j through the same solve),
 * a thread per column of each matrix (kernels.cu: getrs).  matinv (n <=
 * 32, as cuBLAS limits it) inverts by Gauss-Jordan elimination with
 * partial pivoting, a thread per matrix.  geqrf is LAPACK's Householder
 * geqr2, a thread per matrix; gels (m >= n, op N only, as cuBLAS; its
 * devInfoArray optional, as cuBLAS documents and NVIDIA's own gelsBatched
 * example relies on) adds
 * Q^H C and the triangular solve.  Argument checks
 * follow cuBLAS's documentation (not yet checked on an H200); getrs's info
 * is a host integer, LAPACK's numbering of the bad parameter (-1 trans,
 * -2 n, -3 nrhs, -5 lda, -8 ldb, -10 batch), as are geqrf's and gels's.
 */
#include "cb.h"

#include <string.h>

LOG_CHANNEL(cublas);

#define MAX1(v) ((v) > 1 ? (v) : 1)

static unsigned blocks64(int64_t n)
{
   return (unsigned)((n + 63) / 64);
}

static cublasStatus_t getrf(cublasHandle_t h, char t, int n, void *const A[], int lda, int *P, int *info, int batch)
{
   CB_HANDLE(h);
   CB_CHECK(n >= 0 && batch >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= MAX1(n), CUBLAS_STATUS_INVALID_VALUE);
   if (n == 0 || batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && info, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK((int64_t)batch < 65535LL * 64, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.Barr = A;
   g.piv = P;
   g.info = info;
   g.lda = lda;
   g.n = n;
   g.batch = batch;
   char name[32];
   return cb_launch(h, cb_kname(name, "getrf", t), blocks64(batch), 1, 1, 64, 1, &g, sizeof(g));
}

/* getrs (solve) and getri (C = A^-1: B is C, nrhs n) */
static cublasStatus_t getrs(cublasHandle_t h, char t, bool solve, cublasOperation_t trans, int n, int nrhs,
                            const void *const A[], int lda, const int *P, void *const B[], int ldb, int *info,
                            int batch)
{
   CB_HANDLE(h);
   if (solve) {
      int bad = trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C ? -1
                : n < 0                                                               ? -2
                : nrhs < 0                                                            ? -3
                : lda < MAX1(n)                                                       ? -5
                : ldb < MAX1(n)                                                       ? -8
                : batch < 0                                                           ? -10
                                                                                      : 0;
      CB_CHECK(info, CUBLAS_STATUS_INVALID_VALUE);
      *info = bad;
      CB_CHECK(bad == 0, CUBLAS_STATUS_INVALID_VALUE);
   } else {
      CB_CHECK(n >= 0 && batch >= 0, CUBLAS_STATUS_INVALID_VALUE);
      CB_CHECK(lda >= MAX1(n) && ldb >= MAX1(n), CUBLAS_STATUS_INVALID_VALUE);
   }
   if (n == 0 || nrhs == 0 || batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && B && (solve || info), CUBLAS_STATUS_INVALID_VALUE);
   int64_t threads = (int64_t)batch * nrhs;
   CB_CHECK(threads < 65535LL * 64, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.Aarr = A;
   g.Barr = B;
   g.piv = (int32_t *)P;
   g.info = solve ? NULL : info;
   g.lda = lda;
   g.ldb = ldb;
   g.n = n;
   g.k = nrhs;
   g.batch = batch;
   g.solve = solve;
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   char name[32];
   return cb_launch(h, cb_kname(name, "getrs", t), blocks64(threads), 1, 1, 64, 1, &g, sizeof(g));
}

static cublasStatus_t matinv(cublasHandle_t h, char t, int n, const void *const A[], int lda, void *const Ainv[],
                             int ldi, int *info, int batch)
{
   CB_HANDLE(h);
   CB_CHECK(n >= 0 && n <= 32 && batch >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= MAX1(n) && ldi >= MAX1(n), CUBLAS_STATUS_INVALID_VALUE);
   if (n == 0 || batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && Ainv && info, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK((int64_t)batch < 65535LL * 64, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.Aarr = A;
   g.Barr = Ainv;
   g.info = info;
   g.lda = lda;
   g.ldb = ldi;
   g.n = n;
   g.batch = batch;
   char name[32];
   return cb_launch(h, cb_kname(name, "matinv", t), blocks64(batch), 1, 1, 64, 1, &g, sizeof(g));
}

/* geqrf (!gels) and gels (C: Q^H C, then the solution in its first n
 * rows; DEV_INFO optional, as cuBLAS documents it); info a host integer,
 * LAPACK's numbering */
static cublasStatus_t geqrf(cublasHandle_t h, char t, bool gels, cublasOperation_t trans, int m, int n, int nrhs,
                            void *const A[], int lda, void *const Tau[], void *const C[], int ldc, int *info,
                            int *dev_info, int batch)
{
   CB_HANDLE(h);
   int bad;
   if (gels)
      bad = m < 0 ? -2 : n < 0 ? -3 : nrhs < 0 ? -4 : lda < MAX1(m) ? -6 : ldc < MAX1(m) ? -8 : batch < 0 ? -11 : 0;
   else
      bad = m < 0 ? -1 : n < 0 ? -2 : lda < MAX1(m) ? -4 : batch < 0 ? -7 : 0;
   CB_CHECK(info, CUBLAS_STATUS_INVALID_VALUE);
   *info = bad;
   CB_CHECK(bad == 0, CUBLAS_STATUS_INVALID_VALUE);
   if (gels && (trans != CUBLAS_OP_N || m < n)) {
      *info = trans != CUBLAS_OP_N ? -1 : -2;
      CB_NOT_SUPPORTED("gelsBatched with op(A) transposed or m < n (as cuBLAS)");
   }
   if (m == 0 || n == 0 || batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && (gels ? C != NULL : Tau != NULL), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK((int64_t)batch < 65535LL * 64, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.Barr = A;
   g.Aarr = (const void *const *)Tau;
   g.Yarr = C;
   g.info = dev_info;
   g.lda = lda;
   g.ldb = ldc;
   g.m = m;
   g.n = n;
   g.k = nrhs;
   g.solve = gels;
   g.batch = batch;
   char name[32];
   return cb_launch(h, cb_kname(name, "geqrf", t), blocks64(batch), 1, 1, 64, 1, &g, sizeof(g));
}

#define LU(S, t, T)                                                                                    \
   CB_EXPORT cublasStatus_t cublas##S##getrfBatched(cublasHandle_t h, int n, T *const A[], int lda, int *P, int *info, \
                                                    int batch);                                       \
   CB_EXPORT cublasStatus_t cublas##S##getrfBatched(cublasHandle_t h, int n, T *const A[], int lda, int *P, int *info, \
                                                    int batch)                                        \
   {                                                                                                \
      CB_ENTER("handle=%p n=%d A=%p lda=%d P=%p info=%p batch=%d", (void *)h, n, (void *)A, lda, (void *)P, \
               (void *)info, batch);                                                                \
      return getrf(h, t, n, (void *const *)A, lda, P, info, batch);                                 \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##getrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, \
                                                    const T *const A[], int lda, const int *P, T *const B[], int ldb, \
                                                    int *info, int batch);                            \
   CB_EXPORT cublasStatus_t cublas##S##getrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, \
                                                    const T *const A[], int lda, const int *P, T *const B[], int ldb, \
                                                    int *info, int batch)                             \
   {                                                                                                \
      CB_ENTER("handle=%p trans=%d n=%d nrhs=%d A=%p lda=%d P=%p B=%p ldb=%d info=%p batch=%d", (void *)h, \
               (int)trans, n, nrhs, (const void *)A, lda, (const void *)P, (void *)B, ldb, (void *)info, batch); \
      return getrs(h, t, true, trans, n, nrhs, (const void *const *)A, lda, P, (void *const *)B, ldb, info, batch); \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##getriBatched(cublasHandle_t h, int n, const T *const A[], int lda, const int *P, \
                                                    T *const C[], int ldc, int *info, int batch);      \
   CB_EXPORT cublasStatus_t cublas##S##getriBatched(cublasHandle_t h, int n, const T *const A[], int lda, const int *P, \
                                                    T *const C[], int ldc, int *info, int batch)       \
   {                                                                                                \
      CB_ENTER("handle=%p n=%d A=%p lda=%d P=%p C=%p ldc=%d info=%p batch=%d", (void *)h, n, (const void *)A, lda, \
               (const void *)P, (void *)C, ldc, (void *)info, batch);                               \
      return getrs(h, t, false, CUBLAS_OP_N, n, n, (const void *const *)A, lda, P, (void *const *)C, ldc, info, \
                   batch);                                                                          \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##matinvBatched(cublasHandle_t h, int n, const T *const A[], int lda,       \
                                                     T *const Ainv[], int ldi, int *info, int batch); \
   CB_EXPORT cublasStatus_t cublas##S##matinvBatched(cublasHandle_t h, int n, const T *const A[], int lda,       \
                                                     T *const Ainv[], int ldi, int *info, int batch)  \
   {                                                                                                \
      CB_ENTER("handle=%p n=%d A=%p lda=%d Ainv=%p lda_inv=%d info=%p batch=%d", (void *)h, n, (const void *)A, \
               lda, (void *)Ainv, ldi, (void *)info, batch);                                        \
      return matinv(h, t, n, (const void *const *)A, lda, (void *const *)Ainv, ldi, info, batch);   \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##geqrfBatched(cublasHandle_t h, int m, int n, T *const A[], int lda,        \
                                                    T *const Tau[], int *info, int batch);            \
   CB_EXPORT cublasStatus_t cublas##S##geqrfBatched(cublasHandle_t h, int m, int n, T *const A[], int lda,        \
                                                    T *const Tau[], int *info, int batch)             \
   {                                                                                                \
      CB_ENTER("handle=%p m=%d n=%d A=%p lda=%d Tau=%p info=%p batch=%d", (void *)h, m, n, (void *)A, lda,     \
               (void *)Tau, (void *)info, batch);                                                   \
      return geqrf(h, t, false, CUBLAS_OP_N, m, n, 0, (void *const *)A, lda, (void *const *)Tau, NULL, 0, info, NULL, \
                   batch);                                                                          \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gelsBatched(cublasHandle_t h, cublasOperation_t trans, int m, int n, int nrhs, \
                                                   T *const A[], int lda, T *const C[], int ldc, int *info,     \
                                                   int *dev_info, int batch);                          \
   CB_EXPORT cublasStatus_t cublas##S##gelsBatched(cublasHandle_t h, cublasOperation_t trans, int m, int n, int nrhs, \
                                                   T *const A[], int lda, T *const C[], int ldc, int *info,     \
                                                   int *dev_info, int batch)                           \
   {                                                                                                \
      CB_ENTER("handle=%p trans=%d m=%d n=%d nrhs=%d A=%p lda=%d C=%p ldc=%d info=%p devInfo=%p batch=%d",      \
               (void *)h, (int)trans, m, n, nrhs, (void *)A, lda, (void *)C, ldc, (void *)info, (void *)dev_info, \
               batch);                                                                              \
      CB_CHECK(C || m == 0 || n == 0 || batch == 0, CUBLAS_STATUS_INVALID_VALUE);                   \
      return geqrf(h, t, true, trans, m, n, nrhs, (void *const *)A, lda, NULL, (void *const *)C, ldc, info, dev_info, \
                   batch);                                                                          \
   }
LU(S, 's', float)
LU(D, 'd', double)
LU(C, 'c', cuComplex)
LU(Z, 'z', cuDoubleComplex)
