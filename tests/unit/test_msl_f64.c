/*
 * test_msl_f64.c — the binary64 helpers of the MSL prelude (prelude/f64.metal:
 * IEEE f64 on integer operations, as Apple GPUs have no double) against
 * the host FPU, on every Metal device present.
 *
 * One kernel applies every helper, in every rounding mode, to operand
 * quadruples (a, b, c, k): add, sub, mul, div, fma, sqrt, rcp, rint,
 * f64→f32/f16, f64→s32/s64/u32/u64, u64/s64→f64, u64→f32, u17→f16 (k is
 * the integer operand), and once f32/f16→f64, the ordered comparisons,
 * min/max and .sat.  The operands mix uniform bit patterns with the cases that
 * break naive implementations: subnormals, exponents 0..70 apart, sums
 * that cancel exactly or nearly, fma with c next to -a·b or at the
 * product's last bit, exact quotients and squares and their neighbours,
 * products and quotients landing at the overflow and underflow boundaries,
 * ties of f32, f16 and the integers, integers near 2^53, 2^63 and 2^64.
 *
 * The reference never uses the code under test.  Arithmetic comes from
 * the host FPU in the wanted mode (fesetround + volatile operands; glibc's
 * fma() honours the mode, and where the compiler has __float128 every fma
 * is checked again, independently, through an exact product rounded to
 * odd in binary128).  Conversions to integers use nearbyint/trunc/floor/
 * ceil and range checks; f16 results round by scaling to the f16 quantum
 * and rounding to an integer there.  A NaN result is only checked to be
 * a NaN (the host's NaN operand rules are not NVIDIA's; tests/ptx checks
 * those against an H200), and 0xfff8000000000000 when no operand was a
 * NaN (an invalid operation).  f64→integer of a NaN gives 1 << (n-1), as
 * an H200 does (tests/ptx/cases/cvt_r?i_*_f64.ptx).
 *
 * MC_TEST_FULL=1 runs 8M quadruples instead of 256K.
 */
#include "test_msl_util.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
   OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FMA, OP_SQRT, OP_RCP, OP_RINT, OP_N32, OP_N16,
   OP_S32, OP_S64, OP_U32, OP_U64, OP_FU64, OP_FS64, OP_FU32F, OP_FU16H, NOPS4
};
/* Per quadruple: NOPS4 ops × 4 modes, then the single-mode results below. */
enum { X_W32, X_W16, X_EQ, X_LT, X_LE, X_GT, X_GE, X_MIN, X_MAX, X_SAT, NX };
#define W (NOPS4 * 4 + NX)
_Static_assert(W == 82, "the kernel's row length");
#define BATCH (1u << 16)   /* quadruples per dispatch: 41 MB of results */

static const char *const op_names[NOPS4] = {
   "add", "sub", "mul", "div", "fma", "sqrt", "rcp", "rint", "narrow.f32", "narrow.f16",
   "to_sint32", "to_sint64", "to_uint32", "to_uint64", "from_int.f64", "from_sint.f64",
   "from_int.f32(k, sign a)", "from_int.f16(k >> 47, sign a)",
};
static const char *const x_names[NX] = {
   "widen.f32(a >> 32)", "widen.f16(a & 0xffff)", "cmp.eq", "cmp.lt", "cmp.le", "cmp.gt(b, a)",
   "cmp.ge(b, a)", "min", "max", "sat",
};
static const char *const mode_names[4] = { "rn", "rz", "rm", "rp" };

static const char kernel_src[] =
   "kernel void f64_test(device const ulong *in [[buffer(0)]], device ulong *out [[buffer(1)]],\n"
   "                     constant uint &n [[buffer(2)]], uint gid [[thread_position_in_grid]])\n"
   "{\n"
   "    if (gid >= n) return;\n"
   "    ulong a = in[4u * gid], b = in[4u * gid + 1u], c = in[4u * gid + 2u], k = in[4u * gid + 3u];\n"
   "    device ulong *o = out + 82u * gid;\n"
   "    bool na = (a >> 63) != 0ul;\n"
   "    for (int m = 0; m < 4; m++) {\n"
   "        o[0 * 4 + m] = mc_d_add(a, b, m);\n"
   "        o[1 * 4 + m] = mc_d_sub(a, b, m);\n"
   "        o[2 * 4 + m] = mc_d_mul(a, b, m);\n"
   "        o[3 * 4 + m] = mc_d_div(a, b, m);\n"
   "        o[4 * 4 + m] = mc_d_fma(a, b, c, m);\n"
   "        o[5 * 4 + m] = mc_d_sqrt(a, m);\n"
   "        o[6 * 4 + m] = mc_d_rcp(a, m);\n"
   "        o[7 * 4 + m] = mc_d_rint(a, m);\n"
   "        o[8 * 4 + m] = mc_d_narrow(a, m, MC_D_FMT_F32);\n"
   "        o[9 * 4 + m] = mc_d_narrow(a, m, MC_D_FMT_F16);\n"
   "        o[10 * 4 + m] = mc_d_to_sint(a, m, 32);\n"
   "        o[11 * 4 + m] = mc_d_to_sint(a, m, 64);\n"
   "        o[12 * 4 + m] = mc_d_to_uint(a, m, 32);\n"
   "        o[13 * 4 + m] = mc_d_to_uint(a, m, 64);\n"
   "        o[14 * 4 + m] = mc_d_from_int(k, false, m, MC_D_FMT_F64);\n"
   "        o[15 * 4 + m] = mc_d_from_sint(as_type<long>(k), m);\n"
   "        o[16 * 4 + m] = mc_d_from_int(k, na, m, MC_D_FMT_F32);\n"
   "        o[17 * 4 + m] = mc_d_from_int(k >> 47, na, m, MC_D_FMT_F16);\n"
   "    }\n"
   "    device ulong *x = o + 72;\n"
   "    x[0] = mc_d_widen((uint)(a >> 32), MC_D_FMT_F32);\n"
   "    x[1] = mc_d_widen((uint)a & 0xffffu, MC_D_FMT_F16);\n"
   "    x[2] = mc_d_cmp(a, b, 0) ? 1ul : 0ul;\n"
   "    x[3] = mc_d_cmp(a, b, 1) ? 1ul : 0ul;\n"
   "    x[4] = mc_d_cmp(a, b, 2) ? 1ul : 0ul;\n"
   "    x[5] = mc_d_cmp(b, a, 1) ? 1ul : 0ul;\n"
   "    x[6] = mc_d_cmp(b, a, 2) ? 1ul : 0ul;\n"
   "    x[7] = mc_d_minmax(a, b, false);\n"
   "    x[8] = mc_d_minmax(a, b, true);\n"
   "    x[9] = mc_d_sat(a);\n"
   "}\n";

/* ---- the host reference ---- */

#define SIGN 0x8000000000000000ull
#define INVALID 0xfff8000000000000ull

static const int fe_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static double d_of(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint64_t u_of(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t fu_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static bool is_nan64(uint64_t u) { return (u & ~SIGN) > 0x7ff0000000000000ull; }

/* f64 op in mode m on the host FPU. */
static uint64_t fpu_f64(int op, uint64_t a, uint64_t b, uint64_t c, int m)
{
   volatile double va = d_of(a), vb = d_of(b), vc = d_of(c), r = 0.0;
   fesetround(fe_modes[m]);
   switch (op) {
   case OP_ADD: r = va + vb; break;
   case OP_SUB: r = va - vb; break;
   case OP_MUL: r = va * vb; break;
   case OP_DIV: r = va / vb; break;
   case OP_FMA: r = fma(va, vb, vc); break;
   case OP_SQRT: r = sqrt(va); break;
   case OP_RCP: r = 1.0 / va; break;
   }
   fesetround(FE_TONEAREST);
   return u_of(r);
}

#if defined(__SIZEOF_FLOAT128__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HAVE_F128_FMA 1
/* fma again, without fma(): a·b is exact in binary128 (106 bits), the sum
 * is rounded to odd there (113 bits, more than 53 + 1), then rounded once
 * more to double in mode m, which is then exact.  Finite operands only. */
static uint64_t f128_fma(uint64_t a, uint64_t b, uint64_t c, int m)
{
   double x = d_of(a), y = d_of(b), z = d_of(c);
   volatile __float128 p = (__float128)x * (__float128)y, vz = z, s;
   fesetround(FE_TOWARDZERO);
   feclearexcept(FE_INEXACT);
   s = p + vz;
   bool inexact = fetestexcept(FE_INEXACT) != 0;
   fesetround(FE_TONEAREST);
   __float128 r = s;
   if (inexact) {   /* set the last bit of binary128's significand: round to odd */
      unsigned char bytes[16];
      memcpy(bytes, (const void *)&r, 16);
      bytes[0] |= 1;   /* little-endian: the significand's lowest byte */
      memcpy(&r, bytes, 16);
   }
   if (r == 0) {   /* an exact zero: its sign follows IEEE 754 §6.3 */
      bool same = x * y == 0 && z == 0 && signbit(x * y) == signbit(z);
      return same ? u_of(z) : m == 2 ? SIGN : 0;
   }
   volatile __float128 vr = r;
   volatile double d;
   fesetround(fe_modes[m]);
   d = (double)vr;
   fesetround(FE_TONEAREST);
   return u_of(d);
}
#endif

/* d rounded to an integral double: 0 nearest even, 1 towards zero, 2 down, 3 up. */
static double round_int(double d, int m)
{
   switch (m) {
   case 1: return trunc(d);
   case 2: return floor(d);
   case 3: return ceil(d);
   }
   fesetround(FE_TONEAREST);
   return nearbyint(d);
}

static uint64_t ref_to_int(uint64_t a, int m, int n, bool is_signed)
{
   uint64_t mask = n == 64 ? ~0ull : (1ull << n) - 1;
   if (is_nan64(a))
      return (1ull << (n - 1)) & mask;   /* an H200's answer */
   double r = round_int(d_of(a), m), half = ldexp(1.0, n - 1);
   if (is_signed) {
      if (r < -half) return (1ull << (n - 1)) & mask;
      if (r >= half) return ((1ull << (n - 1)) - 1) & mask;
      return (uint64_t)(int64_t)r & mask;
   }
   if (r <= 0) return 0;
   if (r >= 2 * half) return mask;
   return (uint64_t)r;
}

/* An exact double (or ≥ 65536 when it is too big for f16 in any case)
 * rounded to f16 in mode m: scaled so that the f16 quantum at its
 * magnitude is 1, rounded to an integer, scaled back.  NaN: 0x7fff. */
static uint64_t ref_to_f16(double d, int m)
{
   if (isnan(d)) return 0x7fff;
   uint64_t s = signbit(d) ? 0x8000 : 0;
   if (isinf(d)) return s | 0x7c00;
   if (d == 0) return s;
   int q = (ilogb(d) > -14 ? ilogb(d) : -14) - 10;   /* the quantum's exponent */
   double v = fabs(ldexp(round_int(ldexp(d, -q), m), q));   /* exact */
   if (v >= 65536.0) {
      bool away = m == 0 || (m == 3 && !s) || (m == 2 && s);
      return s | (away ? 0x7c00 : 0x7bff);
   }
   if (v < 0x1p-14)
      return s | (uint64_t)ldexp(v, 24);   /* subnormal (or zero) */
   int e = ilogb(v);
   return s | (uint64_t)(e + 15) << 10 | ((uint64_t)ldexp(v, 10 - e) - 1024);
}

/* k as f64 (signed or not) in mode m. */
static uint64_t ref_from_int(uint64_t k, bool is_signed, int m)
{
   volatile uint64_t vu = k;
   volatile int64_t vs = (int64_t)k;
   volatile double r;
   fesetround(fe_modes[m]);
   r = is_signed ? (double)vs : (double)vu;
   fesetround(FE_TONEAREST);
   return u_of(r);
}

/* The magnitude v with sign neg as f32 in mode m: the magnitude rounded in
 * the mode mirrored for negatives, then negated (exact). */
static uint64_t ref_from_int_f32(uint64_t v, bool neg, int m)
{
   static const int mirror[4] = { 0, 1, 3, 2 };
   if (v == 0) return 0;
   volatile uint64_t vv = v;
   volatile float r;
   fesetround(fe_modes[neg ? mirror[m] : m]);
   r = (float)vv;
   fesetround(FE_TONEAREST);
   return fu_of(neg ? -r : r);
}

static uint64_t ref_from_int_f16(uint64_t v, bool neg, int m)
{
   if (v == 0) return 0;
   double d = (double)v;   /* exact: v < 2^17 */
   return ref_to_f16(neg ? -d : d, m);
}

static uint64_t ref_narrow_f32(uint64_t a, int m)
{
   volatile double va = d_of(a);
   volatile float r;
   fesetround(fe_modes[m]);
   r = (float)va;
   fesetround(FE_TONEAREST);
   return fu_of(r);
}

static double f16_to_double(uint32_t h)
{
   uint32_t e = (h >> 10) & 0x1f, f = h & 0x3ff;
   double v = e == 31 ? (f ? NAN : INFINITY) : e ? ldexp(1024 + f, (int)e - 25) : ldexp(f, -24);
   return h & 0x8000 ? -v : v;
}

static uint64_t ref_rint(uint64_t a, int m)
{
   return u_of(round_int(d_of(a), m));
}

static uint64_t ref_minmax(uint64_t a, uint64_t b, bool is_max)
{
   double x = d_of(a), y = d_of(b);
   if (isnan(x) && isnan(y)) return INVALID;   /* some NaN: only that is checked */
   if (isnan(x) || isnan(y)) return isnan(x) ? b : a;
   if (x < y) return is_max ? b : a;
   if (y < x) return is_max ? a : b;
   if (a == b) return a;
   return is_max ? 0 : SIGN;   /* -0 and +0 */
}

/* .sat: clamped to [0, 1], NaN to +0 (PTX ISA); -0 to +0 as an H200 does
 * for f32 (__saturatef(-0.0), tests/cuda/floatops.cu; for f64 unmeasured). */
static uint64_t ref_sat(uint64_t a)
{
   double x = d_of(a);
   return isnan(x) || x <= 0 ? 0 : x > 1 ? u_of(1.0) : a;
}

/* ---- checking ---- */

typedef struct checker {
   const char *dev;
   uint64_t a, b, c, k;
   long bad;
   int ref_bad;   /* the two fma references disagree */
   bool shown[W];
} checker;

/* What a result of op looks like: 64, 32 or 16 bits of float, or an integer. */
enum { K_F64, K_F32, K_F16, K_INT };

static bool nan_of(uint64_t u, int kind)
{
   switch (kind) {
   case K_F32: return (u & 0x7fffffff) > 0x7f800000 && u <= 0xffffffff;
   case K_F16: return (u & 0x7fff) > 0x7c00 && u <= 0xffff;
   case K_F64: return is_nan64(u);
   }
   return false;
}

/* got against want for row slot i; nan_in: an operand was a NaN. */
static void check(checker *ck, int i, int kind, uint64_t got, uint64_t want, bool nan_in)
{
   bool ok;
   if (nan_of(want, kind))
      ok = nan_in ? nan_of(got, kind) : got == INVALID;
   else
      ok = got == want;
   if (ok)
      return;
   ck->bad++;
   if (ck->shown[i])
      return;
   ck->shown[i] = true;
   const char *name = i < NOPS4 * 4 ? op_names[i / 4] : x_names[i - NOPS4 * 4];
   printf("    %s: %s%s%s(a=%#llx, b=%#llx, c=%#llx, k=%#llx): got %#llx, expected %#llx%s\n", ck->dev, name,
          i < NOPS4 * 4 ? "." : "", i < NOPS4 * 4 ? mode_names[i % 4] : "", (unsigned long long)ck->a,
          (unsigned long long)ck->b, (unsigned long long)ck->c, (unsigned long long)ck->k,
          (unsigned long long)got, (unsigned long long)want,
          nan_of(want, kind) ? (nan_in ? " (any NaN)" : " (the invalid-operation NaN)") : "");
}

/* The reference row of one quadruple, checked against the device's g. */
static void check_quad(checker *ck, const uint64_t *g)
{
   uint64_t a = ck->a, b = ck->b, c = ck->c, k = ck->k;
   bool an = is_nan64(a), bn = is_nan64(b), cn = is_nan64(c), neg = a >> 63;
   for (int m = 0; m < 4; m++) {
      const uint64_t *r = g + m;
      check(ck, OP_ADD * 4 + m, K_F64, r[OP_ADD * 4], fpu_f64(OP_ADD, a, b, c, m), an || bn);
      check(ck, OP_SUB * 4 + m, K_F64, r[OP_SUB * 4], fpu_f64(OP_SUB, a, b, c, m), an || bn);
      check(ck, OP_MUL * 4 + m, K_F64, r[OP_MUL * 4], fpu_f64(OP_MUL, a, b, c, m), an || bn);
      check(ck, OP_DIV * 4 + m, K_F64, r[OP_DIV * 4], fpu_f64(OP_DIV, a, b, c, m), an || bn);
      uint64_t f = fpu_f64(OP_FMA, a, b, c, m);
#ifdef HAVE_F128_FMA
      if (isfinite(d_of(a)) && isfinite(d_of(b)) && isfinite(d_of(c)) && f128_fma(a, b, c, m) != f &&
          ck->ref_bad++ < 5)
         printf("    reference disagrees with itself: fma.%s(%#llx, %#llx, %#llx): fma() %#llx, binary128 %#llx\n",
                mode_names[m], (unsigned long long)a, (unsigned long long)b, (unsigned long long)c,
                (unsigned long long)f, (unsigned long long)f128_fma(a, b, c, m));
#endif
      check(ck, OP_FMA * 4 + m, K_F64, r[OP_FMA * 4], f, an || bn || cn);
      check(ck, OP_SQRT * 4 + m, K_F64, r[OP_SQRT * 4], fpu_f64(OP_SQRT, a, b, c, m), an);
      check(ck, OP_RCP * 4 + m, K_F64, r[OP_RCP * 4], fpu_f64(OP_RCP, a, b, c, m), an);
      check(ck, OP_RINT * 4 + m, K_F64, r[OP_RINT * 4], ref_rint(a, m), an);
      check(ck, OP_N32 * 4 + m, K_F32, r[OP_N32 * 4], ref_narrow_f32(a, m), an);
      check(ck, OP_N16 * 4 + m, K_F16, r[OP_N16 * 4], ref_to_f16(d_of(a), m), an);
      check(ck, OP_S32 * 4 + m, K_INT, r[OP_S32 * 4] & 0xffffffffu, ref_to_int(a, m, 32, true), false);
      check(ck, OP_S64 * 4 + m, K_INT, r[OP_S64 * 4], ref_to_int(a, m, 64, true), false);
      check(ck, OP_U32 * 4 + m, K_INT, r[OP_U32 * 4] & 0xffffffffu, ref_to_int(a, m, 32, false), false);
      check(ck, OP_U64 * 4 + m, K_INT, r[OP_U64 * 4], ref_to_int(a, m, 64, false), false);
      check(ck, OP_FU64 * 4 + m, K_F64, r[OP_FU64 * 4], ref_from_int(k, false, m), false);
      check(ck, OP_FS64 * 4 + m, K_F64, r[OP_FS64 * 4], ref_from_int(k, true, m), false);
      check(ck, OP_FU32F * 4 + m, K_F32, r[OP_FU32F * 4], ref_from_int_f32(k, neg, m), false);
      check(ck, OP_FU16H * 4 + m, K_F16, r[OP_FU16H * 4], ref_from_int_f16(k >> 47, neg, m), false);
   }
   const uint64_t *x = g + NOPS4 * 4;
   double da = d_of(a), db = d_of(b);
   uint32_t a32 = (uint32_t)(a >> 32), a16 = (uint32_t)a & 0xffff;
   check(ck, NOPS4 * 4 + X_W32, K_F64, x[X_W32], u_of((double)f_of(a32)), nan_of(a32, K_F32));
   check(ck, NOPS4 * 4 + X_W16, K_F64, x[X_W16], u_of(f16_to_double(a16)), nan_of(a16, K_F16));
   check(ck, NOPS4 * 4 + X_EQ, K_INT, x[X_EQ], da == db, false);
   check(ck, NOPS4 * 4 + X_LT, K_INT, x[X_LT], da < db, false);
   check(ck, NOPS4 * 4 + X_LE, K_INT, x[X_LE], da <= db, false);
   check(ck, NOPS4 * 4 + X_GT, K_INT, x[X_GT], db < da, false);
   check(ck, NOPS4 * 4 + X_GE, K_INT, x[X_GE], db <= da, false);
   check(ck, NOPS4 * 4 + X_MIN, K_F64, x[X_MIN], ref_minmax(a, b, false), true);
   check(ck, NOPS4 * 4 + X_MAX, K_F64, x[X_MAX], ref_minmax(a, b, true), true);
   check(ck, NOPS4 * 4 + X_SAT, K_F64, x[X_SAT], ref_sat(a), false);
}

/* ---- operands ---- */

static uint64_t rng_state;
static uint64_t rnd64(void)
{
   rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
   uint64_t x = rng_state;
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdull;
   x ^= x >> 33;
   x *= 0xc4ceb9fe1a85ec53ull;
   return x ^ (x >> 33);
}
static int rnd_in(int lo, int hi) { return lo + (int)(rnd64() % (uint64_t)(hi - lo + 1)); }

static const uint64_t specials[] = {
   0x0000000000000000, 0x8000000000000000, 0x3ff0000000000000, 0xbff0000000000000, 0x7ff0000000000000,
   0xfff0000000000000, 0x7ff8000000000000, 0xfff8000000000001, 0x7ff0000000000001, 0xfff4000000000000,
   0x0000000000000001, 0x8000000000000001, 0x000fffffffffffff, 0x0010000000000000, 0x0010000000000001,
   0x7fefffffffffffff, 0xffefffffffffffff, 0x7fe0000000000000, 0x3ff0000000000001, 0x3fefffffffffffff,
   0x3fe0000000000000, 0xbfe0000000000000, 0x3ff8000000000000, 0x4004000000000000, 0x4340000000000000,
   0x433fffffffffffff, 0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000, 0x41e0000000000000,
   0xc1e0000000000000, 0x41f0000000000000, 0x47efffffe0000000, 0x47efffffd0000000, 0x36a0000000000000,
   0x3690000000000000, 0x40effc0000000000, 0x40effe0000000000, 0x3e70000000000000, 0x3e60000000000000,
};

/* A double with a random mantissa and sign, exponent e (unbiased; below
 * -1022 a subnormal). */
static uint64_t with_exp(int e)
{
   uint64_t m = rnd64() & 0xfffffffffffffull;
   if (rnd64() % 4 == 0)   /* few bits: exact results and ties */
      m &= rnd64() % 2 ? 0xff00000000000ull : 0xfffffe0000000ull;
   uint64_t s = rnd64() & SIGN;
   int f = e + 1023;
   if (f <= 0) {
      int sh = 1 - f;
      return s | (sh < 64 ? (m | 1ull << 52) >> sh : 0);
   }
   return s | (uint64_t)(f >= 2047 ? 2046 : f) << 52 | m;
}

static int exp_of(uint64_t u)
{
   double d = d_of(u);
   return d == 0 || !isfinite(d) ? 0 : ilogb(d);
}

/* Values next to the integers where the conversions saturate or lose bits. */
static uint64_t near_int(void)
{
   static const int at[] = { 31, 32, 52, 53, 54, 63, 64 };
   double base = ldexp(1.0, at[rnd64() % ARRAY_SIZE(at)]);
   double d = base + (double)rnd_in(-3, 3) * (rnd64() % 2 ? 1.0 : 0.5);
   uint64_t u = u_of(rnd64() % 2 ? -d : d);
   return u + (uint64_t)(int64_t)rnd_in(-1, 1);
}

/* A tie of f32 or f16, or next to one: a value of the narrow format plus
 * half its quantum (normal or subnormal), ±1 ulp of double. */
static uint64_t narrow_tie(void)
{
   bool f16 = rnd64() % 2;
   int quantum;
   double v;
   if (rnd64() % 3 == 0) {   /* the subnormal range */
      quantum = f16 ? -24 : -149;
      v = ldexp((double)(rnd64() % (f16 ? 1024 : 1u << 23)), quantum);
   } else {
      int e = f16 ? rnd_in(-14, 15) : rnd_in(-126, 127);
      quantum = e - (f16 ? 10 : 23);
      v = ldexp((double)((rnd64() % (f16 ? 1024 : 1u << 23)) | (f16 ? 1024 : 1u << 23)), quantum);
   }
   uint64_t u = u_of(v + ldexp(1.0, quantum - 1)) | (rnd64() & SIGN);
   return u + (uint64_t)(int64_t)rnd_in(-1, 1);
}

static uint64_t pick_one(void)
{
   uint32_t k = rnd64() % 16;
   if (k < 3) return rnd64();
   if (k < 5) return specials[rnd64() % ARRAY_SIZE(specials)];
   if (k < 7) return with_exp(rnd_in(-1080, -1015));   /* subnormal and the lowest normals */
   if (k < 8) return with_exp(rnd_in(960, 1023));      /* near overflow */
   if (k < 9) return with_exp(rnd_in(-155, -120) + (rnd64() % 2 ? 0 : 250));   /* f32's edges */
   if (k < 10) return with_exp(rnd_in(-26, 17));       /* f16's range */
   if (k < 11) return near_int();
   if (k < 12) return narrow_tie();
   return with_exp(rnd_in(-30, 70));
}

/* The integer operand k: any width, ties of f64/f32/f16, the edges. */
static uint64_t pick_int(void)
{
   uint64_t v;
   switch (rnd64() % 8) {
   case 0: return rnd64();
   case 1: return rnd64() >> (rnd64() % 64);
   case 2: {   /* p significant bits, then exactly half (or next to it) */
      static const int prec[] = { 53, 24 };
      int p = prec[rnd64() % 2], sh = rnd_in(1, 64 - p);
      v = (rnd64() | SIGN) >> (64 - p - sh) >> sh << sh;
      v |= 1ull << (sh - 1);
      return v + (uint64_t)(int64_t)rnd_in(-1, 1);
   }
   case 3: {   /* 2^53, 2^63, 2^64 and their neighbours, either sign */
      static const int at[] = { 53, 54, 62, 63, 64 };
      int e = at[rnd64() % ARRAY_SIZE(at)];
      v = (e == 64 ? 0 : 1ull << e) + (uint64_t)(int64_t)rnd_in(-5, 5);
      return rnd64() % 2 ? 0 - v : v;
   }
   default: {   /* f16's operand (bits 47..63): ties, 65504..65536, overflow */
      uint64_t h = rnd64() % 4 == 0 ? (uint64_t)rnd_in(65500, 65540) : rnd64() >> (47 + rnd64() % 17);
      if (rnd64() % 2 && h > 2048)
         h |= 1;
      return h << 47 | (rnd64() >> (rnd64() % 2 ? 17 : 63));
   }
   }
}

static void make_quad(uint64_t *t)
{
   for (int i = 0; i < 3; i++)
      t[i] = pick_one();
   t[3] = pick_int();
   int ea = exp_of(t[0]);
   double a = d_of(t[0]), b = d_of(t[1]);
   switch (rnd64() % 10) {
   case 0:   /* b's exponent 0..70 from a's: alignment, cancellation */
      t[1] = with_exp(ea + rnd_in(-70, 70));
      break;
   case 1:   /* b = ±a ± a few ulps: exact and near cancellation */
      t[1] = (t[0] ^ (rnd64() % 4 ? SIGN : 0)) + (uint64_t)(int64_t)rnd_in(-3, 3);
      break;
   case 2: {   /* c = -(a·b) ± a few ulps: fma cancels to the product's rounding error */
      double p = a * b;
      if (isfinite(p) && p != 0)
         t[2] = u_of(-p) + (uint64_t)(int64_t)rnd_in(-2, 2);
      break;
   }
   case 3: {   /* c at a·b's last bits: fma's sticky and halfway cases */
      double p = a * b;
      if (isfinite(p) && p != 0)
         t[2] = with_exp(ilogb(p) + rnd_in(-60, -50));
      break;
   }
   case 4: {   /* a = b·q exactly: exact quotients */
      double q = d_of(with_exp(rnd_in(-20, 20)) & 0xfffff00000000000ull);
      double p = d_of(t[1] & 0xffffffff00000000ull) * q;
      if (isfinite(p) && p != 0) {
         t[1] &= 0xffffffff00000000ull;
         t[0] = u_of(p);
      }
      break;
   }
   case 5: {   /* a = x² (sqrt exact) or next to it */
      double x = d_of(t[1] & 0x7ffffffff8000000ull);
      double p = x * x;
      if (isfinite(p) && p != 0)
         t[0] = u_of(p) + (uint64_t)(int64_t)rnd_in(-1, 1);
      break;
   }
   case 6:   /* a·b's exponent at -1022..-1076 or 1022..1024 */
      t[1] = with_exp((rnd64() % 2 ? rnd_in(-1076, -1022) : rnd_in(1022, 1024)) - ea + rnd_in(-1, 0));
      break;
   case 7:   /* a/b's exponent there */
      t[1] = with_exp(ea - (rnd64() % 2 ? rnd_in(-1076, -1022) : rnd_in(1022, 1024)) + rnd_in(0, 1));
      break;
   default:
      break;
   }
}

/* ---- the test ---- */

/* The prelude's two forms: on the software device the host's double
 * arithmetic (its metal_stdlib defines __MC_SOFT_HOST_F64), and the integer
 * code Apple GPUs run, which every device can compile. */
static const struct { const char *name, *pre; } forms[] = {
   { "", "" },
   { " (integer form)", "#undef __MC_SOFT_HOST_F64\n" },
};

static bool run_device(mtl_device *dev, int form, uint32_t n, long *bad_out)
{
   mtl_device_info info;
   mtl_device_get_info(dev, &info);
   char dev_name[160];
   snprintf(dev_name, sizeof(dev_name), "%s%s", info.name, forms[form].name);
   mtl_pipeline *p = tm_pipeline_pre(dev, forms[form].pre, kernel_src, "f64_test");
   if (!p)
      return false;
   mtl_buffer *in = mtl_buffer_new(dev, (size_t)BATCH * 32, NULL);
   mtl_buffer *out = mtl_buffer_new(dev, (size_t)BATCH * W * 8, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   if (!p || !in || !out || !q) {
      test_fail_(__FILE__, __LINE__, "%s: could not set up the kernel", info.name);
      return false;
   }
   uint64_t *t = mtl_buffer_contents(in), *o = mtl_buffer_contents(out);
   checker ck = { .dev = dev_name };
   rng_state = 0x243f6a8885a308d3ull;
   bool ok = true;
   for (uint32_t done = 0; ok && done < n; done += BATCH) {
      uint32_t cnt = n - done < BATCH ? n - done : BATCH;
      for (uint32_t i = 0; i < cnt; i++)
         make_quad(t + 4 * i);
      memset(o, 0xde, (size_t)cnt * W * 8);
      ok = tm_dispatch(q, p, in, out, cnt);
      for (uint32_t i = 0; ok && i < cnt; i++) {
         ck.a = t[4 * i], ck.b = t[4 * i + 1], ck.c = t[4 * i + 2], ck.k = t[4 * i + 3];
         check_quad(&ck, o + (size_t)W * i);
      }
   }
   if (ck.ref_bad)
      test_fail_(__FILE__, __LINE__, "the host reference disagrees with itself %d times", ck.ref_bad);
   *bad_out = ck.bad;
   mtl_queue_release(q);
   mtl_buffer_release(in);
   mtl_buffer_release(out);
   mtl_pipeline_release(p);
   return ok && !ck.ref_bad;
}

TEST(f64_helpers_exact)
{
   const char *full = getenv("MC_TEST_FULL");
   uint32_t n = full && *full && strcmp(full, "0") ? 1u << 23 : 1u << 18;
   for (uint32_t d = 0; d < mtl_device_count(); d++)
      for (int f = 0; f < (int)(sizeof(forms) / sizeof(forms[0])); f++) {
         long bad = 0;
         if (!run_device(mtl_device_get(d), f, n, &bad))
            return;
         CHECK_MSG(bad == 0, "%s: %ld of %u×%d results differ from the host reference (the first of each op and mode are shown above)",
                   forms[f].name, bad, n, W);
      }
}
