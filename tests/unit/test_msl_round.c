/*
 * test_msl_round.c — the exact-rounding helpers of the MSL prelude
 * (prelude/round.metal, and min/max of float.metal) against an exact host
 * reference, on every Metal device present (on macOS the Apple GPUs too:
 * this is the test that shows the helpers hold on the hardware).
 *
 * One kernel applies every helper, in every rounding mode, to operand
 * triples (a, b, c): f32 add/mul/div/sqrt/fma, f32→f16/bf16 conversions,
 * s32/u32/s64/u64→f32/f16/bf16 conversions, bf16 add/mul/fma, f16 fma and
 * min/max with .NaN/.xorsign.abs.  The operands mix uniform bit patterns
 * with the cases that break naive implementations: subnormals, operands
 * whose exponents differ by 20..60, results next to overflow and underflow,
 * exact ties of the narrow formats, cancelling fma and exact quotients.
 *
 * The reference never uses the code under test.  f32 results come from the
 * host FPU in the wanted mode (fesetround + volatile operands), and again,
 * independently, from the exact result rounded to odd in double (double's
 * 53 bits hold the result of a round-to-odd with more than 24+1 bits, so
 * rounding it again in any mode is exact); f16/bf16 results round the
 * round-to-odd double by searching a table of every value of the format.
 *
 * MC_TEST_FULL=1 runs 8M triples instead of 256K.
 */
#include "test_msl_util.h"

#include <fenv.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { OP_ADD, OP_MUL, OP_DIV, OP_SQRT, OP_FMA, OP_F2H, OP_F2BF, OP_S32, OP_U32, OP_S64, OP_U64H, OP_S64BF, NOPS4 };
/* Per triple: NOPS4 ops × 4 modes, then the single-mode results below. */
enum { X_ADD_BF, X_MUL_BF, X_FMA_BF, X_FMA_H, X_MIN, X_MAX, X_MIN_NAN, X_MAX_XS, X_MIN_H_XS, X_MAX_BF_NAN, NX };
#define W (NOPS4 * 4 + NX)
_Static_assert(W == 58, "the kernel's row length");

static const char *const op_names[NOPS4] = {
   "add.f32", "mul.f32", "div.f32", "sqrt.f32", "fma.f32", "cvt.f16.f32", "cvt.bf16.f32",
   "cvt.f32.s32", "cvt.f32.u32", "cvt.f32.s64", "cvt.f16.u64", "cvt.bf16.s64",
};
static const char *const x_names[NX] = {
   "add.bf16", "mul.bf16", "fma.rn.bf16", "fma.rn.f16", "min.f32", "max.f32", "min.NaN.f32",
   "max.xorsign.abs.f32", "min.xorsign.abs.f16", "max.NaN.bf16",
};
static const char *const mode_names[4] = { "rn", "rz", "rm", "rp" };

static const char kernel_src[] =
   "kernel void rnd_test(device const uint *in [[buffer(0)]], device uint *out [[buffer(1)]],\n"
   "                     constant uint &n [[buffer(2)]], uint gid [[thread_position_in_grid]])\n"
   "{\n"
   "    if (gid >= n) return;\n"
   "    uint a = in[3u * gid], b = in[3u * gid + 1u], c = in[3u * gid + 2u];\n"
   "    device uint *o = out + 58u * gid;\n"
   "    for (int m = 0; m < 4; m++) {\n"
   "        o[0 * 4 + m] = mc_add_rnd(a, b, m);\n"
   "        o[1 * 4 + m] = mc_mul_rnd(a, b, m);\n"
   "        o[2 * 4 + m] = mc_div_rnd(a, b, m);\n"
   "        o[3 * 4 + m] = mc_sqrt_rnd(a, m);\n"
   "        o[4 * 4 + m] = mc_fma_rnd(a, b, c, m);\n"
   "        o[5 * 4 + m] = mc_f2h_rnd(a, m);\n"
   "        o[6 * 4 + m] = mc_f2bf_rnd(a, m);\n"
   "        o[7 * 4 + m] = mc_cvt_s64((long)as_type<int>(b), m, MC_FMT_F32);\n"
   "        o[8 * 4 + m] = mc_cvt_u64((ulong)c, m, MC_FMT_F32);\n"
   "        o[9 * 4 + m] = mc_cvt_s64(as_type<long>(((ulong)a << 32) | (ulong)b), m, MC_FMT_F32);\n"
   "        o[10 * 4 + m] = mc_cvt_u64(((ulong)b << 32) | (ulong)c, m, MC_FMT_F16);\n"
   "        o[11 * 4 + m] = mc_cvt_s64(as_type<long>(((ulong)c << 32) | (ulong)a), m, MC_FMT_BF16);\n"
   "    }\n"
   "    ushort ah = (ushort)(a >> 16), bh = (ushort)(b >> 16), ch = (ushort)(c >> 16);\n"
   "    device uint *x = o + 48;\n"
   "    x[0] = mc_add_bf16(ah, bh);\n"
   "    x[1] = mc_mul_bf16(ah, bh);\n"
   "    x[2] = mc_fma_bf16(ah, bh, ch);\n"
   "    x[3] = mc_fma_f16((ushort)a, (ushort)b, (ushort)c);\n"
   "    x[4] = mc_minmax(a, b, 0, false, false, false);\n"
   "    x[5] = mc_minmax(a, b, 0, true, false, false);\n"
   "    x[6] = mc_minmax(a, b, 0, false, true, false);\n"
   "    x[7] = mc_minmax(a, b, 0, true, false, true);\n"
   "    x[8] = mc_minmax((ushort)a, (ushort)b, 1, false, false, true);\n"
   "    x[9] = mc_minmax(ah, bh, 2, true, true, false);\n"
   "}\n";

/* ---- the host reference ---- */

static const int fe_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static float f_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t u_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t canon32(float f) { return isnan(f) ? 0x7fffffffu : u_of(f); }

/* f32 op in mode m on the host FPU. */
static uint32_t fpu_f32(int op, uint32_t a, uint32_t b, uint32_t c, int m)
{
   volatile float va = f_of(a), vb = f_of(b), vc = f_of(c), r = 0.0f;
   fesetround(fe_modes[m]);
   switch (op) {
   case OP_ADD: r = va + vb; break;
   case OP_MUL: r = va * vb; break;
   case OP_DIV: r = va / vb; break;
   case OP_SQRT: r = sqrtf(va); break;
   case OP_FMA: r = fmaf(va, vb, vc); break;
   }
   fesetround(FE_TONEAREST);
   return canon32(r);
}

/* Ends a computation done rounding towards zero: back to nearest, and the
 * result's last bit set if it was inexact (round to odd). */
static double odd_if_inexact(double d)
{
   int inexact = fetestexcept(FE_INEXACT);
   fesetround(FE_TONEAREST);
   if (inexact && isfinite(d)) {
      uint64_t u;
      memcpy(&u, &d, 8);
      u |= 1;
      memcpy(&d, &u, 8);
   }
   return d;
}

/* x·y + z rounded to odd in double: round towards zero, then set the last
 * bit if that was inexact.  x·y must be exact in double. */
static double rto(double x, double y, double z)
{
   volatile double vx = x, vy = y, vz = z, r;
   fesetround(FE_TOWARDZERO);
   feclearexcept(FE_INEXACT);
   r = vx * vy + vz;
   return odd_if_inexact(r);
}

static double rto_div(double x, double y)
{
   volatile double vx = x, vy = y, r;
   fesetround(FE_TOWARDZERO);
   feclearexcept(FE_INEXACT);
   r = vx / vy;
   return odd_if_inexact(r);
}

static double rto_sqrt(double x)
{
   volatile double vx = x, r;
   fesetround(FE_TOWARDZERO);
   feclearexcept(FE_INEXACT);
   r = sqrt(vx);
   return odd_if_inexact(r);
}

/* An integer rounded to odd in double (53 bits: enough for 24 + 2). */
static double rto_int(int64_t v, bool is_unsigned)
{
   uint64_t mag = is_unsigned || v >= 0 ? (uint64_t)v : 0 - (uint64_t)v;
   bool neg = !is_unsigned && v < 0;
   int lz = mag ? __builtin_clzll(mag) : 64;
   uint64_t keep = mag;
   if (64 - lz > 53) {   /* keep the top 53 bits, the rest is sticky */
      int drop = 64 - lz - 53;
      keep = (mag >> drop) << drop;
      if (keep != mag)
         keep |= (uint64_t)1 << drop;   /* the last kept bit: odd */
   }
   double d = (double)keep;   /* exact: at most 53 significant bits */
   return neg ? -d : d;
}

/* double (already rounded to odd, or exact) to f32 in mode m. */
static uint32_t dbl_to_f32(double d, int m)
{
   volatile double vd = d;
   volatile float r;
   fesetround(fe_modes[m]);
   r = (float)vd;
   fesetround(FE_TONEAREST);
   return canon32(r);
}

/* Every finite non-negative value of a 16-bit format, ascending (the
 * codes 0..max are in value order), and the format's 2^(emax+1). */
typedef struct fmt16 {
   double val[0x8000];
   uint16_t max, inf;
   double top;
} fmt16;
static fmt16 F16, BF16;

static void fmt16_init(void)
{
   for (uint32_t h = 0; h <= 0x7bff; h++) {
      uint32_t e = h >> 10, f = h & 0x3ff;
      F16.val[h] = e ? ldexp(1024 + f, (int)e - 25) : ldexp(f, -24);
   }
   F16.max = 0x7bff, F16.inf = 0x7c00, F16.top = 65536.0;
   for (uint32_t h = 0; h <= 0x7f7f; h++)
      BF16.val[h] = (double)f_of(h << 16);
   BF16.max = 0x7f7f, BF16.inf = 0x7f80, BF16.top = ldexp(1.0, 128);
}

/* d (exact, or rounded to odd with more than the format's precision + 1
 * bits) rounded to a 16-bit format in mode m; NaN → 0x7fff. */
static uint16_t dbl_to_16(const fmt16 *F, double d, int m)
{
   if (isnan(d))
      return 0x7fff;
   bool neg = signbit(d);
   double x = fabs(d);
   uint16_t s = neg ? 0x8000 : 0, r;
   bool up = m == 3 ? !neg : m == 2 ? neg : false;
   if (isinf(x)) {
      r = F->inf;
   } else if (x >= F->top) {
      r = m == 0 || up ? F->inf : F->max;
   } else {
      uint32_t lo = 0, hi = (uint32_t)F->max + 1;   /* val[lo] <= x < val[hi] (val[max+1] = top) */
      while (hi - lo > 1) {
         uint32_t mid = (lo + hi) / 2;
         if (F->val[mid] <= x)
            lo = mid;
         else
            hi = mid;
      }
      double vlo = F->val[lo], vhi = hi > F->max ? F->top : F->val[hi];
      if (x == vlo)
         r = (uint16_t)lo;
      else if (m == 0) {
         double midv = vlo + (vhi - vlo) / 2;
         r = (uint16_t)(x < midv ? lo : x > midv ? hi : (lo & 1) ? hi : lo);
      } else
         r = (uint16_t)(up ? hi : lo);
   }
   return s | r;
}

static uint32_t ref_f32(int op, uint32_t a, uint32_t b, uint32_t c, int m, bool *disagree)
{
   double x = f_of(a), y = f_of(b), z = f_of(c), d = 0;
   switch (op) {
   case OP_ADD: d = rto(x, 1.0, y); break;
   case OP_MUL: d = rto(x, y, -0.0); break;   /* -0: keeps a zero product's sign */
   case OP_DIV: d = rto_div(x, y); break;
   case OP_SQRT: d = rto_sqrt(x); break;
   case OP_FMA: d = rto(x, y, z); break;
   }
   uint32_t r = dbl_to_f32(d, m), f = fpu_f32(op, a, b, c, m);
   /* x + (-x) and zero products: the sign of an exact zero follows the
    * mode, which the double computation already did in its own mode */
   if (d == 0.0 && (op == OP_ADD || op == OP_FMA)) {
      if (op == OP_ADD ? !(x == 0 && y == 0 && signbit(x) == signbit(y))
                       : !((x * y == 0) && z == 0 && signbit(x * y) == signbit(z)))
         r = m == 2 ? 0x80000000u : 0;
   }
   *disagree = r != f;
   return f;
}

/* An f16 as a double (NaN and infinities included). */
static double f16_val(uint32_t h)
{
   uint32_t a = h & 0x7fff;
   double v = a > 0x7c00 ? NAN : a == 0x7c00 ? INFINITY : F16.val[a];
   return h & 0x8000 ? -v : v;
}

/* The PTX min/max reference (float.metal's rules, written independently
 * with host float comparisons). */
static uint32_t ref_minmax(uint32_t a, uint32_t b, int fmt, bool is_max, bool nan_mode, bool xs)
{
   uint32_t sgn = fmt == 0 ? 0x80000000u : 0x8000u, x = xs ? a & (sgn - 1) : a, y = xs ? b & (sgn - 1) : b;
   double fx = fmt == 0 ? f_of(x) : fmt == 1 ? f16_val(x) : f_of(x << 16);
   double fy = fmt == 0 ? f_of(y) : fmt == 1 ? f16_val(y) : f_of(y << 16);
   bool xn = isnan(fx), yn = isnan(fy);
   uint32_t r;
   if (xn || yn)
      return nan_mode || (xn && yn) ? sgn - 1 : xn ? y | (xs ? (a ^ b) & sgn : 0) : x | (xs ? (a ^ b) & sgn : 0);
   if (fx == fy)   /* ±0: min prefers -0, max +0 */
      r = is_max ? ((x & sgn) ? y : x) : ((x & sgn) ? x : y);
   else
      r = (is_max ? fx > fy : fx < fy) ? x : y;
   return xs ? r | ((a ^ b) & sgn) : r;
}

/* ---- operands ---- */

static uint64_t rng_state;
static uint32_t rnd32(void)
{
   rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
   uint64_t x = rng_state;
   x ^= x >> 33;
   x *= 0xff51afd7ed558ccdull;
   x ^= x >> 33;
   return (uint32_t)x;
}

static const uint32_t specials[] = {
   0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
   0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x00800001, 0x7f7fffff, 0xff7fffff, 0x7f000000,
   0x3f800001, 0x3f7fffff, 0x477fe000, 0x477ff000, 0x33000000, 0x33000001, 0x387fc000, 0x0000ffff,
};

/* A float with a random mantissa and sign, exponent e (unbiased). */
static uint32_t with_exp(int e)
{
   uint32_t m = rnd32() & 0x7fffffu;
   if (rnd32() % 4 == 0)
      m &= rnd32() % 2 ? 0x7f0000u : 0x7fe000u;   /* few bits: exact results and ties */
   int f = e + 127;
   if (f <= 0)
      return (rnd32() & 0x80000000u) | (m >> (1 - f < 31 ? 1 - f : 31));
   if (f >= 255)
      f = 254;
   return (rnd32() & 0x80000000u) | (uint32_t)f << 23 | m;
}

static uint32_t pick_one(void)
{
   uint32_t k = rnd32() % 16;
   if (k < 3)
      return rnd32();
   if (k < 5)
      return specials[rnd32() % ARRAY_SIZE(specials)];
   if (k < 7)
      return with_exp(-150 + (int)(rnd32() % 30));   /* subnormal and the lowest normals */
   if (k < 9)
      return with_exp(100 + (int)(rnd32() % 28));    /* near overflow */
   if (k < 11)
      return with_exp(-30 + (int)(rnd32() % 50));    /* f16's range */
   return with_exp(-8 + (int)(rnd32() % 16));
}

static void make_triple(uint32_t *t)
{
   uint32_t k = rnd32() % 8;
   t[0] = pick_one();
   t[1] = pick_one();
   t[2] = pick_one();
   int ea = (int)((t[0] >> 23) & 0xff);
   switch (k) {
   case 0: {   /* b and c close to a: cancellation; exponents 0..60 apart */
      int d = (int)(rnd32() % 61) - 30;
      t[1] = (t[1] & 0x807fffffu) | (uint32_t)(ea + d < 1 ? 1 : ea + d > 254 ? 254 : ea + d) << 23;
      break;
   }
   case 1: {   /* c = -(a·b) ± a few ulps: fma cancels */
      float p = f_of(t[0]) * f_of(t[1]);
      if (isfinite(p) && p != 0) {
         uint32_t u = u_of(-p) + (uint32_t)((int)(rnd32() % 5) - 2);
         t[2] = u;
      }
      break;
   }
   case 2: {   /* a = b·q exactly: exact quotients */
      float q = f_of(with_exp((int)(rnd32() % 20) - 10) & 0xffff0000u);
      float p = f_of(t[1]) * q;
      if (isfinite(p))
         t[0] = u_of(p);
      break;
   }
   case 3:   /* a = x² (sqrt exact or next to it) */
      t[0] = u_of(f_of(t[1] & 0x7fff0000u) * f_of(t[1] & 0x7fff0000u)) + (rnd32() % 3) - 1;
      break;
   case 4:   /* |a·b| next to the smallest subnormal or the largest finite value */
      t[1] = with_exp((rnd32() % 2 ? -149 : 127) - (int)(((t[0] >> 23) & 0xff) - 127) + (int)(rnd32() % 3) - 1);
      break;
   default:
      break;
   }
}

/* ---- the test ---- */

static bool run_device(mtl_device *dev, uint32_t n, int *bad_out)
{
   mtl_device_info info;
   mtl_device_get_info(dev, &info);
   mtl_pipeline *p = tm_pipeline(dev, kernel_src, "rnd_test");
   if (!p)
      return false;
   mtl_buffer *in = mtl_buffer_new(dev, (size_t)n * 12, NULL), *out = mtl_buffer_new(dev, (size_t)n * W * 4, NULL);
   mtl_queue *q = mtl_queue_new(dev, NULL);
   if (!p || !in || !out || !q) {
      test_fail_(__FILE__, __LINE__, "%s: could not set up the kernel", info.name);
      return false;
   }
   uint32_t *t = mtl_buffer_contents(in), *o = mtl_buffer_contents(out);
   rng_state = 0x243f6a8885a308d3ull;
   for (uint32_t i = 0; i < n; i++)
      make_triple(t + 3 * i);
   memset(o, 0xde, (size_t)n * W * 4);
   bool ok = tm_dispatch(q, p, in, out, n);

   int bad = 0, ref_bad = 0;
   for (uint32_t i = 0; ok && i < n; i++) {
      uint32_t a = t[3 * i], b = t[3 * i + 1], c = t[3 * i + 2], *g = o + (size_t)W * i;
      uint32_t want[W];
      for (int m = 0; m < 4; m++) {
         for (int op = OP_ADD; op <= OP_FMA; op++) {
            bool disagree;
            want[op * 4 + m] = ref_f32(op, a, b, c, m, &disagree);
            if (disagree && ref_bad++ < 5)
               printf("    reference disagrees with itself: %s.%s(%#x, %#x, %#x)\n", op_names[op], mode_names[m], a, b, c);
         }
         want[OP_F2H * 4 + m] = dbl_to_16(&F16, f_of(a), m);
         want[OP_F2BF * 4 + m] = dbl_to_16(&BF16, f_of(a), m);
         want[OP_S32 * 4 + m] = dbl_to_f32(rto_int((int32_t)b, false), m);
         want[OP_U32 * 4 + m] = dbl_to_f32(rto_int(c, true), m);
         want[OP_S64 * 4 + m] = dbl_to_f32(rto_int((int64_t)((uint64_t)a << 32 | b), false), m);
         want[OP_U64H * 4 + m] = dbl_to_16(&F16, rto_int((int64_t)((uint64_t)b << 32 | c), true), m);
         want[OP_S64BF * 4 + m] = dbl_to_16(&BF16, rto_int((int64_t)((uint64_t)c << 32 | a), false), m);
      }
      /* round to nearest of a faithful quotient or root is not what
       * mc_div_rnd/mc_sqrt_rnd promise: .rn uses MSL's / and sqrt */
      want[OP_DIV * 4] = g[OP_DIV * 4];
      want[OP_SQRT * 4] = g[OP_SQRT * 4];
      uint32_t ah = a >> 16, bh = b >> 16, ch = c >> 16, *x = want + NOPS4 * 4;
      x[X_ADD_BF] = dbl_to_16(&BF16, rto(f_of(ah << 16), 1.0, f_of(bh << 16)), 0);
      x[X_MUL_BF] = dbl_to_16(&BF16, rto(f_of(ah << 16), f_of(bh << 16), -0.0), 0);
      x[X_FMA_BF] = dbl_to_16(&BF16, rto(f_of(ah << 16), f_of(bh << 16), f_of(ch << 16)), 0);
      x[X_FMA_H] = dbl_to_16(&F16, rto(f16_val(a & 0xffff), f16_val(b & 0xffff), f16_val(c & 0xffff)), 0);
      x[X_MIN] = ref_minmax(a, b, 0, false, false, false);
      x[X_MAX] = ref_minmax(a, b, 0, true, false, false);
      x[X_MIN_NAN] = ref_minmax(a, b, 0, false, true, false);
      x[X_MAX_XS] = ref_minmax(a, b, 0, true, false, true);
      x[X_MIN_H_XS] = ref_minmax(a & 0xffff, b & 0xffff, 1, false, false, true);
      x[X_MAX_BF_NAN] = ref_minmax(ah, bh, 2, true, true, false);
      for (int k = 0; k < W; k++) {
         if (g[k] == want[k])
            continue;
         if (bad++ < 12) {
            const char *name = k < NOPS4 * 4 ? op_names[k / 4] : x_names[k - NOPS4 * 4];
            printf("    %s: %s%s%s(%#x, %#x, %#x): got %#x, expected %#x\n", info.name, name,
                   k < NOPS4 * 4 ? "." : "", k < NOPS4 * 4 ? mode_names[k % 4] : "", a, b, c, g[k], want[k]);
         }
      }
   }
   if (ref_bad)
      test_fail_(__FILE__, __LINE__, "the host reference disagrees with itself %d times", ref_bad);
   *bad_out = bad;
   mtl_queue_release(q);
   mtl_buffer_release(in);
   mtl_buffer_release(out);
   mtl_pipeline_release(p);
   return ok && !ref_bad;
}

TEST(round_helpers_exact)
{
   const char *full = getenv("MC_TEST_FULL");
   uint32_t n = full && *full && strcmp(full, "0") ? 1u << 23 : 1u << 18;
   fmt16_init();
   for (uint32_t d = 0; d < mtl_device_count(); d++) {
      int bad = 0;
      if (!run_device(mtl_device_get(d), n, &bad))
         return;
      CHECK_MSG(bad == 0, "%d of %u×%d results differ from the exact reference (the first are shown above)", bad,
                n, W);
   }
}
