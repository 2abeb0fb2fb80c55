/*
 * cublas_gemm.cu — cuBLAS GEMM through the library a program links:
 * s/d/c/z gemm with every pair of transposes (N, T, C), sizes from 1 to
 * odd sizes past the library's tiles, leading dimensions larger than the
 * matrix, alpha/beta from host and from device memory, beta = 0 over a
 * NaN-filled C (C must not be read), gemmStridedBatched, gemmBatched,
 * GemmEx / GemmStridedBatchedEx (f16 in, f16 or f32 out; f32; f64),
 * SgemmEx, Hgemm/HgemmStridedBatched/HgemmBatched; and the statuses of bad
 * arguments.
 *
 * Expected values: OpenBLAS on the host (oracle.h; a double loop where it
 * is absent), within the standard error bound.  Expected statuses: what
 * NVIDIA's libcublas returned on an H200 (tests/libs/README.md).
 * Built with nvcc against NVIDIA's headers and libcublas; runs unchanged on
 * metalcuda's libcublas (tests/libs/run.sh) and natively.
 */
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include "../cuda/check.h"
#include "oracle.h"

#include <vector>

static struct oracle O;
static cublasHandle_t H;

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

template <class T> struct ty;
template <> struct ty<float> { enum { nc = 1 }; typedef float R; static double u() { return 0x1p-24; } };
template <> struct ty<double> { enum { nc = 1 }; typedef double R; static double u() { return 0x1p-53; } };
template <> struct ty<cuComplex> { enum { nc = 2 }; typedef float R; static double u() { return 0x1p-24; } };
template <> struct ty<cuDoubleComplex> { enum { nc = 2 }; typedef double R; static double u() { return 0x1p-53; } };

static cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const float *al,
                           const float *A, int lda, const float *B, int ldb, const float *be, float *C, int ldc)
{
   return cublasSgemm(H, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const double *al,
                           const double *A, int lda, const double *B, int ldb, const double *be, double *C, int ldc)
{
   return cublasDgemm(H, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const cuComplex *al,
                           const cuComplex *A, int lda, const cuComplex *B, int ldb, const cuComplex *be,
                           cuComplex *C, int ldc)
{
   return cublasCgemm(H, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
static cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                           const cuDoubleComplex *al, const cuDoubleComplex *A, int lda, const cuDoubleComplex *B,
                           int ldb, const cuDoubleComplex *be, cuDoubleComplex *C, int ldc)
{
   return cublasZgemm(H, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
#define STRIDED(S, T)                                                                              \
   static cublasStatus_t gemm_sb(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *al, \
                                 const T *A, int lda, long long sA, const T *B, int ldb, long long sB,       \
                                 const T *be, T *C, int ldc, long long sC, int batch)                 \
   {                                                                                               \
      return cublas##S##gemmStridedBatched(H, ta, tb, m, n, k, al, A, lda, sA, B, ldb, sB, be, C, ldc, sC, batch); \
   }                                                                                               \
   static cublasStatus_t gemm_b(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T *al, \
                                const T *const *A, int lda, const T *const *B, int ldb, const T *be, T *const *C, \
                                int ldc, int batch)                                                \
   {                                                                                               \
      return cublas##S##gemmBatched(H, ta, tb, m, n, k, al, A, lda, B, ldb, be, C, ldc, batch);       \
   }
STRIDED(S, float)
STRIDED(D, double)
STRIDED(C, cuComplex)
STRIDED(Z, cuDoubleComplex)

/* element (i, j) of op(X) for X stored column-major with leading dim ld,
 * as (re, im) in double */
template <class T> static void opel(const T *X, int ld, int op, int i, int j, double *re, double *im)
{
   const typename ty<T>::R *p = (const typename ty<T>::R *)X;
   long idx = op == 0 ? i + (long)j * ld : j + (long)i * ld;
   *re = p[idx * ty<T>::nc];
   *im = ty<T>::nc == 2 ? p[idx * 2 + 1] : 0;
   if (op == 2)
      *im = -*im;
}

/* Reference of one batch member into R (same layout as C), in place. */
template <class T> static void reference(int ta, int tb, int m, int n, int k, const double *al, const T *A, int lda,
                                        const T *B, int ldb, const double *be, T *R, int ldc)
{
   typedef typename ty<T>::R S;
   if (oracle_have(&O)) {
      int a = cblas_op(ta), b = cblas_op(tb);
      if (ty<T>::nc == 1) {
         if (sizeof(S) == 4)
            O.sgemm(CB_COLMAJOR, a, b, m, n, k, (float)al[0], (const float *)A, lda, (const float *)B, ldb,
                    (float)be[0], (float *)R, ldc);
         else
            O.dgemm(CB_COLMAJOR, a, b, m, n, k, al[0], (const double *)A, lda, (const double *)B, ldb, be[0],
                    (double *)R, ldc);
      } else {
         S alv[2] = { (S)al[0], (S)al[1] }, bev[2] = { (S)be[0], (S)be[1] };
         (sizeof(S) == 4 ? O.cgemm : O.zgemm)(CB_COLMAJOR, a, b, m, n, k, alv, A, lda, B, ldb, bev, R, ldc);
      }
      return;
   }
   S *r = (S *)R;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
         double sr = 0, si = 0;
         for (int p = 0; p < k; p++) {
            double ar, ai, br, bi;
            opel(A, lda, ta, i, p, &ar, &ai);
            opel(B, ldb, tb, p, j, &br, &bi);
            sr += ar * br - ai * bi;
            si += ar * bi + ai * br;
         }
         long c = (i + (long)j * ldc) * ty<T>::nc;
         double cr = r[c], ci = ty<T>::nc == 2 ? r[c + 1] : 0;
         if (be[0] == 0 && be[1] == 0)
            cr = ci = 0;   /* beta = 0: C is not read */
         r[c] = (S)(al[0] * sr - al[1] * si + be[0] * cr - be[1] * ci);
         if (ty<T>::nc == 2)
            r[c + 1] = (S)(al[0] * si + al[1] * sr + be[0] * ci + be[1] * cr);
      }
}

/* |got - ref| within the bound, for every element of C (outside the m x n
 * part, rows m..ldc-1 must be untouched). */
template <class T> static bool compare(const char *what, int ta, int tb, int m, int n, int k, const double *al,
                                       const T *A, int lda, const T *B, int ldb, const double *be, const T *C0,
                                       const T *got, const T *ref, int ldc)
{
   typedef typename ty<T>::R S;
   const S *g = (const S *)got, *r = (const S *)ref, *c0 = (const S *)C0;
   const int nc = ty<T>::nc;
   double fac = 2.0 * (k + 2) * ty<T>::u() * (nc == 2 ? 2 : 1);
   double aal = fabs(al[0]) + fabs(al[1]), abe = fabs(be[0]) + fabs(be[1]);
   long bad = 0;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         long c = (i + (long)j * ldc) * nc;
         for (int q = 0; q < nc; q++) {
            S gv = g[c + q];
            if (i >= m) {   /* padding rows untouched: same bits as before */
               if (memcmp(&gv, &c0[c + q], sizeof(S)))
                  bad++;
               continue;
            }
            double mag = 0;
            for (int p = 0; p < k; p++) {
               double ar, ai, br, bi;
               opel(A, lda, ta, i, p, &ar, &ai);
               opel(B, ldb, tb, p, j, &br, &bi);
               mag += (fabs(ar) + fabs(ai)) * (fabs(br) + fabs(bi));
            }
            double cmag = abe ? fabs((double)c0[c]) + (nc == 2 ? fabs((double)c0[c + 1]) : 0) : 0;
            double bound = fac * (aal * mag + abe * cmag) + 1e-300;
            double d = fabs((double)gv - (double)r[c + q]);
            if (!(d <= bound)) {
               if (bad++ < 3)
                  printf("  %s: C(%d,%d)[%d] = %.17g, reference %.17g, |diff| %.3g > bound %.3g\n", what, i, j, q,
                         (double)gv, (double)r[c + q], d, bound);
            }
         }
      }
   return CHECK(bad == 0);
}

template <class T> static void fill(std::vector<T> &v)
{
   typename ty<T>::R *p = (typename ty<T>::R *)v.data();
   for (size_t i = 0; i < v.size() * ty<T>::nc; i++)
      p[i] = (typename ty<T>::R)rnd();
}

template <class T> static T *dcopy(const std::vector<T> &v)
{
   T *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T) + 16));
   CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
   return d;
}

/* One case: mode 0 gemm, 1 strided batched, 2 pointer arrays; devscal: alpha
 * and beta in device memory; beta0: beta = 0 over a NaN C. */
template <class T> static void one(const char *tag, int ta, int tb, int m, int n, int k, int pad, int mode,
                                   bool devscal, bool beta0)
{
   const int nc = ty<T>::nc;
   int batch = mode ? 3 : 1;
   int arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
   int lda = (arows ? arows : 1) + pad, ldb = (brows ? brows : 1) + pad, ldc = m + pad;
   long sa = (long)lda * acols + 5, sb = (long)ldb * bcols + 3, sc = (long)ldc * n + 7;
   std::vector<T> A(sa * batch), B(sb * batch), C(sc * batch), R;
   fill(A);
   fill(B);
   fill(C);
   if (beta0) {
      typename ty<T>::R *p = (typename ty<T>::R *)C.data();
      for (size_t i = 0; i < C.size() * nc; i++)
         p[i] = (typename ty<T>::R)NAN;
   }
   double al[2] = { 0.75, nc == 2 ? -0.5 : 0 }, be[2] = { beta0 ? 0 : -1.25, nc == 2 && !beta0 ? 0.25 : 0 };
   T alT, beT;
   typename ty<T>::R *ap = (typename ty<T>::R *)&alT, *bp = (typename ty<T>::R *)&beT;
   for (int q = 0; q < nc; q++) {
      ap[q] = (typename ty<T>::R)al[q];
      bp[q] = (typename ty<T>::R)be[q];
   }
   T *dA = dcopy(A), *dB = dcopy(B), *dC = dcopy(C);
   T *dal = NULL, *dbe = NULL;
   if (devscal) {
      CHECK_CUDA(cudaMalloc(&dal, sizeof(T)));
      CHECK_CUDA(cudaMalloc(&dbe, sizeof(T)));
      CHECK_CUDA(cudaMemcpy(dal, &alT, sizeof(T), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(dbe, &beT, sizeof(T), cudaMemcpyHostToDevice));
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   }
   const T *pal = devscal ? dal : &alT, *pbe = devscal ? dbe : &beT;
   cublasOperation_t oa = (cublasOperation_t)ta, ob = (cublasOperation_t)tb;
   cublasStatus_t st;
   if (mode == 0) {
      st = gemm(oa, ob, m, n, k, pal, dA, lda, dB, ldb, pbe, dC, ldc);
   } else if (mode == 1) {
      st = gemm_sb(oa, ob, m, n, k, pal, dA, lda, sa, dB, ldb, sb, pbe, dC, ldc, sc, batch);
   } else {   /* members in reverse order, to prove the arrays are followed */
      const T *ha[3], *hb[3];
      T *hc[3];
      for (int z = 0; z < 3; z++) {
         ha[z] = dA + (2 - z) * sa;
         hb[z] = dB + (2 - z) * sb;
         hc[z] = dC + (2 - z) * sc;
      }
      void **darr = NULL;
      CHECK_CUDA(cudaMalloc(&darr, 9 * sizeof(void *)));
      CHECK_CUDA(cudaMemcpy(darr, ha, 3 * sizeof(void *), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(darr + 3, hb, 3 * sizeof(void *), cudaMemcpyHostToDevice));
      CHECK_CUDA(cudaMemcpy(darr + 6, hc, 3 * sizeof(void *), cudaMemcpyHostToDevice));
      st = gemm_b(oa, ob, m, n, k, pal, (const T *const *)darr, lda, (const T *const *)(darr + 3), ldb, pbe,
                  (T *const *)(darr + 6), ldc, batch);
      CHECK_CUDA(cudaDeviceSynchronize());
      cudaFree(darr);
   }
   CHECK_ST(st, CUBLAS_STATUS_SUCCESS);
   std::vector<T> got(C.size());
   CHECK_CUDA(cudaMemcpy(got.data(), dC, C.size() * sizeof(T), cudaMemcpyDeviceToHost));
   R = C;
   for (int z = 0; z < batch; z++)
      reference(ta, tb, m, n, k, al, A.data() + z * sa, lda, B.data() + z * sb, ldb, be, R.data() + z * sc, ldc);
   char what[160];
   for (int z = 0; z < batch; z++) {
      snprintf(what, sizeof(what), "%s op%d%d m=%d n=%d k=%d pad=%d mode=%d dev=%d beta0=%d batch %d", tag, ta, tb,
               m, n, k, pad, mode, devscal, beta0, z);
      compare(what, ta, tb, m, n, k, al, A.data() + z * sa, lda, B.data() + z * sb, ldb, be, C.data() + z * sc,
              got.data() + z * sc, R.data() + z * sc, ldc);
   }
   if (devscal) {
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
      cudaFree(dal);
      cudaFree(dbe);
   }
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
}

static const int sizes[][3] = { { 1, 1, 1 }, { 7, 5, 3 }, { 33, 17, 65 }, { 130, 129, 31 }, { 16, 8, 0 },
                                { 97, 70, 66 } };   /* the last: packed (level3.c) */


template <class T> static void sweep(const char *tag, int nops, bool big)
{
   for (int ta = 0; ta < nops; ta++)
      for (int tb = 0; tb < nops; tb++)
         for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            if (!big && (s == 3 || s == 5) && (ta || tb) && !(s == 5 && ta == tb))
               continue;   /* the large size once per type */
            one<T>(tag, ta, tb, sizes[s][0], sizes[s][1], sizes[s][2], s & 1 ? 3 : 0, 0, false, false);
         }
   one<T>(tag, 0, 1, 19, 23, 9, 2, 0, true, false);   /* alpha, beta in device memory */
   one<T>(tag, 1, 0, 21, 13, 6, 1, 0, false, true);   /* beta = 0 over NaN */
   one<T>(tag, 1, 1, 9, 11, 7, 2, 1, false, false);   /* strided batched */
   one<T>(tag, 0, 0, 10, 12, 5, 1, 2, true, false);   /* pointer arrays */
}

/* GemmEx with half data: inputs are multiples of 1/8 in [-1, 1] (exact in
 * half), so the float reference of the same products is exact input. */
/* API: 0 GemmEx; with half C and CUBLAS_COMPUTE_16F also 1 Hgemm, 2
 * HgemmStridedBatched, 3 HgemmBatched (a batch of one) */
static void gemm_ex_half(bool c_half, cublasComputeType_t comp, int api = 0)
{
   int m = 70, n = 65, k = 64, lda = m + 1, ldb = k, ldc = m + 2;   /* packed (level3.c) */
   std::vector<float> Af(lda * k), Bf(ldb * n), Cf(ldc * n), Rf;
   std::vector<__half> Ah(Af.size()), Bh(Bf.size()), Ch(Cf.size());
   for (size_t i = 0; i < Af.size(); i++) Af[i] = (float)(int)(rnd() * 8) / 8, Ah[i] = __float2half(Af[i]);
   for (size_t i = 0; i < Bf.size(); i++) Bf[i] = (float)(int)(rnd() * 8) / 8, Bh[i] = __float2half(Bf[i]);
   for (size_t i = 0; i < Cf.size(); i++) Cf[i] = (float)(int)(rnd() * 8) / 8, Ch[i] = __float2half(Cf[i]);
   __half *dA, *dB;
   void *dC;
   CHECK_CUDA(cudaMalloc(&dA, Ah.size() * 2));
   CHECK_CUDA(cudaMalloc(&dB, Bh.size() * 2));
   CHECK_CUDA(cudaMalloc(&dC, Cf.size() * 4));
   CHECK_CUDA(cudaMemcpy(dA, Ah.data(), Ah.size() * 2, cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, Bh.data(), Bh.size() * 2, cudaMemcpyHostToDevice));
   if (c_half)
      CHECK_CUDA(cudaMemcpy(dC, Ch.data(), Ch.size() * 2, cudaMemcpyHostToDevice));
   else
      CHECK_CUDA(cudaMemcpy(dC, Cf.data(), Cf.size() * 4, cudaMemcpyHostToDevice));
   float al = 0.5f, be = -1.0f;
   __half alh = __float2half(al), beh = __float2half(be);
   bool c16 = comp == CUBLAS_COMPUTE_16F;
   __half *dCh = (__half *)dC, **arr = NULL;
   if (api == 3) {
      const __half *p[3] = { dA, dB, dCh };
      CHECK_CUDA(cudaMalloc(&arr, sizeof(p)));
      CHECK_CUDA(cudaMemcpy(arr, p, sizeof(p), cudaMemcpyHostToDevice));
   }
   if (api == 0)
      CHECK_ST(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, c16 ? (void *)&alh : (void *)&al, dA, CUDA_R_16F,
                            lda, dB, CUDA_R_16F, ldb, c16 ? (void *)&beh : (void *)&be, dC,
                            c_half ? CUDA_R_16F : CUDA_R_32F, ldc, comp, CUBLAS_GEMM_DEFAULT),
               CUBLAS_STATUS_SUCCESS);
   else if (api == 1)
      CHECK_ST(cublasHgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alh, dA, lda, dB, ldb, &beh, dCh, ldc),
               CUBLAS_STATUS_SUCCESS);
   else if (api == 2)
      CHECK_ST(cublasHgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alh, dA, lda, 0, dB, ldb, 0, &beh, dCh,
                                         ldc, 0, 1),
               CUBLAS_STATUS_SUCCESS);
   else
      CHECK_ST(cublasHgemmBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alh, (const __half *const *)arr, lda,
                                  (const __half *const *)arr + 1, ldb, &beh, arr + 2, ldc, 1),
               CUBLAS_STATUS_SUCCESS);
   if (arr)
      CHECK_CUDA(cudaFree(arr));
   std::vector<float> got(Cf.size());
   if (c_half) {
      CHECK_CUDA(cudaMemcpy(Ch.data(), dC, Ch.size() * 2, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < Ch.size(); i++)
         got[i] = __half2float(Ch[i]);
   } else {
      CHECK_CUDA(cudaMemcpy(got.data(), dC, got.size() * 4, cudaMemcpyDeviceToHost));
   }
   /* exact: products of multiples of 1/8, |sum| < 20: representable in float;
    * half output rounds once (2^-11 relative), a half accumulator k times */
   long bad = 0;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
         double s = 0;
         for (int p = 0; p < k; p++)
            s += (double)Af[i + p * lda] * Bf[p + j * ldb];
         double want = al * s + be * Cf[i + j * ldc];
         double tol = c_half ? (fabs(want) + 1) * (c16 ? (k + 2) * 0x1p-11 : 0x1p-11) : 1e-6 * (fabs(want) + 1);
         if (!(fabs(got[i + j * ldc] - want) <= tol) && bad++ < 3)
            printf("  %s half c_half=%d comp=%d: C(%d,%d) = %.9g, want %.9g\n",
                   api == 0 ? "GemmEx" : api == 1 ? "Hgemm" : api == 2 ? "HgemmStridedBatched" : "HgemmBatched",
                   c_half, (int)comp, i, j, got[i + j * ldc], want);
      }
   CHECK(bad == 0);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
}

/* GemmEx and GemmStridedBatchedEx with f32 and f64 against the typed
 * functions' results (the same computation). */
static void gemm_ex_same(void)
{
   int m = 29, n = 31, k = 17;
   std::vector<float> A(m * k), B(k * n), C(m * n);
   fill(A);
   fill(B);
   fill(C);
   std::vector<double> Ad(A.begin(), A.end()), Bd(B.begin(), B.end()), Cd(C.begin(), C.end());
   float *dA = dcopy(A), *dB = dcopy(B), *dC1 = dcopy(C), *dC2 = dcopy(C);
   double *eA = dcopy(Ad), *eB = dcopy(Bd), *eC1 = dcopy(Cd), *eC2 = dcopy(Cd);
   float al = 1.5f, be = 0.5f;
   double ald = 1.5, bed = 0.5;
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &al, dA, k, dB, k, &be, dC1, m), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGemmEx(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &al, dA, CUDA_R_32F, k, dB, CUDA_R_32F, k, &be, dC2,
                         CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasDgemm(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &ald, eA, k, eB, k, &bed, eC1, m), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGemmStridedBatchedEx(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &ald, eA, CUDA_R_64F, k, 0, eB,
                                       CUDA_R_64F, k, 0, &bed, eC2, CUDA_R_64F, m, 0, 1, CUBLAS_COMPUTE_64F,
                                       CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_SUCCESS);
   std::vector<float> g1(m * n), g2(m * n);
   std::vector<double> h1(m * n), h2(m * n);
   CHECK_CUDA(cudaMemcpy(g1.data(), dC1, g1.size() * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(g2.data(), dC2, g2.size() * 4, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h1.data(), eC1, h1.size() * 8, cudaMemcpyDeviceToHost));
   CHECK_CUDA(cudaMemcpy(h2.data(), eC2, h2.size() * 8, cudaMemcpyDeviceToHost));
   std::vector<float> R(C);
   std::vector<double> Rd(Cd);
   double ad[2] = { 1.5, 0 }, bd[2] = { 0.5, 0 };
   reference(1, 0, m, n, k, ad, A.data(), k, B.data(), k, bd, R.data(), m);
   reference(1, 0, m, n, k, ad, Ad.data(), k, Bd.data(), k, bd, Rd.data(), m);
   compare("Sgemm T N", 1, 0, m, n, k, ad, A.data(), k, B.data(), k, bd, C.data(), g1.data(), R.data(), m);
   compare("GemmEx 32F", 1, 0, m, n, k, ad, A.data(), k, B.data(), k, bd, C.data(), g2.data(), R.data(), m);
   compare("Dgemm T N", 1, 0, m, n, k, ad, Ad.data(), k, Bd.data(), k, bd, Cd.data(), h1.data(), Rd.data(), m);
   compare("GemmStridedBatchedEx 64F", 1, 0, m, n, k, ad, Ad.data(), k, Bd.data(), k, bd, Cd.data(), h2.data(),
           Rd.data(), m);
   /* SgemmEx with float data: the same as Sgemm */
   CHECK_CUDA(cudaMemcpy(dC2, C.data(), C.size() * 4, cudaMemcpyHostToDevice));
   CHECK_ST(cublasSgemmEx(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &al, dA, CUDA_R_32F, k, dB, CUDA_R_32F, k, &be, dC2,
                          CUDA_R_32F, m),
            CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(g2.data(), dC2, g2.size() * 4, cudaMemcpyDeviceToHost));
   compare("SgemmEx 32F", 1, 0, m, n, k, ad, A.data(), k, B.data(), k, bd, C.data(), g2.data(), R.data(), m);
   cudaFree(dA); cudaFree(dB); cudaFree(dC1); cudaFree(dC2);
   cudaFree(eA); cudaFree(eB); cudaFree(eC1); cudaFree(eC2);
}

/* The statuses of bad arguments (an H200's answers, README.md). */
static void bad_args(void)
{
   float one = 1, *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, 4096));
   CHECK_ST(cublasSgemm(NULL, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_NOT_INITIALIZED);
   CHECK_ST(cublasSgemm(H, (cublasOperation_t)7, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, (cublasOperation_t)7, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, -1, 2, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, -1, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, 2, &one, d, 2, d, 2, &one, d, 3),
            CUBLAS_STATUS_INVALID_VALUE);   /* lda < m */
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_T, CUBLAS_OP_N, 3, 2, 4, &one, d, 3, d, 4, &one, d, 3),
            CUBLAS_STATUS_INVALID_VALUE);   /* lda < k (A transposed) */
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 3, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);   /* ldb < k */
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_T, 2, 3, 2, &one, d, 2, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);   /* ldb < n (B transposed) */
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, 2, &one, d, 3, d, 2, &one, d, 2),
            CUBLAS_STATUS_INVALID_VALUE);   /* ldc < m */
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, d, 1, d, 2, &one, d, 1),
            CUBLAS_STATUS_SUCCESS);         /* m = 0: nothing to do */
   CHECK_ST(cublasSgemm(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 0, &one, d, 2, d, 1, &one, d, 2),
            CUBLAS_STATUS_SUCCESS);         /* k = 0: C = beta C */
   CHECK_ST(cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, 4, d, 2, 4, &one, d, 2, 4, -1),
            CUBLAS_STATUS_INVALID_VALUE);   /* batchCount < 0 */
   CHECK_ST(cublasSgemmStridedBatched(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, 4, d, 2, 4, &one, d, 2, 4, 0),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, CUDA_R_32F, 2, d, CUDA_R_64F, 2, &one, d,
                         CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_NOT_SUPPORTED);   /* A and B of different types */
   CHECK_ST(cublasGemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, CUDA_R_32F, 2, d, CUDA_R_32F, 2, &one, d,
                         CUDA_R_32F, 2, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT),
            CUBLAS_STATUS_NOT_SUPPORTED);   /* f32 data, f64 compute */
   cudaFree(d);
}

int main(int argc, char **argv)
{
   check_begin("cublas_gemm");
   O = oracle_open();
   bool big = argc > 1 && !strcmp(argv[1], "--full");
   CHECK_ST(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
   sweep<float>("S", 3, big);
   sweep<double>("D", 3, big);
   sweep<cuComplex>("C", 3, big);
   sweep<cuDoubleComplex>("Z", 3, big);
   gemm_ex_half(false, CUBLAS_COMPUTE_32F);
   gemm_ex_half(true, CUBLAS_COMPUTE_32F);
   gemm_ex_half(true, CUBLAS_COMPUTE_16F);
   for (int api = 1; api <= 3; api++)
      gemm_ex_half(true, CUBLAS_COMPUTE_16F, api);
   gemm_ex_same();
   bad_args();
   CHECK_ST(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
