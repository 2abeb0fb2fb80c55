/*
 * cuda_fp4.h — the 4-bit floating-point type of CUDA's Math API ("FP4
 * Intrinsics", CUDA 12.8 and later): __nv_fp4_e2m1, its x2 and x4
 * vectors, the storage types and __nv_fp4_interpretation_t, the
 * conversions __nv_cvt_{double,float,halfraw,bfloat16raw}[2]_to_fp4[x2] and
 * __nv_cvt_fp4[x2]_to_halfraw[2], and the classes' constructors and
 * operators.  CCCL's fp4 support (numeric_limits, casts) sits on top.
 *
 * e2m1 (OCP microscaling): 1 sign (bit 3), 2 exponent bits (bias 1), 1
 * fraction bit; the values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives;
 * no infinity or NaN.  A single code is the low 4 bits of a byte (the
 * high 4 are ignored on input); a pair (x2) is one byte, .x in the low
 * nibble; a four (x4) 16 bits, .x in the lowest nibble.
 *
 * The rules are cuda_fp6.h's, whose code this header shares: narrowing
 * conversions in cudaRoundNearest (to nearest, ties to the even code) or
 * cudaRoundZero (another mode stops a debug build and then truncates),
 * saturating to +-6 (infinity included), NaN to +6, zero's sign kept; the
 * class constructors round to nearest; widening conversions exact; integer
 * conversions truncate, negative values giving 0 for unsigned types.
 * Written from CUDA's Math API documentation.
 */
#ifndef MC_CUDA_FP4_H
#define MC_CUDA_FP4_H

#include "cuda_fp6.h"

#define MC_HD static __inline__ __host__ __device__

typedef __nv_fp8_storage_t __nv_fp4_storage_t;
typedef __nv_fp8_storage_t __nv_fp4x2_storage_t;
typedef __nv_fp8x2_storage_t __nv_fp4x4_storage_t;

typedef enum __nv_fp4_interpretation_t { __NV_E2M1 } __nv_fp4_interpretation_t;

/* e2m1 is the only interpretation: the argument is not consulted */
MC_HD __nv_fp4_storage_t __nv_cvt_double_to_fp4(const double x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                 const enum cudaRoundMode rounding)
{
   (void)fp4_interpretation;
   return (__nv_fp4_storage_t)__mc_fp6_from_ieee(__mc_fpx_double_bits(x), 11, 52, 2, 1, 1, rounding);
}
MC_HD __nv_fp4_storage_t __nv_cvt_float_to_fp4(const float x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                const enum cudaRoundMode rounding)
{
   (void)fp4_interpretation;
   return (__nv_fp4_storage_t)__mc_fp6_from_ieee(__mc_fpx_float_bits(x), 8, 23, 2, 1, 1, rounding);
}
MC_HD __nv_fp4_storage_t __nv_cvt_halfraw_to_fp4(const __half_raw x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                  const enum cudaRoundMode rounding)
{
   (void)fp4_interpretation;
   return (__nv_fp4_storage_t)__mc_fp6_from_ieee(x.x, 5, 10, 2, 1, 1, rounding);
}
MC_HD __nv_fp4_storage_t __nv_cvt_bfloat16raw_to_fp4(const __nv_bfloat16_raw x,
                                                      const __nv_fp4_interpretation_t fp4_interpretation,
                                                      const enum cudaRoundMode rounding)
{
   (void)fp4_interpretation;
   return (__nv_fp4_storage_t)__mc_fp6_from_ieee(x.x, 8, 7, 2, 1, 1, rounding);
}
/* pairs: .x in the low nibble, .y in the high one */
MC_HD __nv_fp4x2_storage_t __mc_fp4x2(__nv_fp4_storage_t lo, __nv_fp4_storage_t hi)
{
   return (__nv_fp4x2_storage_t)((lo & 0xfu) | (hi & 0xfu) << 4);
}
MC_HD __nv_fp4x2_storage_t __nv_cvt_double2_to_fp4x2(const double2 x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                      const enum cudaRoundMode rounding)
{
   return __mc_fp4x2(__nv_cvt_double_to_fp4(x.x, fp4_interpretation, rounding),
                     __nv_cvt_double_to_fp4(x.y, fp4_interpretation, rounding));
}
MC_HD __nv_fp4x2_storage_t __nv_cvt_float2_to_fp4x2(const float2 x, const __nv_fp4_interpretation_t fp4_interpretation,
                                                     const enum cudaRoundMode rounding)
{
   return __mc_fp4x2(__nv_cvt_float_to_fp4(x.x, fp4_interpretation, rounding),
                     __nv_cvt_float_to_fp4(x.y, fp4_interpretation, rounding));
}
MC_HD __nv_fp4x2_storage_t __nv_cvt_halfraw2_to_fp4x2(const __half2_raw x,
                                                       const __nv_fp4_interpretation_t fp4_interpretation,
                                                       const enum cudaRoundMode rounding)
{
   (void)fp4_interpretation;
   return __mc_fp4x2((__nv_fp4_storage_t)__mc_fp6_from_ieee(x.x, 5, 10, 2, 1, 1, rounding),
                     (__nv_fp4_storage_t)__mc_fp6_from_ieee(x.y, 5, 10, 2, 1, 1, rounding));
}
MC_HD __nv_fp4x2_storage_t __nv_cvt_bfloat16raw2_to_fp4x2(const __nv_bfloat162_raw x,
                                                           const __nv_fp4_interpretation_t fp4_interpretation,
                                                           const enum cudaRoundMode rounding)
{
   (void)fp4_interpretation;
   return __mc_fp4x2((__nv_fp4_storage_t)__mc_fp6_from_ieee(x.x, 8, 7, 2, 1, 1, rounding),
                     (__nv_fp4_storage_t)__mc_fp6_from_ieee(x.y, 8, 7, 2, 1, 1, rounding));
}
MC_HD unsigned short __mc_e2m1_half(unsigned c) { return __mc_fp6_to_half_bits(c, 2, 1, 1); }
MC_HD __half_raw __nv_cvt_fp4_to_halfraw(const __nv_fp4_storage_t x, const __nv_fp4_interpretation_t fp4_interpretation)
{
   __half_raw r;
   (void)fp4_interpretation;
   r.x = __mc_e2m1_half(x);
   return r;
}
MC_HD __half2_raw __nv_cvt_fp4x2_to_halfraw2(const __nv_fp4x2_storage_t x,
                                              const __nv_fp4_interpretation_t fp4_interpretation)
{
   __half2_raw r;
   (void)fp4_interpretation;
   r.x = __mc_e2m1_half(x & 0xfu);
   r.y = __mc_e2m1_half((unsigned)x >> 4);
   return r;
}

#ifdef __cplusplus
#define __CUDA_FP4_TYPES_EXIST__

MC_HD __nv_fp4_storage_t __mc_e2m1_rn(unsigned long long u, int ew, int fw)
{
   return (__nv_fp4_storage_t)__mc_fp6_from_ieee(u, ew, fw, 2, 1, 1, cudaRoundNearest);
}

/* the scalar class: cuda_fp6.h's, over e2m1 */
MC_FPX_SCALAR_CLASS(__nv_fp4_e2m1, 1, __mc_e2m1_half, __mc_e2m1_rn, 0x7u)

/* a pair in one byte (.x the low nibble), four in 16 bits (.x the lowest) */
struct __align__(1) __nv_fp4x2_e2m1 {
   __nv_fp4x2_storage_t __x;
   __nv_fp4x2_e2m1() = default;
   __host__ __device__ explicit __nv_fp4x2_e2m1(const __half2 f)
      : __x(__mc_fp4x2(__nv_cvt_halfraw_to_fp4(f.x, __NV_E2M1, cudaRoundNearest),
                       __nv_cvt_halfraw_to_fp4(f.y, __NV_E2M1, cudaRoundNearest))) {}
   __host__ __device__ explicit __nv_fp4x2_e2m1(const __nv_bfloat162 f)
      : __x(__mc_fp4x2(__nv_cvt_bfloat16raw_to_fp4(f.x, __NV_E2M1, cudaRoundNearest),
                       __nv_cvt_bfloat16raw_to_fp4(f.y, __NV_E2M1, cudaRoundNearest))) {}
   __host__ __device__ explicit __nv_fp4x2_e2m1(const float2 f)
      : __x(__nv_cvt_float2_to_fp4x2(f, __NV_E2M1, cudaRoundNearest)) {}
   __host__ __device__ explicit __nv_fp4x2_e2m1(const double2 f)
      : __x(__nv_cvt_double2_to_fp4x2(f, __NV_E2M1, cudaRoundNearest)) {}
   __host__ __device__ explicit operator __half2() const
   {
      __half_raw lo, hi;
      lo.x = __mc_e2m1_half(__x & 0xfu);
      hi.x = __mc_e2m1_half((unsigned)__x >> 4);
      return __half2(__half(lo), __half(hi));
   }
   __host__ __device__ explicit operator float2() const
   {
      return make_float2(__mc_h2f_bits(__mc_e2m1_half(__x & 0xfu)), __mc_h2f_bits(__mc_e2m1_half((unsigned)__x >> 4)));
   }
};
struct __align__(2) __nv_fp4x4_e2m1 {
   __nv_fp4x4_storage_t __x;
   __nv_fp4x4_e2m1() = default;
   __host__ __device__ explicit __nv_fp4x4_e2m1(const __half2 flo, const __half2 fhi)
      : __x((__nv_fp4x4_storage_t)(__nv_fp4x2_e2m1(flo).__x | (unsigned)__nv_fp4x2_e2m1(fhi).__x << 8)) {}
   __host__ __device__ explicit __nv_fp4x4_e2m1(const __nv_bfloat162 flo, const __nv_bfloat162 fhi)
      : __x((__nv_fp4x4_storage_t)(__nv_fp4x2_e2m1(flo).__x | (unsigned)__nv_fp4x2_e2m1(fhi).__x << 8)) {}
   __host__ __device__ explicit __nv_fp4x4_e2m1(const float4 f)
      : __x((__nv_fp4x4_storage_t)(__nv_fp4x2_e2m1(make_float2(f.x, f.y)).__x |
                                   (unsigned)__nv_fp4x2_e2m1(make_float2(f.z, f.w)).__x << 8)) {}
   __host__ __device__ explicit __nv_fp4x4_e2m1(const double4 f)
      : __x((__nv_fp4x4_storage_t)(__nv_fp4x2_e2m1(make_double2(f.x, f.y)).__x |
                                   (unsigned)__nv_fp4x2_e2m1(make_double2(f.z, f.w)).__x << 8)) {}
   __host__ __device__ explicit __nv_fp4x4_e2m1(const double4_16a f)
      : __x((__nv_fp4x4_storage_t)(__nv_fp4x2_e2m1(make_double2(f.x, f.y)).__x |
                                   (unsigned)__nv_fp4x2_e2m1(make_double2(f.z, f.w)).__x << 8)) {}
   __host__ __device__ explicit __nv_fp4x4_e2m1(const double4_32a f)
      : __x((__nv_fp4x4_storage_t)(__nv_fp4x2_e2m1(make_double2(f.x, f.y)).__x |
                                   (unsigned)__nv_fp4x2_e2m1(make_double2(f.z, f.w)).__x << 8)) {}
   __host__ __device__ explicit operator float4() const
   {
      return make_float4(__mc_h2f_bits(__mc_e2m1_half(__x & 0xfu)), __mc_h2f_bits(__mc_e2m1_half((__x >> 4) & 0xfu)),
                         __mc_h2f_bits(__mc_e2m1_half((__x >> 8) & 0xfu)), __mc_h2f_bits(__mc_e2m1_half(__x >> 12)));
   }
};
#undef MC_FPX_SCALAR_CLASS
#endif /* __cplusplus */

#endif
