/*
 * cuda_bf16.h — __nv_bfloat16 and __nv_bfloat162 (CUDA Math API, "Bfloat16
 * Precision Intrinsics"): storage, conversions (round to nearest even, NaN
 * kept, and the other rounding modes: __float2bfloat16_rz/_rd/_ru, the
 * integer conversions), arithmetic and comparison operators and intrinsics
 * (__hadd ... __hfma, _sat and _relu forms, ordered and unordered compares,
 * the 162 forms), min/max, the h* and h2* math functions, shuffles, __ldg
 * and the cache-hinted loads and stores, and atomicAdd
 * (atom.add.noftz.bf16/.bf16x2).
 *
 * As cuda_fp16.h: + - * / sqrt go through float and round once more to
 * bfloat16, which is the correctly rounded result (24 >= 2 * 8 + 2).  fma
 * is exact through double plus round-to-odd (__mc_bf_fma).  The math
 * functions (hexp ... hrsqrt: CUDA gives no error bound) are the device
 * library's float functions rounded once: within 1 bfloat16 ulp of the
 * exact value, correctly rounded but where the exact value lies within
 * about 2^-15 ulp of a rounding boundary.
 */
#ifndef MC_CUDA_BF16_H
#define MC_CUDA_BF16_H

#include "cuda_fp16.h"

#define MC_HD static __inline__ __host__ __device__
#define MC_D static __inline__ __device__

typedef struct __nv_bfloat16_raw { unsigned short x; } __nv_bfloat16_raw;
typedef struct __nv_bfloat162_raw { unsigned short x, y; } __nv_bfloat162_raw;
#ifdef __cplusplus
/* reads of a volatile __nv_bfloat16 (CCCL's complex<> reads its parts of a
 * volatile object): a constructor template, which is never a copy
 * constructor, so that __nv_bfloat16 stays trivially copyable (a kernel parameter
 * passed in registers, not by reference) */
struct __nv_bfloat16;
template <typename T> struct __mc_same_nv_bfloat16 {};
template <> struct __mc_same_nv_bfloat16<__nv_bfloat16> { typedef int type; };
#endif
struct __align__(2) __nv_bfloat16 {
   unsigned short __x;
#ifdef __cplusplus
   __nv_bfloat16() = default;
   template <typename V, typename __mc_same_nv_bfloat16<V>::type = 0>
   __host__ __device__ __nv_bfloat16(const volatile V &v) : __x(v.__x) {}
   __host__ __device__ __nv_bfloat16(float f);
   __host__ __device__ __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
   __host__ __device__ operator float() const;
   __host__ __device__ operator __nv_bfloat16_raw() const { __nv_bfloat16_raw r; r.x = __x; return r; }
#endif
};
struct __align__(4) __nv_bfloat162 {
   __nv_bfloat16 x, y;
#ifdef __cplusplus
   __nv_bfloat162() = default;
   __host__ __device__ __nv_bfloat162(const __nv_bfloat16 &a, const __nv_bfloat16 &b) : x(a), y(b) {}
#endif
};
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;

/* float -> bfloat16 in a rounding mode (__MC_RN ... of cuda_fp16.h); NaN
 * kept, quiet */
MC_HD unsigned short __mc_f2bf_mode(float f, int mode)
{
   unsigned u;
   __builtin_memcpy(&u, &f, 4);
   if ((u & 0x7fffffffu) > 0x7f800000u)
      return (unsigned short)((u >> 16) | 0x40u);
   unsigned s = (u >> 16) & 0x8000u, r = (u >> 16) & 0x7fffu, rem = u & 0xffffu;
   if (r == 0x7f80u)
      return (unsigned short)(s | r);   /* infinity */
   if (__mc_round_up(mode, s, r, rem, 0x8000u))
      r++;   /* past the largest finite: infinity, in the modes that go there */
   return (unsigned short)(s | r);
}
MC_HD __nv_bfloat16 __mc_bf(unsigned short v) { __nv_bfloat16 b; b.__x = v; return b; }
MC_HD __nv_bfloat16 __float2bfloat16(float f) { return __mc_bf(__mc_f2bf_mode(f, __MC_RN)); }
MC_HD __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
MC_HD __nv_bfloat16 __float2bfloat16_rz(float f) { return __mc_bf(__mc_f2bf_mode(f, __MC_RZ)); }
MC_HD __nv_bfloat16 __float2bfloat16_rd(float f) { return __mc_bf(__mc_f2bf_mode(f, __MC_RD)); }
MC_HD __nv_bfloat16 __float2bfloat16_ru(float f) { return __mc_bf(__mc_f2bf_mode(f, __MC_RU)); }
MC_HD float __bfloat162float(__nv_bfloat16 b)
{
   unsigned u = (unsigned)b.__x << 16;
   float f;
   __builtin_memcpy(&f, &u, 4);
   return f;
}
MC_HD __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b)
{
   __nv_bfloat162 r;
   r.x = a;
   r.y = b;
   return r;
}
MC_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b)
{
   return __halves2bfloat162(__float2bfloat16(a), __float2bfloat16(b));
}
MC_HD __nv_bfloat162 __float2bfloat162_rn(float a) { return __floats2bfloat162_rn(a, a); }
MC_HD __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __floats2bfloat162_rn(f.x, f.y); }
MC_HD float2 __bfloat1622float2(__nv_bfloat162 a) { return make_float2(__bfloat162float(a.x), __bfloat162float(a.y)); }
MC_HD unsigned short __bfloat16_as_ushort(__nv_bfloat16 b) { return b.__x; }
MC_HD __nv_bfloat16 __ushort_as_bfloat16(unsigned short v) { return __mc_bf(v); }
MC_HD short __bfloat16_as_short(__nv_bfloat16 b) { return (short)b.__x; }
MC_HD __nv_bfloat16 __short_as_bfloat16(short v) { return __mc_bf((unsigned short)v); }
/* double -> bfloat16, once: to float rounding to odd (24 >= 8 + 2 bits
 * make the rounding to bfloat16 after it exact), then to nearest even.
 * lo is a further exact remainder (d + lo is the value), or 0. */
MC_HD unsigned short __mc_d2bf_bits(double d, double lo)
{
   float f = (float)d;
   double r = d - (double)f;   /* exact */
   double rest = r != 0.0 ? r : lo;
   unsigned u;
   __builtin_memcpy(&u, &f, 4);
   if (rest != 0.0 && (u & 0x7f800000u) != 0x7f800000u && !(u & 1u)) {
      /* the odd neighbour on rest's side */
      if ((rest > 0.0) == !(u >> 31))
         u++;
      else
         u--;
      __builtin_memcpy(&f, &u, 4);
   }
   return __mc_f2bf_mode(f, __MC_RN);
}
MC_HD __nv_bfloat16 __double2bfloat16(double d) { return __mc_bf(__mc_d2bf_bits(d, 0.0)); }

#ifdef __cplusplus
__host__ __device__ inline __nv_bfloat16::__nv_bfloat16(float f) { __x = __mc_f2bf_mode(f, __MC_RN); }
__host__ __device__ inline __nv_bfloat16::operator float() const { return __bfloat162float(*this); }
MC_HD float __low2float(__nv_bfloat162 a) { return __bfloat162float(a.x); }
MC_HD float __high2float(__nv_bfloat162 a) { return __bfloat162float(a.y); }
MC_HD __nv_bfloat16 __low2bfloat16(__nv_bfloat162 a) { return a.x; }
MC_HD __nv_bfloat16 __high2bfloat16(__nv_bfloat162 a) { return a.y; }
MC_HD __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __halves2bfloat162(a, a); }
MC_HD __nv_bfloat162 make_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __halves2bfloat162(a, b); }
MC_HD __nv_bfloat162 __lowhigh2highlow(__nv_bfloat162 a) { return __halves2bfloat162(a.y, a.x); }
MC_HD __nv_bfloat162 __low2bfloat162(__nv_bfloat162 a) { return __halves2bfloat162(a.x, a.x); }
MC_HD __nv_bfloat162 __high2bfloat162(__nv_bfloat162 a) { return __halves2bfloat162(a.y, a.y); }
MC_HD __nv_bfloat162 __lows2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(a.x, b.x); }
MC_HD __nv_bfloat162 __highs2bfloat162(__nv_bfloat162 a, __nv_bfloat162 b) { return __halves2bfloat162(a.y, b.y); }

/* ---- integer conversions: as cuda_fp16.h's, the value rounded once in the
 * mode, saturated to the integer type ---- */
template <class T> MC_HD T __mc_bf2int(__nv_bfloat16 h, int mode, T lo, T hi, T nan)
{
   return __mc_f2int<T>(__bfloat162float(h), mode, lo, hi, nan);
}
template <class T> MC_HD __nv_bfloat16 __mc_int2bf(T v, int mode)
{
   /* the magnitude cut to 24 bits, rounded to odd (a dropped non-zero bit
    * sets the lowest kept one): 24 >= 8 + 2 bits keep the rounding to
    * bfloat16 in any mode exact; then scaled back by a power of two, exactly */
   bool neg = (T)-1 < (T)0 && (long long)v < 0;
   unsigned long long m = neg ? 0ull - (unsigned long long)v : (unsigned long long)v, sticky = 0;
   int k = 0;
   while (m >> 24) {
      sticky |= m & 1u;
      m >>= 1;
      k++;
   }
   float f = (float)(m | sticky) * (float)(1ull << k);
   return __mc_bf(__mc_f2bf_mode(neg ? -f : f, mode));
}
__MC_INT_CONVS(__nv_bfloat16, __bfloat162, 2bfloat16, __mc_bf2int, __mc_int2bf)

/* ---- arithmetic ---- */
#define MC_BF_BIN(NAME, EXPR) \
   MC_HD __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b) { float x = __bfloat162float(a), y = __bfloat162float(b); return __float2bfloat16(EXPR); }
MC_BF_BIN(__hadd, x + y)
MC_BF_BIN(__hsub, x - y)
MC_BF_BIN(__hmul, x * y)
MC_BF_BIN(__hdiv, x / y)
MC_BF_BIN(__hadd_rn, x + y)
MC_BF_BIN(__hsub_rn, x - y)
MC_BF_BIN(__hmul_rn, x * y)
#undef MC_BF_BIN
/* a*b+c rounded once: the product of two bfloat16 (16 bits) is exact in
 * double, the sum's rounding error is recovered exactly (Knuth's TwoSum),
 * and __mc_d2bf_bits rounds the pair to odd, then to bfloat16 */
MC_HD __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
   double p = (double)__bfloat162float(a) * (double)__bfloat162float(b), q = (double)__bfloat162float(c);
   double s = p + q;
   if (s - s != 0.0 || p - p != 0.0 || q - q != 0.0)   /* inf or NaN: the plain sum is the answer */
      return __mc_bf(__mc_d2bf_bits(s, 0.0));
   double pp = s - q, qq = s - pp, e = (p - pp) + (q - qq);
   return __mc_bf(__mc_d2bf_bits(s, e));
}
MC_HD __nv_bfloat16 __hneg(__nv_bfloat16 a) { return __mc_bf((unsigned short)(a.__x ^ 0x8000u)); }
MC_HD __nv_bfloat16 __habs(__nv_bfloat16 a) { return __mc_bf((unsigned short)(a.__x & 0x7fffu)); }
MC_HD bool __hisnan(__nv_bfloat16 a) { return (a.__x & 0x7fffu) > 0x7f80u; }
MC_HD int __hisinf(__nv_bfloat16 a) { return (a.__x & 0x7fffu) != 0x7f80u ? 0 : (a.__x & 0x8000u) ? -1 : 1; }
MC_HD __nv_bfloat16 __mc_bfsat(__nv_bfloat16 a)
{
   float f = __bfloat162float(a);
   return f != f || f <= 0.0f ? __mc_bf(0) : f >= 1.0f ? __mc_bf(0x3f80) : a;
}
MC_HD __nv_bfloat16 __mc_bfrelu(__nv_bfloat16 a)
{
   return __hisnan(a) ? __mc_bf(0x7fff) : __bfloat162float(a) <= 0.0f ? __mc_bf(0) : a;
}
MC_HD __nv_bfloat16 __hadd_sat(__nv_bfloat16 a, __nv_bfloat16 b) { return __mc_bfsat(__hadd(a, b)); }
MC_HD __nv_bfloat16 __hsub_sat(__nv_bfloat16 a, __nv_bfloat16 b) { return __mc_bfsat(__hsub(a, b)); }
MC_HD __nv_bfloat16 __hmul_sat(__nv_bfloat16 a, __nv_bfloat16 b) { return __mc_bfsat(__hmul(a, b)); }
MC_HD __nv_bfloat16 __hfma_sat(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __mc_bfsat(__hfma(a, b, c)); }
MC_HD __nv_bfloat16 __hfma_relu(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c) { return __mc_bfrelu(__hfma(a, b, c)); }

/* ---- comparisons, min/max (as cuda_fp16.h's) ---- */
#define MC_BF_CMP(NAME, EXPR) \
   MC_HD bool NAME(__nv_bfloat16 a, __nv_bfloat16 b) { float x = __bfloat162float(a), y = __bfloat162float(b); return EXPR; }
MC_BF_CMP(__heq, x == y)
MC_BF_CMP(__hne, x < y || x > y)
MC_BF_CMP(__hlt, x < y)
MC_BF_CMP(__hle, x <= y)
MC_BF_CMP(__hgt, x > y)
MC_BF_CMP(__hge, x >= y)
MC_BF_CMP(__hequ, !(x < y || x > y))
MC_BF_CMP(__hneu, !(x == y))
MC_BF_CMP(__hltu, !(x >= y))
MC_BF_CMP(__hleu, !(x > y))
MC_BF_CMP(__hgtu, !(x <= y))
MC_BF_CMP(__hgeu, !(x < y))
#undef MC_BF_CMP
MC_HD bool __mc_bfless(__nv_bfloat16 a, __nv_bfloat16 b)
{
   return __hlt(a, b) || (__heq(a, b) && (a.__x & 0x8000u) && !(b.__x & 0x8000u));
}
MC_HD __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b)
{
   return __hisnan(a) ? (__hisnan(b) ? __mc_bf(0x7fff) : b) : __hisnan(b) ? a : __mc_bfless(a, b) ? b : a;
}
MC_HD __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b)
{
   return __hisnan(a) ? (__hisnan(b) ? __mc_bf(0x7fff) : b) : __hisnan(b) ? a : __mc_bfless(b, a) ? b : a;
}
MC_HD __nv_bfloat16 __hmax_nan(__nv_bfloat16 a, __nv_bfloat16 b)
{
   return __hisnan(a) || __hisnan(b) ? __mc_bf(0x7fff) : __hmax(a, b);
}
MC_HD __nv_bfloat16 __hmin_nan(__nv_bfloat16 a, __nv_bfloat16 b)
{
   return __hisnan(a) || __hisnan(b) ? __mc_bf(0x7fff) : __hmin(a, b);
}

/* ---- operators, as cuda_fp16.h's ---- */
__MC_OPERATORS(__nv_bfloat16, __hadd, __hsub, __hmul, __hdiv, __hneg, __heq, __hneu, __hlt, __hle, __hgt, __hge)
__MC_INCDEC(__nv_bfloat16, __mc_bf(0x3f80))

/* ---- math ---- */
#define MC_BF_MATH(ATTR, NAME, EXPR) \
   ATTR __nv_bfloat16 NAME(__nv_bfloat16 a) { float x = __bfloat162float(a); return __float2bfloat16(EXPR); }
MC_BF_MATH(MC_HD, hceil, __builtin_ceilf(x))
MC_BF_MATH(MC_HD, hfloor, __builtin_floorf(x))
MC_BF_MATH(MC_HD, htrunc, __builtin_truncf(x))
MC_BF_MATH(MC_HD, hrint, __builtin_rintf(x))
MC_BF_MATH(MC_HD, hsqrt, __builtin_sqrtf(x))
MC_BF_MATH(MC_HD, hrcp, 1.0f / x)
#if defined(__CUDA__)
MC_BF_MATH(MC_D, hexp, expf(x))
MC_BF_MATH(MC_D, hexp2, exp2f(x))
MC_BF_MATH(MC_D, hexp10, exp10f(x))
MC_BF_MATH(MC_D, hlog, logf(x))
MC_BF_MATH(MC_D, hlog2, log2f(x))
MC_BF_MATH(MC_D, hlog10, log10f(x))
MC_BF_MATH(MC_D, hsin, sinf(x))
MC_BF_MATH(MC_D, hcos, cosf(x))
MC_BF_MATH(MC_D, hrsqrt, rsqrtf(x))
#endif
#undef MC_BF_MATH

/* ---- the 162 forms ---- */
__MC_PAIR_ARITH(__nv_bfloat162, __halves2bfloat162)
__MC_PAIR_CMPS(__nv_bfloat162, __halves2bfloat162, __mc_bf, 0x3f80)
__MC_OPERATORS(__nv_bfloat162, __hadd2, __hsub2, __hmul2, __h2div, __hneg2, __hbeq2, __hbneu2, __hblt2, __hble2,
               __hbgt2, __hbge2)

#if defined(__CUDA__)
__MC_PAIR_MATH_D(__nv_bfloat162, __halves2bfloat162)
/* ---- shuffles, __ldg, atomics ---- */
__MC_SHUFFLES(__nv_bfloat16)
__MC_SHUFFLES(__nv_bfloat162)
__MC_LDST(__nv_bfloat16, unsigned short)
__MC_LDST(__nv_bfloat162, unsigned int)
MC_D __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v)
{
   __nv_bfloat16 r;
   __asm__ __volatile__("atom.add.noftz.bf16 %0, [%1], %2;" : "=h"(r.__x) : "l"(p), "h"(v.__x) : "memory");
   return r;
}
MC_D __nv_bfloat162 atomicAdd(__nv_bfloat162 *p, __nv_bfloat162 v)
{
   unsigned out;
   __asm__ __volatile__("atom.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(out) : "l"(p), "r"(__mc_to_u32(v)) : "memory");
   return __mc_from_u32<__nv_bfloat162>(out);
}
#endif
#endif

#undef MC_HD
#undef MC_D
#endif
