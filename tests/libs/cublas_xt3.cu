/*
 * cublas_xt3.cu — cublasXt beyond GEMM: s/d/c/z syrk, syrkx, syr2k, symm,
 * trmm (cublasXt's out-of-place form, and C = B), trsm, spmm and c/z herk,
 * herkx, her2k, hemm, in every fill, side, transpose and diagonal mode
 * cuBLAS has for each (syrk c/z: N and T; herk family: N and C), sizes 1,
 * 7, 33, 70 (n, k, m as the routine has them), leading dimensions larger
 * than the matrix (padding untouched, bit for bit; so is C's other
 * triangle for the rank-k updates), matrices in host memory, in device
 * memory and mixed; the entries of A outside its triangle and a unit
 * diagonal hold 1e6, so reading them shows.  cublasXtSetCpuRoutine and
 * cublasXtSetCpuRatio: accepted (NVIDIA documents them; their effect is
 * not observable in results).  Bad arguments (an unknown fill, side or
 * diagonal, a leading dimension too small, no device selected) and empty
 * problems: the statuses of the ordinary routines.
 *
 * Expected values: the results by definition in long double on the host,
 * within the standard error bound of the computation (oracle.h's, as in
 * cublas_xt.cu): |got - ref| <= 2 (K + 2) u (|alpha| (|X||Y|)_ij + |beta||C_ij|)
 * with K the length of the sums (2k for syr2k/her2k); trsm by its residual,
 * |op(A) X - alpha B| <= 2 (n + 2) u (|op(A)||X| + |alpha B|) (Higham,
 * Thm 8.5).  The statuses expected come from cuBLAS's documentation only
 * (success for valid arguments; not yet run on an H200): a status check
 * that fails prints the status got.
 */
#include <cublasXt.h>
#include "../cuda/check.h"
#include "xt_check.h"

#include <complex>
#include <vector>

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static cublasXtHandle_t X;

/* the routines, overloaded on the element type */
#define WRAP(S, T)                                                                                              \
   static cublasStatus_t xsyrk(cublasFillMode_t u, cublasOperation_t t, size_t n, size_t k, const T *al,       \
                               const T *A, size_t lda, const T *, size_t, const T *be, T *C, size_t ldc)        \
   {                                                                                                            \
      return cublasXt##S##syrk(X, u, t, n, k, al, A, lda, be, C, ldc);                                          \
   }                                                                                                            \
   static cublasStatus_t xsyrkx(cublasFillMode_t u, cublasOperation_t t, size_t n, size_t k, const T *al,      \
                                const T *A, size_t lda, const T *B, size_t ldb, const T *be, T *C, size_t ldc)  \
   {                                                                                                            \
      return cublasXt##S##syrkx(X, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);                                 \
   }                                                                                                            \
   static cublasStatus_t xsyr2k(cublasFillMode_t u, cublasOperation_t t, size_t n, size_t k, const T *al,      \
                                const T *A, size_t lda, const T *B, size_t ldb, const T *be, T *C, size_t ldc)  \
   {                                                                                                            \
      return cublasXt##S##syr2k(X, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);                                 \
   }                                                                                                            \
   static cublasStatus_t xsymm(cublasSideMode_t s, cublasFillMode_t u, size_t m, size_t n, const T *al,        \
                               const T *A, size_t lda, const T *B, size_t ldb, const T *be, T *C, size_t ldc)   \
   {                                                                                                            \
      return cublasXt##S##symm(X, s, u, m, n, al, A, lda, B, ldb, be, C, ldc);                                  \
   }                                                                                                            \
   static cublasStatus_t xspmm(cublasSideMode_t s, cublasFillMode_t u, size_t m, size_t n, const T *al,        \
                               const T *AP, const T *B, size_t ldb, const T *be, T *C, size_t ldc)             \
   {                                                                                                            \
      return cublasXt##S##spmm(X, s, u, m, n, al, AP, B, ldb, be, C, ldc);                                      \
   }                                                                                                            \
   static cublasStatus_t xtrmm(cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, \
                               size_t m, size_t n, const T *al, const T *A, size_t lda, const T *B, size_t ldb, \
                               T *C, size_t ldc)                                                                \
   {                                                                                                            \
      return cublasXt##S##trmm(X, s, u, t, d, m, n, al, A, lda, B, ldb, C, ldc);                                \
   }                                                                                                            \
   static cublasStatus_t xtrsm(cublasSideMode_t s, cublasFillMode_t u, cublasOperation_t t, cublasDiagType_t d, \
                               size_t m, size_t n, const T *al, const T *A, size_t lda, T *B, size_t ldb)       \
   {                                                                                                            \
      return cublasXt##S##trsm(X, s, u, t, d, m, n, al, A, lda, B, ldb);                                        \
   }
WRAP(S, float)
WRAP(D, double)
WRAP(C, cuComplex)
WRAP(Z, cuDoubleComplex)

#define WRAPH(S, T, R)                                                                                          \
   static cublasStatus_t xherk(cublasFillMode_t u, cublasOperation_t t, size_t n, size_t k, const T *al,       \
                               const T *A, size_t lda, const T *, size_t, const R *be, T *C, size_t ldc)        \
   {                                                                                                            \
      R a = al->x;                                                                                              \
      return cublasXt##S##herk(X, u, t, n, k, &a, A, lda, be, C, ldc);                                          \
   }                                                                                                            \
   static cublasStatus_t xherkx(cublasFillMode_t u, cublasOperation_t t, size_t n, size_t k, const T *al,      \
                                const T *A, size_t lda, const T *B, size_t ldb, const R *be, T *C, size_t ldc)  \
   {                                                                                                            \
      return cublasXt##S##herkx(X, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);                                 \
   }                                                                                                            \
   static cublasStatus_t xher2k(cublasFillMode_t u, cublasOperation_t t, size_t n, size_t k, const T *al,      \
                                const T *A, size_t lda, const T *B, size_t ldb, const R *be, T *C, size_t ldc)  \
   {                                                                                                            \
      return cublasXt##S##her2k(X, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);                                 \
   }                                                                                                            \
   static cublasStatus_t xhemm(cublasSideMode_t s, cublasFillMode_t u, size_t m, size_t n, const T *al,        \
                               const T *A, size_t lda, const T *B, size_t ldb, const T *be, T *C, size_t ldc)   \
   {                                                                                                            \
      return cublasXt##S##hemm(X, s, u, m, n, al, A, lda, B, ldb, be, C, ldc);                                  \
   }
WRAPH(C, cuComplex, float)
WRAPH(Z, cuDoubleComplex, double)

template <class T> static void fill(std::vector<T> &v, double scale)
{
   for (auto &x : v)
      x = ty<T>::make(scale * rnd(), scale * rnd());
}

/* The comparison of one output matrix: padding and the elements outside
 * WRITTEN unchanged bit for bit, the others within their bound. */
struct tally {
   long bad = 0;
   char first[200] = "";
   void fail(const char *fmt, size_t i, size_t j, long double a = 0, long double b = 0, long double c = 0,
             long double d = 0, long double e = 0)
   {
      if (!bad++)
         snprintf(first, sizeof(first), fmt, i, j, a, b, c, d, e);
   }
};

enum kind { SYRK, SYRKX, SYR2K, HERK, HERKX, HER2K };
static const char *kind_name[] = { "syrk", "syrkx", "syr2k", "herk", "herkx", "her2k" };

/* rank-k updates: C (n x n, uplo triangle) */
template <class T>
static void rankk(const char *S, kind K, cublasFillMode_t uplo, cublasOperation_t tr, size_t n, size_t k, int where,
                  bool beta0)
{
   typedef typename ty<T>::R R;
   bool herm = K >= HERK, two = K == SYR2K || K == HER2K, hasb = K != SYRK && K != HERK;
   size_t ar = tr == CUBLAS_OP_N ? n : k, ac = tr == CUBLAS_OP_N ? k : n;
   size_t lda = ar + 3, ldb = ar + 1, ldc = n + 2;
   std::vector<T> A(lda * (ac ? ac : 1)), B(ldb * (ac ? ac : 1)), C(ldc * n), C0;
   fill(A, 1);
   fill(B, 1);
   fill(C, 1);
   if (beta0)
      for (size_t j = 0; j < n; j++)
         for (size_t i = 0; i < n; i++)
            C[i + j * ldc] = ty<T>::make(NAN, NAN);
   C0 = C;
   T alpha = ty<T>::make(0.75, herm && K == HERK ? 0 : -0.5), beta = ty<T>::make(beta0 ? 0 : -1.25, herm || beta0 ? 0 : 0.25);
   R rbeta = (R)ty<T>::get(beta).real();
   T *dA = place(A, where & 1), *dB = place(B, where & 2), *dC = place(C, where & 4);
   cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
   if constexpr (ty<T>::cplx) {
      if (K == HERK)
         st = xherk(uplo, tr, n, k, &alpha, dA, lda, dB, ldb, &rbeta, dC, ldc);
      else if (K == HERKX)
         st = xherkx(uplo, tr, n, k, &alpha, dA, lda, dB, ldb, &rbeta, dC, ldc);
      else if (K == HER2K)
         st = xher2k(uplo, tr, n, k, &alpha, dA, lda, dB, ldb, &rbeta, dC, ldc);
   }
   (void)rbeta;
   if (K == SYRK)
      st = xsyrk(uplo, tr, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
   else if (K == SYRKX)
      st = xsyrkx(uplo, tr, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
   else if (K == SYR2K)
      st = xsyr2k(uplo, tr, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
   bool ok = CHECK_ST(st, CUBLAS_STATUS_SUCCESS);
   if (where & 1)
      CHECK_CUDA(cudaFree(dA));
   if (where & 2)
      CHECK_CUDA(cudaFree(dB));
   fetch(C, dC, where & 4);
   if (!ok)
      return;
   /* NVIDIA's cublasXt syrk with k = 0 leaves C as it was (an H200, as its
    * gemm with k = 0), where BLAS scales it by beta; herk, syrkx, syr2k ...
    * scale it */
   if (K == SYRK && k == 0) {
      if (!CHECK(memcmp(C.data(), C0.data(), C.size() * sizeof(T)) == 0))
         printf("  %ssyrk k=0 n=%zu where=%d: C changed\n", S, n, where);
      return;
   }
   const std::vector<T> &Bv = hasb ? B : A;
   size_t ldbv = hasb ? ldb : lda;
   cl al = ty<T>::get(alpha), be = ty<T>::get(beta);
   tally t;
   for (size_t j = 0; j < n; j++)
      for (size_t i = 0; i < ldc; i++) {
         cl got = ty<T>::get(C[i + j * ldc]);
         bool in = i < n && (uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j);
         if (!in) {
            if (memcmp(&C[i + j * ldc], &C0[i + j * ldc], sizeof(T)))
               t.fail("(%zu,%zu) outside the triangle or padding changed", i, j);
            continue;
         }
         cl s = 0;
         long double mag = 0;
         for (size_t l = 0; l < k; l++) {
            cl a = op_at(A, lda, tr, i, l), b = op_at(Bv, ldbv, tr, j, l);
            cl p = herm ? a * std::conj(b) : a * b;
            s += al * p;
            mag += mag_of(al) * mag_of(a) * mag_of(b);
            if (two) {
               cl a2 = op_at(Bv, ldbv, tr, i, l), b2 = op_at(A, lda, tr, j, l);
               s += herm ? std::conj(al) * a2 * std::conj(b2) : al * a2 * b2;
               mag += mag_of(al) * mag_of(a2) * mag_of(b2);
            }
         }
         cl c0 = ty<T>::get(C0[i + j * ldc]);
         if (herm && i == j)
            c0 = cl(c0.real(), 0);
         cl ref = s;
         if (!beta0) {
            ref += be * c0;
            mag += mag_of(be) * mag_of(c0);
         }
         if (herm && i == j)
            ref = cl(ref.real(), 0);
         long double bound = mag * 2 * ((two ? 2 * k : k) + 2) * ty<T>::u();
         long double err = mag_of(got - ref);
         if (!(err <= bound))
            t.fail("C(%zu,%zu) = (%.9Lg, %.9Lg), want (%.9Lg, %.9Lg), bound %.3Lg", i, j, got.real(), got.imag(),
                   ref.real(), ref.imag(), bound);
      }
   if (!CHECK(t.bad == 0))
      printf("  %s%s %c%c n=%zu k=%zu where=%d beta0=%d: %ld bad, first %s\n", S, kind_name[K], "LU"[uplo],
             "NTC"[tr], n, k, where, (int)beta0, t.bad, t.first);
}

/* A's full matrix as the routines read it: symmetric or Hermitian
 * (HERM) from its UPLO triangle; or triangular (TRI) with UNIT diagonal */
template <class T>
static cl full_at(const std::vector<T> &A, size_t lda, cublasFillMode_t uplo, int herm, bool tri, bool unit,
                  size_t i, size_t j)
{
   bool in = uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j;
   if (tri) {
      if (i == j)
         return unit ? cl(1, 0) : ty<T>::get(A[i + j * lda]);
      return in ? ty<T>::get(A[i + j * lda]) : cl(0, 0);
   }
   if (i == j)
      return herm ? cl(ty<T>::get(A[i + i * lda]).real(), 0) : ty<T>::get(A[i + i * lda]);
   if (in)
      return ty<T>::get(A[i + j * lda]);
   cl v = ty<T>::get(A[j + i * lda]);
   return herm ? std::conj(v) : v;
}

/* A of order na with 1e6 outside its UPLO triangle (and on a unit
 * diagonal), OFF the scale of the off-diagonal entries, DIAG added to the
 * diagonal */
template <class T>
static void tri_fill(std::vector<T> &A, size_t lda, size_t na, cublasFillMode_t uplo, bool unit, double off,
                     double diag)
{
   fill(A, off);
   for (size_t j = 0; j < na; j++)
      for (size_t i = 0; i < na; i++) {
         bool in = uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j;
         if (!in || (unit && i == j))
            A[i + j * lda] = ty<T>::make(1e6, 1e6);
         else if (i == j)
            A[i + j * lda] = ty<T>::make(diag + rnd(), rnd());
      }
}

enum mkind { SYMM, HEMM, SPMM, TRMM, TRMM_INPLACE, TRSM };
static const char *mkind_name[] = { "symm", "hemm", "spmm", "trmm", "trmm(C=B)", "trsm" };

/* products with a square A: C (or B) m x n */
template <class T>
static void prod(const char *S, mkind K, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t tr,
                 cublasDiagType_t dg, size_t m, size_t n, int where, bool beta0)
{
   bool left = side == CUBLAS_SIDE_LEFT, unit = dg == CUBLAS_DIAG_UNIT;
   bool tri = K >= TRMM, solve = K == TRSM, inplace = K == TRMM_INPLACE || solve;
   size_t na = left ? m : n, lda = na + 3, ldb = m + 1, ldc = inplace ? ldb : m + 2;
   std::vector<T> A(lda * (na ? na : 1)), B(ldb * n), C(ldc * n), AP(na * (na + 1) / 2 + 1), B0, C0;
   tri_fill(A, lda, na, uplo, tri && unit, solve ? 1.0 / (double)(na + 1) : 1, solve ? 2 : 0);
   fill(B, 1);
   fill(C, 1);
   if (beta0)
      for (size_t j = 0; j < n; j++)
         for (size_t i = 0; i < m; i++)
            C[i + j * ldc] = ty<T>::make(NAN, NAN);
   size_t p = 0;
   for (size_t j = 0; j < na; j++)
      for (size_t i = 0; i < na; i++)
         if (uplo == CUBLAS_FILL_MODE_UPPER ? i <= j : i >= j)
            AP[p++] = A[i + j * lda];
   B0 = B;
   C0 = inplace ? B : C;
   T alpha = ty<T>::make(0.75, -0.5), beta = ty<T>::make(beta0 ? 0 : -1.25, beta0 ? 0 : 0.25);
   T *dA = place(K == SPMM ? AP : A, where & 1), *dB = place(B, where & 2), *dC = inplace ? dB : place(C, where & 4);
   cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
   if constexpr (ty<T>::cplx)
      if (K == HEMM)
         st = xhemm(side, uplo, m, n, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
   if (K == SYMM)
      st = xsymm(side, uplo, m, n, &alpha, dA, lda, dB, ldb, &beta, dC, ldc);
   else if (K == SPMM)
      st = xspmm(side, uplo, m, n, &alpha, dA, dB, ldb, &beta, dC, ldc);
   else if (K == TRMM || K == TRMM_INPLACE)
      st = xtrmm(side, uplo, tr, dg, m, n, &alpha, dA, lda, dB, ldb, dC, ldc);
   else if (K == TRSM)
      st = xtrsm(side, uplo, tr, dg, m, n, &alpha, dA, lda, dB, ldb);
   /* NVIDIA's cublasXt spmm refuses a packed A in device memory (an H200) */
   bool ok = CHECK_ST(st, K == SPMM && (where & 1) ? CUBLAS_STATUS_NOT_SUPPORTED : CUBLAS_STATUS_SUCCESS);
   if (K == SPMM && (where & 1))
      ok = false;
   else if (!ok)
      printf("  %s%s side %d fill %d op %d diag %d m=%zu n=%zu where=%d: status %d\n", S, mkind_name[K], (int)side,
             (int)uplo, (int)tr, (int)dg, m, n, where, (int)st);
   if (where & 1)
      CHECK_CUDA(cudaFree(dA));
   if (!inplace)
      fetch(C, dC, where & 4);
   fetch(B, dB, where & 2);
   if (inplace)
      C = B;
   if (!ok)
      return;
   if (!inplace && memcmp(B.data(), B0.data(), B.size() * sizeof(T)))
      CHECK(!"B unchanged");
   int herm = K == HEMM;
   cl al = ty<T>::get(alpha), be = ty<T>::get(beta);
   tally t;
   /* op(A)(i, j) */
   auto opa = [&](size_t i, size_t j) {
      if (!tri || tr == CUBLAS_OP_N)
         return full_at(A, lda, uplo, herm, tri, unit, i, j);
      cl v = full_at(A, lda, uplo, herm, tri, unit, j, i);
      return tr == CUBLAS_OP_C ? std::conj(v) : v;
   };
   for (size_t j = 0; j < n; j++)
      for (size_t i = 0; i < ldc; i++) {
         cl got = ty<T>::get(C[i + j * ldc]);
         if (i >= m) {
            if (memcmp(&C[i + j * ldc], &C0[i + j * ldc], sizeof(T)))
               t.fail("padding (%zu,%zu) changed", i, j);
            continue;
         }
         cl s = 0, ref;
         long double mag = 0, bound;
         for (size_t l = 0; l < na; l++) {
            /* trsm: X is the result; else the product reads B */
            cl a = left ? opa(i, l) : opa(l, j);
            cl b = solve ? ty<T>::get(C[left ? l + j * ldc : i + l * ldc])
                         : ty<T>::get(B0[left ? l + j * ldb : i + l * ldb]);
            s += a * b;
            mag += mag_of(a) * mag_of(b);
         }
         if (solve) {   /* the residual op(A) X - alpha B */
            cl rhs = al * ty<T>::get(B0[i + j * ldb]);
            ref = rhs;
            got = s;
            bound = 2 * (na + 2) * ty<T>::u() * (mag + mag_of(rhs));
         } else {
            ref = al * s;
            mag *= mag_of(al);
            if (!tri && !beta0) {
               ref += be * ty<T>::get(C0[i + j * ldc]);
               mag += mag_of(be) * mag_of(ty<T>::get(C0[i + j * ldc]));
            }
            bound = mag * 2 * (na + 2) * ty<T>::u();
         }
         long double err = mag_of(got - ref);
         if (!(err <= bound))
            t.fail("(%zu,%zu) = (%.9Lg, %.9Lg), want (%.9Lg, %.9Lg), bound %.3Lg", i, j, got.real(), got.imag(),
                   ref.real(), ref.imag(), bound);
      }
   if (!CHECK(t.bad == 0))
      printf("  %s%s %c%c%c%c m=%zu n=%zu where=%d beta0=%d: %ld bad, first %s\n", S, mkind_name[K], "LR"[side],
             "LU"[uplo], "NTC"[tr], "NU"[dg], m, n, where, (int)beta0, t.bad, t.first);
}

static const size_t sizes[][2] = { { 1, 1 }, { 7, 33 }, { 33, 7 }, { 70, 70 } };
static const cublasFillMode_t uplos[] = { CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER };
static const cublasSideMode_t sides[] = { CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT };
static const cublasDiagType_t diags[] = { CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT };

/* where: host for every case, device (7) and mixed (5, 2) on some */
static int where_of(size_t s, int v)
{
   static const int w[] = { 0, 7, 5, 2 };
   return s == 1 ? w[v % 4] : s == 3 ? w[(v + 1) % 4] : 0;
}

template <class T> static void sweep(const char *S)
{
   std::vector<cublasOperation_t> ops = { CUBLAS_OP_N, CUBLAS_OP_T };
   if (!ty<T>::cplx)
      ops.push_back(CUBLAS_OP_C);   /* a transpose for real types */
   int v = 0;
   for (size_t s = 0; s < 4; s++)
      for (auto u : uplos) {
         for (auto tr : ops)
            for (kind K : { SYRK, SYRKX, SYR2K })
               rankk<T>(S, K, u, tr, sizes[s][0], sizes[s][1], where_of(s, v++), s == 2);
         if (ty<T>::cplx)
            for (auto tr : { CUBLAS_OP_N, CUBLAS_OP_C })
               for (kind K : { HERK, HERKX, HER2K })
                  rankk<T>(S, K, u, tr, sizes[s][0], sizes[s][1], where_of(s, v++), s == 2);
         for (auto sd : sides) {
            for (mkind K : { SYMM, HEMM, SPMM })
               if (K != HEMM || ty<T>::cplx)
                  prod<T>(S, K, sd, u, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, sizes[s][0], sizes[s][1], where_of(s, v++),
                          s == 2);
            for (auto tr : { CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C })
               for (auto dg : diags)
                  for (mkind K : { TRMM, TRMM_INPLACE, TRSM })
                     prod<T>(S, K, sd, u, tr, dg, sizes[s][0], sizes[s][1], where_of(s, v++), false);
         }
      }
   /* k = 0: C = beta C on the triangle, as BLAS (documentation only) */
   rankk<T>(S, SYRK, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, 7, 0, 0, false);
}

/* bad arguments: the statuses of the ordinary routines (documentation) */
static void bad_args(void)
{
   float A[64] = { 0 }, B[64] = { 0 }, C[64] = { 0 }, one = 1;
   cublasXtHandle_t x2;
   CHECK_ST(cublasXtCreate(&x2), CUBLAS_STATUS_SUCCESS);   /* no device selected yet */
   CHECK_ST(cublasXtSsyrk(x2, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 4, &one, A, 4, &one, C, 4),
            CUBLAS_STATUS_NOT_INITIALIZED);
   CHECK_ST(cublasXtDestroy(x2), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtSsyrk(X, CUBLAS_FILL_MODE_FULL, CUBLAS_OP_N, 4, 4, &one, A, 4, &one, C, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasXtSsyrk(X, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 4, &one, A, 3, &one, C, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasXtSsyr2k(X, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 4, 4, &one, A, 4, B, 4, &one, C, 3),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasXtSsymm(X, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, 4, 4, &one, A, 3, B, 4, &one, C, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasXtStrsm(X, (cublasSideMode_t)2, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 4, 4, &one,
                          A, 4, B, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasXtStrmm(X, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, (cublasDiagType_t)2, 4, 4, &one,
                          A, 4, B, 4, C, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasXtSspmm(X, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_FULL, 4, 4, &one, A, B, 4, &one, C, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   /* nothing to do */
   CHECK_ST(cublasXtSsyrk(X, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, 0, 4, &one, A, 4, &one, C, 1),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtStrsm(X, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 4, 0, &one, A,
                          4, B, 4),
            CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtSetCpuRoutine(X, CUBLASXT_ROUTINE_MAX, CUBLASXT_FLOAT, NULL), CUBLAS_STATUS_INVALID_VALUE);
}

int main()
{
   check_begin("cublas_xt3");
   CHECK_ST(cublasXtCreate(&X), CUBLAS_STATUS_SUCCESS);
   int dev0 = 0;
   CHECK_ST(cublasXtDeviceSelect(X, 1, &dev0), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtSetCpuRoutine(X, CUBLASXT_GEMM, CUBLASXT_FLOAT, NULL), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtSetCpuRatio(X, CUBLASXT_GEMM, CUBLASXT_FLOAT, 0.0f), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasXtSetBlockDim(X, 32), CUBLAS_STATUS_SUCCESS);   /* tiles smaller than the matrices */
   bad_args();
   sweep<float>("S");
   sweep<double>("D");
   sweep<cuComplex>("C");
   sweep<cuDoubleComplex>("Z");
   CHECK_ST(cublasXtDestroy(X), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
