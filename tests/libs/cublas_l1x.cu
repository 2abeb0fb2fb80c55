/*
 * cublas_l1x.cu — the rest of cuBLAS's Level 1: csscal/zdscal,
 * csrot/zdrot and crot/zrot, crotg/zrotg, the 64-bit index of the _64
 * index searches, and the Ex forms (DotEx DotcEx AxpyEx ScalEx Nrm2Ex
 * AsumEx (not of 16-bit data) IamaxEx IaminEx CopyEx SwapEx RotEx RotgEx RotmEx RotmgEx) over
 * half, bfloat16, float, double and complex data, results in host and
 * device memory, and combinations cuBLAS refuses; the _64 Set/Get
 * Vector/Matrix copies; Cgemm3m, Zgemm3m, Cgemm3mStridedBatched and CgemmEx
 * (CUDA_C_32F) against the product by definition; grouped batched GEMM
 * (S and Ex, two groups of their own shapes, exact on small integers);
 * tpttr/trttp (upper and lower, the rest untouched, round trip); GemmEx
 * with bfloat16 A and B, bfloat16 or float C (small and packed sizes).
 *
 * Expected values: double loops on the host from the BLAS definitions
 * (crotg: reference BLAS's algorithm in long double), the 16-bit inputs
 * converted exactly; a result is within its error bound (a product and a
 * sum of two: a few units of the result's precision; sums of n terms:
 * n u sum|terms| plus the final rounding); scal by a real and the copies
 * exactly.  Statuses of refused combinations: an H200's.
 */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include "../cuda/check.h"
#include "transfer.h"

#include <math.h>
#include <stdint.h>
#include <vector>

static cublasHandle_t H;

#define CHECK_ST(call, want) CHECK_INT((int)(call), (int)(want))

static bool near(double got, double want, double bound, const char *what)
{
   bool ok = fabs(got - want) <= bound || (isnan(got) && isnan(want)) || (got == want);
   if (!ok)
      printf("  %s: got %.17g, want %.17g (bound %.3g)\n", what, got, want, bound);
   return CHECK(ok);
}

/* equal, or both NaN (a GPU's NaN need not keep the payload) */
static bool same_f32(float got, float want)
{
   return isnan(want) ? CHECK(isnan(got)) : CHECK_F32(got, want);
}

static const double UF = 0x1p-24, UD = 0x1p-53, UH = 0x1p-11, UB = 0x1p-8;

/* ---- csscal / zdscal: x times (alpha, 0) as a complex product, as an
 * H200 computes it (an infinite or NaN part makes the other NaN); finite
 * parts exact ---- */
static void csscal(void)
{
   std::vector<cuComplex> x = { { 1.5f, -2.25f }, { INFINITY, 1.0f }, { 3.0f, NAN }, { 1e-30f, 7.0f },
                                { -0.0f, 0.5f } };
   float a = 2.5f;
   cuComplex *d = dev(x);
   CHECK_ST(cublasCsscal(H, (int)x.size(), &a, d, 1), CUBLAS_STATUS_SUCCESS);
   std::vector<cuComplex> got = host(d, x.size());
   for (size_t i = 0; i < x.size(); i++) {
      same_f32(got[i].x, a * x[i].x - 0.0f * x[i].y);
      same_f32(got[i].y, a * x[i].y + 0.0f * x[i].x);
   }
   cudaFree(d);
   std::vector<cuDoubleComplex> z = { { 1.25, -3.5 }, { -INFINITY, 2.0 }, { 0.1, 0.7 } };
   double b = -0.75;
   cuDoubleComplex *dz = dev(z);
   CHECK_ST(cublasZdscal(H, 3, &b, dz, 1), CUBLAS_STATUS_SUCCESS);
   std::vector<cuDoubleComplex> gz = host(dz, 3);
   for (int i = 0; i < 3; i++) {
      double wx = b * z[i].x - 0.0 * z[i].y, wy = b * z[i].y + 0.0 * z[i].x;
      CHECK(isnan(wx) ? isnan(gz[i].x) : gz[i].x == wx);
      CHECK(isnan(wy) ? isnan(gz[i].y) : gz[i].y == wy);
   }
   cudaFree(dz);
}

/* ---- complex rotations ---- */
template <class T, class R> static void crot_case(bool complex_s, int n, int incx, int incy)
{
   const bool dbl = sizeof(R) == 8;
   const double u = dbl ? UD : UF;
   int nx = n * abs(incx), ny = n * abs(incy);
   std::vector<T> x(nx), y(ny);
   for (int i = 0; i < nx; i++)
      x[i] = fromc<T>(cd(sin(i + 1.0), cos(3.0 * i)));
   for (int i = 0; i < ny; i++)
      y[i] = fromc<T>(cd(cos(i + 0.5), -sin(2.0 * i)));
   R c = (R)0.6;
   T s = fromc<T>(complex_s ? cd(0.48, -0.64) : cd(0.8, 0));
   R sr = (R)0.8;
   T *dx = dev(x), *dy = dev(y);
   cublasStatus_t st;
   if (complex_s)
      st = dbl ? cublasZrot(H, n, (cuDoubleComplex *)dx, incx, (cuDoubleComplex *)dy, incy, (const double *)&c,
                            (const cuDoubleComplex *)&s)
               : cublasCrot(H, n, (cuComplex *)dx, incx, (cuComplex *)dy, incy, (const float *)&c, (const cuComplex *)&s);
   else
      st = dbl ? cublasZdrot(H, n, (cuDoubleComplex *)dx, incx, (cuDoubleComplex *)dy, incy, (const double *)&c,
                             (const double *)&sr)
               : cublasCsrot(H, n, (cuComplex *)dx, incx, (cuComplex *)dy, incy, (const float *)&c, (const float *)&sr);
   CHECK_ST(st, CUBLAS_STATUS_SUCCESS);
   std::vector<T> gx = host(dx, nx), gy = host(dy, ny);
   cd sc = complex_s ? toc(s) : cd(sr, 0);
   for (int i = 0; i < n; i++) {
      long ix = incx > 0 ? (long)i * incx : (long)(n - 1 - i) * -incx;
      long iy = incy > 0 ? (long)i * incy : (long)(n - 1 - i) * -incy;
      cd xv = toc(x[ix]), yv = toc(y[iy]);
      cd wx = (double)c * xv + sc * yv, wy = (double)c * yv - std::conj(sc) * xv;
      double bx = 8 * u * (abs(xv) + abs(yv)) + 1e-300;
      near(toc(gx[ix]).real(), wx.real(), bx, "rot x.re");
      near(toc(gx[ix]).imag(), wx.imag(), bx, "rot x.im");
      near(toc(gy[iy]).real(), wy.real(), bx, "rot y.re");
      near(toc(gy[iy]).imag(), wy.imag(), bx, "rot y.im");
   }
   cudaFree(dx);
   cudaFree(dy);
}

/* reference BLAS crotg, in long double */
static void crotg_ref(cd a, cd b, double *c, cd *s, cd *r)
{
   long double aa = hypotl(a.real(), a.imag()), ab = hypotl(b.real(), b.imag());
   if (aa == 0) {
      *c = 0;
      *s = cd(1, 0);
      *r = b;
      return;
   }
   long double scale = aa + ab;
   long double norm = scale * sqrtl((aa / scale) * (aa / scale) + (ab / scale) * (ab / scale));
   long double alr = a.real() / aa, ali = a.imag() / aa;
   *c = (double)(aa / norm);
   *s = cd((double)((alr * b.real() + ali * b.imag()) / norm), (double)((ali * b.real() - alr * b.imag()) / norm));
   *r = cd((double)(alr * norm), (double)(ali * norm));
}

static void crotg(void)
{
   const cd cases[][2] = { { cd(3, 4), cd(1, -2) }, { cd(0, 0), cd(2, 5) }, { cd(-1e-3, 2e-3), cd(7, 0) },
                           { cd(1e20, -1e20), cd(3e19, 1e18) } };
   for (int k = 0; k < 4; k++) {
      double wc;
      cd ws, wr;
      crotg_ref(cases[k][0], cases[k][1], &wc, &ws, &wr);
      cuComplex a = fromc<cuComplex>(cases[k][0]), b = fromc<cuComplex>(cases[k][1]), s;
      float c;
      CHECK_ST(cublasCrotg(H, &a, &b, &c, &s), CUBLAS_STATUS_SUCCESS);
      double ur = 8 * UF * abs(wr);
      near(c, wc, 8 * UF, "crotg c");
      near(s.x, ws.real(), 8 * UF, "crotg s.re");
      near(s.y, ws.imag(), 8 * UF, "crotg s.im");
      near(a.x, wr.real(), ur, "crotg r.re");
      near(a.y, wr.imag(), ur, "crotg r.im");
      CHECK(toc(b) == toc(fromc<cuComplex>(cases[k][1])));   /* b is not written */
      cuDoubleComplex za = fromc<cuDoubleComplex>(cases[k][0]), zb = fromc<cuDoubleComplex>(cases[k][1]), zs;
      double zc;
      CHECK_ST(cublasZrotg(H, &za, &zb, &zc, &zs), CUBLAS_STATUS_SUCCESS);
      near(zc, wc, 8 * UD, "zrotg c");
      near(zs.x, ws.real(), 8 * UD, "zrotg s.re");
      near(zs.y, ws.imag(), 8 * UD, "zrotg s.im");
      near(za.x, wr.real(), 8 * UD * abs(wr), "zrotg r.re");
      near(za.y, wr.imag(), 8 * UD * abs(wr), "zrotg r.im");
   }
   /* scalars in device memory */
   cuComplex hv[4] = { { 3, 4 }, { 1, -2 }, { 0, 0 }, { 0, 0 } };
   cuComplex *dv = NULL;
   CHECK_CUDA(cudaMalloc(&dv, sizeof(hv)));
   CHECK_CUDA(cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice));
   CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasCrotg(H, &dv[0], &dv[1], (float *)&dv[2], &dv[3]), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(hv, dv, sizeof(hv), cudaMemcpyDeviceToHost));
   double wc;
   cd ws, wr;
   crotg_ref(cd(3, 4), cd(1, -2), &wc, &ws, &wr);
   near(hv[2].x, wc, 8 * UF, "crotg device c");
   near(hv[3].x, ws.real(), 8 * UF, "crotg device s.re");
   near(hv[0].y, wr.imag(), 8 * UF * abs(wr), "crotg device r.im");
   cudaFree(dv);
}

/* ---- the _64 index searches answer 64 bits ---- */
static void index64(void)
{
   std::vector<float> x = { 1, -7, 3, 7, -2 };
   float *d = dev(x);
   int64_t r = -1;
   CHECK_ST(cublasIsamax_v2_64(H, 5, d, 1, &r), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(r, 2);
   r = -1;
   CHECK_ST(cublasIsamin_v2_64(H, 5, d, 1, &r), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(r, 1);
   r = -1;
   CHECK_ST(cublasIamaxEx_64(H, 5, d, CUDA_R_32F, 1, &r), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(r, 2);
   cudaFree(d);
}

/* ---- the Ex forms on 16-bit data ---- */
struct h16 {
   static __half from(double v) { return __double2half(v); }
   static double to(__half v) { return (double)__half2float(v); }
};
struct b16 {
   static __nv_bfloat16 from(double v) { return __double2bfloat16(v); }
   static double to(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
};

template <class S, class C> static void ex16(cudaDataType t, double u16, const char *tag)
{
   const int n = 300;
   std::vector<S> x(n), y(n);
   for (int i = 0; i < n; i++) {
      x[i] = C::from(((i * 37) % 101 - 50) / 16.0);
      y[i] = C::from(((i * 53) % 89 - 44) / 8.0);
   }
   float one = 1, alpha = 0.75f;
   S *dx = dev(x), *dy = dev(y);
   /* dot: float sums, one rounding to the data's type */
   double want = 0, mag = 0;
   for (int i = 0; i < n; i++) {
      want += C::to(x[i]) * C::to(y[i]);
      mag += fabs(C::to(x[i]) * C::to(y[i]));
   }
   S r;
   CHECK_ST(cublasDotEx(H, n, dx, t, 1, dy, t, 1, &r, t, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   near(C::to(r), want, u16 * fabs(want) + 2 * n * UF * mag, tag);
   /* nrm2 and asum */
   double ss = 0, sa = 0;
   for (int i = 0; i < n; i++) {
      ss += C::to(x[i]) * C::to(x[i]);
      sa += fabs(C::to(x[i]));
   }
   CHECK_ST(cublasNrm2Ex(H, n, dx, t, 1, &r, t, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   near(C::to(r), sqrt(ss), u16 * sqrt(ss) + 2 * n * UF * sqrt(ss), "nrm2");
   /* cuBLAS has no asum of 16-bit data (an H200's status) */
   CHECK_ST(cublasAsumEx(H, n, dx, t, 1, &r, t, CUDA_R_32F), CUBLAS_STATUS_NOT_SUPPORTED);
   (void)sa;
   /* iamax / iamin: the first largest / smallest magnitude, exact */
   int imax = 0, imin = 0;
   for (int i = 1; i < n; i++) {
      if (fabs(C::to(x[i])) > fabs(C::to(x[imax])))
         imax = i;
      if (fabs(C::to(x[i])) < fabs(C::to(x[imin])))
         imin = i;
   }
   int ri = -1;
   CHECK_ST(cublasIamaxEx(H, n, dx, t, 1, &ri), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ri, imax + 1);
   CHECK_ST(cublasIaminEx(H, n, dx, t, 1, &ri), CUBLAS_STATUS_SUCCESS);
   CHECK_INT(ri, imin + 1);
   /* the result in device memory */
   S *dr = NULL;
   CHECK_CUDA(cudaMalloc(&dr, sizeof(S)));
   CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_DEVICE), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasNrm2Ex(H, n, dx, t, 1, dr, t, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasSetPointerMode(H, CUBLAS_POINTER_MODE_HOST), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaMemcpy(&r, dr, sizeof(S), cudaMemcpyDeviceToHost));
   near(C::to(r), sqrt(ss), u16 * sqrt(ss) + 2 * n * UF * sqrt(ss), "nrm2 in device memory");
   cudaFree(dr);
   /* axpy over a stride-2 y: y = alpha x + y, one rounding */
   std::vector<S> y2(2 * n);
   for (int i = 0; i < 2 * n; i++)
      y2[i] = C::from(i % 7 - 3.0);
   S *dy2 = dev(y2);
   CHECK_ST(cublasAxpyEx(H, n, &alpha, CUDA_R_32F, dx, t, 1, dy2, t, 2, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   std::vector<S> g = host(dy2, 2 * n);
   for (int i = 0; i < n; i++) {
      double w = alpha * C::to(x[i]) + C::to(y2[2 * i]);
      near(C::to(g[2 * i]), w, u16 * fabs(w) + 1e-30, "axpy");
      CHECK(C::to(g[2 * i + 1]) == C::to(y2[2 * i + 1]));   /* the gaps untouched */
   }
   /* scal */
   CHECK_ST(cublasScalEx(H, n, &alpha, CUDA_R_32F, dy, t, 1, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   g = host(dy, n);
   for (int i = 0; i < n; i++)
      near(C::to(g[i]), alpha * C::to(y[i]), u16 * fabs(alpha * C::to(y[i])), "scal");
   /* rot with c and s of the data's type */
   S c = C::from(0.6), s = C::from(0.8);
   std::vector<S> yv = host(dy, n);
   CHECK_ST(cublasRotEx(H, n, dx, t, 1, dy, t, 1, &c, &s, t, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   std::vector<S> gx = host(dx, n), gy = host(dy, n);
   for (int i = 0; i < n; i++) {
      double xv = C::to(x[i]), yw = C::to(yv[i]), cv = C::to(c), sv = C::to(s);
      double b = u16 * (fabs(xv) + fabs(yw)) + 1e-30;
      near(C::to(gx[i]), cv * xv + sv * yw, b, "rot x");
      near(C::to(gy[i]), cv * yw - sv * xv, b, "rot y");
   }
   /* copy and swap move bits */
   std::vector<S> z(n, C::from(0));
   S *dz = dev(z);
   CHECK_ST(cublasCopyEx(H, n, dx, t, 1, dz, t, 1), CUBLAS_STATUS_SUCCESS);
   CHECK(memcmp(host(dz, n).data(), gx.data(), n * sizeof(S)) == 0);
   CHECK_ST(cublasSwapEx(H, n, dz, t, 1, dy, t, 1), CUBLAS_STATUS_SUCCESS);
   CHECK(memcmp(host(dy, n).data(), gx.data(), n * sizeof(S)) == 0);
   CHECK(memcmp(host(dz, n).data(), gy.data(), n * sizeof(S)) == 0);
   (void)one;
   cudaFree(dx);
   cudaFree(dy);
   cudaFree(dy2);
   cudaFree(dz);
}

/* ---- the Ex forms on float, double and complex data ---- */
static void ex_wide(void)
{
   const int n = 257;
   std::vector<float> x(n), y(n);
   std::vector<cuDoubleComplex> zx(n), zy(n);
   for (int i = 0; i < n; i++) {
      x[i] = sinf(i * 0.37f);
      y[i] = cosf(i * 0.11f);
      zx[i] = make_cuDoubleComplex(sin(i * 0.5), cos(i * 0.25));
      zy[i] = make_cuDoubleComplex(cos(i * 0.3), -sin(i * 0.7));
   }
   float *dx = dev(x), *dy = dev(y);
   cuDoubleComplex *dzx = dev(zx), *dzy = dev(zy);
   double w = 0, m = 0;
   for (int i = 0; i < n; i++) {
      w += (double)x[i] * y[i];
      m += fabs((double)x[i] * y[i]);
   }
   float r;
   CHECK_ST(cublasDotEx(H, n, dx, CUDA_R_32F, 1, dy, CUDA_R_32F, 1, &r, CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
   near(r, w, 2 * n * UF * m, "DotEx f32");
   cd wz = 0, wc = 0;
   double mz = 0;
   for (int i = 0; i < n; i++) {
      wz += toc(zx[i]) * toc(zy[i]);
      wc += std::conj(toc(zx[i])) * toc(zy[i]);
      mz += abs(toc(zx[i])) * abs(toc(zy[i]));
   }
   cuDoubleComplex rz;
   CHECK_ST(cublasDotEx(H, n, dzx, CUDA_C_64F, 1, dzy, CUDA_C_64F, 1, &rz, CUDA_C_64F, CUDA_C_64F),
            CUBLAS_STATUS_SUCCESS);
   near(rz.x, wz.real(), 4 * n * UD * mz, "DotEx z.re");
   near(rz.y, wz.imag(), 4 * n * UD * mz, "DotEx z.im");
   CHECK_ST(cublasDotcEx(H, n, dzx, CUDA_C_64F, 1, dzy, CUDA_C_64F, 1, &rz, CUDA_C_64F, CUDA_C_64F),
            CUBLAS_STATUS_SUCCESS);
   near(rz.x, wc.real(), 4 * n * UD * mz, "DotcEx z.re");
   near(rz.y, wc.imag(), 4 * n * UD * mz, "DotcEx z.im");
   /* nrm2 of complex data: a real result */
   double ss = 0;
   for (int i = 0; i < n; i++)
      ss += norm(toc(zx[i]));
   double rn;
   CHECK_ST(cublasNrm2Ex(H, n, dzx, CUDA_C_64F, 1, &rn, CUDA_R_64F, CUDA_R_64F), CUBLAS_STATUS_SUCCESS);
   near(rn, sqrt(ss), 4 * n * UD * sqrt(ss), "Nrm2Ex z");
   /* axpy and scal in double complex */
   cuDoubleComplex za = make_cuDoubleComplex(0.5, -1.25);
   CHECK_ST(cublasAxpyEx(H, n, &za, CUDA_C_64F, dzx, CUDA_C_64F, 1, dzy, CUDA_C_64F, 1, CUDA_C_64F),
            CUBLAS_STATUS_SUCCESS);
   std::vector<cuDoubleComplex> g = host(dzy, n);
   for (int i = 0; i < n; i++) {
      cd want = toc(za) * toc(zx[i]) + toc(zy[i]);
      double b = 4 * UD * (abs(toc(za)) * abs(toc(zx[i])) + abs(toc(zy[i])));
      near(g[i].x, want.real(), b, "AxpyEx z.re");
      near(g[i].y, want.imag(), b, "AxpyEx z.im");
   }
   CHECK_ST(cublasScalEx(H, n, &za, CUDA_C_64F, dzx, CUDA_C_64F, 1, CUDA_C_64F), CUBLAS_STATUS_SUCCESS);
   g = host(dzx, n);
   for (int i = 0; i < n; i++) {
      cd want = toc(za) * toc(zx[i]);
      double b = 4 * UD * abs(toc(za)) * abs(toc(zx[i]));
      near(g[i].x, want.real(), b, "ScalEx z.re");
      near(g[i].y, want.imag(), b, "ScalEx z.im");
   }
   /* rot: complex data with real c and s, and with complex c (only its real part counts) and s */
   std::vector<cuComplex> cx(n), cy(n);
   for (int i = 0; i < n; i++) {
      cx[i] = make_cuComplex(sinf(i * 0.2f), 1.0f - i * 0.01f);
      cy[i] = make_cuComplex(cosf(i * 0.4f), i * 0.02f);
   }
   for (int k = 0; k < 2; k++) {
      cuComplex *dcx = dev(cx), *dcy = dev(cy);
      float cr = 0.6f, sr = 0.8f;
      cuComplex cc = make_cuComplex(0.6f, 123.0f), sc = make_cuComplex(0.48f, 0.64f);
      if (k == 0)
         CHECK_ST(cublasRotEx(H, n, dcx, CUDA_C_32F, 1, dcy, CUDA_C_32F, 1, &cr, &sr, CUDA_R_32F, CUDA_C_32F),
                  CUBLAS_STATUS_SUCCESS);
      else
         CHECK_ST(cublasRotEx(H, n, dcx, CUDA_C_32F, 1, dcy, CUDA_C_32F, 1, &cc, &sc, CUDA_C_32F, CUDA_C_32F),
                  CUBLAS_STATUS_SUCCESS);
      std::vector<cuComplex> gx = host(dcx, n), gy = host(dcy, n);
      cd s = k ? toc(sc) : cd(sr, 0);
      for (int i = 0; i < n; i++) {
         cd xv = toc(cx[i]), yv = toc(cy[i]);
         cd wx = 0.6 * xv + s * yv, wy = 0.6 * yv - std::conj(s) * xv;
         double b = 8 * UF * (abs(xv) + abs(yv));
         near(toc(gx[i]).real(), wx.real(), b, k ? "RotEx complex cs x.re" : "RotEx real cs x.re");
         near(toc(gx[i]).imag(), wx.imag(), b, "RotEx x.im");
         near(toc(gy[i]).real(), wy.real(), b, "RotEx y.re");
         near(toc(gy[i]).imag(), wy.imag(), b, "RotEx y.im");
      }
      cudaFree(dcx);
      cudaFree(dcy);
   }
   /* rotg, rotm and rotmg Ex in float: the typed routines' definitions */
   float a = 3, b = 4, c, s;
   CHECK_ST(cublasRotgEx(H, &a, &b, CUDA_R_32F, &c, &s, CUDA_R_32F, CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   near(a, 5, 4 * 5 * UF, "RotgEx r");
   near(c, 0.6, 4 * UF, "RotgEx c");
   near(s, 0.8, 4 * UF, "RotgEx s");
   float param[5] = { -1, 2, 3, -1, 0.5f };   /* H = [2 -1; 3 0.5] */
   std::vector<float> px(x.begin(), x.begin() + 16), py(y.begin(), y.begin() + 16);
   float *dpx = dev(px), *dpy = dev(py);
   CHECK_ST(cublasRotmEx(H, 16, dpx, CUDA_R_32F, 1, dpy, CUDA_R_32F, 1, param, CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_SUCCESS);
   std::vector<float> gpx = host(dpx, 16), gpy = host(dpy, 16);
   for (int i = 0; i < 16; i++) {
      near(gpx[i], 2.0 * px[i] - py[i], 4 * UF * (2 * fabs(px[i]) + fabs(py[i])), "RotmEx x");
      near(gpy[i], 3.0 * px[i] + 0.5 * py[i], 4 * UF * (3 * fabs(px[i]) + fabs(py[i])), "RotmEx y");
   }
   /* rotmg with d1 = d2 = 1, x1 = 1, y1 = 2: |q1| < |q2| gives flag 1, h11 = 1/2, h22 = 1/2 */
   float d1 = 1, d2 = 1, x1 = 1, y1 = 2, pm[5] = { 0, 0, 0, 0, 0 };
   CHECK_ST(cublasRotmgEx(H, &d1, CUDA_R_32F, &d2, CUDA_R_32F, &x1, CUDA_R_32F, &y1, CUDA_R_32F, pm, CUDA_R_32F,
                          CUDA_R_32F), CUBLAS_STATUS_SUCCESS);
   CHECK_F32(pm[0], 1.0f);
   CHECK_F32(pm[1], 0.5f);
   CHECK_F32(pm[4], 0.5f);
   CHECK_F32(x1, 2.5f);   /* y1 (1 + h11 h22) */
   cudaFree(dx);
   cudaFree(dy);
   cudaFree(dzx);
   cudaFree(dzy);
   cudaFree(dpx);
   cudaFree(dpy);
}

/* ---- combinations cuBLAS refuses (the H200's statuses) ---- */
static void refused(void)
{
   float *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, 64));
   float r = 0, a = 1;
   CHECK_ST(cublasDotEx(H, 4, d, CUDA_R_32F, 1, d, CUDA_R_64F, 1, &r, CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_NOT_SUPPORTED);
   CHECK_ST(cublasDotEx(H, 4, d, CUDA_R_32F, 1, d, CUDA_R_32F, 1, &r, CUDA_R_32F, CUDA_R_64F),
            CUBLAS_STATUS_NOT_SUPPORTED);
   CHECK_ST(cublasAxpyEx(H, 4, &a, CUDA_R_32F, d, CUDA_R_8I, 1, d, CUDA_R_8I, 1, CUDA_R_32F),
            CUBLAS_STATUS_NOT_SUPPORTED);
   CHECK_ST(cublasNrm2Ex(H, 4, d, CUDA_R_32F, 1, &r, CUDA_R_64F, CUDA_R_32F), CUBLAS_STATUS_NOT_SUPPORTED);
   cudaFree(d);
   /* a real alpha with complex data; 16-bit data with float c and s */
   cuComplex *dx = NULL;
   CHECK_CUDA(cudaMalloc(&dx, 64));
   float a2 = 2.0f;
   CHECK_ST(cublasScalEx(H, 2, &a2, CUDA_R_32F, dx, CUDA_C_32F, 1, CUDA_C_32F), CUBLAS_STATUS_NOT_SUPPORTED);
   CHECK_ST(cublasScalEx(H, 2, &a2, CUDA_R_32F, dx, CUDA_C_32F, 1, CUDA_R_32F), CUBLAS_STATUS_NOT_SUPPORTED);
   CHECK_ST(cublasRotEx(H, 0, dx, CUDA_R_16F, 1, dx, CUDA_R_16F, 1, &a2, &a2, CUDA_R_32F, CUDA_R_32F),
            CUBLAS_STATUS_NOT_SUPPORTED);
   cudaFree(dx);
}

/* ---- the _64 copies and the 3m / CgemmEx GEMMs ---- */
static void copies64(void)
{
   std::vector<double> h(40), back(40, -1);
   for (int i = 0; i < 40; i++)
      h[i] = i * 1.5 - 7;
   double *d = NULL;
   CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(double)));
   /* every second element of x to a contiguous device vector and back with increment 4 */
   CHECK_ST(cublasSetVector_64(20, sizeof(double), h.data(), 2, d, 1), CUBLAS_STATUS_SUCCESS);
   CHECK_ST(cublasGetVector_64(10, sizeof(double), d, 2, back.data(), 4), CUBLAS_STATUS_SUCCESS);
   for (int i = 0; i < 10; i++)
      CHECK(back[4 * i] == h[4 * i]);
   CHECK(back[1] == -1);
   /* a 5 x 4 matrix with lda 8 into ldb 5, back asynchronously */
   CHECK_ST(cublasSetMatrix_64(5, 4, sizeof(double), h.data(), 8, d, 5), CUBLAS_STATUS_SUCCESS);
   std::vector<double> m(20, 0);
   CHECK_ST(cublasGetMatrixAsync_64(5, 4, sizeof(double), d, 5, m.data(), 5, 0), CUBLAS_STATUS_SUCCESS);
   CHECK_CUDA(cudaStreamSynchronize(0));
   for (int j = 0; j < 4; j++)
      for (int i = 0; i < 5; i++)
         CHECK(m[j * 5 + i] == h[j * 8 + i]);
   CHECK_ST(cublasSetVectorAsync_64(3, sizeof(double), h.data(), 1, d, 1, 0), CUBLAS_STATUS_SUCCESS);
   /* a negative length: the H200's status */
   CHECK_ST(cublasGetVector_64(-1, sizeof(double), d, 1, back.data(), 1), CUBLAS_STATUS_MAPPING_ERROR);
   CHECK_ST(cublasSetVector(-1, sizeof(double), back.data(), 1, d, 1), CUBLAS_STATUS_MAPPING_ERROR);
   /* (these run last: NVIDIA's failed copy leaves the last error of the
    * runtime inside NVIDIA's libcublas set, which a later grouped GEMM
    * answers as EXECUTION_FAILED, as seen on the H200; the program cannot
    * clear it) */
   cudaFree(d);
}

/* C = alpha op(A) op(B) + beta C by definition */
template <class T>
static void check_gemm(const char *what, cublasOperation_t ta, int m, int n, int k, cd alpha, const std::vector<T> &A,
                       int lda, const std::vector<T> &B, int ldb, cd beta, const std::vector<T> &C0,
                       const std::vector<T> &C, int ldc, double u)
{
   for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) {
         cd w = 0;
         double mg = 0;
         for (int l = 0; l < k; l++) {
            cd a = ta == CUBLAS_OP_N ? toc(A[l * lda + i]) : ta == CUBLAS_OP_T ? toc(A[i * lda + l])
                                                                                : std::conj(toc(A[i * lda + l]));
            w += a * toc(B[j * ldb + l]);
            mg += abs(a) * abs(toc(B[j * ldb + l]));
         }
         cd want = alpha * w + beta * toc(C0[j * ldc + i]);
         double b = 4 * (k + 2) * u * (abs(alpha) * mg + abs(beta) * abs(toc(C0[j * ldc + i])));
         near(toc(C[j * ldc + i]).real(), want.real(), b, what);
         near(toc(C[j * ldc + i]).imag(), want.imag(), b, what);
      }
}

template <class T> static std::vector<T> cfill(int n, int seed)
{
   std::vector<T> v(n);
   for (int i = 0; i < n; i++)
      v[i] = fromc<T>(cd(((i * 7 + seed) % 13) / 4.0 - 1.5, ((i * 5 + seed) % 11) / 4.0 - 1.25));
   return v;
}

static void gemm3m(void)
{
   const int m = 13, n = 9, k = 11, ld = 16;
   std::vector<cuComplex> A = cfill<cuComplex>(ld * 16, 1), B = cfill<cuComplex>(ld * 16, 2),
                          C = cfill<cuComplex>(ld * n * 2, 3);
   cuComplex alpha = make_cuComplex(0.5f, -0.25f), beta = make_cuComplex(-1.0f, 0.5f);
   cuComplex *dA = dev(A), *dB = dev(B), *dC = dev(C);
   CHECK_ST(cublasCgemm3m(H, CUBLAS_OP_C, CUBLAS_OP_N, m, n, k, &alpha, dA, ld, dB, ld, &beta, dC, ld),
            CUBLAS_STATUS_SUCCESS);
   check_gemm("Cgemm3m", CUBLAS_OP_C, m, n, k, toc(alpha), A, ld, B, ld, toc(beta), C, host(dC, C.size()), ld, UF);
   cudaFree(dC);
   dC = dev(C);
   CHECK_ST(cublasCgemmEx(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_C_32F, ld, dB, CUDA_C_32F, ld, &beta, dC,
                          CUDA_C_32F, ld), CUBLAS_STATUS_SUCCESS);
   check_gemm("CgemmEx", CUBLAS_OP_N, m, n, k, toc(alpha), A, ld, B, ld, toc(beta), C, host(dC, C.size()), ld, UF);
   cudaFree(dC);
   /* two members, strided: the second's C after the first's */
   dC = dev(C);
   CHECK_ST(cublasCgemm3mStridedBatched(H, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &alpha, dA, ld, 0, dB, ld, 0, &beta, dC,
                                        ld, (long long)ld * n, 2), CUBLAS_STATUS_SUCCESS);
   std::vector<cuComplex> g = host(dC, C.size());
   check_gemm("Cgemm3mStridedBatched[0]", CUBLAS_OP_T, m, n, k, toc(alpha), A, ld, B, ld, toc(beta), C, g, ld, UF);
   std::vector<cuComplex> C1(C.begin() + ld * n, C.end()), g1(g.begin() + ld * n, g.end());
   check_gemm("Cgemm3mStridedBatched[1]", CUBLAS_OP_T, m, n, k, toc(alpha), A, ld, B, ld, toc(beta), C1, g1, ld, UF);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
   std::vector<cuDoubleComplex> ZA = cfill<cuDoubleComplex>(ld * 16, 4), ZB = cfill<cuDoubleComplex>(ld * 16, 5),
                                ZC = cfill<cuDoubleComplex>(ld * n, 6);
   cuDoubleComplex za = make_cuDoubleComplex(1.5, 0.5), zb = make_cuDoubleComplex(0, 0);
   cuDoubleComplex *dZA = dev(ZA), *dZB = dev(ZB), *dZC = dev(ZC);
   CHECK_ST(cublasZgemm3m(H, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &za, dZA, ld, dZB, ld, &zb, dZC, ld),
            CUBLAS_STATUS_SUCCESS);
   check_gemm("Zgemm3m", CUBLAS_OP_N, m, n, k, toc(za), ZA, ld, ZB, ld, toc(zb), ZC, host(dZC, ZC.size()), ld, UD);
   cudaFree(dZA);
   cudaFree(dZB);
   cudaFree(dZC);
}

/* ---- grouped batched GEMM: two groups of their own shapes ---- */
static void grouped(void)
{
   const int G = 2, sizes[G] = { 2, 1 }, ms[G] = { 5, 3 }, ns[G] = { 4, 6 }, ks[G] = { 3, 7 };
   const cublasOperation_t ta[G] = { CUBLAS_OP_N, CUBLAS_OP_T }, tb[G] = { CUBLAS_OP_N, CUBLAS_OP_T };
   const int lda[G] = { 6, 8 }, ldb[G] = { 4, 7 }, ldc[G] = { 5, 4 };
   const float alpha[G] = { 0.5f, -1.5f }, beta[G] = { 2.0f, 0.25f };
   for (int ex = 0; ex < 2; ex++) {
      std::vector<std::vector<float> > A, B, C;
      std::vector<float *> dA, dB, dC;
      for (int g = 0, z = 0; g < G; g++)
         for (int s = 0; s < sizes[g]; s++, z++) {
            A.push_back(std::vector<float>(lda[g] * 8));
            B.push_back(std::vector<float>(ldb[g] * 8));
            C.push_back(std::vector<float>(ldc[g] * ns[g]));
            for (size_t i = 0; i < A[z].size(); i++)
               A[z][i] = (float)((i * 3 + z) % 7) - 3;
            for (size_t i = 0; i < B[z].size(); i++)
               B[z][i] = (float)((i * 5 + z) % 9) / 2 - 2;
            for (size_t i = 0; i < C[z].size(); i++)
               C[z][i] = (float)(i % 5) - 1;
            dA.push_back(dev(A[z]));
            dB.push_back(dev(B[z]));
            dC.push_back(dev(C[z]));
         }
      float **pA = dev(dA), **pB = dev(dB), **pC = dev(dC);
      if (ex)
         CHECK_ST(cublasGemmGroupedBatchedEx(H, ta, tb, ms, ns, ks, alpha, (const void *const *)pA, CUDA_R_32F, lda,
                                             (const void *const *)pB, CUDA_R_32F, ldb, beta, (void *const *)pC,
                                             CUDA_R_32F, ldc, G, sizes, CUBLAS_COMPUTE_32F),
                  CUBLAS_STATUS_SUCCESS);
      else
         CHECK_ST(cublasSgemmGroupedBatched(H, ta, tb, ms, ns, ks, alpha, pA, lda, pB, ldb, beta, pC, ldc, G, sizes),
                  CUBLAS_STATUS_SUCCESS);
      for (int g = 0, z = 0; g < G; g++)
         for (int s = 0; s < sizes[g]; s++, z++) {
            std::vector<float> got = host(dC[z], C[z].size());
            for (int j = 0; j < ns[g]; j++)
               for (int i = 0; i < ms[g]; i++) {
                  double w = 0;
                  for (int l = 0; l < ks[g]; l++) {
                     double a = ta[g] == CUBLAS_OP_N ? A[z][l * lda[g] + i] : A[z][i * lda[g] + l];
                     double b = tb[g] == CUBLAS_OP_N ? B[z][j * ldb[g] + l] : B[z][l * ldb[g] + j];
                     w += a * b;
                  }
                  /* small integers and halves: exact */
                  CHECK(got[j * ldc[g] + i] == (float)(alpha[g] * w + beta[g] * C[z][j * ldc[g] + i]));
               }
            cudaFree(dA[z]);
            cudaFree(dB[z]);
            cudaFree(dC[z]);
         }
      cudaFree(pA);
      cudaFree(pB);
      cudaFree(pC);
   }
   int bad_sizes[1] = { -1 };
   CHECK_ST(cublasSgemmGroupedBatched(H, ta, tb, ms, ns, ks, alpha, NULL, lda, NULL, ldb, beta, NULL, ldc, 1, bad_sizes),
            CUBLAS_STATUS_INVALID_VALUE);
}

/* ---- tpttr / trttp: the triangle between packed and full, the rest untouched ---- */
static void packed(void)
{
   const int n = 7, lda = 9, np = n * (n + 1) / 2;
   for (int up = 0; up < 2; up++) {
      cublasFillMode_t uplo = up ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
      std::vector<double> AP(np), full(lda * n, -99);
      for (int i = 0; i < np; i++)
         AP[i] = i + 0.5;
      double *dAP = dev(AP), *dA = dev(full);
      CHECK_ST(cublasDtpttr(H, uplo, n, dAP, dA, lda), CUBLAS_STATUS_SUCCESS);
      std::vector<double> got = host(dA, full.size());
      for (int j = 0, p = 0; j < n; j++)
         for (int i = 0; i < lda; i++) {
            bool in = i < n && (up ? i <= j : i >= j);
            /* BLAS packed order: column by column through the triangle */
            if (in)
               CHECK(got[j * lda + i] == AP[p++]);
            else
               CHECK(got[j * lda + i] == -99);
         }
      std::vector<double> back(np, 0);
      double *dB = dev(back);
      CHECK_ST(cublasDtrttp(H, uplo, n, dA, lda, dB), CUBLAS_STATUS_SUCCESS);
      CHECK(host(dB, np) == AP);
      cudaFree(dAP);
      cudaFree(dA);
      cudaFree(dB);
   }
   std::vector<cuComplex> cp(6);
   for (int i = 0; i < 6; i++)
      cp[i] = make_cuComplex((float)i, (float)-i);
   cuComplex *dcp = dev(cp), *dcf = NULL;
   CHECK_CUDA(cudaMalloc(&dcf, 9 * sizeof(cuComplex)));
   CHECK_ST(cublasCtpttr(H, CUBLAS_FILL_MODE_UPPER, 3, dcp, dcf, 3), CUBLAS_STATUS_SUCCESS);
   std::vector<cuComplex> cf = host(dcf, 9);
   CHECK(cf[8].x == 5 && cf[8].y == -5 && cf[3].x == 1 && cf[4].y == -2);
   CHECK_ST(cublasStpttr(H, CUBLAS_FILL_MODE_UPPER, 3, (float *)dcp, (float *)dcf, 2), CUBLAS_STATUS_INVALID_VALUE);
   cudaFree(dcp);
   cudaFree(dcf);
}

/* ---- GemmEx on bfloat16: C bfloat16 or float, float compute; small
 * (a thread's tiles) and large enough to be packed ---- */
template <class TC> static void gemm_bf16_case(int m, int n, int k, cublasOperation_t ta, cudaDataType ct)
{
   int lda = (ta == CUBLAS_OP_N ? m : k) + 3, ldb = k + 2, ldc = m + 1;
   std::vector<__nv_bfloat16> A((size_t)lda * (ta == CUBLAS_OP_N ? k : m)), B((size_t)ldb * n);
   std::vector<TC> C((size_t)ldc * n);
   for (size_t i = 0; i < A.size(); i++)
      A[i] = __float2bfloat16((float)((i * 7) % 19) / 8 - 1);
   for (size_t i = 0; i < B.size(); i++)
      B[i] = __float2bfloat16((float)((i * 5) % 23) / 16 - 0.5f);
   for (size_t i = 0; i < C.size(); i++)
      C[i] = (TC)((float)(i % 7) / 4 - 0.75f);
   __nv_bfloat16 *dA = dev(A), *dB = dev(B);
   TC *dC = dev(C);
   float alpha = 1.25f, beta = -0.5f;
   CHECK_ST(cublasGemmEx(H, ta, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_16BF, lda, dB, CUDA_R_16BF, ldb, &beta, dC, ct,
                         ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT), CUBLAS_STATUS_SUCCESS);
   std::vector<TC> g = host(dC, C.size());
   double uc = ct == CUDA_R_16BF ? UB : UF;
   long bad = 0;
   for (int j = 0; j < n; j++)
      for (int i = 0; i < ldc; i++) {
         double c0 = (double)(float)C[j * ldc + i];
         if (i >= m) {   /* padding untouched */
            if ((double)(float)g[j * ldc + i] != c0)
               bad++;
            continue;
         }
         double w = 0, mg = 0;
         for (int l = 0; l < k; l++) {
            double a = (double)__bfloat162float(ta == CUBLAS_OP_N ? A[l * lda + i] : A[i * lda + l]);
            double b = (double)__bfloat162float(B[j * ldb + l]);
            w += a * b;
            mg += fabs(a * b);
         }
         double want = 1.25 * w - 0.5 * c0;
         double bound = 2 * (k + 2) * UF * (1.25 * mg + 0.5 * fabs(c0)) + uc * fabs(want);
         if (fabs((double)(float)g[j * ldc + i] - want) > bound && bad++ < 3)
            near((double)(float)g[j * ldc + i], want, bound, "GemmEx bf16");
      }
   CHECK(bad == 0);
   cudaFree(dA);
   cudaFree(dB);
   cudaFree(dC);
}

static void gemm_bf16(void)
{
   gemm_bf16_case<float>(37, 29, 17, CUBLAS_OP_N, CUDA_R_32F);
   gemm_bf16_case<float>(70, 66, 65, CUBLAS_OP_T, CUDA_R_32F);
   gemm_bf16_case<__nv_bfloat16>(37, 29, 17, CUBLAS_OP_T, CUDA_R_16BF);
   gemm_bf16_case<__nv_bfloat16>(70, 66, 65, CUBLAS_OP_N, CUDA_R_16BF);
}

int main(void)
{
   check_begin("cublas_l1x");
   if (cublasCreate(&H) != CUBLAS_STATUS_SUCCESS) {
      CHECK(false);
      return check_end();
   }
   csscal();
   crot_case<cuComplex, float>(false, 37, 1, 1);
   crot_case<cuComplex, float>(true, 37, 2, -3);
   crot_case<cuDoubleComplex, double>(false, 20, -1, 2);
   crot_case<cuDoubleComplex, double>(true, 20, 1, 1);
   crotg();
   index64();
   ex16<__half, h16>(CUDA_R_16F, UH, "DotEx half");
   ex16<__nv_bfloat16, b16>(CUDA_R_16BF, UB, "DotEx bfloat16");
   ex_wide();
   refused();
   gemm3m();
   gemm_bf16();
   grouped();
   packed();
   copies64();
   cublasDestroy(H);
   return check_end();
}
