/*
 * cuda_fp16.h — __half and __half2 (CUDA Math API, "Half Precision
 * Intrinsics"): storage, conversions (cvt.rn.f16.f32 and back, as NVIDIA's
 * are, and the other rounding modes: __float2half_rz/_rd/_ru, the integer
 * conversions __half2int_rn ... __ull2half_ru), arithmetic, saturating and
 * relu forms, comparisons (ordered, unordered, the half2 forms returning
 * 1.0/0.0, bools and masks), fma, min/max, the h* and h2* math functions,
 * shuffles of halves, __ldg and __ldcg ... __stwt, and atomicAdd
 * (atom.add.noftz.f16/.f16x2).
 *
 * Arithmetic goes through float and rounds once more, to half: that gives
 * the correctly rounded result for + - * / and sqrt (24 >= 2 * 11 + 2 bits
 * make the second rounding innocuous), as CUDA's are.  fma goes through
 * double (see __hfma).  Conversions with a rounding mode round the exact
 * value once, in that mode, saturating to the integer type's range; NaN
 * gives 0, and 0x8000000000000000 for the 64-bit types (as NVIDIA's cvt to
 * 64 bits does, to our knowledge: tests/cuda/half_math leaves NaN to 64
 * bits unchecked).
 *
 * The math functions (hexp, hexp2, hexp10, hlog, hlog2, hlog10, hsin,
 * hcos, hrcp, hrsqrt, the h2* forms): CUDA documents them as computed "in
 * round-to-nearest-even mode" without an error bound.  Here each is the
 * float function of the device library (within 2 float ulps: rcp and sqrt
 * exact) rounded once to half, so the result is the correctly rounded one
 * except where the exact value lies within about 2^-12 half ulps of a
 * rounding boundary, where it can be the neighbour: at most 1 half ulp
 * from the exact value (tests/cuda/half_math.cu checks that bound on every
 * half input; on the software device 0 to 5 of the 65536 inputs of each
 * function are the neighbour, 2026-12-02).  hceil, hfloor, htrunc, hrint
 * are exact.
 */
#ifndef MC_CUDA_FP16_H
#define MC_CUDA_FP16_H

#include "cuda_runtime.h"

#define MC_HD static __inline__ __host__ __device__
#define MC_D static __inline__ __device__

typedef struct __half_raw { unsigned short x; } __half_raw;
typedef struct __half2_raw { unsigned short x, y; } __half2_raw;
#ifdef __cplusplus
/* reads of a volatile __half (CCCL's complex<> reads its parts of a
 * volatile object): a constructor template, which is never a copy
 * constructor, so that __half stays trivially copyable (a kernel parameter
 * passed in registers, not by reference) */
struct __half;
template <typename T> struct __mc_same_half {};
template <> struct __mc_same_half<__half> { typedef int type; };
#endif
struct __align__(2) __half {
   unsigned short __x;
#ifdef __cplusplus
   __half() = default;
   template <typename V, typename __mc_same_half<V>::type = 0>
   __host__ __device__ __half(const volatile V &v) : __x(v.__x) {}
   __host__ __device__ __half(float f);
   __host__ __device__ __half(const __half_raw &r) : __x(r.x) {}
   __host__ __device__ operator float() const;
   __host__ __device__ operator __half_raw() const { __half_raw r; r.x = __x; return r; }
#endif
};
struct __align__(4) __half2 {
   __half x, y;
#ifdef __cplusplus
   __half2() = default;
   __host__ __device__ __half2(const __half &a, const __half &b) : x(a), y(b) {}
#endif
};
typedef struct __half half;
typedef struct __half2 half2;

/* Rounding modes of the conversions: to nearest even, toward zero, down, up. */
#define __MC_RN 0
#define __MC_RZ 1
#define __MC_RD 2
#define __MC_RU 3
/* whether a magnitude truncated to r, with the dropped part rem (half: the
 * weight of its top bit), rounds up in mode for sign s */
MC_HD int __mc_round_up(int mode, unsigned s, unsigned long long r, unsigned long long rem, unsigned long long half)
{
   if (mode == __MC_RN)
      return rem > half || (rem == half && (r & 1));
   if (mode == __MC_RZ)
      return 0;
   return rem != 0 && (mode == __MC_RD ? s != 0 : s == 0);
}
/* the result of a finite value beyond the largest half, in mode for sign s */
MC_HD unsigned short __mc_h_overflow(int mode, unsigned s)
{
   int to_inf = mode == __MC_RN || (mode == __MC_RD && s) || (mode == __MC_RU && !s);
   return (unsigned short)(s | (to_inf ? 0x7c00u : 0x7bffu));
}
/* float -> half in a rounding mode; on the host subnormals and NaN kept (the payload's
 * top bits, quiet) */
MC_HD unsigned short __mc_f2h_mode(float f, int mode)
{
#ifdef __CUDA_ARCH__
   /* On the device, PTX's own conversion, as NVIDIA's header emits it: one
    * instruction instead of the branches below, which inlined at every
    * conversion made a kernel's translation several times larger (a NaN
    * gives cvt's 0x7fff there, as on an NVIDIA GPU). */
   unsigned short h;
   if (mode == __MC_RZ)
      __asm__("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
   else if (mode == __MC_RD)
      __asm__("cvt.rm.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
   else if (mode == __MC_RU)
      __asm__("cvt.rp.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
   else
      __asm__("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
   return h;
#else
   unsigned u;
   __builtin_memcpy(&u, &f, 4);
   unsigned s = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffffu;
   if (e == 0xff)
      return (unsigned short)(s | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
   if (e == 0 && m == 0)
      return (unsigned short)s;
   int ee = (int)e - 127 + 15;
   if (ee >= 31)
      return __mc_h_overflow(mode, s);
   unsigned r, rem, half;
   if (ee <= 0) {
      if (ee < -10) {   /* below half the least subnormal: only its sign and being non-zero matter */
         r = 0;
         rem = 1;
         half = 2;
      } else {
         m |= 0x800000u;
         int sh = 14 - ee;
         r = m >> sh;
         rem = m & ((1u << sh) - 1);
         half = 1u << (sh - 1);
      }
   } else {
      r = ((unsigned)ee << 10) | (m >> 13);
      rem = m & 0x1fffu;
      half = 0x1000u;
   }
   if (__mc_round_up(mode, s, r, rem, half))
      r++;   /* a carry moves into the exponent, up to infinity where the mode allows */
   return (unsigned short)(s | r);
#endif
}
MC_HD unsigned short __mc_f2h_bits(float f) { return __mc_f2h_mode(f, __MC_RN); }
MC_HD float __mc_h2f_bits(unsigned short h)
{
#ifdef __CUDA_ARCH__
   float r;   /* PTX's conversion on the device, exact (see __mc_f2h_mode) */
   __asm__("cvt.f32.f16 %0, %1;" : "=f"(r) : "h"(h));
   return r;
#else
   unsigned s = (unsigned)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu, u;
   if (e == 0x1f)
      u = s | 0x7f800000u | (m << 13);
   else if (e)
      u = s | ((e + 112u) << 23) | (m << 13);
   else if (m) {
      int k = 0;
      while (!(m & 0x400u)) { m <<= 1; k++; }
      u = s | ((113u - (unsigned)k) << 23) | ((m & 0x3ffu) << 13);
   } else
      u = s;
   float f;
   __builtin_memcpy(&f, &u, 4);
   return f;
#endif
}

MC_HD __half __float2half(float f) { __half h; h.__x = __mc_f2h_bits(f); return h; }
MC_HD __half __float2half_rn(float f) { return __float2half(f); }
MC_HD float __half2float(__half h) { return __mc_h2f_bits(h.__x); }
MC_HD __half2 __halves2half2(__half a, __half b) { __half2 r; r.x = a; r.y = b; return r; }
MC_HD __half2 __floats2half2_rn(float a, float b) { return __halves2half2(__float2half(a), __float2half(b)); }
MC_HD __half2 __float2half2_rn(float a) { return __halves2half2(__float2half(a), __float2half(a)); }
MC_HD float __low2float(__half2 h) { return __half2float(h.x); }
MC_HD float __high2float(__half2 h) { return __half2float(h.y); }
MC_HD __half __low2half(__half2 h) { return h.x; }
MC_HD __half __high2half(__half2 h) { return h.y; }
MC_HD unsigned short __half_as_ushort(__half h) { return h.__x; }
MC_HD __half __ushort_as_half(unsigned short v) { __half h; h.__x = v; return h; }

#ifdef __cplusplus
__host__ __device__ inline __half::__half(float f) { __x = __mc_f2h_bits(f); }
__host__ __device__ inline __half::operator float() const { return __mc_h2f_bits(__x); }
MC_HD __half __mc_h(unsigned short v) { __half h; h.__x = v; return h; }

/* The sets of functions cuda_fp16.h and cuda_bf16.h both define, once per
 * type: T a 16-bit type or its pair, the function names its overloads. */
#define __MC_OPERATORS(T, ADD, SUB, MUL, DIV, NEG, EQ, NE, LT, LE, GT, GE)                                     \
   static __inline__ __host__ __device__ T operator+(T a, T b) { return ADD(a, b); }                            \
   static __inline__ __host__ __device__ T operator-(T a, T b) { return SUB(a, b); }                            \
   static __inline__ __host__ __device__ T operator*(T a, T b) { return MUL(a, b); }                            \
   static __inline__ __host__ __device__ T operator/(T a, T b) { return DIV(a, b); }                            \
   static __inline__ __host__ __device__ T operator-(T a) { return NEG(a); }                                    \
   static __inline__ __host__ __device__ T operator+(T a) { return a; }                                         \
   static __inline__ __host__ __device__ bool operator==(T a, T b) { return EQ(a, b); }                         \
   static __inline__ __host__ __device__ bool operator!=(T a, T b) { return NE(a, b); }                         \
   static __inline__ __host__ __device__ bool operator<(T a, T b) { return LT(a, b); }                          \
   static __inline__ __host__ __device__ bool operator<=(T a, T b) { return LE(a, b); }                         \
   static __inline__ __host__ __device__ bool operator>(T a, T b) { return GT(a, b); }                          \
   static __inline__ __host__ __device__ bool operator>=(T a, T b) { return GE(a, b); }                         \
   static __inline__ __host__ __device__ T &operator+=(T &a, T b) { return a = ADD(a, b); }                     \
   static __inline__ __host__ __device__ T &operator-=(T &a, T b) { return a = SUB(a, b); }                     \
   static __inline__ __host__ __device__ T &operator*=(T &a, T b) { return a = MUL(a, b); }                     \
   static __inline__ __host__ __device__ T &operator/=(T &a, T b) { return a = DIV(a, b); }
/* ++/-- of a scalar type whose 1.0 is ONE */
#define __MC_INCDEC(T, ONE)                                                                                     \
   static __inline__ __host__ __device__ T &operator++(T &a) { return a = __hadd(a, ONE); }                     \
   static __inline__ __host__ __device__ T &operator--(T &a) { return a = __hsub(a, ONE); }                     \
   static __inline__ __host__ __device__ T operator++(T &a, int) { T o = a; ++a; return o; }                    \
   static __inline__ __host__ __device__ T operator--(T &a, int) { T o = a; --a; return o; }
/* pair forms: each half by F; MAKE builds the pair */
#define __MC_PAIR_UN(ATTR, T2, MAKE, NAME, F) ATTR T2 NAME(T2 a) { return MAKE(F(a.x), F(a.y)); }
#define __MC_PAIR_BIN(T2, MAKE, NAME, F) \
   static __inline__ __host__ __device__ T2 NAME(T2 a, T2 b) { return MAKE(F(a.x, b.x), F(a.y, b.y)); }
#define __MC_PAIR_TER(T2, MAKE, NAME, F) \
   static __inline__ __host__ __device__ T2 NAME(T2 a, T2 b, T2 c) { return MAKE(F(a.x, b.x, c.x), F(a.y, b.y, c.y)); }
/* __hC2 (1.0 or 0.0 per half: RAW(ONE) or RAW(0)), __hC2_mask (0xffff or
 * 0 per half), __hbC2 (both true) from the scalar __hC */
#define __MC_PAIR_CMP(T2, MAKE, RAW, ONE, C)                                                                    \
   static __inline__ __host__ __device__ T2 __h##C##2(T2 a, T2 b)                                               \
   {                                                                                                            \
      return MAKE(RAW(__h##C(a.x, b.x) ? ONE : 0), RAW(__h##C(a.y, b.y) ? ONE : 0));                            \
   }                                                                                                            \
   static __inline__ __host__ __device__ unsigned __h##C##2_mask(T2 a, T2 b)                                    \
   {                                                                                                            \
      return (__h##C(a.x, b.x) ? 0xffffu : 0u) | (__h##C(a.y, b.y) ? 0xffff0000u : 0u);                         \
   }                                                                                                            \
   static __inline__ __host__ __device__ bool __hb##C##2(T2 a, T2 b) { return __h##C(a.x, b.x) && __h##C(a.y, b.y); }
#define __MC_PAIR_CMPS(T2, MAKE, RAW, ONE)                                                                      \
   __MC_PAIR_CMP(T2, MAKE, RAW, ONE, eq) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, ne) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, lt) \
   __MC_PAIR_CMP(T2, MAKE, RAW, ONE, le) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, gt) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, ge) \
   __MC_PAIR_CMP(T2, MAKE, RAW, ONE, equ) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, neu)                               \
   __MC_PAIR_CMP(T2, MAKE, RAW, ONE, ltu) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, leu)                               \
   __MC_PAIR_CMP(T2, MAKE, RAW, ONE, gtu) __MC_PAIR_CMP(T2, MAKE, RAW, ONE, geu)                               \
   static __inline__ __host__ __device__ T2 __hisnan2(T2 a)                                                     \
   {                                                                                                            \
      return MAKE(RAW(__hisnan(a.x) ? ONE : 0), RAW(__hisnan(a.y) ? ONE : 0));                                  \
   }
/* the pair arithmetic, min/max and math forms of a type */
#define __MC_PAIR_ARITH(T2, MAKE)                                                                               \
   __MC_PAIR_BIN(T2, MAKE, __hadd2, __hadd) __MC_PAIR_BIN(T2, MAKE, __hsub2, __hsub)                            \
   __MC_PAIR_BIN(T2, MAKE, __hmul2, __hmul) __MC_PAIR_BIN(T2, MAKE, __h2div, __hdiv)                            \
   __MC_PAIR_BIN(T2, MAKE, __hadd2_rn, __hadd) __MC_PAIR_BIN(T2, MAKE, __hsub2_rn, __hsub)                      \
   __MC_PAIR_BIN(T2, MAKE, __hmul2_rn, __hmul) __MC_PAIR_BIN(T2, MAKE, __hadd2_sat, __hadd_sat)                 \
   __MC_PAIR_BIN(T2, MAKE, __hsub2_sat, __hsub_sat) __MC_PAIR_BIN(T2, MAKE, __hmul2_sat, __hmul_sat)            \
   __MC_PAIR_TER(T2, MAKE, __hfma2, __hfma) __MC_PAIR_TER(T2, MAKE, __hfma2_sat, __hfma_sat)                    \
   __MC_PAIR_TER(T2, MAKE, __hfma2_relu, __hfma_relu)                                                           \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, __hneg2, __hneg)                               \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, __habs2, __habs)                               \
   __MC_PAIR_BIN(T2, MAKE, __hmax2, __hmax) __MC_PAIR_BIN(T2, MAKE, __hmin2, __hmin)                            \
   __MC_PAIR_BIN(T2, MAKE, __hmax2_nan, __hmax_nan) __MC_PAIR_BIN(T2, MAKE, __hmin2_nan, __hmin_nan)            \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, h2ceil, hceil)                                 \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, h2floor, hfloor)                               \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, h2trunc, htrunc)                               \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, h2rint, hrint)                                 \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, h2sqrt, hsqrt)                                 \
   __MC_PAIR_UN(static __inline__ __host__ __device__, T2, MAKE, h2rcp, hrcp)
#define __MC_PAIR_MATH_D(T2, MAKE)                                                                              \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2exp, hexp)                                            \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2exp2, hexp2)                                          \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2exp10, hexp10)                                        \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2log, hlog)                                            \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2log2, hlog2)                                          \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2log10, hlog10)                                        \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2sin, hsin)                                            \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2cos, hcos)                                            \
   __MC_PAIR_UN(static __inline__ __device__, T2, MAKE, h2rsqrt, hrsqrt)
/* shuffles of a 16- or 32-bit type T through the 32-bit ones */
#define __MC_SHUFFLES(T)                                                                                        \
   static __inline__ __device__ T __shfl_sync(unsigned mask, T v, int src, int width = 32)                      \
   {                                                                                                            \
      return __mc_from_u32<T>(__shfl_sync(mask, __mc_to_u32(v), src, width));                                   \
   }                                                                                                            \
   static __inline__ __device__ T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32)                \
   {                                                                                                            \
      return __mc_from_u32<T>(__shfl_up_sync(mask, __mc_to_u32(v), d, width));                                  \
   }                                                                                                            \
   static __inline__ __device__ T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32)              \
   {                                                                                                            \
      return __mc_from_u32<T>(__shfl_down_sync(mask, __mc_to_u32(v), d, width));                                \
   }                                                                                                            \
   static __inline__ __device__ T __shfl_xor_sync(unsigned mask, T v, int lanes, int width = 32)                \
   {                                                                                                            \
      return __mc_from_u32<T>(__shfl_xor_sync(mask, __mc_to_u32(v), lanes, width));                            \
   }
/* __ldg and the cache-hinted loads and stores of T through those of the
 * unsigned type U of its size */
#define __MC_LDST(T, U)                                                                                         \
   static __inline__ __device__ T __ldg(const T *p) { return __mc_from_u32<T>(__ldg((const U *)p)); }            \
   static __inline__ __device__ T __ldcg(const T *p) { return __mc_from_u32<T>(__ldcg((const U *)p)); }          \
   static __inline__ __device__ T __ldca(const T *p) { return __mc_from_u32<T>(__ldca((const U *)p)); }          \
   static __inline__ __device__ T __ldcs(const T *p) { return __mc_from_u32<T>(__ldcs((const U *)p)); }          \
   static __inline__ __device__ T __ldlu(const T *p) { return __mc_from_u32<T>(__ldlu((const U *)p)); }          \
   static __inline__ __device__ T __ldcv(const T *p) { return __mc_from_u32<T>(__ldcv((const U *)p)); }          \
   static __inline__ __device__ void __stwb(T *p, T v) { __stwb((U *)p, (U)__mc_to_u32(v)); }                    \
   static __inline__ __device__ void __stcg(T *p, T v) { __stcg((U *)p, (U)__mc_to_u32(v)); }                    \
   static __inline__ __device__ void __stcs(T *p, T v) { __stcs((U *)p, (U)__mc_to_u32(v)); }                    \
   static __inline__ __device__ void __stwt(T *p, T v) { __stwt((U *)p, (U)__mc_to_u32(v)); }
template <class T> MC_HD unsigned __mc_to_u32(T v) { unsigned u = 0; __builtin_memcpy(&u, &v, sizeof(T)); return u; }
template <class T> MC_HD T __mc_from_u32(unsigned u) { T v; __builtin_memcpy(&v, &u, sizeof(T)); return v; }
MC_HD __half2 make_half2(__half a, __half b) { return __halves2half2(a, b); }
MC_HD __half2 __half2half2(__half a) { return __halves2half2(a, a); }
MC_HD __half2 __lowhigh2highlow(__half2 a) { return __halves2half2(a.y, a.x); }
MC_HD __half2 __low2half2(__half2 a) { return __halves2half2(a.x, a.x); }
MC_HD __half2 __high2half2(__half2 a) { return __halves2half2(a.y, a.y); }
MC_HD __half2 __lows2half2(__half2 a, __half2 b) { return __halves2half2(a.x, b.x); }
MC_HD __half2 __highs2half2(__half2 a, __half2 b) { return __halves2half2(a.y, b.y); }
MC_HD float2 __half22float2(__half2 a) { return make_float2(__half2float(a.x), __half2float(a.y)); }
MC_HD __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
MC_HD short __half_as_short(__half h) { return (short)h.__x; }
MC_HD __half __short_as_half(short v) { return __mc_h((unsigned short)v); }

/* ---- conversions with a rounding mode ---- */
MC_HD __half __float2half_rz(float f) { return __mc_h(__mc_f2h_mode(f, __MC_RZ)); }
MC_HD __half __float2half_rd(float f) { return __mc_h(__mc_f2h_mode(f, __MC_RD)); }
MC_HD __half __float2half_ru(float f) { return __mc_h(__mc_f2h_mode(f, __MC_RU)); }
/* a half's value rounded to an integer in a mode (exact in float) */
MC_HD float __mc_hround(float f, int mode)
{
   return mode == __MC_RN ? __builtin_rintf(f) : mode == __MC_RZ ? __builtin_truncf(f)
        : mode == __MC_RD ? __builtin_floorf(f) : __builtin_ceilf(f);
}
/* f (a value of a 16-bit type) rounded to an integer type in mode,
 * saturating, NaN to nan; cuda_bf16.h uses it too */
template <class T> MC_HD T __mc_f2int(float f, int mode, T lo, T hi, T nan)
{
   if (f != f)
      return nan;
   f = __mc_hround(f, mode);
   return f <= (float)lo ? lo : f >= (float)hi ? hi : (T)f;
}
template <class T> MC_HD T __mc_h2int(__half h, int mode, T lo, T hi, T nan)
{
   return __mc_f2int<T>(__half2float(h), mode, lo, hi, nan);
}
/* an integer to half in a mode: beyond 2^17 every value is past the largest
 * half (65504) in the same direction, so clamping there first keeps the
 * result and makes the float exact */
template <class T> MC_HD __half __mc_int2h(T v, int mode)
{
   bool is_signed = (T)-1 < (T)0;
   float f = v > (T)131072 ? 131072.0f : is_signed && (long long)v < -131072 ? -131072.0f : (float)v;
   return __mc_h(__mc_f2h_mode(f, mode));
}
/* H to each integer type T in the four modes (P2##NAME##_rn ...) and back
 * (__##NAME##S2##_rn ...), through TOINT and FROMINT; cuda_bf16.h uses it too */
#define __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, T, NAME, LO, HI, NAN_)                                         \
   static __inline__ __host__ __device__ T P2##NAME##_rn(H h) { return TOINT<T>(h, __MC_RN, LO, HI, NAN_); }    \
   static __inline__ __host__ __device__ T P2##NAME##_rz(H h) { return TOINT<T>(h, __MC_RZ, LO, HI, NAN_); }    \
   static __inline__ __host__ __device__ T P2##NAME##_rd(H h) { return TOINT<T>(h, __MC_RD, LO, HI, NAN_); }    \
   static __inline__ __host__ __device__ T P2##NAME##_ru(H h) { return TOINT<T>(h, __MC_RU, LO, HI, NAN_); }    \
   static __inline__ __host__ __device__ H __##NAME##S2##_rn(T v) { return FROMINT<T>(v, __MC_RN); }           \
   static __inline__ __host__ __device__ H __##NAME##S2##_rz(T v) { return FROMINT<T>(v, __MC_RZ); }           \
   static __inline__ __host__ __device__ H __##NAME##S2##_rd(T v) { return FROMINT<T>(v, __MC_RD); }           \
   static __inline__ __host__ __device__ H __##NAME##S2##_ru(T v) { return FROMINT<T>(v, __MC_RU); }
/* the integer types: saturation limits and the result of NaN (CUDA's) */
#define __MC_INT_CONVS(H, P2, S2, TOINT, FROMINT)                                                               \
   __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, int, int, (-2147483647 - 1), 2147483647, 0)                         \
   __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, unsigned int, uint, 0u, 4294967295u, 0u)                            \
   __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, short, short, (short)-32768, (short)32767, (short)0)                \
   __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, unsigned short, ushort, (unsigned short)0, (unsigned short)65535,   \
                 (unsigned short)0)                                                                             \
   __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, long long, ll, (-9223372036854775807ll - 1), 9223372036854775807ll, \
                 (-9223372036854775807ll - 1))                                                                  \
   __MC_INT_CONV(H, P2, S2, TOINT, FROMINT, unsigned long long, ull, 0ull, 18446744073709551615ull,             \
                 0x8000000000000000ull)
__MC_INT_CONVS(__half, __half2, 2half, __mc_h2int, __mc_int2h)
MC_HD signed char __half2char_rz(__half h) { return __mc_h2int<signed char>(h, __MC_RZ, (signed char)-128, (signed char)127, (signed char)0); }
MC_HD unsigned char __half2uchar_rz(__half h) { return __mc_h2int<unsigned char>(h, __MC_RZ, (unsigned char)0, (unsigned char)255, (unsigned char)0); }

/* ---- arithmetic: through float, one more rounding (correctly rounded) ---- */
MC_HD __half __hadd(__half a, __half b) { return __float2half(__half2float(a) + __half2float(b)); }
MC_HD __half __hsub(__half a, __half b) { return __float2half(__half2float(a) - __half2float(b)); }
MC_HD __half __hmul(__half a, __half b) { return __float2half(__half2float(a) * __half2float(b)); }
MC_HD __half __hdiv(__half a, __half b) { return __float2half(__half2float(a) / __half2float(b)); }
MC_HD __half __hadd_rn(__half a, __half b) { return __hadd(a, b); }   /* never contracted: none of ours is */
MC_HD __half __hsub_rn(__half a, __half b) { return __hsub(a, b); }
MC_HD __half __hmul_rn(__half a, __half b) { return __hmul(a, b); }
/* fma through double, rounded once to half (__mc_d2h_bits): the product of
 * two halves is exact in double, and so is the sum with c wherever it
 * matters: the sum is inexact only when the smaller term lies more than 53
 * bits below the larger, i.e. below 2^-31 of it; neither term can then
 * reach a half rounding boundary the other lies on (c's bits are above the
 * result's half ulp, a product of 22 bits that far below c is under a
 * quarter ulp), and products beyond 2^17 overflow whatever c is. */
MC_HD unsigned short __mc_d2h_bits(double d)   /* round to nearest even, once */
{
   unsigned long long u;
   __builtin_memcpy(&u, &d, 8);
   unsigned s = (unsigned)(u >> 48) & 0x8000u, e = (unsigned)(u >> 52) & 0x7ffu;
   unsigned long long m = u & 0xfffffffffffffull;
   if (e == 0x7ff)
      return (unsigned short)(s | 0x7c00u | (m ? 0x200u : 0));
   int ee = (int)e - 1023 + 15;
   if (ee >= 31)
      return (unsigned short)(s | 0x7c00u);
   int sh = 42;                       /* bits dropped from the 53-bit significand */
   m |= 1ull << 52;
   if (ee <= 0) {
      sh += 1 - ee;
      ee = 0;
      if (sh > 63)
         return (unsigned short)s;
   } else {
      m &= ~(1ull << 52);
   }
   unsigned long long r = m >> sh, rem = m & ((1ull << sh) - 1), half = 1ull << (sh - 1);
   if (rem > half || (rem == half && (r & 1)))
      r++;
   return (unsigned short)(s | (((unsigned)ee << 10) + (unsigned)r));
}
MC_HD __half __double2half(double d) { return __mc_h(__mc_d2h_bits(d)); }
MC_HD __half __hfma(__half a, __half b, __half c)
{
   return __mc_h(__mc_d2h_bits(__builtin_fma((double)__half2float(a), (double)__half2float(b), (double)__half2float(c))));
}
MC_HD __half __hneg(__half a) { return __mc_h((unsigned short)(a.__x ^ 0x8000u)); }
MC_HD __half __habs(__half a) { return __mc_h((unsigned short)(a.__x & 0x7fffu)); }
MC_HD bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
/* CUDA's __hisinf: -1 for -inf, 1 for +inf, 0 otherwise */
MC_HD int __hisinf(__half a) { return (a.__x & 0x7fffu) != 0x7c00u ? 0 : (a.__x & 0x8000u) ? -1 : 1; }
/* _sat: clamped to [0, 1], NaN to +0; _relu: negative to +0, NaN kept
 * (canonical, as CUDA's) */
MC_HD __half __mc_hsat(__half a) { return __hisnan(a) ? __mc_h(0) : __half2float(a) <= 0.0f ? __mc_h(0) : __half2float(a) >= 1.0f ? __mc_h(0x3c00) : a; }
MC_HD __half __mc_hrelu(__half a) { return __hisnan(a) ? __mc_h(0x7fff) : __half2float(a) <= 0.0f ? __mc_h(0) : a; }
MC_HD __half __hadd_sat(__half a, __half b) { return __mc_hsat(__hadd(a, b)); }
MC_HD __half __hsub_sat(__half a, __half b) { return __mc_hsat(__hsub(a, b)); }
MC_HD __half __hmul_sat(__half a, __half b) { return __mc_hsat(__hmul(a, b)); }
MC_HD __half __hfma_sat(__half a, __half b, __half c) { return __mc_hsat(__hfma(a, b, c)); }
MC_HD __half __hfma_relu(__half a, __half b, __half c) { return __mc_hrelu(__hfma(a, b, c)); }

/* ---- comparisons: ordered (false on NaN) and unordered (u: true on NaN) ---- */
MC_HD bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
MC_HD bool __hne(__half a, __half b) { float x = __half2float(a), y = __half2float(b); return x < y || x > y; }
MC_HD bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
MC_HD bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
MC_HD bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
MC_HD bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
MC_HD bool __hequ(__half a, __half b) { return !__hne(a, b); }
MC_HD bool __hneu(__half a, __half b) { return !__heq(a, b); }
MC_HD bool __hltu(__half a, __half b) { return !__hge(a, b); }
MC_HD bool __hleu(__half a, __half b) { return !__hgt(a, b); }
MC_HD bool __hgtu(__half a, __half b) { return !__hle(a, b); }
MC_HD bool __hgeu(__half a, __half b) { return !__hlt(a, b); }
/* __hmax/__hmin: a NaN operand gives the other one (two: canonical NaN);
 * _nan: any NaN operand gives the canonical NaN.  -0 < +0 for both, as
 * max.f16 treats them. */
MC_HD bool __mc_hless(__half a, __half b) { return __hlt(a, b) || (__heq(a, b) && (a.__x & 0x8000u) && !(b.__x & 0x8000u)); }
MC_HD __half __hmax(__half a, __half b)
{
   return __hisnan(a) ? (__hisnan(b) ? __mc_h(0x7fff) : b) : __hisnan(b) ? a : __mc_hless(a, b) ? b : a;
}
MC_HD __half __hmin(__half a, __half b)
{
   return __hisnan(a) ? (__hisnan(b) ? __mc_h(0x7fff) : b) : __hisnan(b) ? a : __mc_hless(b, a) ? b : a;
}
MC_HD __half __hmax_nan(__half a, __half b) { return __hisnan(a) || __hisnan(b) ? __mc_h(0x7fff) : __hmax(a, b); }
MC_HD __half __hmin_nan(__half a, __half b) { return __hisnan(a) || __hisnan(b) ? __mc_h(0x7fff) : __hmin(a, b); }

/* ---- operators (== < ... ordered, != unordered, as CUDA's) ---- */
__MC_OPERATORS(__half, __hadd, __hsub, __hmul, __hdiv, __hneg, __heq, __hneu, __hlt, __hle, __hgt, __hge)
__MC_INCDEC(__half, __mc_h(0x3c00))

/* ---- math: exact ones, then the float function rounded once (see the top) ---- */
MC_HD __half hceil(__half a) { return __float2half(__builtin_ceilf(__half2float(a))); }
MC_HD __half hfloor(__half a) { return __float2half(__builtin_floorf(__half2float(a))); }
MC_HD __half htrunc(__half a) { return __float2half(__builtin_truncf(__half2float(a))); }
MC_HD __half hrint(__half a) { return __float2half(__builtin_rintf(__half2float(a))); }
MC_HD __half hsqrt(__half a) { return __float2half(__builtin_sqrtf(__half2float(a))); }
MC_HD __half hrcp(__half a) { return __float2half(1.0f / __half2float(a)); }
#if defined(__CUDA__)
MC_D __half hexp(__half a) { return __float2half(expf(__half2float(a))); }
MC_D __half hexp2(__half a) { return __float2half(exp2f(__half2float(a))); }
MC_D __half hexp10(__half a) { return __float2half(exp10f(__half2float(a))); }
MC_D __half hlog(__half a) { return __float2half(logf(__half2float(a))); }
MC_D __half hlog2(__half a) { return __float2half(log2f(__half2float(a))); }
MC_D __half hlog10(__half a) { return __float2half(log10f(__half2float(a))); }
MC_D __half hsin(__half a) { return __float2half(sinf(__half2float(a))); }
MC_D __half hcos(__half a) { return __float2half(cosf(__half2float(a))); }
MC_D __half hrsqrt(__half a) { return __float2half(rsqrtf(__half2float(a))); }
#endif

/* ---- the half2 forms: each half as above ---- */
__MC_PAIR_ARITH(__half2, __halves2half2)
__MC_PAIR_CMPS(__half2, __halves2half2, __mc_h, 0x3c00)
__MC_OPERATORS(__half2, __hadd2, __hsub2, __hmul2, __h2div, __hneg2, __hbeq2, __hbneu2, __hblt2, __hble2, __hbgt2,
               __hbge2)

#if defined(__CUDA__)
__MC_PAIR_MATH_D(__half2, __halves2half2)
/* ---- shuffles of halves, __ldg and the cache-hinted loads and stores ---- */
__MC_SHUFFLES(__half)
__MC_SHUFFLES(__half2)
__MC_LDST(__half, unsigned short)
__MC_LDST(__half2, unsigned int)
#endif
#endif

#if defined(__CUDA__)
MC_D __half atomicAdd(__half *p, __half v)
{
   __half r;
   __asm__ __volatile__("atom.add.noftz.f16 %0, [%1], %2;" : "=h"(r.__x) : "l"(p), "h"(v.__x) : "memory");
   return r;
}
MC_D __half2 atomicAdd(__half2 *p, __half2 v)
{
   unsigned in, out;
   __builtin_memcpy(&in, &v, 4);
   __asm__ __volatile__("atom.add.noftz.f16x2 %0, [%1], %2;" : "=r"(out) : "l"(p), "r"(in) : "memory");
   __half2 r;
   __builtin_memcpy(&r, &out, 4);
   return r;
}
#endif

#undef MC_HD
#undef MC_D
#endif
