/*
 * math_trig.cu — sin, cos, tan, sincos, sinpi, cospi, sincospi, asin, acos,
 * atan, atan2 in double precision.
 *
 * Argument reduction to r in [-pi/4, pi/4] as a double-double: Cody-Waite
 * with pi/2 in three parts for |x| < 2^20, Payne-Hanek beyond (x times the
 * 128 bits of 2/pi that matter for its exponent, from the 1280-bit table
 * TWO_OVER_PI: 2/pi's binary fraction, 32 bits a word, computed with
 * Python's decimal module from Machin's formula for pi).  Then Taylor
 * polynomials of sin and cos on [-pi/4, pi/4] (terms to r^25), the low part
 * of r added as the first-order correction.
 * atan: |x| > 1 uses pi/2 - atan(1/x); then atan(x) = atan(c) + atan((x - c)
 * / (1 + x c)) with c in {0, 1/4, 1/2, 3/4, 1} so the series argument stays
 * below 0.13; asin and acos go through atan.
 */
#include "devlib.h"

#define PIO2_1 0x1.921fb54400000p0       /* 33 bits: k * PIO2_1 exact for |k| < 2^20 */
#define PIO2_2 0x1.0b4611a600000p-34
#define PIO2_3 0x1.3198a2e037073p-69
#define PIO2_HI 0x1.921fb54442d18p0
#define PIO2_LO 0x1.1a62633145c07p-54

static DEVCONST const uint32_t TWO_OVER_PI[40] = {
   0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
   0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
   0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
   0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
   0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d,
};

/* bit b (1 = first after the binary point) of 2/pi's window of 32 bits */
DEVI uint32_t tpi_bits32(int b)
{
   int w = (b - 1) >> 5, s = (b - 1) & 31;
   uint32_t hi = w < 40 ? TWO_OVER_PI[w] : 0, lo = w + 1 < 40 ? TWO_OVER_PI[w + 1] : 0;
   return s ? (hi << s) | (lo >> (32 - s)) : hi;
}

/* x = (q + r) pi/2 with |r| <= pi/4 (as hi + lo); returns q mod 4. */
DEVN int reduce_pio2(double x, double *rhi, double *rlo)
{
   double ax = d_abs(x);
   if (ax < 0x1p20) {
      double k = d_rint(x * 0x1.45f306dc9c883p-1);
      double r1 = d_fma(-k, PIO2_1, x);                 /* exact */
      double r2 = d_fma(-k, PIO2_2, r1);                /* exact: k*PIO2_2 has <= 53 bits */
      dd m = dd_mul(k, PIO2_3);
      dd r = dd_two_sum(r2, -m.hi);
      *rhi = r.hi;
      *rlo = r.lo - m.lo;
      dd n = dd_fast_sum(*rhi, *rlo);
      *rhi = n.hi;
      *rlo = n.lo;
      return (int)((int64_t)k & 3);
   }
   /* Payne-Hanek: x = M 2^E, M a 53-bit integer */
   uint64_t u = d2u(ax);
   int E = (int)(u >> 52) - 1075;
   uint64_t M = (u & 0x000fffffffffffffull) | 0x0010000000000000ull;
   int b0 = E - 1 > 1 ? E - 1 : 1;                     /* bits before b0 give multiples of 4 */
   uint32_t w[4];
   for (int i = 0; i < 4; i++)
      w[i] = tpi_bits32(b0 + 32 * i);
   /* P = M * W, W the 128-bit window; 6 words, p[0] most significant */
   uint32_t p[6] = { 0 };
   uint64_t mlo = M & 0xffffffffu, mhi = M >> 32;
   for (int i = 3; i >= 0; i--) {
      uint64_t a = mlo * w[i], b = mhi * w[i];
      /* add a at word i+2 (from the top: p[i+2] is 2^0 of this row), b at i+1 */
      uint64_t c = (uint64_t)p[i + 2] + (uint32_t)a;
      p[i + 2] = (uint32_t)c;
      c = (c >> 32) + (uint64_t)p[i + 1] + (a >> 32) + (uint32_t)b;
      p[i + 1] = (uint32_t)c;
      c = (c >> 32) + (uint64_t)p[i] + (b >> 32);
      p[i] = (uint32_t)c;
      for (int j = i - 1; j >= 0 && (c >> 32); j--) {
         c = (c >> 32) + p[j];
         p[j] = (uint32_t)c;
      }
   }
   /* value = P 2^(E - b0 - 127): fraction bits s = b0 + 127 - E (126 or more) */
   int s = b0 + 127 - E;
   /* the 2 integer bits we keep and 126 fraction bits, from P's MSB-relative bit 192-(s+2) */
   uint32_t q4[5];
   int start = 192 - (s + 2);
   for (int i = 0; i < 5; i++) {
      int bit = start + 32 * i;
      int wi = bit >> 5, sh = bit & 31;
      uint32_t hi = wi < 6 ? p[wi] : 0, lo = wi + 1 < 6 ? p[wi + 1] : 0;
      q4[i] = sh ? (hi << sh) | (lo >> (32 - sh)) : hi;
   }
   int q = (int)(q4[0] >> 30);
   uint64_t f1 = ((uint64_t)(q4[0] & 0x3fffffffu) << 34) | ((uint64_t)q4[1] << 2) | (q4[2] >> 30);
   uint64_t f2 = ((uint64_t)(q4[2] & 0x3fffffffu) << 34) | ((uint64_t)q4[3] << 2) | (q4[4] >> 30);
   /* fraction f = f1 2^-64 + f2 2^-128; move to [-1/2, 1/2) */
   double fh = (double)((f1 >> 11) << 11) * 0x1p-64;                       /* exact: 53 bits */
   double fl = (double)(f1 & 0x7ff) * 0x1p-64 + (double)f2 * 0x1p-128;
   if (fh >= 0.5) {
      fh -= 1.0;
      q += 1;
   }
   dd f = dd_fast_sum(fh, fl);
   /* r = f pi/2 */
   dd r = dd_mul(f.hi, PIO2_HI);
   r.lo = d_fma(f.hi, PIO2_LO, r.lo) + f.lo * PIO2_HI;
   r = dd_fast_sum(r.hi, r.lo);
   if (x < 0) {
      r.hi = -r.hi;
      r.lo = -r.lo;
      q = -q;
   }
   *rhi = r.hi;
   *rlo = r.lo;
   return q & 3;
}

/* sin(r + rl), cos(r + rl) for |r| <= pi/4 */
DEVI double sin_k(double r, double rl)
{
   double w = r * r;
   double p;
   p = -1.0 / 51090942171709440000.0;                  /* -1/21! */
   p = d_fma(p, w, 1.0 / 121645100408832000.0);        /* 1/19! */
   p = d_fma(p, w, -1.0 / 355687428096000.0);          /* -1/17! */
   p = d_fma(p, w, 1.0 / 1307674368000.0);             /* 1/15! */
   p = d_fma(p, w, -1.0 / 6227020800.0);               /* -1/13! */
   p = d_fma(p, w, 1.0 / 39916800.0);
   p = d_fma(p, w, -1.0 / 362880.0);
   p = d_fma(p, w, 1.0 / 5040.0);
   p = d_fma(p, w, -1.0 / 120.0);
   p = d_fma(p, w, 1.0 / 6.0);
   /* r - r^3 (1/6 - ...) + rl (1 - r^2/2) */
   double t = d_fma(-r * w, p, d_fma(-0.5 * w, rl, rl));
   return r + t;
}

DEVI double cos_k(double r, double rl)
{
   double w = r * r;
   double p = 1.0 / 6402373705728000.0;                /* 1/18! */
   p = d_fma(p, w, -1.0 / 20922789888000.0);           /* -1/16! */
   p = d_fma(p, w, 1.0 / 87178291200.0);               /* 1/14! */
   p = d_fma(p, w, -1.0 / 479001600.0);
   p = d_fma(p, w, 1.0 / 3628800.0);
   p = d_fma(p, w, -1.0 / 40320.0);
   p = d_fma(p, w, 1.0 / 720.0);
   p = d_fma(p, w, -1.0 / 24.0);
   double hz = 0.5 * w;
   double v = 1.0 - hz;
   /* 1 - hz exactly split, + w^2 (1/24 - ...) - r rl */
   double corr = ((1.0 - v) - hz) + d_fma(w * w, -p, -r * rl);
   return v + corr;
}

DEV double __nv_sin(double x)
{
   if (d_isinf(x) || d_isnan(x))
      return x - x;
   if (d_abs(x) < 0x1p-26)
      return x;
   double r, rl;
   int q = reduce_pio2(x, &r, &rl);
   switch (q) {
   case 0: return sin_k(r, rl);
   case 1: return cos_k(r, rl);
   case 2: return -sin_k(r, rl);
   default: return -cos_k(r, rl);
   }
}

DEV double __nv_cos(double x)
{
   if (d_isinf(x) || d_isnan(x))
      return x - x;
   double r, rl;
   int q = reduce_pio2(x, &r, &rl);
   switch (q) {
   case 0: return cos_k(r, rl);
   case 1: return -sin_k(r, rl);
   case 2: return -cos_k(r, rl);
   default: return sin_k(r, rl);
   }
}

DEV void __nv_sincos(double x, double *s, double *c)
{
   *s = __nv_sin(x);
   *c = __nv_cos(x);
}

DEV double __nv_tan(double x)
{
   if (d_isinf(x) || d_isnan(x))
      return x - x;
   if (d_abs(x) < 0x1p-27)
      return x;
   double r, rl;
   int q = reduce_pio2(x, &r, &rl);
   double s = sin_k(r, rl), c = cos_k(r, rl);
   if (q & 1) {
      /* -cos/sin, the quotient corrected by one fma step */
      double t = -c / s;
      return t + d_fma(t, -s, -c) / s;
   }
   double t = s / c;
   return t + d_fma(-t, c, s) / c;
}

/* sin(pi x), cos(pi x): x reduced exactly to [-1/4, 1/4] in units of pi */
DEVI double pi_times(double r, double *lo)
{
   dd p = dd_mul(r, 0x1.921fb54442d18p1);
   p.lo = d_fma(r, 0x1.1a62633145c07p-53, p.lo);
   dd n = dd_fast_sum(p.hi, p.lo);
   *lo = n.lo;
   return n.hi;
}

DEVN void sincospi_impl(double x, double *sp, double *cp)
{
   if (d_isinf(x) || d_isnan(x)) {
      *sp = *cp = x - x;
      return;
   }
   double ax = d_abs(x);
   if (ax >= 0x1p52) {                                  /* an even integer or odd: sin 0 */
      *sp = d_copysign(0.0, x);
      *cp = ax >= 0x1p53 || d_rint(ax * 0.5) == ax * 0.5 ? 1.0 : -1.0;
      return;
   }
   double k = d_rint(2.0 * x);                          /* x = k/2 + f, |f| <= 1/4 */
   double f = d_fma(-0.5, k, x);                        /* exact */
   int q = (int)((int64_t)k & 3);
   double lo, r = pi_times(f, &lo);
   double s = f == 0.0 ? d_copysign(0.0, f) : sin_k(r, lo), c = cos_k(r, lo);
   switch (q) {
   case 0: *sp = s; *cp = c; break;
   case 1: *sp = c; *cp = -s; break;
   case 2: *sp = -s; *cp = -c; break;
   default: *sp = -c; *cp = s; break;
   }
   if (*sp == 0.0)
      *sp = d_copysign(0.0, x);
   if (*cp == 0.0)
      *cp = 0.0;
}

DEV double __nv_sinpi(double x) { double s, c; sincospi_impl(x, &s, &c); return s; }
DEV double __nv_cospi(double x) { double s, c; sincospi_impl(x, &s, &c); return c; }
DEV void __nv_sincospi(double x, double *s, double *c) { sincospi_impl(x, s, c); }

/* ---- inverse functions ---- */

/* atan(c) for c = 0, 1/4, 1/2, 3/4, 1 as double-doubles */
static DEVCONST const double ATAN_HI[5] = { 0.0, 0x1.f5b75f92c80ddp-3, 0x1.dac670561bb4fp-2,
                                                           0x1.4978fa3269ee1p-1, 0x1.921fb54442d18p-1 };
static DEVCONST const double ATAN_LO[5] = { 0.0, 0x1.8ab6e3cf7afbdp-57, 0x1.a2b7f222f65e2p-56,
                                                           0x1.2419a87f2a458p-56, 0x1.1a62633145c07p-55 };

/* atan(t) for |t| <= 0.13, the low part tl added */
DEVI double atan_k(double t, double tl)
{
   double w = t * t;
   double p = 1.0 / 31;
   p = d_fma(p, -w, 1.0 / 29);
   p = d_fma(p, -w, 1.0 / 27);
   p = d_fma(p, -w, 1.0 / 25);
   p = d_fma(p, -w, 1.0 / 23);
   p = d_fma(p, -w, 1.0 / 21);
   p = d_fma(p, -w, 1.0 / 19);
   p = d_fma(p, -w, 1.0 / 17);
   p = d_fma(p, -w, 1.0 / 15);
   p = d_fma(p, -w, 1.0 / 13);
   p = d_fma(p, -w, 1.0 / 11);
   p = d_fma(p, -w, 1.0 / 9);
   p = d_fma(p, -w, 1.0 / 7);
   p = d_fma(p, -w, 1.0 / 5);
   p = d_fma(p, -w, 1.0 / 3);
   /* t - t^3 p + tl / (1 + t^2) */
   return t + d_fma(-t * w, p, tl * (1.0 - w));
}

/* atan(n/d) for 0 <= n <= d, d > 0, both finite, as hi + lo */
DEVN dd atan_ratio(double n, double d)
{
   double x = n / d;
   int i = (int)d_rint(x * 4.0);
   double c = 0.25 * i;
   /* t = (n - c d) / (d + c n), both exact-ish with fma */
   double num = d_fma(-c, d, n);
   dd den = dd_two_sum(d, c * n);
   double t = num / den.hi;
   double tl = (d_fma(-t, den.hi, num) - t * den.lo) / den.hi;
   double a = atan_k(t, tl);
   return dd_two_sum(ATAN_HI[i], a + ATAN_LO[i]);
}

DEV double __nv_atan2(double y, double x)
{
   if (d_isnan(x) || d_isnan(y))
      return x + y;
   double ay = d_abs(y), ax = d_abs(x);
   double res;
   if (d_isinf(ax) || d_isinf(ay)) {
      if (d_isinf(ax) && d_isinf(ay))
         res = x > 0 ? PIO2_HI * 0.5 : 3.0 * PIO2_HI * 0.5;
      else if (d_isinf(ax))
         res = x > 0 ? 0.0 : 2.0 * PIO2_HI;
      else
         res = PIO2_HI;
      return d_copysign(res, y);
   }
   if (ay == 0.0)
      return d_copysign(d2u(x) >> 63 ? 2.0 * PIO2_HI : 0.0, y);
   if (ax == 0.0)
      return d_copysign(PIO2_HI, y);
   /* scale both into range so the ratio and its parts do not overflow */
   int ey = (int)((d2u(ay) >> 52) & 0x7ff), ex = (int)((d2u(ax) >> 52) & 0x7ff);
   if (ey - ex > 60) {
      res = PIO2_HI;
      res = x > 0 ? res : res;
   } else if (ex - ey > 60 && x > 0) {
      res = ay / ax;
      return d_copysign(res, y);
   }
   double sc = ex > 1800 || ey > 1800 ? 0x1p-600 : ex < 300 || ey < 300 ? 0x1p600 : 1.0;
   ax *= sc;
   ay *= sc;
   dd a;
   if (ay <= ax)
      a = atan_ratio(ay, ax);
   else {
      dd b = atan_ratio(ax, ay);
      a = dd_two_sum(PIO2_HI, -b.hi);
      a.lo += PIO2_LO - b.lo;
   }
   if (x < 0) {
      dd b = dd_two_sum(2.0 * PIO2_HI, -a.hi);
      b.lo += 2.0 * PIO2_LO - a.lo;
      a = b;
   }
   res = a.hi + a.lo;
   return d_copysign(res, y);
}

DEV double __nv_atan(double x)
{
   if (d_isnan(x))
      return x + x;
   if (d_abs(x) < 0x1p-27)
      return x;
   return __nv_atan2(x, 1.0);
}

DEV double __nv_asin(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x))
      return x + x;
   if (ax > 1.0)
      return u2d(0x7fffffffffffffffull);
   if (ax < 0x1p-26)
      return x;
   /* asin x = atan(x / sqrt((1-x)(1+x))) */
   double c = d_sqrt((1.0 - ax) * (1.0 + ax));
   return d_copysign(__nv_atan2(ax, c), x);
}

DEV double __nv_acos(double x)
{
   double ax = d_abs(x);
   if (d_isnan(x))
      return x + x;
   if (ax > 1.0)
      return u2d(0x7fffffffffffffffull);
   /* acos x = atan2(sqrt((1-x)(1+x)), x) */
   double s = d_sqrt((1.0 - x) * (1.0 + x));
   return __nv_atan2(s, x);
}
