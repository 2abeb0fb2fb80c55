/*
 * exact.cu — the functions whose results are exact or correctly rounded by
 * definition (fabs, floor, rint, fmin, fmod, ldexp, frexp, nextafter ...),
 * in both precisions, on clang builtins that NVPTX lowers to one
 * instruction (cvt.rmi, min.f64, ...) or on the bits.
 */
#include "devlib.h"

DEV double __nv_fabs(double x) { return __builtin_fabs(x); }
DEV float __nv_fabsf(float x) { return __builtin_fabsf(x); }
DEV double __nv_floor(double x) { return __builtin_floor(x); }
DEV float __nv_floorf(float x) { return __builtin_floorf(x); }
DEV double __nv_ceil(double x) { return __builtin_ceil(x); }
DEV float __nv_ceilf(float x) { return __builtin_ceilf(x); }
DEV double __nv_trunc(double x) { return __builtin_trunc(x); }
DEV float __nv_truncf(float x) { return __builtin_truncf(x); }
DEV double __nv_rint(double x) { return __builtin_rint(x); }
DEV float __nv_rintf(float x) { return __builtin_rintf(x); }
DEV double __nv_nearbyint(double x) { return __builtin_rint(x); }
DEV float __nv_nearbyintf(float x) { return __builtin_rintf(x); }
/* round half away from zero: CUDA's round is trunc(x + copysign(0.5 - ulp/2...)); exact form */
DEV double __nv_round(double x)
{
   double t = __builtin_trunc(x);
   return __builtin_fabs(x - t) >= 0.5 ? t + __builtin_copysign(1.0, x) : t;
}
DEV float __nv_roundf(float x)
{
   float t = __builtin_truncf(x);
   return __builtin_fabsf(x - t) >= 0.5f ? t + __builtin_copysignf(1.0f, x) : t;
}
DEV long long __nv_llrint(double x) { return (long long)__builtin_rint(x); }
DEV long long __nv_llrintf(float x) { return (long long)__builtin_rintf(x); }
DEV long long __nv_llround(double x) { return (long long)__nv_round(x); }
DEV long long __nv_llroundf(float x) { return (long long)__nv_roundf(x); }
DEV double __nv_fmin(double a, double b) { return __builtin_fmin(a, b); }
DEV float __nv_fminf(float a, float b) { return __builtin_fminf(a, b); }
DEV double __nv_fmax(double a, double b) { return __builtin_fmax(a, b); }
DEV float __nv_fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
DEV double __nv_copysign(double a, double b) { return __builtin_copysign(a, b); }
DEV float __nv_copysignf(float a, float b) { return __builtin_copysignf(a, b); }
DEV double __nv_fdim(double a, double b) { return a > b ? a - b : (a != a || b != b) ? a + b : 0.0; }
DEV float __nv_fdimf(float a, float b) { return a > b ? a - b : (a != a || b != b) ? a + b : 0.0f; }
DEV double __nv_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
DEV float __nv_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
DEV double __nv_sqrt(double x) { return __builtin_sqrt(x); }
DEV float __nv_sqrtf(float x) { return __builtin_sqrtf(x); }
DEV int __nv_isnanf(float x) { return x != x; }
DEV int __nv_isnand(double x) { return x != x; }
DEV int __nv_isinff(float x) { return __builtin_fabsf(x) == __builtin_inff(); }
DEV int __nv_isinfd(double x) { return __builtin_fabs(x) == __builtin_inf(); }
DEV int __nv_finitef(float x) { return __builtin_fabsf(x) < __builtin_inff(); }
DEV int __nv_isfinited(double x) { return __builtin_fabs(x) < __builtin_inf(); }
DEV int __nv_signbitf(float x) { return (int)(f2u(x) >> 31); }
DEV int __nv_signbitd(double x) { return (int)(d2u(x) >> 63); }
DEV double __nv_nan(const char *s) { (void)s; return u2d(0x7fffffffffffffffull); }
DEV float __nv_nanf(const char *s) { (void)s; return u2f(0x7fffffffu); }

DEV double __nv_ldexp(double x, int n) { return d_scale(x, n < -3000 ? -3000 : n > 3000 ? 3000 : n); }
DEV float __nv_ldexpf(float x, int n) { return (float)d_scale((double)x, n < -400 ? -400 : n > 400 ? 400 : n); }
DEV double __nv_scalbn(double x, int n) { return __nv_ldexp(x, n); }
DEV float __nv_scalbnf(float x, int n) { return __nv_ldexpf(x, n); }

DEV double __nv_frexp(double x, int *e)
{
   *e = 0;
   if (x == 0.0 || x != x || d_isinf(x))
      return x;
   int k = 0;
   if (__builtin_fabs(x) < 0x1p-1022) { x *= 0x1p54; k = -54; }
   uint64_t u = d2u(x);
   *e = (int)((u >> 52) & 0x7ff) - 1022 + k;
   return u2d((u & 0x800fffffffffffffull) | 0x3fe0000000000000ull);
}
DEV float __nv_frexpf(float x, int *e)
{
   *e = 0;
   if (x == 0.0f || x != x || __builtin_fabsf(x) == __builtin_inff())
      return x;
   int k = 0;
   if (__builtin_fabsf(x) < 0x1p-126f) { x *= 0x1p24f; k = -24; }
   uint32_t u = f2u(x);
   *e = (int)((u >> 23) & 0xff) - 126 + k;
   return u2f((u & 0x807fffffu) | 0x3f000000u);
}
DEV int __nv_ilogb(double x)
{
   if (x == 0.0) return (int)0x80000000;
   if (x != x) return (int)0x80000000;
   if (d_isinf(x)) return 0x7fffffff;
   int e;
   __nv_frexp(x, &e);
   return e - 1;
}
DEV int __nv_ilogbf(float x)
{
   if (x == 0.0f || x != x) return (int)0x80000000;
   if (__builtin_fabsf(x) == __builtin_inff()) return 0x7fffffff;
   int e;
   __nv_frexpf(x, &e);
   return e - 1;
}
DEV double __nv_logb(double x)
{
   if (x != x) return x + x;
   if (x == 0.0) return -__builtin_inf();
   if (d_isinf(x)) return __builtin_fabs(x);
   return (double)__nv_ilogb(x);
}
DEV float __nv_logbf(float x)
{
   if (x != x) return x + x;
   if (x == 0.0f) return -__builtin_inff();
   if (__builtin_fabsf(x) == __builtin_inff()) return __builtin_fabsf(x);
   return (float)__nv_ilogbf(x);
}
DEV double __nv_modf(double x, double *ip)
{
   double t = __builtin_trunc(x);
   *ip = t;
   return d_isinf(x) ? __builtin_copysign(0.0, x) : __builtin_copysign(x - t, x);
}
DEV float __nv_modff(float x, float *ip)
{
   float t = __builtin_truncf(x);
   *ip = t;
   return __builtin_fabsf(x) == __builtin_inff() ? __builtin_copysignf(0.0f, x) : __builtin_copysignf(x - t, x);
}
DEV double __nv_nextafter(double x, double y)
{
   if (x != x || y != y) return x + y;
   if (x == y) return y;
   if (x == 0.0) return __builtin_copysign(u2d(1), y);
   uint64_t u = d2u(x);
   u += ((x < y) == (x > 0)) ? 1 : (uint64_t)-1;
   return u2d(u);
}
DEV float __nv_nextafterf(float x, float y)
{
   if (x != x || y != y) return x + y;
   if (x == y) return y;
   if (x == 0.0f) return __builtin_copysignf(u2f(1), y);
   uint32_t u = f2u(x);
   u += ((x < y) == (x > 0)) ? 1 : (uint32_t)-1;
   return u2f(u);
}

/* fmod: exact, by long division on the significands */
DEV double __nv_fmod(double x, double y)
{
   if (x != x || y != y || d_isinf(x) || y == 0.0)
      return u2d(0x7fffffffffffffffull);
   double ax = __builtin_fabs(x), ay = __builtin_fabs(y);
   if (ax < ay || d_isinf(y))
      return x;
   /* subtract the largest 2^k ay not above ax, k going down: each step exact */
   int ex, ey;
   __nv_frexp(ax, &ex);
   __nv_frexp(ay, &ey);
   for (int k = ex - ey; k >= 0; k--) {
      double t = d_scale(ay, k);
      if (ax >= t)
         ax -= t;
   }
   return __builtin_copysign(ax, x);
}
DEV float __nv_fmodf(float x, float y) { return (float)__nv_fmod((double)x, (double)y); }

DEV double __nv_remquo(double x, double y, int *quo)
{
   *quo = 0;
   if (x != x || y != y || d_isinf(x) || y == 0.0)
      return u2d(0x7fffffffffffffffull);
   if (d_isinf(y))
      return x;
   double ay = __builtin_fabs(y);
   /* r = |x| mod 8|y| (exact), then the low three bits of the quotient by
    * exact subtractions of 4|y|, 2|y|, |y| */
   double r = __builtin_fabs(x);
   double y8 = d_scale(ay, 3);
   if (!d_isinf(y8))
      r = __nv_fmod(r, y8);
   int q = 0;
   for (int k = 2; k >= 0; k--) {
      double t = d_scale(ay, k);
      if (!d_isinf(t) && r >= t) {
         r -= t;
         q |= 1 << k;
      }
   }
   /* nearest multiple, ties to the even quotient */
   if (r > 0.5 * ay || (r == 0.5 * ay && (q & 1))) {
      r -= ay;
      q = (q + 1) & 7;
   }
   *quo = ((x < 0) != (y < 0)) ? -q : q;
   return x < 0 ? -r : r;
}
DEV double __nv_remainder(double x, double y) { int q; return __nv_remquo(x, y, &q); }
DEV float __nv_remquof(float x, float y, int *q) { return (float)__nv_remquo(x, y, q); }
DEV float __nv_remainderf(float x, float y) { int q; return (float)__nv_remquo(x, y, &q); }
