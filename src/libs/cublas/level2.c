/*
 * level2.c — BLAS Level 2: gemv and ger in s/d, symv, trmv and trsv in
 * s/d/c/z (with their _64 forms).  Argument checks in NVIDIA's order (tests/libs checks
 * the codes an H200 returns); a negative increment walks the vector from
 * its end.  trmv and trsv run as one block that steps over the columns of
 * op(A) (kernels.cu: trxv), in place in x as BLAS defines them.
 */
#include "cb.h"

#include <string.h>

LOG_CHANNEL(cublas);

static cublasStatus_t gemv(cublasHandle_t h, char t, cublasOperation_t trans, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda, const void *x, int64_t incx,
                           const void *beta, void *y, int64_t incy)
{
   CB_HANDLE(h);
   CB_CHECK(trans == CUBLAS_OP_N || trans == CUBLAS_OP_T || trans == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(incx != 0 && incy != 0, CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && A && x && y, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   size_t es = t == 's' ? 4 : 8;
   bool tr = trans != CUBLAS_OP_N;
   cb_l2_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.x = cb_vec_base(x, tr ? m : n, incx, es);
   g.y = cb_vec_base(y, tr ? n : m, incy, es);
   g.lda = lda;
   g.incx = incx;
   g.incy = incy;
   g.m = (int32_t)m;
   g.n = (int32_t)n;
   g.trans = tr;
   g.alpha = cb_scalar_of(h, alpha, t);
   g.beta = cb_scalar_of(h, beta, t);
   int64_t outn = tr ? n : m, nb = (outn + 255) / 256;
   return cb_launch(h, t == 's' ? "cb_gemv_s" : "cb_gemv_d", (unsigned)(nb > 4096 ? 4096 : nb), 1, 1, 256, 1, &g,
                    sizeof(g));
}

static cublasStatus_t ger(cublasHandle_t h, char t, int64_t m, int64_t n, const void *alpha, const void *x,
                          int64_t incx, const void *y, int64_t incy, void *A, int64_t lda)
{
   CB_HANDLE(h);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(incx != 0 && incy != 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && A && x && y, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   size_t es = t == 's' ? 4 : 8;
   cb_l2_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.x = cb_vec_base(x, m, incx, es);
   g.y = cb_vec_base(y, n, incy, es);
   g.lda = lda;
   g.incx = incx;
   g.incy = incy;
   g.m = (int32_t)m;
   g.n = (int32_t)n;
   g.alpha = cb_scalar_of(h, alpha, t);
   int64_t nb = (m * n + 255) / 256;
   return cb_launch(h, t == 's' ? "cb_ger_s" : "cb_ger_d", (unsigned)(nb > 4096 ? 4096 : nb), 1, 1, 256, 1, &g,
                    sizeof(g));
}

static cublasStatus_t symv(cublasHandle_t h, char t, cublasFillMode_t uplo, int64_t n, const void *alpha,
                           const void *A, int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
                           int64_t incy)
{
   CB_HANDLE(h);
   CB_CHECK(uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= (n > 1 ? n : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(incx != 0 && incy != 0, CUBLAS_STATUS_INVALID_VALUE);
   if (n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && A && x && y, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   size_t es = cb_elem(t);
   char name[32];
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.x = cb_vec_base(x, n, incx, es);
   g.y = cb_vec_base(y, n, incy, es);
   g.lda = lda;
   g.incx = incx;
   g.incy = incy;
   g.n = (int32_t)n;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.alpha = cb_scalar_of(h, alpha, t);
   g.beta = cb_scalar_of(h, beta, t);
   int64_t nb = (n + 255) / 256;
   return cb_launch(h, cb_kname(name, "symv", t), (unsigned)(nb > 4096 ? 4096 : nb), 1, 1, 256, 1, &g, sizeof(g));
}

/* trmv (solve false) and trsv (solve true) */
static cublasStatus_t trxv(cublasHandle_t h, char t, bool solve, cublasFillMode_t uplo, cublasOperation_t trans,
                           cublasDiagType_t diag, int64_t n, const void *A, int64_t lda, void *x, int64_t incx)
{
   CB_HANDLE(h);
   CB_CHECK(uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(trans == CUBLAS_OP_N || trans == CUBLAS_OP_T || trans == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(diag == CUBLAS_DIAG_NON_UNIT || diag == CUBLAS_DIAG_UNIT, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= (n > 1 ? n : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(incx != 0, CUBLAS_STATUS_INVALID_VALUE);
   if (n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && x, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.y = cb_vec_base(x, n, incx, cb_elem(t));
   g.lda = lda;
   g.incx = incx;
   g.n = (int32_t)n;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   /* real: a conjugate is a transpose */
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.unit = diag == CUBLAS_DIAG_UNIT;
   g.solve = solve;
   char name[32];
   return cb_launch(h, cb_kname(name, "trxv", t), 1, 1, 1, CB_TRV_THREADS, 1, &g, sizeof(g));
}

#define TRXV(S, t, name, solve, T)                                                                        \
   CB_EXPORT cublasStatus_t cublas##S##name##_v2_64(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                                    cublasDiagType_t diag, int64_t n, const T *A, int64_t lda, T *x, \
                                                    int64_t incx);                                      \
   CB_EXPORT cublasStatus_t cublas##S##name##_v2_64(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                                    cublasDiagType_t diag, int64_t n, const T *A, int64_t lda, T *x, \
                                                    int64_t incx)                                       \
   {                                                                                                \
      CB_ENTER("handle=%p uplo=%d trans=%d diag=%d n=%lld A=%p lda=%lld x=%p incx=%lld", (void *)h, (int)uplo, \
               (int)trans, (int)diag, (long long)n, (const void *)A, (long long)lda, (void *)x, (long long)incx); \
      return trxv(h, t, solve, uplo, trans, diag, n, A, lda, x, incx);        \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##name##_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                                 cublasDiagType_t diag, int n, const T *A, int lda, T *x, int incx); \
   CB_EXPORT cublasStatus_t cublas##S##name##_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                                 cublasDiagType_t diag, int n, const T *A, int lda, T *x, int incx) \
   {                                                                                                \
      return cublas##S##name##_v2_64(h, uplo, trans, diag, n, A, lda, x, incx);                      \
   }
TRXV(S, 's', trmv, false, float)
TRXV(D, 'd', trmv, false, double)
TRXV(C, 'c', trmv, false, cuComplex)
TRXV(Z, 'z', trmv, false, cuDoubleComplex)
TRXV(S, 's', trsv, true, float)
TRXV(D, 'd', trsv, true, double)
TRXV(C, 'c', trsv, true, cuComplex)
TRXV(Z, 'z', trsv, true, cuDoubleComplex)

#define L2(S, t, T)                                                                                    \
   CB_EXPORT cublasStatus_t cublas##S##gemv_v2_64(cublasHandle_t h, cublasOperation_t trans, int64_t m,   \
                                                  int64_t n, const T *alpha, const T *A, int64_t lda,       \
                                                  const T *x, int64_t incx, const T *beta, T *y, int64_t incy); \
   CB_EXPORT cublasStatus_t cublas##S##gemv_v2_64(cublasHandle_t h, cublasOperation_t trans, int64_t m,   \
                                                  int64_t n, const T *alpha, const T *A, int64_t lda,       \
                                                  const T *x, int64_t incx, const T *beta, T *y, int64_t incy)  \
   {                                                                                                \
      CB_ENTER("handle=%p trans=%d m=%lld n=%lld alpha=%p A=%p lda=%lld x=%p incx=%lld beta=%p y=%p incy=%lld", \
               (void *)h, (int)trans, (long long)m, (long long)n, (const void *)alpha, (const void *)A,   \
               (long long)lda, (const void *)x, (long long)incx, (const void *)beta, (void *)y, (long long)incy); \
      return gemv(h, t, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);                         \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n,    \
                                               const T *alpha, const T *A, int lda, const T *x, int incx,    \
                                               const T *beta, T *y, int incy)                         \
   {                                                                                                \
      return cublas##S##gemv_v2_64(h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy);          \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##ger_v2_64(cublasHandle_t h, int64_t m, int64_t n, const T *alpha,   \
                                                 const T *x, int64_t incx, const T *y, int64_t incy, T *A,  \
                                                 int64_t lda);                                           \
   CB_EXPORT cublasStatus_t cublas##S##ger_v2_64(cublasHandle_t h, int64_t m, int64_t n, const T *alpha,   \
                                                 const T *x, int64_t incx, const T *y, int64_t incy, T *A,  \
                                                 int64_t lda)                                            \
   {                                                                                                \
      CB_ENTER("handle=%p m=%lld n=%lld alpha=%p x=%p incx=%lld y=%p incy=%lld A=%p lda=%lld", (void *)h, \
               (long long)m, (long long)n, (const void *)alpha, (const void *)x, (long long)incx,       \
               (const void *)y, (long long)incy, (void *)A, (long long)lda);                          \
      return ger(h, t, m, n, alpha, x, incx, y, incy, A, lda);                                       \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##ger_v2(cublasHandle_t h, int m, int n, const T *alpha, const T *x,  \
                                              int incx, const T *y, int incy, T *A, int lda)           \
   {                                                                                                \
      return cublas##S##ger_v2_64(h, m, n, alpha, x, incx, y, incy, A, lda);                       \
   }

#define SYMV(S, t, T)                                                                                  \
   CB_EXPORT cublasStatus_t cublas##S##symv_v2_64(cublasHandle_t h, cublasFillMode_t uplo, int64_t n,       \
                                                  const T *alpha, const T *A, int64_t lda, const T *x,      \
                                                  int64_t incx, const T *beta, T *y, int64_t incy);          \
   CB_EXPORT cublasStatus_t cublas##S##symv_v2_64(cublasHandle_t h, cublasFillMode_t uplo, int64_t n,       \
                                                  const T *alpha, const T *A, int64_t lda, const T *x,      \
                                                  int64_t incx, const T *beta, T *y, int64_t incy)           \
   {                                                                                                \
      CB_ENTER("handle=%p uplo=%d n=%lld alpha=%p A=%p lda=%lld x=%p incx=%lld beta=%p y=%p incy=%lld",      \
               (void *)h, (int)uplo, (long long)n, (const void *)alpha, (const void *)A, (long long)lda,   \
               (const void *)x, (long long)incx, (const void *)beta, (void *)y, (long long)incy);        \
      return symv(h, t, uplo, n, alpha, A, lda, x, incx, beta, y, incy);                             \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##symv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *alpha, \
                                               const T *A, int lda, const T *x, int incx, const T *beta, T *y, \
                                               int incy);                                              \
   CB_EXPORT cublasStatus_t cublas##S##symv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const T *alpha, \
                                               const T *A, int lda, const T *x, int incx, const T *beta, T *y, \
                                               int incy)                                               \
   {                                                                                                \
      return cublas##S##symv_v2_64(h, uplo, n, alpha, A, lda, x, incx, beta, y, incy);              \
   }
L2(S, 's', float)
L2(D, 'd', double)
SYMV(S, 's', float)
SYMV(D, 'd', double)
SYMV(C, 'c', cuComplex)
SYMV(Z, 'z', cuDoubleComplex)
