/*
 * intrin.cu — libdevice's integer, conversion and rounded-arithmetic
 * functions (device only): each is one PTX instruction through clang's
 * __nvvm_* builtins (brev, clz, popc, prmt, mul.hi, sad, cvt.r*.*, add.r*,
 * div.r*, ...).  Flush-to-zero variants are chosen by __nvvm_reflect, as
 * NVIDIA's libdevice does, so -ftz=true selects them.
 */
#include "devlib.h"

#if defined(__CUDA_ARCH__)
#define FTZ() __nvvm_reflect("__CUDA_FTZ")

DEV int __nv_brev(int x) { return (int)__builtin_bitreverse32((unsigned)x); }
DEV long long __nv_brevll(long long x) { return (long long)__builtin_bitreverse64((unsigned long long)x); }
DEV int __nv_clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
DEV int __nv_clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
DEV int __nv_popc(int x) { return __builtin_popcount((unsigned)x); }
DEV int __nv_popcll(long long x) { return __builtin_popcountll((unsigned long long)x); }
DEV int __nv_ffs(int x) { return x ? __builtin_ctz((unsigned)x) + 1 : 0; }
DEV int __nv_ffsll(long long x) { return x ? __builtin_ctzll((unsigned long long)x) + 1 : 0; }
/* CUDA's selector uses 3 bits a byte; prmt's 4th bit would replicate a sign */
DEV int __nv_byte_perm(int a, int b, int s) { return (int)__nvvm_prmt((unsigned)a, (unsigned)b, (unsigned)s & 0x7777u); }
DEV int __nv_mulhi(int a, int b) { return __nvvm_mulhi_i(a, b); }
DEV unsigned __nv_umulhi(unsigned a, unsigned b) { return __nvvm_mulhi_ui(a, b); }
DEV long long __nv_mul64hi(long long a, long long b) { return __nvvm_mulhi_ll(a, b); }
DEV unsigned long long __nv_umul64hi(unsigned long long a, unsigned long long b) { return __nvvm_mulhi_ull(a, b); }
DEV int __nv_mul24(int a, int b) { return __nvvm_mul24_i(a, b); }
DEV unsigned __nv_umul24(unsigned a, unsigned b) { return __nvvm_mul24_ui(a, b); }
DEV unsigned __nv_sad(int a, int b, unsigned c) { return (unsigned)(a > b ? a - b : b - a) + c; }
DEV unsigned __nv_usad(unsigned a, unsigned b, unsigned c) { return (a > b ? a - b : b - a) + c; }
DEV int __nv_hadd(int a, int b) { return (int)(((long long)a + b) >> 1); }
DEV int __nv_rhadd(int a, int b) { return (int)(((long long)a + b + 1) >> 1); }
DEV unsigned __nv_uhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b) >> 1); }
DEV unsigned __nv_urhadd(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a + b + 1) >> 1); }
DEV int __nv_abs(int x) { return x < 0 ? -x : x; }
DEV long long __nv_llabs(long long x) { return x < 0 ? -x : x; }
DEV int __nv_min(int a, int b) { return a < b ? a : b; }
DEV int __nv_max(int a, int b) { return a > b ? a : b; }
DEV unsigned __nv_umin(unsigned a, unsigned b) { return a < b ? a : b; }
DEV unsigned __nv_umax(unsigned a, unsigned b) { return a > b ? a : b; }
DEV long long __nv_llmin(long long a, long long b) { return a < b ? a : b; }
DEV long long __nv_llmax(long long a, long long b) { return a > b ? a : b; }
DEV unsigned long long __nv_ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
DEV unsigned long long __nv_ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* ---- reinterpretation ---- */
DEV int __nv_float_as_int(float x) { return (int)f2u(x); }
DEV unsigned __nv_float_as_uint(float x) { return f2u(x); }
DEV float __nv_int_as_float(int x) { return u2f((uint32_t)x); }
DEV float __nv_uint_as_float(unsigned x) { return u2f(x); }
DEV long long __nv_double_as_longlong(double x) { return (long long)d2u(x); }
DEV double __nv_longlong_as_double(long long x) { return u2d((uint64_t)x); }
DEV int __nv_double2hiint(double x) { return (int)(d2u(x) >> 32); }
DEV int __nv_double2loint(double x) { return (int)(uint32_t)d2u(x); }
DEV double __nv_hiloint2double(int hi, int lo) { return u2d(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo); }

/* ---- conversions in each rounding mode ----
 * As inline PTX, not clang's __nvvm_{i,ui,ll,ull}2{f,d}_r* builtins: LLVM 19
 * turns those into plain sitofp/uitofp, so __int2float_rz, __ll2double_rz
 * ... came out as cvt.rn (found comparing clang's PTX with nvcc's).  Each
 * line is the one instruction nvcc emits for the intrinsic. */
#define CVTA(name, R, T, CR, CT, ptx, sfx)                                                          \
   DEV R __nv_##name##_##sfx(T x) { R r; __asm__("cvt." ptx " %0, %1;" : "=" CR(r) : CT(x)); return r; }
#define CVT4A(name, R, T, CR, CT, mn, mz, md, mu, ty)                                               \
   CVTA(name, R, T, CR, CT, mn "." ty, rn) CVTA(name, R, T, CR, CT, mz "." ty, rz)                  \
   CVTA(name, R, T, CR, CT, md "." ty, rd) CVTA(name, R, T, CR, CT, mu "." ty, ru)
#define I2F(name, R, T, CR, CT, ty) CVT4A(name, R, T, CR, CT, "rn", "rz", "rm", "rp", ty)
#define F2I(name, R, T, CR, CT, ty) CVT4A(name, R, T, CR, CT, "rni", "rzi", "rmi", "rpi", ty)
F2I(float2int, int, float, "r", "f", "s32.f32")
F2I(float2uint, unsigned, float, "r", "f", "u32.f32")
F2I(float2ll, long long, float, "l", "f", "s64.f32")
F2I(float2ull, unsigned long long, float, "l", "f", "u64.f32")
F2I(double2int, int, double, "r", "d", "s32.f64")
F2I(double2uint, unsigned, double, "r", "d", "u32.f64")
F2I(double2ll, long long, double, "l", "d", "s64.f64")
F2I(double2ull, unsigned long long, double, "l", "d", "u64.f64")
I2F(double2float, float, double, "f", "d", "f32.f64")
I2F(int2float, float, int, "f", "r", "f32.s32")
I2F(uint2float, float, unsigned, "f", "r", "f32.u32")
I2F(ll2float, float, long long, "f", "l", "f32.s64")
I2F(ull2float, float, unsigned long long, "f", "l", "f32.u64")
I2F(ll2double, double, long long, "d", "l", "f64.s64")
I2F(ull2double, double, unsigned long long, "d", "l", "f64.u64")
DEV double __nv_int2double_rn(int x) { return (double)x; }
DEV double __nv_uint2double_rn(unsigned x) { return (double)x; }
DEV unsigned short __nv_float2half_rn(float x) { return __nvvm_f2h_rn(x); }
DEV float __nv_half2float(unsigned short h) { float r; __asm__("{ .reg .b16 t; mov.b16 t, %1; cvt.f32.f16 %0, t; }" : "=f"(r) : "h"(h)); return r; }

/* ---- rounded arithmetic ---- */
#define ARITH4F(name, b)                                                                            \
   DEV float __nv_f##name##_rn(float a, float c) { return FTZ() ? __nvvm_##b##_rn_ftz_f(a, c) : __nvvm_##b##_rn_f(a, c); } \
   DEV float __nv_f##name##_rz(float a, float c) { return FTZ() ? __nvvm_##b##_rz_ftz_f(a, c) : __nvvm_##b##_rz_f(a, c); } \
   DEV float __nv_f##name##_rd(float a, float c) { return FTZ() ? __nvvm_##b##_rm_ftz_f(a, c) : __nvvm_##b##_rm_f(a, c); } \
   DEV float __nv_f##name##_ru(float a, float c) { return FTZ() ? __nvvm_##b##_rp_ftz_f(a, c) : __nvvm_##b##_rp_f(a, c); } \
   DEV double __nv_d##name##_rn(double a, double c) { return __nvvm_##b##_rn_d(a, c); }           \
   DEV double __nv_d##name##_rz(double a, double c) { return __nvvm_##b##_rz_d(a, c); }           \
   DEV double __nv_d##name##_rd(double a, double c) { return __nvvm_##b##_rm_d(a, c); }           \
   DEV double __nv_d##name##_ru(double a, double c) { return __nvvm_##b##_rp_d(a, c); }
ARITH4F(add, add)
ARITH4F(mul, mul)
ARITH4F(div, div)
DEV float __nv_fsub_rn(float a, float b) { return __nv_fadd_rn(a, -b); }
DEV float __nv_fsub_rz(float a, float b) { return __nv_fadd_rz(a, -b); }
DEV float __nv_fsub_rd(float a, float b) { return __nv_fadd_rd(a, -b); }
DEV float __nv_fsub_ru(float a, float b) { return __nv_fadd_ru(a, -b); }
DEV double __nv_dsub_rn(double a, double b) { return __nvvm_add_rn_d(a, -b); }
DEV double __nv_dsub_rz(double a, double b) { return __nvvm_add_rz_d(a, -b); }
DEV double __nv_dsub_rd(double a, double b) { return __nvvm_add_rm_d(a, -b); }
DEV double __nv_dsub_ru(double a, double b) { return __nvvm_add_rp_d(a, -b); }
#define UN4(name, b)                                                                                \
   DEV float __nv_f##name##_rn(float a) { return FTZ() ? __nvvm_##b##_rn_ftz_f(a) : __nvvm_##b##_rn_f(a); } \
   DEV float __nv_f##name##_rz(float a) { return FTZ() ? __nvvm_##b##_rz_ftz_f(a) : __nvvm_##b##_rz_f(a); } \
   DEV float __nv_f##name##_rd(float a) { return FTZ() ? __nvvm_##b##_rm_ftz_f(a) : __nvvm_##b##_rm_f(a); } \
   DEV float __nv_f##name##_ru(float a) { return FTZ() ? __nvvm_##b##_rp_ftz_f(a) : __nvvm_##b##_rp_f(a); } \
   DEV double __nv_d##name##_rn(double a) { return __nvvm_##b##_rn_d(a); }                          \
   DEV double __nv_d##name##_rz(double a) { return __nvvm_##b##_rz_d(a); }                          \
   DEV double __nv_d##name##_rd(double a) { return __nvvm_##b##_rm_d(a); }                          \
   DEV double __nv_d##name##_ru(double a) { return __nvvm_##b##_rp_d(a); }
UN4(rcp, rcp)
UN4(sqrt, sqrt)
#define FMA4(name, b)                                                                               \
   DEV float __nv_##name##_rn(float a, float c, float d) { return FTZ() ? __nvvm_fma_rn_ftz_f(a, c, d) : __nvvm_fma_rn_f(a, c, d); } \
   DEV float __nv_##name##_rz(float a, float c, float d) { return FTZ() ? __nvvm_fma_rz_ftz_f(a, c, d) : __nvvm_fma_rz_f(a, c, d); } \
   DEV float __nv_##name##_rd(float a, float c, float d) { return FTZ() ? __nvvm_fma_rm_ftz_f(a, c, d) : __nvvm_fma_rm_f(a, c, d); } \
   DEV float __nv_##name##_ru(float a, float c, float d) { return FTZ() ? __nvvm_fma_rp_ftz_f(a, c, d) : __nvvm_fma_rp_f(a, c, d); }
FMA4(fmaf, b)
FMA4(fmaf_ieee, b)
DEV double __nv_fma_rn(double a, double b, double c) { return __nvvm_fma_rn_d(a, b, c); }
DEV double __nv_fma_rz(double a, double b, double c) { return __nvvm_fma_rz_d(a, b, c); }
DEV double __nv_fma_rd(double a, double b, double c) { return __nvvm_fma_rm_d(a, b, c); }
DEV double __nv_fma_ru(double a, double b, double c) { return __nvvm_fma_rp_d(a, b, c); }
/* 1/sqrt(x) correctly rounded, as NVIDIA's is (1/sqrtf(x) rounds twice and
 * is wrong for a quarter of all floats).  1/sqrt in double, rounded to float,
 * is right for every float: checked exhaustively on [1, 4) against an exact
 * integer test of the midpoints (every positive float is 4^k times one of
 * those, and the double steps scale exactly), no misrounded case. */
DEV float __nv_frsqrt_rn(float x)
{
   if (FTZ() && __builtin_fabsf(x) < 0x1p-126f)
      x = __builtin_copysignf(0.0f, x);
   return (float)(1.0 / __builtin_sqrt((double)x));
}
DEV float __nv_saturatef(float x) { return FTZ() ? __nvvm_saturate_ftz_f(x) : __nvvm_saturate_f(x); }
DEV double __nv_rcp64h(double x) { return 1.0 / x; }

/* ---- the fast approximate forms (-use_fast_math, __sinf ...) ----
 * The .ftz instructions only under -ftz (as nvcc: __expf is ex2.approx.f32,
 * keeping subnormal operands and results, unless -ftz=true). */
#define APPROX(op, x) (FTZ() ? __nvvm_##op##_approx_ftz_f(x) : __nvvm_##op##_approx_f(x))
DEVI float ex2_approx(float x) { float r; if (FTZ()) __asm__("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x)); else __asm__("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(x)); return r; }
DEVI float div_approx(float a, float b) { return FTZ() ? __nvvm_div_approx_ftz_f(a, b) : __nvvm_div_approx_f(a, b); }
DEV float __nv_fast_sinf(float x) { return APPROX(sin, x); }
DEV float __nv_fast_cosf(float x) { return APPROX(cos, x); }
DEV void __nv_fast_sincosf(float x, float *s, float *c) { *s = __nv_fast_sinf(x); *c = __nv_fast_cosf(x); }
DEV float __nv_fast_tanf(float x) { return div_approx(__nv_fast_sinf(x), __nv_fast_cosf(x)); }
DEV float __nv_fast_log2f(float x) { return APPROX(lg2, x); }
DEV float __nv_fast_logf(float x) { return APPROX(lg2, x) * 0x1.62e430p-1f; }
DEV float __nv_fast_log10f(float x) { return APPROX(lg2, x) * 0x1.344136p-2f; }
DEV float __nv_fast_expf(float x) { return ex2_approx(x * 0x1.715476p0f); }
DEV float __nv_fast_exp10f(float x) { return ex2_approx(x * 0x1.a934f0p1f); }
DEV float __nv_fast_powf(float x, float y) { return ex2_approx(APPROX(lg2, x) * y); }
DEV float __nv_fast_fdividef(float a, float b) { return div_approx(a, b); }
#endif
