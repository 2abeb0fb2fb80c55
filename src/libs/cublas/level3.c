/*
 * level3.c — GEMM: s/d/c/z gemm, gemmStridedBatched, gemmBatched, gemmEx,
 * GemmStridedBatchedEx, GemmBatchedEx, SgemmEx (with their _64 forms).
 *
 * One internal gemm() takes every form: a stride between batch members or
 * arrays of pointers, and a kernel chosen by the types (kernels.cu:
 * cb_gemm_<A/B><C><compute>_<op(A)><op(B)> for the real types, cb_gemm_c/z
 * for complex).  gemmEx supports the combinations with f16, bf16, f32 and
 * f64 data that a compute type of the same or a wider precision covers, and
 * int8 data (int32 C with CUBLAS_COMPUTE_32I, float C with COMPUTE_32F,
 * CUDA_C_8I with CUDA_C_32F C); the others are refused with
 * CUBLAS_STATUS_NOT_SUPPORTED, as NVIDIA refuses combinations it lacks.
 * Half-precision data is accumulated in float.
 */
#include "cb.h"

#include <stdio.h>
#include <string.h>

LOG_CHANNEL(cublas);

typedef struct gemm_call {
   const char *kind;           /* kernel family: "sss" "ddd" "hhs" "hhh" "hss" "bbs" "bss" "qii" "qss" "c" "z" "cq" */
   char scalar;                /* kind of alpha and beta (cb_scalar_of) */
   cublasOperation_t ta, tb;
   int64_t m, n, k;
   const void *alpha, *beta;
   const void *A, *B;
   void *C;
   const void *const *Aarr, *const *Barr;
   void *const *Carr;
   int64_t lda, ldb, ldc, sA, sB, sC, batch;
} gemm_call;

/* Large single products are packed first (kargs.h): op(A) and op(B) in
 * panels that each thread then reads front to back, so the compute kernel
 * streams contiguous memory whatever the transposes and leading
 * dimensions (a column of A is lda elements from the next: a new page per
 * k for a large matrix, which no prefetcher follows), converts half data
 * once, and needs no edge handling but at the store.  Float panels of A
 * are CB_PM rows (a thread's 32 x 8 of C), double ones CB_TM.  SGEMM
 * 1024^3 on the software device (bench/cublas.sh, 2 AVX-512 cores,
 * 2026-12-03): 0.22 of OpenBLAS with 16-row panels and a rolled k loop,
 * 0.5 to 0.57 with 32 rows and the loop unrolled 16 times (kernels.cu). */
static bool packed(cublasHandle_t h, const gemm_call *c, const cb_gemm_args *g, cublasStatus_t *st)
{
   const char *pk = !strcmp(c->kind, "sss") ? "ss" : !strcmp(c->kind, "ddd") ? "dd" : c->kind[0] == 'b' ? "bs" : "hs";
   size_t es = !strcmp(c->kind, "ddd") ? 8 : 4;
   int64_t pm = !strcmp(c->kind, "ddd") ? CB_TM : CB_PM;   /* rows of a panel of A (kargs.h) */
   int64_t P = (c->m + pm - 1) / pm, Q = (c->n + CB_TN - 1) / CB_TN;
   size_t sa = (size_t)(P * pm * c->k) * es, sb = (size_t)(Q * CB_TN * c->k) * es;
   size_t need = (sa + 255) / 256 * 256 + sb;
   if (need > h->pack_size) {
      /* the old panels may still be read by queued work */
      if (h->pack && (cuStreamSynchronize(h->stream) != CUDA_SUCCESS || cuMemFree(h->pack) != CUDA_SUCCESS))
         return false;
      h->pack = 0;
      h->pack_size = 0;
      if (cuMemAlloc(&h->pack, need) != CUDA_SUCCESS)
         return false;   /* the direct kernels need no memory */
      h->pack_size = need;
   }
   CUdeviceptr pa = h->pack, pb = h->pack + (sa + 255) / 256 * 256;
   char name[32];
   cb_pack_args a = { c->A, (void *)(uintptr_t)pa, c->lda, (int32_t)c->m, (int32_t)c->k, c->ta != CUBLAS_OP_N,
                      (int32_t)P };
   cb_pack_args b = { c->B, (void *)(uintptr_t)pb, c->ldb, (int32_t)c->k, (int32_t)c->n, c->tb != CUBLAS_OP_N,
                      (int32_t)Q };
   int64_t ea = (P * pm * c->k + 255) / 256, eb = (Q * CB_TN * c->k + 255) / 256;
   snprintf(name, sizeof(name), "cb_pack_a_%s", pk);
   *st = cb_launch(h, name, (unsigned)(ea > 4096 ? 4096 : ea), 1, 1, 256, 1, &a, sizeof(a));
   snprintf(name, sizeof(name), "cb_pack_b_%s", pk);
   if (*st == CUBLAS_STATUS_SUCCESS)
      *st = cb_launch(h, name, (unsigned)(eb > 4096 ? 4096 : eb), 1, 1, 256, 1, &b, sizeof(b));
   cb_packed_args p = { (const void *)(uintptr_t)pa, (const void *)(uintptr_t)pb, c->C, c->ldc, g->m, g->n, g->k, 0,
                        g->alpha, g->beta };
   snprintf(name, sizeof(name), "cb_gemmp_%s", c->kind);
   if (*st == CUBLAS_STATUS_SUCCESS)
      *st = cb_launch(h, name, (unsigned)((P + CB_GEMM_BX - 1) / CB_GEMM_BX), (unsigned)((Q + CB_GEMM_BY - 1) / CB_GEMM_BY),
                      1, CB_GEMM_BX, CB_GEMM_BY, &p, sizeof(p));
   return true;
}

/* SA, SB: alpha and beta as the kernels take them (the library's own
 * calls), else NULL: read from c in the handle's pointer mode. */
static cublasStatus_t gemm_sc(cublasHandle_t h, const gemm_call *c, const cb_scalar *sa, const cb_scalar *sb)
{
   CB_HANDLE(h);
   bool cplx = c->kind[0] == 'c' || c->kind[0] == 'z';
   CB_CHECK(c->ta == CUBLAS_OP_N || c->ta == CUBLAS_OP_T || c->ta == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(c->tb == CUBLAS_OP_N || c->tb == CUBLAS_OP_T || c->tb == CUBLAS_OP_C, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(c->m >= 0 && c->n >= 0 && c->k >= 0, CUBLAS_STATUS_INVALID_VALUE);
   int64_t arows = c->ta == CUBLAS_OP_N ? c->m : c->k, brows = c->tb == CUBLAS_OP_N ? c->k : c->n;
   CB_CHECK(c->lda >= (arows > 1 ? arows : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(c->ldb >= (brows > 1 ? brows : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(c->ldc >= (c->m > 1 ? c->m : 1), CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(c->batch >= 0, CUBLAS_STATUS_INVALID_VALUE);
   if (c->m == 0 || c->n == 0 || c->batch == 0)
      return CUBLAS_STATUS_SUCCESS;
   CB_CHECK(c->alpha && c->beta, CUBLAS_STATUS_INVALID_VALUE);
   CB_CHECK(c->m <= INT32_MAX && c->n <= INT32_MAX && c->k <= INT32_MAX && c->batch <= INT32_MAX,
            CUBLAS_STATUS_NOT_SUPPORTED);
   cb_gemm_args g;
   memset(&g, 0, sizeof(g));
   g.A = c->A;
   g.B = c->B;
   g.C = c->C;
   g.Aarr = c->Aarr;
   g.Barr = c->Barr;
   g.Carr = c->Carr;
   g.lda = c->lda;
   g.ldb = c->ldb;
   g.ldc = c->ldc;
   g.sA = c->sA;
   g.sB = c->sB;
   g.sC = c->sC;
   g.m = (int32_t)c->m;
   g.n = (int32_t)c->n;
   g.k = (int32_t)c->k;
   g.batch = (int32_t)c->batch;
   g.ta = (int32_t)c->ta;
   g.tb = (int32_t)c->tb;
   g.alpha = sa ? *sa : cb_scalar_of(h, c->alpha, c->scalar);
   g.beta = sb ? *sb : cb_scalar_of(h, c->beta, c->scalar);
   unsigned gz = (unsigned)(c->batch > 65535 ? 65535 : c->batch);
   char name[32];
   if (cplx) {
      snprintf(name, sizeof(name), "cb_gemm_%s", c->kind);
      return cb_launch(h, name, (unsigned)((c->m + 15) / 16), (unsigned)((c->n + 15) / 16), gz, 16, 16, &g,
                       sizeof(g));
   }
   cublasStatus_t st;
   if (c->batch == 1 && !c->Aarr && c->kind[0] != 'q' && c->m >= 64 && c->n >= 64 && c->k >= 64 &&
       packed(h, c, &g, &st))
      return st;
   snprintf(name, sizeof(name), "cb_gemm_%s_%c%c", c->kind, c->ta == CUBLAS_OP_N ? 'n' : 't',
            c->tb == CUBLAS_OP_N ? 'n' : 't');
   int64_t tm = CB_TM * CB_GEMM_BX, tn = CB_TN * CB_GEMM_BY;
   int64_t gy = (c->n + tn - 1) / tn;
   CB_CHECK(gy <= 65535, CUBLAS_STATUS_NOT_SUPPORTED);
   return cb_launch(h, name, (unsigned)((c->m + tm - 1) / tm), (unsigned)gy, gz, CB_GEMM_BX, CB_GEMM_BY, &g,
                    sizeof(g));
}

static cublasStatus_t gemm(cublasHandle_t h, const gemm_call *c)
{
   return gemm_sc(h, c, NULL, NULL);
}

cublasStatus_t cb_gemm_sc(cublasHandle_t h, char t, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n,
                          int64_t k, cb_scalar alpha, const void *A, int64_t lda, const void *B, int64_t ldb,
                          cb_scalar beta, void *C, int64_t ldc)
{
   gemm_call c = { t == 's' ? "sss" : t == 'd' ? "ddd" : t == 'c' ? "c" : "z", t, ta, tb, m, n, k, &alpha, &beta, A, B, C, NULL, NULL, NULL,
                   lda, ldb, ldc, 0, 0, 0, 1 };
   return gemm_sc(h, &c, &alpha, &beta);
}

#define TRACE_GEMM(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc)                            \
   CB_ENTER("handle=%p transa=%d transb=%d m=%lld n=%lld k=%lld alpha=%p A=%p lda=%lld B=%p ldb=%lld " \
            "beta=%p C=%p ldc=%lld",                                                                  \
            (void *)h, (int)ta, (int)tb, (long long)m, (long long)n, (long long)k, (const void *)alpha,   \
            (const void *)A, (long long)lda, (const void *)B, (long long)ldb, (const void *)beta,        \
            (const void *)C, (long long)ldc)

/* gemm of one kind, named N64 (64-bit sizes) and N */
#define GEMM_PLAIN(N64, N, kd, sc, T)                                                                           \
   CB_EXPORT cublasStatus_t N64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, \
                                int64_t k, const T *alpha, const T *A, int64_t lda, const T *B, int64_t ldb,     \
                                const T *beta, T *C, int64_t ldc);                                              \
   CB_EXPORT cublasStatus_t N64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, \
                                int64_t k, const T *alpha, const T *A, int64_t lda, const T *B, int64_t ldb,     \
                                const T *beta, T *C, int64_t ldc)                                               \
   {                                                                                                \
      TRACE_GEMM(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                           \
      gemm_call c = { kd, sc, ta, tb, m, n, k, alpha, beta, A, B, C, NULL, NULL, NULL, lda, ldb, ldc, 0, 0, 0, 1 }; \
      return gemm(h, &c);                                                                           \
   }                                                                                                \
   CB_EXPORT cublasStatus_t N(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, \
                              const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C,   \
                              int ldc);                                                                   \
   CB_EXPORT cublasStatus_t N(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, \
                              const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C,   \
                              int ldc)                                                                    \
   {                                                                                                       \
      return N64(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                                 \
   }

#define GEMM_TYPED(S, kd, sc, T)                                                                        \
   GEMM_PLAIN(cublas##S##gemm_v2_64, cublas##S##gemm_v2, kd, sc, T)                                  \
   GEMM_BATCHES(S, kd, sc, T)

/* gemmStridedBatched and gemmBatched of kind S */
#define GEMM_BATCHES(S, kd, sc, T)                                                                      \
   CB_EXPORT cublasStatus_t cublas##S##gemmStridedBatched_64(                                       \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const T *alpha, \
      const T *A, int64_t lda, long long sA, const T *B, int64_t ldb, long long sB, const T *beta, T *C,   \
      int64_t ldc, long long sC, int64_t batch);                                                     \
   CB_EXPORT cublasStatus_t cublas##S##gemmStridedBatched_64(                                       \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const T *alpha, \
      const T *A, int64_t lda, long long sA, const T *B, int64_t ldb, long long sB, const T *beta, T *C,   \
      int64_t ldc, long long sC, int64_t batch)                                                      \
   {                                                                                                \
      TRACE_GEMM(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);                           \
      CB_ENTER("strideA=%lld strideB=%lld strideC=%lld batch=%lld", sA, sB, sC, (long long)batch);    \
      gemm_call c = { kd, sc, ta, tb, m, n, k, alpha, beta, A, B, C, NULL, NULL, NULL, lda, ldb, ldc, sA, sB, sC, batch }; \
      return gemm(h, &c);                                                                           \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gemmStridedBatched(                                          \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *alpha, const T *A, \
      int lda, long long sA, const T *B, int ldb, long long sB, const T *beta, T *C, int ldc, long long sC,  \
      int batch);                                                                                   \
   CB_EXPORT cublasStatus_t cublas##S##gemmStridedBatched(                                          \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *alpha, const T *A, \
      int lda, long long sA, const T *B, int ldb, long long sB, const T *beta, T *C, int ldc, long long sC,  \
      int batch)                                                                                    \
   {                                                                                                \
      return cublas##S##gemmStridedBatched_64(h, ta, tb, m, n, k, alpha, A, lda, sA, B, ldb, sB, beta, C, ldc, \
                                             sC, batch);                                            \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gemmBatched_64(                                              \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const T *alpha, \
      const T *const Aarr[], int64_t lda, const T *const Barr[], int64_t ldb, const T *beta, T *const Carr[], \
      int64_t ldc, int64_t batch);                                                                   \
   CB_EXPORT cublasStatus_t cublas##S##gemmBatched_64(                                              \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m, int64_t n, int64_t k, const T *alpha, \
      const T *const Aarr[], int64_t lda, const T *const Barr[], int64_t ldb, const T *beta, T *const Carr[], \
      int64_t ldc, int64_t batch)                                                                    \
   {                                                                                                \
      TRACE_GEMM(h, ta, tb, m, n, k, alpha, Aarr, lda, Barr, ldb, beta, Carr, ldc);                  \
      CB_ENTER("batch=%lld", (long long)batch);                                                       \
      gemm_call c = { kd, sc, ta, tb, m, n, k, alpha, beta, NULL, NULL, NULL, (const void *const *)Aarr, \
                      (const void *const *)Barr, (void *const *)Carr, lda, ldb, ldc, 0, 0, 0, batch }; \
      if (m > 0 && n > 0 && batch > 0)                                                              \
         CB_CHECK(Aarr && Barr && Carr, CUBLAS_STATUS_INVALID_VALUE);                               \
      return gemm(h, &c);                                                                           \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, \
                                                   int m, int n, int k, const T *alpha, const T *const Aarr[], \
                                                   int lda, const T *const Barr[], int ldb, const T *beta,    \
                                                   T *const Carr[], int ldc, int batch);                \
   CB_EXPORT cublasStatus_t cublas##S##gemmBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, \
                                                   int m, int n, int k, const T *alpha, const T *const Aarr[], \
                                                   int lda, const T *const Barr[], int ldb, const T *beta,    \
                                                   T *const Carr[], int ldc, int batch)                 \
   {                                                                                                \
      return cublas##S##gemmBatched_64(h, ta, tb, m, n, k, alpha, Aarr, lda, Barr, ldb, beta, Carr, ldc, batch); \
   }
GEMM_TYPED(S, "sss", 's', float)
GEMM_TYPED(D, "ddd", 'd', double)
GEMM_TYPED(C, "c", 'c', cuComplex)
GEMM_TYPED(Z, "z", 'z', cuDoubleComplex)
/* Hgemm: half data, scalars and computation (GemmEx's CUDA_R_16F with
 * CUBLAS_COMPUTE_16F; the kernels accumulate in float); a half is its
 * 16 bits here (cb_scalar_of converts it), and cuBLAS names it without _v2 */
GEMM_PLAIN(cublasHgemm_64, cublasHgemm, "hhh", 'h', uint16_t)
GEMM_BATCHES(H, "hhh", 'h', uint16_t)

/* The kernel family for gemmEx's types, or NULL: not supported. */
static const char *ex_kind(cudaDataType at, cudaDataType bt, cudaDataType ct, cublasComputeType_t comp, char *scalar)
{
   if (at != bt)
      return NULL;
   bool c32 = comp == CUBLAS_COMPUTE_32F || comp == CUBLAS_COMPUTE_32F_PEDANTIC ||
              comp == CUBLAS_COMPUTE_32F_FAST_16F || comp == CUBLAS_COMPUTE_32F_FAST_16BF ||
              comp == CUBLAS_COMPUTE_32F_FAST_TF32;
   bool c64 = comp == CUBLAS_COMPUTE_64F || comp == CUBLAS_COMPUTE_64F_PEDANTIC;
   bool c16 = comp == CUBLAS_COMPUTE_16F || comp == CUBLAS_COMPUTE_16F_PEDANTIC;
   *scalar = 's';
   if (at == CUDA_R_32F && ct == CUDA_R_32F && c32)
      return "sss";
   if (at == CUDA_R_16F && ct == CUDA_R_32F && c32)
      return "hss";
   if (at == CUDA_R_16F && ct == CUDA_R_16F && c32)
      return "hhs";
   if (at == CUDA_R_16BF && ct == CUDA_R_16BF && c32)
      return "bbs";
   if (at == CUDA_R_16BF && ct == CUDA_R_32F && c32)
      return "bss";
   if (at == CUDA_R_16F && ct == CUDA_R_16F && c16) {
      *scalar = 'h';
      return "hhh";
   }
   if (at == CUDA_R_64F && ct == CUDA_R_64F && c64) {
      *scalar = 'd';
      return "ddd";
   }
   if (at == CUDA_C_32F && ct == CUDA_C_32F && c32) {
      *scalar = 'c';
      return "c";
   }
   if (at == CUDA_C_64F && ct == CUDA_C_64F && c64) {
      *scalar = 'z';
      return "z";
   }
   if (at == CUDA_R_8I && ct == CUDA_R_32F && c32)
      return "qss";
   if (at == CUDA_R_8I && ct == CUDA_R_32I && (comp == CUBLAS_COMPUTE_32I || comp == CUBLAS_COMPUTE_32I_PEDANTIC)) {
      *scalar = 'i';
      return "qii";
   }
   if (at == CUDA_C_8I && ct == CUDA_C_32F && c32) {
      *scalar = 'c';
      return "cq";
   }
   return NULL;
}

/* NVIDIA's int32-output int8 GEMM (its integer kernels) answers
 * NOT_SUPPORTED unless A, B and C are 4-byte aligned and lda, ldb and the
 * strides of A and B are multiples of 4 (measured on an H200, cuBLAS 13.1);
 * metalcuda refuses the same.  What NVIDIA also refuses by its kernels'
 * coverage of a shape (36 x 36 x 36 is refused, 36 x 8 x 8 is not) is
 * computed here. */
static bool int8_aligned(const gemm_call *c)
{
   uintptr_t p = (uintptr_t)c->A | (uintptr_t)c->B | (uintptr_t)c->C;
   return !(p & 3) && !(c->lda & 3) && !(c->ldb & 3) && !(c->sA & 3) && !(c->sB & 3);
}

static cublasStatus_t gemm_ex(cublasHandle_t h, gemm_call *c, cudaDataType at, cudaDataType bt, cudaDataType ct,
                              cublasComputeType_t comp)
{
   CB_HANDLE(h);
   char sc;
   const char *kind = ex_kind(at, bt, ct, comp, &sc);
   if (!kind) {
      LOG_ONCE(LOG_LEVEL_WARN, "not supported: gemmEx with A %d, B %d, C %d, compute type %d", (int)at, (int)bt,
               (int)ct, (int)comp);
      return CUBLAS_STATUS_NOT_SUPPORTED;
   }
   if (!strcmp(kind, "qii") && !int8_aligned(c)) {
      LOG_WARN("not supported: an int8 gemmEx with int32 C needs A, B and C 4-byte aligned and lda, ldb and the "
               "strides of A and B multiples of 4 (as NVIDIA's): lda %lld, ldb %lld", (long long)c->lda,
               (long long)c->ldb);
      return CUBLAS_STATUS_NOT_SUPPORTED;
   }
   c->kind = kind;
   c->scalar = sc;
   return gemm(h, c);
}

CB_EXPORT cublasStatus_t cublasGemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                         int64_t n, int64_t k, const void *alpha, const void *A, cudaDataType at,
                                         int64_t lda, const void *B, cudaDataType bt, int64_t ldb, const void *beta,
                                         void *C, cudaDataType ct, int64_t ldc, cublasComputeType_t comp,
                                         cublasGemmAlgo_t algo);
CB_EXPORT cublasStatus_t cublasGemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                         int64_t n, int64_t k, const void *alpha, const void *A, cudaDataType at,
                                         int64_t lda, const void *B, cudaDataType bt, int64_t ldb, const void *beta,
                                         void *C, cudaDataType ct, int64_t ldc, cublasComputeType_t comp,
                                         cublasGemmAlgo_t algo)
{
   TRACE_GEMM(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
   CB_ENTER("Atype=%d Btype=%d Ctype=%d compute=%d algo=%d", (int)at, (int)bt, (int)ct, (int)comp, (int)algo);
   gemm_call c = { NULL, 0, ta, tb, m, n, k, alpha, beta, A, B, C, NULL, NULL, NULL, lda, ldb, ldc, 0, 0, 0, 1 };
   return gemm_ex(h, &c, at, bt, ct, comp);
}

CB_EXPORT cublasStatus_t cublasGemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                      int k, const void *alpha, const void *A, cudaDataType at, int lda, const void *B,
                                      cudaDataType bt, int ldb, const void *beta, void *C, cudaDataType ct, int ldc,
                                      cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
   return cublasGemmEx_64(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc, comp, algo);
}

CB_EXPORT cublasStatus_t cublasGemmStridedBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                       int64_t m, int64_t n, int64_t k, const void *alpha,
                                                       const void *A, cudaDataType at, int64_t lda, long long sA,
                                                       const void *B, cudaDataType bt, int64_t ldb, long long sB,
                                                       const void *beta, void *C, cudaDataType ct, int64_t ldc,
                                                       long long sC, int64_t batch, cublasComputeType_t comp,
                                                       cublasGemmAlgo_t algo);
CB_EXPORT cublasStatus_t cublasGemmStridedBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                       int64_t m, int64_t n, int64_t k, const void *alpha,
                                                       const void *A, cudaDataType at, int64_t lda, long long sA,
                                                       const void *B, cudaDataType bt, int64_t ldb, long long sB,
                                                       const void *beta, void *C, cudaDataType ct, int64_t ldc,
                                                       long long sC, int64_t batch, cublasComputeType_t comp,
                                                       cublasGemmAlgo_t algo)
{
   TRACE_GEMM(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
   CB_ENTER("Atype=%d Btype=%d Ctype=%d strides=%lld,%lld,%lld batch=%lld compute=%d algo=%d", (int)at, (int)bt,
            (int)ct, sA, sB, sC, (long long)batch, (int)comp, (int)algo);
   gemm_call c = { NULL, 0, ta, tb, m, n, k, alpha, beta, A, B, C, NULL, NULL, NULL, lda, ldb, ldc, sA, sB, sC, batch };
   return gemm_ex(h, &c, at, bt, ct, comp);
}

CB_EXPORT cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                    int m, int n, int k, const void *alpha, const void *A,
                                                    cudaDataType at, int lda, long long sA, const void *B,
                                                    cudaDataType bt, int ldb, long long sB, const void *beta, void *C,
                                                    cudaDataType ct, int ldc, long long sC, int batch,
                                                    cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
   return cublasGemmStridedBatchedEx_64(h, ta, tb, m, n, k, alpha, A, at, lda, sA, B, bt, ldb, sB, beta, C, ct, ldc,
                                        sC, batch, comp, algo);
}

CB_EXPORT cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                int64_t m, int64_t n, int64_t k, const void *alpha,
                                                const void *const Aarr[], cudaDataType at, int64_t lda,
                                                const void *const Barr[], cudaDataType bt, int64_t ldb,
                                                const void *beta, void *const Carr[], cudaDataType ct, int64_t ldc,
                                                int64_t batch, cublasComputeType_t comp, cublasGemmAlgo_t algo);
CB_EXPORT cublasStatus_t cublasGemmBatchedEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                int64_t m, int64_t n, int64_t k, const void *alpha,
                                                const void *const Aarr[], cudaDataType at, int64_t lda,
                                                const void *const Barr[], cudaDataType bt, int64_t ldb,
                                                const void *beta, void *const Carr[], cudaDataType ct, int64_t ldc,
                                                int64_t batch, cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
   TRACE_GEMM(h, ta, tb, m, n, k, alpha, Aarr, lda, Barr, ldb, beta, Carr, ldc);
   CB_ENTER("Atype=%d Btype=%d Ctype=%d batch=%lld compute=%d algo=%d", (int)at, (int)bt, (int)ct,
            (long long)batch, (int)comp, (int)algo);
   if (m > 0 && n > 0 && batch > 0)
      CB_CHECK(Aarr && Barr && Carr, CUBLAS_STATUS_INVALID_VALUE);
   gemm_call c = { NULL, 0, ta, tb, m, n, k, alpha, beta, NULL, NULL, NULL, Aarr, Barr, Carr, lda, ldb, ldc, 0, 0, 0,
                   batch };
   return gemm_ex(h, &c, at, bt, ct, comp);
}

CB_EXPORT cublasStatus_t cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                             int n, int k, const void *alpha, const void *const Aarr[],
                                             cudaDataType at, int lda, const void *const Barr[], cudaDataType bt,
                                             int ldb, const void *beta, void *const Carr[], cudaDataType ct, int ldc,
                                             int batch, cublasComputeType_t comp, cublasGemmAlgo_t algo)
{
   return cublasGemmBatchedEx_64(h, ta, tb, m, n, k, alpha, Aarr, at, lda, Barr, bt, ldb, beta, Carr, ct, ldc, batch,
                                 comp, algo);
}

/* SgemmEx: float scalars and compute, A/B/C float or half */
CB_EXPORT cublasStatus_t cublasSgemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                          int64_t n, int64_t k, const float *alpha, const void *A, cudaDataType at,
                                          int64_t lda, const void *B, cudaDataType bt, int64_t ldb, const float *beta,
                                          void *C, cudaDataType ct, int64_t ldc);
CB_EXPORT cublasStatus_t cublasSgemmEx_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                          int64_t n, int64_t k, const float *alpha, const void *A, cudaDataType at,
                                          int64_t lda, const void *B, cudaDataType bt, int64_t ldb, const float *beta,
                                          void *C, cudaDataType ct, int64_t ldc)
{
   TRACE_GEMM(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
   CB_ENTER("Atype=%d Btype=%d Ctype=%d", (int)at, (int)bt, (int)ct);
   CB_HANDLE(h);
   if (!((at == CUDA_R_32F || at == CUDA_R_16F) && (ct == CUDA_R_32F || ct == CUDA_R_16F)))
      CB_NOT_SUPPORTED("cublasSgemmEx with these data types");
   gemm_call c = { NULL, 0, ta, tb, m, n, k, alpha, beta, A, B, C, NULL, NULL, NULL, lda, ldb, ldc, 0, 0, 0, 1 };
   return gemm_ex(h, &c, at, bt, ct, CUBLAS_COMPUTE_32F);
}

CB_EXPORT cublasStatus_t cublasSgemmEx(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                       int k, const float *alpha, const void *A, cudaDataType at, int lda,
                                       const void *B, cudaDataType bt, int ldb, const float *beta, void *C,
                                       cudaDataType ct, int ldc)
{
   return cublasSgemmEx_64(h, ta, tb, m, n, k, alpha, A, at, lda, B, bt, ldb, beta, C, ct, ldc);
}

/* ---- gemm3m and CgemmEx ----
 * The 3m forms name an algorithm (three real products instead of four);
 * the result is the product's within the same bound, so they are the
 * complex GEMM.  CgemmEx and Cgemm3mEx are GemmEx with CUBLAS_COMPUTE_32F:
 * CUDA_C_32F or CUDA_C_8I A and B, CUDA_C_32F C. */
#define GEMM3M(S, T)                                                                                   \
   CB_EXPORT cublasStatus_t cublas##S##gemm3m_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,   \
                                                 int64_t m, int64_t n, int64_t k, const T *alpha, const T *A, \
                                                 int64_t lda, const T *B, int64_t ldb, const T *beta, T *C,     \
                                                 int64_t ldc)                                             \
   {                                                                                                \
      CB_ENTER("handle=%p (3m)", (void *)h);                                                        \
      return cublas##S##gemm_v2_64(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);          \
   }                                                                                                \
   CB_EXPORT cublasStatus_t cublas##S##gemm3m(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, \
                                              int n, int k, const T *alpha, const T *A, int lda, const T *B,  \
                                              int ldb, const T *beta, T *C, int ldc)                       \
   {                                                                                                \
      return cublas##S##gemm3m_64(h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);           \
   }
GEMM3M(C, cuComplex)
GEMM3M(Z, cuDoubleComplex)

CB_EXPORT cublasStatus_t cublasCgemm3mBatched_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,
                                                 int64_t n, int64_t k, const cuComplex *alpha,
                                                 const cuComplex *const Aarray[], int64_t lda,
                                                 const cuComplex *const Barray[], int64_t ldb, const cuComplex *beta,
                                                 cuComplex *const Carray[], int64_t ldc, int64_t batchCount)
{
   CB_ENTER("handle=%p (3m) batchCount=%lld", (void *)h, (long long)batchCount);
   return cublasCgemmBatched_64(h, ta, tb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount);
}
CB_EXPORT cublasStatus_t cublasCgemm3mBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                              int k, const cuComplex *alpha, const cuComplex *const Aarray[], int lda,
                                              const cuComplex *const Barray[], int ldb, const cuComplex *beta,
                                              cuComplex *const Carray[], int ldc, int batchCount)
{
   return cublasCgemm3mBatched_64(h, ta, tb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount);
}

CB_EXPORT cublasStatus_t cublasCgemm3mStridedBatched_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,
                                                        int64_t m, int64_t n, int64_t k, const cuComplex *alpha,
                                                        const cuComplex *A, int64_t lda, long long strideA,
                                                        const cuComplex *B, int64_t ldb, long long strideB,
                                                        const cuComplex *beta, cuComplex *C, int64_t ldc,
                                                        long long strideC, int64_t batchCount)
{
   CB_ENTER("handle=%p (3m) batchCount=%lld", (void *)h, (long long)batchCount);
   return cublasCgemmStridedBatched_64(h, ta, tb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
                                       strideC, batchCount);
}
CB_EXPORT cublasStatus_t cublasCgemm3mStridedBatched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m,
                                                     int n, int k, const cuComplex *alpha, const cuComplex *A, int lda,
                                                     long long strideA, const cuComplex *B, int ldb, long long strideB,
                                                     const cuComplex *beta, cuComplex *C, int ldc, long long strideC,
                                                     int batchCount)
{
   return cublasCgemm3mStridedBatched_64(h, ta, tb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
                                         strideC, batchCount);
}

#define CGEMM_EX(NAME)                                                                               \
   CB_EXPORT cublasStatus_t NAME##_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int64_t m,  \
                                      int64_t n, int64_t k, const cuComplex *alpha, const void *A, cudaDataType Atype, \
                                      int64_t lda, const void *B, cudaDataType Btype, int64_t ldb,          \
                                      const cuComplex *beta, void *C, cudaDataType Ctype, int64_t ldc)      \
   {                                                                                                \
      CB_ENTER("handle=%p Atype=%d Btype=%d Ctype=%d", (void *)h, (int)Atype, (int)Btype, (int)Ctype); \
      CB_HANDLE(h);                                                                                 \
      if ((Atype != CUDA_C_32F && Atype != CUDA_C_8I) || Ctype != CUDA_C_32F) {                     \
         LOG_WARN("not supported: " #NAME " with A %d, B %d, C %d (CUDA_C_32F or CUDA_C_8I A and B, "  \
                  "CUDA_C_32F C)", (int)Atype, (int)Btype, (int)Ctype);                              \
         return CUBLAS_STATUS_NOT_SUPPORTED;                                                        \
      }                                                                                             \
      return cublasGemmEx_64(h, ta, tb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc, \
                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);                             \
   }                                                                                                \
   CB_EXPORT cublasStatus_t NAME(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, \
                                 const cuComplex *alpha, const void *A, cudaDataType Atype, int lda, const void *B, \
                                 cudaDataType Btype, int ldb, const cuComplex *beta, void *C, cudaDataType Ctype,  \
                                 int ldc)                                                            \
   {                                                                                                \
      return NAME##_64(h, ta, tb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc);   \
   }
CGEMM_EX(cublasCgemmEx)
CGEMM_EX(cublasCgemm3mEx)
