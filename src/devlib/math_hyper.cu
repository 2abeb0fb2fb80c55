/*
 * math_hyper.cu — sinh, cosh, tanh, asinh, acosh, atanh, and the roots and
 * norms (cbrt, rcbrt, rsqrt, hypot, rhypot, norm3d ...) in double precision,
 * over math_explog.cu's exp/expm1/log/log1p.
 */
#include "devlib.h"

DEV double __nv_expm1(double);
DEV double __nv_exp(double);
DEV double __nv_log(double);
DEV double __nv_log1p(double);

DEV double __nv_sinh(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x) || d_isinf(x) || ax < 0x1p-27)
      return x;
   double r;
   if (ax < 22.0) {
      double e = __nv_expm1(ax);
      r = 0.5 * (e + e / (e + 1.0));
   } else if (ax < 709.0) {
      r = 0.5 * __nv_exp(ax);
   } else {
      r = __nv_exp(0.5 * ax);
      r = (0.5 * r) * r;
   }
   return d_copysign(r, x);
}

DEV double __nv_cosh(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x))
      return x + x;
   if (ax < 22.0) {
      double e = __nv_exp(ax);
      return 0.5 * e + 0.5 / e;
   }
   if (ax < 709.0)
      return 0.5 * __nv_exp(ax);
   double r = __nv_exp(0.5 * ax);
   return (0.5 * r) * r;
}

DEV double __nv_tanh(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x) || ax < 0x1p-27)
      return x;
   if (ax > 22.0)
      return d_copysign(1.0, x);
   double e = __nv_expm1(2.0 * ax);
   return d_copysign(e / (e + 2.0), x);
}

DEV double __nv_asinh(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x) || d_isinf(x) || ax < 0x1p-27)
      return x;
   double r;
   if (ax > 0x1p28)
      r = __nv_log(ax) + 0x1.62e42fefa39efp-1;
   else
      r = __nv_log1p(ax + ax * ax / (1.0 + d_sqrt(1.0 + ax * ax)));
   return d_copysign(r, x);
}

DEV double __nv_acosh(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x < 1.0)
      return u2d(0x7fffffffffffffffull);
   if (x > 0x1p28)
      return d_isinf(x) ? x : __nv_log(x) + 0x1.62e42fefa39efp-1;
   double t = x - 1.0;
   return __nv_log1p(t + d_sqrt(2.0 * t + t * t));
}

DEV double __nv_atanh(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x) || ax < 0x1p-27)
      return x;
   if (ax > 1.0)
      return u2d(0x7fffffffffffffffull);
   return d_copysign(0.5 * __nv_log1p(2.0 * ax / (1.0 - ax)), x);
}

DEV double __nv_cbrt(double x)
{
   if (d_isnan(x) || d_isinf(x) || x == 0.0)
      return x + x;
   double ax = d_abs(x);
   int sc = 0;
   if (ax < 0x1p-1000) {
      ax *= 0x1p600;
      sc = -200;
   } else if (ax > 0x1p1000) {    /* y^3 in the Newton steps would overflow */
      ax *= 0x1p-600;
      sc = 200;
   }
   /* a first guess from the exponent, then Newton steps on y^3 = a */
   uint64_t u = d2u(ax);
   double y = u2d((u / 3) + 0x2a9f7893782da1ceull);
   for (int i = 0; i < 4; i++)
      y = y - (y * y * y - ax) / (3.0 * y * y);
   /* the last correction with the residual in double-double */
   dd y2 = dd_mul(y, y);
   dd y3 = dd_mul(y2.hi, y);
   double res = (y3.hi - ax) + d_fma(y2.lo, y, y3.lo);
   y = y - res / (3.0 * y * y);
   return d_copysign(d_scale(y, sc), x);
}

DEV double __nv_rcbrt(double x)
{
   if (x == 0.0)
      return d_copysign(0x1p1023 * 2.0, x);
   if (d_isinf(x))
      return d_copysign(0.0, x);
   return 1.0 / __nv_cbrt(x);
}

DEV double __nv_rsqrt(double x) { return 1.0 / d_sqrt(x); }

/* sqrt(sum of squares) without overflow or underflow: the operands scaled
 * by a power of two, the squares summed as double-doubles */
DEVN double norm_n(int n, const double *a)
{
   double m = 0.0;
   for (int i = 0; i < n; i++) {
      if (d_isinf(a[i]))
         return u2d(0x7ff0000000000000ull);
      m = d_abs(a[i]) > m || d_isnan(a[i]) ? d_abs(a[i]) : m;
   }
   if (d_isnan(m) || m == 0.0)
      return m;
   int e = (int)((d2u(m) >> 52) & 0x7ff) - 1023;
   if (e < -1022)
      e = -1022;
   dd s = { 0.0, 0.0 };
   for (int i = 0; i < n; i++) {
      double v = d_scale(a[i], -e);
      dd p = dd_mul(v, v);
      dd t = dd_two_sum(s.hi, p.hi);
      s = dd_fast_sum(t.hi, t.lo + s.lo + p.lo);
   }
   double r = d_sqrt(s.hi);
   r += (d_fma(-r, r, s.hi) + s.lo) / (2.0 * r);
   return d_scale(r, e);
}

DEV double __nv_hypot(double x, double y) { double a[2] = { x, y }; return norm_n(2, a); }
DEV double __nv_rhypot(double x, double y) { return 1.0 / __nv_hypot(x, y); }
DEV double __nv_norm3d(double a, double b, double c) { double v[3] = { a, b, c }; return norm_n(3, v); }
DEV double __nv_rnorm3d(double a, double b, double c) { return 1.0 / __nv_norm3d(a, b, c); }
DEV double __nv_norm4d(double a, double b, double c, double d) { double v[4] = { a, b, c, d }; return norm_n(4, v); }
DEV double __nv_rnorm4d(double a, double b, double c, double d) { return 1.0 / __nv_norm4d(a, b, c, d); }
DEV double __nv_norm(int n, const double *a) { return norm_n(n, a); }
DEV double __nv_rnorm(int n, const double *a) { return 1.0 / norm_n(n, a); }
