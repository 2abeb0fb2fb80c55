/*
 * cublas_blas.cu — cuBLAS helpers, Level 1 and Level 2 through the library
 * a program links: handles, streams, pointer/math/atomics modes,
 * workspace, versions, status names and strings; Set/GetVector/Matrix;
 * s/d (and c/z) axpy scal copy swap rot rotg dot dotu dotc nrm2 asum iamax
 * iamin with increments 1, 2 and negative (BLAS walks those from the end),
 * results in host and in device memory; gemv (N, T) and ger with odd
 * sizes, lda > m, increments; and the statuses of bad arguments.
 *
 * Expected values: plain double-precision loops on the host (exact up to
 * the bound of oracle.h), gemv also OpenBLAS where present; iamax/iamin
 * and the copies exactly.  Expected statuses: an H200's (README.md).
 */
#include <cublas_v2.h>
#include "../cuda/check.h"
#include "oracle.h"
#include "transfer.h"

#include <vector>

static struct oracle O;
static cublasHandle_t H;

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static bool near(double got, double want, double bound, const char *what)
{
   bool ok = fabs(got - want) <= bound;
   if (!ok)
      printf("  %s: got %.17g, want %.17g (bound %.3g)\n", what, got, want, bound);
   return CHECK(ok);
}


/* index of element i of a BLAS vector of n elements with increment inc */
static long at(int i, int n, int inc)
{
   return inc >= 0 ? (long)i * inc : (long)(n - 1 - i) * -inc;
}

static void helpers(void)
{
   int v = 0;
   CHECK_ST(cublasGetVersion(H, &v), CUBLAS_STATUS_SUCCESS);
   CHECK(v >= 120000);
   int major = -1, minor = -1, patch = -1;
   CHECK_ST(cublasGetProperty(MAJOR_VERSION, &major), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetProperty(MINOR_VERSION, &minor), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetProperty(PATCH_LEVEL, &patch), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(v, major * 10000 + minor * 100 + patch);
   cublasPointerMode_t pm;
   CHECK_ST(cublasGetPointerMode(H, &pm), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(pm, CUBLAS_POINTER_MODE_HOST);
   cublasMath_t mm;
   CHECK_ST(cublasGetMathMode(H, &mm), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(mm, CUBLAS_DEFAULT_MATH);
   CHECK_ST(cublasSetMathMode(H, CUBLAS_TF32_TENSOR_OP_MATH), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetMathMode(H, &mm), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(mm, CUBLAS_TF32_TENSOR_OP_MATH);
   CHECK_ST(cublasSetMathMode(H, CUBLAS_DEFAULT_MATH), CUBLAS_STATUS_SUCCESS);
   cublasAtomicsMode_t am;
   CHECK_ST(cublasGetAtomicsMode(H, &am), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(am, CUBLAS_ATOMICS_NOT_ALLOWED);
   cudaStream_t s, got = (cudaStream_t)1;
   CHECK_ST(cublasGetStream(H, &got), CUBLAS_STATUS_SUCCESS);
   CHECK(got == NULL);
   CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
   CHECK_ST(cublasSetStream(H, s), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetStream(H, &got), CUBLAS_STATUS_SUCCESS);
   CHECK(got == s);
   /* a reduction on the handle's own stream, result in host memory */
   std::vector<float> x(1000);
   for (int i = 0; i < 1000; i++)
      x[i] = (float)(i % 17) - 8;
   float *dx = dev(x), r = -1;
   double want = 0;
   for (int i = 0; i < 1000; i++)
      want += fabs(x[i]);
   CHECK_ST(cublasSasum(H, 1000, dx, 1, &r), CUBLAS_STATUS_SUCCESS);
   CHECK_F32(r, (float)want);
   CHECK_ST(cublasSetStream(H, NULL), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaStreamDestroy(s));
   void *ws;
   CHECK_CUDA(cudaMalloc(&ws, 1 << 20));
   CHECK_ST(cublasSetWorkspace(H, ws, 1 << 20), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSdot(H, 1000, dx, 1, dx, 1, &r), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaFree(dx));
   CHECK_STR(cublasGetStatusName(CUBLAS_STATUS_SUCCESS), "CUBLAS_STATUS_SUCCESS");
   CHECK_STR(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE");
   CHECK_STR(cublasGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED");
   /* cuBLAS 13.1.0.3 on an H200 (driver 580.159.04), 2026-12-02 */
   CHECK_STR(cublasGetStatusString(CUBLAS_STATUS_SUCCESS), "success");
   CHECK_STR(cublasGetStatusString(CUBLAS_STATUS_INVALID_VALUE),
             "an unsupported value or parameter was passed to the function");
   CHECK_STR(cublasGetStatusString(CUBLAS_STATUS_NOT_SUPPORTED), "the requested functionality is not supported");
   CHECK_STR(cublasGetStatusName((cublasStatus_t)99), "unrecognized status");
   CHECK_STR(cublasGetStatusString((cublasStatus_t)99), "unrecognized status");
   /* a second handle is independent */
   cublasHandle_t h2;
   CHECK_ST(cublasCreate(&h2), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetPointerMode(h2, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetPointerMode(H, &pm), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(pm, CUBLAS_POINTER_MODE_HOST);
   CHECK_ST(cublasDestroy(h2), CUBLAS_STATUS_SUCCESS);
   /* the handle uses a workspace it was given until told otherwise: an
    * H200 run that freed it first corrupted later reductions.  Nor may it
    * be left without one: with cublasSetWorkspace(H, NULL, 0), cuBLAS 13.1
    * on an H200 answers CUBLAS_STATUS_NOT_SUPPORTED to every later dot and
    * leaves gemv's y unwritten.  cublasSetStream returns the handle to its
    * default workspace pool, as cuBLAS documents. */
   CHECK_ST(cublasSetWorkspace(H, NULL, 0), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetStream(H, NULL), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaFree(ws));
}

static void setget(void)
{
   /* a 5 x 3 matrix from a host array with lda 7 into device lda 6, back to
    * host lda 8; a vector with increments 3 and 2 */
   std::vector<double> A(7 * 3), B(8 * 3, -1.0);
   for (size_t i = 0; i < A.size(); i++)
      A[i] = (double)i;
   double *d;
   CHECK_CUDA(cudaMalloc(&d, 6 * 3 * sizeof(double)));
   CHECK_CUDA(cudaMemset(d, 0, 6 * 3 * sizeof(double)));
   CHECK_ST(cublasSetMatrix(5, 3, 8, A.data(), 7, d, 6), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetMatrix(5, 3, 8, d, 6, B.data(), 8), CUBLAS_STATUS_SUCCESS);
   long bad = 0;
   for (int j = 0; j < 3; j++)
      for (int i = 0; i < 8; i++)
         bad += B[i + j * 8] != (i < 5 ? A[i + j * 7] : -1.0);
   CHECK_INT(bad, 0);
   std::vector<float> x(12), y(8, 0.f);
   for (int i = 0; i < 12; i++)
      x[i] = (float)(i + 1);
   float *dv;
   CHECK_CUDA(cudaMalloc(&dv, 8 * sizeof(float)));
   CHECK_CUDA(cudaMemset(dv, 0, 8 * sizeof(float)));
   CHECK_ST(cublasSetVector(4, 4, x.data(), 3, dv, 2), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetVector(8, 4, dv, 1, y.data(), 1), CUBLAS_STATUS_SUCCESS);
   float want[8] = { 1, 0, 4, 0, 7, 0, 10, 0 };
   CHECK_ARRAY_F32("vector", y.data(), want, 8);
   CHECK_ST(cublasSetVectorAsync(4, 4, x.data(), 3, dv, 2, 0), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaDeviceSynchronize());
   CHECK_ST(cublasSetVector(4, 4, x.data(), 0, dv, 1), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSetVector(4, 0, x.data(), 1, dv, 1), CUBLAS_STATUS_INVALID_VALUE);
   /* lda < rows: the H200's cuBLAS answers MAPPING_ERROR (its copy fails) */
   CHECK_ST(cublasSetMatrix(5, 3, 8, A.data(), 4, d, 6), CUBLAS_STATUS_MAPPING_ERROR);
   cudaFree(d);
   cudaFree(dv);
}

/* Level 1 in one type over increments (1, 2, -1, -2 for x and y) */
template <class T> struct L1f;
template <> struct L1f<float> {
   static cublasStatus_t axpy(int n, const float *a, const float *x, int ix, float *y, int iy) { return cublasSaxpy(H, n, a, x, ix, y, iy); }
   static cublasStatus_t scal(int n, const float *a, float *x, int ix) { return cublasSscal(H, n, a, x, ix); }
   static cublasStatus_t copy(int n, const float *x, int ix, float *y, int iy) { return cublasScopy(H, n, x, ix, y, iy); }
   static cublasStatus_t swap(int n, float *x, int ix, float *y, int iy) { return cublasSswap(H, n, x, ix, y, iy); }
   static cublasStatus_t rot(int n, float *x, int ix, float *y, int iy, const float *c, const float *s) { return cublasSrot(H, n, x, ix, y, iy, c, s); }
   static cublasStatus_t dot(int n, const float *x, int ix, const float *y, int iy, float *r) { return cublasSdot(H, n, x, ix, y, iy, r); }
   static cublasStatus_t nrm2(int n, const float *x, int ix, float *r) { return cublasSnrm2(H, n, x, ix, r); }
   static cublasStatus_t asum(int n, const float *x, int ix, float *r) { return cublasSasum(H, n, x, ix, r); }
   static cublasStatus_t amax(int n, const float *x, int ix, int *r) { return cublasIsamax(H, n, x, ix, r); }
   static cublasStatus_t amin(int n, const float *x, int ix, int *r) { return cublasIsamin(H, n, x, ix, r); }
   static double u() { return 0x1p-24; }
};
template <> struct L1f<double> {
   static cublasStatus_t axpy(int n, const double *a, const double *x, int ix, double *y, int iy) { return cublasDaxpy(H, n, a, x, ix, y, iy); }
   static cublasStatus_t scal(int n, const double *a, double *x, int ix) { return cublasDscal(H, n, a, x, ix); }
   static cublasStatus_t copy(int n, const double *x, int ix, double *y, int iy) { return cublasDcopy(H, n, x, ix, y, iy); }
   static cublasStatus_t swap(int n, double *x, int ix, double *y, int iy) { return cublasDswap(H, n, x, ix, y, iy); }
   static cublasStatus_t rot(int n, double *x, int ix, double *y, int iy, const double *c, const double *s) { return cublasDrot(H, n, x, ix, y, iy, c, s); }
   static cublasStatus_t dot(int n, const double *x, int ix, const double *y, int iy, double *r) { return cublasDdot(H, n, x, ix, y, iy, r); }
   static cublasStatus_t nrm2(int n, const double *x, int ix, double *r) { return cublasDnrm2(H, n, x, ix, r); }
   static cublasStatus_t asum(int n, const double *x, int ix, double *r) { return cublasDasum(H, n, x, ix, r); }
   static cublasStatus_t amax(int n, const double *x, int ix, int *r) { return cublasIdamax(H, n, x, ix, r); }
   static cublasStatus_t amin(int n, const double *x, int ix, int *r) { return cublasIdamin(H, n, x, ix, r); }
   static double u() { return 0x1p-53; }
};

template <class T> static void level1(const char *tag, int n, int ix, int iy, bool devres)
{
   typedef L1f<T> F;
   char what[128];
   int ax = ix < 0 ? -ix : ix, ay = iy < 0 ? -iy : iy;
   std::vector<T> x(n * ax + 1), y(n * ay + 1);
   for (auto &v : x) v = (T)rnd();
   for (auto &v : y) v = (T)rnd();
   /* a unique largest and smallest |x| */
   if (n > 3) {
      x[at(n / 3, n, ix)] = (T)7.5;
      x[at(n / 2, n, ix)] = (T)-1e-3;
      x[at(n / 2 + 1, n, ix)] = (T)1e-3;   /* ties: the first index wins */
   }
   T *dx = dev(x), *dy = dev(y);
   T a = (T)0.625, *da = dev(std::vector<T>(1, a));
   T *dres;
   CHECK_CUDA(cudaMalloc(&dres, 4 * sizeof(T)));
   if (devres)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   /* reductions */
   double dot = 0, ss = 0, as = 0, mag = 0;
   int imax = 0, imin = 0;
   for (int i = 0; i < n; i++) {
      double xv = x[at(i, n, ix)], yv = y[at(i, n, iy)];
      dot += xv * yv;
      mag += fabs(xv * yv);
      ss += xv * xv;
      as += fabs(xv);
      if (!imax || fabs(xv) > fabs((double)x[at(imax - 1, n, ix)])) imax = i + 1;
      if (!imin || fabs(xv) < fabs((double)x[at(imin - 1, n, ix)])) imin = i + 1;
   }
   double bound = 2 * (n + 2) * F::u();
   T r;
   int ir;
#define RESULT(call, var)                                                                          \
   do {                                                                                             \
      if (devres) {                                                                                 \
         CHECK_ST(call(dres), CUBLAS_STATUS_SUCCESS);                                              \
         CHECK_CUDA(cudaMemcpy(&var, dres, sizeof(var), cudaMemcpyDeviceToHost));                  \
      } else {                                                                                      \
         CHECK_ST(call(&var), CUBLAS_STATUS_SUCCESS);                                              \
      }                                                                                             \
   } while (0)
#define DOTC(p) F::dot(n, dx, ix, dy, iy, (T *)(p))
#define NRMC(p) F::nrm2(n, dx, ix, (T *)(p))
#define ASUMC(p) F::asum(n, dx, ix, (T *)(p))
#define AMAXC(p) F::amax(n, dx, ix, (int *)(p))
#define AMINC(p) F::amin(n, dx, ix, (int *)(p))
   snprintf(what, sizeof(what), "%s dot n=%d incx=%d incy=%d dev=%d", tag, n, ix, iy, devres);
   RESULT(DOTC, r);
   near(r, dot, bound * mag + 1e-300, what);
   if (ix > 0) {
      snprintf(what, sizeof(what), "%s nrm2 n=%d incx=%d dev=%d", tag, n, ix, devres);
      RESULT(NRMC, r);
      near(r, sqrt(ss), bound * sqrt(ss) + 1e-300, what);
      snprintf(what, sizeof(what), "%s asum n=%d incx=%d dev=%d", tag, n, ix, devres);
      RESULT(ASUMC, r);
      near(r, as, bound * as + 1e-300, what);
      RESULT(AMAXC, ir);
      CHECK_INT(ir, imax);
      RESULT(AMINC, ir);
      CHECK_INT(ir, imin);
   } else {   /* incx <= 0: 0 for nrm2, asum, iamax, iamin */
      RESULT(NRMC, r);
      CHECK(r == 0);
      RESULT(AMAXC, ir);
      CHECK_INT(ir, 0);
   }
   /* axpy: y += a x */
   CHECK_ST(F::axpy(n, devres ? da : &a, dx, ix, dy, iy), CUBLAS_STATUS_SUCCESS);
   std::vector<T> yg = host(dy, y.size());
   long bad = 0;
   for (int i = 0; i < n; i++) {
      double want = (double)a * x[at(i, n, ix)] + y[at(i, n, iy)];
      double got = yg[at(i, n, iy)];
      bad += !(fabs(got - want) <= 2 * F::u() * (fabs(want) + fabs((double)a * x[at(i, n, ix)])));
   }
   CHECK_INT(bad, 0);
   /* scal on x (positive increments only), copy x -> y, swap back */
   if (ix > 0) {
      CHECK_ST(F::scal(n, devres ? da : &a, dx, ix), CUBLAS_STATUS_SUCCESS);
      std::vector<T> xg = host(dx, x.size());
      bad = 0;
      for (size_t i = 0; i < x.size(); i++)
         bad += (i % ix == 0 && (long)i < (long)n * ix) ? xg[i] != (T)(a * x[i]) : xg[i] != x[i];
      CHECK_INT(bad, 0);
      CHECK_CUDA(cudaMemcpy(dx, x.data(), x.size() * sizeof(T), cudaMemcpyHostToDevice));
   }
   CHECK_ST(F::copy(n, dx, ix, dy, iy), CUBLAS_STATUS_SUCCESS);
   yg = host(dy, y.size());
   bad = 0;
   for (int i = 0; i < n; i++)
      bad += yg[at(i, n, iy)] != x[at(i, n, ix)];
   CHECK_INT(bad, 0);
   std::vector<T> z(y.size());
   for (auto &v : z) v = (T)rnd();
   CHECK_CUDA(cudaMemcpy(dy, z.data(), z.size() * sizeof(T), cudaMemcpyHostToDevice));
   CHECK_ST(F::swap(n, dx, ix, dy, iy), CUBLAS_STATUS_SUCCESS);
   std::vector<T> xs = host(dx, x.size()), ys = host(dy, y.size());
   bad = 0;
   for (int i = 0; i < n; i++)
      bad += xs[at(i, n, ix)] != z[at(i, n, iy)] || ys[at(i, n, iy)] != x[at(i, n, ix)];
   CHECK_INT(bad, 0);
   /* rot with c = 0.6, s = 0.8 on (xs, ys) */
   T c = (T)0.6, s = (T)0.8, *dc = dev(std::vector<T>(1, c)), *ds = dev(std::vector<T>(1, s));
   CHECK_ST(F::rot(n, dx, ix, dy, iy, devres ? dc : &c, devres ? ds : &s), CUBLAS_STATUS_SUCCESS);
   std::vector<T> xr = host(dx, x.size()), yr = host(dy, y.size());
   bad = 0;
   for (int i = 0; i < n; i++) {
      double xv = xs[at(i, n, ix)], yv = ys[at(i, n, iy)];
      double wx = (double)c * xv + (double)s * yv, wy = (double)c * yv - (double)s * xv;
      double tol = 4 * F::u() * (fabs(xv) + fabs(yv));
      bad += !(fabs(xr[at(i, n, ix)] - wx) <= tol) + !(fabs(yr[at(i, n, iy)] - wy) <= tol);
   }
   CHECK_INT(bad, 0);
   if (devres)
      CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
   cudaFree(dx); cudaFree(dy); cudaFree(da); cudaFree(dres); cudaFree(dc); cudaFree(ds);
}

/* complex dotu/dotc, nrm2, asum, icamax, axpy, scal (c and z through the
 * same code with float or double components) */
static void complex_l1(int n, int inc)
{
   std::vector<cuComplex> x(n * inc), y(n * inc);
   for (auto &v : x) v = make_cuComplex((float)rnd(), (float)rnd());
   for (auto &v : y) v = make_cuComplex((float)rnd(), (float)rnd());
   x[(n / 4) * inc] = make_cuComplex(5, -4);
   std::vector<cuDoubleComplex> xz(x.size()), yz(y.size());
   for (size_t i = 0; i < x.size(); i++) {
      xz[i] = make_cuDoubleComplex(x[i].x, x[i].y);
      yz[i] = make_cuDoubleComplex(y[i].x, y[i].y);
   }
   cuComplex *dx = dev(x), *dy = dev(y), r;
   cuDoubleComplex *ex = dev(xz), *ey = dev(yz), rz;
   double ur = 0, ui = 0, cr = 0, ci = 0, mag = 0, ss = 0, as = 0;
   for (int i = 0; i < n; i++) {
      double a = x[i * inc].x, b = x[i * inc].y, c = y[i * inc].x, d = y[i * inc].y;
      ur += a * c - b * d;
      ui += a * d + b * c;
      cr += a * c + b * d;
      ci += a * d - b * c;
      mag += (fabs(a) + fabs(b)) * (fabs(c) + fabs(d));
      ss += a * a + b * b;
      as += fabs(a) + fabs(b);
   }
   double bs = 4 * (n + 2) * 0x1p-24 * mag, bd = 4 * (n + 2) * 0x1p-53 * mag;
   CHECK_ST(cublasCdotu(H, n, dx, inc, dy, inc, &r), CUBLAS_STATUS_SUCCESS);
   near(r.x, ur, bs, "cdotu re");
   near(r.y, ui, bs, "cdotu im");
   CHECK_ST(cublasCdotc(H, n, dx, inc, dy, inc, &r), CUBLAS_STATUS_SUCCESS);
   near(r.x, cr, bs, "cdotc re");
   near(r.y, ci, bs, "cdotc im");
   CHECK_ST(cublasZdotu(H, n, ex, inc, ey, inc, &rz), CUBLAS_STATUS_SUCCESS);
   near(rz.x, ur, bd, "zdotu re");
   near(rz.y, ui, bd, "zdotu im");
   CHECK_ST(cublasZdotc(H, n, ex, inc, ey, inc, &rz), CUBLAS_STATUS_SUCCESS);
   near(rz.x, cr, bd, "zdotc re");
   near(rz.y, ci, bd, "zdotc im");
   float f;
   double g;
   CHECK_ST(cublasScnrm2(H, n, dx, inc, &f), CUBLAS_STATUS_SUCCESS);
   near(f, sqrt(ss), 4 * (n + 2) * 0x1p-24 * sqrt(ss), "scnrm2");
   CHECK_ST(cublasDznrm2(H, n, ex, inc, &g), CUBLAS_STATUS_SUCCESS);
   near(g, sqrt(ss), 4 * (n + 2) * 0x1p-53 * sqrt(ss), "dznrm2");
   CHECK_ST(cublasScasum(H, n, dx, inc, &f), CUBLAS_STATUS_SUCCESS);
   near(f, as, 4 * (n + 2) * 0x1p-24 * as, "scasum");
   CHECK_ST(cublasDzasum(H, n, ex, inc, &g), CUBLAS_STATUS_SUCCESS);
   near(g, as, 4 * (n + 2) * 0x1p-53 * as, "dzasum");
   int ir;
   CHECK_ST(cublasIcamax(H, n, dx, inc, &ir), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ir, n / 4 + 1);
   CHECK_ST(cublasIzamax(H, n, ex, inc, &ir), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ir, n / 4 + 1);
   /* caxpy: y += (0.5 - 2i) x; zscal: x *= (0.5 - 2i) */
   cuComplex a = make_cuComplex(0.5f, -2.f);
   cuDoubleComplex az = make_cuDoubleComplex(0.5, -2.);
   CHECK_ST(cublasCaxpy(H, n, &a, dx, inc, dy, inc), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasZscal(H, n, &az, ex, inc), CUBLAS_STATUS_SUCCESS);
   std::vector<cuComplex> yg = host(dy, y.size());
   std::vector<cuDoubleComplex> xg = host(ex, xz.size());
   long bad = 0;
   for (int i = 0; i < n; i++) {
      double xr = x[i * inc].x, xi = x[i * inc].y;
      double wr = 0.5 * xr + 2 * xi + y[i * inc].x, wi = 0.5 * xi - 2 * xr + y[i * inc].y;
      bad += !(fabs(yg[i * inc].x - wr) <= 1e-6 * 8) + !(fabs(yg[i * inc].y - wi) <= 1e-6 * 8);
      bad += !(fabs(xg[i * inc].x - (0.5 * xr + 2 * xi)) <= 1e-14) + !(fabs(xg[i * inc].y - (0.5 * xi - 2 * xr)) <= 1e-14);
   }
   CHECK_INT(bad, 0);
   cudaFree(dx); cudaFree(dy); cudaFree(ex); cudaFree(ey);
}

static void rotg(void)
{
   /* reference BLAS drotg: (a, b) = (3, 4) -> r = 5, c = 0.6, s = 0.8, z = 1/c */
   double a = 3, b = 4, c, s;
   CHECK_ST(cublasDrotg(H, &a, &b, &c, &s), CUBLAS_STATUS_SUCCESS);
   near(a, 5, 1e-15, "drotg r");
   near(c, 0.6, 1e-15, "drotg c");
   near(s, 0.8, 1e-15, "drotg s");
   near(b, 1 / 0.6, 1e-14, "drotg z");
   float fa = 4, fb = -3, fc, fs;
   CHECK_ST(cublasSrotg(H, &fa, &fb, &fc, &fs), CUBLAS_STATUS_SUCCESS);
   near(fa, 5, 1e-6, "srotg r");
   near(fc, 0.8, 1e-6, "srotg c");
   near(fs, -0.6, 1e-6, "srotg s");
   near(fb, -0.6, 1e-6, "srotg z");
}

template <class T> static cublasStatus_t gemv(cublasOperation_t t, int m, int n, const T *al, const T *A, int lda,
                                              const T *x, int ix, const T *be, T *y, int iy);
template <> cublasStatus_t gemv<float>(cublasOperation_t t, int m, int n, const float *al, const float *A, int lda,
                                       const float *x, int ix, const float *be, float *y, int iy)
{
   return cublasSgemv(H, t, m, n, al, A, lda, x, ix, be, y, iy);
}
template <> cublasStatus_t gemv<double>(cublasOperation_t t, int m, int n, const double *al, const double *A,
                                        int lda, const double *x, int ix, const double *be, double *y, int iy)
{
   return cublasDgemv(H, t, m, n, al, A, lda, x, ix, be, y, iy);
}
template <class T> static cublasStatus_t ger(int m, int n, const T *al, const T *x, int ix, const T *y, int iy, T *A,
                                             int lda);
template <> cublasStatus_t ger<float>(int m, int n, const float *al, const float *x, int ix, const float *y, int iy,
                                      float *A, int lda)
{
   return cublasSger(H, m, n, al, x, ix, y, iy, A, lda);
}
template <> cublasStatus_t ger<double>(int m, int n, const double *al, const double *x, int ix, const double *y,
                                       int iy, double *A, int lda)
{
   return cublasDger(H, m, n, al, x, ix, y, iy, A, lda);
}

template <class T> static void level2(const char *tag, int trans, int m, int n, int pad, int ix, int iy, bool beta0)
{
   double u = sizeof(T) == 4 ? 0x1p-24 : 0x1p-53;
   int lda = m + pad, lx = trans ? m : n, ly = trans ? n : m;
   int ax = ix < 0 ? -ix : ix, ay = iy < 0 ? -iy : iy;
   std::vector<T> A(lda * n), x(lx * ax), y(ly * ay);
   for (auto &v : A) v = (T)rnd();
   for (auto &v : x) v = (T)rnd();
   for (auto &v : y) v = beta0 ? (T)NAN : (T)rnd();
   T al = (T)1.5, be = beta0 ? (T)0 : (T)-0.5;
   T *dA = dev(A), *dx = dev(x), *dy = dev(y);
   CHECK_ST(gemv<T>((cublasOperation_t)trans, m, n, &al, dA, lda, dx, ix, &be, dy, iy), CUBLAS_STATUS_SUCCESS);
   std::vector<T> yg = host(dy, y.size());
   long bad = 0;
   for (int o = 0; o < ly; o++) {
      double s = 0, mag = 0;
      for (int p = 0; p < lx; p++) {
         double a = trans ? A[p + (long)o * lda] : A[o + (long)p * lda];
         s += a * x[at(p, lx, ix)];
         mag += fabs(a * x[at(p, lx, ix)]);
      }
      double yv = beta0 ? 0 : (double)y[at(o, ly, iy)];
      double want = al * s + be * yv;
      double bound = 2 * (lx + 2) * u * (fabs((double)al) * mag + fabs((double)be * yv)) + 1e-300;
      double got = yg[at(o, ly, iy)];
      if (!(fabs(got - want) <= bound) && bad++ < 3)
         printf("  %s gemv trans=%d m=%d n=%d: y[%d] = %.17g, want %.17g\n", tag, trans, m, n, o, got, want);
   }
   CHECK_INT(bad, 0);
   /* the same against OpenBLAS where present (positive increments) */
   if (oracle_have(&O) && ix > 0 && iy > 0 && !beta0) {
      std::vector<T> R(y);
      if (sizeof(T) == 4)
         O.sgemv(CB_COLMAJOR, cblas_op(trans), m, n, (float)al, (const float *)A.data(), lda, (const float *)x.data(),
                 ix, (float)be, (float *)R.data(), iy);
      else
         O.dgemv(CB_COLMAJOR, cblas_op(trans), m, n, (double)al, (const double *)A.data(), lda,
                 (const double *)x.data(), ix, (double)be, (double *)R.data(), iy);
      bad = 0;
      for (int o = 0; o < ly; o++)
         bad += !(fabs((double)yg[o * iy] - (double)R[o * iy]) <= 4 * (lx + 2) * u * (lx + 1) * 2);
      CHECK_INT(bad, 0);
   }
   /* ger: A += al x y^T with x of m, y of n */
   std::vector<T> gx(m * ax), gy(n * ay);
   for (auto &v : gx) v = (T)rnd();
   for (auto &v : gy) v = (T)rnd();
   T *ex = dev(gx), *ey = dev(gy);
   CHECK_ST(ger<T>(m, n, &al, ex, ix, ey, iy, dA, lda), CUBLAS_STATUS_SUCCESS);
   std::vector<T> Ag = host(dA, A.size());
   bad = 0;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < lda; i++) {
         double want = i < m ? A[i + (long)j * lda] + (double)al * gx[at(i, m, ix)] * gy[at(j, n, iy)] : A[i + (long)j * lda];
         bad += !(fabs(Ag[i + (long)j * lda] - want) <= 4 * u * (fabs(want) + 2));
      }
   CHECK_INT(bad, 0);
   cudaFree(dA); cudaFree(dx); cudaFree(dy); cudaFree(ex); cudaFree(ey);
}

static void bad_args(void)
{
   float one = 1, r = 5, *d;
   int ir = 5;
   CHECK_CUDA(cudaMalloc(&d, 4096));
   CHECK_CUDA(cudaMemset(d, 0, 4096));
   CHECK_ST(cublasSdot(NULL, 4, d, 1, d, 1, &r), CUBLAS_STATUS_NOT_INITIALIZED);
   CHECK_ST(cublasSaxpy(NULL, 4, &one, d, 1, d, 1), CUBLAS_STATUS_NOT_INITIALIZED);
   CHECK_ST(cublasSdot(H, 0, d, 1, d, 1, &r), CUBLAS_STATUS_SUCCESS);
   CHECK(r == 0);   /* n = 0: 0 */
   r = 5;
   CHECK_ST(cublasSnrm2(H, 4, d, 0, &r), CUBLAS_STATUS_SUCCESS);
   CHECK(r == 0);   /* incx = 0: 0 */
   CHECK_ST(cublasIsamax(H, 0, d, 1, &ir), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ir, 0);
   CHECK_ST(cublasSaxpy(H, -1, &one, d, 1, d, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSscal(H, 4, &one, d, 0), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetPointerMode(H, (cublasPointerMode_t)5), CUBLAS_STATUS_INVALID_VALUE);
   /* cuBLAS 13.1 on an H200 (2026-12-02) answers CUBLAS_STATUS_SUCCESS to a
    * gemv with op 9, m = -1, incx = 0 or incy = 0, and to math mode 12, so
    * those are not asserted here (metalcuda refuses them: INVALID_VALUE);
    * it does refuse lda < m. */
   CHECK_ST(cublasSgemv(H, CUBLAS_OP_N, 3, 2, &one, d, 2, d, 1, &one, d, 1), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSgemv(H, CUBLAS_OP_N, 0, 2, &one, d, 1, d, 1, &one, d, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSger(H, 2, 2, &one, d, 0, d, 1, d, 2), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSger(H, 3, 2, &one, d, 1, d, 1, d, 2), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasSger(H, -1, 2, &one, d, 1, d, 1, d, 2), CUBLAS_STATUS_INVALID_VALUE);
   /* the output pointer is checked before the handle (H200) */
   CHECK_ST(cublasGetPointerMode(NULL, NULL), CUBLAS_STATUS_INVALID_VALUE);
   CHECK_ST(cublasDestroy(NULL), CUBLAS_STATUS_NOT_INITIALIZED);
   cudaFree(d);
}

int main(void)
{
   check_begin("cublas_blas");
   O = oracle_open();
   CHECK_ST(cublasCreate(&H), CUBLAS_STATUS_SUCCESS);
   helpers();
   setget();
   static const int incs[][2] = { { 1, 1 }, { 2, 3 }, { -1, 1 }, { 1, -2 }, { -2, -1 } };
   for (int devres = 0; devres < 2; devres++)
      for (unsigned i = 0; i < sizeof(incs) / sizeof(incs[0]); i++) {
         level1<float>("S", i ? 37 : 5000, incs[i][0], incs[i][1], devres);
         level1<double>("D", i ? 41 : 3001, incs[i][0], incs[i][1], devres);
      }
   level1<float>("S", 1, 1, 1, false);
   complex_l1(333, 1);
   complex_l1(17, 2);
   rotg();
   for (int t = 0; t < 2; t++) {
      level2<float>("S", t, 37, 19, 3, 1, 1, false);
      level2<float>("S", t, 5, 300, 0, 2, -1, false);
      level2<double>("D", t, 29, 7, 1, -2, 3, false);
      level2<double>("D", t, 1, 1, 0, 1, 1, true);
      level2<float>("S", t, 13, 11, 0, 1, 1, true);
   }
   bad_args();
   CHECK_ST(cublasDestroy(H), CUBLAS_STATUS_SUCCESS);
   return check_end();
}
