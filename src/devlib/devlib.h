/*
 * devlib.h — what every family of the device library shares.
 *
 * The device library implements libdevice's interface (the __nv_*
 * functions that clang's CUDA headers call: sinf() is __nv_sinf) as CUDA C
 * for clang.  The driver links it into every device compile with
 * -mlink-builtin-bitcode, so only the functions a kernel uses are kept.
 *
 * The math families (math_*.cu) are plain C++ on doubles and integers, so
 * tests/devlib compiles the same files for the host and compares them with
 * the host's libm.  Device-only families use clang's __nvvm_* builtins and
 * are compiled only under __CUDA_ARCH__ (devlib.cu includes every family).
 */
#ifndef MC_DEVLIB_H
#define MC_DEVLIB_H

#include <stdint.h>
#include <string.h>

#if defined(__CUDA__)
#define DEV extern "C" __attribute__((device))
#define DEVI static __attribute__((device)) __inline__ __attribute__((always_inline))
#define DEVCONST __attribute__((device))
#define DEVN static __attribute__((device)) __attribute__((noinline))
#else
#define DEVCONST
#define DEVN static __attribute__((noinline))
#define DEV extern "C"
#define DEVI static inline
#endif

DEVI uint64_t d2u(double x) { uint64_t u; __builtin_memcpy(&u, &x, 8); return u; }
DEVI double u2d(uint64_t u) { double x; __builtin_memcpy(&x, &u, 8); return x; }
DEVI uint32_t f2u(float x) { uint32_t u; __builtin_memcpy(&u, &x, 4); return u; }
DEVI float u2f(uint32_t u) { float x; __builtin_memcpy(&x, &u, 4); return x; }

DEVI bool d_isnan(double x) { return (d2u(x) & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
DEVI bool d_isinf(double x) { return (d2u(x) & 0x7fffffffffffffffull) == 0x7ff0000000000000ull; }
DEVI double d_abs(double x) { return u2d(d2u(x) & 0x7fffffffffffffffull); }
DEVI double d_copysign(double x, double s) { return u2d((d2u(x) & 0x7fffffffffffffffull) | (d2u(s) & 0x8000000000000000ull)); }
DEVI double d_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
DEVI double d_rint(double x) { return __builtin_rint(x); }
DEVI double d_sqrt(double x) { return __builtin_sqrt(x); }

/* x * 2^n for any n, with one rounding (subnormal results included). */
DEVI double d_scale(double x, int n)
{
   if (n > 2046) { x *= 0x1p1023; n -= 1023; if (n > 1023) { x *= 0x1p1023; n -= 1023; } if (n > 1023) n = 1023; }
   else if (n < -2044) { x *= 0x1p-969; n += 969; if (n < -1022) { x *= 0x1p-969; n += 969; } if (n < -1022) n = -1022; }
   if (n > 1023) { x *= 0x1p1023; n -= 1023; }
   else if (n < -1022) { x *= 0x1p-969; n += 969; }
   return x * u2d((uint64_t)(n + 1023) << 52);
}

/* a * b rounded, and kept rounded: the NVPTX back end fuses any other
 * product into a following add when the kernel is compiled with contraction
 * on (nvcc's --fmad=true, clang's default), across the whole module, the
 * linked device library included; mul.rn is never fused.  The error-free
 * transformations below need the rounded product (pow was 3 ulp off). */
#if defined(__CUDA_ARCH__)
DEVI double d_mul(double a, double b) { return __nvvm_mul_rn_d(a, b); }
#else
DEVI double d_mul(double a, double b) { return a * b; }
#endif

/* Double-double helpers: a value hi + lo with |lo| <= ulp(hi)/2. */
typedef struct dd { double hi, lo; } dd;
DEVI dd dd_two_sum(double a, double b) { double s = a + b, bb = s - a; return (dd){ s, (a - (s - bb)) + (b - bb) }; }
DEVI dd dd_fast_sum(double a, double b) { double s = a + b; return (dd){ s, b - (s - a) }; }
DEVI dd dd_mul(double a, double b) { double p = d_mul(a, b); return (dd){ p, d_fma(a, b, -p) }; }

#endif
