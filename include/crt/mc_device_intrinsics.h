/*
 * mc_device_intrinsics.h — device functions that clang's CUDA headers leave
 * to NVIDIA's (sm_*_intrinsics, sm_70 match/nanosleep, dp4a, cache-hinted
 * loads and stores, address-space queries), written over clang's NVPTX
 * builtins or one PTX instruction each.  Included by cuda_runtime.h.
 */
#ifndef MC_DEVICE_INTRINSICS_H
#define MC_DEVICE_INTRINSICS_H

#define MC_DI static __inline__ __device__ __attribute__((always_inline))

/* ---- sm_70 warp match (the 64-bit operands through match.*.b64) ---- */
MC_DI unsigned int __match_any_sync(unsigned int mask, unsigned int v) { return __nvvm_match_any_sync_i32(mask, v); }
MC_DI unsigned int __match_any_sync(unsigned int mask, int v) { return __nvvm_match_any_sync_i32(mask, (unsigned)v); }
MC_DI unsigned int __match_any_sync(unsigned int mask, float v) { return __nvvm_match_any_sync_i32(mask, __float_as_uint(v)); }
MC_DI unsigned int __match_any_sync(unsigned int mask, unsigned long long v) { return __nvvm_match_any_sync_i64(mask, v); }
MC_DI unsigned int __match_any_sync(unsigned int mask, long long v) { return __nvvm_match_any_sync_i64(mask, v); }
MC_DI unsigned int __match_any_sync(unsigned int mask, unsigned long v) { return __nvvm_match_any_sync_i64(mask, v); }
MC_DI unsigned int __match_any_sync(unsigned int mask, long v) { return __nvvm_match_any_sync_i64(mask, v); }
MC_DI unsigned int __match_any_sync(unsigned int mask, double v) { return __nvvm_match_any_sync_i64(mask, __double_as_longlong(v)); }
MC_DI unsigned int __match_all_sync(unsigned int mask, unsigned int v, int *pred) { return __nvvm_match_all_sync_i32p(mask, v, pred); }
MC_DI unsigned int __match_all_sync(unsigned int mask, int v, int *pred) { return __nvvm_match_all_sync_i32p(mask, (unsigned)v, pred); }
MC_DI unsigned int __match_all_sync(unsigned int mask, float v, int *pred) { return __nvvm_match_all_sync_i32p(mask, __float_as_uint(v), pred); }
MC_DI unsigned int __match_all_sync(unsigned int mask, unsigned long long v, int *pred) { return __nvvm_match_all_sync_i64p(mask, v, pred); }
MC_DI unsigned int __match_all_sync(unsigned int mask, long long v, int *pred) { return __nvvm_match_all_sync_i64p(mask, v, pred); }
MC_DI unsigned int __match_all_sync(unsigned int mask, double v, int *pred) { return __nvvm_match_all_sync_i64p(mask, __double_as_longlong(v), pred); }

/* ---- timing ---- */
MC_DI void __nanosleep(unsigned int ns) { __asm__ __volatile__("nanosleep.u32 %0;" ::"r"(ns)); }
MC_DI unsigned long long __globaltimer(void) { return __nvvm_read_ptx_sreg_globaltimer(); }

/* ---- programmatic dependent launch (sm_90): griddepcontrol, which the
 * compiler translates (a grid here starts after the work it depends on) */
MC_DI void cudaGridDependencySynchronize(void) { __asm__ __volatile__("griddepcontrol.wait;" ::: "memory"); }
MC_DI void cudaTriggerProgrammaticLaunchCompletion(void) { __asm__ __volatile__("griddepcontrol.launch_dependents;" ::: "memory"); }

/* ---- integer dot products (sm_61) ---- */
MC_DI int __dp4a(int a, int b, int c) { int r; __asm__("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
MC_DI unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) { unsigned r; __asm__("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
MC_DI int __dp2a_lo(int a, int b, int c) { int r; __asm__("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
MC_DI unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c) { unsigned r; __asm__("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
MC_DI int __dp2a_hi(int a, int b, int c) { int r; __asm__("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
MC_DI unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c) { unsigned r; __asm__("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }

/* ---- address spaces ---- */
MC_DI unsigned int __isShared(const void *p) { return __nvvm_isspacep_shared(p); }
MC_DI unsigned int __isConstant(const void *p) { return __nvvm_isspacep_const(p); }
MC_DI unsigned int __isLocal(const void *p) { return __nvvm_isspacep_local(p); }
MC_DI unsigned int __isGlobal(const void *p) { return __nvvm_isspacep_global(p); }
MC_DI size_t __cvta_generic_to_shared(const void *p) { size_t r; __asm__("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(p)); return r; }
MC_DI void *__cvta_shared_to_generic(size_t a) { void *r; __asm__("cvta.shared.u64 %0, %1;" : "=l"(r) : "l"(a)); return r; }
MC_DI size_t __cvta_generic_to_global(const void *p) { size_t r; __asm__("cvta.to.global.u64 %0, %1;" : "=l"(r) : "l"(p)); return r; }
MC_DI void *__cvta_global_to_generic(size_t a) { void *r; __asm__("cvta.global.u64 %0, %1;" : "=l"(r) : "l"(a)); return r; }
MC_DI size_t __cvta_generic_to_constant(const void *p) { size_t r; __asm__("cvta.to.const.u64 %0, %1;" : "=l"(r) : "l"(p)); return r; }
MC_DI void *__cvta_constant_to_generic(size_t a) { void *r; __asm__("cvta.const.u64 %0, %1;" : "=l"(r) : "l"(a)); return r; }
MC_DI size_t __cvta_generic_to_local(const void *p) { size_t r; __asm__("cvta.to.local.u64 %0, %1;" : "=l"(r) : "l"(p)); return r; }
MC_DI void *__cvta_local_to_generic(size_t a) { void *r; __asm__("cvta.local.u64 %0, %1;" : "=l"(r) : "l"(a)); return r; }
/* a kernel parameter declared __grid_constant__ whose address was taken */
MC_DI unsigned int __isGridConstant(const void *p)
{
   unsigned r;
   __asm__("{\n\t.reg .pred q;\n\tisspacep.param q, %1;\n\tselp.u32 %0, 1, 0, q;\n\t}" : "=r"(r) : "l"(p));
   return r;
}

/* ---- cache-hinted loads and stores: the hint changes no result here ---- */
#define MC_LDST(T)                                                                  \
   MC_DI T __ldcg(const T *p) { return *(const volatile T *)p; }                    \
   MC_DI T __ldca(const T *p) { return *p; }                                        \
   MC_DI T __ldcs(const T *p) { return *(const volatile T *)p; }                    \
   MC_DI T __ldlu(const T *p) { return *(const volatile T *)p; }                    \
   MC_DI T __ldcv(const T *p) { return *(const volatile T *)p; }                    \
   MC_DI void __stwb(T *p, T v) { *p = v; }                                         \
   MC_DI void __stcg(T *p, T v) { *(volatile T *)p = v; }                           \
   MC_DI void __stcs(T *p, T v) { *(volatile T *)p = v; }                           \
   MC_DI void __stwt(T *p, T v) { *(volatile T *)p = v; }
MC_LDST(char) MC_LDST(signed char) MC_LDST(unsigned char) MC_LDST(short) MC_LDST(unsigned short)
MC_LDST(int) MC_LDST(unsigned int) MC_LDST(long) MC_LDST(unsigned long) MC_LDST(long long)
MC_LDST(unsigned long long) MC_LDST(float) MC_LDST(double)
#undef MC_LDST

/* ---- misc ---- */
MC_DI unsigned int __lanemask_lt(void) { return __nvvm_read_ptx_sreg_lanemask_lt(); }
MC_DI unsigned int __lanemask_le(void) { return __nvvm_read_ptx_sreg_lanemask_le(); }
MC_DI unsigned int __lanemask_gt(void) { return __nvvm_read_ptx_sreg_lanemask_gt(); }
MC_DI unsigned int __lanemask_ge(void) { return __nvvm_read_ptx_sreg_lanemask_ge(); }
MC_DI unsigned int __lanemask_eq(void) { return __nvvm_read_ptx_sreg_lanemask_eq(); }

#undef MC_DI
#endif
