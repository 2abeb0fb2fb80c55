/*
 * cuda_fp6.h — the 6-bit floating-point types of CUDA's Math API ("FP6
 * Intrinsics", CUDA 12.8 and later): __nv_fp6_e2m3, __nv_fp6_e3m2, their
 * x2 and x4 vectors, the storage types and __nv_fp6_interpretation_t, the
 * conversions __nv_cvt_{double,float,halfraw,bfloat16raw}[2]_to_fp6[x2] and
 * __nv_cvt_fp6[x2]_to_halfraw[2], and the classes' constructors and
 * operators.  CCCL's fp6 support (numeric_limits, casts) sits on top.
 *
 * The formats (OCP microscaling, as CUDA documents them), one code in the
 * low 6 bits of a byte, the sign at bit 5:
 *   e2m3: 2 exponent bits (bias 1), 3 fraction bits; largest 7.5 (0x1f),
 *         smallest normal 1, smallest subnormal 2^-3;
 *   e3m2: 3 exponent bits (bias 3), 2 fraction bits; largest 28 (0x1f),
 *         smallest normal 2^-2, smallest subnormal 2^-4.
 * Neither has an infinity or a NaN: every code is a finite number.
 * A pair (x2) holds one code per byte, .x in the low byte; a four (x4)
 * likewise in 32 bits.  The two bits above a code are ignored on input.
 *
 * Narrowing conversions take a cudaRoundMode: cudaRoundNearest rounds the
 * exact input once to nearest, ties to the even code; cudaRoundZero
 * truncates the magnitude.  CUDA accepts only these two (it asserts so);
 * here another mode fails the same way (a device assert, or the host's
 * assert) unless NDEBUG is defined, and then rounds toward zero, as CUDA's
 * own code does without the assert.  Results out of range (infinity
 * included) saturate to the largest magnitude of their sign; a NaN gives
 * the positive largest (+7.5 or +28), as CUDA documents.  The sign of
 * zero, and of a result that underflows to zero, is kept.  The class
 * constructors round to nearest, as CUDA documents.  Widening conversions
 * (to half, bfloat16, float, double) are exact.  Conversions to integer
 * types truncate; negative values give 0 for unsigned types.
 *
 * Every function is plain integer code, host and device alike (no PTX
 * cvt: the e2m3x2/e3m2x2/e2m1x2 forms exist only from sm_100 on), so both
 * sides agree bit for bit on every architecture.  Inputs are reduced to a
 * sign, an exponent and a 64-bit significand, as cuda_fp8.h does, then
 * rounded once by __mc_fp6_round, which cuda_fp4.h shares.  Written from
 * CUDA's Math API documentation.
 */
#ifndef MC_CUDA_FP6_H
#define MC_CUDA_FP6_H

#include "cuda_fp8.h"

#ifndef NDEBUG
#include <assert.h>
#endif

#define MC_HD static __inline__ __host__ __device__

typedef __nv_fp8_storage_t __nv_fp6_storage_t;
typedef __nv_fp8x2_storage_t __nv_fp6x2_storage_t;
typedef __nv_fp8x4_storage_t __nv_fp6x4_storage_t;

typedef enum __nv_fp6_interpretation_t { __NV_E2M3, __NV_E3M2 } __nv_fp6_interpretation_t;

/* the rounding modes CUDA's fp6/fp4 conversions take: a debug build stops
 * on any other (on the device through the runtime's __assertfail, which
 * needs no C library's assert macro) */
MC_HD void __mc_fp6_check_rounding(enum cudaRoundMode rounding)
{
#ifndef NDEBUG
   if (rounding != cudaRoundNearest && rounding != cudaRoundZero) {
#ifdef __CUDA_ARCH__
      __assertfail("rounding == cudaRoundNearest || rounding == cudaRoundZero", __FILE__, __LINE__,
                   "fp6/fp4 conversion", sizeof(char));
#else
      assert(rounding == cudaRoundNearest || rounding == cudaRoundZero);
#endif
   }
#else
   (void)rounding;
#endif
}

/* A format without infinity or NaN: eb exponent bits, mb fraction bits,
 * exponent bias; sign bit 1 << (eb + mb), largest magnitude every other
 * bit set.  sg is 0 or the sign bit; the magnitude is sig * 2^(e - 63),
 * sig's top bit set; rz truncates instead of rounding to nearest even. */
MC_HD unsigned __mc_fp6_round(unsigned sg, int e, unsigned long long sig, int eb, int mb, int bias, int rz)
{
   int emin = 1 - bias, emax = (1 << eb) - 1 - bias;
   unsigned maxm = (1u << (eb + mb)) - 1u;
   if (e > emax)
      return sg | maxm;
   /* bits dropped: down to the quantum 2^(max(e, emin) - mb) */
   int shift = 63 - mb + (e < emin ? emin - e : 0);
   if (shift > 64)
      return sg;   /* below half the smallest subnormal */
   unsigned long long q = shift == 64 ? 0 : sig >> shift;
   unsigned long long rem = shift == 64 ? sig : sig & ((1ull << shift) - 1);
   unsigned long long half = 1ull << (shift - 1);
   if (!rz && (rem > half || (rem == half && (q & 1))))
      q++;
   if (e < emin)
      return sg | (unsigned)q;   /* q == 1 << mb: the smallest normal */
   if (q == (2ull << mb)) {
      q >>= 1;
      e++;
   }
   unsigned bits = (unsigned)(e + bias) << mb | ((unsigned)q & ((1u << mb) - 1u));
   return sg | (bits > maxm ? maxm : bits);
}
/* an IEEE binary format's bits (exponent field width ew, fraction width
 * fw, at most 52) to a format of __mc_fp6_round's */
MC_HD unsigned __mc_fp6_from_ieee(unsigned long long u, int ew, int fw, int eb, int mb, int bias,
                                  enum cudaRoundMode rounding)
{
   __mc_fp6_check_rounding(rounding);
   unsigned long long emask = (1ull << ew) - 1, frac = u & ((1ull << fw) - 1);
   unsigned long long ef = (u >> fw) & emask;
   unsigned maxm = (1u << (eb + mb)) - 1u;
   unsigned sg = (unsigned)(u >> (ew + fw)) & 1u ? maxm + 1u : 0u;
   if (ef == emask)
      return frac ? maxm : sg | maxm;   /* NaN: the positive largest; infinity saturates */
   if (ef == 0 && frac == 0)
      return sg;
   int e;
   unsigned long long sig;
   if (ef) {
      e = (int)ef - (int)(emask >> 1);
      sig = (frac | (1ull << fw)) << (63 - fw);
   } else {
      int lz = __builtin_clzll(frac);
      e = 1 - (int)(emask >> 1) - fw + (63 - lz);
      sig = frac << lz;
   }
   return __mc_fp6_round(sg, e, sig, eb, mb, bias, rounding != cudaRoundNearest);
}
MC_HD unsigned long long __mc_fpx_float_bits(float f)
{
   unsigned u;
   __builtin_memcpy(&u, &f, 4);
   return u;
}
MC_HD unsigned long long __mc_fpx_double_bits(double f)
{
   unsigned long long u;
   __builtin_memcpy(&u, &f, 8);
   return u;
}
/* a code of such a format (bits above it ignored) to half bits, exactly:
 * every fp6 and fp4 value is a normal half or zero */
MC_HD unsigned short __mc_fp6_to_half_bits(unsigned c, int eb, int mb, int bias)
{
   unsigned s = (c >> (eb + mb)) & 1u ? 0x8000u : 0u;
   unsigned E = (c >> mb) & ((1u << eb) - 1u), M = c & ((1u << mb) - 1u);
   if (E)
      return (unsigned short)(s | (E + 15u - (unsigned)bias) << 10 | M << (10 - mb));
   if (!M)
      return (unsigned short)s;
   /* M * 2^(1 - bias - mb) = 2^(p + 1 - bias - mb) (M / 2^p), p M's top bit */
   int p = 31 - __builtin_clz(M);
   return (unsigned short)(s | (unsigned)(p + 16 - bias - mb) << 10 | ((M << (10 - p)) & 0x3ffu));
}

/* the two formats' parameters */
#define MC_FP6_FMT(fi) 2 + ((fi) == __NV_E3M2), 3 - ((fi) == __NV_E3M2), (fi) == __NV_E3M2 ? 3 : 1

MC_HD __nv_fp6_storage_t __nv_cvt_double_to_fp6(const double x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                 const enum cudaRoundMode rounding)
{
   return (__nv_fp6_storage_t)__mc_fp6_from_ieee(__mc_fpx_double_bits(x), 11, 52, MC_FP6_FMT(fp6_interpretation),
                                                 rounding);
}
MC_HD __nv_fp6_storage_t __nv_cvt_float_to_fp6(const float x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                const enum cudaRoundMode rounding)
{
   return (__nv_fp6_storage_t)__mc_fp6_from_ieee(__mc_fpx_float_bits(x), 8, 23, MC_FP6_FMT(fp6_interpretation),
                                                 rounding);
}
MC_HD __nv_fp6_storage_t __nv_cvt_halfraw_to_fp6(const __half_raw x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                  const enum cudaRoundMode rounding)
{
   return (__nv_fp6_storage_t)__mc_fp6_from_ieee(x.x, 5, 10, MC_FP6_FMT(fp6_interpretation), rounding);
}
MC_HD __nv_fp6_storage_t __nv_cvt_bfloat16raw_to_fp6(const __nv_bfloat16_raw x,
                                                      const __nv_fp6_interpretation_t fp6_interpretation,
                                                      const enum cudaRoundMode rounding)
{
   return (__nv_fp6_storage_t)__mc_fp6_from_ieee(x.x, 8, 7, MC_FP6_FMT(fp6_interpretation), rounding);
}
MC_HD __nv_fp6x2_storage_t __nv_cvt_double2_to_fp6x2(const double2 x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                      const enum cudaRoundMode rounding)
{
   return __mc_fp8x2(__nv_cvt_double_to_fp6(x.x, fp6_interpretation, rounding),
                     __nv_cvt_double_to_fp6(x.y, fp6_interpretation, rounding));
}
MC_HD __nv_fp6x2_storage_t __nv_cvt_float2_to_fp6x2(const float2 x, const __nv_fp6_interpretation_t fp6_interpretation,
                                                     const enum cudaRoundMode rounding)
{
   return __mc_fp8x2(__nv_cvt_float_to_fp6(x.x, fp6_interpretation, rounding),
                     __nv_cvt_float_to_fp6(x.y, fp6_interpretation, rounding));
}
MC_HD __nv_fp6x2_storage_t __nv_cvt_halfraw2_to_fp6x2(const __half2_raw x,
                                                       const __nv_fp6_interpretation_t fp6_interpretation,
                                                       const enum cudaRoundMode rounding)
{
   return __mc_fp8x2((__nv_fp6_storage_t)__mc_fp6_from_ieee(x.x, 5, 10, MC_FP6_FMT(fp6_interpretation), rounding),
                     (__nv_fp6_storage_t)__mc_fp6_from_ieee(x.y, 5, 10, MC_FP6_FMT(fp6_interpretation), rounding));
}
MC_HD __nv_fp6x2_storage_t __nv_cvt_bfloat16raw2_to_fp6x2(const __nv_bfloat162_raw x,
                                                           const __nv_fp6_interpretation_t fp6_interpretation,
                                                           const enum cudaRoundMode rounding)
{
   return __mc_fp8x2((__nv_fp6_storage_t)__mc_fp6_from_ieee(x.x, 8, 7, MC_FP6_FMT(fp6_interpretation), rounding),
                     (__nv_fp6_storage_t)__mc_fp6_from_ieee(x.y, 8, 7, MC_FP6_FMT(fp6_interpretation), rounding));
}
MC_HD __half_raw __nv_cvt_fp6_to_halfraw(const __nv_fp6_storage_t x, const __nv_fp6_interpretation_t fp6_interpretation)
{
   __half_raw r;
   r.x = __mc_fp6_to_half_bits(x, MC_FP6_FMT(fp6_interpretation));
   return r;
}
MC_HD __half2_raw __nv_cvt_fp6x2_to_halfraw2(const __nv_fp6x2_storage_t x,
                                              const __nv_fp6_interpretation_t fp6_interpretation)
{
   __half2_raw r;
   r.x = __mc_fp6_to_half_bits(x & 0xffu, MC_FP6_FMT(fp6_interpretation));
   r.y = __mc_fp6_to_half_bits((unsigned)x >> 8, MC_FP6_FMT(fp6_interpretation));
   return r;
}
#undef MC_FP6_FMT

#ifdef __cplusplus
#define __CUDA_FP6_TYPES_EXIST__

/* a widened fp6/fp4 value (small: |v| <= 28) to an integer type,
 * truncating; negative values give 0 for unsigned types */
template <typename T> static __inline__ __host__ __device__ T __mc_fp6_to_int(float f)
{
   return (T)-1 > (T)0 && f < 0.0f ? (T)0 : (T)f;
}

/* The scalar class of a format (F: a code of it to half bits; C: a float,
 * double, half-raw or bfloat16-raw value to a code, rounding to nearest):
 * storage, constructors, exact widening operators.  The integer
 * constructors go through float, exact for every value that does not
 * saturate anyway. */
#define MC_FPX_SCALAR_CLASS(T, A, F, C, MAG)                                                                      \
   struct __align__(A) T {                                                                                     \
      __nv_fp8_storage_t __x;                                                                                  \
      T() = default;                                                                                           \
      __host__ __device__ explicit T(const __half f) : __x(C(f.__x, 5, 10)) {}                                 \
      __host__ __device__ explicit T(const __nv_bfloat16 f) : __x(C(f.__x, 8, 7)) {}                           \
      __host__ __device__ explicit T(const float f) : __x(C(__mc_fpx_float_bits(f), 8, 23)) {}                 \
      __host__ __device__ explicit T(const double f) : __x(C(__mc_fpx_double_bits(f), 11, 52)) {}              \
      MC_FPX_INT_CONSTRUCTORS(T)                                                                               \
      __host__ __device__ explicit operator __half() const                                                     \
      {                                                                                                        \
         __half_raw r;                                                                                         \
         r.x = F(__x);                                                                                         \
         return __half(r);                                                                                     \
      }                                                                                                        \
      __host__ __device__ explicit operator float() const { return __mc_h2f_bits(F(__x)); }                    \
      __host__ __device__ explicit operator __nv_bfloat16() const                                             \
      {                                                                                                        \
         return __nv_bfloat16(__mc_h2f_bits(F(__x))); /* exact */                                              \
      }                                                                                                        \
      __host__ __device__ explicit operator double() const { return (double)__mc_h2f_bits(F(__x)); }           \
      __host__ __device__ explicit operator bool() const { return (__x & (MAG)) != 0; }                        \
      __host__ __device__ explicit operator unsigned char() const                                              \
      {                                                                                                        \
         return __mc_fp6_to_int<unsigned char>(float(*this));                                                  \
      }                                                                                                        \
      __host__ __device__ explicit operator signed char() const                                                \
      {                                                                                                        \
         return __mc_fp6_to_int<signed char>(float(*this));                                                    \
      }                                                                                                        \
      __host__ __device__ explicit operator char() const { return __mc_fp6_to_int<char>(float(*this)); }       \
      __host__ __device__ explicit operator unsigned short int() const                                         \
      {                                                                                                        \
         return __mc_fp6_to_int<unsigned short int>(float(*this));                                             \
      }                                                                                                        \
      __host__ __device__ explicit operator short int() const { return __mc_fp6_to_int<short int>(float(*this)); } \
      __host__ __device__ explicit operator unsigned int() const                                               \
      {                                                                                                        \
         return __mc_fp6_to_int<unsigned int>(float(*this));                                                   \
      }                                                                                                        \
      __host__ __device__ explicit operator int() const { return __mc_fp6_to_int<int>(float(*this)); }         \
      __host__ __device__ explicit operator unsigned long int() const                                          \
      {                                                                                                        \
         return __mc_fp6_to_int<unsigned long int>(float(*this));                                              \
      }                                                                                                        \
      __host__ __device__ explicit operator long int() const { return __mc_fp6_to_int<long int>(float(*this)); } \
      __host__ __device__ explicit operator unsigned long long int() const                                     \
      {                                                                                                        \
         return __mc_fp6_to_int<unsigned long long int>(float(*this));                                         \
      }                                                                                                        \
      __host__ __device__ explicit operator long long int() const                                              \
      {                                                                                                        \
         return __mc_fp6_to_int<long long int>(float(*this));                                                  \
      }                                                                                                        \
   };

MC_HD unsigned short __mc_e2m3_half(unsigned c) { return __mc_fp6_to_half_bits(c, 2, 3, 1); }
MC_HD unsigned short __mc_e3m2_half(unsigned c) { return __mc_fp6_to_half_bits(c, 3, 2, 3); }
MC_HD __nv_fp6_storage_t __mc_e2m3_rn(unsigned long long u, int ew, int fw)
{
   return (__nv_fp6_storage_t)__mc_fp6_from_ieee(u, ew, fw, 2, 3, 1, cudaRoundNearest);
}
MC_HD __nv_fp6_storage_t __mc_e3m2_rn(unsigned long long u, int ew, int fw)
{
   return (__nv_fp6_storage_t)__mc_fp6_from_ieee(u, ew, fw, 3, 2, 3, cudaRoundNearest);
}

/* pairs (a byte each, .x the low one) and fours (.x the lowest byte) */
#define MC_FP6X_CLASSES(T2, T4, FI, F)                                                                           \
   struct __align__(2) T2 {                                                                                   \
      __nv_fp6x2_storage_t __x;                                                                                \
      T2() = default;                                                                                          \
      __host__ __device__ explicit T2(const __half2 f)                                                         \
         : __x(__mc_fp8x2(__nv_cvt_halfraw_to_fp6(f.x, FI, cudaRoundNearest),                                  \
                          __nv_cvt_halfraw_to_fp6(f.y, FI, cudaRoundNearest))) {}                              \
      __host__ __device__ explicit T2(const __nv_bfloat162 f)                                                  \
         : __x(__mc_fp8x2(__nv_cvt_bfloat16raw_to_fp6(f.x, FI, cudaRoundNearest),                              \
                          __nv_cvt_bfloat16raw_to_fp6(f.y, FI, cudaRoundNearest))) {}                          \
      __host__ __device__ explicit T2(const float2 f) : __x(__nv_cvt_float2_to_fp6x2(f, FI, cudaRoundNearest)) {} \
      __host__ __device__ explicit T2(const double2 f)                                                         \
         : __x(__nv_cvt_double2_to_fp6x2(f, FI, cudaRoundNearest)) {}                                          \
      __host__ __device__ explicit operator __half2() const                                                    \
      {                                                                                                        \
         __half_raw lo, hi;                                                                                    \
         lo.x = F(__x & 0xffu);                                                                                \
         hi.x = F((unsigned)__x >> 8);                                                                         \
         return __half2(__half(lo), __half(hi));                                                               \
      }                                                                                                        \
      __host__ __device__ explicit operator float2() const                                                     \
      {                                                                                                        \
         return make_float2(__mc_h2f_bits(F(__x & 0xffu)), __mc_h2f_bits(F((unsigned)__x >> 8)));              \
      }                                                                                                        \
   };                                                                                                          \
   struct __align__(4) T4 {                                                                                   \
      __nv_fp6x4_storage_t __x;                                                                                \
      T4() = default;                                                                                          \
      __host__ __device__ explicit T4(const __half2 flo, const __half2 fhi)                                    \
         : __x((__nv_fp6x4_storage_t)T2(flo).__x | (__nv_fp6x4_storage_t)T2(fhi).__x << 16) {}                 \
      __host__ __device__ explicit T4(const __nv_bfloat162 flo, const __nv_bfloat162 fhi)                      \
         : __x((__nv_fp6x4_storage_t)T2(flo).__x | (__nv_fp6x4_storage_t)T2(fhi).__x << 16) {}                 \
      __host__ __device__ explicit T4(const float4 f)                                                          \
         : __x((__nv_fp6x4_storage_t)T2(make_float2(f.x, f.y)).__x |                                           \
               (__nv_fp6x4_storage_t)T2(make_float2(f.z, f.w)).__x << 16) {}                                   \
      __host__ __device__ explicit T4(const double4 f)                                                         \
         : __x((__nv_fp6x4_storage_t)T2(make_double2(f.x, f.y)).__x |                                          \
               (__nv_fp6x4_storage_t)T2(make_double2(f.z, f.w)).__x << 16) {}                                  \
      __host__ __device__ explicit T4(const double4_16a f)                                                     \
         : __x((__nv_fp6x4_storage_t)T2(make_double2(f.x, f.y)).__x |                                          \
               (__nv_fp6x4_storage_t)T2(make_double2(f.z, f.w)).__x << 16) {}                                  \
      __host__ __device__ explicit T4(const double4_32a f)                                                     \
         : __x((__nv_fp6x4_storage_t)T2(make_double2(f.x, f.y)).__x |                                          \
               (__nv_fp6x4_storage_t)T2(make_double2(f.z, f.w)).__x << 16) {}                                  \
      __host__ __device__ explicit operator float4() const                                                     \
      {                                                                                                        \
         return make_float4(__mc_h2f_bits(F(__x & 0xffu)), __mc_h2f_bits(F((__x >> 8) & 0xffu)),              \
                            __mc_h2f_bits(F((__x >> 16) & 0xffu)), __mc_h2f_bits(F(__x >> 24)));               \
      }                                                                                                        \
   };

MC_FPX_SCALAR_CLASS(__nv_fp6_e2m3, 1, __mc_e2m3_half, __mc_e2m3_rn, 0x1fu)
MC_FPX_SCALAR_CLASS(__nv_fp6_e3m2, 1, __mc_e3m2_half, __mc_e3m2_rn, 0x1fu)
MC_FP6X_CLASSES(__nv_fp6x2_e2m3, __nv_fp6x4_e2m3, __NV_E2M3, __mc_e2m3_half)
MC_FP6X_CLASSES(__nv_fp6x2_e3m2, __nv_fp6x4_e3m2, __NV_E3M2, __mc_e3m2_half)
#undef MC_FP6X_CLASSES
#endif /* __cplusplus */

#endif
