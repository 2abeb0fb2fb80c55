/*
 * extensions.c — cuBLAS's BLAS-like extensions: geam (C = alpha op(A) +
 * beta op(B)) and dgmm (C = diag(x) A or A diag(x)), s/d/c/z, with their
 * _64 forms.  One element of C per thread (kernels.cu).
 *
 * geam in place: cuBLAS documents C = alpha C + beta op(B) and C = alpha
 * op(A) + beta C, with C given as A (ldc = lda, transa N) or as B (ldc =
 * ldb, transb N), and refuses other in-place settings with
 * CUBLAS_STATUS_INVALID_VALUE; a zero scalar's matrix is not read.  dgmm:
 * the absolute value of incx is x's stride and a negative one walks x from
 * its end (cuBLAS's documentation), incx 0 repeats x[0]; in place when C is
 * A with ldc = lda.
 */
#include "cb.h"

LOG_CHANNEL(cublas);

static cublasStatus_t launch_elems(cublasHandle_t h, const char *fn, char t, int64_t m, int64_t n, cb_mat_args *g)
{
   char name[32];
   int64_t nb = (m * n + 255) / 256;
   return cb_launch(h, cb_kname(name, fn, t), (unsigned)(nb > 4096 ? 4096 : nb), 1, 1, 256, 1, g, sizeof(*g));
}

static cublasStatus_t geam(cublasHandle_t h, char t, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                           const void *alpha, const void *A, int64_t lda, const void *beta, const void *B, int64_t ldb,
                           void *C, int64_t ldc)
{
   CB_HANDLE(h);
   CB_CHECK(ta == CUBLAS_OP_N || ta == CUBLAS_OP_T || ta == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(tb == CUBLAS_OP_N || tb == CUBLAS_OP_T || tb == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   int64_t ar = ta == CUBLAS_OP_N ? m : n, br = tb == CUBLAS_OP_N ? m : n;
   CB_CHECK(lda >= (ar > 1 ? ar : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldb >= (br > 1 ? br : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldc >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(C != A || (ldc == lda && ta == CUBLAS_OP_N), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(C != B || (ldc == ldb && tb == CUBLAS_OP_N), CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g = cb_mat(A, lda, B, ldb, C, ldc, m, n);
   /* for real types a conjugate is a transpose */
   g.ta = ta == CUBLAS_OP_N ? 0 : ta == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.tb = tb == CUBLAS_OP_N ? 0 : tb == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.alpha = cb_scalar_of(h, alpha, t);
   g.beta = cb_scalar_of(h, beta, t);
   return launch_elems(h, "geam", t, m, n, &g);
}

static cublasStatus_t dgmm(cublasHandle_t h, char t, cublasSideMode_t side, int64_t m, int64_t n, const void *A,
                           int64_t lda, const void *x, int64_t incx, void *C, int64_t ldc)
{
   CB_HANDLE(h);
   CB_CHECK(side == CUBLAS_SIDE_LEFT || side == CUBLAS_SIDE_RIGHT, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldc >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && x && C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g = cb_mat(A, lda, NULL, 0, C, ldc, m, n);
   g.x = cb_vec_base(x, side == CUBLAS_SIDE_LEFT ? m : n, incx, cb_elem(t));
   g.incx = incx;
   g.side = side == CUBLAS_SIDE_RIGHT;
   return launch_elems(h, "dgmm", t, m, n, &g);
}

#define EXT(S, t, T)                                                                                   \
   CB_EXPORT cublasStatus_t cublas##S##geam_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,   \
                                               int64_t m, int64_t n, const T *alpha, const T *A, int64_t lda, \
                                               const T *beta, const T *B, int64_t ldb, T *C, int64_t ldc);   \
   CB_EXPORT cublasStatus_t cublas##S##geam_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,   \
                                               int64_t m, int64_t n, const T *alpha, const T *A, int64_t lda, \
                                               const T *beta, const T *B, int64_t ldb, T *C, int64_t ldc)    \
   {                                                                                                \
      CB_ENTER("handle=%p transa=%d transb=%d m=%lld n=%lld alpha=%p A=%p lda=%lld beta=%p B=%p ldb=%lld " \
               "C=%p ldc=%lld",                                                                     \
               (void *)h, (int)ta, (int)tb, (long long)m, (long long)n, (const void *)alpha, (const void *)A, \
               (long long)lda, (const void *)beta, (const void *)B, (long long)ldb, (void *)C, (long long)ldc); \
      return geam(h, t, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);                         \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, \
                                            int n, const T *alpha, const T *A, int lda, const T *beta,      \
                                            const T *B, int ldb, T *C, int ldc);                        \
   CB_EXPORT cublasStatus_t cublas##S##geam(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, \
                                            int n, const T *alpha, const T *A, int lda, const T *beta,      \
                                            const T *B, int ldb, T *C, int ldc)                         \
   {                                                                                                \
      return cublas##S##geam_64(h, ta, tb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);              \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##dgmm_64(cublasHandle_t h, cublasSideMode_t side, int64_t m, int64_t n,  \
                                               const T *A, int64_t lda, const T *x, int64_t incx, T *C,      \
                                               int64_t ldc);                                             \
   CB_EXPORT cublasStatus_t cublas##S##dgmm_64(cublasHandle_t h, cublasSideMode_t side, int64_t m, int64_t n,  \
                                               const T *A, int64_t lda, const T *x, int64_t incx, T *C,      \
                                               int64_t ldc)                                              \
   {                                                                                                \
      CB_ENTER("handle=%p mode=%d m=%lld n=%lld A=%p lda=%lld x=%p incx=%lld C=%p ldc=%lld", (void *)h,    \
               (int)side, (long long)m, (long long)n, (const void *)A, (long long)lda, (const void *)x,  \
               (long long)incx, (void *)C, (long long)ldc);                                          \
      return dgmm(h, t, side, m, n, A, lda, x, incx, C, ldc);                                        \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##dgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n, const T *A,  \
                                            int lda, const T *x, int incx, T *C, int ldc);             \
   CB_EXPORT cublasStatus_t cublas##S##dgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n, const T *A,  \
                                            int lda, const T *x, int incx, T *C, int ldc)              \
   {                                                                                                \
      return cublas##S##dgmm_64(h, side, m, n, A, lda, x, incx, C, ldc);                           \
   }
EXT(S, 's', float)
EXT(D, 'd', double)
EXT(C, 'c', cuComplex)
EXT(Z, 'z', cuDoubleComplex)
