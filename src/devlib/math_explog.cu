/*
 * math_explog.cu — exp, exp2, exp10, expm1, log, log2, log10, log1p, pow in
 * double precision (the float forms are in math_float.cu).
 *
 * exp: x = k ln2 + r with |r| <= ln2/2 (ln2 in three parts, so r is exact
 * to 2^-100 for every finite x that does not overflow), e^r by its Taylor
 * series to r^13 in Horner form (truncation below 2^-60 relative), then the
 * scaling by 2^k in one rounding.  The extra-precise form exp_dd takes a
 * double-double argument, for pow.
 * log: x = 2^e m with m in [sqrt(1/2), sqrt(2)), s = (m-1)/(m+1) as a
 * double-double, log m = 2 atanh s = 2s + 2s^3/3 + ... (|s| < 0.172, terms
 * to s^23), the sum kept as a double-double so that pow can use it.
 * Measured against the host's libm by tests/devlib (max ulp printed there).
 */
#include "devlib.h"

#define LN2_HI 0x1.62e42fefa3800p-1      /* 32 significant bits: k * LN2_HI is exact */
#define LN2_MI 0x1.ef35793c76730p-45
#define LN2_LO 0x1.f97b57a079a19p-103
#define LOG2E 0x1.71547652b82fep0

/* e^r for |r| <= 0.35 (plus a small lo part) as 1 + p, p returned. */
DEVI double expm1_poly(double r)
{
   double p = 1.0 / 6227020800.0;                 /* 1/13! */
   p = d_fma(p, r, 1.0 / 479001600.0);
   p = d_fma(p, r, 1.0 / 39916800.0);
   p = d_fma(p, r, 1.0 / 3628800.0);
   p = d_fma(p, r, 1.0 / 362880.0);
   p = d_fma(p, r, 1.0 / 40320.0);
   p = d_fma(p, r, 1.0 / 5040.0);
   p = d_fma(p, r, 1.0 / 720.0);
   p = d_fma(p, r, 1.0 / 120.0);
   p = d_fma(p, r, 1.0 / 24.0);
   p = d_fma(p, r, 1.0 / 6.0);
   p = d_fma(p, r, 0.5);
   return d_fma(p * r, r, r);                     /* r + r^2 (1/2 + ...) */
}

/* e^(hi + lo), |lo| tiny against hi. */
DEVN double exp_dd_impl(double hi, double lo)
{
   if (d_isnan(hi))
      return hi + hi;
   if (hi > 709.8)
      return 0x1p1023 * 2.0;
   if (hi < -745.2)
      return 0.0;
   double k = d_rint(hi * LOG2E);
   /* r = hi - k ln2 + lo: k * LN2_HI is exact, the rest carry the error out */
   double r1 = d_fma(-k, LN2_HI, hi);          /* exact */
   dd km = dd_mul(k, LN2_MI);
   dd rr = dd_two_sum(r1, -km.hi);
   double r = rr.hi;
   double rlo = rr.lo - km.lo - k * LN2_LO + lo;
   double p = expm1_poly(r);
   /* e^(r + rlo) = (1 + p)(1 + rlo) */
   double e = 1.0 + (p + d_fma(p, rlo, rlo));
   return d_scale(e, (int)k);
}
DEVI double exp_dd(double hi, double lo) { return exp_dd_impl(hi, lo); }

DEV double __nv_exp(double x) { return exp_dd(x, 0.0); }

DEV double __nv_exp2(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x >= 1024.0)
      return 0x1p1023 * 2.0;
   if (x < -1080.0)
      return 0.0;
   double k = d_rint(x);
   double f = x - k;                  /* exact, |f| <= 1/2 */
   dd t = dd_mul(f, 0x1.62e42fefa39efp-1);
   t.lo = d_fma(f, 0x1.abc9e3b39803fp-56, t.lo);
   double p = expm1_poly(t.hi);
   double e = 1.0 + (p + d_fma(p, t.lo, t.lo));
   return d_scale(e, (int)k);
}

DEV double __nv_exp10(double x)
{
   /* 10^x = e^(x ln10), the product as a double-double */
   dd t = dd_mul(x, 0x1.26bb1bbb55516p1);
   t.lo = d_fma(x, -0x1.f48ad494ea3e9p-53, t.lo);
   if (d_isinf(x))
      return x > 0 ? x : 0.0;
   return exp_dd(t.hi, t.lo);
}

DEV double __nv_expm1(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x > 709.8)
      return 0x1p1023 * 2.0;
   if (x < -38.0)
      return -1.0;
   if (d_abs(x) < 0x1p-54)
      return x;
   double k = d_rint(x * LOG2E);
   double r1 = d_fma(-k, LN2_HI, x);
   dd km = dd_mul(k, LN2_MI);
   dd rr = dd_two_sum(r1, -km.hi);
   double r = rr.hi;
   double rlo = rr.lo - km.lo - k * LN2_LO;
   double p = expm1_poly(r);
   p = p + d_fma(p, rlo, rlo);              /* e^(r+rlo) - 1 */
   if (k == 0.0)
      return p;
   /* 2^k (1 + p) - 1 */
   double s = d_scale(1.0, (int)k);
   if (k > 56)
      return d_scale(1.0 + p, (int)k) - 1.0;
   dd a = dd_two_sum(s, -1.0);
   return a.hi + d_fma(s, p, a.lo);
}

/* log(x) as a double-double, x finite and > 0. */
DEVN dd log_dd(double x)
{
   int e = 0;
   if (x < 0x1p-1022) {
      x *= 0x1p54;
      e = -54;
   }
   uint64_t u = d2u(x);
   e += (int)(u >> 52) - 1023;
   double m = u2d((u & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
   if (m > 0x1.6a09e667f3bcdp0) {
      m *= 0.5;
      e += 1;
   }
   double f = m - 1.0;                          /* exact */
   dd den = dd_two_sum(2.0, f);                 /* m + 1 */
   double s = f / den.hi;
   double slo = (d_fma(-s, den.hi, f) - s * den.lo) / den.hi;
   double s2 = s * s;
   double t = 2.0 / 23;
   t = d_fma(t, s2, 2.0 / 21);
   t = d_fma(t, s2, 2.0 / 19);
   t = d_fma(t, s2, 2.0 / 17);
   t = d_fma(t, s2, 2.0 / 15);
   t = d_fma(t, s2, 2.0 / 13);
   t = d_fma(t, s2, 2.0 / 11);
   t = d_fma(t, s2, 2.0 / 9);
   t = d_fma(t, s2, 2.0 / 7);
   t = d_fma(t, s2, 2.0 / 5);
   t = d_fma(t, s2, 2.0 / 3);
   double tail = t * s2 * s;                    /* 2s^3/3 + ... */
   dd lm = dd_fast_sum(2.0 * s, 2.0 * slo + tail);
   double de = (double)e;
   dd h = dd_fast_sum(de * LN2_HI, lm.hi);      /* de*LN2_HI exact */
   if (d_abs(lm.hi) > d_abs(de * LN2_HI))
      h = dd_two_sum(de * LN2_HI, lm.hi);
   h.lo += lm.lo + de * LN2_MI;
   return dd_fast_sum(h.hi, h.lo);
}

DEVI double log_special(double x, bool *done)
{
   *done = true;
   if (d_isnan(x))
      return x + x;
   if (x == 0.0)
      return -0x1p1023 * 2.0;
   if (x < 0.0)
      return u2d(0x7fffffffffffffffull);
   if (d_isinf(x))
      return x;
   *done = false;
   return 0.0;
}

DEV double __nv_log(double x)
{
   bool done;
   double s = log_special(x, &done);
   if (done)
      return s;
   dd l = log_dd(x);
   return l.hi + l.lo;
}

DEV double __nv_log2(double x)
{
   bool done;
   double s = log_special(x, &done);
   if (done)
      return s;
   uint64_t u = d2u(x);
   if ((u & 0x000fffffffffffffull) == 0 && x >= 0x1p-1022)
      return (double)((int)(u >> 52) - 1023);    /* powers of two exactly */
   dd l = log_dd(x);
   /* l * log2(e) as a double-double product */
   dd p = dd_mul(l.hi, LOG2E);
   p.lo = d_fma(l.hi, 0x1.777d0ffda0d24p-56, p.lo) + l.lo * LOG2E;
   return p.hi + p.lo;
}

DEV double __nv_log10(double x)
{
   bool done;
   double s = log_special(x, &done);
   if (done)
      return s;
   dd l = log_dd(x);
   dd p = dd_mul(l.hi, 0x1.bcb7b1526e50ep-2);
   p.lo = d_fma(l.hi, 0x1.95355baaafad3p-57, p.lo) + l.lo * 0x1.bcb7b1526e50ep-2;
   return p.hi + p.lo;
}

DEV double __nv_log1p(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x == -1.0)
      return -0x1p1023 * 2.0;
   if (x < -1.0)
      return u2d(0x7fffffffffffffffull);
   if (d_isinf(x))
      return x;
   if (d_abs(x) < 0x1p-54)
      return x;
   /* 1 + x as a double-double, then log(hi) + lo/hi */
   dd u = d_abs(x) > 1.0 ? dd_fast_sum(x, 1.0) : dd_fast_sum(1.0, x);
   dd l = log_dd(u.hi);
   return l.hi + (l.lo + u.lo / u.hi);
}

/* ---- pow ---- */

DEVI bool is_int(double y) { return d_rint(y) == y; }
DEVI bool is_odd_int(double y) { return is_int(y) && d_abs(y) < 0x1p53 && d_rint(y * 0.5) != y * 0.5; }

DEV double __nv_pow(double x, double y)
{
   if (y == 0.0 || x == 1.0)
      return 1.0;
   if (d_isnan(x) || d_isnan(y))
      return x + y;
   double ax = d_abs(x);
   bool yodd = is_odd_int(y);
   if (d_isinf(y)) {
      if (ax == 1.0)
         return 1.0;
      return (ax > 1.0) == (y > 0) ? d_abs(y) : 0.0;
   }
   if (x == 0.0) {
      double r = y < 0 ? 0x1p1023 * 2.0 : 0.0;
      return yodd ? d_copysign(r, x) : r;
   }
   if (d_isinf(x)) {
      double r = y < 0 ? 0.0 : ax;
      return x < 0 && yodd ? -r : r;
   }
   if (x < 0 && !is_int(y))
      return u2d(0x7fffffffffffffffull);
   dd l = log_dd(ax);
   dd p = dd_mul(y, l.hi);
   p.lo = d_fma(y, l.lo, p.lo);
   dd q = dd_fast_sum(p.hi, p.lo);
   double r;
   if (q.hi > 709.8)
      r = 0x1p1023 * 2.0;
   else if (q.hi < -745.2)
      r = 0.0;
   else
      r = exp_dd(q.hi, q.lo);
   return x < 0 && yodd ? -r : r;
}

DEV double __nv_powi(double x, int n) { return __nv_pow(x, (double)n); }
