#ifndef _MC_MATH_H
#define _MC_MATH_H
#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()
#define HUGE_VAL __builtin_huge_val()
#define HUGE_VALF __builtin_huge_valf()
#define isnan(x) __builtin_isnan(x)
#define isinf(x) __builtin_isinf(x)
#define isfinite(x) __builtin_isfinite(x)
#define signbit(x) __builtin_signbit(x)
#define fpclassify(x) __builtin_fpclassify(FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO, x)
#define FP_NAN 1
#define FP_INFINITE 2
#define FP_ZERO 3
#define FP_NORMAL 4
#define FP_SUBNORMAL 5
#define M_PI 3.14159265358979323846
#define __MC_M1(n) double n(double); float n##f(float);
#define __MC_M2(n) double n(double, double); float n##f(float, float);
__MC_M1(fabs) __MC_M1(floor) __MC_M1(ceil) __MC_M1(trunc) __MC_M1(round) __MC_M1(rint) __MC_M1(nearbyint)
__MC_M1(sqrt) __MC_M1(exp) __MC_M1(exp2) __MC_M1(expm1) __MC_M1(log) __MC_M1(log2) __MC_M1(log10) __MC_M1(log1p)
__MC_M1(sin) __MC_M1(cos) __MC_M1(tan) __MC_M1(asin) __MC_M1(acos) __MC_M1(atan) __MC_M1(sinh) __MC_M1(cosh)
__MC_M1(tanh) __MC_M1(asinh) __MC_M1(acosh) __MC_M1(atanh) __MC_M1(cbrt) __MC_M1(erf) __MC_M1(erfc)
__MC_M1(tgamma) __MC_M1(lgamma) __MC_M1(logb)
__MC_M2(pow) __MC_M2(fmod) __MC_M2(atan2) __MC_M2(copysign) __MC_M2(nextafter) __MC_M2(fmin) __MC_M2(fmax)
__MC_M2(hypot) __MC_M2(remainder) __MC_M2(fdim)
double fma(double, double, double); float fmaf(float, float, float);
double frexp(double, int *); float frexpf(float, int *);
double ldexp(double, int); float ldexpf(float, int);
double scalbn(double, int); float scalbnf(float, int);
double modf(double, double *); float modff(float, float *);
int ilogb(double); int ilogbf(float);
long lrint(double); long long llrint(double); long lround(double); long long llround(double);
#undef __MC_M1
#undef __MC_M2
#endif
