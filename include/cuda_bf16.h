/*
 * cuda_bf16.h — __nv_bfloat16 and __nv_bfloat162: storage, conversions
 * (round to nearest even, NaN kept) and atomicAdd (atom.add.noftz.bf16),
 * with arithmetic through float.  A first subset, as cuda_fp16.h.
 */
#ifndef MC_CUDA_BF16_H
#define MC_CUDA_BF16_H

#include "cuda_fp16.h"

#define MC_HD static __inline__ __host__ __device__

struct __align__(2) __nv_bfloat16 {
   unsigned short __x;
};
struct __align__(4) __nv_bfloat162 {
   __nv_bfloat16 x, y;
};
typedef struct __nv_bfloat16 nv_bfloat16;
typedef struct __nv_bfloat162 nv_bfloat162;

MC_HD __nv_bfloat16 __float2bfloat16(float f)
{
   unsigned u;
   __builtin_memcpy(&u, &f, 4);
   __nv_bfloat16 b;
   if ((u & 0x7fffffffu) > 0x7f800000u)
      b.__x = (unsigned short)((u >> 16) | 0x40u);
   else
      b.__x = (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
   return b;
}
MC_HD __nv_bfloat16 __float2bfloat16_rn(float f) { return __float2bfloat16(f); }
MC_HD float __bfloat162float(__nv_bfloat16 b)
{
   unsigned u = (unsigned)b.__x << 16;
   float f;
   __builtin_memcpy(&f, &u, 4);
   return f;
}
MC_HD __nv_bfloat162 __floats2bfloat162_rn(float a, float b)
{
   __nv_bfloat162 r;
   r.x = __float2bfloat16(a);
   r.y = __float2bfloat16(b);
   return r;
}

#if defined(__CUDA__)
static __inline__ __device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *p, __nv_bfloat16 v)
{
   __nv_bfloat16 r;
   __asm__ __volatile__("atom.add.noftz.bf16 %0, [%1], %2;" : "=h"(r.__x) : "l"(p), "h"(v.__x) : "memory");
   return r;
}
#endif

#undef MC_HD
#endif
