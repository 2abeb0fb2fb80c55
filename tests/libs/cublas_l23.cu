/*
 * cublas_l23.cu — cuBLAS beyond GEMM, gemv and ger through the library a
 * program links: the extensions geam and dgmm (s d c z), Level 2 symv,
 * trmv, trsv, Level 3 syrk, syrkx, syr2k, symm, trmm, trsm (s d c z) and
 * Level 1 rotm, rotmg
 * (s d), in every transpose, fill,
 * side and diagonal mode each takes; odd sizes (1, 7, 33, 130), leading
 * dimensions larger than the matrix (the padding must stay untouched),
 * increments 1, 2 and negative, alpha/beta including 0, beta = 0 over NaN
 * where BLAS defines it (y or C is then not read), scalars in device
 * memory, and the in-place forms cuBLAS documents (geam with C as A or B,
 * dgmm with C as A, trmm with C as B).
 *
 * Expected values: plain double-precision loops on the host, written from
 * the BLAS definitions (not from the library's code), compared within the
 * standard error bound (oracle.h): for a product of length k,
 *    |got - want| <= 2 (k + 2) u (|alpha| (|op(A)| |x|)_i + |beta| |y_i|);
 * a triangular solve is checked by its residual (Higham, Thm 8.5: the
 * computed x solves (T + dT) x = b with |dT| <= gamma_n |T|), so
 *    |b - op(A) x| <= 2 (n + 2) u (|op(A)| |x|)_i.
 * Entries a routine must not read (the other triangle, a unit diagonal)
 * hold 1e6, so using them breaks the result.  No error statuses are
 * asserted beyond what cuBLAS's documentation states.
 */
#include <cublas_v2.h>
#include "../cuda/check.h"
#include "oracle.h"
#include "transfer.h"

#include <complex>
#include <vector>

typedef std::complex<double> cd;
static cublasHandle_t H;
static struct oracle O;   /* OpenBLAS where present: drotmg */

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))


template <class T> static double unit_roundoff() { return sizeof(T) == 4 || (sizeof(T) == 8 && is_cplx<T>()) ? 0x1p-24 : 0x1p-53; }
template <class T> static T rndT() { return fromc<T>(is_cplx<T>() ? cd(rnd(), rnd()) : cd(rnd(), 0)); }
static bool same_bits(const void *a, const void *b, size_t n) { return memcmp(a, b, n) == 0; }

/* index of element i of a BLAS vector of n elements with increment inc */
static long at(int i, int n, int inc)
{
   return inc >= 0 ? (long)i * inc : (long)(n - 1 - i) * -inc;
}
/* op(X)(i, j) of a column-major X */
template <class T> static cd opx(const std::vector<T> &X, int ld, int op, int i, int j)
{
   if (op == 0)
      return toc(X[i + (long)j * ld]);
   cd v = toc(X[j + (long)i * ld]);
   return op == 2 ? std::conj(v) : v;
}

static long fails_shown;
static bool close_to(cd got, cd want, double bound, const char *what, int i, int j)
{
   bool ok = std::abs(got - want) <= bound;   /* false for NaN */
   if (!ok && fails_shown++ < 10)
      printf("  %s (%d, %d): got (%.17g, %.17g), want (%.17g, %.17g), bound %.3g\n", what, i, j, got.real(),
             got.imag(), want.real(), want.imag(), bound);
   return ok;
}

/* ---- geam and dgmm ---- */

template <class T> struct X;
#define XDEF(T, S)                                                                                   \
   template <> struct X<T> {                                                                       \
      static cublasStatus_t geam(cublasOperation_t ta, cublasOperation_t tb, int m, int n, const T *al, const T *A, \
                                 int lda, const T *be, const T *B, int ldb, T *C, int ldc)         \
      {                                                                                             \
         return cublas##S##geam(H, ta, tb, m, n, al, A, lda, be, B, ldb, C, ldc);                  \
      }                                                                                             \
      static cublasStatus_t dgmm(cublasSideMode_t s, int m, int n, const T *A, int lda, const T *x, int incx, T *C, \
                                 int ldc)                                                           \
      {                                                                                             \
         return cublas##S##dgmm(H, s, m, n, A, lda, x, incx, C, ldc);                               \
      }                                                                                             \
   };
XDEF(float, S)
XDEF(double, D)
XDEF(cuComplex, C)
XDEF(cuDoubleComplex, Z)

/* inplace: 0 out of place, 1 C is A, 2 C is B */
template <class T> static void geam(const char *tag, int ta, int tb, int m, int n, int pad, cd al, cd be, int inplace,
                                    bool devscal)
{
   double u = unit_roundoff<T>();
   int ar = ta ? n : m, ac = ta ? m : n, br = tb ? n : m, bc = tb ? m : n;
   int lda = ar + pad, ldb = br + pad + 1, ldc = m + pad + 2;
   if (inplace == 1)
      ldc = lda;
   if (inplace == 2)
      ldc = ldb;
   std::vector<T> A((size_t)lda * ac), B((size_t)ldb * bc), C((size_t)ldc * n);
   for (auto &v : A) v = rndT<T>();
   for (auto &v : B) v = rndT<T>();
   for (auto &v : C) v = rndT<T>();
   T *dA = dev(A), *dB = dev(B), *dC = inplace == 1 ? dA : inplace == 2 ? dB : dev(C);
   const std::vector<T> &C0 = inplace == 1 ? A : inplace == 2 ? B : C;
   T a = fromc<T>(al), b = fromc<T>(be);
   T *da = dev(std::vector<T>(1, a)), *db = dev(std::vector<T>(1, b));
   if (devscal)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(X<T>::geam((cublasOperation_t)ta, (cublasOperation_t)tb, m, n, devscal ? da : &a, dA, lda,
                       devscal ? db : &b, dB, ldb, dC, ldc),
            CUBLAS_STATUS_SUCCESS);
   if (devscal)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dC, C0.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s geam ta=%d tb=%d m=%d n=%d in=%d", tag, ta, tb, m, n, inplace);
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         cd got = toc(G[i + (long)j * ldc]);
         if (i >= m) {   /* padding: untouched */
            bad += !same_bits(&G[i + (long)j * ldc], &C0[i + (long)j * ldc], sizeof(T));
            continue;
         }
         cd x = al == 0. ? 0. : al * opx(A, lda, ta, i, j), y = be == 0. ? 0. : be * opx(B, ldb, tb, i, j);
         double bound = 4 * u * (std::abs(x) + std::abs(y)) + 1e-300;
         bad += !close_to(got, x + y, bound, what, i, j);
      }
   CHECK_INT(bad, 0);
   cudaFree(dA);
   cudaFree(dB);
   if (!inplace)
      cudaFree(dC);
   cudaFree(da);
   cudaFree(db);
}

template <class T> static void dgmm(const char *tag, int side, int m, int n, int pad, int incx, bool inplace)
{
   double u = unit_roundoff<T>();
   int lda = m + pad, ldc = inplace ? lda : m + 2 * pad + 1, lx = side ? n : m, ax = incx < 0 ? -incx : incx;
   std::vector<T> A((size_t)lda * n), C((size_t)ldc * n), x((size_t)lx * (ax ? ax : 1));
   for (auto &v : A) v = rndT<T>();
   for (auto &v : C) v = rndT<T>();
   for (auto &v : x) v = rndT<T>();
   T *dA = dev(A), *dx = dev(x), *dC = inplace ? dA : dev(C);
   const std::vector<T> &C0 = inplace ? A : C;
   CHECK_ST(X<T>::dgmm((cublasSideMode_t)side, m, n, dA, lda, dx, incx, dC, ldc), CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dC, C0.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s dgmm side=%d m=%d n=%d incx=%d in=%d", tag, side, m, n, incx, inplace);
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         if (i >= m) {
            bad += !same_bits(&G[i + (long)j * ldc], &C0[i + (long)j * ldc], sizeof(T));
            continue;
         }
         cd want = toc(A[i + (long)j * lda]) * toc(x[at(side ? j : i, lx, incx)]);
         bad += !close_to(toc(G[i + (long)j * ldc]), want, 4 * u * std::abs(want) + 1e-300, what, i, j);
      }
   CHECK_INT(bad, 0);
   cudaFree(dA);
   cudaFree(dx);
   if (!inplace)
      cudaFree(dC);
}

template <class T> static void extensions(const char *tag)
{
   static const int sizes[][3] = { { 1, 1, 0 }, { 7, 33, 2 }, { 130, 7, 1 } };
   static const double scal[][2] = { { 1.5, -0.5 }, { 0, 2 }, { 1.25, 0 } };
   for (int ta = 0; ta < 3; ta++)
      for (int tb = 0; tb < 3; tb++)
         for (auto &s : sizes)
            for (auto &c : scal) {
               cd al = is_cplx<T>() && c[0] ? cd(c[0], -0.75) : cd(c[0], 0);
               geam<T>(tag, ta, tb, s[0], s[1], s[2], al, cd(c[1], 0), 0, false);
            }
   /* scalars in device memory; the in-place forms (op N on C's side) */
   geam<T>(tag, 1, 0, 33, 7, 1, 2.0, -1.0, 0, true);
   for (int t = 0; t < 3; t++) {
      geam<T>(tag, 0, t, 7, 33, 3, 1.5, -0.5, 1, false);
      geam<T>(tag, t, 0, 130, 7, 0, 1.5, -0.5, 2, false);
   }
   static const int incs[] = { 1, 2, -1, -3 };
   for (int side = 0; side < 2; side++)
      for (auto &s : sizes)
         for (int inc : incs)
            dgmm<T>(tag, side, s[0], s[1], s[2], inc, false);
   dgmm<T>(tag, 0, 33, 7, 2, 1, true);
   dgmm<T>(tag, 1, 7, 33, 0, -2, true);
}

/* ---- Level 2: symv, trmv, trsv ---- */

template <class T> struct L2;
#define L2DEF(T, S)                                                                                  \
   template <> struct L2<T> {                                                                      \
      static cublasStatus_t symv(int uplo, int n, const T *al, const T *A, int lda, const T *x, int ix, const T *be, \
                                 T *y, int iy)                                                      \
      {                                                                                             \
         return cublas##S##symv(H, (cublasFillMode_t)uplo, n, al, A, lda, x, ix, be, y, iy);       \
      }                                                                                             \
      static cublasStatus_t trmv(int uplo, int t, int diag, int n, const T *A, int lda, T *x, int ix) \
      {                                                                                             \
         return cublas##S##trmv(H, (cublasFillMode_t)uplo, (cublasOperation_t)t, (cublasDiagType_t)diag, n, A, lda, \
                                x, ix);                                                             \
      }                                                                                             \
      static cublasStatus_t trsv(int uplo, int t, int diag, int n, const T *A, int lda, T *x, int ix) \
      {                                                                                             \
         return cublas##S##trsv(H, (cublasFillMode_t)uplo, (cublasOperation_t)t, (cublasDiagType_t)diag, n, A, lda, \
                                x, ix);                                                             \
      }                                                                                             \
   };
L2DEF(float, S)
L2DEF(double, D)
L2DEF(cuComplex, C)
L2DEF(cuDoubleComplex, Z)

static const double GARBAGE = 1e6;   /* in entries a routine must not read */

/* An n x n triangular (or symmetric) matrix with leading dimension lda:
 * the uplo triangle well conditioned (off-diagonal entries in [-1/n, 1/n),
 * a diagonal in [1, 2)), everything else GARBAGE, the diagonal too when
 * unit. */
template <class T> static std::vector<T> tri(int n, int lda, int uplo, bool unit)
{
   std::vector<T> A((size_t)lda * n);
   for (int j = 0; j < n; j++)
      for (int i = 0; i < lda; i++) {
         bool in = i < n && (uplo ? i <= j : i >= j);
         cd v = GARBAGE;
         if (in && i != j)
            v = cd(rnd(), is_cplx<T>() ? rnd() : 0) / (double)n;
         else if (i == j && !unit)
            v = cd(1.5 + rnd() / 2, is_cplx<T>() ? rnd() / 4 : 0);
         A[i + (size_t)j * lda] = fromc<T>(v);
      }
   return A;
}
/* op(A)(i, k) of a triangular A as BLAS reads it: 0 outside the triangle,
 * 1 on a unit diagonal (t 2: conjugated) */
template <class T> static cd tri_el(const std::vector<T> &A, int lda, int uplo, int t, bool unit, int i, int k)
{
   int r = t ? k : i, c = t ? i : k;
   cd v = 0;
   if (r == c)
      v = unit ? 1 : toc(A[r + (size_t)c * lda]);
   else if (uplo ? r < c : r > c)
      v = toc(A[r + (size_t)c * lda]);
   return t == 2 ? std::conj(v) : v;
}
/* the unit roundoff a bound uses: a complex multiply-add is four real ones */
template <class T> static double ub() { return unit_roundoff<T>() * (is_cplx<T>() ? 2 : 1); }
template <class T> static T nanT() { return fromc<T>(cd(NAN, NAN)); }

template <class T> static void symv(const char *tag, int uplo, int n, int pad, int ix, int iy, cd al, cd be)
{
   double u = ub<T>();
   int lda = n + pad, ax = ix < 0 ? -ix : ix, ay = iy < 0 ? -iy : iy;
   std::vector<T> A = tri<T>(n, lda, uplo, false), x((size_t)n * ax), y((size_t)n * ay);
   for (auto &v : x) v = rndT<T>();
   for (auto &v : y) v = be == 0. ? nanT<T>() : rndT<T>();
   T *dA = dev(A), *dx = dev(x), *dy = dev(y), a = fromc<T>(al), b = fromc<T>(be);
   CHECK_ST(L2<T>::symv(uplo, n, &a, dA, lda, dx, ix, &b, dy, iy), CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dy, y.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s symv uplo=%d n=%d incx=%d incy=%d beta=%g", tag, uplo, n, ix, iy, be.real());
   for (int i = 0; i < n; i++) {
      cd sum = 0;
      double mag = 0;
      for (int k = 0; k < n; k++) {
         bool stored = uplo ? i <= k : i >= k;
         cd v = stored ? toc(A[i + (size_t)k * lda]) : toc(A[k + (size_t)i * lda]);
         sum += v * toc(x[at(k, n, ix)]);
         mag += std::abs(v * toc(x[at(k, n, ix)]));
      }
      cd yv = be == 0. ? 0 : toc(y[at(i, n, iy)]);
      double bound = 2 * (n + 2) * u * (std::abs(al) * mag + std::abs(be * yv)) + 1e-300;
      bad += !close_to(toc(G[at(i, n, iy)]), al * sum + be * yv, bound, what, i, 0);
   }
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dx); cudaFree(dy);
}

/* trmv (solve false: x = op(A) x) or trsv (x = op(A)^-1 x) */
template <class T> static void trxv(const char *tag, bool solve, int uplo, int t, int diag, int n, int pad, int ix)
{
   double u = ub<T>();
   int lda = n + pad, ax = ix < 0 ? -ix : ix;
   std::vector<T> A = tri<T>(n, lda, uplo, diag), x((size_t)n * ax);
   for (auto &v : x) v = rndT<T>();
   T *dA = dev(A), *dx = dev(x);
   CHECK_ST(solve ? L2<T>::trsv(uplo, t, diag, n, dA, lda, dx, ix) : L2<T>::trmv(uplo, t, diag, n, dA, lda, dx, ix),
            CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dx, x.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s %s uplo=%d trans=%d diag=%d n=%d incx=%d", tag, solve ? "trsv" : "trmv", uplo, t,
            diag, n, ix);
   for (int i = 0; i < n; i++) {
      /* trmv: sum_k op(A)(i,k) x_k against the result; trsv: the
       * residual of the result against the right-hand side */
      const std::vector<T> &v = solve ? G : x;
      cd sum = 0;
      double mag = 0;
      for (int k = 0; k < n; k++) {
         cd a = tri_el(A, lda, uplo, t, diag, i, k);
         sum += a * toc(v[at(k, n, ix)]);
         mag += std::abs(a * toc(v[at(k, n, ix)]));
      }
      double bound = 2 * (n + 2) * u * mag + 1e-300;
      if (solve)
         bad += !close_to(sum, toc(x[at(i, n, ix)]), bound, what, i, 0);
      else
         bad += !close_to(toc(G[at(i, n, ix)]), sum, bound, what, i, 0);
   }
   /* the gaps between the elements stay */
   for (size_t e = 0; e < x.size(); e++)
      if (e % ax)
         bad += !same_bits(&G[e], &x[e], sizeof(T));
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dx);
}

template <class T> static void level2(const char *tag)
{
   static const int ns[] = { 1, 7, 33, 130 };
   for (int uplo = 0; uplo < 2; uplo++)
      for (int n : ns) {
         cd al = is_cplx<T>() ? cd(1.5, -0.5) : 1.5;
         symv<T>(tag, uplo, n, n % 3, 1, 1, al, -0.5);
         symv<T>(tag, uplo, n, 1, -2, 3, al, 0.);
         symv<T>(tag, uplo, n, 0, 2, -1, 0., is_cplx<T>() ? cd(0.5, 2) : 2.);
         for (int t = 0; t < 3; t++)
            for (int diag = 0; diag < 2; diag++)
               for (int solve = 0; solve < 2; solve++) {
                  trxv<T>(tag, solve, uplo, t, diag, n, n % 4, 1);
                  trxv<T>(tag, solve, uplo, t, diag, n, 1, -2);
               }
      }
}

/* ---- Level 3: syrk, trmm, trsm ---- */

template <class T> struct L3;
#define L3DEF(T, S)                                                                                  \
   template <> struct L3<T> {                                                                      \
      static cublasStatus_t syrk(int uplo, int t, int n, int k, const T *al, const T *A, int lda, const T *be, T *C, \
                                 int ldc)                                                           \
      {                                                                                             \
         return cublas##S##syrk(H, (cublasFillMode_t)uplo, (cublasOperation_t)t, n, k, al, A, lda, be, C, ldc); \
      }                                                                                             \
      static cublasStatus_t syrkx(int two, int uplo, int t, int n, int k, const T *al, const T *A, int lda, const T *B, \
                                  int ldb, const T *be, T *C, int ldc)                              \
      {                                                                                             \
         return two ? cublas##S##syr2k(H, (cublasFillMode_t)uplo, (cublasOperation_t)t, n, k, al, A, lda, B, ldb, be, \
                                       C, ldc)                                                      \
                    : cublas##S##syrkx(H, (cublasFillMode_t)uplo, (cublasOperation_t)t, n, k, al, A, lda, B, ldb, be, \
                                       C, ldc);                                                     \
      }                                                                                             \
      static cublasStatus_t symm(int side, int uplo, int m, int n, const T *al, const T *A, int lda, const T *B,   \
                                 int ldb, const T *be, T *C, int ldc)                               \
      {                                                                                             \
         return cublas##S##symm(H, (cublasSideMode_t)side, (cublasFillMode_t)uplo, m, n, al, A, lda, B, ldb, be, C, \
                                ldc);                                                               \
      }                                                                                             \
      static cublasStatus_t trmm(int side, int uplo, int t, int diag, int m, int n, const T *al, const T *A, int lda, \
                                 const T *B, int ldb, T *C, int ldc)                                \
      {                                                                                             \
         return cublas##S##trmm(H, (cublasSideMode_t)side, (cublasFillMode_t)uplo, (cublasOperation_t)t, \
                                (cublasDiagType_t)diag, m, n, al, A, lda, B, ldb, C, ldc);          \
      }                                                                                             \
      static cublasStatus_t trsm(int side, int uplo, int t, int diag, int m, int n, const T *al, const T *A, int lda, \
                                 T *B, int ldb)                                                     \
      {                                                                                             \
         return cublas##S##trsm(H, (cublasSideMode_t)side, (cublasFillMode_t)uplo, (cublasOperation_t)t, \
                                (cublasDiagType_t)diag, m, n, al, A, lda, B, ldb);                  \
      }                                                                                             \
   };
L3DEF(float, S)
L3DEF(double, D)
L3DEF(cuComplex, C)
L3DEF(cuDoubleComplex, Z)

/* mode 0 syrk, 1 syrkx (B given), 2 syr2k */
template <class T> static void syrk(const char *tag, int uplo, int t, int n, int k, int pad, cd al, cd be, int mode = 0)
{
   double u = ub<T>();
   int ar = t ? k : n, ac = t ? n : k, lda = ar + pad + 1, ldb = ar + 2, ldc = n + pad;
   std::vector<T> A((size_t)lda * (ac ? ac : 1)), B0((size_t)ldb * (ac ? ac : 1)), C((size_t)ldc * n);
   for (auto &v : A) v = rndT<T>();
   for (auto &v : B0) v = rndT<T>();
   const std::vector<T> &B = mode ? B0 : A;
   int ldbb = mode ? ldb : lda;
   for (size_t e = 0; e < C.size(); e++) {
      int i = (int)(e % ldc), j = (int)(e / ldc);
      bool in = i < n && (uplo ? i <= j : i >= j);
      C[e] = in && be == 0. ? nanT<T>() : rndT<T>();
   }
   T *dA = dev(A), *dB = dev(B0), *dC = dev(C), a = fromc<T>(al), b = fromc<T>(be);
   CHECK_ST(mode ? L3<T>::syrkx(mode == 2, uplo, t, n, k, &a, dA, lda, dB, ldb, &b, dC, ldc)
                 : L3<T>::syrk(uplo, t, n, k, &a, dA, lda, &b, dC, ldc),
            CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dC, C.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s %s uplo=%d trans=%d n=%d k=%d beta=%g", tag,
            mode == 0 ? "syrk" : mode == 1 ? "syrkx" : "syr2k", uplo, t, n, k, be.real());
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         size_t e = i + (size_t)j * ldc;
         if (i >= n || (uplo ? i > j : i < j)) {   /* padding and the other triangle */
            bad += !same_bits(&G[e], &C[e], sizeof(T));
            continue;
         }
         cd sum = 0;
         double mag = 0;
         for (int l = 0; l < k; l++) {
            cd x = t ? toc(A[l + (size_t)i * lda]) : toc(A[i + (size_t)l * lda]);
            cd y = t ? toc(B[l + (size_t)j * ldbb]) : toc(B[j + (size_t)l * ldbb]);
            sum += x * y;
            mag += std::abs(x * y);
            if (mode == 2) {   /* + op(B) op(A)^T */
               cd x2 = t ? toc(B[l + (size_t)i * ldbb]) : toc(B[i + (size_t)l * ldbb]);
               cd y2 = t ? toc(A[l + (size_t)j * lda]) : toc(A[j + (size_t)l * lda]);
               sum += x2 * y2;
               mag += std::abs(x2 * y2);
            }
         }
         cd cv = be == 0. ? 0 : toc(C[e]);
         double bound = 2 * (k + 2) * u * (std::abs(al) * mag + std::abs(be * cv)) + 1e-300;
         bad += !close_to(toc(G[e]), al * sum + be * cv, bound, what, i, j);
      }
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

template <class T> static void symm(const char *tag, int side, int uplo, int m, int n, int pad, cd al, cd be)
{
   double u = ub<T>();
   int na = side ? n : m, lda = na + pad, ldb = m + 1, ldc = m + pad + 2;
   std::vector<T> A = tri<T>(na, lda, uplo, false), B((size_t)ldb * n), C((size_t)ldc * n);
   for (auto &v : B) v = rndT<T>();
   for (size_t e = 0; e < C.size(); e++)
      C[e] = (int)(e % ldc) < m && be == 0. ? nanT<T>() : rndT<T>();
   T *dA = dev(A), *dB = dev(B), *dC = dev(C), a = fromc<T>(al), b = fromc<T>(be);
   CHECK_ST(L3<T>::symm(side, uplo, m, n, &a, dA, lda, dB, ldb, &b, dC, ldc), CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dC, C.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s symm side=%d uplo=%d m=%d n=%d beta=%g", tag, side, uplo, m, n, be.real());
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         size_t e = i + (size_t)j * ldc;
         if (i >= m) {
            bad += !same_bits(&G[e], &C[e], sizeof(T));
            continue;
         }
         cd sum = 0;
         double mag = 0;
         for (int l = 0; l < na; l++) {
            int r = side ? j : i;   /* A(r, l) = A(l, r): read from the stored triangle */
            bool stored = uplo ? r <= l : r >= l;
            cd av = stored ? toc(A[r + (size_t)l * lda]) : toc(A[l + (size_t)r * lda]);
            cd p = av * (side ? toc(B[i + (size_t)l * ldb]) : toc(B[l + (size_t)j * ldb]));
            sum += p;
            mag += std::abs(p);
         }
         cd cv = be == 0. ? 0 : toc(C[e]);
         double bound = 2 * (na + 2) * u * (std::abs(al) * mag + std::abs(be * cv)) + 1e-300;
         bad += !close_to(toc(G[e]), al * sum + be * cv, bound, what, i, j);
      }
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

/* trmm (out of place, or in place with C = B) and trsm */
template <class T> static void trxm(const char *tag, bool solve, int side, int uplo, int t, int diag, int m, int n,
                                    int pad, cd al, bool inplace, bool devscal = false)
{
   double u = ub<T>();
   int na = side ? n : m, lda = na + pad, ldb = m + pad + 1, ldc = inplace || solve ? ldb : m + 2;
   std::vector<T> A = tri<T>(na, lda, uplo, diag), B((size_t)ldb * n), C((size_t)ldc * n);
   for (auto &v : B) v = rndT<T>();
   for (auto &v : C) v = rndT<T>();
   T *dA = dev(A), *dB = dev(B), *dC = inplace || solve ? dB : dev(C), a = fromc<T>(al);
   const std::vector<T> &C0 = inplace || solve ? B : C;
   T *da = dev(std::vector<T>(1, a)), *pa = devscal ? da : &a;
   if (devscal)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(solve ? L3<T>::trsm(side, uplo, t, diag, m, n, pa, dA, lda, dB, ldb)
                  : L3<T>::trmm(side, uplo, t, diag, m, n, pa, dA, lda, dB, ldb, dC, ldc),
            CUBLAS_STATUS_SUCCESS);
   if (devscal)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
   cudaFree(da);
   std::vector<T> G = host(dC, C0.size());
   long bad = 0;
   char what[128];
   snprintf(what, sizeof(what), "%s %s side=%d uplo=%d trans=%d diag=%d m=%d n=%d alpha=%g in=%d", tag,
            solve ? "trsm" : "trmm", side, uplo, t, diag, m, n, al.real(), inplace);
   /* trmm: the product of op(A) and B against the result; trsm: op(A)
    * times the result against alpha B */
   const std::vector<T> &V = solve ? G : B;
   int ldv = solve ? ldc : ldb;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         size_t e = i + (size_t)j * ldc;
         if (i >= m) {
            bad += !same_bits(&G[e], &C0[e], sizeof(T));
            continue;
         }
         cd sum = 0;
         double mag = 0;
         for (int l = 0; l < na; l++) {
            cd p = side ? toc(V[i + (size_t)l * ldv]) * tri_el(A, lda, uplo, t, diag, l, j)
                        : tri_el(A, lda, uplo, t, diag, i, l) * toc(V[l + (size_t)j * ldv]);
            sum += p;
            mag += std::abs(p);
         }
         cd ab = al * toc(B[i + (size_t)j * ldb]);
         if (solve)
            bad += !close_to(sum, ab, 2 * (na + 2) * u * (mag + std::abs(ab)) + 1e-300, what, i, j);
         else
            bad += !close_to(toc(G[e]), al * sum, 2 * (na + 2) * u * std::abs(al) * mag + 1e-300, what, i, j);
      }
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dB);
   if (!inplace && !solve)
      cudaFree(dC);
}

template <class T> static void level3(const char *tag)
{
   static const int ns[] = { 1, 7, 33, 130 };
   /* c/z syrk: op N and T (C is herk's) */
   cd al = is_cplx<T>() ? cd(1.5, 0.25) : 1.5;
   for (int uplo = 0; uplo < 2; uplo++)
      for (int t = 0; t < (is_cplx<T>() ? 2 : 3); t++) {
         for (int n : ns) {
            syrk<T>(tag, uplo, t, n, 31, n % 3, al, -0.5);
            syrk<T>(tag, uplo, t, n, 1, 1, 0.75, 0.);
         }
         syrk<T>(tag, uplo, t, 7, 0, 2, al, 2.);
         for (int mode = 1; mode < 3; mode++) {
            syrk<T>(tag, uplo, t, 33, 7, 1, al, -0.5, mode);
            syrk<T>(tag, uplo, t, 130, 1, 0, 0.75, 0., mode);
         }
      }
   static const int ssz[][2] = { { 1, 1 }, { 7, 33 }, { 130, 7 } };
   for (int side = 0; side < 2; side++)
      for (int uplo = 0; uplo < 2; uplo++)
         for (auto &z : ssz) {
            symm<T>(tag, side, uplo, z[0], z[1], z[0] % 3, al, -0.5);
            symm<T>(tag, side, uplo, z[0], z[1], 1, 0.75, 0.);
         }
   static const int sizes[][3] = { { 1, 1, 0 }, { 7, 33, 2 }, { 130, 7, 1 }, { 33, 130, 0 } };
   int c = 0;
   for (int side = 0; side < 2; side++)
      for (int uplo = 0; uplo < 2; uplo++)
         for (int t = 0; t < 3; t++)
            for (int diag = 0; diag < 2; diag++)
               for (auto &s : sizes) {
                  trxm<T>(tag, false, side, uplo, t, diag, s[0], s[1], s[2], al, c++ % 2);
                  trxm<T>(tag, true, side, uplo, t, diag, s[0], s[1], s[2], -0.75 * al, false);
               }
   trxm<T>(tag, false, 0, 1, 0, 0, 7, 5, 1, 0., false);
   trxm<T>(tag, true, 1, 0, 1, 0, 7, 5, 1, 0., false);
   /* A of 200: several blocks and a partial one where an implementation
    * blocks; alpha 0 and alpha in device memory there too */
   for (int side = 0; side < 2; side++)
      for (int uplo = 0; uplo < 2; uplo++)
         for (int t = 0; t < 3; t += 1 + !is_cplx<T>()) {
            int m = side ? 21 : 200, n = side ? 200 : 21;
            trxm<T>(tag, true, side, uplo, t, 0, m, n, 3, 1.25 * al, false, (uplo + t) % 2);
            trxm<T>(tag, false, side, uplo, t, 1, m, n, 3, -1.25, false, (uplo + t) % 2);
            trxm<T>(tag, false, side, uplo, t, 0, m, n, 1, al, true, false);
         }
   trxm<T>(tag, true, 0, 1, 1, 0, 200, 9, 0, 0., false, true);
   trxm<T>(tag, true, 1, 0, 0, 1, 9, 200, 0, 0., false, false);
   trxm<T>(tag, false, 1, 1, 1, 0, 9, 200, 0, 0., true, true);
}

/* ---- rotm, rotmg ---- */

template <class T> struct R;
#define RDEF(T, S)                                                                                   \
   template <> struct R<T> {                                                                       \
      static cublasStatus_t rotm(int n, T *x, int ix, T *y, int iy, const T *p) { return cublas##S##rotm(H, n, x, ix, y, iy, p); } \
      static cublasStatus_t rotmg(T *d1, T *d2, T *x1, const T *y1, T *p) { return cublas##S##rotmg(H, d1, d2, x1, y1, p); } \
   };
RDEF(float, S)
RDEF(double, D)

/* H of a rotm parameter vector as BLAS defines it: h11 h21 h12 h22 */
static void hmat_of(const double *p, double *hm)
{
   hm[0] = p[0] == 0 ? 1 : p[0] == -2 ? 1 : p[1];
   hm[1] = p[0] == 1 ? -1 : p[0] == -1 ? p[2] : p[0] == 0 ? p[2] : 0;
   hm[2] = p[0] == 1 ? 1 : p[0] == -1 ? p[3] : p[0] == 0 ? p[3] : 0;
   hm[3] = p[0] == 0 ? 1 : p[0] == -2 ? 1 : p[4];
}

template <class T> static void rotm(const char *tag, double flag, int n, int ix, int iy, bool devp)
{
   double u = unit_roundoff<T>();
   int ax = ix < 0 ? -ix : ix, ay = iy < 0 ? -iy : iy;
   std::vector<T> x((size_t)n * ax), y((size_t)n * ay);
   for (auto &v : x) v = rndT<T>();
   for (auto &v : y) v = rndT<T>();
   /* entries the flag says are implicit hold values that would show if used */
   std::vector<T> p = { (T)flag, (T)0.75, (T)-0.5, (T)0.25, (T)1.25 };
   double pd[5], hm[4];
   for (int i = 0; i < 5; i++)
      pd[i] = p[i];
   hmat_of(pd, hm);
   T *dx = dev(x), *dy = dev(y), *dp = dev(p);
   if (devp)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(R<T>::rotm(n, dx, ix, dy, iy, devp ? dp : p.data()), CUBLAS_STATUS_SUCCESS);
   if (devp)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
   std::vector<T> gx = host(dx, x.size()), gy = host(dy, y.size());
   long bad = 0;
   char what[96];
   snprintf(what, sizeof(what), "%s rotm flag=%g n=%d incx=%d incy=%d dev=%d", tag, flag, n, ix, iy, devp);
   for (int i = 0; i < n; i++) {
      double xv = x[at(i, n, ix)], yv = y[at(i, n, iy)];
      double wx = hm[0] * xv + hm[2] * yv, wy = hm[1] * xv + hm[3] * yv;
      bad += !close_to((double)gx[at(i, n, ix)], wx, 2 * u * (fabs(hm[0] * xv) + fabs(hm[2] * yv)) + 1e-300, what, i, 0);
      bad += !close_to((double)gy[at(i, n, iy)], wy, 2 * u * (fabs(hm[1] * xv) + fabs(hm[3] * yv)) + 1e-300, what, i, 1);
   }
   CHECK_INT(bad, 0);
   cudaFree(dx); cudaFree(dy); cudaFree(dp);
}

/* rotmg by its definition: H (x1, y1) = (x1', 0) and the weighted norm
 * d1 x1^2 + d2 y1^2 = d1' x1'^2; or the degenerate answers BLAS defines:
 * flag -2 with d1, d2, x1 unchanged when d2 y1 = 0, flag -1 and zeros for
 * d1 < 0 */
template <class T> static void rotmg(const char *tag, double d1, double d2, double x1, double y1, bool devp)
{
   double u = unit_roundoff<T>();
   std::vector<T> v = { (T)d1, (T)d2, (T)x1, (T)y1 }, p(5, (T)0);
   T *dv = dev(v), *dp = dev(p);
   if (devp) {
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(R<T>::rotmg(dv, dv + 1, dv + 2, dv + 3, dp), CUBLAS_STATUS_SUCCESS);
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
      v = host(dv, 4);
      p = host(dp, 5);
   } else {
      CHECK_ST(R<T>::rotmg(&v[0], &v[1], &v[2], &v[3], p.data()), CUBLAS_STATUS_SUCCESS);
   }
   char what[96];
   snprintf(what, sizeof(what), "%s rotmg (%g %g %g %g) dev=%d", tag, d1, d2, x1, y1, devp);
   double x1in = (T)x1, y1in = (T)y1, d1in = (T)d1, d2in = (T)d2;
   if (d1 < 0) {
      CHECK(p[0] == (T)-1 && v[0] == 0 && v[1] == 0 && v[2] == 0);
   } else if (d2in * y1in == 0) {
      CHECK(p[0] == (T)-2 && v[0] == (T)d1 && v[1] == (T)d2 && v[2] == (T)x1);
   } else {
      double pd[5], hm[4];
      for (int i = 0; i < 5; i++)
         pd[i] = p[i];
      CHECK(pd[0] == -1 || pd[0] == 0 || pd[0] == 1);
      hmat_of(pd, hm);
      double a = hm[0] * x1in + hm[2] * y1in, b = hm[1] * x1in + hm[3] * y1in;
      double mag = fabs(hm[0] * x1in) + fabs(hm[2] * y1in), magb = fabs(hm[1] * x1in) + fabs(hm[3] * y1in);
      CHECK(close_to(b, 0, 8 * u * magb + 1e-300, what, 0, 1));
      CHECK(close_to(a, (double)v[2], 8 * u * mag + 1e-300, what, 0, 0));
      double nin = d1in * x1in * x1in + d2in * y1in * y1in, nout = (double)v[0] * v[2] * v[2];
      CHECK(close_to(nout, nin, 16 * u * fabs(nin), what, 1, 0));
   }
   /* double: the same answer as OpenBLAS's drotmg where present */
   void (*drotmg)(double *, double *, double *, double, double *) = NULL;
   if (O.lib)
      *(void **)&drotmg = dlsym(O.lib, "cblas_drotmg");
   if (drotmg && sizeof(T) == 8) {
      double w[3] = { d1, d2, x1 }, q[5] = { 0, 0, 0, 0, 0 };
      drotmg(&w[0], &w[1], &w[2], y1, q);
      long bad = 0;
      for (int i = 0; i < 3; i++)
         bad += !close_to((double)v[i], w[i], 1e-14 * fabs(w[i]), what, 2, i);
      for (int i = 0; i < 5; i++)
         bad += (i == 0 || q[0] == -1 || (q[0] == 0 && (i == 2 || i == 3)) || (q[0] == 1 && (i == 1 || i == 4))) &&
                !close_to((double)p[i], q[i], 1e-14 * fabs(q[i]), what, 3, i);
      CHECK_INT(bad, 0);
   }
   cudaFree(dv); cudaFree(dp);
}

template <class T> static void rotations(const char *tag)
{
   static const double flags[] = { -1, 0, 1, -2 };
   for (double f : flags)
      for (int devp = 0; devp < 2; devp++) {
         rotm<T>(tag, f, 37, 1, 1, devp);
         rotm<T>(tag, f, 130, 2, -3, devp);
      }
   for (int devp = 0; devp < 2; devp++) {
      rotmg<T>(tag, 2, 3, 1.5, 0.7, devp);     /* |q1| > |q2|: flag 0 */
      rotmg<T>(tag, 1, 1, 0.1, 5, devp);       /* flag 1 */
      rotmg<T>(tag, 1e-9, 1, 1, 1e-3, devp);   /* d1 rescaled: flag -1 */
      rotmg<T>(tag, 1e9, 1, 1, 1e3, devp);     /* d1 and d2 rescaled */
      rotmg<T>(tag, -1, 1, 1, 1, devp);        /* d1 < 0 */
      rotmg<T>(tag, 1, 0, 1, 1, devp);         /* d2 y1 = 0: flag -2 */
   }
}

/* what cuBLAS's documentation states for geam: an in-place C must have
 * ldc = lda (ldb) and op N on its side */
static void bad_args(void)
{
   float one = 1, *d;
   CHECK_CUDA(cudaMalloc(&d, 4096));
   CHECK_CUDA(cudaMemset(d, 0, 4096));
   CHECK_ST(cublasSgeam(H, CUBLAS_OP_T, CUBLAS_OP_N, 4, 4, &one, d, 4, &one, d + 512, 4, d, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgeam(H, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, &one, d + 512, 4, &one, d, 5, d, 4),
            CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgeam(H, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, &one, d, 4, &one, d + 512, 4, d, 4),
            CUBLAS_STATUS_SUCCESS);
   cudaFree(d);
}

int main(void)
{
   check_begin("cublas_l23");
   O = oracle_open();
   CHECK_ST(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
   extensions<float>("S");
   extensions<double>("D");
   extensions<cuComplex>("C");
   extensions<cuDoubleComplex>("Z");
   level2<float>("S");
   level2<double>("D");
   level3<float>("S");
   level3<double>("D");
   level2<cuComplex>("C");
   level2<cuDoubleComplex>("Z");
   level3<cuComplex>("C");
   level3<cuDoubleComplex>("Z");
   rotations<float>("S");
   rotations<double>("D");
   bad_args();
   CHECK_ST(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
