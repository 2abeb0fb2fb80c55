/*
 * level3x.c — BLAS Level 3 beyond GEMM: syrk, syrkx, syr2k, symm, trmm
 * and trsm in s/d/c/z, herk, herkx, her2k and hemm in c/z (with their _v2
 * and _64 forms).
 *
 * syrk, syrkx and syr2k update only C's uplo triangle; they and symm take
 * an element of C per thread.  trmm is
 * cuBLAS's out-of-place form, C = alpha op(A) B or alpha B op(A); as
 * cuBLAS documents, passing B as C gives BLAS's in-place trmm (here with
 * ldc = ldb; another ldc with C = B is refused with
 * CUBLAS_STATUS_INVALID_VALUE, there being no order that works).  trsm
 * solves op(A) X = alpha B or X op(A) = alpha B in place in B.  Both give
 * a thread each column (left) or row (right) of B, walked in the order
 * that keeps them in place (kernels.cu: trmm_trsm), barrier free; with A
 * larger than CB_TRSM_NB both are blocked, the kernel taking diagonal
 * blocks and GEMM the rest.  For real types a conjugate transpose is
 * a transpose.  c/z syrk takes op N or T only (it is symmetric, not
 * Hermitian: herk's is C).
 *
 * herk/herkx/her2k: C = alpha op(A) op(B)^H [+ conj(alpha) op(B) op(A)^H]
 * + beta C on C's uplo triangle with op N or C (T refused, as cuBLAS
 * documents), alpha real for herk, beta always real, an element per
 * thread (kernels.cu: herk); C's diagonal comes out real, as BLAS writes
 * it.  hemm is symm's kernel reading A as Hermitian (the mirror
 * conjugated, the diagonal's imaginary parts not read).
 */
#include "cb.h"


LOG_CHANNEL(cublas);

#define VALID_OP(t) ((t) == CUBLAS_OP_N || (t) == CUBLAS_OP_T || (t) == CUBLAS_OP_C)
#define VALID_UPLO(u) ((u) == CUBLAS_FILL_MODE_LOWER || (u) == CUBLAS_FILL_MODE_UPPER)
#define VALID_SIDE(s) ((s) == CUBLAS_SIDE_LEFT || (s) == CUBLAS_SIDE_RIGHT)
#define VALID_DIAG(d) ((d) == CUBLAS_DIAG_NON_UNIT || (d) == CUBLAS_DIAG_UNIT)

/* syrk (B NULL), syrkx, syr2k (two); herm: herk (B NULL: alpha real),
 * herkx, her2k (beta real, op N or C; T counts as C) */
/* The argument checks of the syrk/herk family, in NVIDIA's order. */
static cublasStatus_t syrk_args(char t, bool herm, cublasFillMode_t uplo, cublasOperation_t trans, int64_t n,
                                int64_t k, int64_t lda, const void *B, int64_t ldb, int64_t ldc)
{
   CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_OP(trans), CUBLAS_STATUS_INVALID_VALUE);
   /* herk, herkx, her2k: NVIDIA's cuBLAS (13.1, H200) takes OP_T for OP_C
    * and computes the same C; complex syrk refuses OP_C */
   CB_CHECK(herm || trans != CUBLAS_OP_C || t == 's' || t == 'd', CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n >= 0 && k >= 0, CUBLAS_STATUS_INVALID_VALUE);
   int64_t ar = trans == CUBLAS_OP_N ? n : k;
   CB_CHECK(lda >= (ar > 1 ? ar : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(!B || ldb >= (ar > 1 ? ar : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldc >= (n > 1 ? n : 1), CUBLAS_STATUS_INVALID_VALUE);
   return CUBLAS_STATUS_SUCCESS;
}

static cublasStatus_t syrk(cublasHandle_t h, char t, bool herm, bool two, cublasFillMode_t uplo,
                           cublasOperation_t trans, int64_t n, int64_t k, const void *alpha, const void *A,
                           int64_t lda, const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)
{
   CB_HANDLE(h);
   cublasStatus_t st = syrk_args(t, herm, uplo, trans, n, k, lda, B, ldb, ldc);
   if (st != CUBLAS_STATUS_SUCCESS)
      return st;
   if (n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && C && (A || k == 0), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(n <= INT32_MAX && k <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g = cb_mat(A, lda, B, ldb, C, ldc, 0, n);
   g.tb = two;   /* syrk's kernel */
   g.two = two;  /* herk's */
   g.k = (int32_t)k;
   g.ta = trans != CUBLAS_OP_N;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.areal = herm && B == NULL;
   g.breal = herm;
   char rk = t == 'c' ? 's' : 'd';   /* herk's real scalars */
   g.alpha = cb_scalar_of(h, alpha, g.areal ? rk : t);
   g.beta = cb_scalar_of(h, beta, g.breal ? rk : t);
   int64_t nb = (n + 15) / 16;
   CB_CHECK(nb <= 65535, CUBLAS_STATUS_NOT_SUPPORTED);
   char name[32];
   return cb_launch(h, cb_kname(name, herm ? "herk" : "syrk", t), (unsigned)nb, (unsigned)nb, 1, 16, 16, &g,
                    sizeof(g));
}

/* trsm blocked: op(A) in diagonal blocks of CB_TRSM_NB, taken in the
 * order of the substitution; each block's rows (left) or columns (right)
 * of B are solved by the thread-per-line kernel, then the part of B still
 * to be solved loses their contribution through GEMM (B_rest = -op(A) X_k
 * + beta B_rest, or -X_k op(A) + beta B_rest, beta = alpha the first time
 * so that alpha B is formed on the way). */
#define CB_TRSM_NB 64
static cublasStatus_t trsm_blocked(cublasHandle_t h, char t, const cb_mat_args *g0, int64_t na)
{
   size_t es = cb_elem(t);
   char name[32];
   bool left = g0->side == 0, upper = (g0->uplo != 0) != (g0->ta != 0);
   bool forward = left ? !upper : upper;
   cublasOperation_t op = g0->ta == 2 ? CUBLAS_OP_C : g0->ta ? CUBLAS_OP_T : CUBLAS_OP_N;
   cb_scalar one = { NULL, 1, 0, 1, 0 }, mone = { NULL, -1, 0, -1, 0 };
   const char *A = g0->A;
   char *B = (char *)g0->B;
   int64_t lda = g0->lda, ldb = g0->ldb, nblk = (na + CB_TRSM_NB - 1) / CB_TRSM_NB;
   for (int64_t s = 0; s < nblk; s++) {
      int64_t kb = forward ? s : nblk - 1 - s, k0 = kb * CB_TRSM_NB, k1 = k0 + CB_TRSM_NB < na ? k0 + CB_TRSM_NB : na;
      int64_t kn = k1 - k0, r0 = forward ? k1 : 0, rn = forward ? na - k1 : k0;
      cb_mat_args g = *g0;
      g.A = A + (size_t)(k0 + k0 * lda) * es;
      g.B = B + (size_t)(left ? k0 : k0 * ldb) * es;
      if (left)
         g.m = (int32_t)kn;
      else
         g.n = (int32_t)kn;
      if (s > 0)
         g.alpha = one;
      int64_t lines = left ? g.n : g.m, nb = (lines + 63) / 64;
      cublasStatus_t st = cb_launch(h, cb_kname(name, "trsm", t), (unsigned)nb, 1, 1, 64, 1, &g, sizeof(g));
      if (st != CUBLAS_STATUS_SUCCESS || rn == 0)
         return st;
      cb_scalar beta = s > 0 ? one : g0->alpha;
      /* op(A)[rows, cols] as a GEMM operand */
#define OPA(r, c) (A + (size_t)(op == CUBLAS_OP_N ? (r) + (c) * lda : (c) + (r) * lda) * es)
      if (left)
         st = cb_gemm_sc(h, t, op, CUBLAS_OP_N, rn, g0->n, kn, mone, OPA(r0, k0), lda, g.B, ldb, beta,
                         B + (size_t)r0 * es, ldb);
      else
         st = cb_gemm_sc(h, t, CUBLAS_OP_N, op, g0->m, rn, kn, mone, g.B, ldb, OPA(k0, r0), lda, beta,
                         B + (size_t)(r0 * ldb) * es, ldb);
#undef OPA
      if (st != CUBLAS_STATUS_SUCCESS)
         return st;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* symm; herm: hemm */
static cublasStatus_t symm(cublasHandle_t h, char t, bool herm, cublasSideMode_t side, cublasFillMode_t uplo,
                           int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
                           const void *beta, void *C, int64_t ldc)
{
   CB_HANDLE(h);
   CB_CHECK(VALID_SIDE(side), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   int64_t na = side == CUBLAS_SIDE_LEFT ? m : n;
   CB_CHECK(lda >= (na > 1 ? na : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldb >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldc >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && beta && A && B && C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g = cb_mat(A, lda, B, ldb, C, ldc, m, n);
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.side = side == CUBLAS_SIDE_RIGHT;
   g.herm = herm ? CB_HERM : CB_SYM;
   g.alpha = cb_scalar_of(h, alpha, t);
   g.beta = cb_scalar_of(h, beta, t);
   int64_t bx = (m + 15) / 16, by = (n + 15) / 16;
   CB_CHECK(by <= 65535, CUBLAS_STATUS_NOT_SUPPORTED);
   char name[32];
   return cb_launch(h, cb_kname(name, "symm", t), (unsigned)bx, (unsigned)by, 1, 16, 16, &g, sizeof(g));
}

/* trmm blocked: block k of C (rows left, columns right) is alpha times
 * the diagonal block's product with block k of B (the thread-per-line
 * kernel) plus, through GEMM, alpha times the rest of its triangle with
 * the blocks of B it depends on; blocks are taken in the order that leaves
 * those unwritten, so C may be B. */
static cublasStatus_t trmm_blocked(cublasHandle_t h, char t, const cb_mat_args *g0, int64_t na)
{
   size_t es = cb_elem(t);
   char name[32];
   bool left = g0->side == 0, upper = (g0->uplo != 0) != (g0->ta != 0);
   bool after = left ? upper : !upper;   /* block k depends on the blocks after it */
   cublasOperation_t op = g0->ta == 2 ? CUBLAS_OP_C : g0->ta ? CUBLAS_OP_T : CUBLAS_OP_N;
   cb_scalar one = { NULL, 1, 0, 1, 0 };
   const char *A = g0->A, *B = g0->B;
   char *C = g0->C;
   int64_t lda = g0->lda, ldb = g0->ldb, ldc = g0->ldc, nblk = (na + CB_TRSM_NB - 1) / CB_TRSM_NB;
   for (int64_t s = 0; s < nblk; s++) {
      int64_t kb = after ? s : nblk - 1 - s, k0 = kb * CB_TRSM_NB, k1 = k0 + CB_TRSM_NB < na ? k0 + CB_TRSM_NB : na;
      int64_t kn = k1 - k0, r0 = after ? k1 : 0, rn = after ? na - k1 : k0;
      cb_mat_args g = *g0;
      g.A = A + (size_t)(k0 + k0 * lda) * es;
      g.B = B + (size_t)(left ? k0 : k0 * ldb) * es;
      g.C = C + (size_t)(left ? k0 : k0 * ldc) * es;
      if (left)
         g.m = (int32_t)kn;
      else
         g.n = (int32_t)kn;
      int64_t lines = left ? g.n : g.m, nb = (lines + 63) / 64;
      cublasStatus_t st = cb_launch(h, cb_kname(name, "trmm", t), (unsigned)nb, 1, 1, 64, 1, &g, sizeof(g));
      if (st != CUBLAS_STATUS_SUCCESS)
         return st;
      if (rn == 0)
         continue;
#define OPA(r, c) (A + (size_t)(op == CUBLAS_OP_N ? (r) + (c) * lda : (c) + (r) * lda) * es)
      if (left)
         st = cb_gemm_sc(h, t, op, CUBLAS_OP_N, kn, g0->n, rn, g0->alpha, OPA(k0, r0), lda, B + (size_t)r0 * es, ldb,
                         one, g.C, ldc);
      else
         st = cb_gemm_sc(h, t, CUBLAS_OP_N, op, g0->m, kn, rn, g0->alpha, B + (size_t)(r0 * ldb) * es, ldb,
                         OPA(r0, k0), lda, one, g.C, ldc);
#undef OPA
      if (st != CUBLAS_STATUS_SUCCESS)
         return st;
   }
   return CUBLAS_STATUS_SUCCESS;
}

/* trmm (C given) and trsm (C NULL: in place in B) */
static cublasStatus_t trxm(cublasHandle_t h, char t, bool solve, cublasSideMode_t side, cublasFillMode_t uplo,
                           cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n, const void *alpha,
                           const void *A, int64_t lda, const void *B, int64_t ldb, void *C, int64_t ldc)
{
   CB_HANDLE(h);
   CB_CHECK(VALID_SIDE(side), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_OP(trans), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_DIAG(diag), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0, CUBLAS_STATUS_INVALID_VALUE);
   int64_t na = side == CUBLAS_SIDE_LEFT ? m : n;
   CB_CHECK(lda >= (na > 1 ? na : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldb >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   if (!solve) {
      CB_CHECK(ldc >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
      CB_CHECK(C != B || ldc == ldb, CUBLAS_STATUS_INVALID_VALUE);
   }
   if (m == 0 || n == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && A && B && (solve || C), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g = cb_mat(A, lda, B, ldb, C, ldc, m, n);
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.side = side == CUBLAS_SIDE_RIGHT;
   g.unit = diag == CUBLAS_DIAG_UNIT;
   g.alpha = cb_scalar_of(h, alpha, t);
   if (na > CB_TRSM_NB)
      return solve ? trsm_blocked(h, t, &g, na) : trmm_blocked(h, t, &g, na);
   int64_t lines = side == CUBLAS_SIDE_LEFT ? n : m, nb = (lines + 63) / 64;
   char name[32];
   return cb_launch(h, cb_kname(name, solve ? "trsm" : "trmm", t), (unsigned)nb, 1, 1, 64, 1, &g, sizeof(g));
}

/* trsmBatched: every matrix by the unblocked kernel (a thread per line of
 * B; cuBLAS meant it for many small systems), one launch, the pointer
 * arrays read on the device */
static cublasStatus_t trsm_batched(cublasHandle_t h, char t, cublasSideMode_t side, cublasFillMode_t uplo,
                                   cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n,
                                   const void *alpha, const void *const A[], int64_t lda, void *const B[], int64_t ldb,
                                   int64_t batch)
{
   CB_HANDLE(h);
   CB_CHECK(VALID_SIDE(side), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_UPLO(uplo), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_OP(trans), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(VALID_DIAG(diag), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m >= 0 && n >= 0 && batch >= 0, CUBLAS_STATUS_INVALID_VALUE);
   int64_t na = side == CUBLAS_SIDE_LEFT ? m : n;
   CB_CHECK(lda >= (na > 1 ? na : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(ldb >= (m > 1 ? m : 1), CUBLAS_STATUS_INVALID_VALUE);
   if (m == 0 || n == 0 || batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(alpha && A && B, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(m <= INT32_MAX && n <= INT32_MAX && batch <= INT32_MAX, CUBLAS_STATUS_NOT_SUPPORTED);
   cb_mat_args g = cb_mat(NULL, lda, NULL, ldb, NULL, 0, m, n);
   g.Aarr = A;
   g.Barr = B;
   g.batch = (int32_t)batch;
   g.ta = trans == CUBLAS_OP_N ? 0 : trans == CUBLAS_OP_C && (t == 'c' || t == 'z') ? 2 : 1;
   g.uplo = uplo == CUBLAS_FILL_MODE_UPPER;
   g.side = side == CUBLAS_SIDE_RIGHT;
   g.unit = diag == CUBLAS_DIAG_UNIT;
   g.alpha = cb_scalar_of(h, alpha, t);
   int64_t lines = side == CUBLAS_SIDE_LEFT ? n : m, nb = (lines + 63) / 64;
   char name[32];
   return cb_launch(h, cb_kname(name, "trsmb", t), (unsigned)nb, (unsigned)(batch < 65535 ? batch : 65535), 1, 64, 1,
                    &g, sizeof(g));
}

#define TRSMB(S, t, T)                                                                                 \
   CB_EXPORT cublasStatus_t cublas##S##trsmBatched_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                      cublasOperation_t trans, cublasDiagType_t diag, int64_t m, \
                                                      int64_t n, const T *alpha, const T *const A[], int64_t lda, \
                                                      T *const B[], int64_t ldb, int64_t batch);             \
   CB_EXPORT cublasStatus_t cublas##S##trsmBatched_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                      cublasOperation_t trans, cublasDiagType_t diag, int64_t m, \
                                                      int64_t n, const T *alpha, const T *const A[], int64_t lda, \
                                                      T *const B[], int64_t ldb, int64_t batch)              \
   {                                                                                                \
      CB_ENTER("handle=%p side=%d uplo=%d trans=%d diag=%d m=%lld n=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld " \
               "batch=%lld",                                                                        \
               (void *)h, (int)side, (int)uplo, (int)trans, (int)diag, (long long)m, (long long)n,      \
               (const void *)alpha, (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (long long)batch); \
      return trsm_batched(h, t, side, uplo, trans, diag, m, n, alpha, (const void *const *)A, lda,    \
                          (void *const *)B, ldb, batch);                                            \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##trsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                   cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
                                                   const T *alpha, const T *const A[], int lda, T *const B[],   \
                                                   int ldb, int batch);                                     \
   CB_EXPORT cublasStatus_t cublas##S##trsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                   cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
                                                   const T *alpha, const T *const A[], int lda, T *const B[],   \
                                                   int ldb, int batch)                                      \
   {                                                                                                \
      return cublas##S##trsmBatched_64(h, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, batch); \
   }
TRSMB(S, 's', float)
TRSMB(D, 'd', double)
TRSMB(C, 'c', cuComplex)
TRSMB(Z, 'z', cuDoubleComplex)

#define L3X(S, t, T)                                                                                   \
   CB_EXPORT cublasStatus_t cublas##S##syrk_v2_64(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                                  int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda, \
                                                  const T *beta, T *C, int64_t ldc);                    \
   CB_EXPORT cublasStatus_t cublas##S##syrk_v2_64(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                                  int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda, \
                                                  const T *beta, T *C, int64_t ldc)                     \
   {                                                                                                \
      CB_ENTER("handle=%p uplo=%d trans=%d n=%lld k=%lld alpha=%p A=%p lda=%lld beta=%p C=%p ldc=%lld", (void *)h, \
               (int)uplo, (int)trans, (long long)n, (long long)k, (const void *)alpha, (const void *)A,    \
               (long long)lda, (const void *)beta, (void *)C, (long long)ldc);                        \
      return syrk(h, t, false, false, uplo, trans, n, k, alpha, A, lda, NULL, 0, beta, C, ldc);             \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##syrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                               int n, int k, const T *alpha, const T *A, int lda, const T *beta, \
                                               T *C, int ldc);                                         \
   CB_EXPORT cublasStatus_t cublas##S##syrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                               int n, int k, const T *alpha, const T *A, int lda, const T *beta, \
                                               T *C, int ldc)                                          \
   {                                                                                                \
      return cublas##S##syrk_v2_64(h, uplo, trans, n, k, alpha, A, lda, beta, C, ldc);              \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##trmm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                  cublasOperation_t trans, cublasDiagType_t diag, int64_t m,  \
                                                  int64_t n, const T *alpha, const T *A, int64_t lda, const T *B, \
                                                  int64_t ldb, T *C, int64_t ldc);                      \
   CB_EXPORT cublasStatus_t cublas##S##trmm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                  cublasOperation_t trans, cublasDiagType_t diag, int64_t m,  \
                                                  int64_t n, const T *alpha, const T *A, int64_t lda, const T *B, \
                                                  int64_t ldb, T *C, int64_t ldc)                       \
   {                                                                                                \
      CB_ENTER("handle=%p side=%d uplo=%d trans=%d diag=%d m=%lld n=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld " \
               "C=%p ldc=%lld",                                                                     \
               (void *)h, (int)side, (int)uplo, (int)trans, (int)diag, (long long)m, (long long)n,      \
               (const void *)alpha, (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (void *)C, \
               (long long)ldc);                                                                     \
      return trxm(h, t, false, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, C, ldc);        \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##trmm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                               cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
                                               const T *alpha, const T *A, int lda, const T *B, int ldb, T *C, \
                                               int ldc);                                               \
   CB_EXPORT cublasStatus_t cublas##S##trmm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                               cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
                                               const T *alpha, const T *A, int lda, const T *B, int ldb, T *C, \
                                               int ldc)                                                \
   {                                                                                                \
      return cublas##S##trmm_v2_64(h, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, C, ldc); \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##trsm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                  cublasOperation_t trans, cublasDiagType_t diag, int64_t m,  \
                                                  int64_t n, const T *alpha, const T *A, int64_t lda, T *B,   \
                                                  int64_t ldb);                                          \
   CB_EXPORT cublasStatus_t cublas##S##trsm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                  cublasOperation_t trans, cublasDiagType_t diag, int64_t m,  \
                                                  int64_t n, const T *alpha, const T *A, int64_t lda, T *B,   \
                                                  int64_t ldb)                                           \
   {                                                                                                \
      CB_ENTER("handle=%p side=%d uplo=%d trans=%d diag=%d m=%lld n=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld", \
               (void *)h, (int)side, (int)uplo, (int)trans, (int)diag, (long long)m, (long long)n,      \
               (const void *)alpha, (const void *)A, (long long)lda, (void *)B, (long long)ldb);        \
      return trxm(h, t, true, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, NULL, 0);       \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##trsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                               cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
                                               const T *alpha, const T *A, int lda, T *B, int ldb);   \
   CB_EXPORT cublasStatus_t cublas##S##trsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                               cublasOperation_t trans, cublasDiagType_t diag, int m, int n,  \
                                               const T *alpha, const T *A, int lda, T *B, int ldb)    \
   {                                                                                                \
      return cublas##S##trsm_v2_64(h, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb);        \
   }
/* syrkx and syr2k (X: syrkx, syr2k_v2), symm */
#define L3Y(S, t, T, X, two)                                                                           \
   CB_EXPORT cublasStatus_t cublas##S##X##_64(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                              int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda,  \
                                              const T *B, int64_t ldb, const T *beta, T *C, int64_t ldc);   \
   CB_EXPORT cublasStatus_t cublas##S##X##_64(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, \
                                              int64_t n, int64_t k, const T *alpha, const T *A, int64_t lda,  \
                                              const T *B, int64_t ldb, const T *beta, T *C, int64_t ldc)    \
   {                                                                                                \
      CB_ENTER("handle=%p uplo=%d trans=%d n=%lld k=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld beta=%p C=%p " \
               "ldc=%lld",                                                                          \
               (void *)h, (int)uplo, (int)trans, (long long)n, (long long)k, (const void *)alpha,        \
               (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (const void *)beta, (void *)C, \
               (long long)ldc);                                                                     \
      CB_CHECK(B || n == 0 || k == 0, CUBLAS_STATUS_INVALID_VALUE);                                 \
      return syrk(h, t, false, two, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);               \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##X(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, \
                                         int k, const T *alpha, const T *A, int lda, const T *B, int ldb,   \
                                         const T *beta, T *C, int ldc);                                 \
   CB_EXPORT cublasStatus_t cublas##S##X(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, \
                                         int k, const T *alpha, const T *A, int lda, const T *B, int ldb,   \
                                         const T *beta, T *C, int ldc)                                  \
   {                                                                                                \
      return cublas##S##X##_64(h, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);          \
   }
#define SYMM(S, t, T)                                                                                  \
   CB_EXPORT cublasStatus_t cublas##S##symm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                  int64_t m, int64_t n, const T *alpha, const T *A, int64_t lda, \
                                                  const T *B, int64_t ldb, const T *beta, T *C, int64_t ldc); \
   CB_EXPORT cublasStatus_t cublas##S##symm_v2_64(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                                  int64_t m, int64_t n, const T *alpha, const T *A, int64_t lda, \
                                                  const T *B, int64_t ldb, const T *beta, T *C, int64_t ldc)  \
   {                                                                                                \
      CB_ENTER("handle=%p side=%d uplo=%d m=%lld n=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld beta=%p C=%p " \
               "ldc=%lld",                                                                          \
               (void *)h, (int)side, (int)uplo, (long long)m, (long long)n, (const void *)alpha,          \
               (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (const void *)beta, (void *)C, \
               (long long)ldc);                                                                     \
      return symm(h, t, false, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);                      \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##symm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                               int m, int n, const T *alpha, const T *A, int lda, const T *B, \
                                               int ldb, const T *beta, T *C, int ldc);                  \
   CB_EXPORT cublasStatus_t cublas##S##symm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, \
                                               int m, int n, const T *alpha, const T *A, int lda, const T *B, \
                                               int ldb, const T *beta, T *C, int ldc)                   \
   {                                                                                                \
      return cublas##S##symm_v2_64(h, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);       \
   }
#define L3Z(S, t, T)                                                                                   \
   L3Y(S, t, T, syrkx, false)                                                                      \
   L3Y(S, t, T, syr2k_v2, true)                                                                    \
   SYMM(S, t, T)
L3Z(S, 's', float)
L3Z(D, 'd', double)
L3Z(C, 'c', cuComplex)
L3Z(Z, 'z', cuDoubleComplex)
L3X(S, 's', float)
L3X(D, 'd', double)
L3X(C, 'c', cuComplex)
L3X(Z, 'z', cuDoubleComplex)

/* herk, herkx, her2k, hemm (c z): alpha real for herk, beta real for the
 * herk family */
#define EXPORT2(NAME, P64, P32, ARGS, BODY)                                                           \
   CB_EXPORT cublasStatus_t NAME##_64 P64;                                                          \
   CB_EXPORT cublasStatus_t NAME##_64 P64 { BODY }                                                  \
   CB_EXPORT cublasStatus_t NAME P32;                                                               \
   CB_EXPORT cublasStatus_t NAME P32 { return NAME##_64 ARGS; }

#define L3H(S, t, T, R)                                                                                \
   EXPORT2(cublas##S##herk_v2,                                                                      \
           (cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int64_t n, int64_t k, const R *alpha, \
            const T *A, int64_t lda, const R *beta, T *C, int64_t ldc),                             \
           (cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const R *alpha,     \
            const T *A, int lda, const R *beta, T *C, int ldc),                                     \
           (h, uplo, trans, n, k, alpha, A, lda, beta, C, ldc),                                      \
           CB_ENTER("handle=%p uplo=%d trans=%d n=%lld k=%lld alpha=%p A=%p lda=%lld beta=%p C=%p ldc=%lld", \
                    (void *)h, (int)uplo, (int)trans, (long long)n, (long long)k, (const void *)alpha,   \
                    (const void *)A, (long long)lda, (const void *)beta, (void *)C, (long long)ldc);  \
           return syrk(h, t, true, false, uplo, trans, n, k, alpha, A, lda, NULL, 0, beta, C, ldc);)      \
   L3HX(S, t, T, R, herkx, false)                                                                   \
   L3HX(S, t, T, R, her2k_v2, true)                                                                 \
   EXPORT2(cublas##S##hemm_v2,                                                                      \
           (cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int64_t m, int64_t n, const T *alpha, \
            const T *A, int64_t lda, const T *B, int64_t ldb, const T *beta, T *C, int64_t ldc),    \
           (cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const T *alpha,       \
            const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc),                \
           (h, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc),                               \
           CB_ENTER("handle=%p side=%d uplo=%d m=%lld n=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld beta=%p C=%p " \
                    "ldc=%lld",                                                                     \
                    (void *)h, (int)side, (int)uplo, (long long)m, (long long)n, (const void *)alpha,   \
                    (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (const void *)beta, \
                    (void *)C, (long long)ldc);                                                      \
           return symm(h, t, true, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc);)
#define L3HX(S, t, T, R, X, two)                                                                       \
   EXPORT2(cublas##S##X,                                                                            \
           (cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int64_t n, int64_t k, const T *alpha, \
            const T *A, int64_t lda, const T *B, int64_t ldb, const R *beta, T *C, int64_t ldc),    \
           (cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const T *alpha,     \
            const T *A, int lda, const T *B, int ldb, const R *beta, T *C, int ldc),                \
           (h, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc),                              \
           CB_ENTER("handle=%p uplo=%d trans=%d n=%lld k=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld beta=%p C=%p " \
                    "ldc=%lld",                                                                     \
                    (void *)h, (int)uplo, (int)trans, (long long)n, (long long)k, (const void *)alpha,   \
                    (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (const void *)beta, \
                    (void *)C, (long long)ldc);                                                      \
           CB_CHECK(B || n == 0 || k == 0, CUBLAS_STATUS_INVALID_VALUE);                            \
           return syrk(h, t, true, two, uplo, trans, n, k, alpha, A, lda, B, ldb, beta, C, ldc);)

L3H(C, 'c', cuComplex, float)
L3H(Z, 'z', cuDoubleComplex, double)

/* CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx: cuBLAS's forms with typed A
 * and C (CUDA_C_8I or CUDA_C_32F A, CUDA_C_32F C); the 3m forms are an
 * algorithm choice (Gauss's three products), the same result within the
 * bound.  CUDA_C_32F A is csyrk/cherk.  CUDA_C_8I A, which cuBLAS's
 * documentation lists, is NOT_SUPPORTED after the argument checks, as
 * cuBLAS 13.1 answers on an H200 for every shape (measured: n, k from 4
 * to 32, lda and ldc from 4 to 32, op N, T and C). */
static cublasStatus_t rk_ex(cublasHandle_t h, bool herm, cublasFillMode_t uplo, cublasOperation_t trans, int64_t n,
                            int64_t k, const void *alpha, const void *A, cudaDataType Atype, int64_t lda,
                            const void *beta, void *C, cudaDataType Ctype, int64_t ldc)
{
   CB_HANDLE(h);
   CB_CHECK(Ctype == CUDA_C_32F && (Atype == CUDA_C_32F || Atype == CUDA_C_8I), CUBLAS_STATUS_NOT_SUPPORTED);
   if (Atype == CUDA_C_8I) {
      cublasStatus_t st = syrk_args('c', herm, uplo, trans, n, k, lda, NULL, 0, ldc);
      if (st != CUBLAS_STATUS_SUCCESS)
         return st;
      CB_NOT_SUPPORTED("CsyrkEx/CherkEx (and 3m) with CUDA_C_8I A (NVIDIA's cuBLAS 13.1 refuses it too)");
   }
   return syrk(h, 'c', herm, false, uplo, trans, n, k, alpha, A, lda, NULL, 0, beta, C, ldc);
}

#define RKEX(NAME, HERM, TS)                                                                           \
   EXPORT2(NAME,                                                                                    \
           (cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int64_t n, int64_t k, const TS *alpha, \
            const void *A, cudaDataType Atype, int64_t lda, const TS *beta, void *C, cudaDataType Ctype, int64_t ldc), \
           (cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const TS *alpha,     \
            const void *A, cudaDataType Atype, int lda, const TS *beta, void *C, cudaDataType Ctype, int ldc), \
           (h, uplo, trans, n, k, alpha, A, Atype, lda, beta, C, Ctype, ldc),                        \
           CB_ENTER("handle=%p uplo=%d trans=%d n=%lld k=%lld alpha=%p A=%p Atype=%d lda=%lld beta=%p C=%p "     \
                    "Ctype=%d ldc=%lld",                                                            \
                    (void *)h, (int)uplo, (int)trans, (long long)n, (long long)k, (const void *)alpha,   \
                    A, (int)Atype, (long long)lda, (const void *)beta, C, (int)Ctype, (long long)ldc);  \
           return rk_ex(h, HERM, uplo, trans, n, k, alpha, A, Atype, lda, beta, C, Ctype, ldc);)
RKEX(cublasCsyrkEx, false, cuComplex)
RKEX(cublasCsyrk3mEx, false, cuComplex)
RKEX(cublasCherkEx, true, float)
RKEX(cublasCherk3mEx, true, float)
