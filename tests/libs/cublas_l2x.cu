/*
 * cublas_l2x.cu — the rest of cuBLAS Level 2 and the Hermitian Level 3
 * through the library a program links: gemv (c z), gbmv, hemv, sbmv/hbmv,
 * spmv/hpmv, geru/gerc, syr/her, syr2/her2, spr/hpr, spr2/hpr2, tbmv,
 * tbsv, tpmv, tpsv (s d c z as cuBLAS has them), herk, herkx, her2k, hemm
 * (c z), trsmBatched, gemvBatched, gemvStridedBatched, getrfBatched,
 * getrsBatched, getriBatched, matinvBatched, geqrfBatched, gelsBatched
 * (s d c z), the half and bfloat16 gemv batches (HSH HSS TST TSS),
 * CsyrkEx/Csyrk3mEx/CherkEx/Cherk3mEx (CUDA_C_32F); every
 * fill mode and transpose, unit and non-unit diagonals, sizes
 * 1, 7, 33 and 130 with leading dimensions larger than the matrix (the
 * padding must stay untouched) and bands narrower and wider than the
 * matrix, increments 1, 2 and negative (the gaps untouched), beta = 0 over
 * NaN (y or C is then not read), scalars in device memory, Hermitian
 * diagonals with imaginary parts (not read by a product), and the argument
 * errors cuBLAS documents.
 *
 * Expected values: OpenBLAS (oracle.h), its complex double routines for
 * every type (real data in complex double; a Hermitian routine then is
 * the symmetric one, syr/syr2 are syrk/syr2k with k = 1), compared within
 * the standard error bound (oracle.h): for a sum of k products
 *    |got - want| <= 2 (k + 2) u (|alpha| (|A| |x|)_i + |beta| |y_i|),
 * the right-hand side computed by the same OpenBLAS routine on the
 * absolute values; a triangular solve by its residual (Higham, Thm 8.5),
 *    |b - op(A) x| <= 2 (n + 2) u (|op(A)| |x|)_i.
 * Entries a routine must not read (outside the stored triangle or band, a
 * unit diagonal) hold 1e6, so using them breaks the result.  No fallback:
 * without OpenBLAS the program fails (it has no other oracle).
 * MC_TEST_FULL / --full: the sizes 257 and 300 as well.
 */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "../cuda/check.h"
#include "oracle.h"
#include "transfer.h"

#include <complex>
#include <functional>
#include <vector>

typedef std::complex<double> cd;
typedef std::vector<cd> vcd;
static cublasHandle_t H;
static struct oracle O;
static bool full;

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

/* the unit roundoff a bound uses: a complex multiply-add is four real ones */
template <class T> static double ub()
{
   double u = sizeof(T) == 4 || (sizeof(T) == 8 && is_cplx<T>()) ? 0x1p-24 : 0x1p-53;
   return is_cplx<T>() ? 2 * u : u;
}
template <class T> static T rndT() { return fromc<T>(is_cplx<T>() ? cd(rnd(), rnd()) : cd(rnd(), 0)); }
template <class T> static T nanT() { return fromc<T>(cd(NAN, NAN)); }
static const double GARBAGE = 1e6;

template <class T> static vcd Z(const std::vector<T> &v)
{
   vcd z(v.size());
   for (size_t i = 0; i < v.size(); i++)
      z[i] = toc(v[i]);
   return z;
}
static vcd zabs(const vcd &v)
{
   vcd z(v.size());
   for (size_t i = 0; i < v.size(); i++)
      z[i] = std::abs(v[i]);
   return z;
}
static long at(int i, int n, int inc) { return inc >= 0 ? (long)i * inc : (long)(n - 1 - i) * -inc; }
/* a vector of n elements with increment inc (its gaps random) */
template <class T> static std::vector<T> vec(int n, int inc)
{
   std::vector<T> v((size_t)(n > 0 ? (n - 1) * (long)(inc < 0 ? -inc : inc) + 1 : 1));
   for (auto &e : v) e = rndT<T>();
   return v;
}
/* the vector's elements in BLAS order, contiguous */
static vcd gather(const vcd &v, int n, int inc)
{
   vcd g(n > 0 ? n : 1);
   for (int i = 0; i < n; i++)
      g[i] = v[at(i, n, inc)];
   return g;
}

static long fails_shown;
/* got against want: within 2 (k + 2) u mag where touched; bit for bit
 * where keep(e) (gaps, padding, the other triangle) */
template <class T>
static void compare(const char *what, const std::vector<T> &got, const vcd &want, const vcd &mag,
                    const std::vector<T> &in, int k, const std::function<bool(size_t)> &keep)
{
   long bad = 0;
   double u = ub<T>();
   for (size_t e = 0; e < got.size(); e++) {
      bool ok;
      if (keep(e)) {
         ok = memcmp(&got[e], &in[e], sizeof(T)) == 0;
      } else {
         double bound = 2 * (k + 2) * u * std::abs(mag[e]) + 1e-300;
         ok = std::abs(toc(got[e]) - want[e]) <= bound;   /* false for NaN */
      }
      if (!ok && fails_shown++ < 12)
         printf("  %s [%zu]: got (%.17g, %.17g), want (%.17g, %.17g)%s\n", what, e, toc(got[e]).real(),
                toc(got[e]).imag(), want[e].real(), want[e].imag(), keep(e) ? " untouched" : "");
      bad += !ok;
   }
   CHECK_INT(bad, 0);
}

/* ---- the cuBLAS calls, overloaded on the element type ---- */

#define FOR_ALL(M) M(float, S) M(double, D) M(cuComplex, C) M(cuDoubleComplex, Z)
#define FOR_CPLX(M) M(cuComplex, C, float) M(cuDoubleComplex, Z, double)
typedef cublasFillMode_t UP;
typedef cublasOperation_t OP;
typedef cublasDiagType_t DG;
#define W_ALL(T, S)                                                                                  \
   static cublasStatus_t gemv(OP t, int m, int n, const T *al, const T *A, int lda, const T *x, int ix, const T *be, \
                              T *y, int iy)                                                         \
   {                                                                                                \
      return cublas##S##gemv(H, t, m, n, al, A, lda, x, ix, be, y, iy);                             \
   }                                                                                                \
   static cublasStatus_t gbmv(OP t, int m, int n, int kl, int ku, const T *al, const T *A, int lda, const T *x, \
                              int ix, const T *be, T *y, int iy)                                    \
   {                                                                                                \
      return cublas##S##gbmv(H, t, m, n, kl, ku, al, A, lda, x, ix, be, y, iy);                     \
   }                                                                                                \
   static cublasStatus_t syr(UP u, int n, const T *al, const T *x, int ix, T *A, int lda)           \
   {                                                                                                \
      return cublas##S##syr(H, u, n, al, x, ix, A, lda);                                            \
   }                                                                                                \
   static cublasStatus_t syr2(UP u, int n, const T *al, const T *x, int ix, const T *y, int iy, T *A, int lda) \
   {                                                                                                \
      return cublas##S##syr2(H, u, n, al, x, ix, y, iy, A, lda);                                    \
   }                                                                                                \
   static cublasStatus_t tbxv(bool solve, UP u, OP t, DG d, int n, int k, const T *A, int lda, T *x, int ix) \
   {                                                                                                \
      return solve ? cublas##S##tbsv(H, u, t, d, n, k, A, lda, x, ix) : cublas##S##tbmv(H, u, t, d, n, k, A, lda, x, ix); \
   }                                                                                                \
   static cublasStatus_t tpxv(bool solve, UP u, OP t, DG d, int n, const T *A, T *x, int ix)        \
   {                                                                                                \
      return solve ? cublas##S##tpsv(H, u, t, d, n, A, x, ix) : cublas##S##tpmv(H, u, t, d, n, A, x, ix); \
   }                                                                                                \
   static cublasStatus_t gemvb(OP t, int m, int n, const T *al, const T *const *A, int lda, const T *const *x, int ix, \
                               const T *be, T *const *y, int iy, int batch)                         \
   {                                                                                                \
      return cublas##S##gemvBatched(H, t, m, n, al, A, lda, x, ix, be, y, iy, batch);               \
   }                                                                                                \
   static cublasStatus_t gemvsb(OP t, int m, int n, const T *al, const T *A, int lda, long long sA, const T *x, int ix, \
                                long long sx, const T *be, T *y, int iy, long long sy, int batch)   \
   {                                                                                                \
      return cublas##S##gemvStridedBatched(H, t, m, n, al, A, lda, sA, x, ix, sx, be, y, iy, sy, batch); \
   }                                                                                                \
   static cublasStatus_t getrf(int n, T *const *A, int lda, int *P, int *info, int batch)           \
   {                                                                                                \
      return cublas##S##getrfBatched(H, n, A, lda, P, info, batch);                                 \
   }                                                                                                \
   static cublasStatus_t getrs(OP t, int n, int nrhs, const T *const *A, int lda, const int *P, T *const *B, int ldb, \
                               int *info, int batch)                                                \
   {                                                                                                \
      return cublas##S##getrsBatched(H, t, n, nrhs, A, lda, P, B, ldb, info, batch);                \
   }                                                                                                \
   static cublasStatus_t getri(int n, const T *const *A, int lda, const int *P, T *const *C, int ldc, int *info, \
                               int batch)                                                           \
   {                                                                                                \
      return cublas##S##getriBatched(H, n, A, lda, P, C, ldc, info, batch);                         \
   }                                                                                                \
   static cublasStatus_t matinv(int n, const T *const *A, int lda, T *const *X, int ldx, int *info, int batch) \
   {                                                                                                \
      return cublas##S##matinvBatched(H, n, A, lda, X, ldx, info, batch);                           \
   }                                                                                                \
   static cublasStatus_t geqrf(int m, int n, T *const *A, int lda, T *const *tau, int *info, int batch) \
   {                                                                                                \
      return cublas##S##geqrfBatched(H, m, n, A, lda, tau, info, batch);                            \
   }                                                                                                \
   static cublasStatus_t gels(int m, int n, int nrhs, T *const *A, int lda, T *const *C, int ldc, int *info, \
                              int *dinfo, int batch)                                                \
   {                                                                                                \
      return cublas##S##gelsBatched(H, CUBLAS_OP_N, m, n, nrhs, A, lda, C, ldc, info, dinfo, batch); \
   }                                                                                                \
   static cublasStatus_t trsmb(cublasSideMode_t s, UP u, OP t, DG d, int m, int n, const T *al, const T *const *A, \
                               int lda, T *const *B, int ldb, int batch)                            \
   {                                                                                                \
      return cublas##S##trsmBatched(H, s, u, t, d, m, n, al, A, lda, B, ldb, batch);                \
   }
FOR_ALL(W_ALL)
/* s/d: sbmv spmv spr spr2 (syr as the Hermitian rank 1 of real data) */
#define W_REAL(T, S)                                                                                 \
   static cublasStatus_t sbmv(UP u, int n, int k, const T *al, const T *A, int lda, const T *x, int ix, const T *be, \
                              T *y, int iy)                                                         \
   {                                                                                                \
      return cublas##S##sbmv(H, u, n, k, al, A, lda, x, ix, be, y, iy);                             \
   }                                                                                                \
   static cublasStatus_t spmv(UP u, int n, const T *al, const T *A, const T *x, int ix, const T *be, T *y, int iy) \
   {                                                                                                \
      return cublas##S##spmv(H, u, n, al, A, x, ix, be, y, iy);                                     \
   }                                                                                                \
   static cublasStatus_t spr(UP u, int n, const T *al, const T *x, int ix, T *A)                    \
   {                                                                                                \
      return cublas##S##spr(H, u, n, al, x, ix, A);                                                 \
   }                                                                                                \
   static cublasStatus_t spr2(UP u, int n, const T *al, const T *x, int ix, const T *y, int iy, T *A) \
   {                                                                                                \
      return cublas##S##spr2(H, u, n, al, x, ix, y, iy, A);                                         \
   }
W_REAL(float, S)
W_REAL(double, D)
/* c/z: the Hermitian forms under the same names, geru/gerc, herk ... */
#define W_CPLX(T, S, R)                                                                              \
   static cublasStatus_t sbmv(UP u, int n, int k, const T *al, const T *A, int lda, const T *x, int ix, const T *be, \
                              T *y, int iy)                                                         \
   {                                                                                                \
      return cublas##S##hbmv(H, u, n, k, al, A, lda, x, ix, be, y, iy);                             \
   }                                                                                                \
   static cublasStatus_t spmv(UP u, int n, const T *al, const T *A, const T *x, int ix, const T *be, T *y, int iy) \
   {                                                                                                \
      return cublas##S##hpmv(H, u, n, al, A, x, ix, be, y, iy);                                     \
   }                                                                                                \
   static cublasStatus_t spr(UP u, int n, const R *al, const T *x, int ix, T *A)                    \
   {                                                                                                \
      return cublas##S##hpr(H, u, n, al, x, ix, A);                                                 \
   }                                                                                                \
   static cublasStatus_t spr2(UP u, int n, const T *al, const T *x, int ix, const T *y, int iy, T *A) \
   {                                                                                                \
      return cublas##S##hpr2(H, u, n, al, x, ix, y, iy, A);                                         \
   }                                                                                                \
   static cublasStatus_t hemv(UP u, int n, const T *al, const T *A, int lda, const T *x, int ix, const T *be, T *y, \
                              int iy)                                                               \
   {                                                                                                \
      return cublas##S##hemv(H, u, n, al, A, lda, x, ix, be, y, iy);                                \
   }                                                                                                \
   static cublasStatus_t ger(bool c, int m, int n, const T *al, const T *x, int ix, const T *y, int iy, T *A, int lda) \
   {                                                                                                \
      return c ? cublas##S##gerc(H, m, n, al, x, ix, y, iy, A, lda) : cublas##S##geru(H, m, n, al, x, ix, y, iy, A, lda); \
   }                                                                                                \
   static cublasStatus_t her(UP u, int n, const R *al, const T *x, int ix, T *A, int lda)           \
   {                                                                                                \
      return cublas##S##her(H, u, n, al, x, ix, A, lda);                                            \
   }                                                                                                \
   static cublasStatus_t her2(UP u, int n, const T *al, const T *x, int ix, const T *y, int iy, T *A, int lda) \
   {                                                                                                \
      return cublas##S##her2(H, u, n, al, x, ix, y, iy, A, lda);                                    \
   }                                                                                                \
   static cublasStatus_t herk(UP u, OP t, int n, int k, const R *al, const T *A, int lda, const R *be, T *C, int ldc) \
   {                                                                                                \
      return cublas##S##herk(H, u, t, n, k, al, A, lda, be, C, ldc);                                \
   }                                                                                                \
   static cublasStatus_t herkx(bool two, UP u, OP t, int n, int k, const T *al, const T *A, int lda, const T *B, \
                               int ldb, const R *be, T *C, int ldc)                                 \
   {                                                                                                \
      return two ? cublas##S##her2k(H, u, t, n, k, al, A, lda, B, ldb, be, C, ldc)                  \
                 : cublas##S##herkx(H, u, t, n, k, al, A, lda, B, ldb, be, C, ldc);                 \
   }                                                                                                \
   static cublasStatus_t hemm(cublasSideMode_t s, UP u, int m, int n, const T *al, const T *A, int lda, const T *B, \
                              int ldb, const T *be, T *C, int ldc)                                  \
   {                                                                                                \
      return cublas##S##hemm(H, s, u, m, n, al, A, lda, B, ldb, be, C, ldc);                        \
   }
FOR_CPLX(W_CPLX)

/* a scalar for the call: the host value, or a device copy */
template <class S> struct scal {
   S v;
   S *d;
   scal(S v_) : v(v_), d(dev(std::vector<S>(1, v_))) {}
   ~scal() { cudaFree(d); }
   const S *p(bool devscal) const { return devscal ? d : &v; }
};
static void pmode(bool devscal)
{
   CHECK_ST(cublasSetPointerMode(H, devscal ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST),
            CUBLAS_STATUS_SUCCESS);
}
static int cuplo(int uplo) { return uplo ? CB_UPPER : CB_LOWER; }

/* ---- products: gemv gbmv hemv sbmv/hbmv spmv/hpmv ---- */

enum { K_GEMV, K_GBMV, K_HEMV, K_SBMV, K_SPMV };
static const char *kname[] = { "gemv", "gbmv", "hemv", "sbmv/hbmv", "spmv/hpmv" };

/* y = alpha op(A) x + beta y; A m x n (kinds 2-4: n x n, one triangle
 * stored, t the fill mode); kl, ku the band (sbmv: kl the half width) */
template <class T>
static void mv(int kind, int t, int m, int n, int kl, int ku, int pad, int ix, int iy, cd al, cd be, bool devscal)
{
   bool sym = kind >= K_HEMV, tr = !sym && t != 0, herm = is_cplx<T>();
   int uplo = t;
   if (sym)
      m = n;
   int lda = kind == K_GBMV ? kl + ku + 1 + pad : kind == K_SBMV ? kl + 1 + pad : kind == K_SPMV ? 0 : m + pad;
   size_t asz = kind == K_SPMV ? (size_t)n * (n + 1) / 2 : (size_t)lda * n;
   std::vector<T> A(asz ? asz : 1);
   std::vector<bool> isdiag(A.size(), false);
   for (size_t e = 0; e < asz; e++) {
      int r = kind == K_SPMV ? 0 : (int)(e % lda), j = kind == K_SPMV ? 0 : (int)(e / lda), i = r;
      bool used = true;
      if (kind == K_GBMV)
         i = j + r - ku, used = r < kl + ku + 1 && i >= 0 && i < m;
      else if (kind == K_SBMV)
         i = uplo ? j + r - kl : j + r, used = r <= kl && i >= 0 && i < n;
      else if (kind == K_HEMV)
         used = i < n && (uplo ? i <= j : i >= j);
      else if (kind == K_GEMV)
         used = i < m;
      if (kind == K_SPMV) {   /* packed: column j of e */
         long c = 0, off = e;
         while (off >= (uplo ? c + 1 : n - c))
            off -= uplo ? c + 1 : n - c, c++;
         j = (int)c;
         i = uplo ? (int)off : (int)(c + off);
      }
      A[e] = used ? rndT<T>() : fromc<T>(GARBAGE);
      isdiag[e] = used && sym && i == j;
   }
   int lx = tr ? m : n, ly = tr ? n : m;
   std::vector<T> x = vec<T>(lx, ix), y = vec<T>(ly, iy);
   std::vector<T> y0 = y;
   if (be == 0.)
      for (int i = 0; i < ly; i++)
         y0[at(i, ly, iy)] = nanT<T>();
   T *dA = dev(A), *dx = dev(x), *dy = dev(y0);
   scal<T> a(fromc<T>(al)), b(fromc<T>(be));
   pmode(devscal);
   cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
   OP op = (OP)t;
   UP up = (UP)uplo;
   if constexpr (is_cplx<T>()) {
      if (kind == K_HEMV)
         st = hemv(up, n, a.p(devscal), dA, lda, dx, ix, b.p(devscal), dy, iy);
   }
   if (kind == K_GEMV)
      st = gemv(op, m, n, a.p(devscal), dA, lda, dx, ix, b.p(devscal), dy, iy);
   if (kind == K_GBMV)
      st = gbmv(op, m, n, kl, ku, a.p(devscal), dA, lda, dx, ix, b.p(devscal), dy, iy);
   if (kind == K_SBMV)
      st = sbmv(up, n, kl, a.p(devscal), dA, lda, dx, ix, b.p(devscal), dy, iy);
   if (kind == K_SPMV)
      st = spmv(up, n, a.p(devscal), dA, dx, ix, b.p(devscal), dy, iy);
   CHECK_ST(st, CUBLAS_STATUS_SUCCESS);
   pmode(false);
   std::vector<T> G = host(dy, y.size());
   /* the reference: BLAS's meaning of the Hermitian diagonal (real), y
    * unread under beta = 0 */
   vcd zA = Z(A), zx = Z(x), zy = Z(y), wy, my;
   for (size_t e = 0; e < A.size(); e++)
      if (isdiag[e] && herm)
         zA[e] = zA[e].real();
   if (be == 0.)
      for (auto &v : zy) v = 0;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, px = pass ? zabs(zx) : zx, py = pass ? zabs(zy) : zy;
      cd pal = pass ? std::abs(al) : al, pbe = pass ? std::abs(be) : be;
      if (kind == K_GEMV)
         O.zgemv(CB_COLMAJOR, cblas_op(t), m, n, &pal, PA.data(), lda, px.data(), ix, &pbe, py.data(), iy);
      if (kind == K_GBMV)
         O.zgbmv(CB_COLMAJOR, cblas_op(t), m, n, kl, ku, &pal, PA.data(), lda, px.data(), ix, &pbe, py.data(), iy);
      if (kind == K_HEMV)
         O.zhemv(CB_COLMAJOR, cuplo(uplo), n, &pal, PA.data(), lda, px.data(), ix, &pbe, py.data(), iy);
      if (kind == K_SBMV)
         O.zhbmv(CB_COLMAJOR, cuplo(uplo), n, kl, &pal, PA.data(), lda, px.data(), ix, &pbe, py.data(), iy);
      if (kind == K_SPMV)
         O.zhpmv(CB_COLMAJOR, cuplo(uplo), n, &pal, PA.data(), px.data(), ix, &pbe, py.data(), iy);
      (pass ? my : wy) = py;
   }
   char what[160];
   snprintf(what, sizeof(what), "%s m=%d n=%d kl=%d ku=%d t=%d incx=%d incy=%d beta=%g dev=%d", kname[kind], m, n, kl,
            ku, t, ix, iy, be.real(), devscal);
   int len = kind == K_GBMV ? kl + ku + 1 : kind == K_SBMV ? 2 * kl + 1 : tr ? m : n;
   int ay = iy < 0 ? -iy : iy;
   compare(what, G, wy, my, y0, len, [&](size_t e) { return e % ay != 0; });
   cudaFree(dA); cudaFree(dx); cudaFree(dy);
}

/* ---- rank updates: geru gerc syr her syr2 her2 spr/hpr spr2/hpr2 ---- */

enum { R_GERU, R_GERC, R_SYR, R_HER, R_SYR2, R_HER2, R_SPR, R_SPR2 };
static const char *rname[] = { "geru", "gerc", "syr", "her", "syr2", "her2", "spr/hpr", "spr2/hpr2" };

template <class T> static void rank(int kind, int uplo, int m, int n, int pad, int ix, int iy, cd al, bool devscal)
{
   bool gen = kind <= R_GERC, packed = kind >= R_SPR, two = kind == R_SYR2 || kind == R_HER2 || kind == R_SPR2;
   bool herm = kind == R_HER || kind == R_HER2 || (packed && is_cplx<T>());
   if (!gen)
      m = n;
   int lda = packed ? 0 : m + pad;
   size_t asz = packed ? (size_t)n * (n + 1) / 2 : (size_t)lda * n;
   std::vector<T> A(asz ? asz : 1);
   std::vector<bool> keep(A.size(), packed ? false : true);
   for (size_t e = 0; e < asz; e++) {
      A[e] = rndT<T>();
      if (packed)
         continue;
      int i = (int)(e % lda), j = (int)(e / lda);
      keep[e] = i >= m || (!gen && (uplo ? i > j : i < j));
      if (herm && i == j)   /* an update's input diagonal: real */
         A[e] = fromc<T>(toc(A[e]).real());
   }
   if (packed && herm)
      for (int j = 0; j < n; j++) {
         size_t d = uplo ? j + (size_t)j * (j + 1) / 2 : (size_t)j * (2 * n - j + 1) / 2;
         A[d] = fromc<T>(toc(A[d]).real());
      }
   std::vector<T> x = vec<T>(m, ix), y = vec<T>(n, iy);
   T *dA = dev(A), *dx = dev(x), *dy = dev(y);
   /* her, hpr: alpha real */
   bool areal = (kind == R_HER || (kind == R_SPR && is_cplx<T>()));
   if (areal)
      al = al.real();
   scal<T> a(fromc<T>(al));
   pmode(devscal);
   cublasStatus_t st = CUBLAS_STATUS_SUCCESS;
   UP up = (UP)uplo;
   if constexpr (is_cplx<T>()) {
      typedef typename std::conditional<sizeof(T) == 8, float, double>::type R;
      scal<R> ar((R)al.real());
      if (kind <= R_GERC)
         st = ger(kind == R_GERC, m, n, a.p(devscal), dx, ix, dy, iy, dA, lda);
      if (kind == R_HER)
         st = her(up, n, ar.p(devscal), dx, ix, dA, lda);
      if (kind == R_HER2)
         st = her2(up, n, a.p(devscal), dx, ix, dy, iy, dA, lda);
      if (kind == R_SPR)
         st = spr(up, n, ar.p(devscal), dx, ix, dA);
   } else {
      if (kind == R_SPR)
         st = spr(up, n, a.p(devscal), dx, ix, dA);
   }
   if (kind == R_SYR)
      st = syr(up, n, a.p(devscal), dx, ix, dA, lda);
   if (kind == R_SYR2)
      st = syr2(up, n, a.p(devscal), dx, ix, dy, iy, dA, lda);
   if (kind == R_SPR2)
      st = spr2(up, n, a.p(devscal), dx, ix, dy, iy, dA);
   CHECK_ST(st, CUBLAS_STATUS_SUCCESS);
   pmode(false);
   std::vector<T> G = host(dA, A.size());
   vcd zA = Z(A), zx = Z(x), zy = Z(y), wA, mA;
   cd one = 1;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, px = pass ? zabs(zx) : zx, py = pass ? zabs(zy) : zy;
      cd pal = pass ? std::abs(al) : al;
      vcd gx = gather(px, m, ix), gy = gather(py, n, iy);
      switch (kind) {
      case R_GERU: O.zgeru(CB_COLMAJOR, m, n, &pal, px.data(), ix, py.data(), iy, PA.data(), lda); break;
      case R_GERC: O.zgerc(CB_COLMAJOR, m, n, &pal, px.data(), ix, py.data(), iy, PA.data(), lda); break;
      case R_SYR: O.zsyrk(CB_COLMAJOR, cuplo(uplo), CB_NOTRANS, n, 1, &pal, gx.data(), n, &one, PA.data(), lda); break;
      case R_HER: O.zher(CB_COLMAJOR, cuplo(uplo), n, pal.real(), px.data(), ix, PA.data(), lda); break;
      case R_SYR2:
         O.zsyr2k(CB_COLMAJOR, cuplo(uplo), CB_NOTRANS, n, 1, &pal, gx.data(), n, gy.data(), n, &one, PA.data(), lda);
         break;
      case R_HER2: O.zher2(CB_COLMAJOR, cuplo(uplo), n, &pal, px.data(), ix, py.data(), iy, PA.data(), lda); break;
      case R_SPR: O.zhpr(CB_COLMAJOR, cuplo(uplo), n, pal.real(), px.data(), ix, PA.data()); break;
      case R_SPR2: O.zhpr2(CB_COLMAJOR, cuplo(uplo), n, &pal, px.data(), ix, py.data(), iy, PA.data()); break;
      }
      (pass ? mA : wA) = PA;
   }
   char what[160];
   snprintf(what, sizeof(what), "%s uplo=%d m=%d n=%d incx=%d incy=%d dev=%d", rname[kind], uplo, m, n, ix, iy, devscal);
   compare(what, G, wA, mA, A, two ? 2 : 1, [&](size_t e) { return (bool)keep[e]; });
   cudaFree(dA); cudaFree(dx); cudaFree(dy);
}

/* ---- triangular band and packed: tbmv tbsv tpmv tpsv ---- */

template <class T> static void tri(bool packed, bool solve, int uplo, int t, int diag, int n, int k, int pad, int ix)
{
   int lda = packed ? 0 : k + 1 + pad;
   size_t asz = packed ? (size_t)n * (n + 1) / 2 : (size_t)lda * n;
   std::vector<T> A(asz ? asz : 1);
   int w = packed ? n : k + 1;   /* entries per row: keep the solve well conditioned */
   for (size_t e = 0; e < asz; e++) {
      int i, j;
      bool used = true;
      if (packed) {
         long c = 0, off = e;
         while (off >= (uplo ? c + 1 : n - c))
            off -= uplo ? c + 1 : n - c, c++;
         j = (int)c;
         i = uplo ? (int)off : (int)(c + off);
      } else {
         int r = (int)(e % lda);
         j = (int)(e / lda);
         i = uplo ? j + r - k : j + r;
         used = r <= k && i >= 0 && i < n;
      }
      cd v = GARBAGE;
      if (used && i != j)
         v = cd(rnd(), is_cplx<T>() ? rnd() : 0) / (double)w;
      else if (used && !diag)
         v = cd(1.5 + rnd() / 2, is_cplx<T>() ? rnd() / 4 : 0);
      A[e] = fromc<T>(v);
   }
   std::vector<T> x = vec<T>(n, ix);
   T *dA = dev(A), *dx = dev(x);
   CHECK_ST(packed ? tpxv(solve, (UP)uplo, (OP)t, (DG)diag, n, dA, dx, ix)
                   : tbxv(solve, (UP)uplo, (OP)t, (DG)diag, n, k, dA, lda, dx, ix),
            CUBLAS_STATUS_SUCCESS);
   std::vector<T> G = host(dx, x.size());
   /* trmv: op(A) x against the result; trsv: op(A) times the result
    * against x (the residual) */
   vcd zA = Z(A), v = Z(solve ? G : x), pv, mv_;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, p = pass ? zabs(v) : v;
      if (packed)
         O.ztpmv(CB_COLMAJOR, cuplo(uplo), cblas_op(t), diag ? CB_UNIT : CB_NONUNIT, n, PA.data(), p.data(), ix);
      else
         O.ztbmv(CB_COLMAJOR, cuplo(uplo), cblas_op(t), diag ? CB_UNIT : CB_NONUNIT, n, k, PA.data(), lda, p.data(), ix);
      (pass ? mv_ : pv) = p;
   }
   char what[160];
   snprintf(what, sizeof(what), "%s uplo=%d t=%d diag=%d n=%d k=%d incx=%d", packed ? (solve ? "tpsv" : "tpmv")
            : (solve ? "tbsv" : "tbmv"), uplo, t, diag, n, k, ix);
   int ax = ix < 0 ? -ix : ix, len = packed ? n : k + 1;
   if (solve) {   /* the residual: op(A) G against x */
      std::vector<T> PV(pv.size());
      for (size_t e = 0; e < pv.size(); e++)
         PV[e] = fromc<T>(pv[e]);
      vcd zx = Z(x);
      /* compare in double: op(A) G (pv, exact to double) against x */
      long bad = 0;
      for (size_t e = 0; e < x.size(); e++) {
         if (e % ax) {
            bad += memcmp(&G[e], &x[e], sizeof(T)) != 0;
            continue;
         }
         double bound = 2 * (len + 2) * ub<T>() * std::abs(mv_[e]) + 1e-300;
         bool ok = std::abs(pv[e] - zx[e]) <= bound;
         if (!ok && fails_shown++ < 12)
            printf("  %s [%zu]: residual %.3g, bound %.3g\n", what, e, std::abs(pv[e] - zx[e]), bound);
         bad += !ok;
      }
      CHECK_INT(bad, 0);
   } else {
      compare(what, G, pv, mv_, x, len, [&](size_t e) { return e % ax != 0; });
   }
   cudaFree(dA); cudaFree(dx);
}

/* ---- Level 3: herk herkx her2k hemm ---- */

/* mode 0 herk, 1 herkx (B = A scaled along k by real weights, so that
 * op(A) op(B)^H is Hermitian, as cuBLAS requires), 2 her2k */
template <class T> static void herk(int mode, int uplo, int t, int n, int k, int pad, cd al, double be, bool devscal)
{
   typedef typename std::conditional<sizeof(T) == 8, float, double>::type R;
   int ar = t ? k : n, ac = t ? n : k, lda = ar + pad + 1, ldb = ar + 2, ldc = n + pad;
   if (mode == 0)
      al = al.real();
   std::vector<T> A((size_t)lda * (ac ? ac : 1)), B((size_t)ldb * (ac ? ac : 1)), C((size_t)ldc * n);
   for (auto &v : A) v = rndT<T>();
   for (auto &v : B) v = rndT<T>();
   if (mode == 1) {
      std::vector<double> wgt(k > 0 ? k : 1);
      for (auto &v : wgt) v = 0.5 + rnd() / 4;
      for (int r = 0; r < ar; r++)
         for (int c = 0; c < ac; c++)
            B[r + (size_t)c * ldb] = fromc<T>(toc(A[r + (size_t)c * lda]) * wgt[t ? r : c]);
   }
   std::vector<bool> keep(C.size());
   for (size_t e = 0; e < C.size(); e++) {
      int i = (int)(e % ldc), j = (int)(e / ldc);
      keep[e] = i >= n || (uplo ? i > j : i < j);
      C[e] = rndT<T>();
      if (i == j)
         C[e] = fromc<T>(toc(C[e]).real());
   }
   std::vector<T> C0 = C;
   if (be == 0.)
      for (size_t e = 0; e < C.size(); e++)
         if (!keep[e])
            C0[e] = nanT<T>();
   T *dA = dev(A), *dB = dev(B), *dC = dev(C0);
   scal<T> a(fromc<T>(al));
   scal<R> ra((R)al.real()), rb((R)be);
   pmode(devscal);
   CHECK_ST(mode ? herkx((bool)(mode == 2), (UP)uplo, (OP)t, n, k, a.p(devscal), dA, lda, dB, ldb, rb.p(devscal), dC, ldc)
                 : herk((UP)uplo, (OP)t, n, k, ra.p(devscal), dA, lda, rb.p(devscal), dC, ldc),
            CUBLAS_STATUS_SUCCESS);
   pmode(false);
   std::vector<T> G = host(dC, C.size());
   vcd zA = Z(A), zB = Z(B), zC = Z(C), wC, mC;
   if (be == 0.)
      for (auto &v : zC) v = 0;
   int tb = t ? CB_CONJTRANS : CB_NOTRANS;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, PB = pass ? zabs(zB) : zB, PC = pass ? zabs(zC) : zC;
      cd pal = pass ? std::abs(al) : al;
      double pbe = pass ? fabs(be) : be;
      if (mode == 0)
         O.zherk(CB_COLMAJOR, cuplo(uplo), tb, n, k, pal.real(), PA.data(), lda, pbe, PC.data(), ldc);
      else if (mode == 2)
         O.zher2k(CB_COLMAJOR, cuplo(uplo), tb, n, k, &pal, PA.data(), lda, PB.data(), ldb, pbe, PC.data(), ldc);
      else {   /* herkx: the GEMM op(A) op(B)^H on the triangle, the diagonal real */
         vcd F = PC;
         cd cbe = pbe;
         O.zgemm(CB_COLMAJOR, t ? CB_CONJTRANS : CB_NOTRANS, t ? CB_NOTRANS : CB_CONJTRANS, n, n, k, &pal, PA.data(),
                 lda, PB.data(), ldb, &cbe, F.data(), ldc);
         for (size_t e = 0; e < F.size(); e++)
            if (!keep[e])
               PC[e] = (int)(e % ldc) == (int)(e / ldc) && !pass ? cd(F[e].real(), 0) : F[e];
      }
      (pass ? mC : wC) = PC;
   }
   char what[160];
   snprintf(what, sizeof(what), "%s uplo=%d t=%d n=%d k=%d beta=%g dev=%d", mode == 0 ? "herk" : mode == 1 ? "herkx" : "her2k",
            uplo, t, n, k, be, devscal);
   compare(what, G, wC, mC, C0, mode == 2 ? 2 * k : k, [&](size_t e) { return (bool)keep[e]; });
   cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

/* CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx with CUDA_C_32F A and C:
 * against OpenBLAS's zsyrk / zherk */
static void rkex_t(bool herm, bool three_m, int uplo, int t, int n, int k)
{
   int ar = t ? k : n, ac = t ? n : k, lda = ar + 1, ldc = n + 2;
   std::vector<cuComplex> A((size_t)lda * ac), C((size_t)ldc * n);
   for (auto &v : A) v = rndT<cuComplex>();
   std::vector<bool> keep(C.size());
   for (size_t e = 0; e < C.size(); e++) {
      int i = (int)(e % ldc), j = (int)(e / ldc);
      keep[e] = i >= n || (uplo ? i > j : i < j);
      C[e] = rndT<cuComplex>();
      if (herm && i == j)
         C[e].y = 0;
   }
   cuComplex *dA = dev(A), *dC = dev(C), al = make_cuComplex(1.25f, herm ? 0.f : -0.5f),
             be = make_cuComplex(-0.5f, herm ? 0.f : 0.25f);
   float ral = al.x, rbe = be.x;
   OP op = (OP)(t ? (herm ? 2 : 1) : 0);
   cublasStatus_t st;
   if (herm)
      st = three_m ? cublasCherk3mEx(H, (UP)uplo, op, n, k, &ral, dA, CUDA_C_32F, lda, &rbe, dC, CUDA_C_32F, ldc)
                   : cublasCherkEx(H, (UP)uplo, op, n, k, &ral, dA, CUDA_C_32F, lda, &rbe, dC, CUDA_C_32F, ldc);
   else
      st = three_m ? cublasCsyrk3mEx(H, (UP)uplo, op, n, k, &al, dA, CUDA_C_32F, lda, &be, dC, CUDA_C_32F, ldc)
                   : cublasCsyrkEx(H, (UP)uplo, op, n, k, &al, dA, CUDA_C_32F, lda, &be, dC, CUDA_C_32F, ldc);
   CHECK_ST(st, CUBLAS_STATUS_SUCCESS);
   std::vector<cuComplex> G = host(dC, C.size());
   vcd zA = Z(A), zC = Z(C), wC, mC;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, PC = pass ? zabs(zC) : zC;
      cd pal = pass ? std::abs(toc(al)) : toc(al), pbe = pass ? std::abs(toc(be)) : toc(be);
      if (herm)
         O.zherk(CB_COLMAJOR, cuplo(uplo), t ? CB_CONJTRANS : CB_NOTRANS, n, k, pal.real(), PA.data(), lda, pbe.real(),
                 PC.data(), ldc);
      else
         O.zsyrk(CB_COLMAJOR, cuplo(uplo), t ? CB_TRANS : CB_NOTRANS, n, k, &pal, PA.data(), lda, &pbe, PC.data(), ldc);
      (pass ? mC : wC) = PC;
   }
   char what[96];
   snprintf(what, sizeof(what), "C%s%sEx uplo=%d t=%d n=%d k=%d", herm ? "herk" : "syrk", three_m ? "3m" : "", uplo, t,
            n, k);
   compare(what, G, wC, mC, C, k, [&](size_t e) { return (bool)keep[e]; });
   cudaFree(dA); cudaFree(dC);
}

template <class T> static void hemm_t(int side, int uplo, int m, int n, int pad, cd al, cd be, bool devscal)
{
   int na = side ? n : m, lda = na + pad, ldb = m + 1, ldc = m + pad + 2;
   std::vector<T> A((size_t)lda * na), B((size_t)ldb * n), C((size_t)ldc * n);
   for (size_t e = 0; e < A.size(); e++) {
      int i = (int)(e % lda), j = (int)(e / lda);
      A[e] = i < na && (uplo ? i <= j : i >= j) ? rndT<T>() : fromc<T>(GARBAGE);
   }
   for (auto &v : B) v = rndT<T>();
   std::vector<bool> keep(C.size());
   std::vector<T> C0(C.size());
   for (size_t e = 0; e < C.size(); e++) {
      keep[e] = (int)(e % ldc) >= m;
      C[e] = rndT<T>();
      C0[e] = be == 0. && !keep[e] ? nanT<T>() : C[e];
   }
   T *dA = dev(A), *dB = dev(B), *dC = dev(C0);
   scal<T> a(fromc<T>(al)), b(fromc<T>(be));
   pmode(devscal);
   CHECK_ST(hemm((cublasSideMode_t)side, (UP)uplo, m, n, a.p(devscal), dA, lda, dB, ldb, b.p(devscal), dC, ldc),
            CUBLAS_STATUS_SUCCESS);
   pmode(false);
   std::vector<T> G = host(dC, C.size());
   vcd zA = Z(A), zB = Z(B), zC = Z(C), wC, mC;
   for (int j = 0; j < na; j++)   /* BLAS: the diagonal's imaginary parts are not read */
      zA[j + (size_t)j * lda] = zA[j + (size_t)j * lda].real();
   if (be == 0.)
      for (auto &v : zC) v = 0;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, PB = pass ? zabs(zB) : zB, PC = pass ? zabs(zC) : zC;
      cd pal = pass ? std::abs(al) : al, pbe = pass ? std::abs(be) : be;
      O.zhemm(CB_COLMAJOR, side ? CB_RIGHT : CB_LEFT, cuplo(uplo), m, n, &pal, PA.data(), lda, PB.data(), ldb, &pbe,
              PC.data(), ldc);
      (pass ? mC : wC) = PC;
   }
   char what[160];
   snprintf(what, sizeof(what), "hemm side=%d uplo=%d m=%d n=%d beta=%g dev=%d", side, uplo, m, n, be.real(), devscal);
   compare(what, G, wC, mC, C0, na, [&](size_t e) { return (bool)keep[e]; });
   cudaFree(dA); cudaFree(dB); cudaFree(dC);
}

/* ---- trsmBatched ---- */

/* op(A_z) X_z = alpha B_z (left) or X_z op(A_z) = alpha B_z, each checked
 * by its residual: |op(A) X - alpha B| <= 2 (na + 2) u (|op(A)| |X| + |alpha B|) */
template <class T>
static void trsmb_t(int side, int uplo, int t, int diag, int m, int n, int pad, cd al, int batch, bool devscal)
{
   int na = side ? n : m, lda = na + pad, ldb = m + pad + 1;
   std::vector<std::vector<T> > A(batch), B(batch);
   std::vector<T *> dA(batch), dB(batch);
   for (int z = 0; z < batch; z++) {
      A[z].resize((size_t)lda * na);
      B[z].resize((size_t)ldb * n);
      for (size_t e = 0; e < A[z].size(); e++) {
         int i = (int)(e % lda), j = (int)(e / lda);
         bool in = i < na && (uplo ? i <= j : i >= j);
         cd v = GARBAGE;
         if (in && i != j)
            v = cd(rnd(), is_cplx<T>() ? rnd() : 0) / (double)na;
         else if (in && !diag)
            v = cd(1.5 + rnd() / 2, is_cplx<T>() ? rnd() / 4 : 0);
         A[z][e] = fromc<T>(v);
      }
      for (auto &v : B[z]) v = rndT<T>();
      dA[z] = dev(A[z]);
      dB[z] = dev(B[z]);
   }
   T **dAp = dev(dA), **dBp = dev(dB);
   scal<T> a(fromc<T>(al));
   pmode(devscal);
   CHECK_ST(trsmb((cublasSideMode_t)side, (UP)uplo, (OP)t, (DG)diag, m, n, a.p(devscal), (const T *const *)dAp, lda,
                  dBp, ldb, batch),
            CUBLAS_STATUS_SUCCESS);
   pmode(false);
   char what[160];
   snprintf(what, sizeof(what), "trsmBatched side=%d uplo=%d t=%d diag=%d m=%d n=%d batch=%d dev=%d", side, uplo, t,
            diag, m, n, batch, devscal);
   cd one = 1;
   long bad = 0;
   for (int z = 0; z < batch; z++) {
      std::vector<T> G = host(dB[z], B[z].size());
      vcd zA = Z(A[z]), P = Z(G), M = zabs(P), zb = Z(B[z]);
      vcd aA = zabs(zA);
      O.ztrmm(CB_COLMAJOR, side ? CB_RIGHT : CB_LEFT, cuplo(uplo), cblas_op(t), diag ? CB_UNIT : CB_NONUNIT, m, n, &one,
              zA.data(), lda, P.data(), ldb);
      O.ztrmm(CB_COLMAJOR, side ? CB_RIGHT : CB_LEFT, cuplo(uplo), cblas_op(t), diag ? CB_UNIT : CB_NONUNIT, m, n, &one,
              aA.data(), lda, M.data(), ldb);
      for (size_t e = 0; e < G.size(); e++) {
         bool ok;
         if ((int)(e % ldb) >= m) {
            ok = memcmp(&G[e], &B[z][e], sizeof(T)) == 0;
         } else {
            cd ab = al * zb[e];
            ok = std::abs(P[e] - ab) <= 2 * (na + 2) * ub<T>() * (std::abs(M[e]) + std::abs(ab)) + 1e-300;
         }
         if (!ok && fails_shown++ < 12)
            printf("  %s z=%d [%zu]: residual %.3g\n", what, z, e, std::abs(P[e] - al * zb[e]));
         bad += !ok;
      }
      cudaFree(dA[z]);
      cudaFree(dB[z]);
   }
   CHECK_INT(bad, 0);
   cudaFree(dAp);
   cudaFree(dBp);
}

/* gemvBatched (strided false) and gemvStridedBatched: each problem
 * against OpenBLAS's zgemv; the strided members have gaps between them,
 * which stay untouched */
template <class T>
static void gemvb_t(bool strided, int t, int m, int n, int pad, int ix, int iy, cd al, cd be, int batch, bool devscal)
{
   bool tr = t != 0;
   int lda = m + pad, lx = tr ? m : n, ly = tr ? n : m;
   std::vector<T> x1 = vec<T>(lx, ix), y1 = vec<T>(ly, iy);
   long sA = (long)lda * n + 3, sx = (long)x1.size() + 2, sy = (long)y1.size() + 5;
   std::vector<T> A((size_t)sA * batch), x((size_t)sx * batch), y((size_t)sy * batch);
   for (auto &v : A) v = rndT<T>();
   for (auto &v : x) v = rndT<T>();
   for (auto &v : y) v = rndT<T>();
   std::vector<T> y0 = y;
   if (be == 0.)
      for (int z = 0; z < batch; z++)
         for (int i = 0; i < ly; i++)
            y0[z * sy + at(i, ly, iy)] = nanT<T>();
   T *dA = dev(A), *dx = dev(x), *dy = dev(y0);
   std::vector<const T *> pA(batch), px(batch);
   std::vector<T *> py(batch);
   for (int z = 0; z < batch; z++) {   /* the arrays: the members in reverse order */
      int w = batch - 1 - z;
      pA[z] = dA + w * sA;
      px[z] = dx + w * sx;
      py[z] = dy + w * sy;
   }
   const T **dpA = dev(pA), **dpx = dev(px);
   T **dpy = dev(py);
   scal<T> a(fromc<T>(al)), b(fromc<T>(be));
   pmode(devscal);
   CHECK_ST(strided ? gemvsb((OP)t, m, n, a.p(devscal), dA, lda, sA, dx, ix, sx, b.p(devscal), dy, iy, sy, batch)
                    : gemvb((OP)t, m, n, a.p(devscal), dpA, lda, dpx, ix, b.p(devscal), dpy, iy, batch),
            CUBLAS_STATUS_SUCCESS);
   pmode(false);
   std::vector<T> G = host(dy, y.size());
   vcd zA = Z(A), zx = Z(x), zy = Z(y), wy, my;
   if (be == 0.)
      for (auto &v : zy) v = 0;
   for (int pass = 0; pass < 2; pass++) {
      vcd PA = pass ? zabs(zA) : zA, pxv = pass ? zabs(zx) : zx, pyv = pass ? zabs(zy) : zy;
      cd pal = pass ? std::abs(al) : al, pbe = pass ? std::abs(be) : be;
      for (int z = 0; z < batch; z++)
         O.zgemv(CB_COLMAJOR, cblas_op(t), m, n, &pal, &PA[z * sA], lda, &pxv[z * sx], ix, &pbe, &pyv[z * sy], iy);
      (pass ? my : wy) = pyv;
   }
   char what[160];
   snprintf(what, sizeof(what), "gemv%sBatched t=%d m=%d n=%d incx=%d incy=%d batch=%d dev=%d", strided ? "Strided" : "",
            t, m, n, ix, iy, batch, devscal);
   int ay = iy < 0 ? -iy : iy;
   compare(what, G, wy, my, y0, lx, [&](size_t e) {
      long r = (long)(e % sy);
      return r >= (long)y1.size() || r % ay != 0;
   });
   cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dpA); cudaFree(dpx); cudaFree(dpy);
}

/* getrfBatched, then getrsBatched (op t) and getriBatched on its
 * factors, checked against the original matrices (Higham, Thms 9.3 and
 * 9.4: the computed factors satisfy |A - P^T L U| <= gamma_n |L| |U|, a
 * solve through them |b - op(A) x| <= gamma_3n |op(L)| |op(U)| |x|, here
 * as 2 (3n + 2) u); pivots in range; info 0, or the first zero pivot of a
 * matrix whose column zc is zero (zc >= 0) */
template <class T> static void lu_t(int n, int pad, bool pivot, int t, int nrhs, int batch, int zc)
{
   int lda = n + pad, ldb = n + 2, ldc = n + 1;
   double u = ub<T>();
   std::vector<std::vector<T> > A(batch), B(batch);
   std::vector<T *> dA(batch), dB(batch), dC(batch);
   for (int z = 0; z < batch; z++) {
      A[z].resize((size_t)lda * n);
      for (size_t e = 0; e < A[z].size(); e++) {
         int i = (int)(e % lda), j = (int)(e / lda);
         cd v = cd(rnd(), is_cplx<T>() ? rnd() : 0);
         if (!pivot && i == j)   /* no pivoting: diagonally dominant */
            v += (double)n;
         A[z][e] = fromc<T>(j == zc ? 0 : v);
      }
      B[z].resize((size_t)ldb * nrhs);
      for (auto &v : B[z]) v = rndT<T>();
      dA[z] = dev(A[z]);
      dB[z] = dev(B[z]);
      dC[z] = dev(std::vector<T>((size_t)ldc * n, fromc<T>(7.)));
   }
   T **dAp = dev(dA), **dBp = dev(dB), **dCp = dev(dC);
   int *dP = dev(std::vector<int>((size_t)n * batch, -1)), *dinfo = dev(std::vector<int>(batch, -1));
   CHECK_ST(getrf(n, dAp, lda, pivot ? dP : NULL, dinfo, batch), CUBLAS_STATUS_SUCCESS);
   std::vector<int> info = host(dinfo, batch), P = host(dP, (size_t)n * batch);
   int hinfo = -7;
   if (zc < 0) {
      CHECK_ST(getrs((OP)t, n, nrhs, (const T *const *)dAp, lda, pivot ? dP : NULL, dBp, ldb, &hinfo, batch),
               CUBLAS_STATUS_SUCCESS);
      CHECK_INT(hinfo, 0);
      CHECK_ST(getri(n, (const T *const *)dAp, lda, pivot ? dP : NULL, dCp, ldc, dinfo, batch), CUBLAS_STATUS_SUCCESS);
   }
   char what[160];
   snprintf(what, sizeof(what), "LU n=%d pivot=%d t=%d nrhs=%d zero column %d", n, pivot, t, nrhs, zc);
   long bad = 0;
   for (int z = 0; z < batch; z++) {
      if (zc >= 0) {   /* the first zero pivot: column zc (nothing before it is singular) */
         CHECK_INT(info[z], zc + 1);
         cudaFree(dA[z]); cudaFree(dB[z]); cudaFree(dC[z]);
         continue;
      }
      CHECK_INT(info[z], 0);
      std::vector<T> F = host(dA[z], A[z].size()), X = host(dB[z], B[z].size()), C = host(dC[z], (size_t)ldc * n);
      /* L (unit lower) and U from F; LU and |L||U| in double */
      auto L = [&](int i, int k) { return i == k ? cd(1) : i > k ? toc(F[i + (size_t)k * lda]) : cd(0); };
      auto U = [&](int k, int j) { return k <= j ? toc(F[k + (size_t)j * lda]) : cd(0); };
      vcd LU((size_t)n * n);
      std::vector<double> LUa((size_t)n * n);
      for (int i = 0; i < n; i++)
         for (int j = 0; j < n; j++)
            for (int k = 0; k <= (i < j ? i : j); k++) {
               LU[i + (size_t)j * n] += L(i, k) * U(k, j);
               LUa[i + (size_t)j * n] += std::abs(L(i, k)) * std::abs(U(k, j));
            }
      /* A0 = P^T (L U): undo the row swaps, last first; |L||U| likewise */
      std::vector<int> perm(n);
      for (int i = 0; i < n; i++)
         perm[i] = i;
      for (int k = 0; k < n && pivot; k++) {
         int p = P[(size_t)z * n + k] - 1;
         bad += !(p >= k && p < n);
         if (p >= k && p < n) {
            int q = perm[k];
            perm[k] = perm[p];
            perm[p] = q;
         }
      }
      /* row r of P A is row perm[r] of A */
      for (int r = 0; r < n; r++)
         for (int j = 0; j < n; j++) {
            cd a = toc(A[z][perm[r] + (size_t)j * lda]);
            double bound = 2 * (n + 2) * u * LUa[r + (size_t)j * n] + 1e-300;
            bool ok = std::abs(a - LU[r + (size_t)j * n]) <= bound;
            if (!ok && fails_shown++ < 12)
               printf("  %s z=%d getrf (%d, %d): |PA - LU| %.3g, bound %.3g\n", what, z, r, j,
                      std::abs(a - LU[r + (size_t)j * n]), bound);
            bad += !ok;
         }
      /* solves: op(A) x against b, and A C against I, each column; the
       * bound with |op(A)| in place of |op(L)||op(U)| scaled by growth:
       * use |L||U| permuted back */
      auto resid = [&](const std::vector<T> &V, int ldv, int col, bool inv) {
         for (int i = 0; i < n; i++) {
            cd sum = 0;
            double mag = 0;
            for (int k = 0; k < n; k++) {
               /* op(A)(i, k) and its |L||U| counterpart (rows of A are
                * rows perm^-1 of P A) */
               int r = inv || t == 0 ? i : k, c = inv || t == 0 ? k : i;
               cd a = toc(A[z][r + (size_t)c * lda]);
               if (!inv && t == 2)
                  a = std::conj(a);
               int pr = 0;
               for (int q = 0; q < n; q++)
                  if (perm[q] == r)
                     pr = q;
               cd v = toc(V[k + (size_t)col * ldv]);
               sum += a * v;
               mag += LUa[pr + (size_t)c * n] * std::abs(v);
            }
            cd want = inv ? cd(i == col ? 1 : 0) : toc(B[z][i + (size_t)col * ldb]);
            double bound = 2 * (3 * n + 2) * u * mag + 1e-300;
            bool ok = std::abs(sum - want) <= bound;
            if (!ok && fails_shown++ < 12)
               printf("  %s z=%d %s col %d row %d: residual %.3g, bound %.3g\n", what, z, inv ? "getri" : "getrs", col,
                      i, std::abs(sum - want), bound);
            bad += !ok;
         }
      };
      for (int c = 0; c < nrhs; c++)
         resid(X, ldb, c, false);
      for (int c = 0; c < n; c++)
         resid(C, ldc, c, true);
      /* padding rows of B and C untouched */
      for (size_t e = 0; e < X.size(); e++)
         if ((int)(e % ldb) >= n)
            bad += memcmp(&X[e], &B[z][e], sizeof(T)) != 0;
      cudaFree(dA[z]); cudaFree(dB[z]); cudaFree(dC[z]);
   }
   CHECK_INT(bad, 0);
   cudaFree(dAp); cudaFree(dBp); cudaFree(dCp); cudaFree(dP); cudaFree(dinfo);
}

/* matinvBatched: A X against I within 2 (3n + 2) u (|A| |X|)_ij; A
 * untouched; info 0, or 3 for a matrix whose third column is zero */
template <class T> static void matinv_t(int n, int pad, int batch, bool singular)
{
   int lda = n + pad, ldx = n + 1;
   double u = ub<T>();
   std::vector<std::vector<T> > A(batch);
   std::vector<const T *> dA(batch);
   std::vector<T *> dX(batch);
   for (int z = 0; z < batch; z++) {
      A[z].resize((size_t)lda * n);
      for (size_t e = 0; e < A[z].size(); e++)
         A[z][e] = singular && (int)(e / lda) == 2 ? fromc<T>(0.) : rndT<T>();
      dA[z] = dev(A[z]);
      dX[z] = dev(std::vector<T>((size_t)ldx * n));
   }
   const T **dAp = dev(dA);
   T **dXp = dev(dX);
   int *dinfo = dev(std::vector<int>(batch, -1));
   CHECK_ST(matinv(n, dAp, lda, dXp, ldx, dinfo, batch), CUBLAS_STATUS_SUCCESS);
   std::vector<int> info = host(dinfo, batch);
   char what[96];
   snprintf(what, sizeof(what), "matinvBatched n=%d", n);
   long bad = 0;
   for (int z = 0; z < batch; z++) {
      CHECK_INT(info[z], singular ? 3 : 0);
      std::vector<T> Ag = host(dA[z], A[z].size()), X = host(dX[z], (size_t)ldx * n);
      bad += memcmp(Ag.data(), A[z].data(), A[z].size() * sizeof(T)) != 0;
      for (int j = 0; j < n && !singular; j++)
         for (int i = 0; i < n; i++) {
            cd sum = 0;
            double mag = 0;
            for (int k = 0; k < n; k++) {
               cd p = toc(A[z][i + (size_t)k * lda]) * toc(X[k + (size_t)j * ldx]);
               sum += p;
               mag += std::abs(p);
            }
            double bound = 2 * (3 * n + 2) * u * mag + 1e-300;
            bool ok = std::abs(sum - cd(i == j ? 1 : 0)) <= bound;
            if (!ok && fails_shown++ < 12)
               printf("  %s z=%d (%d, %d): |AX - I| %.3g, bound %.3g\n", what, z, i, j, std::abs(sum - cd(i == j)), bound);
            bad += !ok;
         }
      cudaFree((void *)dA[z]);
      cudaFree(dX[z]);
   }
   CHECK_INT(bad, 0);
   cudaFree(dAp); cudaFree(dXp); cudaFree(dinfo);
}

/* geqrfBatched: Q = H_0 ... H_{k-1} from the reflectors (H_i = I - tau_i
 * v v^H, v_i = 1, v below the diagonal) and R from the upper triangle
 * satisfy, column by column, |a_j - Q r_j|_2 <= c m n u |a_j|_2 and |Q^H
 * Q - I| <= c m u (Higham, Thm 19.4: Householder QR is normwise backward
 * stable; c = 4 here).  gelsBatched (m >= n): the solution makes the
 * residual orthogonal to A's columns, |A^H (A x - c)|_2 <= c m n u |A|_F
 * (|A|_F |x|_2 + |c|_2), and a matrix with a zero column gives its info. */
template <class T>
static void qr_t(bool ls, int m, int n, int nrhs, int pad, int batch, bool zero_col = false, bool no_dinfo = false)
{
   int lda = m + pad, ldc = m + 1, k = m < n ? m : n;
   double u = ub<T>();
   std::vector<std::vector<T> > A(batch), C(batch);
   std::vector<T *> dA(batch), dT(batch), dC(batch);
   for (int z = 0; z < batch; z++) {
      A[z].resize((size_t)lda * n);
      for (size_t e = 0; e < A[z].size(); e++)
         A[z][e] = zero_col && (int)(e / lda) == 1 ? fromc<T>(0.) : rndT<T>();
      C[z].resize((size_t)ldc * (nrhs ? nrhs : 1));
      for (auto &v : C[z]) v = rndT<T>();
      dA[z] = dev(A[z]);
      dT[z] = dev(std::vector<T>(k ? k : 1));
      dC[z] = dev(C[z]);
   }
   T **dAp = dev(dA), **dTp = dev(dT), **dCp = dev(dC);
   int *dinfo = dev(std::vector<int>(batch, -1)), info = -9;
   CHECK_ST(ls ? gels(m, n, nrhs, dAp, lda, dCp, ldc, &info, no_dinfo ? NULL : dinfo, batch) : geqrf(m, n, dAp, lda, dTp, &info, batch),
            CUBLAS_STATUS_SUCCESS);
   CHECK_INT(info, 0);
   std::vector<int> dinf = host(dinfo, batch);
   char what[96];
   snprintf(what, sizeof(what), "%s m=%d n=%d nrhs=%d", ls ? "gelsBatched" : "geqrfBatched", m, n, nrhs);
   long bad = 0;
   for (int z = 0; z < batch; z++) {
      std::vector<T> F = host(dA[z], A[z].size()), tau = host(dT[z], k ? k : 1), X = host(dC[z], C[z].size());
      if (ls && zero_col) {
         CHECK_INT(dinf[z], 2);
      } else if (ls) {
         CHECK_INT(dinf[z], no_dinfo ? -1 : 0);   /* without devInfoArray: untouched */
         double an = 0;
         for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
               an += std::norm(toc(A[z][i + (size_t)j * lda]));
         an = sqrt(an);
         for (int c = 0; c < nrhs; c++) {
            vcd r(m);
            double xn = 0, cn = 0;
            for (int i = 0; i < m; i++) {
               r[i] = -toc(C[z][i + (size_t)c * ldc]);
               cn += std::norm(r[i]);
            }
            for (int j = 0; j < n; j++) {
               cd xj = toc(X[j + (size_t)c * ldc]);
               xn += std::norm(xj);
               for (int i = 0; i < m; i++)
                  r[i] += toc(A[z][i + (size_t)j * lda]) * xj;
            }
            double g = 0;
            for (int j = 0; j < n; j++) {
               cd s2 = 0;
               for (int i = 0; i < m; i++)
                  s2 += std::conj(toc(A[z][i + (size_t)j * lda])) * r[i];
               g += std::norm(s2);
            }
            double bound = 4.0 * m * n * u * an * (an * sqrt(xn) + sqrt(cn));
            bool ok = sqrt(g) <= bound;
            if (!ok && fails_shown++ < 12)
               printf("  %s z=%d col %d: |A^H r| %.3g, bound %.3g\n", what, z, c, sqrt(g), bound);
            bad += !ok;
         }
      } else {
         /* Q explicitly, m x m, as H_0 (H_1 (... (H_{k-1} I))) */
         vcd Q((size_t)m * m);
         for (int i = 0; i < m; i++)
            Q[i + (size_t)i * m] = 1;
         for (int i = k - 1; i >= 0; i--) {
            vcd v(m);
            v[i] = 1;
            for (int l = i + 1; l < m; l++)
               v[l] = toc(F[l + (size_t)i * lda]);
            cd ti = toc(tau[i]);
            for (int j = 0; j < m; j++) {
               cd w = 0;
               for (int l = i; l < m; l++)
                  w += std::conj(v[l]) * Q[l + (size_t)j * m];
               for (int l = i; l < m; l++)
                  Q[l + (size_t)j * m] -= ti * v[l] * w;
            }
         }
         for (int j = 0; j < n; j++) {
            double err = 0, an = 0;
            for (int i = 0; i < m; i++) {
               cd qr = 0;
               for (int l = 0; l <= (j < m - 1 ? j : m - 1); l++)
                  qr += Q[i + (size_t)l * m] * toc(F[l + (size_t)j * lda]);
               err += std::norm(qr - toc(A[z][i + (size_t)j * lda]));
               an += std::norm(toc(A[z][i + (size_t)j * lda]));
            }
            bool ok = sqrt(err) <= 4.0 * m * n * u * sqrt(an) + 1e-300;
            if (!ok && fails_shown++ < 12)
               printf("  %s z=%d col %d: |a - Q r| %.3g\n", what, z, j, sqrt(err));
            bad += !ok;
         }
         for (int j = 0; j < m; j++)
            for (int i = 0; i < m; i++) {
               cd s2 = 0;
               for (int l = 0; l < m; l++)
                  s2 += std::conj(Q[l + (size_t)i * m]) * Q[l + (size_t)j * m];
               bool ok = std::abs(s2 - cd(i == j ? 1 : 0)) <= 4.0 * m * u;
               if (!ok && fails_shown++ < 12)
                  printf("  %s z=%d Q^H Q (%d, %d) off by %.3g\n", what, z, i, j, std::abs(s2 - cd(i == j)));
               bad += !ok;
            }
      }
      cudaFree(dA[z]); cudaFree(dT[z]); cudaFree(dC[z]);
   }
   CHECK_INT(bad, 0);
   cudaFree(dAp); cudaFree(dTp); cudaFree(dCp); cudaFree(dinfo);
}

/* HSH, HSS, TST, TSS gemv batched: half or bfloat16 A and x, y of the
 * same type or float, float scalars; against a double loop on the
 * converted inputs within 2 (k + 2) 2^-24 (|alpha| |A| |x| + |beta y|)
 * (float accumulation) plus the output's rounding */
static double h2d(__half v) { return (double)__half2float(v); }
static double h2d(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
static double h2d(float v) { return v; }
static void d2h(double v, __half *p) { *p = __float2half((float)v); }
static void d2h(double v, __nv_bfloat16 *p) { *p = __float2bfloat16((float)v); }
static void d2h(double v, float *p) { *p = (float)v; }
static double out_u(__half) { return 0x1p-11; }
static double out_u(__nv_bfloat16) { return 0x1p-8; }
static double out_u(float) { return 0x1p-24; }
static cublasStatus_t gemvx(bool s, OP t, int m, int n, const float *al, const __half *A, int lda, long long sA,
                            const __half *x, int ix, long long sx, const float *be, __half *y, int iy, long long sy,
                            int b, const __half *const *Ap, const __half *const *xp, __half *const *yp)
{
   return s ? cublasHSHgemvStridedBatched(H, t, m, n, al, A, lda, sA, x, ix, sx, be, y, iy, sy, b)
            : cublasHSHgemvBatched(H, t, m, n, al, Ap, lda, xp, ix, be, yp, iy, b);
}
static cublasStatus_t gemvx(bool s, OP t, int m, int n, const float *al, const __half *A, int lda, long long sA,
                            const __half *x, int ix, long long sx, const float *be, float *y, int iy, long long sy,
                            int b, const __half *const *Ap, const __half *const *xp, float *const *yp)
{
   return s ? cublasHSSgemvStridedBatched(H, t, m, n, al, A, lda, sA, x, ix, sx, be, y, iy, sy, b)
            : cublasHSSgemvBatched(H, t, m, n, al, Ap, lda, xp, ix, be, yp, iy, b);
}
static cublasStatus_t gemvx(bool s, OP t, int m, int n, const float *al, const __nv_bfloat16 *A, int lda,
                            long long sA, const __nv_bfloat16 *x, int ix, long long sx, const float *be,
                            __nv_bfloat16 *y, int iy, long long sy, int b, const __nv_bfloat16 *const *Ap,
                            const __nv_bfloat16 *const *xp, __nv_bfloat16 *const *yp)
{
   return s ? cublasTSTgemvStridedBatched(H, t, m, n, al, A, lda, sA, x, ix, sx, be, y, iy, sy, b)
            : cublasTSTgemvBatched(H, t, m, n, al, Ap, lda, xp, ix, be, yp, iy, b);
}
static cublasStatus_t gemvx(bool s, OP t, int m, int n, const float *al, const __nv_bfloat16 *A, int lda,
                            long long sA, const __nv_bfloat16 *x, int ix, long long sx, const float *be, float *y,
                            int iy, long long sy, int b, const __nv_bfloat16 *const *Ap,
                            const __nv_bfloat16 *const *xp, float *const *yp)
{
   return s ? cublasTSSgemvStridedBatched(H, t, m, n, al, A, lda, sA, x, ix, sx, be, y, iy, sy, b)
            : cublasTSSgemvBatched(H, t, m, n, al, Ap, lda, xp, ix, be, yp, iy, b);
}

template <class TI, class TO>
static void gemvx_t(bool strided, int t, int m, int n, int ix, int iy, float al, float be, int batch, bool devscal)
{
   bool tr = t != 0;
   int lda = m + 1, lx = tr ? m : n, ly = tr ? n : m, ax = ix < 0 ? -ix : ix, ay = iy < 0 ? -iy : iy;
   long sA = (long)lda * n + 1, sx = (long)(lx - 1) * ax + 2, sy = (long)(ly - 1) * ay + 3;
   std::vector<TI> A((size_t)sA * batch), x((size_t)sx * batch);
   std::vector<TO> y((size_t)sy * batch);
   for (auto &v : A) d2h(rnd(), &v);
   for (auto &v : x) d2h(rnd(), &v);
   for (auto &v : y) d2h(be == 0 ? NAN : rnd(), &v);
   TI *dA = dev(A), *dx = dev(x);
   TO *dy = dev(y);
   std::vector<const TI *> pA(batch), px(batch);
   std::vector<TO *> py(batch);
   for (int z = 0; z < batch; z++) {
      pA[z] = dA + z * sA;
      px[z] = dx + z * sx;
      py[z] = dy + z * sy;
   }
   const TI **dpA = dev(pA), **dpx = dev(px);
   TO **dpy = dev(py);
   scal<float> a(al), b(be);
   pmode(devscal);
   CHECK_ST(gemvx(strided, (OP)t, m, n, a.p(devscal), dA, lda, sA, dx, ix, sx, b.p(devscal), dy, iy, sy, batch, dpA,
                  dpx, dpy),
            CUBLAS_STATUS_SUCCESS);
   pmode(false);
   std::vector<TO> G = host(dy, y.size());
   long bad = 0;
   for (int z = 0; z < batch; z++)
      for (long e = 0; e < sy; e++) {
         size_t ge = (size_t)z * sy + e;
         if (e % ay || e / ay >= ly) {
            bad += memcmp(&G[ge], &y[ge], sizeof(TO)) != 0;
            continue;
         }
         int o = iy >= 0 ? (int)(e / ay) : ly - 1 - (int)(e / ay);
         double sum = 0, mag = 0;
         for (int l = 0; l < lx; l++) {
            double av = h2d(A[z * sA + (tr ? l + (size_t)o * lda : o + (size_t)l * lda)]);
            double xv = h2d(x[z * sx + at(l, lx, ix)]);
            sum += av * xv;
            mag += fabs(av * xv);
         }
         double yv = be == 0 ? 0 : h2d(y[ge]), want = al * sum + be * yv;
         double bound = 2 * (lx + 2) * 0x1p-24 * (fabs(al) * mag + fabs(be * yv)) + out_u(TO()) * fabs(want) + 1e-30;
         bool ok = fabs(h2d(G[ge]) - want) <= bound;
         if (!ok && fails_shown++ < 12)
            printf("  gemv%sBatched %zu-in %zu-out t=%d m=%d n=%d z=%d [%ld]: got %.9g want %.9g\n",
                   strided ? "Strided" : "", sizeof(TI), sizeof(TO), t, m, n, z, e, h2d(G[ge]), want);
         bad += !ok;
      }
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(dpA); cudaFree(dpx); cudaFree(dpy);
}

static void gemv_mixed(void)
{
   for (int strided = 0; strided < 2; strided++)
      for (int t = 0; t < 3; t++) {
         gemvx_t<__half, __half>(strided, t, 7, 33, 1, -2, 0.75f, -0.5f, 3, t == 1);
         gemvx_t<__half, float>(strided, t, 33, 7, -3, 1, 1.25f, 0.f, 2, false);
         gemvx_t<__nv_bfloat16, __nv_bfloat16>(strided, t, 130, 9, 2, 1, 0.75f, 0.25f, 2, t == 2);
         gemvx_t<__nv_bfloat16, float>(strided, t, 1, 1, 1, 1, -1.5f, 0.5f, 2, false);
      }
}

template <class T> static void batched(void)
{
   qr_t<T>(false, 1, 1, 0, 0, 2);
   qr_t<T>(false, 9, 5, 0, 2, 3);
   qr_t<T>(false, 5, 9, 0, 1, 2);
   qr_t<T>(false, 33, 33, 0, 0, 2);
   qr_t<T>(true, 1, 1, 2, 0, 2);
   qr_t<T>(true, 12, 7, 3, 1, 3);
   qr_t<T>(true, 40, 33, 2, 0, 2);
   qr_t<T>(true, 8, 4, 1, 0, 2, true);
   qr_t<T>(true, 12, 7, 2, 0, 2, false, true);   /* devInfoArray NULL (optional) */

   matinv_t<T>(1, 0, 2, false);
   matinv_t<T>(7, 2, 3, false);
   matinv_t<T>(32, 1, 2, false);
   matinv_t<T>(5, 0, 2, true);

   for (int t = 0; t < 3; t++) {
      lu_t<T>(1, 0, true, t, 1, 2, -1);
      lu_t<T>(7, 2, true, t, 3, 3, -1);
      lu_t<T>(33, 1, t != 1, t, 5, 2, -1);
   }
   lu_t<T>(6, 1, true, 0, 1, 2, 2);   /* a zero column: info 3 */

   cd gal = is_cplx<T>() ? cd(0.75, 0.5) : 0.75, gbe = is_cplx<T>() ? cd(-0.5, 0.25) : -0.5;
   for (int strided = 0; strided < 2; strided++)
      for (int t = 0; t < 3; t++) {
         gemvb_t<T>(strided, t, 1, 1, 0, 1, 1, gal, gbe, 1, false);
         gemvb_t<T>(strided, t, 7, 33, 2, 1, -2, gal, gbe, 4, t == 1);
         gemvb_t<T>(strided, t, 130, 9, 1, -3, 1, gal, 0., 3, false);
      }

   static const int sizes[][3] = { { 1, 1, 0 }, { 7, 33, 2 }, { 33, 7, 1 }, { 70, 5, 0 } };
   cd al = is_cplx<T>() ? cd(1.25, -0.5) : 1.25;
   int dv = 0;
   for (int side = 0; side < 2; side++)
      for (int uplo = 0; uplo < 2; uplo++)
         for (int t = 0; t < 3; t++)
            for (int diag = 0; diag < 2; diag++)
               for (auto &z : sizes) {
                  int m = side ? z[1] : z[0], n = side ? z[0] : z[1];
                  trsmb_t<T>(side, uplo, t, diag, m, n, z[2], al, 3, dv++ % 5 == 0);
               }
   trsmb_t<T>(0, 1, 0, 0, 7, 5, 1, 0., 2, false);   /* alpha 0: B = 0 */
}

/* ---- the sweeps ---- */

template <class T> static void level2(void)
{
   std::vector<int> ns = { 1, 7, 33, 130 };
   if (full)
      ns.push_back(300);
   bool c = is_cplx<T>();
   cd al = c ? cd(1.5, -0.5) : 1.5, be = c ? cd(-0.5, 0.25) : -0.5;
   int dv = 0;
   for (int n : ns) {
      int m = n == 1 ? 1 : n + 5;   /* non-square general matrices */
      for (int t = 0; t < 3; t++) {
         if (c || t < 2 || n == 7) {   /* real: C is T, once */
            if (c)
               mv<T>(K_GEMV, t, m, n, 0, 0, n % 3, 1, 1, al, be, dv++ % 5 == 0);
            mv<T>(K_GBMV, t, m, n, 2, 1, 1, 1, -2, al, be, dv++ % 5 == 0);
            mv<T>(K_GBMV, t, n, m, 0, 3, 0, -3, 1, al, 0., false);
            mv<T>(K_GBMV, t, m, n, n + 7, n + 9, 2, 2, 2, al, be, false);   /* band wider than the matrix */
         }
      }
      for (int uplo = 0; uplo < 2; uplo++) {
         if (c) {
            mv<T>(K_HEMV, uplo, n, n, 0, 0, n % 4, 1, 1, al, be, dv++ % 5 == 0);
            mv<T>(K_HEMV, uplo, n, n, 0, 0, 1, -2, 3, al, 0., false);
         }
         mv<T>(K_SBMV, uplo, n, n, 3, 3, 1, 1, -1, al, be, dv++ % 5 == 0);
         mv<T>(K_SBMV, uplo, n, n, 0, 0, 0, 2, 1, al, 0., false);
         mv<T>(K_SBMV, uplo, n, n, n + 2, n + 2, 1, 1, 1, al, be, false);
         mv<T>(K_SPMV, uplo, n, n, 0, 0, 0, 1, 1, al, be, dv++ % 5 == 0);
         mv<T>(K_SPMV, uplo, n, n, 0, 0, 0, -1, 2, al, 0., false);
         /* rank updates */
         rank<T>(R_SYR, uplo, n, n, 1, 1, 1, al, dv++ % 5 == 0);
         rank<T>(R_SYR, uplo, n, n, 0, -2, 1, al, false);
         rank<T>(R_SYR2, uplo, n, n, 2, 1, -1, al, dv++ % 5 == 0);
         rank<T>(R_SYR2, uplo, n, n, 0, -2, 3, al, false);
         rank<T>(R_SPR, uplo, n, n, 0, 1, 1, al, dv++ % 5 == 0);
         rank<T>(R_SPR, uplo, n, n, 0, -3, 1, al, false);
         rank<T>(R_SPR2, uplo, n, n, 0, 1, 1, al, dv++ % 5 == 0);
         rank<T>(R_SPR2, uplo, n, n, 0, 2, -1, al, false);
         if (c) {
            rank<T>(R_HER, uplo, n, n, 1, 1, 1, al, dv++ % 5 == 0);
            rank<T>(R_HER, uplo, n, n, 0, -2, 1, al, false);
            rank<T>(R_HER2, uplo, n, n, 2, 1, 1, al, dv++ % 5 == 0);
            rank<T>(R_HER2, uplo, n, n, 0, -1, 2, al, false);
         }
         /* triangular band and packed */
         for (int t = 0; t < 3; t++)
            for (int diag = 0; diag < 2; diag++)
               for (int solve = 0; solve < 2; solve++) {
                  tri<T>(false, solve, uplo, t, diag, n, n > 3 ? 3 : 1, 1, 1);
                  tri<T>(false, solve, uplo, t, diag, n, n + 1, 0, -2);   /* k >= n: the whole triangle */
                  tri<T>(true, solve, uplo, t, diag, n, 0, 0, t == 1 ? -1 : 2);
               }
      }
      if (c)
         for (int conj = 0; conj < 2; conj++) {
            rank<T>(conj ? R_GERC : R_GERU, 0, m, n, 1, 1, 1, al, dv++ % 5 == 0);
            rank<T>(conj ? R_GERC : R_GERU, 0, n, m, 0, -2, 3, al, false);
         }
   }
}

template <class T> static void level3(void)
{
   std::vector<int> ns = { 1, 7, 33, 130 };
   if (full)
      ns.push_back(257);
   cd al = cd(1.5, -0.5);
   int dv = 0;
   for (int uplo = 0; uplo < 2; uplo++)
      for (int t = 0; t < 2; t++) {
         int op = t ? 2 : 0;   /* N or C */
         for (int n : ns) {
            for (int mode = 0; mode < 3; mode++) {
               herk<T>(mode, uplo, op, n, 31, n % 3, al, -0.5, dv++ % 4 == 0);
               herk<T>(mode, uplo, op, n, 1, 1, al, 0., false);
            }
         }
         for (int mode = 0; mode < 3; mode++)
            herk<T>(mode, uplo, op, 7, 0, 2, al, 2., false);
      }
   static const int ssz[][2] = { { 1, 1 }, { 7, 33 }, { 130, 7 } };
   for (int side = 0; side < 2; side++)
      for (int uplo = 0; uplo < 2; uplo++)
         for (auto &z : ssz) {
            hemm_t<T>(side, uplo, z[0], z[1], z[0] % 3, al, cd(-0.5, 0.25), dv++ % 4 == 0);
            hemm_t<T>(side, uplo, z[0], z[1], 1, 0.75, 0., false);
         }
}

/* What NVIDIA's cuBLAS (13.1, on the H200) accepts where the reference
 * BLAS would not, each compared with the documented operation it equals
 * there: gemv with an operation other than N and C computes op T; herk and
 * her2k take OP_T for OP_C; gemv(Strided)Batched with incx 0 reads x[0]
 * (of each problem) for every element. */
static void nvidia_leniency(void)
{
   enum { K = 5 };
   cuComplex hA[K * K], hB[K * K], hC[K * K], r1[K * K], r2[K * K], *dA, *dB, *dC;
   for (int i = 0; i < K * K; i++) {
      hA[i] = make_cuComplex((float)((i * 7 + 1) % 11) - 5, (float)((i * 3 + 1) % 7) - 3);
      hB[i] = make_cuComplex((float)((i * 5 + 2) % 9) - 4, (float)((i * 2 + 3) % 5) - 2);
      hC[i] = make_cuComplex((float)((i * 3 + 3) % 7) - 3, 0);
   }
   CHECK_CUDA(cudaMalloc(&dA, sizeof(hA)));
   CHECK_CUDA(cudaMalloc(&dB, sizeof(hB)));
   CHECK_CUDA(cudaMalloc(&dC, sizeof(hC)));
   CHECK_CUDA(cudaMemcpy(dA, hA, sizeof(hA), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dB, hB, sizeof(hB), cudaMemcpyHostToDevice));
   cuComplex one = make_cuComplex(1, 0);
   float fone = 1;
   UP U = CUBLAS_FILL_MODE_UPPER;
   for (int what = 0; what < 3; what++) {
      cuComplex *r[2] = { r1, r2 };
      for (int v = 0; v < 2; v++) {
         CHECK_CUDA(cudaMemcpy(dC, hC, sizeof(hC), cudaMemcpyHostToDevice));
         OP op = v ? CUBLAS_OP_T : what ? CUBLAS_OP_C : CUBLAS_OP_T;
         if (what == 0)
            CHECK_ST(cublasCgemv(H, v ? (OP)9 : CUBLAS_OP_T, K, K, &one, dA, K, dB, 1, &one, dC, 1),
                     CUBLAS_STATUS_SUCCESS);
         else if (what == 1)
            CHECK_ST(cublasCherk(H, U, op, K, K, &fone, dA, K, &fone, dC, K), CUBLAS_STATUS_SUCCESS);
         else
            CHECK_ST(cublasCher2k(H, U, op, K, K, &one, dA, K, dB, K, &fone, dC, K), CUBLAS_STATUS_SUCCESS);
         CHECK_CUDA(cudaMemcpy(r[v], dC, sizeof(hC), cudaMemcpyDeviceToHost));
      }
      CHECK(!memcmp(r1, r2, sizeof(r1)));
   }
   /* two 4 x 4 problems, x's increment 0 */
   float fa[32], fx[8], fy[8], got[8], *da, *dx, *dy;
   for (int i = 0; i < 32; i++)
      fa[i] = (float)(i % 5) - 2;
   for (int i = 0; i < 8; i++)
      fx[i] = (float)(i + 1), fy[i] = 1;
   CHECK_CUDA(cudaMalloc(&da, sizeof(fa)));
   CHECK_CUDA(cudaMalloc(&dx, sizeof(fx)));
   CHECK_CUDA(cudaMalloc(&dy, sizeof(fy)));
   CHECK_CUDA(cudaMemcpy(da, fa, sizeof(fa), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dx, fx, sizeof(fx), cudaMemcpyHostToDevice));
   CHECK_CUDA(cudaMemcpy(dy, fy, sizeof(fy), cudaMemcpyHostToDevice));
   CHECK_ST(cublasSgemvStridedBatched(H, CUBLAS_OP_N, 4, 4, &fone, da, 4, 16, dx, 0, 4, &fone, dy, 1, 4, 2),
            CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(got, dy, sizeof(got), cudaMemcpyDeviceToHost));
   for (int b = 0; b < 2; b++)
      for (int i = 0; i < 4; i++) {
         float e = fy[b * 4 + i];
         for (int j = 0; j < 4; j++)
            e += fa[b * 16 + j * 4 + i] * fx[b * 4];
         CHECK(got[b * 4 + i] == e);
      }
   CHECK_CUDA(cudaFree(dA));
   CHECK_CUDA(cudaFree(dB));
   CHECK_CUDA(cudaFree(dC));
   CHECK_CUDA(cudaFree(da));
   CHECK_CUDA(cudaFree(dx));
   CHECK_CUDA(cudaFree(dy));
}

/* the statuses cuBLAS documents for bad arguments */
static void bad_args(void)
{
   cuComplex *d, one = make_cuComplex(1, 0);
   float fone = 1, *fd;
   CHECK_CUDA(cudaMalloc(&d, 1 << 16));
   CHECK_CUDA(cudaMemset(d, 0, 1 << 16));
   fd = (float *)d;
   UP U = CUBLAS_FILL_MODE_UPPER, BADU = (UP)7;
   OP N = CUBLAS_OP_N, BADO = (OP)9;
   DG ND = CUBLAS_DIAG_NON_UNIT;
   const cublasStatus_t IV = CUBLAS_STATUS_INVALID_VALUE;
   CHECK_ST(cublasChemv(H, BADU, 4, &one, d, 4, d, 1, &one, d, 1), IV);
   CHECK_ST(cublasChemv(H, U, -1, &one, d, 4, d, 1, &one, d, 1), IV);
   CHECK_ST(cublasChemv(H, U, 4, &one, d, 3, d, 1, &one, d, 1), IV);
   CHECK_ST(cublasChemv(H, U, 4, &one, d, 4, d, 0, &one, d, 1), IV);
   CHECK_ST(cublasChemv(H, U, 4, &one, d, 4, d, 1, &one, d, 0), IV);
   CHECK_ST(cublasCgemv(H, N, 4, 4, &one, d, 3, d, 1, &one, d, 1), IV);
   CHECK_ST(cublasSgbmv(H, N, 4, 4, 1, 1, &fone, fd, 2, fd, 1, &fone, fd, 1), IV);   /* lda < kl + ku + 1 */
   CHECK_ST(cublasSgbmv(H, N, 4, 4, -1, 1, &fone, fd, 3, fd, 1, &fone, fd, 1), IV);
   CHECK_ST(cublasSsbmv(H, U, 4, 2, &fone, fd, 2, fd, 1, &fone, fd, 1), IV);         /* lda < k + 1 */
   CHECK_ST(cublasSsbmv(H, U, 4, -1, &fone, fd, 2, fd, 1, &fone, fd, 1), IV);
   CHECK_ST(cublasSspmv(H, BADU, 4, &fone, fd, fd, 1, &fone, fd, 1), IV);
   CHECK_ST(cublasSspmv(H, U, 4, &fone, fd, fd, 0, &fone, fd, 1), IV);
   CHECK_ST(cublasCgeru(H, -1, 4, &one, d, 1, d, 1, d, 4), IV);
   CHECK_ST(cublasCgerc(H, 4, 4, &one, d, 1, d, 0, d, 4), IV);
   CHECK_ST(cublasCgerc(H, 4, 4, &one, d, 1, d, 1, d, 3), IV);
   CHECK_ST(cublasCher(H, BADU, 4, &fone, d, 1, d, 4), IV);
   CHECK_ST(cublasCher(H, U, 4, &fone, d, 0, d, 4), IV);
   CHECK_ST(cublasSsyr(H, U, 4, &fone, fd, 1, fd, 3), IV);
   CHECK_ST(cublasSsyr2(H, U, 4, &fone, fd, 1, fd, 0, fd, 4), IV);
   CHECK_ST(cublasChpr2(H, U, -2, &one, d, 1, d, 1, d), IV);
   CHECK_ST(cublasStbmv(H, U, N, ND, 4, 2, fd, 2, fd, 1), IV);   /* lda < k + 1 */
   CHECK_ST(cublasStbsv(H, U, N, (DG)5, 4, 1, fd, 2, fd, 1), IV);
   CHECK_ST(cublasCtbsv(H, U, BADO, ND, 4, 1, d, 2, d, 1), IV);
   CHECK_ST(cublasStpmv(H, U, N, ND, 4, fd, fd, 0), IV);
   CHECK_ST(cublasCtpsv(H, U, N, ND, -1, d, d, 1), IV);
   CHECK_ST(cublasCherk(H, U, N, 4, 4, &fone, d, 3, &fone, d, 4), IV);
   CHECK_ST(cublasCherk(H, U, N, 4, 4, &fone, d, 4, &fone, d, 3), IV);
   CHECK_ST(cublasCherkx(H, U, N, 4, 4, &one, d, 4, d, 3, &fone, d, 4), IV);
   CHECK_ST(cublasChemm(H, (cublasSideMode_t)5, U, 4, 4, &one, d, 4, d, 4, &one, d, 4), IV);
   CHECK_ST(cublasChemm(H, CUBLAS_SIDE_RIGHT, U, 8, 4, &one, d, 3, d, 8, &one, d, 8), IV);
   CHECK_ST(cublasChemm(H, CUBLAS_SIDE_LEFT, U, 8, 4, &one, d, 8, d, 7, &one, d, 8), IV);
   CHECK_ST(cublasSgemvBatched(H, N, 4, 4, &fone, (const float *const *)d, 3, (const float *const *)d, 1, &fone,
                               (float *const *)d, 1, 1), IV);
   CHECK_ST(cublasSgemvStridedBatched(H, N, 4, 4, &fone, fd, 4, 16, fd, 1, 4, &fone, fd, 1, 4, -1),
            CUBLAS_STATUS_EXECUTION_FAILED);   /* as the H200 answers */
   CHECK_ST(cublasStrsmBatched(H, CUBLAS_SIDE_LEFT, U, N, ND, 4, 4, &fone, (const float *const *)d, 3,
                               (float *const *)d, 4, 1), IV);
   CHECK_ST(cublasStrsmBatched(H, CUBLAS_SIDE_LEFT, U, N, ND, 4, 4, &fone, (const float *const *)d, 4,
                               (float *const *)d, 4, -1), IV);
   CHECK_ST(cublasStrsmBatched(H, CUBLAS_SIDE_RIGHT, U, N, ND, 8, 4, &fone, (const float *const *)d, 4,
                               (float *const *)d, 7, 1), IV);
   CHECK_ST(cublasStrsmBatched(H, CUBLAS_SIDE_LEFT, U, N, ND, 4, 4, &fone, (const float *const *)d, 4,
                               (float *const *)d, 4, 0), CUBLAS_STATUS_SUCCESS);
   int info = 5;
   CHECK_ST(cublasSgetrsBatched(H, N, 4, 1, (const float *const *)d, 3, NULL, (float *const *)d, 4, &info, 1), IV);
   CHECK(info < 0);
   info = 5;
   CHECK_ST(cublasSgetrsBatched(H, N, 4, -1, (const float *const *)d, 4, NULL, (float *const *)d, 4, &info, 1), IV);
   CHECK(info < 0);
   CHECK_ST(cublasSgetrfBatched(H, 4, (float *const *)d, 3, NULL, (int *)d, 1), IV);
   CHECK_ST(cublasSgetrfBatched(H, -1, (float *const *)d, 4, NULL, (int *)d, 1), IV);
   CHECK_ST(cublasSgetriBatched(H, 4, (const float *const *)d, 4, NULL, (float *const *)d, 3, (int *)d, 1), IV);
   CHECK_ST(cublasSmatinvBatched(H, 33, (const float *const *)d, 33, (float *const *)d, 33, (int *)d, 1), IV);
   CHECK_ST(cublasSmatinvBatched(H, 4, (const float *const *)d, 4, (float *const *)d, 3, (int *)d, 1), IV);
   info = 5;
   CHECK_ST(cublasSgeqrfBatched(H, 4, 4, (float *const *)d, 3, (float *const *)d, &info, 1), IV);
   CHECK(info < 0);
   info = 5;
   CHECK_ST(cublasSgelsBatched(H, N, 4, 4, 1, (float *const *)d, 4, (float *const *)d, 3, &info, (int *)d, 1), IV);
   CHECK(info < 0);
   CHECK_ST(cublasSgelsBatched(H, N, 3, 4, 1, (float *const *)d, 4, (float *const *)d, 4, &info, (int *)d, 1),
            CUBLAS_STATUS_NOT_SUPPORTED);   /* m < n */
   CHECK_ST(cublasCherkEx(H, U, N, 4, 4, &fone, d, CUDA_C_32F, 3, &fone, d, CUDA_C_32F, 4), IV);
   CHECK_ST(cublasCsyrkEx(H, U, N, 4, 4, &one, d, CUDA_C_32F, 4, &one, d, CUDA_C_32F, 3), IV);
   /* size 0: nothing to do, success */
   CHECK_ST(cublasChemv(H, U, 0, &one, d, 1, d, 1, &one, d, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasCher2k(H, U, N, 0, 4, &one, d, 4, d, 4, &fone, d, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaDeviceSynchronize());
   cudaFree(d);
}

int main(int argc, char **argv)
{
   check_begin("cublas_l2x");
   full = (argc > 1 && !strcmp(argv[1], "--full")) || getenv("MC_TEST_FULL");
   O = oracle_open();
   if (!oracle_have_l2x(&O)) {
      printf("FAIL cublas_l2x: OpenBLAS (libopenblas.so.0 with its cblas_z* routines) is this test's oracle and "
             "is not here\n");
      return 1;
   }
   CHECK_ST(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
   level2<float>();
   level2<double>();
   level2<cuComplex>();
   level2<cuDoubleComplex>();
   level3<cuComplex>();
   level3<cuDoubleComplex>();
   for (int herm = 0; herm < 2; herm++)
      for (int three_m = 0; three_m < 2; three_m++)
         for (int uplo = 0; uplo < 2; uplo++)
            for (int t = 0; t < 2; t++) {
               rkex_t(herm, three_m, uplo, t, 33, 31);
               rkex_t(herm, three_m, uplo, t, 1, 7);
            }
   batched<float>();
   batched<double>();
   batched<cuComplex>();
   batched<cuDoubleComplex>();
   gemv_mixed();
   bad_args();
   nvidia_leniency();
   CHECK_ST(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
