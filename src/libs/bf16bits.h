/*
 * bf16bits.h — bfloat16 as its 16 bits, for the math libraries' device code
 * (cublas/kernels.cu, cublasLt/kernels.cu): a float's upper half, widened
 * exactly and narrowed with rounding to nearest even (a NaN stays a quiet
 * NaN of its sign).  Plain integer code, so that it means the same on every
 * device and needs no bfloat16 support from the compiler.
 */
#ifndef MC_LIBS_BF16BITS_H
#define MC_LIBS_BF16BITS_H

struct bf16bits { unsigned short v; };

__device__ __forceinline__ float bf16_to_float(bf16bits b) { return __int_as_float((int)b.v << 16); }

__device__ __forceinline__ bf16bits bf16_from_float(float v)
{
   unsigned u = (unsigned)__float_as_int(v);
   bf16bits b;
   b.v = (unsigned short)((u & 0x7fffffffu) > 0x7f800000u ? 0x7fc0u | (u >> 16 & 0x8000u)
                                                          : (u + 0x7fffu + (u >> 16 & 1u)) >> 16);
   return b;
}

#endif
