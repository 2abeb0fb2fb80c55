/*
 * mc_device_atomics.h — atomicAdd ... atomicCAS for every width CUDA has, at
 * device scope (atomicX), block scope (atomicX_block) and system scope
 * (atomicX_system), as clang's NVPTX atomic builtins (atom.{,cta.,sys.}op).
 * Included by cuda_runtime.h in CUDA compiles.
 */
#ifndef MC_DEVICE_ATOMICS_H
#define MC_DEVICE_ATOMICS_H

#define MC_AT static __inline__ __device__ __attribute__((always_inline))

/* One operation at the three scopes: NAME(args) -> builtin __nvvm_atom{,_cta,_sys}_OP_gen_SFX. */
#define MC_ATOM3(NAME, T, OP, SFX)                                                     \
   MC_AT T NAME(T *p, T v) { return __nvvm_atom_##OP##_gen_##SFX(p, v); }               \
   MC_AT T NAME##_block(T *p, T v) { return __nvvm_atom_cta_##OP##_gen_##SFX(p, v); }   \
   MC_AT T NAME##_system(T *p, T v) { return __nvvm_atom_sys_##OP##_gen_##SFX(p, v); }

/* The builtins are typed on int/long long; unsigned operands share them. */
#define MC_ATOM3U(NAME, T, ST, OP, SFX)                                                              \
   MC_AT T NAME(T *p, T v) { return (T)__nvvm_atom_##OP##_gen_##SFX((ST *)p, (ST)v); }                \
   MC_AT T NAME##_block(T *p, T v) { return (T)__nvvm_atom_cta_##OP##_gen_##SFX((ST *)p, (ST)v); }    \
   MC_AT T NAME##_system(T *p, T v) { return (T)__nvvm_atom_sys_##OP##_gen_##SFX((ST *)p, (ST)v); }

MC_ATOM3(atomicAdd, int, add, i)
MC_ATOM3U(atomicAdd, unsigned int, int, add, i)
MC_ATOM3U(atomicAdd, unsigned long long, long long, add, ll)
MC_ATOM3(atomicAdd, float, add, f)
MC_ATOM3(atomicAdd, double, add, d)

MC_ATOM3(atomicExch, int, xchg, i)
MC_ATOM3U(atomicExch, unsigned int, int, xchg, i)
MC_ATOM3U(atomicExch, unsigned long long, long long, xchg, ll)
MC_AT float atomicExch(float *p, float v) { return __int_as_float(atomicExch((int *)p, __float_as_int(v))); }
MC_AT float atomicExch_block(float *p, float v) { return __int_as_float(atomicExch_block((int *)p, __float_as_int(v))); }
MC_AT float atomicExch_system(float *p, float v) { return __int_as_float(atomicExch_system((int *)p, __float_as_int(v))); }

/* Unsigned min/max at block and system scope as PTX: LLVM 19 lowers
 * __nvvm_atom_{cta,sys}_{min,max}_gen_u{i,ll} to atom.cta.min.s32 (signed),
 * found comparing clang's PTX with nvcc's; the device-scope builtins are
 * right. */
#define MC_ATOMU(NAME, T, OP, SCOPE, TY, C)                                                 \
   MC_AT T NAME(T *p, T v)                                                                  \
   {                                                                                        \
      T r;                                                                                  \
      __asm__ __volatile__("atom" SCOPE "." OP "." TY " %0, [%1], %2;"                      \
                           : "=" C(r) : "l"(p), C(v) : "memory");                           \
      return r;                                                                             \
   }
#define MC_ATOMU3(NAME, T, OP, TY, C, SFX)                                                  \
   MC_AT T NAME(T *p, T v) { return __nvvm_atom_##OP##_gen_##SFX(p, v); }                   \
   MC_ATOMU(NAME##_block, T, #OP, ".cta", TY, C)                                            \
   MC_ATOMU(NAME##_system, T, #OP, ".sys", TY, C)
MC_ATOM3(atomicMin, int, min, i)
MC_ATOMU3(atomicMin, unsigned int, min, "u32", "r", ui)
MC_ATOM3(atomicMin, long long, min, ll)
MC_ATOMU3(atomicMin, unsigned long long, min, "u64", "l", ull)
MC_ATOM3(atomicMax, int, max, i)
MC_ATOMU3(atomicMax, unsigned int, max, "u32", "r", ui)
MC_ATOM3(atomicMax, long long, max, ll)
MC_ATOMU3(atomicMax, unsigned long long, max, "u64", "l", ull)

MC_ATOM3(atomicInc, unsigned int, inc, ui)
MC_ATOM3(atomicDec, unsigned int, dec, ui)

MC_ATOM3(atomicAnd, int, and, i)
MC_ATOM3U(atomicAnd, unsigned int, int, and, i)
MC_ATOM3U(atomicAnd, unsigned long long, long long, and, ll)
MC_ATOM3(atomicOr, int, or, i)
MC_ATOM3U(atomicOr, unsigned int, int, or, i)
MC_ATOM3U(atomicOr, unsigned long long, long long, or, ll)
MC_ATOM3(atomicXor, int, xor, i)
MC_ATOM3U(atomicXor, unsigned int, int, xor, i)
MC_ATOM3U(atomicXor, unsigned long long, long long, xor, ll)

MC_AT int atomicSub(int *p, int v) { return atomicAdd(p, -v); }
MC_AT unsigned int atomicSub(unsigned int *p, unsigned int v) { return atomicAdd(p, 0u - v); }
MC_AT int atomicSub_block(int *p, int v) { return atomicAdd_block(p, -v); }
MC_AT unsigned int atomicSub_block(unsigned int *p, unsigned int v) { return atomicAdd_block(p, 0u - v); }
MC_AT int atomicSub_system(int *p, int v) { return atomicAdd_system(p, -v); }
MC_AT unsigned int atomicSub_system(unsigned int *p, unsigned int v) { return atomicAdd_system(p, 0u - v); }

#define MC_CAS3(T, ST, SFX)                                                                                   \
   MC_AT T atomicCAS(T *p, T c, T v) { return (T)__nvvm_atom_cas_gen_##SFX((ST *)p, (ST)c, (ST)v); }           \
   MC_AT T atomicCAS_block(T *p, T c, T v) { return (T)__nvvm_atom_cta_cas_gen_##SFX((ST *)p, (ST)c, (ST)v); } \
   MC_AT T atomicCAS_system(T *p, T c, T v) { return (T)__nvvm_atom_sys_cas_gen_##SFX((ST *)p, (ST)c, (ST)v); }
MC_CAS3(int, int, i)
MC_CAS3(unsigned int, int, i)
MC_CAS3(unsigned long long, long long, ll)
MC_CAS3(long long, long long, ll)

/* 16-bit compare-and-swap (sm_70): PTX atom.cas.b16 on a generic address. */
MC_AT unsigned short atomicCAS(unsigned short *p, unsigned short c, unsigned short v)
{
   unsigned short r;
   __asm__ __volatile__("atom.cas.b16 %0, [%1], %2, %3;" : "=h"(r) : "l"(p), "h"(c), "h"(v) : "memory");
   return r;
}

#undef MC_ATOM3
#undef MC_ATOMU
#undef MC_ATOMU3
#undef MC_ATOM3U
#undef MC_CAS3
#undef MC_AT

#endif
