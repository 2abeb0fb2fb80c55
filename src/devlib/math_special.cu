/*
 * math_special.cu — the special functions of CUDA's double-precision Math
 * API: erf, erfc, erfcx, erfinv, erfcinv, normcdf, normcdfinv, tgamma,
 * lgamma, the Bessel functions j0 j1 jn y0 y1 yn, cyl_bessel_i0/i1.
 *
 * Methods (coefficients: special_tables.h, from tools/gen_devlib_special.py):
 *  - erf |x| <= 1: its odd Taylor series.  erfc x >= 0.5: e^-x^2 (x^2 as a
 *    double-double) times erfcx; erfcx x >= 0.5: Taylor pieces to 2 ... no:
 *    the continued fraction erfcx(x) sqrt(pi) = 1/(x + 1/2/(x + 1/(x + ...)))
 *    evaluated backwards from a depth that makes its tail negligible, and
 *    below 0.5 from erf;
 *  - erfinv, erfcinv: Newton's iteration on erf or erfc (whichever keeps the
 *    problem well conditioned: erfc for results beyond 0.5), from a start
 *    within a few percent; normcdf: erfc of -x/sqrt(2) with the division's
 *    rounding error corrected to first order; normcdfinv: -sqrt(2)
 *    erfcinv(2p);
 *  - Gamma: Taylor pieces on [1, 2], the recurrence below 10 and Stirling's
 *    series above (x^(x-1/2) through pow, in two halves so that it does not
 *    overflow before Gamma does), the reflection formula below 1/2;
 *    lgamma: Taylor pieces about 1, 1.5, ..., 8 (about the zeros 1 and 2 the
 *    result keeps its relative accuracy), Stirling's series with log as a
 *    double-double above, reflection for negative x;
 *  - J0 J1 Y0 Y1: Taylor pieces on [0, 8] (about each zero there, the zero
 *    as a double-double), the series with the logarithm at 0 for Y, and
 *    Hankel's P and Q (Chebyshev series in (8/x)^2) with sin and cos of x
 *    beyond 8; Jn by backward recurrence (Miller) below x = n, forward
 *    above; Yn forward; I0, I1 by their series to 15, then e^x/sqrt(x) times
 *    a Chebyshev series in 15/x.
 *
 * Accuracy is checked against CUDA's documented bounds and the H200's own
 * results by tests/cuda/f64_math (built by metalcuda's nvcc).
 */
#include "devlib.h"
#include "special_tables.h"

DEV double __nv_exp(double);
DEV double __nv_log(double);
DEV double __nv_log1p(double);
DEV double __nv_pow(double, double);
DEV double __nv_expm1(double);
DEV void __nv_sincos(double, double *, double *);
DEV double __nv_sinpi(double);

#define D_NAN u2d(0x7fffffffffffffffull)
#define D_INF u2d(0x7ff0000000000000ull)
#define SQRT_PI 0x1.c5bf891b4ef6bp0          /* sqrt(pi) */
#define TWO_OVER_SQRT_PI 0x1.20dd750429b6dp0
#define INV_PI 0x1.45f306dc9c883p-2
#define PI 0x1.921fb54442d18p1
#define SQRT2 0x1.6a09e667f3bcdp0
#define SQRT2_LO -0x1.bdd3413b26456p-54

/* sum C[k] t^k over k < n (Horner) */
DEVI double horner(const double *c, int n, double t)
{
   double p = c[n - 1];
   for (int k = n - 2; k >= 0; k--)
      p = d_fma(p, t, c[k]);
   return p;
}

/* the piece of tab holding x (x within tab's range), evaluated */
DEVI double pieces(const sf_piece *tab, int np, const double *c, double x)
{
   int i = 0;
   while (i < np - 1 && x > tab[i].hi)
      i++;
   double t = (x - tab[i].c_hi) - tab[i].c_lo;
   return horner(c + tab[i].first, tab[i].n, t);
}

/* Chebyshev series sum' c[k] T_k(s) (Clenshaw) */
DEVI double clenshaw(const double *c, int n, double s)
{
   double b1 = 0.0, b2 = 0.0;
   for (int k = n - 1; k >= 1; k--) {
      double b = d_fma(2.0 * s, b1, c[k] - b2);
      b2 = b1;
      b1 = b;
   }
   return d_fma(s, b1, c[0] - b2);
}

#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- erf, erfc, erfcx ---- */

DEVI double erf_small(double x) /* |x| <= 1 */
{
   return x * horner(ERF_S, NELEM(ERF_S), x * x);
}

/* erfcx(x) = e^(x^2) erfc(x) for x >= 0.5: Taylor pieces to 2, then the
 * continued fraction sqrt(pi) erfcx(x) = 1/(x + (1/2)/(x + 1/(x + (3/2)/(x
 * + ...)))), summed from a depth at which its remainder is below 2^-60 */
DEVN double erfcx_cf(double x)
{
   if (x < 2.0)
      return pieces(ERFCX_P, NELEM(ERFCX_P), ERFCX_C, x);
   int n = x >= 26.0 ? 10 : x >= 8.0 ? 30 : x >= 4.0 ? 80 : 200;
   double f = x;
   for (int k = n; k >= 1; k--)
      f = x + (0.5 * k) / f;
   return 1.0 / (SQRT_PI * f);
}

/* erfcx for x >= 0 */
DEVI double erfcx_pos(double x)
{
   if (x >= 0.5)
      return erfcx_cf(x);
   dd s = dd_mul(x, x);
   return exp_dd(s.hi, s.lo) * (1.0 - erf_small(x));
}

/* e^-(x^2) for x >= 0, x^2 carried as a double-double */
DEVI double exp_negsq(double x)
{
   dd s = dd_mul(x, x);
   return exp_dd(-s.hi, -s.lo);
}

DEV double __nv_erf(double x)
{
   if (d_isnan(x))
      return x + x;
   double ax = d_abs(x);
   if (ax <= 1.0)
      return erf_small(x);
   if (ax >= 6.0)
      return d_copysign(1.0, x);
   return d_copysign(1.0 - exp_negsq(ax) * erfcx_cf(ax), x);
}

DEV double __nv_erfc(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x < 0.5) {
      if (x > -0.5)
         return 1.0 - erf_small(x);
      if (x < -6.0)
         return 2.0;
      return 2.0 - exp_negsq(-x) * erfcx_cf(-x);
   }
   if (x > 27.3)
      return 0.0;
   return exp_negsq(x) * erfcx_cf(x);
}

DEV double __nv_erfcx(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x >= 0.5)
      return d_isinf(x) ? 0.0 : x > 1e8 ? 0x1.20dd750429b6dp-1 / x : erfcx_cf(x);   /* 1/(sqrt(pi) x) */
   if (x >= 0.0)
      return erfcx_pos(x);
   if (x > -0.5) {
      dd s = dd_mul(x, x);
      return exp_dd(s.hi, s.lo) * (1.0 - erf_small(x));
   }
   if (x < -26.7)
      return D_INF;
   /* erfcx(x) = 2 e^(x^2) - erfcx(-x) */
   dd s = dd_mul(x, x);
   return 2.0 * exp_dd(s.hi, s.lo) - erfcx_cf(-x);
}

/* ---- inverses ---- */

/* Newton on erf: erf(r) = y, |y| <= 0.5 */
DEVN double erfinv_small(double y)
{
   double y2 = y * y;
   /* start: the inverse series y sqrt(pi)/2 (1 + pi/12 y^2 + 7 pi^2/480 y^4) */
   double r = y * 0x1.c5bf891b4ef6bp-1 * (1.0 + y2 * (0x1.0c152382d7366p-2 + y2 * 0x1.2bbbc2f0dfcb9p-3));
   for (int i = 0; i < 4; i++) {
      double e = erf_small(r) - y;
      r -= e / (TWO_OVER_SQRT_PI * exp_negsq(r));
   }
   return r;
}

/* Newton on erfc: erfc(r) = q for 0 < q <= 0.5 (r >= 0.4769) */
DEVN double erfcinv_small(double q)
{
   /* start: erfc(r) ~ e^-r^2 / (r sqrt(pi)), so r^2 ~ -log(q sqrt(pi) r);
    * near q = 1/2 that overshoots, and the root is near 1/2 there */
   double w = -__nv_log(q);
   double r = d_sqrt(w);
   r = d_sqrt(w - __nv_log(SQRT_PI * r));
   if (q > 0.2)
      r = 0.5;
   /* Newton: f = erfc(r) - q, f' = -2/sqrt(pi) e^-r^2, so the step is
    * (erfcx(r) - q e^(r^2)) sqrt(pi)/2 (no underflow for tiny q); erfc is
    * convex for r > 0, so the iterates settle from either side */
   dd lq = log_dd(q);
   for (int i = 0; i < 12; i++) {
      /* q e^(r^2) as e^(r^2 + log q): e^(r^2) alone overflows for tiny q */
      dd s = dd_mul(r, r);
      dd a = dd_two_sum(s.hi, lq.hi);
      double step = (erfcx_pos(r) - exp_dd(a.hi, a.lo + s.lo + lq.lo)) * (SQRT_PI * 0.5);
      r += step;
      if (d_abs(step) <= 0x1p-56 * r)
         break;
   }
   return r;
}

DEV double __nv_erfinv(double y)
{
   if (d_isnan(y))
      return y + y;
   double ay = d_abs(y);
   if (ay > 1.0)
      return D_NAN;
   if (ay == 1.0)
      return d_copysign(D_INF, y);
   if (ay <= 0.5)
      return y == 0.0 ? y : erfinv_small(y);
   return d_copysign(erfcinv_small(1.0 - ay), y);   /* 1 - ay exact */
}

DEV double __nv_erfcinv(double q)
{
   if (d_isnan(q))
      return q + q;
   if (q < 0.0 || q > 2.0)
      return D_NAN;
   if (q == 0.0)
      return D_INF;
   if (q == 2.0)
      return -D_INF;
   if (q > 1.5)
      return -erfcinv_small(2.0 - q);   /* exact */
   if (q >= 0.5)
      return erfinv_small(1.0 - q);     /* exact */
   return erfcinv_small(q);
}

DEV double __nv_normcdf(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x > 9.0)
      return 1.0;
   if (x < -38.5)
      return 0.0;
   /* t = -x/sqrt(2) as t + tl, then erfc(t + tl) ~ erfc(t) - 2/sqrt(pi) e^-t^2 tl:
    * erfc magnifies a relative error of t by 2t^2 */
   double t = d_mul(-x, SQRT2 * 0.5);
   double tl = d_fma(-x, SQRT2 * 0.5, -t) - x * (SQRT2_LO * 0.5);
   double e = __nv_erfc(t) - TWO_OVER_SQRT_PI * exp_negsq(d_abs(t)) * tl;
   return 0.5 * e;
}

DEV double __nv_normcdfinv(double p)
{
   if (d_isnan(p))
      return p + p;
   if (p < 0.0 || p > 1.0)
      return D_NAN;
   if (p == 0.0)
      return -D_INF;
   if (p == 1.0)
      return D_INF;
   double e = __nv_erfcinv(2.0 * p);   /* 2p exact */
   dd r = dd_mul(-e, SQRT2);
   return r.hi + (r.lo - e * SQRT2_LO);
}

/* ---- Gamma ---- */

/* Stirling's correction sum B_2k / (2k (2k-1) x^(2k-1)) for x >= 8 */
DEVI double stirling_corr(double x)
{
   double z = 1.0 / x, z2 = z * z;
   return z * horner(STIRLING, NELEM(STIRLING), z2);
}

/* Gamma(x) for x >= 1/2 (finite) */
DEVN double gamma_pos(double x)
{
   if (x > 171.7)
      return D_INF;
   if (x >= 10.0) {
      /* sqrt(2 pi) x^(x-1/2) e^-x e^S, x^(x-1/2) as two halves */
      double h = __nv_pow(x, 0.5 * (x - 0.5));
      double e = __nv_exp(-x) * (0x1.40d931ff62705p1 * (1.0 + __nv_expm1(stirling_corr(x))));
      return h * (h * e);
   }
   double f = 1.0;
   double y = x;
   while (y > 2.0) {            /* Gamma(y) = (y-1) Gamma(y-1): y - 1 exact below 2^52 */
      y -= 1.0;
      f *= y;
   }
   if (y < 1.0) {
      /* Gamma(y) = Gamma(y + 1)/y; y + 1 (in [1.5, 2)) would round, so the
       * piece about 1.75 takes t = y - 0.75, which is exact */
      const sf_piece *p = &GAM_P[NELEM(GAM_P) - 1];
      return horner(GAM_C + p->first, p->n, y - (p->c_hi - 1.0)) / y;
   }
   return f * pieces(GAM_P, NELEM(GAM_P), GAM_C, y);
}

DEV double __nv_tgamma(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x == 0.0)
      return d_copysign(D_INF, x);
   if (d_isinf(x))
      return x > 0 ? x : D_NAN;
   if (x >= 0.5)
      return gamma_pos(x);
   if (d_abs(x) < 0x1p-54)
      return 1.0 / x;                     /* 1/x - Euler's gamma rounds to 1/x */
   if (d_rint(x) == x)
      return D_NAN;                       /* a pole */
   if (x < -190.0) {                      /* below the smallest subnormal; the sign alternates */
      double k = __builtin_ceil(-x);
      return d_rint(0.5 * k) * 2.0 != k ? -0.0 : 0.0;
   }
   /* Gamma(x) = pi / (sin(pi x) Gamma(1 - x)), Gamma(1 - x) = -x Gamma(-x):
    * 1 - x would round, and Gamma magnifies that by x psi(x) (600 ulp at
    * -128); -x is exact */
   double s = __nv_sinpi(x);
   if (x > -0.5)
      return PI / (s * gamma_pos(1.0 - x));   /* 1 - x in (1, 1.5): the rounding costs little */
   double y = -x;
   if (y <= 170.0)
      return PI / ((s * y) * gamma_pos(y));
   /* Gamma(-x) overflows: divide by its factors in turn */
   double h = __nv_pow(y, 0.5 * (y - 0.5));
   double e = __nv_exp(-y) * (0x1.40d931ff62705p1 * (1.0 + __nv_expm1(stirling_corr(y))));
   return (((PI / s) / y) / h) / (h * e);
}

/* ---- lgamma ---- */

DEVN double lgamma_pos(double x) /* x > 0, finite */
{
   if (x < 0.25) {
      /* lgamma(x) = lgamma(1 + x) - log x, lgamma(1 + x) from the piece about 1 */
      const sf_piece *p = &LGAM_P[0];
      return horner(LGAM_C + p->first, p->n, x) - __nv_log(x);
   }
   if (x < 0.75) {
      /* lgamma(1 + x) from the piece about 1.5: x - 0.5 is exact */
      const sf_piece *p = &LGAM_P[1];
      return horner(LGAM_C + p->first, p->n, x - 0.5) - __nv_log(x);
   }
   if (x <= 8.25)
      return pieces(LGAM_P, NELEM(LGAM_P), LGAM_C, x);
   if (x > 0x1p1014)
      return D_INF;
   /* (x - 1/2) log x - x + log(2 pi)/2 + S(x), log x as a double-double */
   dd l = log_dd(x);
   double xm = x - 0.5;                      /* exact below 2^52; above, the half does not matter */
   dd m = dd_mul(xm, l.hi);
   m.lo = d_fma(xm, l.lo, m.lo);
   dd s = dd_two_sum(m.hi, -x);
   s.lo += m.lo + 0x1.d67f1c864beb5p-1 + stirling_corr(x);   /* log(2 pi)/2 */
   return s.hi + s.lo;
}

DEV double __nv_lgamma(double x)
{
   if (d_isnan(x))
      return x + x;
   if (d_isinf(x))
      return D_INF;
   if (x > 0.0)
      return lgamma_pos(x);
   if (x == 0.0 || d_rint(x) == x)
      return D_INF;
   /* lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x) */
   double ax = -x;
   if (ax < 0x1p-60)
      return -__nv_log(ax);
   double s = d_abs(__nv_sinpi(x));
   return __nv_log(PI / (s * ax)) - lgamma_pos(ax);   /* lgamma(1-x) = lgamma(-x) + log(-x) */
}

/* ---- Bessel functions ---- */

/* Hankel's P and Q of order n at x >= 8, and the phase's sine and cosine */
DEVI void hankel(int n, double x, double *p, double *q)
{
   double u = 8.0 / x, s = d_fma(2.0 * u, u, -1.0);
   if (n == 0) {
      *p = clenshaw(P0_CH, NELEM(P0_CH), s);
      *q = clenshaw(Q0_CH, NELEM(Q0_CH), s) * u;
   } else {
      *p = clenshaw(P1_CH, NELEM(P1_CH), s);
      *q = clenshaw(Q1_CH, NELEM(Q1_CH), s) * u;
   }
}

/* J_n and Y_n (n = 0, 1) for x >= 8 */
DEVN void bessel_large(int n, double x, double *j, double *y)
{
   double p, q, sx, cx;
   hankel(n, x, &p, &q);
   __nv_sincos(x, &sx, &cx);
   /* chi = x - pi/4 (n = 0) or x - 3 pi/4 (n = 1) */
   double cc, sc;
   if (n == 0) {
      cc = (cx + sx) * (SQRT2 * 0.5);
      sc = (sx - cx) * (SQRT2 * 0.5);
   } else {
      cc = (sx - cx) * (SQRT2 * 0.5);
      sc = -(sx + cx) * (SQRT2 * 0.5);
   }
   double a = d_sqrt(2.0 * INV_PI / x);
   *j = a * (p * cc - q * sc);
   *y = a * (p * sc + q * cc);
}

DEV double __nv_j0(double x)
{
   if (d_isnan(x))
      return x + x;
   double ax = d_abs(x);
   if (ax <= 1.5)
      return horner(J0_S, NELEM(J0_S), ax * ax);
   if (ax <= 8.0)
      return pieces(J0_P, NELEM(J0_P), J0_C, ax);
   if (d_isinf(ax))
      return 0.0;
   double j, y;
   bessel_large(0, ax, &j, &y);
   return j;
}

DEV double __nv_j1(double x)
{
   if (d_isnan(x))
      return x + x;
   double ax = d_abs(x), r;
   if (ax <= 1.5)
      r = ax * horner(J1_S, NELEM(J1_S), ax * ax);
   else if (ax <= 8.0)
      r = pieces(J1_P, NELEM(J1_P), J1_C, ax);
   else if (d_isinf(ax))
      r = 0.0;
   else {
      double y;
      bessel_large(1, ax, &r, &y);
   }
   return x < 0 ? -r : r;
}

DEV double __nv_y0(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x < 0.0)
      return D_NAN;
   if (x == 0.0)
      return -D_INF;
   if (x < 0.75)   /* log(x/2) as log x - log 2: x/2 underflows for the least x */
      return d_fma(2.0 * INV_PI * (__nv_log(x) - 0x1.62e42fefa39efp-1), horner(J0_S, NELEM(J0_S), x * x),
                   horner(Y0_S, NELEM(Y0_S), x * x));
   if (x <= 8.0)
      return pieces(Y0_P, NELEM(Y0_P), Y0_C, x);
   if (d_isinf(x))
      return 0.0;
   double j, y;
   bessel_large(0, x, &j, &y);
   return y;
}

DEV double __nv_y1(double x)
{
   if (d_isnan(x))
      return x + x;
   if (x < 0.0)
      return D_NAN;
   if (x == 0.0)
      return -D_INF;
   if (x < 1.2) {   /* -2/(pi x) overflows to -inf by itself below 3.5e-309 */
      double j1 = x * horner(J1_S, NELEM(J1_S), x * x);
      double r = x * horner(Y1_S, NELEM(Y1_S), x * x) + 2.0 * INV_PI * (__nv_log(x) - 0x1.62e42fefa39efp-1) * j1;
      return r - (2.0 * INV_PI) / x;
   }
   if (x <= 8.0)
      return pieces(Y1_P, NELEM(Y1_P), Y1_C, x);
   if (d_isinf(x))
      return 0.0;
   double j, y;
   bessel_large(1, x, &j, &y);
   return y;
}

DEV double __nv_jn(int n, double x)
{
   if (d_isnan(x))
      return x + x;
   double sign = 1.0;
   if (n < 0) {                 /* J_-n = (-1)^n J_n */
      n = -n;
      if (n & 1)
         sign = -sign;
   }
   if (x < 0.0) {               /* J_n(-x) = (-1)^n J_n(x) */
      x = -x;
      if (n & 1)
         sign = -sign;
   }
   if (n == 0)
      return sign * __nv_j0(x);
   if (n == 1)
      return sign * __nv_j1(x);
   if (x == 0.0 || d_isinf(x))
      return sign * 0.0;
   if (x > (double)n) {         /* forward: stable above the turning point */
      double a = __nv_j0(x), b = __nv_j1(x);
      for (int k = 1; k < n; k++) {
         double c = (2.0 * k / x) * b - a;
         a = b;
         b = c;
      }
      return sign * b;
   }
   /* Miller: backward from well above n, normalised by J0 (or J1 near J0's zeros) */
   int m = 2 * ((n + (int)x + 24 + (int)d_sqrt(40.0 * n)) / 2);
   double jp = 0.0, jc = 0x1p-200, jn = 0.0, j0 = 0.0, j1 = 0.0;
   for (int k = m; k >= 1; k--) {
      double jm = (2.0 * k / x) * jc - jp;   /* J_{k-1} */
      jp = jc;
      jc = jm;
      if (k - 1 == n)
         jn = jc;
      if (k - 1 == 1)
         j1 = jc;
      if (k - 1 == 0)
         j0 = jc;
      if (d_abs(jc) > 0x1p200) {             /* rescale */
         jc *= 0x1p-200;
         jp *= 0x1p-200;
         jn *= 0x1p-200;
         j1 *= 0x1p-200;
         j0 *= 0x1p-200;
      }
   }
   double t0 = __nv_j0(x), t1 = __nv_j1(x);
   double r = d_abs(t0) > d_abs(t1) ? jn * (t0 / j0) : jn * (t1 / j1);
   return sign * r;
}

DEV double __nv_yn(int n, double x)
{
   if (d_isnan(x))
      return x + x;
   double sign = 1.0;
   if (n < 0) {                 /* Y_-n = (-1)^n Y_n */
      n = -n;
      if (n & 1)
         sign = -1.0;
   }
   if (n == 0)
      return sign * __nv_y0(x);
   if (n == 1)
      return sign * __nv_y1(x);
   if (x < 0.0)
      return D_NAN;
   if (x == 0.0)
      return -sign * D_INF;
   if (d_isinf(x))
      return sign * 0.0;
   double a = __nv_y0(x), b = __nv_y1(x);
   for (int k = 1; k < n && !d_isinf(b); k++) {
      double c = (2.0 * k / x) * b - a;
      a = b;
      b = c;
   }
   return sign * b;
}

/* I0, I1 above I_SWITCH: e^x / sqrt(x) times the series, e^x in halves */
DEVI double bessel_i_large(const double *c, int n, double x)
{
   double g = clenshaw(c, n, d_fma(2.0, I_SWITCH / x, -1.0));
   double h = __nv_exp(0.5 * x);
   return h * ((h * g) / d_sqrt(x));
}

DEV double __nv_cyl_bessel_i0(double x)
{
   if (d_isnan(x))
      return x + x;
   double ax = d_abs(x);
   if (ax <= I_SWITCH)
      return horner(I0_S, NELEM(I0_S), ax * ax);
   return bessel_i_large(I0_CH, NELEM(I0_CH), ax);   /* overflows to inf past 713.98 */
}

DEV double __nv_cyl_bessel_i1(double x)
{
   if (d_isnan(x))
      return x + x;
   double ax = d_abs(x), r;
   if (ax <= I_SWITCH)
      r = ax * horner(I1_S, NELEM(I1_S), ax * ax);
   else
      r = bessel_i_large(I1_CH, NELEM(I1_CH), ax);
   return x < 0 ? -r : r;
}
