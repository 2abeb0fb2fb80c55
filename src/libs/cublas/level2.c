/*
 * level2.c — BLAS Level 2: gemv (also gemvBatched, gemvStridedBatched, in
 * s d c z and the half and bfloat16 forms HSH HSS TST TSS),
 * gbmv, ger, geru, gerc, the symmetric and
 * Hermitian products symv, hemv, sbmv, hbmv, spmv, hpmv, the rank updates
 * syr, syr2, her, her2, spr, spr2, hpr, hpr2, and the triangular trmv,
 * trsv, tbmv, tbsv, tpmv, tpsv (with their _v2 and _64 forms; s d c z as
 * cuBLAS has them).
 *
 * Three kernels serve them all (kernels.cu), told how A is stored
 * (cb_mat_args.store: dense, packed triangle, BLAS band layout) and which
 * entries exist (kl, ku: A(i, j) is stored iff -ku <= i - j <= kl):
 * xmv (y = alpha op(A) x + beta y, an element of y per thread, the loop
 * limited to the band), xr (rank updates, an element of A per thread, on
 * the uplo triangle for symmetric and Hermitian A) and trmv/trsv's trxv
 * (one block stepping over the columns of op(A), its inner loop limited
 * to the band; in place in x as BLAS defines them).  Hermitian matrices:
 * the diagonal's imaginary parts are not read, and come out zero from an
 * update, as in BLAS.  Argument checks in NVIDIA's order (tests/libs
 * checks the codes an H200 returns for gemv and ger; the others follow
 * cuBLAS's documentation); a negative increment walks a vector from its
 * end.
 */
#include "cb.h"

#include <string.h>

LOG_CHANNEL(cublas);

#define VALID_OP(t) ((t) == CUBLAS_OP_N || (t) == CUBLAS_OP_T || (t) == CUBLAS_OP_C)
#define VALID_UPLO(u) ((u) == CUBLAS_FILL_MODE_LOWER || (u) == CUBLAS_FILL_MODE_UPPER)
#define VALID_DIAG(d) ((d) == CUBLAS_DIAG_NON_UNIT || (d) == CUBLAS_DIAG_UNIT)
#define MAX1(v) ((v) > 1 ? (v) : 1)

/* the kind of a real scalar of a complex routine (her's alpha ...) */
static char real_kind(char t)
{
   return t == 'c' ? 's' : t == 'z' ? 'd' : t;
}

static unsigned blocks_for(int64_t n)
{
   int64_t nb = (n + 255) / 256;
   return (unsigned)(nb < 1 ? 1 : nb > 4096 ? 4096 : nb);
}

/* y = alpha op(A) x + beta y.  herm CB_GEN: gemv/gbmv (m x n, kl and ku
 * the band; dense: the whole matrix); else symv-like n x n with one
 * triangle stored (band: kl = ku = k, the half width). */
static cublasStatus_t xmv(cublasHandle_t h, char t, int herm, int store, cublasFillMode_t uplo,
                          cublasOperation_t trans, int64_t m, int64_t n, int64_t kl, int64_t ku, const void *alpha,
                          const void *A, int64_t lda, const void *x, int64_t incx, const void *beta, void *y,
                          int64_t incy)
{
   CB_HANDLE(h);
   /* gemv, as NVIDIA's cuBLAS (13.1, H200) does: an operation other than N
    * and C is T, and x's increment may be 0 (every element x[0]) */
   bool gemv = herm == CB_GEN && store == CB_ST_DENSE;
   if (gemv && trans != CUBLAS_OP_N && trans != CUBLAS_OP_C)
      trans = CUBLAS_OP_T;
   if (herm == CB_GEN)
      CB_CHECK(VALID_OP(trans), CUBLAS_STATUS_INVALID_VALUE);
   else
      CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0 && kl >= 0 && ku >= 0, CUBLAS_STATUS_INVALID_VALUE);
   if (store == CB_ST_DENSE)
      CB_CHECK(lda >= MAX1(m), CUBLAS_STATUS_INVALID_VALUE);
   if (store == CB_ST_BAND)
      CB_CHECK(lda >= (herm == CB_GEN ? kl + ku + 1 : kl + 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK((incx != 0 || gemv) && incy != 0, CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && A && x && y, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX && kl <= INT32_MAX && ku <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   size_t es = cb_elem(t);
   bool tr = herm == CB_GEN && trans != CUBLAS_OP_N;
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.x = cb_vec_base(x, tr ? m : n, incx, es);
   g.y = cb_vec_base(y, tr ? n : m, incy, es);
   g.lda = lda;
   g.incx = incx;
   g.incy = incy;
   g.m = (int32_t)m;
   g.n = (int32_t)n;
   g.herm = herm;
   g.store = store;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   /* real: a conjugate is a transpose */
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   if (herm == CB_GEN) {
      g.kl = (int32_t)(store == CB_ST_BAND ? kl : m);
      g.ku = (int32_t)(store == CB_ST_BAND ? ku : n);
   } else {
      int64_t bw = store == CB_ST_BAND ? kl : n;
      g.kl = (int32_t)(g.uplo ? 0 : bw);
      g.ku = (int32_t)(g.uplo ? bw : 0);
   }
   g.alpha = cb_scalar_of(h, alpha, t);
   g.beta = cb_scalar_of(h, beta, t);
   char name[32];
   return cb_launch(h, cb_kname(name, "xmv", t), blocks_for(tr ? n : m), 1, 1, 256, 1, &g, sizeof(g));
}

/* gemvBatched (A, X, Y: device arrays of pointers) and
 * gemvStridedBatched (A, x, y with strides sA, sX, sY): xmv per problem,
 * the problems along the grid's y */
static cublasStatus_t gemv_batched(cublasHandle_t h, char t, const char *kernel, cublasOperation_t trans, int64_t m,
                                   int64_t n,
                                   const void *alpha, const void *const *Aarr, const void *A, int64_t lda, int64_t sA,
                                   const void *const *Xarr, const void *x, int64_t incx, int64_t sX, const void *beta,
                                   void *const *Yarr, void *y, int64_t incy, int64_t sY, int64_t batch)
{
   CB_HANDLE(h);
   CB_CHECK(VALID_OP(trans), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(lda >= MAX1(m), CUBLAS_STATUS_INVALID_VALUE);
   /* as NVIDIA's cuBLAS (13.1, H200): incx 0 is x[0] for every element, and
    * a negative batch count fails as its launch does */
   CB_CHECK(incy != 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(batch >= 0, CUBLAS_STATUS_EXECUTION_FAILED);
   if (m == 0 || n == 0 || batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && (Aarr || A) && (Xarr || x) && (Yarr || y), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX && batch <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   bool tr = trans != CUBLAS_OP_N;
   int64_t lx = tr ? m : n, ly = tr ? n : m;
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.x = x;
   g.y = y;
   g.Aarr = Aarr;
   g.Xarr = Xarr;
   g.Yarr = Yarr;
   g.sA = sA;
   g.sX = sX;
   g.sY = sY;
   g.xoff = incx < 0 ? (lx - 1) * -incx : 0;
   g.yoff = incy < 0 ? (ly - 1) * -incy : 0;
   g.batch = (int32_t)batch;
   g.lda = lda;
   g.incx = incx;
   g.incy = incy;
   g.m = (int32_t)m;
   g.n = (int32_t)n;
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.kl = (int32_t)m;
   g.ku = (int32_t)n;
   g.alpha = cb_scalar_of(h, alpha, t);
   g.beta = cb_scalar_of(h, beta, t);
   char name[32];
   return cb_launch(h, kernel ? kernel : cb_kname(name, "xmvb", t), blocks_for(ly), (unsigned)(batch < 65535 ? batch : 65535), 1, 256,
                    1, &g, sizeof(g));
}

/* Rank updates of an m x n A (CB_GEN: geru, gerc) or of the uplo triangle
 * of an n x n symmetric or Hermitian A (dense or packed); y NULL: y is x
 * (syr, her, spr, hpr); two: rank 2; areal: alpha is real (her, hpr). */
static cublasStatus_t xr(cublasHandle_t h, char t, int herm, int store, cublasFillMode_t uplo, bool conj, bool two,
                         bool areal, int64_t m, int64_t n, const void *alpha, const void *x, int64_t incx,
                         const void *y, int64_t incy, void *A, int64_t lda)
{
   CB_HANDLE(h);
   if (herm != CB_GEN)
      CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(incx != 0 && (incy != 0 || (herm != CB_GEN && !two)), CUBLAS_STATUS_INVALID_VALUE);
   if (store == CB_ST_DENSE)
      CB_CHECK(lda >= MAX1(m), CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   bool own_y = herm == CB_GEN || two;
   CB_CHECK(alpha && A && x && (y || !own_y), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   size_t es = cb_elem(t);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.C = A;
   g.x = cb_vec_base(x, m, incx, es);
   g.y = own_y ? cb_vec_base(y, n, incy, es) : (void *)g.x;
   g.incx = incx;
   g.incy = own_y ? incy : incx;
   g.lda = lda;
   g.m = (int32_t)m;
   g.n = (int32_t)n;
   g.herm = herm;
   g.store = store;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.conj = conj;
   g.two = two;
   g.areal = areal;
   g.alpha = cb_scalar_of(h, alpha, areal ? real_kind(t) : t);
   char name[32];
   return cb_launch(h, cb_kname(name, "xr", t), blocks_for(m * n), 1, 1, 256, 1, &g, sizeof(g));
}

/* trmv, tbmv (band, k the half width), tpmv (packed) with solve false;
 * trsv, tbsv, tpsv with solve true */
static cublasStatus_t trxv_st(cublasHandle_t h, char t, bool solve, int store, cublasFillMode_t uplo,
                              cublasOperation_t trans, cublasDiagType_t diag, int64_t n, int64_t k, const void *A,
                              int64_t lda, void *x, int64_t incx)
{
   CB_HANDLE(h);
   CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_OP(trans), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_DIAG(diag), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n >= 0 && k >= 0, CUBLAS_STATUS_INVALID_VALUE);
   if (store == CB_ST_BAND)
      CB_CHECK(lda >= k + 1, CUBLAS_STATUS_INVALID_VALUE);
   if (store == CB_ST_DENSE)
      CB_CHECK(lda >= MAX1(n), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(incx != 0, CUBLAS_STATUS_INVALID_VALUE);
   if (n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(A && x, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n <= INT32_MAX && k <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g;
   memset(&g, 0, sizeof(g));
   g.A = A;
   g.y = cb_vec_base(x, n, incx, cb_elem(t));
   g.lda = lda;
   g.incx = incx;
   g.n = (int32_t)n;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.unit = diag == CUBLAS_DIAG_UNIT;
   g.solve = solve;
   g.store = store;
   if (store == CB_ST_BAND) {
      g.kl = (int32_t)(g.uplo ? 0 : k);
      g.ku = (int32_t)(g.uplo ? k : 0);
   }
   char name[32];
   return cb_launch(h, cb_kname(name, "trxv", t), 1, 1, 1, CB_TRV_THREADS, 1, &g, sizeof(g));
}

/* ---- the exported functions: each NAME_64 and NAME (int sizes) ---- */

/* NAME_64 with parameters P64 runs BODY; NAME with P32 calls it with ARGS */
#define EXPORT2(NAME, P64, P32, ARGS, BODY)                                                           \
   CB_EXPORT cublasStatus_t NAME##_64 P64;                                                          \
   CB_EXPORT cublasStatus_t NAME##_64 P64 { BODY }                                                  \
   CB_EXPORT cublasStatus_t NAME P32;                                                               \
   CB_EXPORT cublasStatus_t NAME P32 { return NAME##_64 ARGS; }

#define H cublasHandle_t h
#define UPLO cublasFillMode_t uplo

/* gemv (c z) and gbmv */
#define GEMV(S, t, T)                                                                                  \
   EXPORT2(cublas##S##gemv_v2,                                                                      \
           (H, cublasOperation_t trans, int64_t m, int64_t n, const T *alpha, const T *A, int64_t lda, const T *x, \
            int64_t incx, const T *beta, T *y, int64_t incy),                                        \
           (H, cublasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda, const T *x, int incx, \
            const T *beta, T *y, int incy),                                                          \
           (h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy),                                  \
           CB_ENTER("handle=%p trans=%d m=%lld n=%lld A=%p lda=%lld x=%p incx=%lld y=%p incy=%lld", (void *)h, \
                    (int)trans, (long long)m, (long long)n, (const void *)A, (long long)lda, (const void *)x, \
                    (long long)incx, (void *)y, (long long)incy);                                    \
           return xmv(h, t, CB_GEN, CB_ST_DENSE, CUBLAS_FILL_MODE_LOWER, trans, m, n, 0, 0, alpha, A, lda, x, incx, \
                      beta, y, incy);)
#define GEMVB(S, t, T)                                                                                 \
   EXPORT2(cublas##S##gemvBatched,                                                                  \
           (H, cublasOperation_t trans, int64_t m, int64_t n, const T *alpha, const T *const A[], int64_t lda, \
            const T *const x[], int64_t incx, const T *beta, T *const y[], int64_t incy, int64_t batch), \
           (H, cublasOperation_t trans, int m, int n, const T *alpha, const T *const A[], int lda, const T *const x[], \
            int incx, const T *beta, T *const y[], int incy, int batch),                             \
           (h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, batch),                           \
           CB_ENTER("handle=%p trans=%d m=%lld n=%lld A=%p lda=%lld x=%p incx=%lld y=%p incy=%lld batch=%lld", \
                    (void *)h, (int)trans, (long long)m, (long long)n, (const void *)A, (long long)lda,   \
                    (const void *)x, (long long)incx, (const void *)y, (long long)incy, (long long)batch); \
           return gemv_batched(h, t, NULL, trans, m, n, alpha, (const void *const *)A, NULL, lda, 0,    \
                               (const void *const *)x, NULL, incx, 0, beta, (void *const *)y, NULL, incy, 0, batch);) \
   EXPORT2(cublas##S##gemvStridedBatched,                                                           \
           (H, cublasOperation_t trans, int64_t m, int64_t n, const T *alpha, const T *A, int64_t lda, long long sA, \
            const T *x, int64_t incx, long long sX, const T *beta, T *y, int64_t incy, long long sY, int64_t batch), \
           (H, cublasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda, long long sA, const T *x, \
            int incx, long long sX, const T *beta, T *y, int incy, long long sY, int batch),          \
           (h, trans, m, n, alpha, A, lda, sA, x, incx, sX, beta, y, incy, sY, batch),               \
           CB_ENTER("handle=%p trans=%d m=%lld n=%lld A=%p lda=%lld sA=%lld x=%p incx=%lld sX=%lld y=%p incy=%lld " \
                    "sY=%lld batch=%lld",                                                           \
                    (void *)h, (int)trans, (long long)m, (long long)n, (const void *)A, (long long)lda, sA, \
                    (const void *)x, (long long)incx, sX, (void *)y, (long long)incy, sY, (long long)batch); \
           return gemv_batched(h, t, NULL, trans, m, n, alpha, NULL, A, lda, sA, NULL, x, incx, sX, beta, NULL, y, \
                               incy, sY, batch);)
/* the half and bfloat16 forms: TI in, TO out (both as their bits),
 * float scalars; kernel cb_gemvx_K */
#define GEMVX(S, K, TI, TO)                                                                            \
   EXPORT2(cublas##S##gemvBatched,                                                                  \
           (H, cublasOperation_t trans, int64_t m, int64_t n, const float *alpha, const TI *const A[], int64_t lda, \
            const TI *const x[], int64_t incx, const float *beta, TO *const y[], int64_t incy, int64_t batch), \
           (H, cublasOperation_t trans, int m, int n, const float *alpha, const TI *const A[], int lda,  \
            const TI *const x[], int incx, const float *beta, TO *const y[], int incy, int batch),      \
           (h, trans, m, n, alpha, A, lda, x, incx, beta, y, incy, batch),                           \
           CB_ENTER("handle=%p trans=%d m=%lld n=%lld A=%p lda=%lld x=%p incx=%lld y=%p incy=%lld batch=%lld", \
                    (void *)h, (int)trans, (long long)m, (long long)n, (const void *)A, (long long)lda,   \
                    (const void *)x, (long long)incx, (const void *)y, (long long)incy, (long long)batch); \
           return gemv_batched(h, 's', "cb_gemvx_" K, trans, m, n, alpha, (const void *const *)A, NULL, lda, 0, \
                               (const void *const *)x, NULL, incx, 0, beta, (void *const *)y, NULL, incy, 0, batch);) \
   EXPORT2(cublas##S##gemvStridedBatched,                                                           \
           (H, cublasOperation_t trans, int64_t m, int64_t n, const float *alpha, const TI *A, int64_t lda, \
            long long sA, const TI *x, int64_t incx, long long sX, const float *beta, TO *y, int64_t incy, long long sY, \
            int64_t batch),                                                                          \
           (H, cublasOperation_t trans, int m, int n, const float *alpha, const TI *A, int lda, long long sA, \
            const TI *x, int incx, long long sX, const float *beta, TO *y, int incy, long long sY, int batch), \
           (h, trans, m, n, alpha, A, lda, sA, x, incx, sX, beta, y, incy, sY, batch),               \
           CB_ENTER("handle=%p trans=%d m=%lld n=%lld A=%p lda=%lld sA=%lld x=%p incx=%lld sX=%lld y=%p incy=%lld " \
                    "sY=%lld batch=%lld",                                                           \
                    (void *)h, (int)trans, (long long)m, (long long)n, (const void *)A, (long long)lda, sA, \
                    (const void *)x, (long long)incx, sX, (void *)y, (long long)incy, sY, (long long)batch); \
           return gemv_batched(h, 's', "cb_gemvx_" K, trans, m, n, alpha, NULL, A, lda, sA, NULL, x, incx, sX, beta, \
                               NULL, y, incy, sY, batch);)
#define GBMV(S, t, T)                                                                                  \
   EXPORT2(cublas##S##gbmv_v2,                                                                      \
           (H, cublasOperation_t trans, int64_t m, int64_t n, int64_t kl, int64_t ku, const T *alpha, const T *A, \
            int64_t lda, const T *x, int64_t incx, const T *beta, T *y, int64_t incy),               \
           (H, cublasOperation_t trans, int m, int n, int kl, int ku, const T *alpha, const T *A, int lda,  \
            const T *x, int incx, const T *beta, T *y, int incy),                                    \
           (h, trans, m, n, kl, ku, alpha, A, lda, x, incx, beta, y, incy),                          \
           CB_ENTER("handle=%p trans=%d m=%lld n=%lld kl=%lld ku=%lld A=%p lda=%lld x=%p incx=%lld y=%p incy=%lld", \
                    (void *)h, (int)trans, (long long)m, (long long)n, (long long)kl, (long long)ku,   \
                    (const void *)A, (long long)lda, (const void *)x, (long long)incx, (void *)y, (long long)incy); \
           return xmv(h, t, CB_GEN, CB_ST_BAND, CUBLAS_FILL_MODE_LOWER, trans, m, n, kl, ku, alpha, A, lda, x, \
                      incx, beta, y, incy);)
/* hemv (dense), sbmv/hbmv (band), spmv/hpmv (packed); KIND CB_SYM or CB_HERM */
#define HEMV(S, name, t, T, KIND)                                                                      \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, int64_t n, const T *alpha, const T *A, int64_t lda, const T *x, int64_t incx, const T *beta, \
            T *y, int64_t incy),                                                                     \
           (H, UPLO, int n, const T *alpha, const T *A, int lda, const T *x, int incx, const T *beta, T *y, \
            int incy),                                                                               \
           (h, uplo, n, alpha, A, lda, x, incx, beta, y, incy),                                      \
           CB_ENTER("handle=%p uplo=%d n=%lld A=%p lda=%lld x=%p incx=%lld y=%p incy=%lld", (void *)h, (int)uplo, \
                    (long long)n, (const void *)A, (long long)lda, (const void *)x, (long long)incx, (void *)y, \
                    (long long)incy);                                                                \
           return xmv(h, t, KIND, CB_ST_DENSE, uplo, CUBLAS_OP_N, n, n, 0, 0, alpha, A, lda, x, incx, beta, y, \
                      incy);)
#define SBMV(S, name, t, T, KIND)                                                                      \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda, const T *x, int64_t incx, \
            const T *beta, T *y, int64_t incy),                                                      \
           (H, UPLO, int n, int k, const T *alpha, const T *A, int lda, const T *x, int incx, const T *beta, T *y, \
            int incy),                                                                               \
           (h, uplo, n, k, alpha, A, lda, x, incx, beta, y, incy),                                   \
           CB_ENTER("handle=%p uplo=%d n=%lld k=%lld A=%p lda=%lld x=%p incx=%lld y=%p incy=%lld", (void *)h, \
                    (int)uplo, (long long)n, (long long)k, (const void *)A, (long long)lda, (const void *)x, \
                    (long long)incx, (void *)y, (long long)incy);                                    \
           return xmv(h, t, KIND, CB_ST_BAND, uplo, CUBLAS_OP_N, n, n, k, k, alpha, A, lda, x, incx, beta, y, \
                      incy);)
#define SPMV(S, name, t, T, KIND)                                                                      \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, int64_t n, const T *alpha, const T *AP, const T *x, int64_t incx, const T *beta, T *y, \
            int64_t incy),                                                                           \
           (H, UPLO, int n, const T *alpha, const T *AP, const T *x, int incx, const T *beta, T *y, int incy), \
           (h, uplo, n, alpha, AP, x, incx, beta, y, incy),                                          \
           CB_ENTER("handle=%p uplo=%d n=%lld AP=%p x=%p incx=%lld y=%p incy=%lld", (void *)h, (int)uplo,      \
                    (long long)n, (const void *)AP, (const void *)x, (long long)incx, (void *)y, (long long)incy); \
           return xmv(h, t, KIND, CB_ST_PACKED, uplo, CUBLAS_OP_N, n, n, 0, 0, alpha, AP, 0, x, incx, beta, y, \
                      incy);)
/* geru, gerc */
#define GER(S, name, t, T, CONJ)                                                                       \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, int64_t m, int64_t n, const T *alpha, const T *x, int64_t incx, const T *y, int64_t incy, T *A, \
            int64_t lda),                                                                            \
           (H, int m, int n, const T *alpha, const T *x, int incx, const T *y, int incy, T *A, int lda), \
           (h, m, n, alpha, x, incx, y, incy, A, lda),                                               \
           CB_ENTER("handle=%p m=%lld n=%lld x=%p incx=%lld y=%p incy=%lld A=%p lda=%lld", (void *)h,        \
                    (long long)m, (long long)n, (const void *)x, (long long)incx, (const void *)y,      \
                    (long long)incy, (void *)A, (long long)lda);                                     \
           return xr(h, t, CB_GEN, CB_ST_DENSE, CUBLAS_FILL_MODE_LOWER, CONJ, false, false, m, n, alpha, x, incx, \
                     y, incy, A, lda);)
/* syr, her (alpha real: TA); spr, hpr */
#define SYR(S, name, t, T, TA, KIND)                                                                   \
   EXPORT2(cublas##S##name##_v2, (H, UPLO, int64_t n, const TA *alpha, const T *x, int64_t incx, T *A, int64_t lda), \
           (H, UPLO, int n, const TA *alpha, const T *x, int incx, T *A, int lda),                  \
           (h, uplo, n, alpha, x, incx, A, lda),                                                     \
           CB_ENTER("handle=%p uplo=%d n=%lld x=%p incx=%lld A=%p lda=%lld", (void *)h, (int)uplo, (long long)n, \
                    (const void *)x, (long long)incx, (void *)A, (long long)lda);                    \
           return xr(h, t, KIND, CB_ST_DENSE, uplo, KIND == CB_HERM, false, KIND == CB_HERM, n, n, alpha, x, incx, \
                     NULL, 0, A, lda);)
#define SPR(S, name, t, T, TA, KIND)                                                                   \
   EXPORT2(cublas##S##name##_v2, (H, UPLO, int64_t n, const TA *alpha, const T *x, int64_t incx, T *AP), \
           (H, UPLO, int n, const TA *alpha, const T *x, int incx, T *AP), (h, uplo, n, alpha, x, incx, AP), \
           CB_ENTER("handle=%p uplo=%d n=%lld x=%p incx=%lld AP=%p", (void *)h, (int)uplo, (long long)n,     \
                    (const void *)x, (long long)incx, (void *)AP);                                   \
           return xr(h, t, KIND, CB_ST_PACKED, uplo, KIND == CB_HERM, false, KIND == CB_HERM, n, n, alpha, x, incx, \
                     NULL, 0, AP, 0);)
/* syr2, her2; spr2, hpr2 */
#define SYR2(S, name, t, T, KIND)                                                                      \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, int64_t n, const T *alpha, const T *x, int64_t incx, const T *y, int64_t incy, T *A, \
            int64_t lda),                                                                            \
           (H, UPLO, int n, const T *alpha, const T *x, int incx, const T *y, int incy, T *A, int lda), \
           (h, uplo, n, alpha, x, incx, y, incy, A, lda),                                            \
           CB_ENTER("handle=%p uplo=%d n=%lld x=%p incx=%lld y=%p incy=%lld A=%p lda=%lld", (void *)h, (int)uplo, \
                    (long long)n, (const void *)x, (long long)incx, (const void *)y, (long long)incy, (void *)A, \
                    (long long)lda);                                                                 \
           return xr(h, t, KIND, CB_ST_DENSE, uplo, KIND == CB_HERM, true, false, n, n, alpha, x, incx, y, incy, A, \
                     lda);)
#define SPR2(S, name, t, T, KIND)                                                                      \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, int64_t n, const T *alpha, const T *x, int64_t incx, const T *y, int64_t incy, T *AP), \
           (H, UPLO, int n, const T *alpha, const T *x, int incx, const T *y, int incy, T *AP),     \
           (h, uplo, n, alpha, x, incx, y, incy, AP),                                                \
           CB_ENTER("handle=%p uplo=%d n=%lld x=%p incx=%lld y=%p incy=%lld AP=%p", (void *)h, (int)uplo,     \
                    (long long)n, (const void *)x, (long long)incx, (const void *)y, (long long)incy, (void *)AP); \
           return xr(h, t, KIND, CB_ST_PACKED, uplo, KIND == CB_HERM, true, false, n, n, alpha, x, incx, y, incy, \
                     AP, 0);)
/* tbmv, tbsv; tpmv, tpsv */
#define TBXV(S, name, t, T, SOLVE)                                                                     \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, cublasOperation_t trans, cublasDiagType_t diag, int64_t n, int64_t k, const T *A, int64_t lda, \
            T *x, int64_t incx),                                                                     \
           (H, UPLO, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const T *A, int lda, T *x, \
            int incx),                                                                               \
           (h, uplo, trans, diag, n, k, A, lda, x, incx),                                            \
           CB_ENTER("handle=%p uplo=%d trans=%d diag=%d n=%lld k=%lld A=%p lda=%lld x=%p incx=%lld", (void *)h, \
                    (int)uplo, (int)trans, (int)diag, (long long)n, (long long)k, (const void *)A, (long long)lda, \
                    (void *)x, (long long)incx);                                                     \
           return trxv_st(h, t, SOLVE, CB_ST_BAND, uplo, trans, diag, n, k, A, lda, x, incx);)
#define TRXV(S, name, t, T, SOLVE)                                                                     \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, cublasOperation_t trans, cublasDiagType_t diag, int64_t n, const T *A, int64_t lda, T *x, \
            int64_t incx),                                                                           \
           (H, UPLO, cublasOperation_t trans, cublasDiagType_t diag, int n, const T *A, int lda, T *x, int incx), \
           (h, uplo, trans, diag, n, A, lda, x, incx),                                               \
           CB_ENTER("handle=%p uplo=%d trans=%d diag=%d n=%lld A=%p lda=%lld x=%p incx=%lld", (void *)h, (int)uplo, \
                    (int)trans, (int)diag, (long long)n, (const void *)A, (long long)lda, (void *)x, (long long)incx); \
           return trxv_st(h, t, SOLVE, CB_ST_DENSE, uplo, trans, diag, n, 0, A, lda, x, incx);)
#define TPXV(S, name, t, T, SOLVE)                                                                     \
   EXPORT2(cublas##S##name##_v2,                                                                    \
           (H, UPLO, cublasOperation_t trans, cublasDiagType_t diag, int64_t n, const T *AP, T *x, int64_t incx), \
           (H, UPLO, cublasOperation_t trans, cublasDiagType_t diag, int n, const T *AP, T *x, int incx), \
           (h, uplo, trans, diag, n, AP, x, incx),                                                   \
           CB_ENTER("handle=%p uplo=%d trans=%d diag=%d n=%lld AP=%p x=%p incx=%lld", (void *)h, (int)uplo,   \
                    (int)trans, (int)diag, (long long)n, (const void *)AP, (void *)x, (long long)incx);  \
           return trxv_st(h, t, SOLVE, CB_ST_PACKED, uplo, trans, diag, n, 0, AP, 0, x, incx);)

#define ALL4(M, name, ...)                                                                             \
   M(S, name, 's', float, __VA_ARGS__)                                                             \
   M(D, name, 'd', double, __VA_ARGS__)                                                            \
   M(C, name, 'c', cuComplex, __VA_ARGS__)                                                         \
   M(Z, name, 'z', cuDoubleComplex, __VA_ARGS__)

GEMV(S, 's', float)
GEMV(D, 'd', double)
GEMV(C, 'c', cuComplex)
GEMV(Z, 'z', cuDoubleComplex)
GEMVB(S, 's', float)
GEMVB(D, 'd', double)
GEMVB(C, 'c', cuComplex)
GEMVB(Z, 'z', cuDoubleComplex)
GEMVX(HSH, "hh", uint16_t, uint16_t)
GEMVX(HSS, "hs", uint16_t, float)
GEMVX(TST, "bb", uint16_t, uint16_t)
GEMVX(TSS, "bs", uint16_t, float)
GBMV(S, 's', float)
GBMV(D, 'd', double)
GBMV(C, 'c', cuComplex)
GBMV(Z, 'z', cuDoubleComplex)
ALL4(HEMV, symv, CB_SYM)
HEMV(C, hemv, 'c', cuComplex, CB_HERM)
HEMV(Z, hemv, 'z', cuDoubleComplex, CB_HERM)
SBMV(S, sbmv, 's', float, CB_SYM)
SBMV(D, sbmv, 'd', double, CB_SYM)
SBMV(C, hbmv, 'c', cuComplex, CB_HERM)
SBMV(Z, hbmv, 'z', cuDoubleComplex, CB_HERM)
SPMV(S, spmv, 's', float, CB_SYM)
SPMV(D, spmv, 'd', double, CB_SYM)
SPMV(C, hpmv, 'c', cuComplex, CB_HERM)
SPMV(Z, hpmv, 'z', cuDoubleComplex, CB_HERM)
GER(S, ger, 's', float, false)
GER(D, ger, 'd', double, false)
GER(C, geru, 'c', cuComplex, false)
GER(C, gerc, 'c', cuComplex, true)
GER(Z, geru, 'z', cuDoubleComplex, false)
GER(Z, gerc, 'z', cuDoubleComplex, true)
SYR(S, syr, 's', float, float, CB_SYM)
SYR(D, syr, 'd', double, double, CB_SYM)
SYR(C, syr, 'c', cuComplex, cuComplex, CB_SYM)
SYR(Z, syr, 'z', cuDoubleComplex, cuDoubleComplex, CB_SYM)
SYR(C, her, 'c', cuComplex, float, CB_HERM)
SYR(Z, her, 'z', cuDoubleComplex, double, CB_HERM)
SPR(S, spr, 's', float, float, CB_SYM)
SPR(D, spr, 'd', double, double, CB_SYM)
SPR(C, hpr, 'c', cuComplex, float, CB_HERM)
SPR(Z, hpr, 'z', cuDoubleComplex, double, CB_HERM)
ALL4(SYR2, syr2, CB_SYM)
SYR2(C, her2, 'c', cuComplex, CB_HERM)
SYR2(Z, her2, 'z', cuDoubleComplex, CB_HERM)
SPR2(S, spr2, 's', float, CB_SYM)
SPR2(D, spr2, 'd', double, CB_SYM)
SPR2(C, hpr2, 'c', cuComplex, CB_HERM)
SPR2(Z, hpr2, 'z', cuDoubleComplex, CB_HERM)
ALL4(TRXV, trmv, false)
ALL4(TRXV, trsv, true)
ALL4(TBXV, tbmv, false)
ALL4(TBXV, tbsv, true)
ALL4(TPXV, tpmv, false)
ALL4(TPXV, tpsv, true)
