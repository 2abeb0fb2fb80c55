/*
 * level2.c — BLAS Level 2: gemv and ger in s/d (with their _64 forms).
 * Argument checks in NVIDIA's order (tests/libs checks the codes an H200
 * returns); a negative increment walks the vector from its end.
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
L2(S, 's', float)
L2(D, 'd', double)
