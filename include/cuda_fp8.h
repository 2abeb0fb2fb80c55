/*
 * cuda_fp8.h — the 8-bit floating-point types of CUDA's Math API ("FP8
 * Intrinsics"): __nv_fp8_e4m3, __nv_fp8_e5m2, their x2 and x4 vectors, the
 * storage types, __nv_saturation_t and __nv_fp8_interpretation_t, and the
 * conversions __nv_cvt_{double,float,halfraw,bfloat16raw}[2]_to_fp8[x2] and
 * __nv_cvt_fp8[x2]_to_halfraw[2]; and the e8m0 scale factors of CUDA 12.8
 * (__nv_fp8_e8m0, x2, x4, __nv_cvt_*_to_e8m0*, __nv_cvt_e8m0*_to_bf16*raw,
 * rules below), which CCCL requires once fp8 support is on.
 *
 * The formats (OCP 8-bit floating point, as CUDA documents them):
 *   e4m3: 1 sign, 4 exponent (bias 7), 3 fraction bits; no infinity; NaN is
 *         0x7f and 0xff only; largest finite 448 (0x7e), smallest
 *         subnormal 2^-9.
 *   e5m2: 1 sign, 5 exponent (bias 15), 2 fraction bits: the top byte of an
 *         IEEE half; infinity 0x7c/0xfc, NaN 0x7d-0x7f/0xfd-0xff; largest
 *         finite 57344 (0x7b), smallest subnormal 2^-16.
 * Narrowing conversions round the exact input once to nearest, ties to the
 * even code, as if the exponent were unbounded (so e4m3's 464 rounds to
 * 448 and e5m2's 61440 rounds up, out of range).  A result out of range
 * (including an infinite input): with __NV_SATFINITE the largest finite
 * value of its sign; with __NV_NOSAT NaN for e4m3 (0x7f | sign) and
 * infinity for e5m2.  A NaN input gives 0x7f (the NaN both formats share:
 * CUDA documents only "NaN"; 0x7f is what metalcuda's PTX cvt gives too).
 * The class constructors use __NV_SATFINITE, as CUDA documents.  Widening
 * conversions (to half, bfloat16, float, double) are exact; NaN stays NaN.
 * Conversions to integer types go through float and truncate, clamping to
 * the type's range; NaN gives 0.
 *
 * Every function is plain integer code, host and device alike (no PTX
 * cvt), so that the two sides agree bit for bit.  Inputs are reduced to a
 * sign, an exponent and a 64-bit significand with its leading bit at bit 63
 * (double, float, half and bfloat16 all fit), then rounded once by
 * __mc_fp8_round.  Written from CUDA's Math API documentation.
 */
#ifndef MC_CUDA_FP8_H
#define MC_CUDA_FP8_H

#include "cuda_fp16.h"
#include "cuda_bf16.h"

#define MC_HD static __inline__ __host__ __device__

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

/* sign s (0 or 0x80) and a magnitude sig * 2^(e - 63) (sig's top bit set)
 * rounded to e4m3 or e5m2 */
MC_HD __nv_fp8_storage_t __mc_fp8_round(unsigned s, int e, unsigned long long sig, __nv_saturation_t sat,
                                        __nv_fp8_interpretation_t fi)
{
   int e4 = fi == __NV_E4M3;
   int mb = e4 ? 3 : 2, bias = e4 ? 7 : 15, emin = 1 - bias;
   unsigned maxf = e4 ? 0x7eu : 0x7bu;
   unsigned over = sat == __NV_SATFINITE ? maxf : e4 ? 0x7fu : 0x7cu;
   if (e > 16)
      return (__nv_fp8_storage_t)(s | over);
   /* bits dropped: down to the quantum 2^(max(e, emin) - mb) */
   int shift = 63 - mb + (e < emin ? emin - e : 0);
   if (shift > 64)
      return (__nv_fp8_storage_t)s;   /* below half the smallest subnormal */
   unsigned long long q = shift == 64 ? 0 : sig >> shift;
   unsigned long long rem = shift == 64 ? sig : sig & ((1ull << shift) - 1);
   unsigned long long half = 1ull << (shift - 1);
   if (rem > half || (rem == half && (q & 1)))
      q++;
   if (e < emin)
      return (__nv_fp8_storage_t)(s | (unsigned)q);   /* q == 1 << mb: the smallest normal */
   if (q == (2ull << mb)) {
      q >>= 1;
      e++;
   }
   unsigned bits = (unsigned)(e + bias) << mb | ((unsigned)q & ((1u << mb) - 1));
   return (__nv_fp8_storage_t)(s | (bits > maxf ? over : bits));
}
/* an IEEE binary format's bits (exponent field width ew, fraction width
 * fw, at most 52) to fp8 */
MC_HD __nv_fp8_storage_t __mc_fp8_from_ieee(unsigned long long u, int ew, int fw, __nv_saturation_t sat,
                                            __nv_fp8_interpretation_t fi)
{
   unsigned s = (unsigned)(u >> (ew + fw)) & 1u ? 0x80u : 0u;
   unsigned long long emask = (1ull << ew) - 1, frac = u & ((1ull << fw) - 1);
   unsigned long long ef = (u >> fw) & emask;
   int bias = (int)(emask >> 1);
   if (ef == emask) {
      if (frac)
         return 0x7f;   /* NaN */
      return __mc_fp8_round(s, 1000, 1ull << 63, sat, fi);   /* infinity: out of range */
   }
   if (ef == 0 && frac == 0)
      return (__nv_fp8_storage_t)s;
   int e;
   unsigned long long sig;
   if (ef) {
      e = (int)ef - bias;
      sig = (frac | (1ull << fw)) << (63 - fw);
   } else {
      int lz = __builtin_clzll(frac);
      e = 1 - bias - fw + (63 - lz);
      sig = frac << lz;
   }
   return __mc_fp8_round(s, e, sig, sat, fi);
}

MC_HD __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                 const __nv_fp8_interpretation_t fp8_interpretation)
{
   unsigned long long u;
   __builtin_memcpy(&u, &x, 8);
   return __mc_fp8_from_ieee(u, 11, 52, saturate, fp8_interpretation);
}
MC_HD __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                const __nv_fp8_interpretation_t fp8_interpretation)
{
   unsigned u;
   __builtin_memcpy(&u, &x, 4);
   return __mc_fp8_from_ieee(u, 8, 23, saturate, fp8_interpretation);
}
MC_HD __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                  const __nv_fp8_interpretation_t fp8_interpretation)
{
   return __mc_fp8_from_ieee(x.x, 5, 10, saturate, fp8_interpretation);
}
MC_HD __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t fp8_interpretation)
{
   return __mc_fp8_from_ieee(x.x, 8, 7, saturate, fp8_interpretation);
}
/* pairs: .x in the low byte, .y in the high byte */
MC_HD __nv_fp8x2_storage_t __mc_fp8x2(__nv_fp8_storage_t lo, __nv_fp8_storage_t hi)
{
   return (__nv_fp8x2_storage_t)(lo | (unsigned)hi << 8);
}
MC_HD __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                      const __nv_fp8_interpretation_t fp8_interpretation)
{
   return __mc_fp8x2(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation),
                     __nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation));
}
MC_HD __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                     const __nv_fp8_interpretation_t fp8_interpretation)
{
   return __mc_fp8x2(__nv_cvt_float_to_fp8(x.x, saturate, fp8_interpretation),
                     __nv_cvt_float_to_fp8(x.y, saturate, fp8_interpretation));
}
MC_HD __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                                                       const __nv_fp8_interpretation_t fp8_interpretation)
{
   return __mc_fp8x2(__mc_fp8_from_ieee(x.x, 5, 10, saturate, fp8_interpretation),
                     __mc_fp8_from_ieee(x.y, 5, 10, saturate, fp8_interpretation));
}
MC_HD __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
                                                           const __nv_fp8_interpretation_t fp8_interpretation)
{
   return __mc_fp8x2(__mc_fp8_from_ieee(x.x, 8, 7, saturate, fp8_interpretation),
                     __mc_fp8_from_ieee(x.y, 8, 7, saturate, fp8_interpretation));
}

/* fp8 to half bits, exactly (both formats fit in half); e5m2 is half's top
 * byte, its NaNs included; e4m3's NaN gives 0x7fff (or 0xffff) */
MC_HD unsigned short __mc_fp8_to_half_bits(__nv_fp8_storage_t b, __nv_fp8_interpretation_t fi)
{
   unsigned s = (unsigned)(b & 0x80u) << 8;
   if (fi == __NV_E5M2)
      return (unsigned short)((unsigned)b << 8);
   unsigned E = (b >> 3) & 15u, M = b & 7u;
   if (E == 15u && M == 7u)
      return (unsigned short)(s | 0x7fffu);
   if (E)
      return (unsigned short)(s | (E + 8u) << 10 | M << 7);
   if (!M)
      return (unsigned short)s;
   /* M * 2^-9, a normal half: 2^(p - 9) with p M's top bit */
   unsigned p = M >= 4u ? 2u : M >= 2u ? 1u : 0u;
   return (unsigned short)(s | (p + 6u) << 10 | ((M << (10u - p)) & 0x3ffu));
}
MC_HD __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x, const __nv_fp8_interpretation_t fp8_interpretation)
{
   __half_raw r;
   r.x = __mc_fp8_to_half_bits(x, fp8_interpretation);
   return r;
}
MC_HD __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                              const __nv_fp8_interpretation_t fp8_interpretation)
{
   __half2_raw r;
   r.x = __mc_fp8_to_half_bits((__nv_fp8_storage_t)(x & 0xffu), fp8_interpretation);
   r.y = __mc_fp8_to_half_bits((__nv_fp8_storage_t)(x >> 8), fp8_interpretation);
   return r;
}
MC_HD float __mc_fp8_to_float(__nv_fp8_storage_t b, __nv_fp8_interpretation_t fi)
{
   return __mc_h2f_bits(__mc_fp8_to_half_bits(b, fi));
}

/* ---- e8m0: scale factors 2^(x - 127), x = 0 ... 254; 0xff is NaN ----
 * Conversions to e8m0 take the input's magnitude (e8m0 has no sign, zero
 * or infinity; CUDA does not document what a negative input gives: here
 * its magnitude's scale), rounded in the given mode: cudaRoundZero (and
 * cudaRoundMinInf) to the power of two at or below, cudaRoundPosInf to the
 * one at or above, cudaRoundNearest to the nearer, ties to the even code.
 * Below 2^-127 (zero included) the result is 0x00; above 2^127 (infinity
 * included) 0xfe with __NV_SATFINITE, NaN (0xff) with __NV_NOSAT; NaN
 * gives 0xff.  The class constructors use __NV_SATFINITE and
 * cudaRoundPosInf, as CUDA documents. */
#ifndef MC_CUDA_ROUND_MODE
#define MC_CUDA_ROUND_MODE
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#endif
MC_HD __nv_fp8_storage_t __mc_e8m0_from_ieee(unsigned long long u, int ew, int fw, __nv_saturation_t sat,
                                             enum cudaRoundMode rounding)
{
   unsigned long long emask = (1ull << ew) - 1, frac = u & ((1ull << fw) - 1);
   unsigned long long ef = (u >> fw) & emask;
   int bias = (int)(emask >> 1);
   unsigned over = sat == __NV_SATFINITE ? 0xfeu : 0xffu;
   if (ef == emask)
      return (__nv_fp8_storage_t)(frac ? 0xffu : over);
   if (ef == 0 && frac == 0)
      return 0;
   int e;
   unsigned long long f;   /* the fraction below the leading bit, at the top of 64 bits */
   if (ef) {
      e = (int)ef - bias;
      f = fw ? frac << (64 - fw) : 0;
   } else {
      int lz = __builtin_clzll(frac);
      e = 1 - bias - fw + (63 - lz);
      f = frac << lz << 1;
   }
   int code = e + 127;
   if (f != 0) {
      if (rounding == cudaRoundPosInf)
         code++;
      else if (rounding == cudaRoundNearest && (f > (1ull << 63) || (f == (1ull << 63) && (code & 1))))
         code++;
   }
   if (code < 0)
      return 0;
   return (__nv_fp8_storage_t)(code > 254 ? over : (unsigned)code);
}
MC_HD __nv_fp8_storage_t __nv_cvt_double_to_e8m0(const double x, const __nv_saturation_t saturate,
                                                  const enum cudaRoundMode rounding)
{
   unsigned long long u;
   __builtin_memcpy(&u, &x, 8);
   return __mc_e8m0_from_ieee(u, 11, 52, saturate, rounding);
}
MC_HD __nv_fp8_storage_t __nv_cvt_float_to_e8m0(const float x, const __nv_saturation_t saturate,
                                                 const enum cudaRoundMode rounding)
{
   unsigned u;
   __builtin_memcpy(&u, &x, 4);
   return __mc_e8m0_from_ieee(u, 8, 23, saturate, rounding);
}
MC_HD __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_e8m0(const __nv_bfloat16_raw x, const __nv_saturation_t saturate,
                                                       const enum cudaRoundMode rounding)
{
   return __mc_e8m0_from_ieee(x.x, 8, 7, saturate, rounding);
}
MC_HD __nv_fp8x2_storage_t __nv_cvt_float2_to_e8m0x2(const float2 x, const __nv_saturation_t saturate,
                                                      const enum cudaRoundMode rounding)
{
   return __mc_fp8x2(__nv_cvt_float_to_e8m0(x.x, saturate, rounding), __nv_cvt_float_to_e8m0(x.y, saturate, rounding));
}
MC_HD __nv_fp8x2_storage_t __nv_cvt_bfloat162raw_to_e8m0x2(const __nv_bfloat162_raw x, const __nv_saturation_t saturate,
                                                            const enum cudaRoundMode rounding)
{
   return __mc_fp8x2(__mc_e8m0_from_ieee(x.x, 8, 7, saturate, rounding),
                     __mc_e8m0_from_ieee(x.y, 8, 7, saturate, rounding));
}
/* exact: 2^-127 is bfloat16's subnormal 0x0040 */
MC_HD __nv_bfloat16_raw __nv_cvt_e8m0_to_bf16raw(const __nv_fp8_storage_t x)
{
   __nv_bfloat16_raw r;
   r.x = (unsigned short)(x == 0xffu ? 0x7fffu : x == 0 ? 0x0040u : (unsigned)x << 7);
   return r;
}
MC_HD __nv_bfloat162_raw __nv_cvt_e8m0x2_to_bf162raw(const __nv_fp8x2_storage_t x)
{
   __nv_bfloat162_raw r;
   r.x = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)(x & 0xffu)).x;
   r.y = __nv_cvt_e8m0_to_bf16raw((__nv_fp8_storage_t)(x >> 8)).x;
   return r;
}
MC_HD float __mc_e8m0_to_float(__nv_fp8_storage_t x)
{
   unsigned u = (unsigned)__nv_cvt_e8m0_to_bf16raw(x).x << 16;
   float f;
   __builtin_memcpy(&f, &u, 4);
   return f;
}

#ifdef __cplusplus
/* float to an integer type T in [lo, hi], truncating; NaN gives 0 */
template <typename T>
static __inline__ __host__ __device__ T __mc_fp8_to_int(float f, float lo, float hi, T tlo, T thi)
{
   if (f != f)
      return 0;
   if (f <= lo)
      return tlo;
   if (f >= hi)
      return thi;
   return (T)f;
}

/* the integer constructors of an fp8, fp6 or fp4 class: through float
 * (cuda_fp6.h's classes use it too, so it stays defined) */
#define MC_FPX_INT_CONSTRUCTORS(T)                                                                                \
   __host__ __device__ explicit T(const unsigned short int v) : T((float)v) {}                                 \
   __host__ __device__ explicit T(const unsigned int v) : T((float)v) {}                                       \
   __host__ __device__ explicit T(const unsigned long int v) : T((float)v) {}                                  \
   __host__ __device__ explicit T(const unsigned long long int v) : T((float)v) {}                             \
   __host__ __device__ explicit T(const short int v) : T((float)v) {}                                          \
   __host__ __device__ explicit T(const int v) : T((float)v) {}                                                \
   __host__ __device__ explicit T(const long int v) : T((float)v) {}                                           \
   __host__ __device__ explicit T(const long long int v) : T((float)v) {}

/* One fp8 class: storage, SATFINITE constructors, exact widening
 * operators.  The integer constructors go through float: exact, for a
 * float's rounding of an integer beyond 2^24 is far outside both formats'
 * ranges, where the result saturates anyway. */
#define MC_FP8_CLASS(T, FI)                                                                                      \
   struct __align__(1) T {                                                                                    \
      __nv_fp8_storage_t __x;                                                                                  \
      T() = default;                                                                                           \
      __host__ __device__ explicit T(const __half f)                                                           \
         : __x(__mc_fp8_from_ieee(f.__x, 5, 10, __NV_SATFINITE, FI)) {}                                        \
      __host__ __device__ explicit T(const __nv_bfloat16 f)                                                    \
         : __x(__mc_fp8_from_ieee(f.__x, 8, 7, __NV_SATFINITE, FI)) {}                                         \
      __host__ __device__ explicit T(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, FI)) {}     \
      __host__ __device__ explicit T(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, FI)) {}   \
      MC_FPX_INT_CONSTRUCTORS(T)                                                                               \
      __host__ __device__ explicit operator __half() const                                                     \
      {                                                                                                        \
         __half_raw r;                                                                                         \
         r.x = __mc_fp8_to_half_bits(__x, FI);                                                                 \
         return __half(r);                                                                                     \
      }                                                                                                        \
      __host__ __device__ explicit operator __nv_bfloat16() const                                             \
      {                                                                                                        \
         return __nv_bfloat16(__mc_fp8_to_float(__x, FI)); /* exact */                                         \
      }                                                                                                        \
      __host__ __device__ explicit operator float() const { return __mc_fp8_to_float(__x, FI); }               \
      __host__ __device__ explicit operator double() const { return (double)__mc_fp8_to_float(__x, FI); }      \
      __host__ __device__ explicit operator bool() const { return (__x & 0x7fu) != 0; }                        \
      __host__ __device__ explicit operator unsigned char() const                                              \
      {                                                                                                        \
         return __mc_fp8_to_int<unsigned char>(float(*this), 0.0f, 255.0f, 0, 255);                            \
      }                                                                                                        \
      __host__ __device__ explicit operator signed char() const                                                \
      {                                                                                                        \
         return __mc_fp8_to_int<signed char>(float(*this), -128.0f, 127.0f, -128, 127);                        \
      }                                                                                                        \
      __host__ __device__ explicit operator char() const                                                       \
      {                                                                                                        \
         return (char)(((char)-1) < 0 ? (char)(signed char)*this : (char)(unsigned char)*this);               \
      }                                                                                                        \
      __host__ __device__ explicit operator unsigned short int() const                                         \
      {                                                                                                        \
         return __mc_fp8_to_int<unsigned short>(float(*this), 0.0f, 65535.0f, 0, 65535);                      \
      }                                                                                                        \
      __host__ __device__ explicit operator short int() const                                                  \
      {                                                                                                        \
         return __mc_fp8_to_int<short>(float(*this), -32768.0f, 32767.0f, -32768, 32767);                      \
      }                                                                                                        \
      /* every finite fp8 value fits the wider types: only NaN and inf clamp */                                \
      __host__ __device__ explicit operator unsigned int() const                                               \
      {                                                                                                        \
         return __mc_fp8_to_int<unsigned int>(float(*this), 0.0f, 4294967296.0f, 0u, 4294967295u);            \
      }                                                                                                        \
      __host__ __device__ explicit operator int() const                                                        \
      {                                                                                                        \
         return __mc_fp8_to_int<int>(float(*this), -2147483648.0f, 2147483648.0f, (-2147483647 - 1),           \
                                     2147483647);                                                              \
      }                                                                                                        \
      __host__ __device__ explicit operator unsigned long int() const                                          \
      {                                                                                                        \
         return (unsigned long int)(unsigned long long int)*this;                                              \
      }                                                                                                        \
      __host__ __device__ explicit operator long int() const { return (long int)(long long int)*this; }        \
      __host__ __device__ explicit operator unsigned long long int() const                                     \
      {                                                                                                        \
         return __mc_fp8_to_int<unsigned long long>(float(*this), 0.0f, 18446744073709551616.0f, 0ull,        \
                                                    ~0ull);                                                    \
      }                                                                                                        \
      __host__ __device__ explicit operator long long int() const                                              \
      {                                                                                                        \
         return __mc_fp8_to_int<long long>(float(*this), -9223372036854775808.0f, 9223372036854775808.0f,      \
                                           (-9223372036854775807ll - 1), 9223372036854775807ll);               \
      }                                                                                                        \
   };

/* pairs (.x the low byte) and fours (.x the lowest byte) */
#define MC_FP8X_CLASSES(T2, T4, FI)                                                                              \
   struct __align__(2) T2 {                                                                                   \
      __nv_fp8x2_storage_t __x;                                                                                \
      T2() = default;                                                                                          \
      __host__ __device__ explicit T2(const __half2 f)                                                         \
         : __x(__mc_fp8x2(__mc_fp8_from_ieee(f.x.__x, 5, 10, __NV_SATFINITE, FI),                               \
                          __mc_fp8_from_ieee(f.y.__x, 5, 10, __NV_SATFINITE, FI))) {}                           \
      __host__ __device__ explicit T2(const __nv_bfloat162 f)                                                  \
         : __x(__mc_fp8x2(__mc_fp8_from_ieee(f.x.__x, 8, 7, __NV_SATFINITE, FI),                                \
                          __mc_fp8_from_ieee(f.y.__x, 8, 7, __NV_SATFINITE, FI))) {}                            \
      __host__ __device__ explicit T2(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, FI)) {} \
      __host__ __device__ explicit T2(const double2 f)                                                         \
         : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, FI)) {}                                            \
      __host__ __device__ explicit operator __half2() const                                                    \
      {                                                                                                        \
         __half_raw lo, hi;                                                                                    \
         lo.x = __mc_fp8_to_half_bits((__nv_fp8_storage_t)(__x & 0xffu), FI);                                  \
         hi.x = __mc_fp8_to_half_bits((__nv_fp8_storage_t)(__x >> 8), FI);                                     \
         return __half2(__half(lo), __half(hi));                                                               \
      }                                                                                                        \
      __host__ __device__ explicit operator float2() const                                                     \
      {                                                                                                        \
         return make_float2(__mc_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), FI),                           \
                            __mc_fp8_to_float((__nv_fp8_storage_t)(__x >> 8), FI));                            \
      }                                                                                                        \
   };                                                                                                          \
   struct __align__(4) T4 {                                                                                   \
      __nv_fp8x4_storage_t __x;                                                                                \
      T4() = default;                                                                                          \
      __host__ __device__ explicit T4(const __half2 flo, const __half2 fhi)                                    \
         : __x((__nv_fp8x4_storage_t)T2(flo).__x | (__nv_fp8x4_storage_t)T2(fhi).__x << 16) {}                 \
      __host__ __device__ explicit T4(const __nv_bfloat162 flo, const __nv_bfloat162 fhi)                      \
         : __x((__nv_fp8x4_storage_t)T2(flo).__x | (__nv_fp8x4_storage_t)T2(fhi).__x << 16) {}                 \
      __host__ __device__ explicit T4(const float4 f)                                                          \
         : __x((__nv_fp8x4_storage_t)__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, FI) |     \
               (__nv_fp8x4_storage_t)__nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, FI) << 16) {} \
      __host__ __device__ explicit T4(const double4 f)                                                         \
         : __x((__nv_fp8x4_storage_t)__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, FI) |   \
               (__nv_fp8x4_storage_t)__nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, FI)     \
                  << 16) {}                                                                                    \
      __host__ __device__ explicit operator float4() const                                                     \
      {                                                                                                        \
         return make_float4(__mc_fp8_to_float((__nv_fp8_storage_t)(__x & 0xffu), FI),                           \
                            __mc_fp8_to_float((__nv_fp8_storage_t)((__x >> 8) & 0xffu), FI),                    \
                            __mc_fp8_to_float((__nv_fp8_storage_t)((__x >> 16) & 0xffu), FI),                   \
                            __mc_fp8_to_float((__nv_fp8_storage_t)(__x >> 24), FI));                           \
      }                                                                                                        \
   };

MC_FP8_CLASS(__nv_fp8_e4m3, __NV_E4M3)
MC_FP8_CLASS(__nv_fp8_e5m2, __NV_E5M2)
MC_FP8X_CLASSES(__nv_fp8x2_e4m3, __nv_fp8x4_e4m3, __NV_E4M3)
MC_FP8X_CLASSES(__nv_fp8x2_e5m2, __nv_fp8x4_e5m2, __NV_E5M2)
#undef MC_FP8_CLASS
#undef MC_FP8X_CLASSES

typedef __nv_fp8_e4m3 nv_fp8_e4m3;
typedef __nv_fp8_e5m2 nv_fp8_e5m2;
typedef __nv_fp8x2_e4m3 nv_fp8x2_e4m3;
typedef __nv_fp8x2_e5m2 nv_fp8x2_e5m2;
typedef __nv_fp8x4_e4m3 nv_fp8x4_e4m3;
typedef __nv_fp8x4_e5m2 nv_fp8x4_e5m2;

/* e8m0 scale factors: SATFINITE and cudaRoundPosInf constructors, exact
 * widening operators (to half only where the scale is within half's
 * range: through float, rounding as __float2half does) */
struct __align__(1) __nv_fp8_e8m0 {
   __nv_fp8_storage_t __x;
   __nv_fp8_e8m0() = default;
   __host__ __device__ explicit __nv_fp8_e8m0(const __half f)
      : __x(__nv_cvt_float_to_e8m0(__half2float(f), __NV_SATFINITE, cudaRoundPosInf)) {}
   __host__ __device__ explicit __nv_fp8_e8m0(const __nv_bfloat16 f)
      : __x(__mc_e8m0_from_ieee(f.__x, 8, 7, __NV_SATFINITE, cudaRoundPosInf)) {}
   __host__ __device__ explicit __nv_fp8_e8m0(const float f)
      : __x(__nv_cvt_float_to_e8m0(f, __NV_SATFINITE, cudaRoundPosInf)) {}
   __host__ __device__ explicit __nv_fp8_e8m0(const double f)
      : __x(__nv_cvt_double_to_e8m0(f, __NV_SATFINITE, cudaRoundPosInf)) {}
   __host__ __device__ explicit operator float() const { return __mc_e8m0_to_float(__x); }
   __host__ __device__ explicit operator double() const { return (double)__mc_e8m0_to_float(__x); }
   __host__ __device__ explicit operator __nv_bfloat16() const { return __nv_bfloat16(__nv_cvt_e8m0_to_bf16raw(__x)); }
   __host__ __device__ explicit operator __half() const { return __float2half(__mc_e8m0_to_float(__x)); }
};
struct __align__(2) __nv_fp8x2_e8m0 {
   __nv_fp8x2_storage_t __x;
   __nv_fp8x2_e8m0() = default;
   __host__ __device__ explicit __nv_fp8x2_e8m0(const float2 f)
      : __x(__nv_cvt_float2_to_e8m0x2(f, __NV_SATFINITE, cudaRoundPosInf)) {}
   __host__ __device__ explicit operator float2() const
   {
      return make_float2(__mc_e8m0_to_float((__nv_fp8_storage_t)(__x & 0xffu)),
                         __mc_e8m0_to_float((__nv_fp8_storage_t)(__x >> 8)));
   }
};
struct __align__(4) __nv_fp8x4_e8m0 {
   __nv_fp8x4_storage_t __x;
   __nv_fp8x4_e8m0() = default;
   __host__ __device__ explicit __nv_fp8x4_e8m0(const float4 f)
      : __x((__nv_fp8x4_storage_t)__nv_cvt_float2_to_e8m0x2(make_float2(f.x, f.y), __NV_SATFINITE, cudaRoundPosInf) |
            (__nv_fp8x4_storage_t)__nv_cvt_float2_to_e8m0x2(make_float2(f.z, f.w), __NV_SATFINITE, cudaRoundPosInf)
               << 16) {}
   __host__ __device__ explicit operator float4() const
   {
      return make_float4(__mc_e8m0_to_float((__nv_fp8_storage_t)(__x & 0xffu)),
                         __mc_e8m0_to_float((__nv_fp8_storage_t)((__x >> 8) & 0xffu)),
                         __mc_e8m0_to_float((__nv_fp8_storage_t)((__x >> 16) & 0xffu)),
                         __mc_e8m0_to_float((__nv_fp8_storage_t)(__x >> 24)));
   }
};
typedef __nv_fp8_e8m0 nv_fp8_e8m0;
typedef __nv_fp8x2_e8m0 nv_fp8x2_e8m0;
typedef __nv_fp8x4_e8m0 nv_fp8x4_e8m0;
#endif /* __cplusplus */

#endif
