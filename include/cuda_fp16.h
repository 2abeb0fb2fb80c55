/*
 * cuda_fp16.h — __half and __half2: storage, conversions (cvt.rn.f16.f32
 * and back, as NVIDIA's are) and atomicAdd (atom.add.noftz.f16/.f16x2),
 * with arithmetic, comparisons, fma, min/max, the half2 forms and their
 * operators through float (one more rounding, to half, which gives the
 * correctly rounded result).  Still a subset of CUDA's: the h* math
 * functions (hexp, hlog ...) but hsqrt, the rounding-mode conversions, and
 * the shuffles of halves are not here.
 */
#ifndef MC_CUDA_FP16_H
#define MC_CUDA_FP16_H

#include "cuda_runtime.h"

#define MC_HD static __inline__ __host__ __device__
#define MC_D static __inline__ __device__

struct __align__(2) __half {
   unsigned short __x;
#ifdef __cplusplus
   __half() = default;
   __host__ __device__ __half(float f);
   __host__ __device__ operator float() const;
#endif
};
struct __align__(4) __half2 {
   __half x, y;
};
typedef struct __half half;
typedef struct __half2 half2;
typedef struct __half_raw { unsigned short x; } __half_raw;

/* float -> half, round to nearest even, subnormals and NaN kept */
MC_HD unsigned short __mc_f2h_bits(float f)
{
   unsigned u;
   __builtin_memcpy(&u, &f, 4);
   unsigned s = (u >> 16) & 0x8000u, e = (u >> 23) & 0xff, m = u & 0x7fffffu;
   if (e == 0xff)
      return (unsigned short)(s | 0x7c00u | (m ? 0x200u | (m >> 13) : 0));
   int ee = (int)e - 127 + 15;
   if (ee >= 31)
      return (unsigned short)(s | 0x7c00u);
   if (ee <= 0) {
      if (ee < -10)
         return (unsigned short)s;
      m |= 0x800000u;
      int sh = 14 - ee;
      unsigned r = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
      if (rem > half || (rem == half && (r & 1)))
         r++;
      return (unsigned short)(s | r);
   }
   unsigned r = ((unsigned)ee << 10) | (m >> 13), rem = m & 0x1fffu;
   if (rem > 0x1000u || (rem == 0x1000u && (r & 1)))
      r++;
   return (unsigned short)(s | r);
}
MC_HD float __mc_h2f_bits(unsigned short h)
{
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
MC_HD __half __hadd(__half a, __half b) { return __float2half(__half2float(a) + __half2float(b)); }
MC_HD __half __hsub(__half a, __half b) { return __float2half(__half2float(a) - __half2float(b)); }
MC_HD __half __hmul(__half a, __half b) { return __float2half(__half2float(a) * __half2float(b)); }
MC_HD __half __hdiv(__half a, __half b) { return __float2half(__half2float(a) / __half2float(b)); }
MC_HD __half operator+(__half a, __half b) { return __hadd(a, b); }
MC_HD __half operator-(__half a, __half b) { return __hsub(a, b); }
MC_HD __half operator*(__half a, __half b) { return __hmul(a, b); }
MC_HD __half operator/(__half a, __half b) { return __hdiv(a, b); }
MC_HD __half2 __hadd2(__half2 a, __half2 b) { return __halves2half2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }
MC_HD __half2 __hmul2(__half2 a, __half2 b) { return __halves2half2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }
/* The results through float round once more, to half: correctly rounded for
 * + - * / (24 >= 2 * 11 + 2 bits make the second rounding innocuous).  fma
 * goes through double: the product is exact there, and the sum is exact
 * unless c is below 2^-31 of it, where a tie could come out the wrong way. */
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
MC_HD __half __hfma(__half a, __half b, __half c)
{
   __half r;
   r.__x = __mc_d2h_bits(__builtin_fma((double)__half2float(a), (double)__half2float(b), (double)__half2float(c)));
   return r;
}
MC_HD __half __hneg(__half a) { __half r; r.__x = (unsigned short)(a.__x ^ 0x8000u); return r; }
MC_HD __half __habs(__half a) { __half r; r.__x = (unsigned short)(a.__x & 0x7fffu); return r; }
MC_HD bool __hisnan(__half a) { return (a.__x & 0x7fffu) > 0x7c00u; }
MC_HD bool __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u; }
MC_HD bool __heq(__half a, __half b) { return __half2float(a) == __half2float(b); }
MC_HD bool __hne(__half a, __half b) { return __half2float(a) != __half2float(b); }
MC_HD bool __hlt(__half a, __half b) { return __half2float(a) < __half2float(b); }
MC_HD bool __hle(__half a, __half b) { return __half2float(a) <= __half2float(b); }
MC_HD bool __hgt(__half a, __half b) { return __half2float(a) > __half2float(b); }
MC_HD bool __hge(__half a, __half b) { return __half2float(a) >= __half2float(b); }
/* CUDA's __hmax/__hmin: a NaN operand gives the other one */
MC_HD __half __hmax(__half a, __half b) { return __hisnan(a) ? b : __hisnan(b) ? a : __hlt(a, b) ? b : a; }
MC_HD __half __hmin(__half a, __half b) { return __hisnan(a) ? b : __hisnan(b) ? a : __hlt(b, a) ? b : a; }
MC_HD __half operator-(__half a) { return __hneg(a); }
MC_HD bool operator==(__half a, __half b) { return __heq(a, b); }
MC_HD bool operator!=(__half a, __half b) { return __hne(a, b); }
MC_HD bool operator<(__half a, __half b) { return __hlt(a, b); }
MC_HD bool operator<=(__half a, __half b) { return __hle(a, b); }
MC_HD bool operator>(__half a, __half b) { return __hgt(a, b); }
MC_HD bool operator>=(__half a, __half b) { return __hge(a, b); }
static __inline__ __host__ __device__ __half &operator+=(__half &a, __half b) { return a = __hadd(a, b); }
static __inline__ __host__ __device__ __half &operator-=(__half &a, __half b) { return a = __hsub(a, b); }
static __inline__ __host__ __device__ __half &operator*=(__half &a, __half b) { return a = __hmul(a, b); }
static __inline__ __host__ __device__ __half &operator/=(__half &a, __half b) { return a = __hdiv(a, b); }
MC_HD __half2 make_half2(__half a, __half b) { return __halves2half2(a, b); }
MC_HD __half2 __half2half2(__half a) { return __halves2half2(a, a); }
MC_HD __half2 __hsub2(__half2 a, __half2 b) { return __halves2half2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }
MC_HD __half2 __h2div(__half2 a, __half2 b) { return __halves2half2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }
MC_HD __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __halves2half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
MC_HD __half2 __hneg2(__half2 a) { return __halves2half2(__hneg(a.x), __hneg(a.y)); }
MC_HD __half2 __lowhigh2highlow(__half2 a) { return __halves2half2(a.y, a.x); }
MC_HD float2 __half22float2(__half2 a) { return make_float2(__half2float(a.x), __half2float(a.y)); }
MC_HD __half2 __float22half2_rn(float2 f) { return __floats2half2_rn(f.x, f.y); }
MC_HD __half2 operator+(__half2 a, __half2 b) { return __hadd2(a, b); }
MC_HD __half2 operator-(__half2 a, __half2 b) { return __hsub2(a, b); }
MC_HD __half2 operator*(__half2 a, __half2 b) { return __hmul2(a, b); }
MC_HD __half2 operator/(__half2 a, __half2 b) { return __h2div(a, b); }
MC_HD __half hsqrt(__half a) { return __float2half(__builtin_sqrtf(__half2float(a))); }
MC_HD __half __int2half_rn(int i) { return __float2half((float)i); }   /* |i| < 2^24 exact in float first */
MC_HD int __half2int_rz(__half h) { return (int)__half2float(h); }
MC_HD short __half_as_short(__half h) { return (short)h.__x; }
MC_HD __half __short_as_half(short v) { __half h; h.__x = (unsigned short)v; return h; }
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
