/*
 * math_float.cu — the single-precision math functions.  Each computes in
 * double precision with math_*.cu's functions and rounds once to float:
 * their double results are within about 1 ulp of double, far below half an
 * ulp of float, so the float result is the correctly rounded one except
 * when the exact value lies within that distance of a rounding boundary.
 * On an Apple GPU double is emulated (metalcuda's fp64), so these are
 * correct first and slow; float-native forms are future work.
 */
#include "devlib.h"

#define DECL1(n) DEV double __nv_##n(double);
#define F1(n) DEV float __nv_##n##f(float x) { return (float)__nv_##n((double)x); }
#define ALL1(X) X(exp) X(exp2) X(exp10) X(expm1) X(log) X(log2) X(log10) X(log1p) X(sin) X(cos) X(tan) \
   X(sinpi) X(cospi) X(asin) X(acos) X(atan) X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh) X(cbrt) \
   X(rcbrt) X(erf) X(erfc) X(erfcx) X(erfinv) X(erfcinv) X(normcdf) X(normcdfinv) X(lgamma) X(tgamma) X(j0) \
   X(j1) X(y0) X(y1) X(cyl_bessel_i0) X(cyl_bessel_i1)
ALL1(DECL1)
ALL1(F1)
DEV double __nv_pow(double, double);
DEV double __nv_atan2(double, double);
DEV double __nv_hypot(double, double);
DEV double __nv_norm3d(double, double, double);
DEV double __nv_norm4d(double, double, double, double);
DEV float __nv_powf(float x, float y) { return (float)__nv_pow((double)x, (double)y); }
DEV float __nv_powif(float x, int n) { return (float)__nv_pow((double)x, (double)n); }
DEV float __nv_atan2f(float y, float x) { return (float)__nv_atan2((double)y, (double)x); }
DEV float __nv_hypotf(float x, float y) { return (float)__nv_hypot((double)x, (double)y); }
DEV float __nv_rhypotf(float x, float y) { return (float)(1.0 / __nv_hypot((double)x, (double)y)); }
DEV float __nv_norm3df(float a, float b, float c) { return (float)__nv_norm3d(a, b, c); }
DEV float __nv_rnorm3df(float a, float b, float c) { return (float)(1.0 / __nv_norm3d(a, b, c)); }
DEV float __nv_norm4df(float a, float b, float c, float d) { return (float)__nv_norm4d(a, b, c, d); }
DEV float __nv_rnorm4df(float a, float b, float c, float d) { return (float)(1.0 / __nv_norm4d(a, b, c, d)); }
DEV float __nv_rsqrtf(float x) { return (float)(1.0 / __builtin_sqrt((double)x)); }
DEV double __nv_jn(int, double);
DEV double __nv_yn(int, double);
DEV float __nv_jnf(int n, float x) { return (float)__nv_jn(n, (double)x); }
DEV float __nv_ynf(int n, float x) { return (float)__nv_yn(n, (double)x); }
/* norm of dim floats: in double, where the squares cannot overflow */
DEVI double normf_d(int dim, const float *a)
{
   double s = 0.0;
   for (int i = 0; i < dim; i++)
      s = d_fma((double)a[i], (double)a[i], s);
   return __builtin_sqrt(s);
}
DEV float __nv_normf(int dim, const float *a) { return (float)normf_d(dim, a); }
DEV float __nv_rnormf(int dim, const float *a) { return (float)(1.0 / normf_d(dim, a)); }
DEV void __nv_sincosf(float x, float *s, float *c) { *s = __nv_sinf(x); *c = __nv_cosf(x); }
DEV void __nv_sincospif(float x, float *s, float *c) { *s = __nv_sinpif(x); *c = __nv_cospif(x); }
